// RUN: graph-opt %s --graph-fuse --split-input-file | FileCheck %s
// Running the pass twice gives the same IR as running it once.
// RUN: graph-opt %s --graph-fuse --split-input-file \
// RUN:   | graph-opt --graph-fuse --split-input-file | FileCheck %s

// The canonical group: weights are arguments, so batch_norm is not folded
// and all three ops fuse. Operands appear in order of first use.

// CHECK-LABEL: func.func @conv_bn_relu
// CHECK-SAME: (%[[X:.*]]: tensor<1x1x2x2xf32>, %[[W:.*]]: tensor<2x1x1x1xf32>, %[[S:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<2xf32>, %[[M:.*]]: tensor<2xf32>, %[[V:.*]]: tensor<2xf32>)
// CHECK-NEXT: %[[F:.*]] = graph.fused "conv2d_batch_norm_relu"(%[[X]], %[[W]], %[[S]], %[[B]], %[[M]], %[[V]])
// CHECK-SAME: -> tensor<1x2x2x2xf32> {
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<1x1x2x2xf32>, %[[A1:.*]]: tensor<2x1x1x1xf32>, %[[A2:.*]]: tensor<2xf32>, %[[A3:.*]]: tensor<2xf32>, %[[A4:.*]]: tensor<2xf32>, %[[A5:.*]]: tensor<2xf32>):
// CHECK-NEXT: %[[C:.*]] = graph.conv2d %[[A0]], %[[A1]] :
// CHECK-NEXT: %[[N:.*]] = graph.batch_norm %[[C]], %[[A2]], %[[A3]], %[[A4]], %[[A5]] {epsilon = 1.000000e-03 : f32} :
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[N]] : tensor<1x2x2x2xf32>
// CHECK-NEXT: graph.yield %[[R]] : tensor<1x2x2x2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]] : tensor<1x2x2x2xf32>
func.func @conv_bn_relu(%x: tensor<1x1x2x2xf32>, %w: tensor<2x1x1x1xf32>,
                        %s: tensor<2xf32>, %b: tensor<2xf32>,
                        %m: tensor<2xf32>, %v: tensor<2xf32>)
    -> tensor<1x2x2x2xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.batch_norm %0, %s, %b, %m, %v {epsilon = 1.0e-3 : f32} : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %2 = graph.relu %1 : tensor<1x2x2x2xf32>
  return %2 : tensor<1x2x2x2xf32>
}

// -----

// Constants are operands of the group, not cloned into its body; the conv's
// attributes are kept.

// CHECK-LABEL: func.func @constant_weight_is_operand
// CHECK-SAME: (%[[X:.*]]: tensor<1x1x4x4xf32>)
// CHECK-NEXT: %[[W:.*]] = graph.constant dense<5.000000e-01> : tensor<2x1x2x2xf32>
// CHECK-NEXT: %[[F:.*]] = graph.fused "conv2d_relu"(%[[X]], %[[W]])
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<1x1x4x4xf32>, %[[A1:.*]]: tensor<2x1x2x2xf32>):
// CHECK-NEXT: %[[C:.*]] = graph.conv2d %[[A0]], %[[A1]] {strides = array<i64: 2, 2>} :
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[C]]
// CHECK-NEXT: graph.yield %[[R]]
// CHECK-NOT: graph.constant
// CHECK: return %[[F]]
func.func @constant_weight_is_operand(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %w = graph.constant dense<0.5> : tensor<2x1x2x2xf32>
  %0 = graph.conv2d %x, %w {strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>, tensor<2x1x2x2xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.relu %0 : tensor<1x2x2x2xf32>
  return %1 : tensor<1x2x2x2xf32>
}

// -----

// The conv result is also returned: it has another live user, so the chain
// stops at the anchor and nothing fuses.

// CHECK-LABEL: func.func @bypass_at_anchor
// CHECK-NOT: graph.fused
// CHECK: %[[C:.*]] = graph.conv2d
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[C]]
// CHECK-NEXT: return %[[R]], %[[C]]
func.func @bypass_at_anchor(%x: tensor<1x1x2x2xf32>, %w: tensor<2x1x1x1xf32>)
    -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %0 = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.relu %0 : tensor<1x2x2x2xf32>
  return %1, %0 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}

// -----

// The batch_norm result is also used by a live op: the group ends with the
// batch_norm and both users read the group's result.

