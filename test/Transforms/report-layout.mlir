// RUN: graph-opt %s --graph-report -o /dev/null 2>&1 | FileCheck %s
// RUN: graph-opt %s --graph-report=json=true -o /dev/null 2>&1 \
// RUN: | FileCheck %s --check-prefix=JSON

// Every graph.transpose is a layout change, at graph level or inside a
// fused body: here one of each, and a reshape that is not one.

// CHECK: graph.transpose: 1
// CHECK: layout changes: 2
// JSON: "layout_changes":2,

func.func @layouts(%x: tensor<1x2x3x4xf32>) -> tensor<1x4x2x3xf32> {
  %0 = graph.transpose %x {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x2x3x4xf32>) -> tensor<1x3x4x2xf32>
  %1 = graph.fused "relu_transpose"(%0) : (tensor<1x3x4x2xf32>) -> tensor<1x2x3x4xf32> {
  ^bb0(%a: tensor<1x3x4x2xf32>):
    %2 = graph.relu %a : tensor<1x3x4x2xf32>
    %3 = graph.transpose %2 {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x3x4x2xf32>) -> tensor<1x2x3x4xf32>
    graph.yield %3 : tensor<1x2x3x4xf32>
  }
  %4 = graph.reshape %1 {shape = array<i64: 1, 4, 2, 3>} : (tensor<1x2x3x4xf32>) -> tensor<1x4x2x3xf32>
  return %4 : tensor<1x4x2x3xf32>
}
