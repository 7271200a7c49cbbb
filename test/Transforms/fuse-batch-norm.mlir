// RUN: graph-opt %s --graph-fuse --split-input-file | FileCheck %s
// RUN: graph-opt %s --graph-fuse --split-input-file \
// RUN:   | graph-opt --graph-fuse --split-input-file | FileCheck %s
// RUN: graph-opt %s --graph-fuse="fold-batch-norm=false" --split-input-file \
// RUN:   | FileCheck %s --check-prefix=NOFOLD

// Expected constants are computed in f32 with NumPy:
//   s = scale / sqrt(variance + epsilon), W' = W * s[f],
//   b' = (b - mean) * s + bias.

// batch_norm with constant parameters folds into the conv, which then fuses
// with the relu. s = [3 / 2, 3 / 0.5] = [1.5, 6];
// b' = [(1 - 0.5) * 1.5 + 0.5, (-2 - 2) * 6 - 1] = [1.25, -25].

// CHECK-LABEL: func.func @fold_conv_bn_relu
// CHECK-SAME: (%[[X:.*]]: tensor<1x1x3x3xf32>)
// CHECK-DAG: %[[W:.*]] = graph.constant dense<{{\[\[\[\[}}1.500000e+00, 3.000000e+00], [4.500000e+00, 6.000000e+00]]], {{\[\[\[}}-6.000000e+00, 3.000000e+00], [1.200000e+01, -1.800000e+01]]]]> : tensor<2x1x2x2xf32>
// CHECK-DAG: %[[B:.*]] = graph.constant dense<[1.250000e+00, -2.500000e+01]> : tensor<2xf32>
// CHECK: %[[F:.*]] = graph.fused "conv2d_relu"(%[[X]], %[[W]], %[[B]])
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<1x1x3x3xf32>, %[[A1:.*]]: tensor<2x1x2x2xf32>, %[[A2:.*]]: tensor<2xf32>):
// CHECK-NEXT: %[[C:.*]] = graph.conv2d %[[A0]], %[[A1]], %[[A2]] {padding = array<i64: 1, 1, 0, 0>} :
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[C]]
// CHECK-NEXT: graph.yield %[[R]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
// CHECK-NOT: graph.batch_norm

// NOFOLD-LABEL: func.func @fold_conv_bn_relu
// NOFOLD: graph.fused "conv2d_batch_norm_relu"
// NOFOLD: graph.conv2d
// NOFOLD-NEXT: graph.batch_norm
// NOFOLD-NEXT: graph.relu
func.func @fold_conv_bn_relu(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = graph.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]], [[[-1.0, 0.5], [2.0, -3.0]]]]> : tensor<2x1x2x2xf32>
  %cb = graph.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %s = graph.constant dense<[3.0, 3.0]> : tensor<2xf32>
  %b = graph.constant dense<[0.5, -1.0]> : tensor<2xf32>
  %m = graph.constant dense<[0.5, 2.0]> : tensor<2xf32>
  %v = graph.constant dense<[4.0, 0.25]> : tensor<2xf32>
  %0 = graph.conv2d %x, %w, %cb {padding = array<i64: 1, 1, 0, 0>} : (tensor<1x1x3x3xf32>, tensor<2x1x2x2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %1 = graph.batch_norm %0, %s, %b, %m, %v {epsilon = 0.0 : f32} : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %2 = graph.relu %1 : tensor<1x2x3x3xf32>
  return %2 : tensor<1x2x3x3xf32>
}

// -----

// A conv without bias gets one: b' = -mean * s + bias.
// s = [2 / 2, 3 / 0.5] = [1, 6]; b' = [-1 + 0.5, -12 - 1] = [-0.5, -13].