// CHECK-LABEL: func.func @bypass_after_bn
// CHECK: %[[F:.*]] = graph.fused "conv2d_batch_norm"
// CHECK: graph.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[F]]
// CHECK-NEXT: %[[T:.*]] = graph.tanh %[[F]]
// CHECK-NEXT: return %[[R]], %[[T]]
func.func @bypass_after_bn(%x: tensor<1x1x2x2xf32>, %w: tensor<2x1x1x1xf32>,
                           %s: tensor<2xf32>, %b: tensor<2xf32>,
                           %m: tensor<2xf32>, %v: tensor<2xf32>)
    -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %0 = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.batch_norm %0, %s, %b, %m, %v : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %2 = graph.relu %1 : tensor<1x2x2x2xf32>
  %3 = graph.tanh %1 : tensor<1x2x2x2xf32>
  return %2, %3 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}

// -----

// Users whose results go nowhere do not stop the chain; they are erased with
// the fusion, transitively.

// CHECK-LABEL: func.func @dead_users_do_not_stop
// CHECK-NEXT: %[[F:.*]] = graph.fused "conv2d_relu_sigmoid"
// CHECK-NOT: graph.tanh
// CHECK-NOT: graph.add
// CHECK: graph.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @dead_users_do_not_stop(%x: tensor<1x1x2x2xf32>, %w: tensor<2x1x1x1xf32>)
    -> tensor<1x2x2x2xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %dead0 = graph.tanh %0 : tensor<1x2x2x2xf32>
  %1 = graph.relu %0 : tensor<1x2x2x2xf32>
  %dead1 = graph.add %dead0, %1 : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %2 = graph.sigmoid %1 : tensor<1x2x2x2xf32>
  return %2 : tensor<1x2x2x2xf32>
}

// -----

// A user with a side effect is live even when its result is unused, and
// training dropout is never an epilogue.

// CHECK-LABEL: func.func @training_dropout_is_live
// CHECK-NOT: graph.fused
// CHECK: %[[C:.*]] = graph.conv2d
// CHECK-NEXT: graph.dropout %[[C]] {training}
// CHECK-NEXT: graph.relu %[[C]]
func.func @training_dropout_is_live(%x: tensor<1x1x2x2xf32>, %w: tensor<2x1x1x1xf32>)
    -> tensor<1x2x2x2xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.dropout %0 {training} : tensor<1x2x2x2xf32>
  %2 = graph.relu %0 : tensor<1x2x2x2xf32>
  return %2 : tensor<1x2x2x2xf32>
}

// -----

// The chain stops before training dropout and random_uniform stays outside
// the group; its result is an ordinary operand.

// CHECK-LABEL: func.func @random_ops_not_fused
// CHECK: %[[RND:.*]] = graph.random_uniform
// CHECK-NEXT: %[[F:.*]] = graph.fused "conv2d_add_relu"(%{{.*}}, %{{.*}}, %[[RND]])
// CHECK-NOT: graph.random_uniform
// CHECK-NOT: graph.dropout
// CHECK: graph.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[D:.*]] = graph.dropout %[[F]] {training}
// CHECK-NEXT: return %[[D]]
func.func @random_ops_not_fused(%x: tensor<1x1x2x2xf32>, %w: tensor<2x1x1x1xf32>)
    -> tensor<1x2x2x2xf32> {
  %r = graph.random_uniform {shape = array<i64: 1, 2, 2, 2>} : tensor<1x2x2x2xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.add %0, %r : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %2 = graph.relu %1 : tensor<1x2x2x2xf32>
  %3 = graph.dropout %2 {training} : tensor<1x2x2x2xf32>
  return %3 : tensor<1x2x2x2xf32>
}

// -----

// A residual connection: the add's other operand comes from outside.

// CHECK-LABEL: func.func @residual_add
// CHECK-SAME: (%[[X:.*]]: tensor<1x1x2x2xf32>, %[[W:.*]]: tensor<2x1x1x1xf32>, %[[S:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<2xf32>, %[[M:.*]]: tensor<2xf32>, %[[V:.*]]: tensor<2xf32>, %[[RES:.*]]: tensor<1x2x2x2xf32>)
// CHECK-NEXT: %[[F:.*]] = graph.fused "conv2d_batch_norm_relu_add"(%[[X]], %[[W]], %[[S]], %[[B]], %[[M]], %[[V]], %[[RES]])
// CHECK-NEXT: ^bb0({{.*}}, %[[A6:.*]]: tensor<1x2x2x2xf32>):
// CHECK: %[[R:.*]] = graph.relu
// CHECK-NEXT: %[[ADD:.*]] = graph.add %[[R]], %[[A6]]
// CHECK-NEXT: graph.yield %[[ADD]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @residual_add(%x: tensor<1x1x2x2xf32>, %w: tensor<2x1x1x1xf32>,
                        %s: tensor<2xf32>, %b: tensor<2xf32>,
                        %m: tensor<2xf32>, %v: tensor<2xf32>,
                        %res: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.batch_norm %0, %s, %b, %m, %v : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %2 = graph.relu %1 : tensor<1x2x2x2xf32>
  %3 = graph.add %2, %res : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %3 : tensor<1x2x2x2xf32>
}

