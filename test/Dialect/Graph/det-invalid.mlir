// RUN: graph-opt %s -split-input-file -verify-diagnostics

func.func @not_square(%x: tensor<2x3xf32>) -> tensor<f32> {
  // expected-error @+1 {{'graph.det' op operand 'x' must hold square matrices in its last two dimensions, but its shape is [2, 3]}}
  %d = graph.det %x : (tensor<2x3xf32>) -> tensor<f32>
  return %d : tensor<f32>
}

// -----

func.func @integer(%x: tensor<2x2xi32>) -> tensor<i32> {
  // expected-error @+1 {{'graph.det' op operand 'x'}}
  %d = graph.det %x : (tensor<2x2xi32>) -> tensor<i32>
  return %d : tensor<i32>
}

// -----

func.func @result_shape(%x: tensor<5x2x2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.det' op}}
  %d = graph.det %x : (tensor<5x2x2xf32>) -> tensor<2xf32>
  return %d : tensor<2xf32>
}
