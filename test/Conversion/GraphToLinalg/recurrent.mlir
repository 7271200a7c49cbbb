// RUN: graph-opt %s --convert-graph-to-linalg | FileCheck %s

// A recurrent layer is one loop over the time steps, whatever the sequence's
// length: the input's products with w for all steps before it (one matmul
// per direction of the S x B rows by wᵀ), then per step the state's
// products with r (a matmul of the B x H state by rᵀ) and one elementwise
// op for the gates, which updates the states in place (its outs are the
// loop-carried states) and writes the step's state into the [S, D, B, H]
// result at the step's index.

// CHECK-LABEL: func.func @lstm
// CHECK: %[[RT:.*]] = linalg.transpose ins(%arg2 : tensor<1x24x6xf32>) {{.*}} permutation = [0, 2, 1]
// CHECK: %[[X:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<100x2x4xf32> into tensor<200x4xf32>
// CHECK: linalg.transpose ins(%arg1 : tensor<1x24x4xf32>) {{.*}} permutation = [0, 2, 1]
// CHECK: linalg.matmul ins(%[[X]], %{{.*}} : tensor<200x4xf32>, tensor<4x24xf32>) outs(%{{.*}} : tensor<200x24xf32>)
// CHECK: scf.for %[[S:.*]] = %{{.*}} to %c100 step %c1 iter_args(%[[H:.*]] = %{{.*}}, %[[Y:.*]] = %{{.*}}, %[[C:.*]] = %{{.*}}) -> (tensor<1x2x6xf32>, tensor<100x1x2x6xf32>, tensor<1x2x6xf32>)
// CHECK: %[[HD:.*]] = tensor.extract_slice %[[H]][0, 0, 0] [1, 2, 6] [1, 1, 1] : tensor<1x2x6xf32> to tensor<2x6xf32>
// CHECK: %[[RD:.*]] = tensor.extract_slice %[[RT]][0, 0, 0] [1, 6, 24] [1, 1, 1] : tensor<1x6x24xf32> to tensor<6x24xf32>
// CHECK: linalg.matmul ins(%[[HD]], %[[RD]] : tensor<2x6xf32>, tensor<6x24xf32>)
// CHECK: %[[STEP:.*]]:3 = linalg.generic {{.*}} outs(%[[H]], %{{.*}}, %[[C]] :
// CHECK: math.tanh
// CHECK: tensor.insert_slice %[[STEP]]#1 into %[[Y]][%[[S]], 0, 0, 0] [1, 1, 2, 6]
// CHECK: scf.yield %[[STEP]]#0, %{{.*}}, %[[STEP]]#2
// CHECK-NOT: scf.for
// CHECK: return
func.func @lstm(%x: tensor<100x2x4xf32>, %w: tensor<1x24x4xf32>, %r: tensor<1x24x6xf32>) -> (tensor<100x1x2x6xf32>, tensor<1x2x6xf32>, tensor<1x2x6xf32>) {
  %y, %yh, %yc = graph.lstm %x, %w, %r : (tensor<100x2x4xf32>, tensor<1x24x4xf32>, tensor<1x24x6xf32>) -> (tensor<100x1x2x6xf32>, tensor<1x2x6xf32>, tensor<1x2x6xf32>)
  return %y, %yh, %yc : tensor<100x1x2x6xf32>, tensor<1x2x6xf32>, tensor<1x2x6xf32>
}

// GRU's reset gate multiplies the state before its products with r_h: per
// step one matmul for the z and r gates (columns 0 to 2H of rᵀ), one for
// the h gate over r ⊙ h (columns 2H to 3H).
// CHECK-LABEL: func.func @gru
// CHECK: scf.for
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0] [1, 6, 12] [1, 1, 1] : tensor<1x6x18xf32> to tensor<6x12xf32>
// CHECK: linalg.matmul {{.*}} : tensor<2x6xf32>, tensor<6x12xf32>)
// CHECK: arith.divf
// CHECK: arith.mulf
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 12] [1, 6, 6] [1, 1, 1] : tensor<1x6x18xf32> to tensor<6x6xf32>
// CHECK: linalg.matmul {{.*}} : tensor<2x6xf32>, tensor<6x6xf32>)
// CHECK: scf.yield
func.func @gru(%x: tensor<7x2x4xf32>, %w: tensor<1x18x4xf32>, %r: tensor<1x18x6xf32>) -> tensor<1x2x6xf32> {
  %y, %yh = graph.gru %x, %w, %r : (tensor<7x2x4xf32>, tensor<1x18x4xf32>, tensor<1x18x6xf32>) -> (tensor<7x1x2x6xf32>, tensor<1x2x6xf32>)
  return %yh : tensor<1x2x6xf32>
}

// Constant weights are transposed at compile time: no transpose is left.
// CHECK-LABEL: func.func @constant_weights
// CHECK-NOT: linalg.transpose
// CHECK: arith.constant dense<{{.*}}> : tensor<1x3x2xf32>
// CHECK-NOT: linalg.transpose
// CHECK: return
func.func @constant_weights(%x: tensor<4x1x3xf32>) -> tensor<1x1x2xf32> {
  %w = graph.constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]> : tensor<1x2x3xf32>
  %r = graph.constant dense<[[[0.5, 0.0], [0.0, 0.5]]]> : tensor<1x2x2xf32>
  %y, %yh = graph.rnn %x, %w, %r : (tensor<4x1x3xf32>, tensor<1x2x3xf32>, tensor<1x2x2xf32>) -> (tensor<4x1x1x2xf32>, tensor<1x1x2xf32>)
  return %yh : tensor<1x1x2xf32>
}