// -----

// The chain value may be either operand of a binary epilogue; a broadcast
// bias is an operand like any other.

// CHECK-LABEL: func.func @add_then_relu
// CHECK-SAME: (%[[X:.*]]: tensor<1x1x2x2xf32>, %[[W:.*]]: tensor<2x1x1x1xf32>, %[[BIAS:.*]]: tensor<2x1x1xf32>)
// CHECK-NEXT: %[[F:.*]] = graph.fused "conv2d_add_relu"(%[[X]], %[[W]], %[[BIAS]])
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<1x1x2x2xf32>, %[[A1:.*]]: tensor<2x1x1x1xf32>, %[[A2:.*]]: tensor<2x1x1xf32>):
// CHECK-NEXT: %[[C:.*]] = graph.conv2d %[[A0]], %[[A1]]
// CHECK-NEXT: %[[ADD:.*]] = graph.add %[[A2]], %[[C]]
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[ADD]]
// CHECK-NEXT: graph.yield %[[R]]
func.func @add_then_relu(%x: tensor<1x1x2x2xf32>, %w: tensor<2x1x1x1xf32>,
                         %bias: tensor<2x1x1xf32>) -> tensor<1x2x2x2xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.add %bias, %0 : (tensor<2x1x1xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %2 = graph.relu %1 : tensor<1x2x2x2xf32>
  return %2 : tensor<1x2x2x2xf32>
}

// -----

// clip (ReLU6) is an epilogue; its attributes are kept in the body.

// CHECK-LABEL: func.func @conv_clip
// CHECK-NEXT: %[[F:.*]] = graph.fused "conv2d_clip"
// CHECK: graph.conv2d
// CHECK-NEXT: %[[CL:.*]] = graph.clip %{{.*}} {max = 6.000000e+00 : f32, min = 0.000000e+00 : f32}
// CHECK-NEXT: graph.yield %[[CL]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @conv_clip(%x: tensor<1x1x2x2xf32>, %w: tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.clip %0 {min = 0.0 : f32, max = 6.0 : f32} : tensor<1x2x2x2xf32>
  return %1 : tensor<1x2x2x2xf32>
}

// -----

// An add that reads the chain value twice has no operand from outside the
// chain: the chain stops before it.

// CHECK-LABEL: func.func @add_of_chain_value_stops
// CHECK-NEXT: %[[F:.*]] = graph.fused "conv2d_relu"
// CHECK: graph.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[ADD:.*]] = graph.add %[[F]], %[[F]]
// CHECK-NEXT: return %[[ADD]]
func.func @add_of_chain_value_stops(%x: tensor<1x1x2x2xf32>, %w: tensor<2x1x1x1xf32>)
    -> tensor<1x2x2x2xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.relu %0 : tensor<1x2x2x2xf32>
  %2 = graph.add %1, %1 : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %2 : tensor<1x2x2x2xf32>
}

// -----

// An add that reads an earlier value of the chain: that value has two live
// users, so the anchor's chain stops there; relu and add, whose only
// intermediate has one user, form an elementwise group reading the conv
// twice.

// CHECK-LABEL: func.func @add_of_earlier_chain_value
// CHECK: %[[C:.*]] = graph.conv2d
// CHECK-NEXT: %[[F:.*]] = graph.fused "relu_add"(%[[C]])
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<1x2x2x2xf32>):
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[A]]
// CHECK-NEXT: %[[ADD:.*]] = graph.add %[[R]], %[[A]]
// CHECK-NEXT: graph.yield %[[ADD]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @add_of_earlier_chain_value(%x: tensor<1x1x2x2xf32>, %w: tensor<2x1x1x1xf32>)
    -> tensor<1x2x2x2xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.relu %0 : tensor<1x2x2x2xf32>
  %2 = graph.add %1, %0 : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %2 : tensor<1x2x2x2xf32>
}

