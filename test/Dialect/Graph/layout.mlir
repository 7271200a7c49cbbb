// RUN: graph-opt %s | FileCheck %s
// Round trip: printing, parsing and printing again gives the same text.
// RUN: graph-opt %s | graph-opt | FileCheck %s
// The generic form parses back to the same ops.
// RUN: graph-opt %s --mlir-print-op-generic | graph-opt | FileCheck %s

// The `layout` attribute of conv2d, batch_norm and the pools: NCHW (the
// default, not printed) or `#graph<layout NHWC>`, with an HWCF weight for the
// conv.

// CHECK-LABEL: func.func @conv2d_nhwc
// CHECK: graph.conv2d %{{.*}}, %{{.*}}, %{{.*}} {layout = #graph<layout NHWC>, padding = array<i64: 1, 0, 1, 2>, strides = array<i64: 2, 1>} : (tensor<1x8x9x3xf32>, tensor<3x3x3x4xf32>, tensor<4xf32>) -> tensor<1x4x9x4xf32>
func.func @conv2d_nhwc(%x: tensor<1x8x9x3xf32>, %w: tensor<3x3x3x4xf32>, %b: tensor<4xf32>) -> tensor<1x4x9x4xf32> {
  %0 = graph.conv2d %x, %w, %b {layout = #graph<layout NHWC>, strides = array<i64: 2, 1>, padding = array<i64: 1, 0, 1, 2>} : (tensor<1x8x9x3xf32>, tensor<3x3x3x4xf32>, tensor<4xf32>) -> tensor<1x4x9x4xf32>
  return %0 : tensor<1x4x9x4xf32>
}

// Depthwise: HWCF with C/groups = 1.
// CHECK-LABEL: func.func @conv2d_nhwc_depthwise
// CHECK: graph.conv2d %{{.*}}, %{{.*}} {groups = 6 : i64, layout = #graph<layout NHWC>} : (tensor<1x5x5x6xf32>, tensor<3x3x1x6xf32>) -> tensor<1x3x3x6xf32>
func.func @conv2d_nhwc_depthwise(%x: tensor<1x5x5x6xf32>, %w: tensor<3x3x1x6xf32>) -> tensor<1x3x3x6xf32> {
  %0 = graph.conv2d %x, %w {groups = 6, layout = #graph<layout NHWC>} : (tensor<1x5x5x6xf32>, tensor<3x3x1x6xf32>) -> tensor<1x3x3x6xf32>
  return %0 : tensor<1x3x3x6xf32>
}

// The default is elided when printed, however it was written.
// CHECK-LABEL: func.func @conv2d_nchw_explicit
// CHECK: graph.conv2d %{{.*}}, %{{.*}} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
func.func @conv2d_nchw_explicit(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = graph.conv2d %x, %w {layout = #graph<layout NCHW>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// CHECK-LABEL: func.func @batch_norm_nhwc
// CHECK: graph.batch_norm %{{.*}} {layout = #graph<layout NHWC>} : (tensor<1x2x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x2x3x4xf32>
func.func @batch_norm_nhwc(%x: tensor<1x2x3x4xf32>, %p: tensor<4xf32>) -> tensor<1x2x3x4xf32> {
  %0 = graph.batch_norm %x, %p, %p, %p, %p {layout = #graph<layout NHWC>} : (tensor<1x2x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x2x3x4xf32>
  return %0 : tensor<1x2x3x4xf32>
}

// OH = OW = (7 + 1 + 1 - 3) / 2 + 1 = 4, channels last.
// CHECK-LABEL: func.func @pools_nhwc
// CHECK: graph.max_pool2d %{{.*}} {kernel = array<i64: 3, 3>, layout = #graph<layout NHWC>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x7x7x2xf32>) -> tensor<1x4x4x2xf32>
// CHECK: graph.avg_pool2d %{{.*}} {count_include_pad, kernel = array<i64: 3, 3>, layout = #graph<layout NHWC>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x7x7x2xf32>) -> tensor<1x4x4x2xf32>
// CHECK: graph.global_avg_pool %{{.*}} {layout = #graph<layout NHWC>} : (tensor<1x7x7x2xf32>) -> tensor<1x1x1x2xf32>
func.func @pools_nhwc(%x: tensor<1x7x7x2xf32>) -> (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>) {
  %0 = graph.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, layout = #graph<layout NHWC>} : (tensor<1x7x7x2xf32>) -> tensor<1x4x4x2xf32>
  %1 = graph.avg_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, count_include_pad, layout = #graph<layout NHWC>} : (tensor<1x7x7x2xf32>) -> tensor<1x4x4x2xf32>
  %2 = graph.global_avg_pool %x {layout = #graph<layout NHWC>} : (tensor<1x7x7x2xf32>) -> tensor<1x1x1x2xf32>
  return %0, %1, %2 : tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>
}
