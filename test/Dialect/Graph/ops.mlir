// RUN: graph-opt %s | FileCheck %s
// Round trip: printing, parsing and printing again gives the same text.
// RUN: graph-opt %s | graph-opt | FileCheck %s
// The generic form parses back to the same ops.
// RUN: graph-opt %s --mlir-print-op-generic | graph-opt | FileCheck %s

// CHECK-LABEL: func.func @constant_dense
// CHECK: %[[C:.*]] = graph.constant dense<[1.000000e+00, -2.500000e+00]> : tensor<2xf32>
// CHECK: return %[[C]]
func.func @constant_dense() -> tensor<2xf32> {
  %0 = graph.constant dense<[1.0, -2.5]> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @constant_splat
// CHECK: graph.constant dense<5.000000e-01> : tensor<2x3xf32>
func.func @constant_splat() -> tensor<2x3xf32> {
  %0 = graph.constant dense<0.5> : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @constant_resource
// CHECK: graph.constant dense_resource<weights> : tensor<2xf32>
func.func @constant_resource() -> tensor<2xf32> {
  %0 = graph.constant dense_resource<weights> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @conv2d(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x3x8x8xf32>, %[[W:[^:]+]]: tensor<4x3x3x3xf32>
// CHECK: graph.conv2d %[[X]], %[[W]] : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
func.func @conv2d(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// OH = (9 + 1 + 2 - 2*2 - 1) / 2 + 1 = 4, OW = (9 + 0 + 1 - 2 - 1) / 1 + 1 = 8.
// CHECK-LABEL: func.func @conv2d_bias_attrs(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x9x9xf32>, %[[W:[^:]+]]: tensor<6x2x3x3xf32>, %[[B:[^:]+]]: tensor<6xf32>
// CHECK: graph.conv2d %[[X]], %[[W]], %[[B]] {dilations = array<i64: 2, 1>, groups = 2 : i64, padding = array<i64: 1, 0, 2, 1>, strides = array<i64: 2, 1>} : (tensor<1x4x9x9xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x4x8xf32>
func.func @conv2d_bias_attrs(%x: tensor<1x4x9x9xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x4x8xf32> {
  %0 = graph.conv2d %x, %w, %b {strides = array<i64: 2, 1>, padding = array<i64: 1, 0, 2, 1>, dilations = array<i64: 2, 1>, groups = 2} : (tensor<1x4x9x9xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x4x8xf32>
  return %0 : tensor<1x6x4x8xf32>
}

// CHECK-LABEL: func.func @batch_norm
// CHECK: graph.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f32} : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
func.func @batch_norm(%x: tensor<1x3x4x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<1x3x4x4xf32> {
  %0 = graph.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-3 : f32} : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// The default epsilon is not printed.
// CHECK-LABEL: func.func @batch_norm_default
// CHECK: graph.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xf32>,
func.func @batch_norm_default(%x: tensor<2x3xf32>, %p: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = graph.batch_norm %x, %p, %p, %p, %p {epsilon = 1.0e-5 : f32} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @activations
// CHECK: graph.relu %{{.*}} : tensor<2x3xf32>
// CHECK: graph.sigmoid %{{.*}} : tensor<2x3xf32>
// CHECK: graph.tanh %{{.*}} : tensor<2x3xf32>
// CHECK: graph.clip %{{.*}} {max = 6.000000e+00 : f32, min = 0.000000e+00 : f32} : tensor<2x3xf32>
func.func @activations(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = graph.relu %x : tensor<2x3xf32>
  %1 = graph.sigmoid %x : tensor<2x3xf32>
  %2 = graph.tanh %x : tensor<2x3xf32>
  %3 = graph.clip %x {min = 0.0 : f32, max = 6.0 : f32} : tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @binary
// CHECK: graph.add %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: graph.sub %{{.*}}, %{{.*}} : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xf32>
// CHECK: graph.mul %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: graph.div %{{.*}}, %{{.*}} : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @binary(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: tensor<4x1x3xf32>, %d: tensor<2x1xf32>, %s: tensor<f32>) -> (tensor<2x3xf32>, tensor<4x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = graph.sub %c, %d : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xf32>
  %2 = graph.mul %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = graph.div %s, %a : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<4x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @matmul
// CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @gemm
// CHECK: graph.gemm %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
func.func @gemm(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = graph.gemm %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// a' = 2x3, b' = 3x4, c broadcast along M.
// CHECK-LABEL: func.func @gemm_c_attrs(
// CHECK-SAME: %[[A:[^:]+]]: tensor<3x2xf32>, %[[B:[^:]+]]: tensor<4x3xf32>, %[[C:[^:]+]]: tensor<4xf32>
// CHECK: graph.gemm %[[A]], %[[B]], %[[C]] {alpha = 5.000000e-01 : f32, beta = 2.000000e+00 : f32, trans_a, trans_b} : (tensor<3x2xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<2x4xf32>
func.func @gemm_c_attrs(%a: tensor<3x2xf32>, %b: tensor<4x3xf32>, %c: tensor<4xf32>) -> tensor<2x4xf32> {
  %0 = graph.gemm %a, %b, %c {alpha = 0.5 : f32, beta = 2.0 : f32, trans_a, trans_b} : (tensor<3x2xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @gemm_c_matrix
// CHECK: graph.gemm %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
func.func @gemm_c_matrix(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<2x1xf32>) -> tensor<2x4xf32> {
  %0 = graph.gemm %a, %b, %c : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @max_pool2d
// CHECK: graph.max_pool2d %{{.*}} {kernel = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32>
func.func @max_pool2d(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
  %0 = graph.max_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// OH = OW = (7 + 1 + 1 - 3) / 2 + 1 = 4.
// CHECK-LABEL: func.func @max_pool2d_attrs
// CHECK: graph.max_pool2d %{{.*}} {kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x7x7xf32>) -> tensor<1x2x4x4xf32>
func.func @max_pool2d_attrs(%x: tensor<1x2x7x7xf32>) -> tensor<1x2x4x4xf32> {
  %0 = graph.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x7x7xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// CHECK-LABEL: func.func @avg_pool2d
// CHECK: graph.avg_pool2d %{{.*}} {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
func.func @avg_pool2d(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %0 = graph.avg_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// OH = (5 + 0 + 1 - 2) / 2 + 1 = 3, OW = (6 + 1 + 2 - 3) / 1 + 1 = 7.
// CHECK-LABEL: func.func @avg_pool2d_attrs
// CHECK: graph.avg_pool2d %{{.*}} {count_include_pad, kernel = array<i64: 2, 3>, padding = array<i64: 0, 1, 1, 2>, strides = array<i64: 2, 1>} : (tensor<1x1x5x6xf32>) -> tensor<1x1x3x7xf32>
func.func @avg_pool2d_attrs(%x: tensor<1x1x5x6xf32>) -> tensor<1x1x3x7xf32> {
  %0 = graph.avg_pool2d %x {kernel = array<i64: 2, 3>, strides = array<i64: 2, 1>, padding = array<i64: 0, 1, 1, 2>, count_include_pad} : (tensor<1x1x5x6xf32>) -> tensor<1x1x3x7xf32>
  return %0 : tensor<1x1x3x7xf32>
}

// CHECK-LABEL: func.func @global_avg_pool
// CHECK: graph.global_avg_pool %{{.*}} : (tensor<2x3x5x5xf32>) -> tensor<2x3x1x1xf32>
func.func @global_avg_pool(%x: tensor<2x3x5x5xf32>) -> tensor<2x3x1x1xf32> {
  %0 = graph.global_avg_pool %x : (tensor<2x3x5x5xf32>) -> tensor<2x3x1x1xf32>
  return %0 : tensor<2x3x1x1xf32>
}

// CHECK-LABEL: func.func @reshape
// CHECK: graph.reshape %{{.*}} {shape = array<i64: 6, 4>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
func.func @reshape(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %0 = graph.reshape %x {shape = array<i64: 6, 4>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// CHECK-LABEL: func.func @flatten
// CHECK: graph.flatten %{{.*}} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
// CHECK: graph.flatten %{{.*}} {axis = -1 : i64} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK: graph.flatten %{{.*}} {axis = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<1x24xf32>
// CHECK: graph.flatten %{{.*}} {axis = 3 : i64} : (tensor<2x3x4xf32>) -> tensor<24x1xf32>
func.func @flatten(%x: tensor<2x3x4xf32>) -> (tensor<2x12xf32>, tensor<6x4xf32>, tensor<1x24xf32>, tensor<24x1xf32>) {
  %0 = graph.flatten %x : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  %1 = graph.flatten %x {axis = -1} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %2 = graph.flatten %x {axis = 0} : (tensor<2x3x4xf32>) -> tensor<1x24xf32>
  %3 = graph.flatten %x {axis = 3} : (tensor<2x3x4xf32>) -> tensor<24x1xf32>
  return %0, %1, %2, %3 : tensor<2x12xf32>, tensor<6x4xf32>, tensor<1x24xf32>, tensor<24x1xf32>
}

// CHECK-LABEL: func.func @transpose
// CHECK: graph.transpose %{{.*}} {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// CHECK-LABEL: func.func @concat(
// CHECK-SAME: %[[A:[^:]+]]: tensor<2x3xf32>, %[[B:[^:]+]]: tensor<2x5xf32>, %[[C:[^:]+]]: tensor<1x3xf32>
// CHECK: graph.concat %[[A]], %[[B]] {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
// CHECK: graph.concat %[[C]], %[[A]] {axis = -2 : i64} : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
// CHECK: graph.concat %[[A]] {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %c: tensor<1x3xf32>) -> (tensor<2x8xf32>, tensor<3x3xf32>, tensor<2x3xf32>) {
  %0 = graph.concat %a, %b {axis = 1} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %1 = graph.concat %c, %a {axis = -2} : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  %2 = graph.concat %a {axis = 0} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<2x8xf32>, tensor<3x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @softmax
// CHECK: graph.softmax %{{.*}} : tensor<2x3xf32>
// CHECK: graph.softmax %{{.*}} {axis = 0 : i64} : tensor<2x3xf32>
func.func @softmax(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = graph.softmax %x : tensor<2x3xf32>
  %1 = graph.softmax %x {axis = 0} : tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @normalizations
// CHECK: graph.layer_norm %{{.*}} scale %{{.*}} bias %{{.*}} {epsilon = 9.99999996E-13 : f32} : (tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
// CHECK: graph.layer_norm %{{.*}} {axis = 1 : i64} : (tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
// CHECK: graph.layer_norm %{{.*}} bias %{{.*}} : (tensor<2x3x8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
// CHECK: graph.rms_norm %{{.*}} scale %{{.*}} {axis = -2 : i64, epsilon = 9.99999997E-7 : f32} : (tensor<2x3x8xf32>, tensor<3x8xf32>) -> tensor<2x3x8xf32>
func.func @normalizations(%x: tensor<2x3x8xf32>, %s: tensor<8xf32>, %b: tensor<8xf32>,
                          %t: tensor<3x8xf32>)
    -> (tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>) {
  %0 = graph.layer_norm %x scale %s bias %b {epsilon = 1.0e-12 : f32}
      : (tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
  %1 = graph.layer_norm %x {axis = 1} : (tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %2 = graph.layer_norm %x bias %b : (tensor<2x3x8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
  %3 = graph.rms_norm %x scale %t {axis = -2, epsilon = 1.0e-6 : f32}
      : (tensor<2x3x8xf32>, tensor<3x8xf32>) -> tensor<2x3x8xf32>
  return %0, %1, %2, %3 : tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>
}

// CHECK-LABEL: func.func @attention
// CHECK: graph.attention %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x5x4xf32>, tensor<2x4x6xf32>, tensor<2x6x3xf32>) -> tensor<2x5x3xf32>
// CHECK: graph.attention %{{.*}}, %{{.*}}, %{{.*}} mask %{{.*}} {scale = 1.250000e-01 : f32} : (tensor<2x5x4xf32>, tensor<2x4x6xf32>, tensor<2x6x3xf32>, tensor<1x5x6xf32>) -> tensor<2x5x3xf32>
// CHECK: graph.attention %{{.*}}, %{{.*}}, %{{.*}} mask %{{.*}} : (tensor<5x4xf32>, tensor<4x6xf32>, tensor<6x3xf32>, tensor<1x6xf32>) -> tensor<5x3xf32>
func.func @attention(%q: tensor<2x5x4xf32>, %k: tensor<2x4x6xf32>, %v: tensor<2x6x3xf32>,
                     %m: tensor<1x5x6xf32>, %q2: tensor<5x4xf32>, %k2: tensor<4x6xf32>,
                     %v2: tensor<6x3xf32>, %m2: tensor<1x6xf32>)
    -> (tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<5x3xf32>) {
  %0 = graph.attention %q, %k, %v : (tensor<2x5x4xf32>, tensor<2x4x6xf32>, tensor<2x6x3xf32>) -> tensor<2x5x3xf32>
  %1 = graph.attention %q, %k, %v mask %m {scale = 0.125 : f32}
      : (tensor<2x5x4xf32>, tensor<2x4x6xf32>, tensor<2x6x3xf32>, tensor<1x5x6xf32>) -> tensor<2x5x3xf32>
  %2 = graph.attention %q2, %k2, %v2 mask %m2
      : (tensor<5x4xf32>, tensor<4x6xf32>, tensor<6x3xf32>, tensor<1x6xf32>) -> tensor<5x3xf32>
  return %0, %1, %2 : tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<5x3xf32>
}

// CHECK-LABEL: func.func @dropout
// CHECK: graph.dropout %{{.*}} : tensor<2x3xf32>
// CHECK: graph.dropout %{{.*}} {ratio = 2.500000e-01 : f32, training} : tensor<2x3xf32>
func.func @dropout(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = graph.dropout %x : tensor<2x3xf32>
  %1 = graph.dropout %x {ratio = 0.25 : f32, training} : tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @random_uniform
// CHECK: graph.random_uniform {shape = array<i64: 2, 3>} : tensor<2x3xf32>
// CHECK: graph.random_uniform {high = 2.000000e+00 : f32, low = -1.000000e+00 : f32, seed = 42 : i64, shape = array<i64: 4>} : tensor<4xf32>
func.func @random_uniform() -> (tensor<2x3xf32>, tensor<4xf32>) {
  %0 = graph.random_uniform {shape = array<i64: 2, 3>} : tensor<2x3xf32>
  %1 = graph.random_uniform {shape = array<i64: 4>, low = -1.0 : f32, high = 2.0 : f32, seed = 42} : tensor<4xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @fused(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x3x8x8xf32>, %[[W:[^:]+]]: tensor<4x3x3x3xf32>
// CHECK: %[[R:.*]] = graph.fused "conv2d_relu"(%[[X]], %[[W]]) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
// CHECK-NEXT: ^bb0(%[[A:[^:]+]]: tensor<1x3x8x8xf32>, %[[B:[^:]+]]: tensor<4x3x3x3xf32>):
// CHECK-NEXT: %[[C:.*]] = graph.conv2d %[[A]], %[[B]] : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
// CHECK-NEXT: %[[Y:.*]] = graph.relu %[[C]] : tensor<1x4x6x6xf32>
// CHECK-NEXT: graph.yield %[[Y]] : tensor<1x4x6x6xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]
func.func @fused(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = graph.fused "conv2d_relu" (%x, %w) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  ^bb0(%a: tensor<1x3x8x8xf32>, %b: tensor<4x3x3x3xf32>):
    %1 = graph.conv2d %a, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
    %2 = graph.relu %1 : tensor<1x4x6x6xf32>
    graph.yield %2 : tensor<1x4x6x6xf32>
  }
  return %0 : tensor<1x4x6x6xf32>
}

// A group with several results, and one with no operands.
// CHECK-LABEL: func.func @fused_results
// CHECK: %{{.*}}:2 = graph.fused "two"(%{{.*}}) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
// CHECK: graph.yield %{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xf32>
// CHECK: graph.fused "none"() : () -> tensor<2xf32> {
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<1.000000e+00> : tensor<2xf32>
// CHECK-NEXT: graph.yield %[[C]] : tensor<2xf32>
func.func @fused_results(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0:2 = graph.fused "two"(%x) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  ^bb0(%a: tensor<2xf32>):
    %1 = graph.sigmoid %a : tensor<2xf32>
    graph.yield %a, %1 : tensor<2xf32>, tensor<2xf32>
  }
  %2 = graph.fused "none"() : () -> tensor<2xf32> {
    %c = graph.constant dense<1.0> : tensor<2xf32>
    graph.yield %c : tensor<2xf32>
  }
  return %0#0, %0#1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

//===----------------------------------------------------------------------===//
// The generic form is accepted as input.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @generic_relu
// CHECK: graph.relu %{{.*}} : tensor<1x8xf32>
func.func @generic_relu(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %y = "graph.relu"(%x) : (tensor<1x8xf32>) -> tensor<1x8xf32>
  return %y : tensor<1x8xf32>
}

// Inherent attributes as properties and, in the older spelling, in the
// attribute dictionary.
// CHECK-LABEL: func.func @generic_attrs
// CHECK: graph.conv2d %{{.*}}, %{{.*}}, %{{.*}} {groups = 2 : i64, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x3x3xf32>
// CHECK: graph.transpose %{{.*}} {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK: graph.gemm %{{.*}}, %{{.*}} {trans_b} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
// CHECK: graph.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK: graph.random_uniform {seed = 3 : i64, shape = array<i64: 2>} : tensor<2xf32>
func.func @generic_attrs(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>, %m: tensor<2x3xf32>) -> (tensor<1x6x3x3xf32>, tensor<3x2xf32>, tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0 = "graph.conv2d"(%x, %w, %b) <{groups = 2 : i64, strides = array<i64: 2, 2>}> : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x3x3xf32>
  %1 = "graph.transpose"(%m) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %2 = "graph.gemm"(%m, %m) <{trans_b}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  %3 = "graph.constant"() <{value = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %4 = "graph.random_uniform"() <{shape = array<i64: 2>, seed = 3 : i64}> : () -> tensor<2xf32>
  return %0, %1, %2, %3, %4 : tensor<1x6x3x3xf32>, tensor<3x2xf32>, tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func.func @generic_fused
// CHECK: graph.fused "relu"(%{{.*}}) : (tensor<2x3xf32>) -> tensor<2x3xf32> {
// CHECK: graph.relu
// CHECK: graph.yield
func.func @generic_fused(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "graph.fused"(%x) <{kind = "relu"}> ({
  ^bb0(%a: tensor<2x3xf32>):
    %1 = "graph.relu"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    "graph.yield"(%1) : (tensor<2x3xf32>) -> ()
  }) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// The resource blob survives the round trip: 1.0 and 2.0 as f32.
// CHECK: dialect_resources
// CHECK: weights: "0x040000000000803F00000040"
{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}