// -----

// matmul anchor with a residual add and relu.

// CHECK-LABEL: func.func @matmul_add_relu
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3x4xf32>, %[[C:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[F:.*]] = graph.fused "matmul_add_relu"(%[[A]], %[[B]], %[[C]]) : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<2x3xf32>, %[[A1:.*]]: tensor<3x4xf32>, %[[A2:.*]]: tensor<4xf32>):
// CHECK-NEXT: %[[MM:.*]] = graph.matmul %[[A0]], %[[A1]]
// CHECK-NEXT: %[[ADD:.*]] = graph.add %[[MM]], %[[A2]]
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[ADD]]
// CHECK-NEXT: graph.yield %[[R]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @matmul_add_relu(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<4xf32>)
    -> tensor<2x4xf32> {
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = graph.add %0, %c : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %2 = graph.relu %1 : tensor<2x4xf32>
  return %2 : tensor<2x4xf32>
}

// -----

// sub, mul, div and tanh are epilogues too; a value read twice by the group
// is one operand.

// CHECK-LABEL: func.func @matmul_arith_chain
// CHECK-SAME: (%[[A:.*]]: tensor<2x2xf32>, %[[K:.*]]: tensor<2x2xf32>)
// CHECK-NEXT: %[[F:.*]] = graph.fused "matmul_sub_mul_div_tanh"(%[[A]], %[[K]]) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<2x2xf32>, %[[A1:.*]]: tensor<2x2xf32>):
// CHECK-NEXT: %[[MM:.*]] = graph.matmul %[[A0]], %[[A0]]
// CHECK-NEXT: %[[SUB:.*]] = graph.sub %[[A0]], %[[MM]]
// CHECK-NEXT: %[[MUL:.*]] = graph.mul %[[SUB]], %[[A1]]
// CHECK-NEXT: %[[DIV:.*]] = graph.div %[[MUL]], %[[A1]]
// CHECK-NEXT: %[[T:.*]] = graph.tanh %[[DIV]]
// CHECK-NEXT: graph.yield %[[T]]
func.func @matmul_arith_chain(%a: tensor<2x2xf32>, %k: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = graph.matmul %a, %a : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = graph.sub %a, %0 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %2 = graph.mul %1, %k : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %3 = graph.div %2, %k : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %4 = graph.tanh %3 : tensor<2x2xf32>
  return %4 : tensor<2x2xf32>
}

// -----

// gemm anchor with its optional operand and attributes.

