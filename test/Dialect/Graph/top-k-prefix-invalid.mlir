// RUN: graph-opt %s -split-input-file -verify-diagnostics

func.func @k_not_scalar(%x: tensor<8xf32>, %valid: tensor<i64>, %k: tensor<1xi64>) {
  // expected-error @+1 {{'graph.top_k_prefix' op operand 'k' must be a tensor<i64> of rank 0, but got 'tensor<1xi64>'}}
  %values, %indices, %count = graph.top_k_prefix %x, %valid, %k {axis = 0 : i64} : (tensor<8xf32>, tensor<i64>, tensor<1xi64>) -> (tensor<8xf32>, tensor<8xi64>, tensor<i64>)
  return
}

// -----

func.func @not_the_bound(%x: tensor<8xf32>, %valid: tensor<i64>, %k: tensor<i64>) {
  // expected-error @+1 {{'graph.top_k_prefix' op results must have shape [8]}}
  %values, %indices, %count = graph.top_k_prefix %x, %valid, %k {axis = 0 : i64} : (tensor<8xf32>, tensor<i64>, tensor<i64>) -> (tensor<3xf32>, tensor<3xi64>, tensor<i64>)
  return
}

// -----

func.func @bools(%x: tensor<8xi1>, %valid: tensor<i64>, %k: tensor<i64>) {
  // expected-error @+1 {{'graph.top_k_prefix' op operand 'x' must be}}
  %values, %indices, %count = graph.top_k_prefix %x, %valid, %k {axis = 0 : i64} : (tensor<8xi1>, tensor<i64>, tensor<i64>) -> (tensor<8xi1>, tensor<8xi64>, tensor<i64>)
  return
}
