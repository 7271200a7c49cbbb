// RUN: graph-opt %s -split-input-file | graph-opt -split-input-file | FileCheck %s
// RUN: graph-opt %s -split-input-file --canonicalize | FileCheck %s --check-prefix=FOLD
// RUN: graph-opt %s -split-input-file --graph-fold-constants | FileCheck %s --check-prefix=FOLD
// RUN: graph-opt %s -split-input-file --graph-optimize | FileCheck %s --check-prefix=OPT
// RUN: graph-opt %s -split-input-file --graph-outline-kernels --convert-graph-to-linalg | FileCheck %s --check-prefix=LOWER

// graph.if: the region a bool selects runs; its regions read the values
// around them.

// CHECK-LABEL: func.func @select
// CHECK: %[[R:.*]]:2 = graph.if %arg0 : tensor<i1> -> tensor<4xf32>, tensor<4xf32> {
// CHECK:   %[[A:.*]] = graph.relu %arg1 : tensor<4xf32>
// CHECK:   graph.yield %[[A]], %arg1 : tensor<4xf32>, tensor<4xf32>
// CHECK: } else {
// CHECK:   %[[B:.*]] = graph.neg %arg1 : tensor<4xf32>
// CHECK:   graph.yield %[[B]], %[[B]] : tensor<4xf32>, tensor<4xf32>
// CHECK: }
// The condition only a run decides: the op stays.
// FOLD-LABEL: func.func @select
// FOLD: graph.if
// OPT-LABEL: func.func @select
// OPT: graph.if
// Each op in a region becomes a kernel called from there, and the op becomes
// scf.if on the condition's byte.
// LOWER-LABEL: func.func @select
// LOWER: %[[BYTE:.*]] = tensor.extract %arg0[] : tensor<i8>
// LOWER: %[[BIT:.*]] = arith.cmpi ne, %[[BYTE]], %{{.*}} : i8
// LOWER: scf.if %[[BIT]] -> (tensor<4xf32>, tensor<4xf32>) {
// LOWER:   %[[T:.*]] = func.call @select_kernel0_relu(%arg1)
// LOWER:   scf.yield %[[T]], %arg1
// LOWER: } else {
// LOWER:   %[[E:.*]] = func.call @select_kernel1_neg(%arg1)
// LOWER:   scf.yield %[[E]], %[[E]]
// LOWER: }
func.func @select(%c: tensor<i1>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = graph.if %c : tensor<i1> -> tensor<4xf32>, tensor<4xf32> {
    %a = graph.relu %x : tensor<4xf32>
    graph.yield %a, %x : tensor<4xf32>, tensor<4xf32>
  } else {
    %b = graph.neg %x : tensor<4xf32>
    graph.yield %b, %b : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// A constant condition selects its region: the op is replaced by the ops of
// that region (both by the canonicalization and by graph-fold-constants,
// which folds what the region computes too).
// FOLD-LABEL: func.func @decided
// FOLD-NOT: graph.if
// FOLD: %[[N:.*]] = graph.neg %arg0
// FOLD: return %[[N]]
func.func @decided(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = graph.constant dense<false> : tensor<1xi1>
  %r = graph.if %c : tensor<1xi1> -> tensor<4xf32> {
    %a = graph.relu %x : tensor<4xf32>
    graph.yield %a : tensor<4xf32>
  } else {
    %b = graph.neg %x : tensor<4xf32>
    graph.yield %b : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Inside a region: a conv, its batch norm and ReLU are one graph.fused
// after graph-optimize, which folds the batch norm into the weights.
// OPT-LABEL: func.func @conv_in_region
// OPT: graph.if %arg0
// OPT: graph.fused "conv2d_relu"
// OPT-NOT: graph.batch_norm
// OPT: graph.yield
// OPT: } else {
// OPT: graph.yield %arg1
func.func @conv_in_region(%c: tensor<i1>, %x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = graph.constant dense<0.5> : tensor<2x2x1x1xf32>
  %scale = graph.constant dense<2.0> : tensor<2xf32>
  %bias = graph.constant dense<0.25> : tensor<2xf32>
  %mean = graph.constant dense<0.0> : tensor<2xf32>
  %var = graph.constant dense<1.0> : tensor<2xf32>
  %r = graph.if %c : tensor<i1> -> tensor<1x2x4x4xf32> {
    %0 = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
    %1 = graph.batch_norm %0, %scale, %bias, %mean, %var {epsilon = 0.0 : f32} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
    %2 = graph.relu %1 : tensor<1x2x4x4xf32>
    graph.yield %2 : tensor<1x2x4x4xf32>
  } else {
    graph.yield %x : tensor<1x2x4x4xf32>
  }
  return %r : tensor<1x2x4x4xf32>
}

// -----

// Nothing crosses a region's boundary: the ReLU that only the then-region
// reads stays outside; the region's own ops fuse among themselves.
// OPT-LABEL: func.func @across
// OPT: %[[A:.*]] = graph.relu %arg1
// OPT-NEXT: graph.if %arg0
// OPT-NEXT: graph.fused "neg_sigmoid"(%[[A]])
// OPT-NOT: graph.relu
// OPT: } else {
func.func @across(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %a = graph.relu %x : tensor<4xf32>
  %r = graph.if %c : tensor<i1> -> tensor<4xf32> {
    %b = graph.neg %a : tensor<4xf32>
    %d = graph.sigmoid %b : tensor<4xf32>
    graph.yield %d : tensor<4xf32>
  } else {
    graph.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