// CHECK-LABEL: func.func @gemm_sigmoid
// CHECK-SAME: (%[[A:.*]]: tensor<3x2xf32>, %[[B:.*]]: tensor<3x4xf32>, %[[C:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[F:.*]] = graph.fused "gemm_sigmoid"(%[[A]], %[[B]], %[[C]])
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<3x2xf32>, %[[A1:.*]]: tensor<3x4xf32>, %[[A2:.*]]: tensor<4xf32>):
// CHECK-NEXT: %[[G:.*]] = graph.gemm %[[A0]], %[[A1]], %[[A2]] {alpha = 2.000000e+00 : f32, trans_a}
// CHECK-NEXT: %[[SG:.*]] = graph.sigmoid %[[G]]
// CHECK-NEXT: graph.yield %[[SG]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @gemm_sigmoid(%a: tensor<3x2xf32>, %b: tensor<3x4xf32>, %c: tensor<4xf32>)
    -> tensor<2x4xf32> {
  %0 = graph.gemm %a, %b, %c {alpha = 2.0 : f32, trans_a} : (tensor<3x2xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %1 = graph.sigmoid %0 : tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}

// -----

// Two convs in a row give two groups: an anchor is never an epilogue.

// CHECK-LABEL: func.func @two_convs
// CHECK-SAME: (%[[X:.*]]: tensor<1x1x2x2xf32>, %[[W1:.*]]: tensor<2x1x1x1xf32>, %[[W2:.*]]: tensor<3x2x1x1xf32>)
// CHECK-NEXT: %[[F1:.*]] = graph.fused "conv2d_relu"(%[[X]], %[[W1]])
// CHECK: graph.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[F2:.*]] = graph.fused "conv2d_relu"(%[[F1]], %[[W2]])
// CHECK: graph.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F2]]
func.func @two_convs(%x: tensor<1x1x2x2xf32>, %w1: tensor<2x1x1x1xf32>,
                     %w2: tensor<3x2x1x1xf32>) -> tensor<1x3x2x2xf32> {
  %0 = graph.conv2d %x, %w1 : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.relu %0 : tensor<1x2x2x2xf32>
  %2 = graph.conv2d %1, %w2 : (tensor<1x2x2x2xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x2x2xf32>
  %3 = graph.relu %2 : tensor<1x3x2x2xf32>
  return %3 : tensor<1x3x2x2xf32>
}

// -----

// conv feeding conv directly: neither has an epilogue, nothing fuses.

// CHECK-LABEL: func.func @conv_conv
// CHECK-NOT: graph.fused
// CHECK: graph.conv2d
// CHECK-NEXT: graph.conv2d
// CHECK-NEXT: return
func.func @conv_conv(%x: tensor<1x1x2x2xf32>, %w1: tensor<2x1x1x1xf32>,
                     %w2: tensor<3x2x1x1xf32>) -> tensor<1x3x2x2xf32> {
  %0 = graph.conv2d %x, %w1 : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.conv2d %0, %w2 : (tensor<1x2x2x2xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x2x2xf32>
  return %1 : tensor<1x3x2x2xf32>
}

// -----

// An anchor with no epilogue stays as it is.

// CHECK-LABEL: func.func @anchor_alone
// CHECK-NEXT: %[[MM:.*]] = graph.matmul
// CHECK-NEXT: return %[[MM]]
func.func @anchor_alone(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Two live epilogue users: the anchor's result must exist in memory.

// CHECK-LABEL: func.func @anchor_two_epilogues
// CHECK-NOT: graph.fused
// CHECK: %[[MM:.*]] = graph.matmul
// CHECK-NEXT: graph.relu %[[MM]]
// CHECK-NEXT: graph.sigmoid %[[MM]]
func.func @anchor_two_epilogues(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>)
    -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = graph.relu %0 : tensor<2x4xf32>
  %2 = graph.sigmoid %0 : tensor<2x4xf32>
  return %1, %2 : tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// A chain of elementwise ops with no anchor is one group of its own.

// CHECK-LABEL: func.func @no_anchor
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xf32>, %[[Y:.*]]: tensor<2x4xf32>)
// CHECK-NEXT: %[[F:.*]] = graph.fused "relu_add_tanh"(%[[X]], %[[Y]])
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<2x4xf32>, %[[A1:.*]]: tensor<2x4xf32>):
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[A0]]
// CHECK-NEXT: %[[ADD:.*]] = graph.add %[[R]], %[[A1]]
// CHECK-NEXT: %[[T:.*]] = graph.tanh %[[ADD]]
// CHECK-NEXT: graph.yield %[[T]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @no_anchor(%x: tensor<2x4xf32>, %y: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = graph.relu %x : tensor<2x4xf32>
  %1 = graph.add %0, %y : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %2 = graph.tanh %1 : tensor<2x4xf32>
  return %2 : tensor<2x4xf32>
}

// -----

// A tree: two elementwise branches meet in a mul, then a broadcast add and
// a sigmoid. Producers come before their users in the kind and the body;
// a value read by two ops of the group is one operand.

// CHECK-LABEL: func.func @elementwise_tree
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xf32>, %[[Y:.*]]: tensor<2x4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[F:.*]] = graph.fused "relu_tanh_mul_add_sigmoid"(%[[X]], %[[Y]], %[[B]])
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<2x4xf32>, %[[A1:.*]]: tensor<2x4xf32>, %[[A2:.*]]: tensor<4xf32>):
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[A0]]
// CHECK-NEXT: %[[T:.*]] = graph.tanh %[[A1]]
// CHECK-NEXT: %[[M:.*]] = graph.mul %[[R]], %[[T]]
// CHECK-NEXT: %[[ADD:.*]] = graph.add %[[M]], %[[A2]]
// CHECK-NEXT: %[[S:.*]] = graph.sigmoid %[[ADD]]
// CHECK-NEXT: graph.yield %[[S]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @elementwise_tree(%x: tensor<2x4xf32>, %y: tensor<2x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %0 = graph.relu %x : tensor<2x4xf32>
  %1 = graph.tanh %y : tensor<2x4xf32>
  %2 = graph.mul %0, %1 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %3 = graph.add %2, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %4 = graph.sigmoid %3 : tensor<2x4xf32>
  return %4 : tensor<2x4xf32>
}

// -----

