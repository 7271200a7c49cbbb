// RUN: graph-opt %s --canonicalize --split-input-file -verify-diagnostics | FileCheck %s

// graph.top_k folds on a constant: largest first, equal values in index
// order, NaN above every number.
// CHECK-LABEL: func.func @fold_largest
// CHECK-DAG: graph.constant dense<[0x7FC00000, 5.000000e+00, 5.000000e+00]> : tensor<3xf32>
// CHECK-DAG: graph.constant dense<[3, 1, 2]> : tensor<3xi64>
func.func @fold_largest() -> (tensor<3xf32>, tensor<3xi64>) {
  %x = graph.constant dense<[1.0, 5.0, 5.0, 0x7FC00000, -2.0, 5.0, 0.0]> : tensor<7xf32>
  %v, %i = graph.top_k %x {k = 3} : (tensor<7xf32>) -> (tensor<3xf32>, tensor<3xi64>)
  return %v, %i : tensor<3xf32>, tensor<3xi64>
}

// -----

// Smallest first along axis 0, unsigned (200 ranks above 9 and 7).
// CHECK-LABEL: func.func @fold_smallest
// CHECK-DAG: graph.constant dense<{{\[\[}}7, 1], [9, 9]]> : tensor<2x2xui8>
// CHECK-DAG: graph.constant dense<{{\[\[}}2, 0], [1, 1]]> : tensor<2x2xi64>
func.func @fold_smallest() -> (tensor<2x2xui8>, tensor<2x2xi64>) {
  %x = graph.constant dense<[[200, 1], [9, 9], [7, 30]]> : tensor<3x2xui8>
  %v, %i = graph.top_k %x {k = 2, axis = 0, smallest} : (tensor<3x2xui8>) -> (tensor<2x2xui8>, tensor<2x2xi64>)
  return %v, %i : tensor<2x2xui8>, tensor<2x2xi64>
}

// -----

func.func @k_too_large(%x: tensor<2x3xf32>) -> (tensor<2x4xf32>, tensor<2x4xi64>) {
  // expected-error @+1 {{'graph.top_k' op attribute 'k' (4) must be in [1, 3], the size of axis 1}}
  %v, %i = graph.top_k %x {k = 4} : (tensor<2x3xf32>) -> (tensor<2x4xf32>, tensor<2x4xi64>)
  return %v, %i : tensor<2x4xf32>, tensor<2x4xi64>
}

// -----

func.func @indices_type(%x: tensor<5xf32>) -> (tensor<2xf32>, tensor<2xi32>) {
  // expected-error @+1 {{'graph.top_k' op result 'indices' must be a tensor of i64, but got 'tensor<2xi32>'}}
  %v, %i = graph.top_k %x {k = 2} : (tensor<5xf32>) -> (tensor<2xf32>, tensor<2xi32>)
  return %v, %i : tensor<2xf32>, tensor<2xi32>
}

// -----

func.func @shape(%x: tensor<5xf32>) -> (tensor<3xf32>, tensor<2xi64>) {
  // expected-error @+1 {{'graph.top_k' op results must have shape [2]}}
  %v, %i = graph.top_k %x {k = 2} : (tensor<5xf32>) -> (tensor<3xf32>, tensor<2xi64>)
  return %v, %i : tensor<3xf32>, tensor<2xi64>
}
