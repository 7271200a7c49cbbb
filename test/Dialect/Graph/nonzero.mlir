// RUN: graph-opt %s -split-input-file | graph-opt -split-input-file | FileCheck %s
// RUN: graph-opt %s -split-input-file --canonicalize | FileCheck %s --check-prefix=FOLD
// RUN: graph-opt %s -split-input-file --convert-graph-to-linalg | FileCheck %s --check-prefix=LOWER

// graph.nonzero: the indices of the bound's shape [rank, elements] and the
// run-time count beside them.

// CHECK-LABEL: func.func @floats
// CHECK: %indices, %count = graph.nonzero %arg0 : (tensor<3x5xf32>) -> (tensor<2x15xi64>, tensor<i64>)
// One loop per dimension carrying the count; an index is written only for
// a nonzero element (NaN is: une), into the result filled with zeros.
// LOWER-LABEL: func.func @floats
// LOWER: linalg.fill
// LOWER: scf.for
// LOWER: scf.for
// LOWER: arith.cmpf une
// LOWER: scf.if
// LOWER-COUNT-2: tensor.insert
// LOWER: arith.addi
// LOWER: tensor.from_elements
func.func @floats(%x: tensor<3x5xf32>) -> (tensor<2x15xi64>, tensor<i64>) {
  %indices, %count = graph.nonzero %x : (tensor<3x5xf32>) -> (tensor<2x15xi64>, tensor<i64>)
  return %indices, %count : tensor<2x15xi64>, tensor<i64>
}

// -----

// A bool is its own test.
// LOWER-LABEL: func.func @bools
// LOWER-NOT: arith.cmp
// LOWER: scf.if
func.func @bools(%x: tensor<4xi1>) -> (tensor<1x4xi64>, tensor<i64>) {
  %indices, %count = graph.nonzero %x : (tensor<4xi1>) -> (tensor<1x4xi64>, tensor<i64>)
  return %indices, %count : tensor<1x4xi64>, tensor<i64>
}

// -----

// A constant folds: the indices in row-major order (NaN and -0.0: one is
// nonzero, the other not), zeros past the count.
// FOLD-LABEL: func.func @constant
// FOLD-DAG: graph.constant dense<{{\[\[}}0, 1, 1, 0, 0, 0], [0, 0, 2, 0, 0, 0]]> : tensor<2x6xi64>
// FOLD-DAG: graph.constant dense<3> : tensor<i64>
// FOLD-NOT: graph.nonzero
func.func @constant() -> (tensor<2x6xi64>, tensor<i64>) {
  %x = graph.constant dense<[[0x7FC00000, -0.0, 0.0], [2.0, 0.0, 1.0]]> : tensor<2x3xf32>
  %indices, %count = graph.nonzero %x : (tensor<2x3xf32>) -> (tensor<2x6xi64>, tensor<i64>)
  return %indices, %count : tensor<2x6xi64>, tensor<i64>
}
