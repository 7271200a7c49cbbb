// RUN: graph-opt %s --graph-optimize="target-cpu=x86-64-v4" --graph-lower-to-llvm="target-cpu=x86-64-v4 plan-buffers=false" \
// RUN:   --mlir-print-ir-after=convert-linalg-to-loops --mlir-print-ir-module-scope \
// RUN:   --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s

// A kernel whose result is computed over packed panels (N x OH x OW x F/f0 x
// f0) and returned as N x OH x OW x F writes it straight into its
// out-parameter, through a view of it in panels: no result buffer of its
// own, no copy (graph-return-buffers-not-views).
// CHECK-LABEL: func.func private @main_kernel0_conv2d_relu
// CHECK-SAME: %[[OUT:[a-z0-9]+]]: memref<1x8x8x32xf32>
// CHECK-NOT: memref.copy
// CHECK: memref.expand_shape %[[OUT]] {{.*}} into memref<1x8x8x{{[0-9]+}}x{{[0-9]+}}xf32>
// CHECK-NOT: memref.copy
// CHECK: return
func.func @main(%x: tensor<1x8x8x16xf32>) -> tensor<1x8x8x32xf32> {
  %w = graph.constant dense<0.5> : tensor<3x3x16x32xf32>
  %c = graph.conv2d %x, %w {layout = #graph<layout NHWC>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32>
  %y = graph.relu %c : tensor<1x8x8x32xf32>
  return %y : tensor<1x8x8x32xf32>
}
