// RUN: graph-opt %s --convert-graph-to-linalg | FileCheck %s

// Ops inside a graph.fused body are converted; graph.fused and graph.yield
// stay, for graph-lower-fused. In the body the weight is a block argument,
// so it is transposed at run time.

// CHECK-LABEL: func.func @fused_body
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x6x6xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK: %[[F:.*]] = graph.fused "conv2d_relu"(%[[X]], %[[W]], %[[B]])
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<1x3x6x6xf32>, %[[A1:.*]]: tensor<4x3x3x3xf32>, %[[A2:.*]]: tensor<4xf32>):
// CHECK: linalg.transpose ins(%[[A0]] : tensor<1x3x6x6xf32>)
// CHECK: linalg.broadcast ins(%[[A2]] : tensor<4xf32>)
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[A1]] : tensor<4x3x3x3xf32>) outs(%{{.*}} : tensor<3x3x3x4xf32>) permutation = [2, 3, 1, 0]
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-SAME: %[[WT]]
// CHECK: %[[CT:.*]] = linalg.transpose
// CHECK-SAME: permutation = [0, 3, 1, 2]
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: ins(%[[CT]] : tensor<1x4x4x4xf32>)
// CHECK: arith.maximumf
// CHECK: graph.yield %[[R]] : tensor<1x4x4x4xf32>
// CHECK: return %[[F]]
// CHECK-NOT: graph.conv2d
// CHECK-NOT: graph.relu
func.func @fused_body(%x: tensor<1x3x6x6xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = graph.fused "conv2d_relu" (%x, %w, %b) : (tensor<1x3x6x6xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  ^bb0(%a: tensor<1x3x6x6xf32>, %c: tensor<4x3x3x3xf32>, %d: tensor<4xf32>):
    %1 = graph.conv2d %a, %c, %d : (tensor<1x3x6x6xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
    %2 = graph.relu %1 : tensor<1x4x4x4xf32>
    graph.yield %2 : tensor<1x4x4x4xf32>
  }
  return %0 : tensor<1x4x4x4xf32>
}

// CHECK-LABEL: func.func @fused_matmul_add
// CHECK: graph.fused "matmul_add"
// CHECK: %[[M:.*]] = linalg.matmul
// CHECK: %[[A:.*]] = linalg.generic
// CHECK-SAME: ins(%[[M]], %{{.*}} : tensor<2x4xf32>, tensor<4xf32>)
// CHECK: arith.addf
// CHECK: graph.yield %[[A]]
// CHECK-NOT: graph.matmul
func.func @fused_matmul_add(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<4xf32>) -> tensor<2x4xf32> {
  %0 = graph.fused "matmul_add" (%a, %b, %c) : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x4xf32> {
  ^bb0(%x: tensor<2x3xf32>, %y: tensor<3x4xf32>, %z: tensor<4xf32>):
    %1 = graph.matmul %x, %y : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %2 = graph.add %1, %z : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    graph.yield %2 : tensor<2x4xf32>
  }
  return %0 : tensor<2x4xf32>
}
