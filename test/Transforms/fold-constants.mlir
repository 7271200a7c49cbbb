// RUN: graph-opt %s --graph-fold-constants | FileCheck %s
// Running the pass twice gives the same IR as running it once.
// RUN: graph-opt %s --graph-fold-constants --graph-fold-constants | FileCheck %s
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graph-fold-constants))' | FileCheck %s

// Expected values: Inputs/fold_constants_expected.py (NumPy) or by hand.
// Folding replaces the ops it folds and erases nothing else: the constants
// a fold leaves unused stay for graph-eliminate-dead-code (the seed's story:
// DCE sweeps what folding and fusion leave behind), so the checks below look
// for the new constant after the input's ones.

// A chain of constant ops folds to one constant: relu(2 * [3, -4] + 3).
// CHECK-LABEL: func.func @constant_chain
// CHECK-NOT: graph.mul
// CHECK: %[[C:.+]] = graph.constant dense<[9.000000e+00, 0.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: return %[[C]] : tensor<2xf32>
func.func @constant_chain() -> tensor<2xf32> {
  %c1 = graph.constant dense<2.0> : tensor<2xf32>
  %b = graph.constant dense<[3.0, -4.0]> : tensor<2xf32>
  %c2 = graph.constant dense<3.0> : tensor<2xf32>
  %0 = graph.mul %c1, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = graph.add %0, %c2 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = graph.relu %1 : tensor<2xf32>
  return %2 : tensor<2xf32>
}

// Splats stay splats all along the chain: tanh(2 * 3 - 6.5) = tanh(-0.5).
// CHECK-LABEL: func.func @splat_chain
// CHECK-NOT: graph.mul
// CHECK: %[[C:.+]] = graph.constant dense<{{-0.462117[0-9]*|-4.621172e-01}}> : tensor<64x64xf32>
// CHECK-NEXT: return %[[C]]
func.func @splat_chain() -> tensor<64x64xf32> {
  %a = graph.constant dense<2.0> : tensor<64x64xf32>
  %b = graph.constant dense<3.0> : tensor<64xf32>
  %c = graph.constant dense<6.5> : tensor<64x64xf32>
  %0 = graph.mul %a, %b : (tensor<64x64xf32>, tensor<64xf32>) -> tensor<64x64xf32>
  %1 = graph.sub %0, %c : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %2 = graph.tanh %1 : tensor<64x64xf32>
  return %2 : tensor<64x64xf32>
}

// Splat elementwise ops: sigmoid(0) = 0.5, relu(-0) = +0, clip, division.
// CHECK-LABEL: func.func @splat_elementwise
// CHECK: graph.constant dense<-4.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: %[[S:.+]] = graph.constant dense<5.000000e-01> : tensor<8x8xf32>
// CHECK-NEXT: %[[R:.+]] = graph.constant dense<0.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: %[[K:.+]] = graph.constant dense<6.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: %[[D:.+]] = graph.constant dense<-2.500000e-01> : tensor<8x8xf32>
// CHECK-NEXT: return %[[S]], %[[R]], %[[K]], %[[D]]
func.func @splat_elementwise() -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %z = graph.constant dense<0.0> : tensor<8x8xf32>
  %nz = graph.constant dense<-0.0> : tensor<8x8xf32>
  %big = graph.constant dense<9.0> : tensor<8x8xf32>
  %m = graph.constant dense<-4.0> : tensor<8x8xf32>
  %0 = graph.sigmoid %z : tensor<8x8xf32>
  %1 = graph.relu %nz : tensor<8x8xf32>
  %2 = graph.clip %big {min = 0.0 : f32, max = 6.0 : f32} : tensor<8x8xf32>
  %3 = graph.div %1, %m : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %4 = graph.div %0, %m : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %5 = graph.sub %4, %3 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %6 = graph.sub %5, %1 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %7 = graph.add %6, %6 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0, %1, %2, %7 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// Only the constant part of x + (2 * 3) folds.
