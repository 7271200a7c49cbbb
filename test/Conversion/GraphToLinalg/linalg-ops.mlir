// RUN: graph-opt %s --convert-graph-to-linalg --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x5xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x5xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<4x5xf32>)
// CHECK: %[[R:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x5xf32>) outs(%[[INIT]] : tensor<4x5xf32>)
// CHECK: return %[[R]]
// CHECK-NOT: graph.matmul
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>) -> tensor<4x5xf32> {
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// Default gemm without c: a plain matmul, no epilogue.

// CHECK-LABEL: func.func @gemm_plain
// CHECK: %[[R:.*]] = linalg.matmul
// CHECK-NEXT: return %[[R]]
func.func @gemm_plain(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>) -> tensor<4x5xf32> {
  %0 = graph.gemm %a, %b : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// Transposed operands, alpha, beta and a c broadcast along M: the epilogue
// computes (alpha * acc) + (beta * c) in that order.

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @gemm_full
// CHECK-SAME: (%[[A:.*]]: tensor<8x4xf32>, %[[B:.*]]: tensor<5x8xf32>, %[[C:.*]]: tensor<5xf32>)
// CHECK: %[[AT:.*]] = linalg.transpose ins(%[[A]] : tensor<8x4xf32>) outs(%{{.*}} : tensor<4x8xf32>) permutation = [1, 0]
// CHECK: %[[BT:.*]] = linalg.transpose ins(%[[B]] : tensor<5x8xf32>) outs(%{{.*}} : tensor<8x5xf32>) permutation = [1, 0]
// CHECK: %[[P:.*]] = linalg.matmul ins(%[[AT]], %[[BT]] : tensor<4x8xf32>, tensor<8x5xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[P]], %[[C]] : tensor<4x5xf32>, tensor<5xf32>)
// CHECK: ^bb0(%[[ACC:.*]]: f32, %[[CI:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[ALPHA:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[SA:.*]] = arith.mulf %[[ALPHA]], %[[ACC]] : f32
// CHECK-NEXT: %[[BETA:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[SC:.*]] = arith.mulf %[[BETA]], %[[CI]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[SA]], %[[SC]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK-NOT: graph.gemm
func.func @gemm_full(%a: tensor<8x4xf32>, %b: tensor<5x8xf32>, %c: tensor<5xf32>) -> tensor<4x5xf32> {
  %0 = graph.gemm %a, %b, %c {alpha = 0.5 : f32, beta = 2.0 : f32, trans_a, trans_b} : (tensor<8x4xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// alpha = beta = 1 multiply by one, which is exact: only the addition stays.
// A c of shape M x 1 is read at column 0.

// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @gemm_bias_column
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[COL]], #{{.*}}]
// CHECK: ^bb0(%[[ACC:.*]]: f32, %[[CI:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[ACC]], %[[CI]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @gemm_bias_column(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<4x1xf32>) -> tensor<4x5xf32> {
  %0 = graph.gemm %a, %b, %c : (tensor<4x8xf32>, tensor<8x5xf32>, tensor<4x1xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// A constant b with trans_b (a linear layer's weight) is transposed at
// compile time.

// CHECK-LABEL: func.func @gemm_constant_weight
// CHECK: %[[BT:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 3.000000e+00, 5.000000e+00], [2.000000e+00, 4.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
// CHECK-NOT: linalg.transpose
// CHECK: linalg.matmul ins(%{{.*}}, %[[BT]] : tensor<1x2xf32>, tensor<2x3xf32>)
func.func @gemm_constant_weight(%a: tensor<1x2xf32>) -> tensor<1x3xf32> {
  %b = graph.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %0 = graph.gemm %a, %b {trans_b} : (tensor<1x2xf32>, tensor<3x2xf32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}
