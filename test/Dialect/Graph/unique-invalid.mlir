// RUN: graph-opt %s -split-input-file -verify-diagnostics

func.func @not_rows(%x: tensor<5xf32>) {
  // expected-error @+1 {{'graph.unique' op operand 'x' must be a matrix of rows, but its shape is [5]}}
  %v, %i, %inv, %c, %n = graph.unique %x : (tensor<5xf32>) -> (tensor<5xf32>, tensor<5xi64>, tensor<5xi64>, tensor<5xi64>, tensor<i64>)
  return
}

// -----

func.func @values_type(%x: tensor<5x1xf32>) {
  // expected-error @+1 {{'graph.unique' op result 'values' must have the type of 'x', 'tensor<5x1xf32>', but it is 'tensor<5x1xf16>'}}
  %v, %i, %inv, %c, %n = graph.unique %x : (tensor<5x1xf32>) -> (tensor<5x1xf16>, tensor<5xi64>, tensor<5xi64>, tensor<5xi64>, tensor<i64>)
  return
}

// -----

func.func @indices_type(%x: tensor<5x1xf32>) {
  // expected-error @+1 {{'graph.unique' op result 'inverse' must be 'tensor<5xi64>', but it is 'tensor<4xi64>'}}
  %v, %i, %inv, %c, %n = graph.unique %x : (tensor<5x1xf32>) -> (tensor<5x1xf32>, tensor<5xi64>, tensor<4xi64>, tensor<5xi64>, tensor<i64>)
  return
}
