// RUN: graph-opt %s --graph-fold-constants="max-elements=4" | FileCheck %s --check-prefixes=CHECK,LIMIT
// RUN: graph-opt %s --pass-pipeline='builtin.module(graph-fold-constants{max-elements=4})' | FileCheck %s --check-prefixes=CHECK,LIMIT
// RUN: graph-opt %s --graph-fold-constants | FileCheck %s --check-prefixes=CHECK,DEFAULT

// A non-splat result with more than `max-elements` elements stays unfolded.
// CHECK-LABEL: func.func @non_splat_over_limit
// LIMIT: graph.add
// DEFAULT-NOT: graph.add
// DEFAULT: graph.constant dense<{{\[\[}}2.000000e+00, 3.000000e+00, 4.000000e+00], [5.000000e+00, 6.000000e+00, 7.000000e+00]]> : tensor<2x3xf32>
func.func @non_splat_over_limit() -> tensor<2x3xf32> {
  %a = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = graph.constant dense<1.0> : tensor<2x3xf32>
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// Reshaping a non-splat constant makes a new constant too: it obeys the limit.
// CHECK-LABEL: func.func @reshape_over_limit
// LIMIT: graph.reshape
// DEFAULT-NOT: graph.reshape
func.func @reshape_over_limit() -> tensor<3x2xf32> {
  %a = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %0 = graph.reshape %a {shape = array<i64: 3, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// Exactly `max-elements` elements still folds.
// CHECK-LABEL: func.func @non_splat_at_limit
// CHECK-NOT: graph.mul
// CHECK: graph.constant dense<{{\[\[}}2.000000e+00, 4.000000e+00], [6.000000e+00, 8.000000e+00]]> : tensor<2x2xf32>
func.func @non_splat_at_limit() -> tensor<2x2xf32> {
  %a = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = graph.constant dense<2.0> : tensor<2x2xf32>
  %0 = graph.mul %a, %b : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// Splat results always fold and stay splat, whatever their size.
// CHECK-LABEL: func.func @splat_over_limit
// CHECK-NOT: graph.add
// CHECK-NOT: graph.relu
// CHECK: %[[C:.+]] = graph.constant dense<3.000000e+00> : tensor<2x3xf32>
// CHECK: %[[D:.+]] = graph.constant dense<5.000000e-01> : tensor<1000x1000xf32>
// CHECK: return %[[C]], %[[D]]
func.func @splat_over_limit() -> (tensor<2x3xf32>, tensor<1000x1000xf32>) {
  %a = graph.constant dense<1.0> : tensor<2x3xf32>
  %b = graph.constant dense<2.0> : tensor<3xf32>
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %c = graph.constant dense<-4.0> : tensor<1000x1000xf32>
  %d = graph.constant dense<-8.0> : tensor<1000x1000xf32>
  %1 = graph.div %c, %d : (tensor<1000x1000xf32>, tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  %2 = graph.relu %1 : tensor<1000x1000xf32>
  return %0, %2 : tensor<2x3xf32>, tensor<1000x1000xf32>
}

// Splat operands whose result is not a splat (zero padding at the border):
// the 3x3 non-splat result is over the limit, so it is not evaluated.
// conv of 1s with a 2x2 kernel of 1s, padding 1 on the top and left: the
// corner sees one cell, the edges two, the rest four.
// CHECK-LABEL: func.func @splat_operands_non_splat_result
// LIMIT: graph.conv2d
// DEFAULT-NOT: graph.conv2d
// DEFAULT: graph.constant dense<{{\[\[\[\[}}1.000000e+00, 2.000000e+00, 2.000000e+00], [2.000000e+00, 4.000000e+00, 4.000000e+00], [2.000000e+00, 4.000000e+00, 4.000000e+00]]]]> : tensor<1x1x3x3xf32>
func.func @splat_operands_non_splat_result() -> tensor<1x1x3x3xf32> {
  %x = graph.constant dense<1.0> : tensor<1x1x3x3xf32>
  %w = graph.constant dense<1.0> : tensor<1x1x2x2xf32>
  %0 = graph.conv2d %x, %w {padding = array<i64: 1, 1, 0, 0>} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}
