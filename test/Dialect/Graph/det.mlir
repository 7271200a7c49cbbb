// RUN: graph-opt %s -split-input-file | graph-opt -split-input-file | FileCheck %s
// RUN: graph-opt %s -split-input-file --graph-fold-constants | FileCheck %s --check-prefix=FOLD
// RUN: graph-opt %s -split-input-file --convert-graph-to-linalg | FileCheck %s --check-prefix=LOWER

// graph.det: the determinant of each trailing square matrix.

// CHECK-LABEL: func.func @batch
// CHECK: graph.det %arg0 : (tensor<2x3x4x4xf32>) -> tensor<2x3xf32>
// Loops over the matrices, each factorized in f64 and the result rounded.
// LOWER-LABEL: func.func @batch
// LOWER: scf.for
// LOWER: arith.extf %{{.*}} : f32 to f64
// LOWER: math.absf
// LOWER: arith.divf
// LOWER: arith.truncf %{{.*}} : f64 to f32
// LOWER: tensor.insert
func.func @batch(%x: tensor<2x3x4x4xf32>) -> tensor<2x3xf32> {
  %d = graph.det %x : (tensor<2x3x4x4xf32>) -> tensor<2x3xf32>
  return %d : tensor<2x3xf32>
}

// -----

// Constant matrices fold: [[1, 2], [3, 4]] is -2; [[0, 1], [1, 0]] needs
// a row swap, -1; a repeated row gives exactly 0.
// FOLD-LABEL: func.func @constant
// FOLD: %[[D:.*]] = graph.constant dense<[-2.000000e+00, -1.000000e+00, 0.000000e+00]> : tensor<3xf32>
// FOLD: return %[[D]]
func.func @constant() -> tensor<3xf32> {
  %m = graph.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[0.0, 1.0], [1.0, 0.0]], [[2.0, 5.0], [2.0, 5.0]]]> : tensor<3x2x2xf32>
  %d = graph.det %m : (tensor<3x2x2xf32>) -> tensor<3xf32>
  return %d : tensor<3xf32>
}