// A bypass consumer: the add's result is also returned, so the add cannot
// be an intermediate. The group before it ends there (relu_add), and the
// tanh after it is alone: a single op is no group.

// CHECK-LABEL: func.func @elementwise_bypass
// CHECK-NEXT: %[[F:.*]] = graph.fused "relu_add"
// CHECK: graph.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[T:.*]] = graph.tanh %[[F]]
// CHECK-NEXT: return %[[T]], %[[F]]
func.func @elementwise_bypass(%x: tensor<2x4xf32>, %y: tensor<2x4xf32>)
    -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %0 = graph.relu %x : tensor<2x4xf32>
  %1 = graph.add %0, %y : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %2 = graph.tanh %1 : tensor<2x4xf32>
  return %2, %1 : tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// A value with two live users (the sigmoid's) ends one group and is read
// by the next, twice; a dead user neither stops a group nor survives it.

// CHECK-LABEL: func.func @elementwise_two_users
// CHECK-NEXT: %[[A:.*]] = graph.fused "relu_sigmoid"
// CHECK: graph.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[B:.*]] = graph.fused "relu_tanh_add"(%[[A]])
// CHECK-NEXT: ^bb0(%[[ARG:.*]]: tensor<2x4xf32>):
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[ARG]]
// CHECK-NEXT: %[[T:.*]] = graph.tanh %[[R]]
// CHECK-NEXT: %[[ADD:.*]] = graph.add %[[ARG]], %[[T]]
// CHECK-NEXT: graph.yield %[[ADD]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[B]]
func.func @elementwise_two_users(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = graph.relu %x : tensor<2x4xf32>
  %1 = graph.sigmoid %0 : tensor<2x4xf32>
  %2 = graph.relu %1 : tensor<2x4xf32>
  %dead = graph.sub %2, %x : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %3 = graph.tanh %2 : tensor<2x4xf32>
  %4 = graph.add %1, %3 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %4 : tensor<2x4xf32>
}

// -----

// Anchors already inside a group are left alone.

// CHECK-LABEL: func.func @inside_fused
// CHECK-NEXT: %[[F:.*]] = graph.fused "matmul"
// CHECK-NOT: graph.fused
// CHECK: %[[MM:.*]] = graph.matmul
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[MM]]
// CHECK-NEXT: graph.yield %[[R]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @inside_fused(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = graph.fused "matmul"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32> {
  ^bb0(%x: tensor<2x3xf32>, %y: tensor<3x4xf32>):
    %1 = graph.matmul %x, %y : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %2 = graph.relu %1 : tensor<2x4xf32>
    graph.yield %2 : tensor<2x4xf32>
  }
  return %0 : tensor<2x4xf32>
}

// -----

// Fusion erases the dead users of the intermediates it fuses, and no other
// dead op: an unused op elsewhere, or an unused anchor with its unused
// epilogue, stays for graph-eliminate-dead-code.

// CHECK-LABEL: func.func @other_dead_code_stays
// CHECK-SAME: (%[[A:[^:]+]]: tensor<2x3xf32>, %[[B:[^:]+]]: tensor<3x4xf32>)
// CHECK-NEXT: %[[DEAD:.*]] = graph.sigmoid %[[A]]
// CHECK-NEXT: %[[MM:.*]] = graph.matmul %[[A]], %[[B]]
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[MM]]
// CHECK-NEXT: %[[F:.*]] = graph.fused "matmul_tanh"(%[[A]], %[[B]])
// CHECK-NOT: graph.sigmoid
// CHECK: return %[[F]]
func.func @other_dead_code_stays(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %dead = graph.sigmoid %a : tensor<2x3xf32>
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = graph.relu %0 : tensor<2x4xf32>
  %2 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %dead_user = graph.sigmoid %2 : tensor<2x4xf32>
  %3 = graph.tanh %2 : tensor<2x4xf32>
  return %3 : tensor<2x4xf32>
}

// -----

// A graph.fused that passes a value through to a result nobody uses, or
// takes an operand its body never reads, is trimmed before fusion decides:
// those uses of %t do not keep tanh -> sigmoid apart (else a second run of
// graph-optimize, after graph-eliminate-dead-code trimmed them, would fuse
// what the first did not; random graph of seed 5528).

