// The graph-optimize pipeline at each opt-level, and its pass order.
// RUN: graph-opt %s --graph-optimize="opt-level=0" | FileCheck %s --check-prefix=O0
// RUN: graph-opt %s --graph-optimize="opt-level=1" | FileCheck %s --check-prefix=O1
// RUN: graph-opt %s --graph-optimize="opt-level=2" | FileCheck %s --check-prefix=O2
// RUN: graph-opt %s --graph-optimize | FileCheck %s --check-prefix=O3
// RUN: graph-opt %s --pass-pipeline='builtin.module(graph-optimize{opt-level=2})' | FileCheck %s --check-prefix=O2
// RUN: graph-opt %s --graph-optimize --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: not graph-opt %s --graph-optimize="opt-level=4" 2>&1 | FileCheck %s --check-prefix=BAD

// ORDER: IR Dump After GraphFoldConstants (graph-fold-constants)
// ORDER: IR Dump After GraphFuse (graph-fuse)
// ORDER: IR Dump After GraphEliminateDeadCode (graph-eliminate-dead-code)

// BAD: opt-level must be 0, 1, 2 or 3, got 4

// O0-LABEL: func.func @model
// O0:         graph.mul
// O0:         graph.conv2d
// O0:         graph.batch_norm
// O0:         graph.relu
// O0:         graph.sigmoid

// O1-LABEL: func.func @model
// O1-NOT:     graph.mul
// O1-NOT:     graph.sigmoid
// O1-NOT:     graph.fused
// O1:         graph.conv2d
// O1:         graph.batch_norm
// O1:         graph.relu

// O2-LABEL: func.func @model
// O2-NOT:     graph.mul
// O2-NOT:     graph.sigmoid
// O2:         graph.fused "conv2d_batch_norm_relu_add"
// O2-NOT:     graph.sigmoid

// O3-LABEL: func.func @model
// O3-NOT:     graph.mul
// O3-NOT:     graph.batch_norm
// O3:         graph.fused "conv2d_relu_add"
// O3-NOT:     graph.sigmoid
func.func @model(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = graph.constant dense<1.0> : tensor<2x1x1x1xf32>
  %scale = graph.constant dense<2.0> : tensor<2xf32>
  %bias = graph.constant dense<0.5> : tensor<2xf32>
  %mean = graph.constant dense<0.0> : tensor<2xf32>
  %var = graph.constant dense<1.0> : tensor<2xf32>
  %c1 = graph.constant dense<2.0> : tensor<1xf32>
  %c2 = graph.constant dense<3.0> : tensor<1xf32>
  %six = graph.mul %c1, %c2 : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  %conv = graph.conv2d %x, %w : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %bn = graph.batch_norm %conv, %scale, %bias, %mean, %var : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %relu = graph.relu %bn : tensor<1x2x4x4xf32>
  %out = graph.add %relu, %six : (tensor<1x2x4x4xf32>, tensor<1xf32>) -> tensor<1x2x4x4xf32>
  %dead = graph.sigmoid %x : tensor<1x1x4x4xf32>
  return %out : tensor<1x2x4x4xf32>
}