// CHECK-LABEL: func.func @partly_constant
// CHECK-SAME: (%[[X:.+]]: tensor<3xf32>)
// CHECK-NOT: graph.mul
// CHECK: %[[C:.+]] = graph.constant dense<6.000000e+00> : tensor<3xf32>
// CHECK-NEXT: %[[R:.+]] = graph.add %[[X]], %[[C]]
// CHECK-NEXT: %[[S:.+]] = graph.sigmoid %[[R]]
// CHECK-NEXT: return %[[S]]
func.func @partly_constant(%x: tensor<3xf32>) -> tensor<3xf32> {
  %a = graph.constant dense<2.0> : tensor<3xf32>
  %b = graph.constant dense<3.0> : tensor<3xf32>
  %0 = graph.mul %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = graph.add %x, %0 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = graph.sigmoid %1 : tensor<3xf32>
  return %2 : tensor<3xf32>
}

// The exact identities fold: x * 1, 1 * x, x / 1, x - (+0), x + (-0),
// (-0) + x.
// CHECK-LABEL: func.func @identity_allowed
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// CHECK-NOT: graph.mul
// CHECK-NOT: graph.div
// CHECK-NOT: graph.sub
// CHECK-NOT: graph.add
// CHECK: return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]]
func.func @identity_allowed(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %one = graph.constant dense<1.0> : tensor<3xf32>
  %pz = graph.constant dense<0.0> : tensor<2x3xf32>
  %nz = graph.constant dense<-0.0> : tensor<1x1xf32>
  %0 = graph.mul %x, %one : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = graph.mul %one, %x : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.div %x, %one : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %3 = graph.sub %x, %pz : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = graph.add %x, %nz : (tensor<2x3xf32>, tensor<1x1xf32>) -> tensor<2x3xf32>
  %5 = graph.add %nz, %x : (tensor<1x1xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// Not exact, so never folded: x + (+0) (-0 + +0 = +0), x - (-0), x * 0
// (NaN * 0 = NaN), 1 / x; and x * 1, x / 1 where the 1 broadcasts x to a
// larger shape.
// CHECK-LABEL: func.func @identity_forbidden
// CHECK-SAME: (%[[X:.+]]: tensor<3xf32>)
// CHECK-DAG: %[[ONE:.+]] = graph.constant dense<1.000000e+00> : tensor<2x3xf32>
// CHECK-DAG: %[[PZ:.+]] = graph.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-DAG: %[[NZ:.+]] = graph.constant dense<-0.000000e+00> : tensor<3xf32>
// CHECK-DAG: %[[A:.+]] = graph.add %[[X]], %[[PZ]]
// CHECK-DAG: %[[B:.+]] = graph.add %[[PZ]], %[[X]]
// CHECK-DAG: %[[S:.+]] = graph.sub %[[X]], %[[NZ]]
// CHECK-DAG: %[[M:.+]] = graph.mul %[[X]], %[[PZ]]
// CHECK-DAG: %[[MB:.+]] = graph.mul %[[X]], %[[ONE]]
// CHECK-DAG: %[[DB:.+]] = graph.div %[[X]], %[[ONE]]
// CHECK-DAG: %[[R:.+]] = graph.div %[[ONE]], %[[X]]
// CHECK: return %[[A]], %[[B]], %[[S]], %[[M]], %[[MB]], %[[DB]], %[[R]]
func.func @identity_forbidden(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %one = graph.constant dense<1.0> : tensor<2x3xf32>
  %pz = graph.constant dense<0.0> : tensor<3xf32>
  %nz = graph.constant dense<-0.0> : tensor<3xf32>
  %0 = graph.add %x, %pz : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = graph.add %pz, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = graph.sub %x, %nz : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %3 = graph.mul %x, %pz : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %4 = graph.mul %x, %one : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = graph.div %x, %one : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = graph.div %one, %x : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// On constants the forbidden identities still evaluate, exactly:
// -0 + +0 = +0, NaN * 0 = NaN, -0 - -0 = +0.
// CHECK-LABEL: func.func @signed_zero_and_nan
// CHECK: %[[A:.+]] = graph.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK: %[[M:.+]] = graph.constant dense<[0x7FC00000, -0.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %[[S:.+]] = graph.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT: return %[[A]], %[[M]], %[[S]]
func.func @signed_zero_and_nan() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %nz = graph.constant dense<-0.0> : tensor<2xf32>
  %pz = graph.constant dense<0.0> : tensor<2xf32>
  %v = graph.constant dense<[0x7FC00000, -3.0]> : tensor<2xf32>
  %0 = graph.add %nz, %pz : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = graph.mul %v, %pz : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = graph.sub %nz, %nz : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0, %1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// Inference dropout is the identity and disappears.
// CHECK-LABEL: func.func @dropout_inference
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK-NOT: graph.dropout
// CHECK: return %[[X]]
func.func @dropout_inference(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.dropout %x {ratio = 0.25 : f32} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Random ops have side effects: never folded, even on constant operands.
// CHECK-LABEL: func.func @random_untouched
// CHECK: %[[C:.+]] = graph.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK: %[[D:.+]] = graph.dropout %[[C]] {training} : tensor<4xf32>
// CHECK: %[[R:.+]] = graph.random_uniform {{.*}}seed = 7 : i64{{.*}} : tensor<4xf32>
// CHECK: %[[S:.+]] = graph.relu %[[R]]
// CHECK: graph.dropout %[[C]] {ratio = 1.000000e-01 : f32, training}
// CHECK: return %[[D]], %[[S]]
func.func @random_untouched() -> (tensor<4xf32>, tensor<4xf32>) {
  %c = graph.constant dense<1.0> : tensor<4xf32>
  %0 = graph.dropout %c {training} : tensor<4xf32>
  %1 = graph.random_uniform {shape = array<i64: 4>, seed = 7 : i64} : tensor<4xf32>
  %2 = graph.relu %1 : tensor<4xf32>
  // Unused, but it advances the generator: it stays.
  %3 = graph.dropout %c {ratio = 0.1 : f32, training} : tensor<4xf32>
  return %0, %2 : tensor<4xf32>, tensor<4xf32>
}

// A graph.fused with constant operands is evaluated through its body:
// relu([[1, 2], [3, 4]] x [[1, -1], [0, 2]]).
// CHECK-LABEL: func.func @fused_constant
// CHECK-NOT: graph.fused
// CHECK: %[[C:.+]] = graph.constant dense<{{\[\[}}1.000000e+00, 3.000000e+00], [3.000000e+00, 5.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @fused_constant() -> tensor<2x2xf32> {
  %a = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = graph.constant dense<[[1.0, -1.0], [0.0, 2.0]]> : tensor<2x2xf32>
  %0 = graph.fused "matmul_relu" (%a, %b) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32> {
  ^bb0(%x: tensor<2x2xf32>, %y: tensor<2x2xf32>):
    %1 = graph.matmul %x, %y : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %2 = graph.relu %1 : tensor<2x2xf32>
    graph.yield %2 : tensor<2x2xf32>
  }
  return %0 : tensor<2x2xf32>
}

// A graph.fused with a non-constant operand stays.
// CHECK-LABEL: func.func @fused_not_constant
// CHECK: graph.fused "matmul_relu"
// CHECK: graph.matmul
// CHECK: graph.relu
func.func @fused_not_constant(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %b = graph.constant dense<[[1.0, -1.0], [0.0, 2.0]]> : tensor<2x2xf32>
  %0 = graph.fused "matmul_relu" (%a, %b) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32> {
  ^bb0(%x: tensor<2x2xf32>, %y: tensor<2x2xf32>):
    %1 = graph.matmul %x, %y : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %2 = graph.relu %1 : tensor<2x2xf32>
    graph.yield %2 : tensor<2x2xf32>
  }
  return %0 : tensor<2x2xf32>
}

// Non-constant operands and body ops that the yielded values do not need do
// not keep a graph.fused from folding: the results do not depend on them.
// (Else DCE would drop them and a second graph-optimize fold the op: found
// by fuzz/random_graphs.py as a graph-optimize that was not idempotent.)
// CHECK-LABEL: func.func @fused_unused_operand
// CHECK-NOT: graph.fused
// CHECK: %[[C:.*]] = graph.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00], [0.000000e+00, 2.000000e+00]]> : tensor<2x2xf32>
// CHECK: %[[D:.*]] = graph.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00], [0.000000e+00, 2.000000e+00]]> : tensor<2x2xf32>
// CHECK: return %[[C]], %[[D]]
func.func @fused_unused_operand(%a: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %b = graph.constant dense<[[1.0, -1.0], [0.0, 2.0]]> : tensor<2x2xf32>
  %0 = graph.fused "relu" (%a, %b) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32> {
  ^bb0(%x: tensor<2x2xf32>, %y: tensor<2x2xf32>):
    %1 = graph.relu %y : tensor<2x2xf32>
    graph.yield %1 : tensor<2x2xf32>
  }
  %2 = graph.fused "k" (%a, %b) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32> {
  ^bb0(%x: tensor<2x2xf32>, %y: tensor<2x2xf32>):
    %3 = graph.tanh %x : tensor<2x2xf32>
    %4 = graph.relu %3 : tensor<2x2xf32>
    %5 = graph.relu %y : tensor<2x2xf32>
    graph.yield %5 : tensor<2x2xf32>
  }
  return %0, %2 : tensor<2x2xf32>, tensor<2x2xf32>
}

// A yielded block argument folds to its operand, constant or not, so that a
// result nobody uses (which DCE would drop) does not keep the other from
// folding; an identity graph.fused folds away (found by random graphs).
// CHECK-LABEL: func.func @fused_yields_arguments
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>)
// CHECK: %[[B:.*]] = graph.constant dense<5.000000e-01> : tensor<3xf32>
// CHECK-NOT: graph.fused
// CHECK: return %[[B]], %[[A]], %[[A]]
func.func @fused_yields_arguments(%a: tensor<2xf32>) -> (tensor<3xf32>, tensor<2xf32>, tensor<2xf32>) {
  %b = graph.constant dense<0.5> : tensor<3xf32>
  %0:2 = graph.fused "k" (%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> (tensor<2xf32>, tensor<3xf32>) {
  ^bb0(%x: tensor<2xf32>, %y: tensor<3xf32>):
    graph.yield %x, %y : tensor<2xf32>, tensor<3xf32>
  }
  %1 = graph.fused "identity" (%a) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%x: tensor<2xf32>):
    graph.yield %x : tensor<2xf32>
  }
  return %0#1, %0#0, %1 : tensor<3xf32>, tensor<2xf32>, tensor<2xf32>
}

// A result nobody uses may fold to anything (here a zero that DCE sweeps):
// it does not keep the used ones from folding. With no result used, the
// op folds whole or not at all: dead code stays for DCE (found by random
// graphs, as a graph-optimize that was not idempotent).
// CHECK-LABEL: func.func @fused_unused_result
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>)
// CHECK: graph.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK: %[[DEAD:.*]]:2 = graph.fused "dead"
// CHECK: return %[[A]]
func.func @fused_unused_result(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0:2 = graph.fused "k" (%a) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  ^bb0(%x: tensor<2xf32>):
    %1 = graph.relu %x : tensor<2xf32>
    graph.yield %1, %x : tensor<2xf32>, tensor<2xf32>
  }
  %2:2 = graph.fused "dead" (%a) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  ^bb0(%x: tensor<2xf32>):
    %3 = graph.relu %x : tensor<2xf32>
    graph.yield %3, %x : tensor<2xf32>, tensor<2xf32>
  }
  return %0#1 : tensor<2xf32>
}

