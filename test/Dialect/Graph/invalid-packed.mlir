// RUN: graph-opt %s -split-input-file -verify-diagnostics

// Weights packed for the micro-kernels (graph-pack-weights): `packed_b` on
// matmul and gemm (N/n0 x K x n0), `packed_weight` on conv2d (F/f0 x KH x
// KW x C x f0). Shapes are checked in the packed form.

// A packed matrix has rank 3.
func.func @matmul_packed_rank(%a: tensor<2x4xf32>, %b: tensor<4x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'graph.matmul' op operand 'b' must have rank 3 (N/n0 x K x n0 (packed_b))}}
  %0 = graph.matmul %a, %b {packed_b} : (tensor<2x4xf32>, tensor<4x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @matmul_packed_k(%a: tensor<2x4xf32>, %b: tensor<2x5x4xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'graph.matmul' op operand 'b' (packed_b) dim 1 must be K = 4, not 5}}
  %0 = graph.matmul %a, %b {packed_b} : (tensor<2x4xf32>, tensor<2x5x4xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// N = N/n0 * n0.
func.func @matmul_packed_n(%a: tensor<2x4xf32>, %b: tensor<2x4x4xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'graph.matmul' op result type 'tensor<2x6xf32>' does not match the expected 'tensor<2x8xf32>'}}
  %0 = graph.matmul %a, %b {packed_b} : (tensor<2x4xf32>, tensor<2x4x4xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @gemm_packed_trans_b(%a: tensor<2x4xf32>, %b: tensor<2x4x4xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'graph.gemm' op 'packed_b' and 'trans_b' exclude each other}}
  %0 = graph.gemm %a, %b {packed_b, trans_b} : (tensor<2x4xf32>, tensor<2x4x4xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// A packed convolution weight has rank 5.
func.func @conv2d_packed_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'graph.conv2d' op operand 'weight' must have rank 5 (F/f0 x KH x KW x C x f0 (packed_weight))}}
  %0 = graph.conv2d %x, %w {packed_weight} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

// Only convolutions of one group are packed.
func.func @conv2d_packed_groups(%x: tensor<1x4x8x8xf32>, %w: tensor<1x3x3x2x4xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'graph.conv2d' op 'packed_weight' needs groups = 1}}
  %0 = graph.conv2d %x, %w {groups = 2 : i64, packed_weight} : (tensor<1x4x8x8xf32>, tensor<1x3x3x2x4xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

// Dim 3 of a packed weight is C.
func.func @conv2d_packed_channels(%x: tensor<1x8x8x3xf32>, %w: tensor<2x3x3x4x2xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{'graph.conv2d' op operand 'weight' dim 3 must be C/groups = 3, but got 4}}
  %0 = graph.conv2d %x, %w {layout = #graph<layout NHWC>, packed_weight} : (tensor<1x8x8x3xf32>, tensor<2x3x3x4x2xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

// F = F/f0 * f0, in NCHW as in NHWC.
func.func @conv2d_packed_filters(%x: tensor<1x3x8x8xf32>, %w: tensor<2x3x3x3x2xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+1 {{'graph.conv2d' op result type 'tensor<1x6x6x6xf32>' does not match the expected 'tensor<1x4x6x6xf32>'}}
  %0 = graph.conv2d %x, %w {packed_weight} : (tensor<1x3x8x8xf32>, tensor<2x3x3x3x2xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}