// CHECK-LABEL: func.func @unused_fused_result
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4xf32>, %[[Y:[^:]+]]: tensor<2xf32>)
// CHECK-NEXT: %[[U:.*]] = graph.fused "user"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<4xf32>):
// CHECK-NEXT: %[[E:.*]] = graph.exp %[[A]]
// CHECK-NEXT: graph.yield %[[E]] : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[F:.*]] = graph.fused "tanh_sigmoid"(%[[X]])
// CHECK: return %[[U]], %[[F]]
func.func @unused_fused_result(%x: tensor<4xf32>, %y: tensor<2xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %t = graph.tanh %x : tensor<4xf32>
  %u:2 = graph.fused "user"(%y, %x, %t) : (tensor<2xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: tensor<2xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>):
    %e = graph.exp %b : tensor<4xf32>
    graph.yield %e, %c : tensor<4xf32>, tensor<4xf32>
  }
  %s = graph.sigmoid %t : tensor<4xf32>
  return %u#0, %s : tensor<4xf32>, tensor<4xf32>
}

// -----

// The same when the unused block argument is the only other use
// (seed 7108), and when a fused result is used by a dead op only.

// CHECK-LABEL: func.func @unread_fused_operand
// CHECK: graph.fused "tanh_neg"(%{{.*}})
// CHECK: graph.fused "user"(%{{[^,]*}}) : (tensor<4xf32>) -> tensor<4xf32> {
func.func @unread_fused_operand(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = graph.tanh %x : tensor<4xf32>
  %n = graph.neg %t : tensor<4xf32>
  %u = graph.fused "user"(%n, %t) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %e = graph.exp %a : tensor<4xf32>
    graph.yield %e : tensor<4xf32>
  }
  return %u : tensor<4xf32>
}

// CHECK-LABEL: func.func @fused_result_with_dead_user
// CHECK-NOT: graph.abs
// CHECK: graph.fused "user"(%{{[^,]*}}) : (tensor<4xf32>) -> tensor<4xf32> {
// CHECK: graph.fused "tanh_sigmoid"
func.func @fused_result_with_dead_user(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %t = graph.tanh %x : tensor<4xf32>
  %u:2 = graph.fused "user"(%x, %t) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %e = graph.exp %a : tensor<4xf32>
    graph.yield %e, %b : tensor<4xf32>, tensor<4xf32>
  }
  %dead = graph.abs %u#1 : tensor<4xf32>
  %s = graph.sigmoid %t : tensor<4xf32>
  return %u#0, %s : tensor<4xf32>, tensor<4xf32>
}

// -----

