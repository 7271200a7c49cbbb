// RUN: graph-opt %s --canonicalize --split-input-file | FileCheck %s

// Canonicalization of graph.transpose: layout changes compose and cancel,
// become reshapes when they move only unit dimensions, and move past the
// elementwise op that is their only user when that costs no other layout
// change.

// CHECK-LABEL: func.func @cancel
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x3x4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @cancel(%x: tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32> {
  %0 = graph.transpose %x {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x2x3x4xf32>) -> tensor<1x3x4x2xf32>
  %1 = graph.transpose %0 {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x3x4x2xf32>) -> tensor<1x2x3x4xf32>
  return %1 : tensor<1x2x3x4xf32>
}

// -----

// Two transposes that do not cancel compose into one: out dim i is input
// dim p1[p2[i]].
// CHECK-LABEL: func.func @compose
// CHECK-NEXT: %[[T:.*]] = graph.transpose %{{.*}} {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: return %[[T]]
func.func @compose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = graph.transpose %x {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %1 = graph.transpose %0 {perm = array<i64: 1, 2, 0>} : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  return %1 : tensor<4x2x3xf32>
}

// -----

// NHWC to NCHW on a 1x1x1xC tensor (a global pool's result) keeps the
// elements in order: a reshape, not a layout change.
// CHECK-LABEL: func.func @unit_dims
// CHECK-NOT: graph.transpose
// CHECK: graph.reshape %{{.*}} {shape = array<i64: 1, 8, 1, 1>} : (tensor<1x1x1x8xf32>) -> tensor<1x8x1x1xf32>
func.func @unit_dims(%x: tensor<1x1x1x8xf32>) -> tensor<1x8x1x1xf32> {
  %0 = graph.transpose %x {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x1x1x8xf32>) -> tensor<1x8x1x1xf32>
  return %0 : tensor<1x8x1x1xf32>
}

// -----

// A square tensor whose permuted shape is the same is still permuted.
// CHECK-LABEL: func.func @square_is_not_identity
// CHECK: graph.transpose
func.func @square_is_not_identity(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = graph.transpose %x {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// The transpose moves past the chain of elementwise ops after it and meets
// its inverse: both go.
// CHECK-LABEL: func.func @sink_and_cancel
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x8x4xf32>)
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[X]] : tensor<1x8x8x4xf32>
// CHECK-NEXT: %[[S:.*]] = graph.sigmoid %[[R]] : tensor<1x8x8x4xf32>
// CHECK-NEXT: %[[C:.*]] = graph.clip %[[S]] {{.*}} : tensor<1x8x8x4xf32>
// CHECK-NEXT: return %[[C]]
func.func @sink_and_cancel(%x: tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> {
  %y = graph.relu %x : tensor<1x8x8x4xf32>
  %0 = graph.transpose %y {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
  %1 = graph.sigmoid %0 : tensor<1x4x8x8xf32>
  %2 = graph.transpose %1 {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32>
  %3 = graph.clip %2 {min = 0.0 : f32, max = 6.0 : f32} : tensor<1x8x8x4xf32>
  return %3 : tensor<1x8x8x4xf32>
}

// -----

// Binary ops: the other operand is taken through the inverse permutation
// when that is free. A transpose by the same permutation gives its input; a
// per-channel operand (C x 1 x 1 in NCHW) becomes a reshape of the same rank
// (1 x 1 x C, broadcast along the last dimension in NHWC); a scalar-like
// operand stays as it is.
// CHECK-LABEL: func.func @sink_binary
// CHECK-SAME: (%[[A:.*]]: tensor<1x8x8x4xf32>, %[[B:.*]]: tensor<1x8x8x4xf32>, %[[P:.*]]: tensor<4x1x1xf32>, %[[S:.*]]: tensor<1xf32>)
// CHECK-NEXT: %[[A1:.*]] = graph.relu %[[A]]
// CHECK-NEXT: %[[B1:.*]] = graph.relu %[[B]]
// CHECK-NEXT: %[[ADD:.*]] = graph.add %[[A1]], %[[B1]] : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
// CHECK-NEXT: %[[PR:.*]] = graph.reshape %[[P]] {shape = array<i64: 1, 1, 4>} : (tensor<4x1x1xf32>) -> tensor<1x1x4xf32>
// CHECK-NEXT: %[[MUL:.*]] = graph.mul %[[PR]], %[[ADD]] : (tensor<1x1x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
// CHECK-NEXT: %[[SUB:.*]] = graph.sub %[[MUL]], %[[S]] : (tensor<1x8x8x4xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
// CHECK-NEXT: %[[T:.*]] = graph.transpose %[[SUB]] {perm = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: return %[[T]]
func.func @sink_binary(%a: tensor<1x8x8x4xf32>, %b: tensor<1x8x8x4xf32>,
                       %p: tensor<4x1x1xf32>, %s: tensor<1xf32>) -> tensor<1x4x8x8xf32> {
  %a1 = graph.relu %a : tensor<1x8x8x4xf32>
  %b1 = graph.relu %b : tensor<1x8x8x4xf32>
  %ta = graph.transpose %a1 {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
  %tb = graph.transpose %b1 {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
  %0 = graph.add %ta, %tb : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %1 = graph.mul %p, %0 : (tensor<4x1x1xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %2 = graph.sub %1, %s : (tensor<1x4x8x8xf32>, tensor<1xf32>) -> tensor<1x4x8x8xf32>
  return %2 : tensor<1x4x8x8xf32>
}

// -----

// A constant operand is permuted at compile time, a square one too (its
// shape is unchanged, its values are not): element [0, c, h, w] of the NCHW
// constant lands at [0, h, w, c].
// CHECK-LABEL: func.func @sink_constant
// CHECK: %[[K:.*]] = graph.constant dense<{{\[\[\[\[}}0.000000e+00, 4.000000e+00], [1.000000e+00, 5.000000e+00]], {{\[\[}}2.000000e+00, 6.000000e+00], [3.000000e+00, 7.000000e+00]]]]> : tensor<1x2x2x2xf32>
// CHECK: %[[ADD:.*]] = graph.add %{{.*}}, %[[K]] : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
// CHECK-NEXT: %[[T:.*]] = graph.transpose %[[ADD]] {perm = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: return %[[T]]
func.func @sink_constant(%a: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %k = graph.constant dense<[[[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]]]> : tensor<1x2x2x2xf32>
  %a1 = graph.relu %a : tensor<1x2x2x2xf32>
  %t = graph.transpose %a1 {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %0 = graph.add %t, %k : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// The other operand is computed inside the graph in NCHW: moving the
// transpose would need another one, so it stays.
// CHECK-LABEL: func.func @no_sink_other_layout
// CHECK: %[[T:.*]] = graph.transpose
// CHECK-NEXT: %[[Y:.*]] = graph.relu
// CHECK-NEXT: graph.add %[[T]], %[[Y]]
func.func @no_sink_other_layout(%a: tensor<1x8x8x4xf32>, %y: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %a1 = graph.relu %a : tensor<1x8x8x4xf32>
  %t = graph.transpose %a1 {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
  %y1 = graph.relu %y : tensor<1x4x8x8xf32>
  %0 = graph.add %t, %y1 : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

// A graph input as the other operand takes its layout change where it
// enters the graph, at the top.
// CHECK-LABEL: func.func @sink_graph_input
// CHECK-SAME: (%[[A:.*]]: tensor<1x8x8x4xf32>, %[[Y:.*]]: tensor<1x4x8x8xf32>)
// CHECK-NEXT: %[[TY:.*]] = graph.transpose %[[Y]] {perm = array<i64: 0, 2, 3, 1>}
// CHECK-NEXT: %[[A1:.*]] = graph.relu %[[A]]
// CHECK-NEXT: %[[ADD:.*]] = graph.add %[[A1]], %[[TY]]
// CHECK-NEXT: %[[T:.*]] = graph.transpose %[[ADD]] {perm = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: return %[[T]]
func.func @sink_graph_input(%a: tensor<1x8x8x4xf32>, %y: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %a1 = graph.relu %a : tensor<1x8x8x4xf32>
  %t = graph.transpose %a1 {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
  %0 = graph.add %t, %y : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

// A transpose with two users stays: moving it past one would leave it for
// the other and add one after.
// CHECK-LABEL: func.func @no_sink_two_users
// CHECK: %[[T:.*]] = graph.transpose
// CHECK-NEXT: graph.relu %[[T]]
// CHECK-NEXT: graph.tanh %[[T]]
func.func @no_sink_two_users(%a: tensor<1x8x8x4xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) {
  %a1 = graph.sigmoid %a : tensor<1x8x8x4xf32>
  %t = graph.transpose %a1 {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
  %0 = graph.relu %t : tensor<1x4x8x8xf32>
  %1 = graph.tanh %t : tensor<1x4x8x8xf32>
  return %0, %1 : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>
}

// -----

// A transpose of a graph input stays where it is.
// CHECK-LABEL: func.func @input_transpose_stays
// CHECK-NEXT: %[[T:.*]] = graph.transpose
// CHECK-NEXT: graph.relu %[[T]]
func.func @input_transpose_stays(%a: tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32> {
  %t = graph.transpose %a {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
  %0 = graph.relu %t : tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

// batch_norm has channels on a fixed dimension: it switches its layout.
// CHECK-LABEL: func.func @sink_batch_norm
// CHECK: %[[BN:.*]] = graph.batch_norm %{{.*}} {epsilon = 1.000000e-03 : f32, layout = #graph<layout NHWC>} : (tensor<1x8x8x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
// CHECK-NEXT: %[[T:.*]] = graph.transpose %[[BN]] {perm = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: return %[[T]]
func.func @sink_batch_norm(%a: tensor<1x8x8x4xf32>, %p: tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  %a1 = graph.relu %a : tensor<1x8x8x4xf32>
  %t = graph.transpose %a1 {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
  %0 = graph.batch_norm %t, %p, %p, %p, %p {epsilon = 1.0e-3 : f32} : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

// Softmax along the channels is not elementwise: the transpose stays
// before it.
// CHECK-LABEL: func.func @no_sink_softmax
// CHECK: %[[T:.*]] = graph.transpose
// CHECK-NEXT: graph.softmax %[[T]]
func.func @no_sink_softmax(%a: tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32> {
  %a1 = graph.relu %a : tensor<1x8x8x4xf32>
  %t = graph.transpose %a1 {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
  %0 = graph.softmax %t {axis = 1} : tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}
