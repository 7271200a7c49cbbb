// RUN: graph-opt %s --graph-eliminate-dead-code | FileCheck %s
// Running the pass twice gives the same IR as running it once.
// RUN: graph-opt %s --graph-eliminate-dead-code --graph-eliminate-dead-code | FileCheck %s

// The seed's dead node: `dead = relu(data)`, fed by an argument and used by
// nothing.
// CHECK-LABEL: func.func @dead_node
// CHECK-SAME: (%[[X:.*]]: tensor<1x8xf32>) -> tensor<1x8xf32>
// CHECK-NOT: graph.relu
// CHECK: %[[T:.*]] = graph.tanh %[[X]]
// CHECK-NOT: graph.relu
// CHECK: return %[[T]]
func.func @dead_node(%data: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %0 = graph.tanh %data : tensor<1x8xf32>
  %dead = graph.relu %data : tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// A dead chain a -> b -> c with c unused goes whole, and the function keeps
// its signature although %x is now unused.
// CHECK-LABEL: func.func @dead_chain
// CHECK-SAME: (%{{.*}}: tensor<1x8xf32>, %[[Y:.*]]: tensor<1x8xf32>) -> tensor<1x8xf32>
// CHECK-NOT: graph.relu
// CHECK-NOT: graph.tanh
// CHECK-NOT: graph.add
// CHECK: return %[[Y]]
func.func @dead_chain(%x: tensor<1x8xf32>, %y: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %a = graph.relu %x : tensor<1x8xf32>
  %b = graph.tanh %a : tensor<1x8xf32>
  %c = graph.add %b, %a : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  return %y : tensor<1x8xf32>
}

// Unused constants go; a used one stays, unfolded (DCE never folds).
// CHECK-LABEL: func.func @dead_constants
// CHECK-NOT: dense<2.0
// CHECK-NOT: dense<3.0
// CHECK: %[[C:.*]] = graph.constant dense<1.000000e+00> : tensor<2xf32>
// CHECK-NOT: dense<2.0
// CHECK-NOT: dense<3.0
// CHECK: %[[R:.*]] = graph.relu %[[C]]
// CHECK: return %[[R]]
func.func @dead_constants() -> tensor<2xf32> {
  %c1 = graph.constant dense<1.0> : tensor<2xf32>
  %c2 = graph.constant dense<2.0> : tensor<2xf32>
  %c3 = graph.constant dense<3.0> : tensor<2xf32>
  %unused = graph.mul %c2, %c3 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %0 = graph.relu %c1 : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// An unused fused group goes, body included, and so do the constants that
// only it read.
// CHECK-LABEL: func.func @dead_fused
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8xf32>, %{{.*}}: tensor<4x3x3x3xf32>) -> tensor<1x3x8x8xf32>
// CHECK-NOT: graph.constant
// CHECK-NOT: graph.fused
// CHECK-NOT: graph.conv2d
// CHECK: return %[[X]]
func.func @dead_fused(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x3x8x8xf32> {
  %b = graph.constant dense<0.5> : tensor<4xf32>
  %0 = graph.fused "conv2d_relu" (%x, %w, %b) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32> {
  ^bb0(%a0: tensor<1x3x8x8xf32>, %a1: tensor<4x3x3x3xf32>, %a2: tensor<4xf32>):
    %1 = graph.conv2d %a0, %a1, %a2 : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
    %2 = graph.relu %1 : tensor<1x4x6x6xf32>
    graph.yield %2 : tensor<1x4x6x6xf32>
  }
  return %x : tensor<1x3x8x8xf32>
}

// Ops with side effects stay even when unused: random_uniform and training
// dropout draw from the RNG. Inference dropout is the identity and goes.
// CHECK-LABEL: func.func @side_effects
// CHECK: graph.random_uniform
// CHECK: graph.dropout %{{.*}} {training}
// CHECK-NOT: graph.dropout
// CHECK: return
func.func @side_effects(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %r = graph.random_uniform {shape = array<i64: 1, 8>} : tensor<1x8xf32>
  %t = graph.dropout %x {training} : tensor<1x8xf32>
  %i = graph.dropout %x : tensor<1x8xf32>
  return %x : tensor<1x8xf32>
}

// Ops that a live op reads, or that are returned, stay.
// CHECK-LABEL: func.func @all_live
// CHECK: %[[A:.*]] = graph.relu
// CHECK: %[[B:.*]] = graph.tanh %[[A]]
// CHECK: %[[C:.*]] = graph.sigmoid %[[B]]
// CHECK: return %[[C]], %[[A]]
func.func @all_live(%x: tensor<1x8xf32>) -> (tensor<1x8xf32>, tensor<1x8xf32>) {
  %a = graph.relu %x : tensor<1x8xf32>
  %b = graph.tanh %a : tensor<1x8xf32>
  %c = graph.sigmoid %b : tensor<1x8xf32>
  return %c, %a : tensor<1x8xf32>, tensor<1x8xf32>
}

// A fused op with one unused result out of two: the result is dropped, and so
// is the body op that computed only it.
// CHECK-LABEL: func.func @fused_unused_result
// CHECK: %[[F:.*]] = graph.fused "matmul_relu"(%{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32> {
// CHECK: ^bb0(%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3x4xf32>):
// CHECK-NEXT: %[[M:.*]] = graph.matmul %[[A]], %[[B]]
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[M]]
// CHECK-NEXT: graph.yield %[[R]] : tensor<2x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @fused_unused_result(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0:2 = graph.fused "matmul_relu"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  ^bb0(%a0: tensor<2x3xf32>, %a1: tensor<3x4xf32>):
    %1 = graph.matmul %a0, %a1 : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %2 = graph.relu %1 : tensor<2x4xf32>
    %3 = graph.sigmoid %1 : tensor<2x4xf32>
    graph.yield %2, %3 : tensor<2x4xf32>, tensor<2x4xf32>
  }
  return %0#0 : tensor<2x4xf32>
}

