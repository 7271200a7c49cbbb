// RUN: graph-opt %s -split-input-file | graph-opt -split-input-file | FileCheck %s
// RUN: graph-opt %s -split-input-file --canonicalize | FileCheck %s --check-prefix=FOLD
// RUN: graph-opt %s -split-input-file --convert-graph-to-linalg | FileCheck %s --check-prefix=LOWER

// graph.top_k_prefix: top_k over the first `valid` elements along the axis
// with a run-time k; results of the bound's shape and their extent.

// CHECK-LABEL: func.func @scores
// CHECK: %values, %indices, %count = graph.top_k_prefix %arg0, %arg1, %arg2 {axis = 0 : i64} : (tensor<8xf32>, tensor<i64>, tensor<i64>) -> (tensor<8xf32>, tensor<8xi64>, tensor<i64>)
// valid and k are clamped (k to valid), the results start as zeros, and one
// pass over the valid elements keeps count of them (insertions that shift
// the kept ones on).
// LOWER-LABEL: func.func @scores
// LOWER: arith.maxsi
// LOWER: arith.minsi
// LOWER: arith.maxsi
// LOWER: arith.minsi
// LOWER: linalg.fill
// LOWER: linalg.fill
// LOWER: scf.for
// LOWER: scf.while
// LOWER: tensor.from_elements
func.func @scores(%x: tensor<8xf32>, %valid: tensor<i64>, %k: tensor<i64>) -> (tensor<8xf32>, tensor<8xi64>, tensor<i64>) {
  %values, %indices, %count = graph.top_k_prefix %x, %valid, %k {axis = 0 : i64} : (tensor<8xf32>, tensor<i64>, tensor<i64>) -> (tensor<8xf32>, tensor<8xi64>, tensor<i64>)
  return %values, %indices, %count : tensor<8xf32>, tensor<8xi64>, tensor<i64>
}

// -----

// Constants fold: the padding past valid (9) is not a candidate; k (5) is
// clamped to valid (3).
// FOLD-LABEL: func.func @constants
// FOLD-DAG: graph.constant dense<[5, 2, 1, 0, 0]> : tensor<5xi32>
// FOLD-DAG: graph.constant dense<[1, 2, 0, 0, 0]> : tensor<5xi64>
// FOLD-DAG: graph.constant dense<3> : tensor<i64>
// FOLD-NOT: graph.top_k_prefix
func.func @constants() -> (tensor<5xi32>, tensor<5xi64>, tensor<i64>) {
  %x = graph.constant dense<[1, 5, 2, 9, 9]> : tensor<5xi32>
  %valid = graph.constant dense<3> : tensor<i64>
  %k = graph.constant dense<5> : tensor<i64>
  %values, %indices, %count = graph.top_k_prefix %x, %valid, %k {axis = 0 : i64} : (tensor<5xi32>, tensor<i64>, tensor<i64>) -> (tensor<5xi32>, tensor<5xi64>, tensor<i64>)
  return %values, %indices, %count : tensor<5xi32>, tensor<5xi64>, tensor<i64>
}
