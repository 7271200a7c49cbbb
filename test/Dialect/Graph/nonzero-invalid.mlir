// RUN: graph-opt %s -split-input-file -verify-diagnostics

func.func @scalar(%x: tensor<f32>) {
  // expected-error @+1 {{'graph.nonzero' op operand 'x' must have rank >= 1}}
  %indices, %count = graph.nonzero %x : (tensor<f32>) -> (tensor<0x1xi64>, tensor<i64>)
  return
}

// -----

func.func @not_the_bound(%x: tensor<3x5xf32>) {
  // expected-error @+1 {{'graph.nonzero' op result 'indices' must be a tensor<2x15xi64>, but got 'tensor<2x7xi64>'}}
  %indices, %count = graph.nonzero %x : (tensor<3x5xf32>) -> (tensor<2x7xi64>, tensor<i64>)
  return
}

// -----

func.func @indices_i32(%x: tensor<3x5xf32>) {
  // expected-error @+1 {{'graph.nonzero' op result 'indices' must be a tensor<2x15xi64>, but got 'tensor<2x15xi32>'}}
  %indices, %count = graph.nonzero %x : (tensor<3x5xf32>) -> (tensor<2x15xi32>, tensor<i64>)
  return
}

// -----

func.func @count_not_scalar(%x: tensor<3x5xf32>) {
  // expected-error @+1 {{'graph.nonzero' op result 'count' must be a tensor<i64> of rank 0, but got 'tensor<1xi64>'}}
  %indices, %count = graph.nonzero %x : (tensor<3x5xf32>) -> (tensor<2x15xi64>, tensor<1xi64>)
  return
}
