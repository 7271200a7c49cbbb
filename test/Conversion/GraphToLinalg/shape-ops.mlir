// RUN: graph-opt %s --convert-graph-to-linalg --split-input-file | FileCheck %s

// A reshape that only merges dimensions is one collapse_shape.

// CHECK-LABEL: func.func @reshape_collapse
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[R:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_collapse(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %0 = graph.reshape %x {shape = array<i64: 6, 4>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

// One that only splits dimensions is one expand_shape.

// CHECK-LABEL: func.func @reshape_expand
// CHECK-SAME: (%[[X:.*]]: tensor<6x4xf32>)
// CHECK-NEXT: %[[R:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0, 1], [2, 3]] output_shape [2, 3, 1, 4] : tensor<6x4xf32> into tensor<2x3x1x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_expand(%x: tensor<6x4xf32>) -> tensor<2x3x1x4xf32> {
  %0 = graph.reshape %x {shape = array<i64: 2, 3, 1, 4>} : (tensor<6x4xf32>) -> tensor<2x3x1x4xf32>
  return %0 : tensor<2x3x1x4xf32>
}

// -----

// Anything else goes through 1-D.

// CHECK-LABEL: func.func @reshape_mixed
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[F:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
// CHECK-NEXT: %[[R:.*]] = tensor.expand_shape %[[F]] {{\[\[}}0, 1, 2]] output_shape [6, 2, 2] : tensor<24xf32> into tensor<6x2x2xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_mixed(%x: tensor<2x3x4xf32>) -> tensor<6x2x2xf32> {
  %0 = graph.reshape %x {shape = array<i64: 6, 2, 2>} : (tensor<2x3x4xf32>) -> tensor<6x2x2xf32>
  return %0 : tensor<6x2x2xf32>
}

// -----

// Rank 0 in and out.

// CHECK-LABEL: func.func @reshape_rank0
// CHECK-SAME: (%[[X:.*]]: tensor<f32>)
// CHECK-NEXT: %[[E:.*]] = tensor.expand_shape %[[X]] [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
// CHECK-NEXT: %[[C:.*]] = tensor.collapse_shape %[[E]] [] : tensor<1x1xf32> into tensor<f32>
// CHECK-NEXT: return %[[C]]
func.func @reshape_rank0(%x: tensor<f32>) -> tensor<f32> {
  %0 = graph.reshape %x {shape = array<i64: 1, 1>} : (tensor<f32>) -> tensor<1x1xf32>
  %1 = graph.reshape %0 {shape = array<i64>} : (tensor<1x1xf32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @flatten
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4x5xf32>)
// CHECK-NEXT: %[[R:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0], [1, 2, 3]] : tensor<2x3x4x5xf32> into tensor<2x60xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1, 2, 3]] : tensor<2x3x4x5xf32> into tensor<120xf32>
// CHECK-NEXT: %[[T:.*]] = tensor.expand_shape %[[S]] {{\[\[}}0, 1]] output_shape [1, 120] : tensor<120xf32> into tensor<1x120xf32>
// CHECK-NEXT: return %[[R]], %[[T]]
// CHECK-NOT: graph.flatten
func.func @flatten(%x: tensor<2x3x4x5xf32>) -> (tensor<2x60xf32>, tensor<1x120xf32>) {
  %0 = graph.flatten %x : (tensor<2x3x4x5xf32>) -> tensor<2x60xf32>
  %1 = graph.flatten %x {axis = -4 : i64} : (tensor<2x3x4x5xf32>) -> tensor<1x120xf32>
  return %0, %1 : tensor<2x60xf32>, tensor<1x120xf32>
}

// -----

// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4x2x3xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.transpose ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[E]] : tensor<4x2x3xf32>) permutation = [2, 0, 1]
// CHECK-NEXT: return %[[R]]
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// The identity permutation moves nothing: no linalg.transpose, whose
// verifier crashes at rank 0 (found by fuzz/random_graphs.py).
// CHECK-LABEL: func.func @transpose_identity
// CHECK-SAME: (%[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: return %[[X]], %[[Y]]
func.func @transpose_identity(%x: tensor<f32>, %y: tensor<2x3xf32>) -> (tensor<f32>, tensor<2x3xf32>) {
  %0 = graph.transpose %x {perm = array<i64>} : (tensor<f32>) -> tensor<f32>
  %1 = graph.transpose %y {perm = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<f32>, tensor<2x3xf32>
}

// -----

// concat inserts each input at its offset along the (normalized) axis.

// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.*]]: tensor<2x3x4xf32>, %[[B:.*]]: tensor<2x1x4xf32>, %[[C:.*]]: tensor<2x2x4xf32>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<2x6x4xf32>
// CHECK-NEXT: %[[R0:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, 0, 0] [2, 3, 4] [1, 1, 1] : tensor<2x3x4xf32> into tensor<2x6x4xf32>
// CHECK-NEXT: %[[R1:.*]] = tensor.insert_slice %[[B]] into %[[R0]][0, 3, 0] [2, 1, 4] [1, 1, 1] : tensor<2x1x4xf32> into tensor<2x6x4xf32>
// CHECK-NEXT: %[[R2:.*]] = tensor.insert_slice %[[C]] into %[[R1]][0, 4, 0] [2, 2, 4] [1, 1, 1] : tensor<2x2x4xf32> into tensor<2x6x4xf32>
// CHECK-NEXT: return %[[R2]]
func.func @concat(%a: tensor<2x3x4xf32>, %b: tensor<2x1x4xf32>, %c: tensor<2x2x4xf32>) -> tensor<2x6x4xf32> {
  %0 = graph.concat %a, %b, %c {axis = -2 : i64} : (tensor<2x3x4xf32>, tensor<2x1x4xf32>, tensor<2x2x4xf32>) -> tensor<2x6x4xf32>
  return %0 : tensor<2x6x4xf32>
}

// -----

// A single input is the result.

// CHECK-LABEL: func.func @concat_one
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[A]]
func.func @concat_one(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.concat %a {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Constants keep their attribute, dense or dense_resource.

// CHECK-LABEL: func.func @constants
// CHECK-NEXT: %[[D:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %[[R:.*]] = arith.constant dense_resource<blob> : tensor<2xf32>
// CHECK-NEXT: return %[[D]], %[[R]]
// CHECK-NOT: graph.constant
func.func @constants() -> (tensor<2xf32>, tensor<2xf32>) {
  %0 = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = graph.constant dense_resource<blob> : tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F00000040"
    }
  }
#-}
