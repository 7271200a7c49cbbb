// RUN: graph-opt %s --graph-fuse --split-input-file | FileCheck %s --check-prefixes=CHECK,DEFAULT
// RUN: graph-opt %s --graph-fuse="max-elements=4" --split-input-file | FileCheck %s --check-prefixes=CHECK,LIMIT
// RUN: graph-opt %s --graph-optimize="max-elements=4" --split-input-file | FileCheck %s --check-prefixes=CHECK,LIMIT

// Folding batch_norm into conv weights obeys the fold limits: a new weight
// that is not a splat and has more than `max-elements` elements (default
// 2^24) is not computed, and the batch_norm stays (fused after the conv).

// A splat weight of 2^37 elements scaled by two different factors would be a
// non-splat tensor of 512 GiB.
// CHECK-LABEL: func.func @huge_splat_weight_two_factors
// CHECK: graph.fused "conv2d_batch_norm"
// CHECK: graph.batch_norm
func.func @huge_splat_weight_two_factors(%x: tensor<1x1x262144x262144xf32>) -> tensor<1x2x1x1xf32> {
  %w = graph.constant dense<1.0> : tensor<2x1x262144x262144xf32>
  %s = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = graph.constant dense<0.0> : tensor<2xf32>
  %m = graph.constant dense<0.0> : tensor<2xf32>
  %v = graph.constant dense<1.0> : tensor<2xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x1x262144x262144xf32>, tensor<2x1x262144x262144xf32>) -> tensor<1x2x1x1xf32>
  %1 = graph.batch_norm %0, %s, %b, %m, %v {epsilon = 0.0 : f32} : (tensor<1x2x1x1xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x1x1xf32>
  return %1 : tensor<1x2x1x1xf32>
}

// -----

// One factor for every filter keeps the weight a splat: it folds at any size.
// s = 4 / sqrt(4) = 2, W' = 3 * 2; b' = (0 - 1) * 2 + 0.5 = -1.5.
// CHECK-LABEL: func.func @huge_splat_weight_one_factor
// (graph-optimize then packs it for the micro-kernel, a splat still.)
// CHECK-DAG: %[[W:.*]] = graph.constant dense<6.000000e+00> : tensor<{{2x1x262144x262144|1x262144x262144x1x2}}xf32>
// CHECK-DAG: %[[B:.*]] = graph.constant dense<-1.500000e+00> : tensor<2xf32>
// CHECK: graph.conv2d %{{.*}}, %[[W]], %[[B]]
// CHECK-NOT: graph.batch_norm
func.func @huge_splat_weight_one_factor(%x: tensor<1x1x262144x262144xf32>) -> tensor<1x2x1x1xf32> {
  %w = graph.constant dense<3.0> : tensor<2x1x262144x262144xf32>
  %s = graph.constant dense<4.0> : tensor<2xf32>
  %b = graph.constant dense<0.5> : tensor<2xf32>
  %m = graph.constant dense<1.0> : tensor<2xf32>
  %v = graph.constant dense<4.0> : tensor<2xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x1x262144x262144xf32>, tensor<2x1x262144x262144xf32>) -> tensor<1x2x1x1xf32>
  %1 = graph.batch_norm %0, %s, %b, %m, %v {epsilon = 0.0 : f32} : (tensor<1x2x1x1xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x1x1xf32>
  return %1 : tensor<1x2x1x1xf32>
}

// -----

// Eight weights fold by default, not with max-elements=4.
// CHECK-LABEL: func.func @small_weight
// DEFAULT-NOT: graph.batch_norm
// LIMIT: graph.batch_norm
func.func @small_weight(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x2x2xf32> {
  %w = graph.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]], [[[-1.0, 0.5], [2.0, -3.0]]]]> : tensor<2x1x2x2xf32>
  %s = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = graph.constant dense<0.0> : tensor<2xf32>
  %m = graph.constant dense<0.0> : tensor<2xf32>
  %v = graph.constant dense<1.0> : tensor<2xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x2x2xf32>) -> tensor<1x2x2x2xf32>
  %1 = graph.batch_norm %0, %s, %b, %m, %v {epsilon = 0.0 : f32} : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  return %1 : tensor<1x2x2x2xf32>
}