// An integer anchor's epilogue may change the element type twice: the
// dequantization of its i32 sums, and the quantization of the result, which
// ends the group (the kernel then writes bytes). A float anchor's chain
// stops before a quantization; an NCHW integer convolution (its channels
// not last) keeps its epilogue apart.
// CHECK-LABEL: func.func @integer_epilogue
// CHECK:       %[[Q:.*]] = graph.fused "conv_integer_dequantize_add_relu_quantize"
// CHECK-SAME:    -> tensor<1x4x4x16xui8>
// CHECK:       graph.fused "matmul_integer_dequantize_fake_quantize"
// CHECK:       %[[F:.*]] = graph.fused "conv2d_relu"
// CHECK:       graph.quantize %[[F]]
// CHECK:       graph.conv_integer {{.*}} -> tensor<1x16x4x4xi32>
// CHECK-NEXT:  graph.dequantize
func.func @integer_epilogue(%x: tensor<1x4x4x8xui8>, %a: tensor<3x8xui8>, %f: tensor<1x8x4x4xf32>, %n: tensor<1x8x4x4xui8>) -> (tensor<1x4x4x16xui8>, tensor<3x16xf32>, tensor<1x16x4x4xui8>, tensor<1x16x4x4xf32>) {
  %w = graph.constant dense<1> : tensor<1x1x8x16xi8>
  %m = graph.constant dense<1> : tensor<8x16xi8>
  %fw = graph.constant dense<1.0> : tensor<16x8x1x1xf32>
  %nw = graph.constant dense<1> : tensor<16x8x1x1xi8>
  %z = graph.constant dense<3> : tensor<ui8>
  %wz = graph.constant dense<0> : tensor<i8>
  %s = graph.constant dense<0.5> : tensor<f32>
  %z32 = graph.constant dense<0> : tensor<i32>
  %b = graph.constant dense<0.25> : tensor<1x1x16xf32>
  %c = graph.conv_integer %x, %w, %z, %wz {dilations = array<i64: 1, 1>, layout = #graph<layout NHWC>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x4x8xui8>, tensor<1x1x8x16xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x4x4x16xi32>
  %d = graph.dequantize %c, %s, %z32 : (tensor<1x4x4x16xi32>, tensor<f32>, tensor<i32>) -> tensor<1x4x4x16xf32>
  %e = graph.add %d, %b : (tensor<1x4x4x16xf32>, tensor<1x1x16xf32>) -> tensor<1x4x4x16xf32>
  %r = graph.relu %e : tensor<1x4x4x16xf32>
  %q = graph.quantize %r, %s, %z : (tensor<1x4x4x16xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x4x16xui8>
  %p = graph.matmul_integer %a, %m, %z, %wz : (tensor<3x8xui8>, tensor<8x16xi8>, tensor<ui8>, tensor<i8>) -> tensor<3x16xi32>
  %pd = graph.dequantize %p, %s, %z32 : (tensor<3x16xi32>, tensor<f32>, tensor<i32>) -> tensor<3x16xf32>
  %pq = graph.fake_quantize %pd, %s, %z : (tensor<3x16xf32>, tensor<f32>, tensor<ui8>) -> tensor<3x16xf32>
  %fc = graph.conv2d %f, %fw : (tensor<1x8x4x4xf32>, tensor<16x8x1x1xf32>) -> tensor<1x16x4x4xf32>
  %fr = graph.relu %fc : tensor<1x16x4x4xf32>
  %fq = graph.quantize %fr, %s, %z : (tensor<1x16x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x16x4x4xui8>
  %nc = graph.conv_integer %n, %nw, %z, %wz {dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x8x4x4xui8>, tensor<16x8x1x1xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x16x4x4xi32>
  %nd = graph.dequantize %nc, %s, %z32 : (tensor<1x16x4x4xi32>, tensor<f32>, tensor<i32>) -> tensor<1x16x4x4xf32>
  return %q, %pq, %fq, %nd : tensor<1x4x4x16xui8>, tensor<3x16xf32>, tensor<1x16x4x4xui8>, tensor<1x16x4x4xf32>
}

// -----

// An integer anchor's group holds only the ops its kernel applies in
// registers: a GELU stays out of it, and so does an add of a
// per-row operand (neither one value, one per column nor one per element).
// CHECK-LABEL: func.func @integer_epilogue_stops
// CHECK:       %[[P:.*]] = graph.fused "matmul_integer_dequantize_add"
// CHECK:       graph.gelu %[[P]]
// CHECK:       %[[R:.*]] = graph.fused "matmul_integer_dequantize"
// CHECK:       graph.add %[[R]]
func.func @integer_epilogue_stops(%a: tensor<3x8xui8>, %rows: tensor<3x1xf32>) -> (tensor<3x16xui8>, tensor<3x16xf32>) {
  %m = graph.constant dense<1> : tensor<8x16xi8>
  %z = graph.constant dense<3> : tensor<ui8>
  %wz = graph.constant dense<0> : tensor<i8>
  %s = graph.constant dense<0.5> : tensor<f32>
  %z32 = graph.constant dense<0> : tensor<i32>
  %b = graph.constant dense<0.25> : tensor<16xf32>
  %p = graph.matmul_integer %a, %m, %z, %wz : (tensor<3x8xui8>, tensor<8x16xi8>, tensor<ui8>, tensor<i8>) -> tensor<3x16xi32>
  %d = graph.dequantize %p, %s, %z32 : (tensor<3x16xi32>, tensor<f32>, tensor<i32>) -> tensor<3x16xf32>
  %e = graph.add %b, %d : (tensor<16xf32>, tensor<3x16xf32>) -> tensor<3x16xf32>
  %g = graph.gelu %e : tensor<3x16xf32>
  %q = graph.quantize %g, %s, %z : (tensor<3x16xf32>, tensor<f32>, tensor<ui8>) -> tensor<3x16xui8>
  %p2 = graph.matmul_integer %a, %m, %z, %wz : (tensor<3x8xui8>, tensor<8x16xi8>, tensor<ui8>, tensor<i8>) -> tensor<3x16xi32>
  %d2 = graph.dequantize %p2, %s, %z32 : (tensor<3x16xi32>, tensor<f32>, tensor<i32>) -> tensor<3x16xf32>
  %r = graph.add %d2, %rows : (tensor<3x16xf32>, tensor<3x1xf32>) -> tensor<3x16xf32>
  return %q, %r : tensor<3x16xui8>, tensor<3x16xf32>
}
