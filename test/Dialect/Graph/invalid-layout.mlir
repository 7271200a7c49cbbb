// RUN: graph-opt %s -split-input-file -verify-diagnostics

// The `layout` attribute: only #graph<layout NCHW> and #graph<layout NHWC>
// (the string form of earlier versions is refused with a message that names
// them), and shapes checked in the layout the op says.

func.func @conv2d_bad_layout(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+2 {{expected ::mlir::graph::Layout to be one of: NCHW, NHWC}}
  // expected-error @+1 {{failed to parse Graph_LayoutEnumAttr parameter 'value'}}
  %0 = graph.conv2d %x, %w {layout = #graph<layout NCHWc>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

// An NHWC conv's weight is KH x KW x C/groups x F: dim 2 must be C/groups.
func.func @conv2d_nhwc_weight_channels(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x4x4xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{'graph.conv2d' op operand 'weight' dim 2 must be C/groups = 3, but got 4}}
  %0 = graph.conv2d %x, %w {layout = #graph<layout NHWC>} : (tensor<1x8x8x3xf32>, tensor<3x3x4x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

// The result of an NHWC conv is N x OH x OW x F.
func.func @conv2d_nhwc_nchw_result(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'graph.conv2d' op result type 'tensor<1x4x6x6xf32>' does not match the expected 'tensor<1x6x6x4xf32>'}}
  %0 = graph.conv2d %x, %w {layout = #graph<layout NHWC>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_nhwc_rank(%x: tensor<8x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{'graph.conv2d' op operand 'input' must have rank 4 (N x H x W x C), but got rank 3}}
  %0 = graph.conv2d %x, %w {layout = #graph<layout NHWC>} : (tensor<8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

func.func @batch_norm_nhwc_params(%x: tensor<1x2x3x4xf32>, %p: tensor<2xf32>) -> tensor<1x2x3x4xf32> {
  // expected-error @+1 {{'graph.batch_norm' op operand 'scale' must be 1-D of size 4 (input dim 3), but got 'tensor<2xf32>'}}
  %0 = graph.batch_norm %x, %p, %p, %p, %p {layout = #graph<layout NHWC>} : (tensor<1x2x3x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x4xf32>
  return %0 : tensor<1x2x3x4xf32>
}

// -----

func.func @batch_norm_nhwc_rank(%x: tensor<2x4xf32>, %p: tensor<4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'graph.batch_norm' op operand 'input' must have rank 4 (N x H x W x C), but got rank 2}}
  %0 = graph.batch_norm %x, %p, %p, %p, %p {layout = #graph<layout NHWC>} : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @max_pool2d_nhwc_result(%x: tensor<1x4x4x2xf32>) -> tensor<1x2x3x3xf32> {
  // expected-error @+1 {{'graph.max_pool2d' op result type 'tensor<1x2x3x3xf32>' does not match the expected 'tensor<1x3x3x2xf32>'}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 2, 2>, layout = #graph<layout NHWC>} : (tensor<1x4x4x2xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

func.func @avg_pool2d_bad_layout(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
  // expected-error @+1 {{'graph.avg_pool2d' op attribute 'layout' failed to satisfy constraint: a 4-D activation's order, #graph<layout NCHW> or #graph<layout NHWC>}}
  %0 = graph.avg_pool2d %x {kernel = array<i64: 2, 2>, layout = "NHWC"} : (tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

func.func @global_avg_pool_nhwc_result(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x1x1xf32> {
  // expected-error @+1 {{'graph.global_avg_pool' op result type 'tensor<1x4x1x1xf32>' does not match the expected 'tensor<1x1x1x2xf32>'}}
  %0 = graph.global_avg_pool %x {layout = #graph<layout NHWC>} : (tensor<1x4x4x2xf32>) -> tensor<1x4x1x1xf32>
  return %0 : tensor<1x4x1x1xf32>
}