// A passed-through input is forwarded even when another result, used by a
// dead op only, cannot be computed: graph-eliminate-dead-code then drops the
// group whole, and a second graph-optimize has nothing left to fold (random
// graph 1176). The group stays here: dead code is DCE's.
// CHECK-LABEL: func.func @fused_passes_input_through
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>)
// CHECK: %[[G:.*]]:2 = graph.fused "k"
// CHECK: graph.mul %[[G]]#1
// CHECK: return %[[A]]
func.func @fused_passes_input_through(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0:2 = graph.fused "k" (%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  ^bb0(%x: tensor<2xf32>, %y: tensor<2xf32>):
    %1 = graph.relu %x : tensor<2xf32>
    graph.yield %y, %1 : tensor<2xf32>, tensor<2xf32>
  }
  %dead = graph.mul %0#1, %0#1 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0#0 : tensor<2xf32>
}

// Likewise a result that yields a constant of the body: its users read a
// copy of the constant (random graph 1584).
// CHECK-LABEL: func.func @fused_yields_constant
// CHECK: %[[C:.*]] = graph.constant dense<5.000000e-01> : tensor<1xf32>
// CHECK: %[[G:.*]]:2 = graph.fused "k"
// CHECK: graph.flatten %[[G]]#1
// CHECK: return %[[C]]
func.func @fused_yields_constant(%a: tensor<1x1x1x2xf32>) -> tensor<1xf32> {
  %0:2 = graph.fused "k" (%a) : (tensor<1x1x1x2xf32>) -> (tensor<1xf32>, tensor<2x1x1x1xf32>) {
  ^bb0(%x: tensor<1x1x1x2xf32>):
    %1 = graph.transpose %x {perm = array<i64: 3, 1, 0, 2>} : (tensor<1x1x1x2xf32>) -> tensor<2x1x1x1xf32>
    %2 = graph.constant dense<5.000000e-01> : tensor<1xf32>
    graph.yield %2, %1 : tensor<1xf32>, tensor<2x1x1x1xf32>
  }
  %dead = graph.flatten %0#1 {axis = 1 : i64} : (tensor<2x1x1x1xf32>) -> tensor<2x1xf32>
  return %0#0 : tensor<1xf32>
}

