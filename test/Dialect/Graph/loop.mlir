// RUN: graph-opt %s -split-input-file | graph-opt -split-input-file | FileCheck %s
// RUN: graph-opt %s -split-input-file --canonicalize | FileCheck %s --check-prefix=FOLD
// RUN: graph-opt %s -split-input-file --graph-fold-constants | FileCheck %s --check-prefix=FOLD
// RUN: graph-opt %s -split-input-file --graph-optimize | FileCheck %s --check-prefix=OPT
// RUN: graph-opt %s -split-input-file --graph-outline-kernels --convert-graph-to-linalg | FileCheck %s --check-prefix=LOWER

// graph.loop: the body runs while the count and the condition allow; it
// carries values from one iteration to the next and stacks a row per
// iteration into each scan output.

// CHECK-LABEL: func.func @accumulate
// CHECK: %[[L:.*]]:3 = graph.loop %arg0, %arg1, %arg2 : tensor<i64>, tensor<i1>, tensor<2xf32> -> tensor<2xf32>, tensor<3x2xf32>, tensor<i64> {
// CHECK: ^bb0(%[[I:.*]]: tensor<i64>, %[[C:.*]]: tensor<i1>, %[[ACC:.*]]: tensor<2xf32>):
// CHECK:   %[[NEXT:.*]] = graph.add %[[ACC]], %arg3
// CHECK:   graph.yield %[[C]], %[[NEXT]], %[[NEXT]] : tensor<i1>, tensor<2xf32>, tensor<2xf32>
// CHECK: }
// CHECK: return %[[L]]#0, %[[L]]#1, %[[L]]#2
// A count only a run decides: the op stays.
// FOLD-LABEL: func.func @accumulate
// FOLD: graph.loop
// The op becomes an scf.while over the iteration number, the condition,
// the carried value and the scan output, which starts as zeros; each
// iteration's ops are kernels called from the body, and its yield inserts
// the row at the iteration number.
// LOWER-LABEL: func.func @accumulate
// LOWER: %[[COUNT:.*]] = tensor.extract %arg0[] : tensor<i64>
// LOWER: %[[MAX:.*]] = arith.minsi %[[COUNT]], %c3_i64 : i64
// LOWER: %[[BYTE:.*]] = tensor.extract %arg1[] : tensor<i8>
// LOWER: %[[GO:.*]] = arith.cmpi ne, %[[BYTE]]
// LOWER: %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<3x2xf32>)
// LOWER: %[[W:.*]]:4 = scf.while (%[[I:.*]] = %c0_i64, %[[C:.*]] = %[[GO]], %[[ACC:.*]] = %arg2, %[[ROWS:.*]] = %[[ZEROS]])
// LOWER:   %[[MORE:.*]] = arith.cmpi slt, %[[I]], %[[MAX]] : i64
// LOWER:   %[[PROCEED:.*]] = arith.andi %[[MORE]], %[[C]] : i1
// LOWER:   scf.condition(%[[PROCEED]]) %[[I]], %[[C]], %[[ACC]], %[[ROWS]]
// LOWER: } do {
// LOWER: ^bb0(%[[I2:.*]]: i64, %[[C2:.*]]: i1, %[[ACC2:.*]]: tensor<2xf32>, %[[ROWS2:.*]]: tensor<3x2xf32>):
// LOWER:   %[[NEXT:.*]] = func.call @accumulate_kernel0_add(%[[ACC2]], %arg3)
// LOWER:   %[[I3:.*]] = arith.addi %[[I2]], %c1_i64 : i64
// LOWER:   %[[ROW:.*]] = arith.index_cast %[[I2]] : i64 to index
// LOWER:   %[[ROWS3:.*]] = tensor.insert_slice %[[NEXT]] into %[[ROWS2]][%[[ROW]], 0] [1, 2] [1, 1] : tensor<2xf32> into tensor<3x2xf32>
// LOWER:   scf.yield %[[I3]], %{{.*}}, %[[NEXT]], %[[ROWS3]] : i64, i1, tensor<2xf32>, tensor<3x2xf32>
// LOWER: }
// LOWER: %[[N:.*]] = tensor.from_elements %[[W]]#0 : tensor<i64>
// LOWER: return %[[W]]#2, %[[W]]#3, %[[N]]
func.func @accumulate(%m: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>, %y: tensor<2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>, tensor<i64>) {
  %sum, %partial, %n = graph.loop %m, %c, %x : tensor<i64>, tensor<i1>, tensor<2xf32> -> tensor<2xf32>, tensor<3x2xf32>, tensor<i64> {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %acc: tensor<2xf32>):
    %next = graph.add %acc, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    graph.yield %ci, %next, %next : tensor<i1>, tensor<2xf32>, tensor<2xf32>
  }
  return %sum, %partial, %n : tensor<2xf32>, tensor<3x2xf32>, tensor<i64>
}