// A fused operand that the body never reads is dropped, with its block
// argument; the constant behind it then dies. The signature is unchanged.
// CHECK-LABEL: func.func @fused_unused_operand
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[W:.*]]: tensor<3x4xf32>, %{{.*}}: tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NOT: graph.constant
// CHECK: %[[F:.*]] = graph.fused "matmul_tanh"(%[[X]], %[[W]]) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3x4xf32>):
// CHECK-NEXT: %[[M:.*]] = graph.matmul %[[A]], %[[B]]
// CHECK-NEXT: %[[T:.*]] = graph.tanh %[[M]]
// CHECK-NEXT: graph.yield %[[T]]
// CHECK: return %[[F]]
func.func @fused_unused_operand(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>, %y: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %c = graph.constant dense<1.0> : tensor<2x4xf32>
  %0 = graph.fused "matmul_tanh"(%x, %c, %w, %y) : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<3x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32> {
  ^bb0(%a0: tensor<2x3xf32>, %a1: tensor<2x4xf32>, %a2: tensor<3x4xf32>, %a3: tensor<2x4xf32>):
    %1 = graph.matmul %a0, %a2 : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %2 = graph.tanh %1 : tensor<2x4xf32>
    graph.yield %2 : tensor<2x4xf32>
  }
  return %0 : tensor<2x4xf32>
}

// A value passed twice becomes one operand; the body reads one argument.
// CHECK-LABEL: func.func @fused_duplicate_operand
// CHECK-SAME: (%[[X:.*]]: tensor<4x4xf32>, %[[Y:.*]]: tensor<4x4xf32>)
// CHECK: %[[F:.*]] = graph.fused "matmul_add"(%[[X]], %[[Y]]) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<4x4xf32>, %[[B:.*]]: tensor<4x4xf32>):
// CHECK-NEXT: %[[M:.*]] = graph.matmul %[[A]], %[[A]]
// CHECK-NEXT: %[[S:.*]] = graph.add %[[M]], %[[B]]
// CHECK-NEXT: graph.yield %[[S]]
// CHECK: return %[[F]]
func.func @fused_duplicate_operand(%x: tensor<4x4xf32>, %y: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = graph.fused "matmul_add"(%x, %x, %y) : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%a0: tensor<4x4xf32>, %a1: tensor<4x4xf32>, %a2: tensor<4x4xf32>):
    %1 = graph.matmul %a0, %a1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %2 = graph.add %1, %a2 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    graph.yield %2 : tensor<4x4xf32>
  }
  return %0 : tensor<4x4xf32>
}

// A fused group whose body has a side effect stays although its result is
// unused. (graph-fuse never builds one; DCE must still respect it.)
// CHECK-LABEL: func.func @fused_side_effect
// CHECK: graph.fused "relu_dropout"
// CHECK: graph.dropout %{{.*}} {training}
// CHECK: return
func.func @fused_side_effect(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %0 = graph.fused "relu_dropout"(%x) : (tensor<1x8xf32>) -> tensor<1x8xf32> {
  ^bb0(%a0: tensor<1x8xf32>):
    %1 = graph.relu %a0 : tensor<1x8xf32>
    %2 = graph.dropout %1 {training} : tensor<1x8xf32>
    graph.yield %2 : tensor<1x8xf32>
  }
  return %x : tensor<1x8xf32>
}