// A transpose that moves only unit dimensions within one type is the
// identity; the group whose body it was then folds in the same run (random
// graphs 732 and 1011).
// CHECK-LABEL: func.func @fused_identity_transpose
// CHECK-SAME: (%[[A:.*]]: tensor<1x1xf32>, %[[B:.*]]: tensor<1x3x1xf32>)
// CHECK-NOT: graph.fused
// CHECK-NOT: graph.transpose
// CHECK: return %[[A]], %[[B]]
func.func @fused_identity_transpose(%a: tensor<1x1xf32>, %b: tensor<1x3x1xf32>) -> (tensor<1x1xf32>, tensor<1x3x1xf32>) {
  %0 = graph.fused "k" (%a) : (tensor<1x1xf32>) -> tensor<1x1xf32> {
  ^bb0(%x: tensor<1x1xf32>):
    %1 = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<1x1xf32>) -> tensor<1x1xf32>
    graph.yield %1 : tensor<1x1xf32>
  }
  %2 = graph.transpose %b {perm = array<i64: 2, 1, 0>} : (tensor<1x3x1xf32>) -> tensor<1x3x1xf32>
  return %0, %2 : tensor<1x1xf32>, tensor<1x3x1xf32>
}

// The first group's first result folds to a constant in its body, and its
// users read a copy of it; the second group folds (an identity) and takes
// the last user of the first's second result. Nothing then reads the first
// group: it stays for graph-eliminate-dead-code, and a second run finds
// nothing to fold (found by random graphs: a second graph-optimize changed
// the IR).
// CHECK-LABEL: func.func @fused_loses_user
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>)
// CHECK: %[[C:.*]] = graph.constant dense<6.000000e+00> : tensor<3xf32>
// CHECK: graph.fused "first"
// CHECK-NOT: graph.fused
// CHECK: return %[[C]], %[[A]]
func.func @fused_loses_user(%a: tensor<2xf32>) -> (tensor<3xf32>, tensor<2xf32>) {
  %0:2 = graph.fused "first" (%a) : (tensor<2xf32>) -> (tensor<3xf32>, tensor<2xf32>) {
  ^bb0(%x: tensor<2xf32>):
    %c = graph.constant dense<-2.0> : tensor<3xf32>
    %1 = graph.mul %c, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %2 = graph.sub %1, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %3 = graph.div %2, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %4 = graph.mul %3, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %5 = graph.tanh %x : tensor<2xf32>
    graph.yield %4, %5 : tensor<3xf32>, tensor<2xf32>
  }
  %6 = graph.fused "second" (%a, %0#1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%x: tensor<2xf32>, %y: tensor<2xf32>):
    graph.yield %x : tensor<2xf32>
  }
  return %0#0, %6 : tensor<3xf32>, tensor<2xf32>
}

// Folding erases no dead op: an unused op of a non-constant input and the
// constant operands of a fold stay for graph-eliminate-dead-code; an unused
// op of constants folds to an unused constant. Its own scratch constant
// (the product, consumed by the add and the sub) goes.
// CHECK-LABEL: func.func @dead_code_stays
// CHECK-SAME: (%[[X:.+]]: tensor<2xf32>)
// CHECK-NEXT: %[[A:.+]] = graph.constant dense<2.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[B:.+]] = graph.constant dense<3.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[S:.+]] = graph.constant dense<8.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[D:.+]] = graph.relu %[[X]]
// CHECK-NEXT: %[[N:.+]] = graph.constant dense<-4.000000e+00> : tensor<2xf32>
// CHECK-NEXT: return %[[S]]
func.func @dead_code_stays(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = graph.constant dense<2.0> : tensor<2xf32>
  %b = graph.constant dense<3.0> : tensor<2xf32>
  %0 = graph.mul %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = graph.add %0, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %dead = graph.relu %x : tensor<2xf32>
  %dead_constant = graph.sub %a, %0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