// -----

// A loop that runs no iteration, by a constant count of 0 or a constant
// false condition, is its initial values, zero rows and a count of 0 (both
// by the canonicalization and by graph-fold-constants).
// FOLD-LABEL: func.func @never
// FOLD-NOT: graph.loop
// FOLD-DAG: %[[ROWS:.*]] = graph.constant dense<0.000000e+00> : tensor<3x2xf32>
// FOLD-DAG: %[[ZERO:.*]] = graph.constant dense<0> : tensor<i64>
// FOLD: return %arg1, %[[ROWS]], %[[ZERO]]
func.func @never(%c: tensor<i1>, %x: tensor<2xf32>, %y: tensor<2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>, tensor<i64>) {
  %m = graph.constant dense<0> : tensor<i64>
  %sum, %partial, %n = graph.loop %m, %c, %x : tensor<i64>, tensor<i1>, tensor<2xf32> -> tensor<2xf32>, tensor<3x2xf32>, tensor<i64> {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %acc: tensor<2xf32>):
    %next = graph.add %acc, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    graph.yield %ci, %next, %next : tensor<i1>, tensor<2xf32>, tensor<2xf32>
  }
  return %sum, %partial, %n : tensor<2xf32>, tensor<3x2xf32>, tensor<i64>
}

// FOLD-LABEL: func.func @stopped
// FOLD-NOT: graph.loop
// FOLD: return %arg1, %{{.*}} : tensor<2xf32>, tensor<i64>
func.func @stopped(%m: tensor<i64>, %x: tensor<2xf32>) -> (tensor<2xf32>, tensor<i64>) {
  %c = graph.constant dense<false> : tensor<i1>
  %sum, %n = graph.loop %m, %c, %x : tensor<i64>, tensor<i1>, tensor<2xf32> -> tensor<2xf32>, tensor<i64> {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %acc: tensor<2xf32>):
    %next = graph.neg %acc : tensor<2xf32>
    graph.yield %ci, %next : tensor<i1>, tensor<2xf32>
  }
  return %sum, %n : tensor<2xf32>, tensor<i64>
}

// -----

// Graph passes work inside the body: the conv and ReLU that it applies to
// the carried value become one conv2d_relu group with packed weights; the
// loop carries the group's result.
// OPT-LABEL: func.func @repeat
// OPT: graph.loop
// OPT: ^bb0(%{{.*}}: tensor<i64>, %[[C:.*]]: tensor<i1>, %[[V:.*]]: tensor<1x2x4x4xf32>):
// OPT:   %[[G:.*]] = graph.fused "conv2d_relu"(%[[V]]
// OPT:     graph.conv2d {{.*}} {packed_weight}
// OPT:   graph.yield %[[C]], %[[G]] :
func.func @repeat(%m: tensor<i64>, %x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = graph.constant dense<0.5> : tensor<2x2x1x1xf32>
  %c = graph.constant dense<true> : tensor<i1>
  %y, %n = graph.loop %m, %c, %x : tensor<i64>, tensor<i1>, tensor<1x2x4x4xf32> -> tensor<1x2x4x4xf32>, tensor<i64> {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %v: tensor<1x2x4x4xf32>):
    %0 = graph.conv2d %v, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
    %1 = graph.relu %0 : tensor<1x2x4x4xf32>
    graph.yield %ci, %1 : tensor<i1>, tensor<1x2x4x4xf32>
  }
  return %y : tensor<1x2x4x4xf32>
}
