// RUN: graph-opt %s -split-input-file | graph-opt -split-input-file | FileCheck %s
// RUN: graph-opt %s -split-input-file --canonicalize | FileCheck %s --check-prefix=FOLD
// RUN: graph-opt %s -split-input-file --convert-graph-to-linalg | FileCheck %s --check-prefix=LOWER

// graph.concat_prefixes: the valid slices of values of run-time size,
// concatenated along their dimension of run-time size; the bounds' sum and
// the counts' sum.

// CHECK-LABEL: func.func @rows
// CHECK: %output, %count = graph.concat_prefixes %arg0, %arg1 counts %arg2, %arg3 {axis = 0 : i64} : (tensor<4x2xf32>, tensor<3x2xf32>, tensor<i64>, tensor<i64>) -> (tensor<7x2xf32>, tensor<i64>)
// A loop per input over its count (clamped into [0, bound]) copies one row
// each into the zeros at the running offset.
// LOWER-LABEL: func.func @rows
// LOWER: linalg.fill
// LOWER: arith.maxsi
// LOWER: arith.minsi
// LOWER: scf.for
// LOWER: tensor.extract_slice %{{.*}}[%{{.*}}, 0] [1, 2] [1, 1]
// LOWER: tensor.insert_slice
// LOWER: scf.for
// LOWER: tensor.from_elements
func.func @rows(%a: tensor<4x2xf32>, %b: tensor<3x2xf32>, %ca: tensor<i64>, %cb: tensor<i64>) -> (tensor<7x2xf32>, tensor<i64>) {
  %output, %count = graph.concat_prefixes %a, %b counts %ca, %cb {axis = 0 : i64} : (tensor<4x2xf32>, tensor<3x2xf32>, tensor<i64>, tensor<i64>) -> (tensor<7x2xf32>, tensor<i64>)
  return %output, %count : tensor<7x2xf32>, tensor<i64>
}

// -----

// Constants fold: the valid rows in order, then zeros; the count clamped.
// FOLD-LABEL: func.func @constants
// FOLD-DAG: graph.constant dense<[1, 2, 5, 0, 0]> : tensor<5xi32>
// FOLD-DAG: graph.constant dense<3> : tensor<i64>
// FOLD-NOT: graph.concat_prefixes
func.func @constants() -> (tensor<5xi32>, tensor<i64>) {
  %a = graph.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = graph.constant dense<[5, 6]> : tensor<2xi32>
  %ca = graph.constant dense<2> : tensor<i64>
  %cb = graph.constant dense<1> : tensor<i64>
  %output, %count = graph.concat_prefixes %a, %b counts %ca, %cb {axis = 0 : i64} : (tensor<3xi32>, tensor<2xi32>, tensor<i64>, tensor<i64>) -> (tensor<5xi32>, tensor<i64>)
  return %output, %count : tensor<5xi32>, tensor<i64>
}
