// RUN: graph-opt %s -split-input-file -verify-diagnostics

func.func @counts_missing(%a: tensor<3xf32>, %b: tensor<2xf32>, %c: tensor<i64>) {
  // expected-error @+1 {{'graph.concat_prefixes' op needs one count per input, and an input}}
  %output, %count = graph.concat_prefixes %a, %b counts %c {axis = 0 : i64} : (tensor<3xf32>, tensor<2xf32>, tensor<i64>) -> (tensor<5xf32>, tensor<i64>)
  return
}

// -----

func.func @count_not_scalar(%a: tensor<3xf32>, %c: tensor<1xi64>) {
  // expected-error @+1 {{'graph.concat_prefixes' op result 'count' must be a tensor<i64> of rank 0, but got 'tensor<1xi64>'}}
  %output, %count = graph.concat_prefixes %a counts %c {axis = 0 : i64} : (tensor<3xf32>, tensor<1xi64>) -> (tensor<3xf32>, tensor<i64>)
  return
}

// -----

func.func @axis_out_of_range(%a: tensor<3xf32>, %c: tensor<i64>) {
  // expected-error @+1 {{'graph.concat_prefixes' op attribute 'axis' (1) must be in [0, 1)}}
  %output, %count = graph.concat_prefixes %a counts %c {axis = 1 : i64} : (tensor<3xf32>, tensor<i64>) -> (tensor<3xf32>, tensor<i64>)
  return
}

// -----

func.func @other_dims_differ(%a: tensor<3x2xf32>, %b: tensor<3x4xf32>, %c: tensor<i64>) {
  // expected-error @+1 {{'graph.concat_prefixes' op input 1 ('tensor<3x4xf32>') must have the element type of input 0 and its sizes but along axis 0 ('tensor<3x2xf32>')}}
  %output, %count = graph.concat_prefixes %a, %b counts %c, %c {axis = 0 : i64} : (tensor<3x2xf32>, tensor<3x4xf32>, tensor<i64>, tensor<i64>) -> (tensor<6x2xf32>, tensor<i64>)
  return
}

// -----

func.func @not_the_bounds_sum(%a: tensor<3xf32>, %b: tensor<2xf32>, %c: tensor<i64>) {
  // expected-error @+1 {{'graph.concat_prefixes' op result 'output' must be 'tensor<5xf32>', but got 'tensor<4xf32>'}}
  %output, %count = graph.concat_prefixes %a, %b counts %c, %c {axis = 0 : i64} : (tensor<3xf32>, tensor<2xf32>, tensor<i64>, tensor<i64>) -> (tensor<4xf32>, tensor<i64>)
  return
}
