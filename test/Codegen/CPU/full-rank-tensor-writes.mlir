// RUN: graph-opt %s --graph-full-rank-tensor-writes --split-input-file | FileCheck %s

// A row written into a 4-D tensor: unit dims in front, the identity map.
// CHECK-LABEL: func.func @rank_reduced
// CHECK-SAME:    (%[[V:.+]]: vector<2x2xf32>, %[[T:.+]]: tensor<1x2x3x2xf32>)
// CHECK:         %[[C:.+]] = vector.shape_cast %[[V]] : vector<2x2xf32> to vector<1x1x2x2xf32>
// CHECK:         vector.transfer_write %[[C]], %[[T]][%c0, %c1, %c1, %c0]
// CHECK-SAME:      {in_bounds = [true, true, true, true]} : vector<1x1x2x2xf32>, tensor<1x2x3x2xf32>
func.func @rank_reduced(%v: vector<2x2xf32>, %t: tensor<1x2x3x2xf32>) -> tensor<1x2x3x2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %w = vector.transfer_write %v, %t[%c0, %c1, %c1, %c0] {in_bounds = [true, true]} : vector<2x2xf32>, tensor<1x2x3x2xf32>
  return %w : tensor<1x2x3x2xf32>
}

// -----

// A write along the leading dim of a 2-D tensor (a column): the unit dim
// goes last; in_bounds follows its dim.
// CHECK-LABEL: func.func @column
// CHECK:         %[[C:.+]] = vector.shape_cast %{{.+}} : vector<4xf32> to vector<4x1xf32>
// CHECK:         vector.transfer_write %[[C]], %{{.+}}[%c0, %c1] {in_bounds = [false, true]} : vector<4x1xf32>, tensor<4x3xf32>
func.func @column(%v: vector<4xf32>, %t: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %w = vector.transfer_write %v, %t[%c0, %c1] {permutation_map = affine_map<(d0, d1) -> (d0)>} : vector<4xf32>, tensor<4x3xf32>
  return %w : tensor<4x3xf32>
}

// -----

// A transposed write: the vector is transposed into the tensor's order.
// CHECK-LABEL: func.func @transposed
// CHECK:         %[[T:.+]] = vector.transpose %{{.+}}, [1, 0] : vector<3x4xf32> to vector<4x3xf32>
// CHECK-NOT:     vector.shape_cast
// CHECK:         vector.transfer_write %[[T]], %{{.+}}[%c0, %c0] {in_bounds = [true, true]} : vector<4x3xf32>, tensor<4x3xf32>
func.func @transposed(%v: vector<3x4xf32>, %t: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %c0 = arith.constant 0 : index
  %w = vector.transfer_write %v, %t[%c0, %c0] {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : vector<3x4xf32>, tensor<4x3xf32>
  return %w : tensor<4x3xf32>
}

// -----

// Left alone: identity maps, memrefs, masked writes.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT:     vector.shape_cast
// CHECK:         vector.transfer_write %{{.+}}, %{{.+}}[%c0, %c0] {in_bounds = [true, true]} : vector<2x4xf32>, tensor<2x4xf32>
// CHECK:         vector.transfer_write %{{.+}}, %{{.+}}[%c0, %c0] {in_bounds = [true]} : vector<4xf32>, memref<2x4xf32>
// CHECK:         vector.transfer_write %{{.+}}, %{{.+}}[%c0, %c0], %{{.+}} {in_bounds = [true]} : vector<4xf32>, tensor<2x4xf32>
func.func @untouched(%a: vector<2x4xf32>, %b: vector<4xf32>, %m: vector<4xi1>, %t: tensor<2x4xf32>, %buf: memref<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %0 = vector.transfer_write %a, %t[%c0, %c0] {in_bounds = [true, true]} : vector<2x4xf32>, tensor<2x4xf32>
  vector.transfer_write %b, %buf[%c0, %c0] {in_bounds = [true]} : vector<4xf32>, memref<2x4xf32>
  %1 = vector.transfer_write %b, %t[%c0, %c0], %m {in_bounds = [true]} : vector<4xf32>, tensor<2x4xf32>
  return %0, %1 : tensor<2x4xf32>, tensor<2x4xf32>
}
