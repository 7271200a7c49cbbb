// RUN: graph-opt %s --graph-outline-kernels --split-input-file | FileCheck %s

// Each top-level graph op and each graph.fused becomes a private kernel
// function, no_inline, named after the function, its position and what it
// computes. Operands become arguments; constants are copied in.
// CHECK-LABEL: func.func private @model_kernel0_conv2d_relu(
// CHECK-SAME:    %[[X:.*]]: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
// CHECK-SAME:    attributes {graph.kernel = "conv2d_relu", no_inline}
// CHECK:         %[[W:.*]] = graph.constant dense<1.000000e+00> : tensor<2x2x1x1xf32>
// CHECK:         %[[R:.*]] = graph.fused "conv2d_relu"(%[[X]], %[[W]])
// CHECK:         return %[[R]]
// CHECK-LABEL: func.func private @model_kernel1_sigmoid(
// CHECK:         graph.sigmoid
// CHECK-LABEL: func.func @model(
// CHECK-SAME:    %[[ARG:.*]]: tensor<1x2x4x4xf32> {graph.name = "x"})
// CHECK-NOT:     graph.
// CHECK:         %[[A:.*]] = call @model_kernel0_conv2d_relu(%[[ARG]])
// CHECK:         %[[B:.*]] = call @model_kernel1_sigmoid(%[[A]])
// CHECK:         return %[[B]]
func.func @model(%x: tensor<1x2x4x4xf32> {graph.name = "x"}) -> tensor<1x2x4x4xf32> {
  %w = graph.constant dense<1.0> : tensor<2x2x1x1xf32>
  %0 = graph.fused "conv2d_relu" (%x, %w) : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32> {
  ^bb0(%a: tensor<1x2x4x4xf32>, %b: tensor<2x2x1x1xf32>):
    %1 = graph.conv2d %a, %b : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
    %2 = graph.relu %1 : tensor<1x2x4x4xf32>
    graph.yield %2 : tensor<1x2x4x4xf32>
  }
  %3 = graph.sigmoid %0 : tensor<1x2x4x4xf32>
  return %3 : tensor<1x2x4x4xf32>
}

// -----

// Identical kernels (same op, attributes, types and constants) are one
// function called twice; a different attribute or constant makes another.
// CHECK-LABEL: func.func private @repeats_kernel0_max_pool2d(
// CHECK-LABEL: func.func private @repeats_kernel2_max_pool2d(
// CHECK:         padding = array<i64: 1, 1, 1, 1>
// CHECK-LABEL: func.func private @repeats_kernel3_add(
// CHECK:         graph.constant dense<1.000000e+00>
// CHECK-LABEL: func.func private @repeats_kernel5_add(
// CHECK:         graph.constant dense<2.000000e+00>
// CHECK-NOT:   func.func private
// CHECK-LABEL: func.func @repeats(
// CHECK:         call @repeats_kernel0_max_pool2d
// CHECK:         call @repeats_kernel0_max_pool2d
// CHECK:         call @repeats_kernel2_max_pool2d
// CHECK:         call @repeats_kernel3_add
// CHECK:         call @repeats_kernel3_add
// CHECK:         call @repeats_kernel5_add
func.func @repeats(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %a = graph.max_pool2d %x {kernel = array<i64: 1, 1>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %b = graph.max_pool2d %a {kernel = array<i64: 1, 1>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %c = graph.max_pool2d %b {kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %one = graph.constant dense<1.0> : tensor<1xf32>
  %two = graph.constant dense<2.0> : tensor<1xf32>
  %d = graph.add %c, %one : (tensor<1x1x4x4xf32>, tensor<1xf32>) -> tensor<1x1x4x4xf32>
  %e = graph.add %d, %one : (tensor<1x1x4x4xf32>, tensor<1xf32>) -> tensor<1x1x4x4xf32>
  %f = graph.add %e, %two : (tensor<1x1x4x4xf32>, tensor<1xf32>) -> tensor<1x1x4x4xf32>
  return %f : tensor<1x1x4x4xf32>
}

// -----

// A function returning a constant or an argument has nothing to outline.
// CHECK-LABEL: func.func @nothing(
// CHECK-NEXT:    %[[C:.*]] = graph.constant
// CHECK-NEXT:    return %[[C]], %{{.*}}
// CHECK-NOT:   func.func
func.func @nothing(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %c = graph.constant dense<3.0> : tensor<2xf32>
  return %c, %x : tensor<2xf32>, tensor<2xf32>
}
