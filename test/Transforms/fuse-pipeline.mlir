// RUN: graph-opt %s --graph-optimize --split-input-file | FileCheck %s
// RUN: graph-opt %s --graph-optimize="opt-level=2" --split-input-file \
// RUN:   | FileCheck %s --check-prefix=O2
// RUN: graph-opt %s --graph-optimize="opt-level=1" --split-input-file \
// RUN:   | FileCheck %s --check-prefix=O1

// A consumer of the conv that is itself dead does not stop the chain once
// the whole pipeline has run: one group, and the dead ops are gone. (A conv
// alone keeps the NCHW layout at opt-level 3: nothing to save.)

// CHECK-LABEL: func.func @dead_consumer
// CHECK-NEXT: %[[F:.*]] = graph.fused "conv2d_batch_norm_relu"
// CHECK-NOT: graph.sigmoid
// CHECK-NOT: graph.tanh
// CHECK: graph.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]

// O1-LABEL: func.func @dead_consumer
// O1-NOT: graph.fused
// O1: graph.conv2d
func.func @dead_consumer(%x: tensor<1x1x2x2xf32>, %w: tensor<2x1x1x1xf32>,
                         %s: tensor<2xf32>, %b: tensor<2xf32>,
                         %m: tensor<2xf32>, %v: tensor<2xf32>)
    -> tensor<1x2x2x2xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %dead0 = graph.sigmoid %0 : tensor<1x2x2x2xf32>
  %dead1 = graph.tanh %dead0 : tensor<1x2x2x2xf32>
  %1 = graph.batch_norm %0, %s, %b, %m, %v : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %2 = graph.relu %1 : tensor<1x2x2x2xf32>
  return %2 : tensor<1x2x2x2xf32>
}

// -----

// With constant parameters, opt-level 3 folds batch_norm into the weights
// (s = [1, 6], W' = [1, 12], b' = [-0.5, -13]), which graph-pack-weights
// then packs (F/f0 x KH x KW x C x f0, f0 = 2 on every target) into a new
// operand of the group; opt-level 2 fuses it as is.

// CHECK-LABEL: func.func @constant_params
// CHECK-DAG: %[[W:.*]] = graph.constant dense<{{\[\[\[\[\[}}1.000000e+00, 1.200000e+01]]]]]> : tensor<1x1x1x1x2xf32>
// CHECK-DAG: %[[B:.*]] = graph.constant dense<[-5.000000e-01, -1.300000e+01]> : tensor<2xf32>
// CHECK: graph.fused "conv2d_relu"(%{{.*}}, %[[B]], %[[W]])
// CHECK-NOT: graph.batch_norm

// O2-LABEL: func.func @constant_params
// O2: graph.fused "conv2d_batch_norm_relu"
func.func @constant_params(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = graph.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %s = graph.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %b = graph.constant dense<[0.5, -1.0]> : tensor<2xf32>
  %m = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %v = graph.constant dense<[4.0, 0.25]> : tensor<2xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.batch_norm %0, %s, %b, %m, %v {epsilon = 0.0 : f32} : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %2 = graph.relu %1 : tensor<1x2x2x2xf32>
  return %2 : tensor<1x2x2x2xf32>
}
