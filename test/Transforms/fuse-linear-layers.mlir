// RUN: graph-opt --graph-fuse %s | FileCheck %s
// RUN: graph-opt --graph-fuse --graph-report %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// A transformer's linear layer, a batch_matmul of [batch..., M, K] by a
// constant K x N matrix, becomes a matmul over the flattened rows whose
// reshape back moves below the elementwise ops that follow, so that they
// fuse as its epilogue. NumPy agreement: test/Integration/ops/matmul.test.

// REPORT: fused groups:
// REPORT: matmul_add_add: 1
// REPORT: matmul_add_gelu: 1
// REPORT: matmul_relu: 1

// Bias and GELU: the bias broadcasts over the rows either way.
// CHECK-LABEL: func.func @bias_gelu
// CHECK-SAME:    (%[[X:.*]]: tensor<1x4x8xf32>, %[[B:.*]]: tensor<16xf32>)
// CHECK:         %[[ROWS:.*]] = graph.reshape %[[X]] {shape = array<i64: 4, 8>}
// CHECK:         %[[F:.*]] = graph.fused "matmul_add_gelu"(%[[ROWS]], %{{.*}}, %[[B]])
// CHECK:           graph.matmul {{.*}} -> tensor<4x16xf32>
// CHECK:           graph.add {{.*}} -> tensor<4x16xf32>
// CHECK:           graph.gelu {{.*}} : tensor<4x16xf32>
// CHECK:         %[[Y:.*]] = graph.reshape %[[F]] {shape = array<i64: 1, 4, 16>}
// CHECK:         return %[[Y]]
func.func @bias_gelu(%x: tensor<1x4x8xf32>, %b: tensor<16xf32>) -> tensor<1x4x16xf32> {
  %w = graph.constant dense<0.5> : tensor<8x16xf32>
  %y = graph.batch_matmul %x, %w : (tensor<1x4x8xf32>, tensor<8x16xf32>) -> tensor<1x4x16xf32>
  %z = graph.add %y, %b : (tensor<1x4x16xf32>, tensor<16xf32>) -> tensor<1x4x16xf32>
  %g = graph.gelu %z : tensor<1x4x16xf32>
  return %g : tensor<1x4x16xf32>
}

// A residual of the batch shape is reshaped to the rows' (a view) and joins
// the epilogue; two batch dimensions flatten alike.
// CHECK-LABEL: func.func @residual
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x8xf32>, %[[R:.*]]: tensor<2x3x8xf32>)
// CHECK:         %[[RROWS:.*]] = graph.reshape %[[R]] {shape = array<i64: 6, 8>}
// CHECK:         %[[F:.*]] = graph.fused "matmul_add_add"({{.*}}%[[RROWS]]
// CHECK:         %[[Y:.*]] = graph.reshape %[[F]] {shape = array<i64: 2, 3, 8>}
// CHECK:         return %[[Y]]
func.func @residual(%x: tensor<2x3x8xf32>, %r: tensor<2x3x8xf32>) -> tensor<2x3x8xf32> {
  %w = graph.constant dense<0.25> : tensor<8x8xf32>
  %bias = graph.constant dense<1.0> : tensor<8xf32>
  %y = graph.batch_matmul %x, %w : (tensor<2x3x8xf32>, tensor<8x8xf32>) -> tensor<2x3x8xf32>
  %z = graph.add %y, %bias : (tensor<2x3x8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
  %s = graph.add %r, %z : (tensor<2x3x8xf32>, tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  return %s : tensor<2x3x8xf32>
}

// A matmul written with its reshapes: the same. The chain stops at an
// operand that broadcasts over the batch dimensions (one value per row
// would need the rows' shape): the reshape stays before that add.
// CHECK-LABEL: func.func @stops_at_row_operand
// CHECK:         %[[F:.*]] = graph.fused "matmul_relu"
// CHECK:         %[[Y:.*]] = graph.reshape %[[F]] {shape = array<i64: 1, 4, 16>}
// CHECK:         graph.add %[[Y]], %{{.*}} : (tensor<1x4x16xf32>, tensor<1x4x1xf32>)
func.func @stops_at_row_operand(%x: tensor<4x8xf32>, %c: tensor<1x4x1xf32>) -> tensor<1x4x16xf32> {
  %w = graph.constant dense<0.5> : tensor<8x16xf32>
  %y = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %r = graph.reshape %y {shape = array<i64: 1, 4, 16>} : (tensor<4x16xf32>) -> tensor<1x4x16xf32>
  %z = graph.relu %r : tensor<1x4x16xf32>
  %a = graph.add %z, %c : (tensor<1x4x16xf32>, tensor<1x4x1xf32>) -> tensor<1x4x16xf32>
  return %a : tensor<1x4x16xf32>
}

// Not a linear layer: the right-hand side is not a constant matrix, and a
// reshape with another live user stays where it is.
// CHECK-LABEL: func.func @not_linear
// CHECK:         graph.batch_matmul %{{.*}}, %{{.*}} : (tensor<1x4x8xf32>, tensor<1x8x16xf32>)
// CHECK:         graph.matmul
// CHECK-NEXT:    %[[R:.*]] = graph.reshape
// CHECK:         graph.relu %[[R]]
// CHECK:         return
func.func @not_linear(%x: tensor<1x4x8xf32>, %w: tensor<1x8x16xf32>, %v: tensor<4x8xf32>)
    -> (tensor<1x4x16xf32>, tensor<1x4x16xf32>, tensor<1x4x16xf32>) {
  %y = graph.batch_matmul %x, %w : (tensor<1x4x8xf32>, tensor<1x8x16xf32>) -> tensor<1x4x16xf32>
  %c = graph.constant dense<0.5> : tensor<8x16xf32>
  %m = graph.matmul %v, %c : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %r = graph.reshape %m {shape = array<i64: 1, 4, 16>} : (tensor<4x16xf32>) -> tensor<1x4x16xf32>
  %z = graph.relu %r : tensor<1x4x16xf32>
  return %y, %r, %z : tensor<1x4x16xf32>, tensor<1x4x16xf32>, tensor<1x4x16xf32>
}
