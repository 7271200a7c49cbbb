// RUN: graph-opt %s --graph-lower-to-llvm="target-cpu=x86-64-v4" \
// RUN:   --mlir-print-ir-after=convert-scf-to-openmp --mlir-print-ir-module-scope \
// RUN:   --mlir-disable-threading -o /dev/null 2>&1 \
// RUN: | FileCheck %s

// Kernels with enough work (at least 2^19 multiply-adds or elements) run
// their outermost loop over independent output slices as an OpenMP
// worksharing loop; small ones stay serial, where a parallel region would
// cost more than it saves. The slices never depend on the thread count.

// A convolution kernel of its own, 64 -> 64 channels over 28 x 28: the
// output rows are shared out, in 7 slices of 4 rows.
// CHECK-LABEL: func.func private @model_kernel0_conv2d
// CHECK:         omp.parallel
// CHECK:         omp.wsloop
// CHECK:         omp.loop_nest (%{{.*}}) : index = (%c0{{.*}}) to (%c28{{.*}}) step (%c4{{.*}})
// CHECK:         return

// A fused group: its tiles are the slices.
// CHECK-LABEL: func.func private @model_kernel1_conv2d_relu
// CHECK:         omp.parallel
// CHECK:         omp.wsloop
// CHECK:         return

// 256 elements of relu: serial.
// CHECK-LABEL: func.func private @model_kernel2_relu
// CHECK-NOT:     omp.parallel
// CHECK:         return
func.func @model(%x: tensor<1x64x28x28xf32>, %w: tensor<64x64x3x3xf32>, %s: tensor<1x256xf32>) -> (tensor<1x64x28x28xf32>, tensor<1x256xf32>) {
  %0 = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x64x28x28xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x28x28xf32>
  %1 = graph.fused "conv2d_relu" (%0, %w) : (tensor<1x64x28x28xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x28x28xf32> {
  ^bb0(%a: tensor<1x64x28x28xf32>, %b: tensor<64x64x3x3xf32>):
    %2 = graph.conv2d %a, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x64x28x28xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x28x28xf32>
    %3 = graph.relu %2 : tensor<1x64x28x28xf32>
    graph.yield %3 : tensor<1x64x28x28xf32>
  }
  %4 = graph.relu %s : tensor<1x256xf32>
  return %1, %4 : tensor<1x64x28x28xf32>, tensor<1x256xf32>
}