// CHECK-LABEL: func.func @fold_creates_bias
// CHECK-DAG: %[[W:.*]] = graph.constant dense<{{\[\[\[\[}}1.000000e+00]]], {{\[\[\[}}1.200000e+01]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG: %[[B:.*]] = graph.constant dense<[-5.000000e-01, -1.300000e+01]> : tensor<2xf32>
// CHECK: graph.fused "conv2d_sigmoid"(%{{.*}}, %[[W]], %[[B]])
// CHECK-NOT: graph.batch_norm
// CHECK: return
func.func @fold_creates_bias(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = graph.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %s = graph.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %b = graph.constant dense<[0.5, -1.0]> : tensor<2xf32>
  %m = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %v = graph.constant dense<[4.0, 0.25]> : tensor<2xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.batch_norm %0, %s, %b, %m, %v {epsilon = 0.0 : f32} : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %2 = graph.sigmoid %1 : tensor<1x2x2x2xf32>
  return %2 : tensor<1x2x2x2xf32>
}

// -----

// The default epsilon (1e-5): s = 1 / sqrt(1 + 1e-5) in f32.

// The old weight and parameters stay, unused, for graph-eliminate-dead-code;
// the new weight and bias come next to each other.
// CHECK-LABEL: func.func @fold_default_epsilon
// CHECK: %[[W:.*]] = graph.constant dense<{{\[\[\[\[}}0.999994993]]], {{\[\[\[}}1.999990e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-NEXT: %[[B:.*]] = graph.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK: %[[C:.*]] = graph.conv2d %{{.*}}, %[[W]], %[[B]]
// CHECK-NEXT: return %[[C]]
func.func @fold_default_epsilon(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = graph.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %one = graph.constant dense<1.0> : tensor<2xf32>
  %zero = graph.constant dense<0.0> : tensor<2xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.batch_norm %0, %one, %zero, %zero, %one : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  return %1 : tensor<1x2x2x2xf32>
}

// -----

// Weights stored as a dense_resource blob ([1, 2]) fold too.
// s = [1 / 0.25, 1 / 4] = [4, 0.25]; b' = [0.25 * 4, 0.5 * 0.25].

