// RUN: graph-opt %s -split-input-file | graph-opt -split-input-file | FileCheck %s
// RUN: graph-opt %s -split-input-file --graph-fold-constants | FileCheck %s --check-prefix=FOLD
// RUN: graph-opt %s -split-input-file --convert-graph-to-linalg | FileCheck %s --check-prefix=LOWER

// graph.unique: the distinct rows of a matrix, of run-time size.

// CHECK-LABEL: func.func @rows
// CHECK: graph.unique %arg0 {sorted} : (tensor<5x2xi64>) -> (tensor<5x2xi64>, tensor<5xi64>, tensor<5xi64>, tensor<5xi64>, tensor<i64>)
// Three passes of loops over the rows; the count is a tensor of rank 0.
// LOWER-LABEL: func.func @rows
// LOWER-COUNT-3: scf.for %{{.*}} = %c0 to %c5 step %c1
// LOWER: tensor.from_elements %{{.*}} : tensor<i64>
func.func @rows(%x: tensor<5x2xi64>) -> (tensor<5x2xi64>, tensor<5xi64>, tensor<5xi64>, tensor<5xi64>, tensor<i64>) {
  %v, %i, %inv, %c, %n = graph.unique %x {sorted} : (tensor<5x2xi64>) -> (tensor<5x2xi64>, tensor<5xi64>, tensor<5xi64>, tensor<5xi64>, tensor<i64>)
  return %v, %i, %inv, %c, %n : tensor<5x2xi64>, tensor<5xi64>, tensor<5xi64>, tensor<5xi64>, tensor<i64>
}

// -----

// A constant folds: rows [3], [1], [3], [2] sorted are [1], [2], [3] (the
// bound's last row zero), first at rows 1, 3, 0; the rows go to 2, 0, 2,
// 1; counts 1, 1, 2. In the order they first occur: [3], [1], [2].
// FOLD-LABEL: func.func @constant
// FOLD-DAG: graph.constant dense<{{\[}}[1], [2], [3], [0]]> : tensor<4x1xi64>
// FOLD-DAG: graph.constant dense<[1, 3, 0, 0]> : tensor<4xi64>
// FOLD-DAG: graph.constant dense<[2, 0, 2, 1]> : tensor<4xi64>
// FOLD-DAG: graph.constant dense<[1, 1, 2, 0]> : tensor<4xi64>
// FOLD-DAG: graph.constant dense<3> : tensor<i64>
// FOLD-DAG: graph.constant dense<{{\[}}[3], [1], [2], [0]]> : tensor<4x1xi64>
// FOLD-DAG: graph.constant dense<[0, 1, 0, 2]> : tensor<4xi64>
// FOLD-NOT: graph.unique
func.func @constant() -> (tensor<4x1xi64>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>, tensor<i64>, tensor<4x1xi64>, tensor<4xi64>) {
  %x = graph.constant dense<[[3], [1], [3], [2]]> : tensor<4x1xi64>
  %v, %i, %inv, %c, %n = graph.unique %x {sorted} : (tensor<4x1xi64>) -> (tensor<4x1xi64>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>, tensor<i64>)
  %v2, %i2, %inv2, %c2, %n2 = graph.unique %x : (tensor<4x1xi64>) -> (tensor<4x1xi64>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>, tensor<i64>)
  return %v, %i, %inv, %c, %n, %v2, %inv2 : tensor<4x1xi64>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>, tensor<i64>, tensor<4x1xi64>, tensor<4xi64>
}