// CHECK-LABEL: func.func @fold_resource_weight
// CHECK-DAG: %[[W:.*]] = graph.constant dense<{{\[\[\[\[}}4.000000e+00]]], {{\[\[\[}}5.000000e-01]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG: %[[B:.*]] = graph.constant dense<[1.000000e+00, 1.250000e-01]> : tensor<2xf32>
// CHECK: graph.fused "conv2d_relu"(%{{.*}}, %[[W]], %[[B]])
func.func @fold_resource_weight(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = graph.constant dense_resource<bn_weight> : tensor<2x1x1x1xf32>
  %cb = graph.constant dense<[0.25, 0.5]> : tensor<2xf32>
  %one = graph.constant dense<1.0> : tensor<2xf32>
  %zero = graph.constant dense<0.0> : tensor<2xf32>
  %v = graph.constant dense<[0.0625, 16.0]> : tensor<2xf32>
  %0 = graph.conv2d %x, %w, %cb : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.batch_norm %0, %one, %zero, %zero, %v {epsilon = 0.0 : f32} : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %2 = graph.relu %1 : tensor<1x2x2x2xf32>
  return %2 : tensor<1x2x2x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      bn_weight: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// A grouped conv: the scale applies per output channel.
// s = [1, 6] as in @fold_creates_bias.

// CHECK-LABEL: func.func @fold_grouped_conv
// CHECK-DAG: %[[W:.*]] = graph.constant dense<{{\[\[\[\[}}1.000000e+00]]], {{\[\[\[}}1.200000e+01]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG: %[[B:.*]] = graph.constant dense<[-5.000000e-01, -1.300000e+01]> : tensor<2xf32>
// CHECK: %[[C:.*]] = graph.conv2d %{{.*}}, %[[W]], %[[B]] {groups = 2 : i64}
// CHECK-NEXT: return %[[C]]
func.func @fold_grouped_conv(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = graph.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %s = graph.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %b = graph.constant dense<[0.5, -1.0]> : tensor<2xf32>
  %m = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %v = graph.constant dense<[4.0, 0.25]> : tensor<2xf32>
  %0 = graph.conv2d %x, %w {groups = 2 : i64} : (tensor<1x2x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.batch_norm %0, %s, %b, %m, %v {epsilon = 0.0 : f32} : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  return %1 : tensor<1x2x2x2xf32>
}

// -----

// Two batch_norms in a row both fold, leaving a conv with no epilogue.
// First: s = [2, 2], W' = [2, 4], b' = [0, 2].
// Second: s = [0.5, 2], W'' = [1, 8], b'' = [0 * 0.5 + 1, (2 - 1) * 2 + 1].

// CHECK-LABEL: func.func @fold_two_batch_norms
// CHECK-DAG: %[[W:.*]] = graph.constant dense<{{\[\[\[\[}}1.000000e+00]]], {{\[\[\[}}8.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG: %[[B:.*]] = graph.constant dense<[1.000000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK: %[[C:.*]] = graph.conv2d %{{.*}}, %[[W]], %[[B]] :
// CHECK-NEXT: return %[[C]]
func.func @fold_two_batch_norms(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = graph.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %cb = graph.constant dense<1.0> : tensor<2xf32>
  %two = graph.constant dense<2.0> : tensor<2xf32>
  %zero = graph.constant dense<0.0> : tensor<2xf32>
  %one = graph.constant dense<1.0> : tensor<2xf32>
  %m1 = graph.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %s2 = graph.constant dense<[1.0, 4.0]> : tensor<2xf32>
  %m2 = graph.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %v2 = graph.constant dense<4.0> : tensor<2xf32>
  %0 = graph.conv2d %x, %w, %cb : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.batch_norm %0, %two, %zero, %m1, %one {epsilon = 0.0 : f32} : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %2 = graph.batch_norm %1, %s2, %one, %m2, %v2 {epsilon = 0.0 : f32} : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  return %2 : tensor<1x2x2x2xf32>
}

// -----

// One parameter is not a constant: no folding, the whole chain fuses and
// the constants become operands.

// CHECK-LABEL: func.func @no_fold_non_constant_mean
// CHECK-SAME: (%[[X:.*]]: tensor<1x1x2x2xf32>, %[[M:.*]]: tensor<2xf32>)
// CHECK-DAG: %[[W:.*]] = graph.constant dense<{{\[\[\[\[}}1.000000e+00]]], {{\[\[\[}}2.000000e+00]]]]>
// CHECK-DAG: %[[ONE:.*]] = graph.constant dense<1.000000e+00>
// CHECK-DAG: %[[ZERO:.*]] = graph.constant dense<0.000000e+00>
// CHECK: graph.fused "conv2d_batch_norm_relu"(%[[X]], %[[W]], %[[ONE]], %[[ZERO]], %[[M]])
func.func @no_fold_non_constant_mean(%x: tensor<1x1x2x2xf32>, %m: tensor<2xf32>) -> tensor<1x2x2x2xf32> {
  %w = graph.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %one = graph.constant dense<1.0> : tensor<2xf32>
  %zero = graph.constant dense<0.0> : tensor<2xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.batch_norm %0, %one, %zero, %m, %one : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %2 = graph.relu %1 : tensor<1x2x2x2xf32>
  return %2 : tensor<1x2x2x2xf32>
}

// -----

// The conv result is also returned: folding would change what that user
// sees, so nothing folds, and nothing fuses.

// CHECK-LABEL: func.func @no_fold_conv_other_live_user
// CHECK-NOT: graph.fused
// CHECK: %[[C:.*]] = graph.conv2d
// CHECK-NEXT: %[[N:.*]] = graph.batch_norm %[[C]]
// CHECK-NEXT: return %[[N]], %[[C]]
func.func @no_fold_conv_other_live_user(%x: tensor<1x1x2x2xf32>)
    -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %w = graph.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %one = graph.constant dense<1.0> : tensor<2xf32>
  %zero = graph.constant dense<0.0> : tensor<2xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.batch_norm %0, %one, %zero, %zero, %one : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  return %1, %0 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}

// -----

// A dead user of the conv does not prevent folding and goes away.
// s = [1 / 2, 1 / 2]; W' = [0.5, 1]; b' = [0, 0].

// CHECK-LABEL: func.func @fold_despite_dead_user
// CHECK: %[[W:.*]] = graph.constant dense<{{\[\[\[\[}}5.000000e-01]]], {{\[\[\[}}1.000000e+00]]]]>
// CHECK-NEXT: %[[B:.*]] = graph.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK: graph.fused "conv2d_tanh"(%{{.*}}, %[[W]], %[[B]])
// CHECK-NOT: graph.batch_norm
// CHECK-NOT: graph.sigmoid
// CHECK: return
func.func @fold_despite_dead_user(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = graph.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %one = graph.constant dense<1.0> : tensor<2xf32>
  %zero = graph.constant dense<0.0> : tensor<2xf32>
  %four = graph.constant dense<4.0> : tensor<2xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %dead = graph.sigmoid %0 : tensor<1x2x2x2xf32>
  %1 = graph.batch_norm %0, %one, %zero, %zero, %four {epsilon = 0.0 : f32} : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %2 = graph.tanh %1 : tensor<1x2x2x2xf32>
  return %2 : tensor<1x2x2x2xf32>
}

// -----

// Only a conv's batch_norm folds: after a matmul it fuses as an epilogue.

// CHECK-LABEL: func.func @no_fold_after_matmul
// CHECK: graph.fused "matmul_batch_norm"
func.func @no_fold_after_matmul(%a: tensor<2x3xf32>) -> tensor<2x4xf32> {
  %b = graph.constant dense<1.0> : tensor<3x4xf32>
  %one = graph.constant dense<1.0> : tensor<4xf32>
  %zero = graph.constant dense<0.0> : tensor<4xf32>
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = graph.batch_norm %0, %one, %zero, %zero, %one : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}

// -----

// An NHWC conv (HWCF weight, filters innermost) and its NHWC batch_norm
// fold the same way: s = [1, 6], W'[h][w][c][f] = W[h][w][c][f] * s[f],
// b' = [-0.5, -13].

// CHECK-LABEL: func.func @fold_nhwc
// CHECK-DAG: %[[W:.*]] = graph.constant dense<{{\[\[\[\[}}1.000000e+00, 1.200000e+01], [3.000000e+00, 2.400000e+01]]]]> : tensor<1x1x2x2xf32>
// CHECK-DAG: %[[B:.*]] = graph.constant dense<[-5.000000e-01, -1.300000e+01]> : tensor<2xf32>
// CHECK: graph.conv2d %{{.*}}, %[[W]], %[[B]] {layout = #graph<layout NHWC>}
// CHECK-NOT: graph.batch_norm
func.func @fold_nhwc(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = graph.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
  %s = graph.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %b = graph.constant dense<[0.5, -1.0]> : tensor<2xf32>
  %m = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %v = graph.constant dense<[4.0, 0.25]> : tensor<2xf32>
  %0 = graph.conv2d %x, %w {layout = #graph<layout NHWC>} : (tensor<1x2x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.batch_norm %0, %s, %b, %m, %v {epsilon = 0.0 : f32, layout = #graph<layout NHWC>} : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  return %1 : tensor<1x2x2x2xf32>
}

// -----

// A batch_norm over another layout than its conv's does not fold.

// CHECK-LABEL: func.func @no_fold_layout_mismatch
// CHECK: graph.batch_norm
func.func @no_fold_layout_mismatch(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = graph.constant dense<1.0> : tensor<1x1x2x2xf32>
  %p = graph.constant dense<1.0> : tensor<2xf32>
  %0 = graph.conv2d %x, %w {layout = #graph<layout NHWC>} : (tensor<1x2x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.batch_norm %0, %p, %p, %p, %p : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  return %1 : tensor<1x2x2x2xf32>
}
