// graph-qdq-to-integer: products of dequantized 8-bit tensors become
// graph.matmul_integer, scaled once by dequantize, where the pinned target's
// integer kernels take the weights: 8-bit centered weights with VNNI
// (cascadelake), 16-bit with pmaddwd (x86-64-v3), none without AVX2.
// RUN: graph-opt %s --graph-qdq-to-integer=target-cpu=x86-64-v3 | FileCheck %s --check-prefixes=CHECK,WIDE
// RUN: graph-opt %s --graph-qdq-to-integer=target-cpu=cascadelake | FileCheck %s --check-prefixes=CHECK,VNNI
// RUN: graph-opt %s --graph-qdq-to-integer=target-cpu=x86-64-v3 --graph-qdq-to-integer=target-cpu=x86-64-v3 | FileCheck %s --check-prefixes=CHECK,WIDE
// RUN: graph-opt %s --graph-qdq-to-integer=target-cpu=x86-64-v2 | FileCheck %s --check-prefix=NONE
// RUN: not graph-opt %s --graph-qdq-to-integer=target-cpu=bogus 2>&1 | FileCheck %s --check-prefix=BAD
// The pipeline runs it first, before folding dequantizes the weights.
// RUN: graph-opt %s --graph-optimize="opt-level=2 target-cpu=x86-64-v3" | FileCheck %s --check-prefix=PIPELINE
// RUN: graph-opt %s --graph-optimize="opt-level=1 target-cpu=x86-64-v3" | FileCheck %s --check-prefix=O1

// NONE-NOT: graph.matmul_integer
// BAD: graph-qdq-to-integer: {{.*}}bogus

// A [batch, M, K] activation by K x N weights with a scale and a zero point
// per column: the zero points go to the integer product, the scales multiply.
// CHECK-LABEL: func.func @per_column
// CHECK-SAME:      (%[[X:.*]]: tensor<2x3x8xui8>)
// CHECK-NOT:     graph.dequantize
// CHECK-DAG:     %[[W:.*]] = graph.constant dense<{{.*}}> : tensor<8x4xi8>
// CHECK-DAG:     %[[XS:.*]] = graph.constant dense<5.000000e-01> : tensor<f32>
// CHECK-DAG:     %[[XZ:.*]] = graph.constant dense<3> : tensor<ui8>
// CHECK-DAG:     %[[WS:.*]] = graph.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]]> : tensor<1x4xf32>
// CHECK-DAG:     %[[WZ:.*]] = graph.constant dense<{{\[\[}}0, 1, -1, 2]]> : tensor<1x4xi8>
// CHECK:         %[[SUMS:.*]] = graph.matmul_integer %[[X]], %[[W]], %[[XZ]], %[[WZ]] : (tensor<2x3x8xui8>, tensor<8x4xi8>, tensor<ui8>, tensor<1x4xi8>) -> tensor<2x3x4xi32>
// CHECK:         %[[SCALE:.*]] = graph.mul %[[XS]], %[[WS]] : (tensor<f32>, tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK:         %[[ZERO:.*]] = graph.constant dense<0> : tensor<i32>
// CHECK:         %[[Y:.*]] = graph.dequantize %[[SUMS]], %[[SCALE]], %[[ZERO]] : (tensor<2x3x4xi32>, tensor<1x4xf32>, tensor<i32>) -> tensor<2x3x4xf32>
// CHECK-NOT:     graph.batch_matmul
// CHECK-NOT:     graph.dequantize
// CHECK:         return %[[Y]]
// PIPELINE-LABEL: func.func @per_column
// PIPELINE:         graph.matmul_integer
// PIPELINE-NOT:     graph.batch_matmul
// O1-LABEL: func.func @per_column
// O1-NOT:     graph.matmul_integer
// O1:         graph.batch_matmul
func.func @per_column(%x: tensor<2x3x8xui8>) -> tensor<2x3x4xf32> {
  %xs = graph.constant dense<0.5> : tensor<f32>
  %xz = graph.constant dense<3> : tensor<ui8>
  %w = graph.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [-1, -2, -3, -4],
      [9, 10, 11, 12], [0, 0, 0, 0], [100, -100, 50, -50],
      [7, 7, 7, 7], [-128, 127, 1, -1]]> : tensor<8x4xi8>
  %ws = graph.constant dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>
  %wz = graph.constant dense<[[0, 1, -1, 2]]> : tensor<1x4xi8>
  %a = graph.dequantize %x, %xs, %xz : (tensor<2x3x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3x8xf32>
  %b = graph.dequantize %w, %ws, %wz : (tensor<8x4xi8>, tensor<1x4xf32>, tensor<1x4xi8>) -> tensor<8x4xf32>
  %y = graph.batch_matmul %a, %b : (tensor<2x3x8xf32>, tensor<8x4xf32>) -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}

// A classifier's head: the flatten moves before the dequantization, the
// N x K weights (trans_b, a scale per row) are transposed, their scale
// becomes a vector of N, and c is added after.
// CHECK-LABEL: func.func @gemm_head
// CHECK-NOT:     graph.dequantize
// CHECK:         %[[FLAT:.*]] = graph.flatten %{{.*}} : (tensor<2x3x2xi8>) -> tensor<2x6xi8>
// CHECK:         %[[WT:.*]] = graph.transpose %{{.*}} {perm = array<i64: 1, 0>} : (tensor<4x6xi8>) -> tensor<6x4xi8>
// CHECK:         %[[WS:.*]] = graph.reshape %{{.*}} {shape = array<i64: 4>} : (tensor<4x1xf32>) -> tensor<4xf32>
// CHECK:         %[[SUMS:.*]] = graph.matmul_integer %[[FLAT]], %[[WT]], {{.*}} -> tensor<2x4xi32>
// CHECK:         %[[SCALE:.*]] = graph.mul %{{.*}}, %[[WS]] : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK:         %[[REAL:.*]] = graph.dequantize %[[SUMS]], %[[SCALE]]
// CHECK:         graph.add %[[REAL]], %{{.*}} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// CHECK-NOT:     graph.gemm
func.func @gemm_head(%x: tensor<2x3x2xi8>, %c: tensor<4xf32>) -> tensor<2x4xf32> {
  %xs = graph.constant dense<0.25> : tensor<f32>
  %xz = graph.constant dense<-2> : tensor<i8>
  %w = graph.constant dense<3> : tensor<4x6xi8>
  %ws = graph.constant dense<[[0.5], [1.0], [1.5], [2.0]]> : tensor<4x1xf32>
  %wz = graph.constant dense<0> : tensor<i8>
  %a = graph.dequantize %x, %xs, %xz : (tensor<2x3x2xi8>, tensor<f32>, tensor<i8>) -> tensor<2x3x2xf32>
  %f = graph.flatten %a : (tensor<2x3x2xf32>) -> tensor<2x6xf32>
  %b = graph.dequantize %w, %ws, %wz : (tensor<4x6xi8>, tensor<4x1xf32>, tensor<i8>) -> tensor<4x6xf32>
  %y = graph.gemm %f, %b, %c {trans_b} : (tensor<2x6xf32>, tensor<4x6xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// uint8 weights with zero point 0 are 0..255 centered: 16 bits (pmaddwd)
// hold them, VNNI's signed 8 do not.
// CHECK-LABEL: func.func @wide_weights
// WIDE:          graph.matmul_integer
// VNNI-NOT:      graph.matmul_integer
// VNNI:          graph.matmul {{.*}} : (tensor<2x3xf32>, tensor<3x2xf32>)
func.func @wide_weights(%x: tensor<2x3xui8>) -> tensor<2x2xf32> {
  %s = graph.constant dense<0.5> : tensor<f32>
  %z = graph.constant dense<0> : tensor<ui8>
  %w = graph.constant dense<[[0, 255], [200, 1], [128, 127]]> : tensor<3x2xui8>
  %a = graph.dequantize %x, %s, %z : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xf32>
  %b = graph.dequantize %w, %s, %z : (tensor<3x2xui8>, tensor<f32>, tensor<ui8>) -> tensor<3x2xf32>
  %y = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// Left alone: a scale per row of the activation (not one scale), weights
// that are not constants, a gemm scaled by alpha.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     graph.matmul_integer
// CHECK:         graph.matmul {{.*}} : (tensor<2x3xf32>, tensor<3x2xf32>)
// CHECK-NOT:     graph.matmul_integer
// CHECK:         graph.matmul {{.*}} : (tensor<2x3xf32>, tensor<3x2xf32>)
// CHECK-NOT:     graph.matmul_integer
// CHECK:         graph.gemm
// CHECK-NOT:     graph.matmul_integer
func.func @left_alone(%x: tensor<2x3xi8>, %v: tensor<3x2xi8>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %s = graph.constant dense<0.5> : tensor<f32>
  %rows = graph.constant dense<[[0.5], [0.25]]> : tensor<2x1xf32>
  %z = graph.constant dense<0> : tensor<i8>
  %w = graph.constant dense<1> : tensor<3x2xi8>
  %a = graph.dequantize %x, %s, %z : (tensor<2x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x3xf32>
  %per_row = graph.dequantize %x, %rows, %z : (tensor<2x3xi8>, tensor<2x1xf32>, tensor<i8>) -> tensor<2x3xf32>
  %b = graph.dequantize %w, %s, %z : (tensor<3x2xi8>, tensor<f32>, tensor<i8>) -> tensor<3x2xf32>
  %variable = graph.dequantize %v, %s, %z : (tensor<3x2xi8>, tensor<f32>, tensor<i8>) -> tensor<3x2xf32>
  %y0 = graph.matmul %per_row, %b : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %y1 = graph.matmul %a, %variable : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %y2 = graph.gemm %a, %b {alpha = 2.0 : f32} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %y0, %y1, %y2 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}

// A convolution of one group by int8 filters with a scale per filter: the
// integer convolution (NCHW here; graph-convert-layout chooses NHWC), its
// sums dequantized with x_scale * w_scale along the channels (F x 1 x 1),
// then the bias added.
// CHECK-LABEL: func.func @conv
// CHECK-SAME:      (%[[X:.*]]: tensor<1x4x5x5xui8>)
// CHECK-DAG:     %[[XS:.*]] = graph.constant dense<5.000000e-01> : tensor<f32>
// CHECK-DAG:     %[[XZ:.*]] = graph.constant dense<128> : tensor<ui8>
// CHECK-DAG:     %[[W:.*]] = graph.constant dense<3> : tensor<2x4x3x3xi8>
// CHECK-DAG:     %[[WS:.*]] = graph.constant dense<{{\[\[\[\[}}2.500000e-01]]], {{\[\[\[}}1.250000e-01]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG:     %[[WZ:.*]] = graph.constant dense<0> : tensor<2x1x1x1xi8>
// CHECK:         %[[SUMS:.*]] = graph.conv_integer %[[X]], %[[W]], %[[XZ]], %[[WZ]] {dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x5x5xui8>, tensor<2x4x3x3xi8>, tensor<ui8>, tensor<2x1x1x1xi8>) -> tensor<1x2x3x3xi32>
// CHECK:         %[[WS3:.*]] = graph.reshape %[[WS]] {shape = array<i64: 2, 1, 1>} : (tensor<2x1x1x1xf32>) -> tensor<2x1x1xf32>
// CHECK:         %[[SCALE:.*]] = graph.mul %[[XS]], %[[WS3]] : (tensor<f32>, tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
// CHECK:         %[[REAL:.*]] = graph.dequantize %[[SUMS]], %[[SCALE]], %{{.*}} : (tensor<1x2x3x3xi32>, tensor<2x1x1xf32>, tensor<i32>) -> tensor<1x2x3x3xf32>
// CHECK:         %[[B:.*]] = graph.reshape %{{.*}} {shape = array<i64: 2, 1, 1>} : (tensor<2xf32>) -> tensor<2x1x1xf32>
// CHECK:         %[[Y:.*]] = graph.add %[[REAL]], %[[B]]
// CHECK-NOT:     graph.conv2d
// CHECK:         return %[[Y]]
// NONE-LABEL: func.func @conv
// NONE:         graph.conv2d
func.func @conv(%x: tensor<1x4x5x5xui8>) -> tensor<1x2x3x3xf32> {
  %xs = graph.constant dense<0.5> : tensor<f32>
  %xz = graph.constant dense<128> : tensor<ui8>
  %w = graph.constant dense<3> : tensor<2x4x3x3xi8>
  %ws = graph.constant dense<[[[[0.25]]], [[[0.125]]]]> : tensor<2x1x1x1xf32>
  %wz = graph.constant dense<0> : tensor<2x1x1x1xi8>
  %b = graph.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %a = graph.dequantize %x, %xs, %xz : (tensor<1x4x5x5xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x5x5xf32>
  %f = graph.dequantize %w, %ws, %wz : (tensor<2x4x3x3xi8>, tensor<2x1x1x1xf32>, tensor<2x1x1x1xi8>) -> tensor<2x4x3x3xf32>
  %y = graph.conv2d %a, %f, %b {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x5x5xf32>, tensor<2x4x3x3xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// Convolutions left float: depthwise (groups = channels: a dot product of
// one channel), filters whose scale varies along the channels, and an NHWC
// convolution (graph-convert-layout runs after this pass).
// CHECK-LABEL: func.func @convs_left_alone
// CHECK-NOT:     graph.conv_integer
// CHECK-COUNT-3: graph.conv2d
// CHECK-NOT:     graph.conv_integer
func.func @convs_left_alone(%x: tensor<1x4x5x5xui8>) -> (tensor<1x4x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x3x3x2xf32>) {
  %xs = graph.constant dense<0.5> : tensor<f32>
  %xz = graph.constant dense<128> : tensor<ui8>
  %z = graph.constant dense<0> : tensor<i8>
  %s = graph.constant dense<0.25> : tensor<f32>
  %dw = graph.constant dense<3> : tensor<4x1x3x3xi8>
  %w = graph.constant dense<3> : tensor<2x4x3x3xi8>
  %hwcf = graph.constant dense<3> : tensor<3x3x4x2xi8>
  %per_channel = graph.constant dense<[[[0.5]], [[0.25]], [[0.5]], [[0.25]]]> : tensor<4x1x1xf32>
  %a = graph.dequantize %x, %xs, %xz : (tensor<1x4x5x5xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x5x5xf32>
  %fdw = graph.dequantize %dw, %s, %z : (tensor<4x1x3x3xi8>, tensor<f32>, tensor<i8>) -> tensor<4x1x3x3xf32>
  %fc = graph.dequantize %w, %per_channel, %z : (tensor<2x4x3x3xi8>, tensor<4x1x1xf32>, tensor<i8>) -> tensor<2x4x3x3xf32>
  %fhwcf = graph.dequantize %hwcf, %s, %z : (tensor<3x3x4x2xi8>, tensor<f32>, tensor<i8>) -> tensor<3x3x4x2xf32>
  %nhwc = graph.transpose %a {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x4x5x5xf32>) -> tensor<1x5x5x4xf32>
  %y0 = graph.conv2d %a, %fdw {groups = 4 : i64, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x5x5xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x3x3xf32>
  %y1 = graph.conv2d %a, %fc {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x5x5xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x3x3xf32>
  %y2 = graph.conv2d %nhwc, %fhwcf {layout = #graph<layout NHWC>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x5x5x4xf32>, tensor<3x3x4x2xf32>) -> tensor<1x3x3x2xf32>
  return %y0, %y1, %y2 : tensor<1x4x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x3x3x2xf32>
}

// A quantization undone by the same scale and zero point becomes
// graph.fake_quantize on every target, so that it can be an epilogue; the
// quantize stays for the integer product that reads it.
// CHECK-LABEL: func.func @fake_quantize
// CHECK-SAME:      (%[[X:.*]]: tensor<2x3xf32>)
// CHECK:         %[[Q:.*]] = graph.quantize %[[X]]
// CHECK:         %[[F:.*]] = graph.fake_quantize %[[X]], %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xf32>
// CHECK:         graph.matmul_integer %[[Q]]
// CHECK:         graph.relu %[[F]]
// NONE-LABEL: func.func @fake_quantize
// NONE-NOT:     graph.quantize
// NONE:         %[[F:.*]] = graph.fake_quantize
// NONE:         graph.matmul %[[F]]
// NONE:         graph.relu %[[F]]
func.func @fake_quantize(%x: tensor<2x3xf32>) -> (tensor<2x2xf32>, tensor<2x3xf32>) {
  %s = graph.constant dense<0.5> : tensor<f32>
  %z = graph.constant dense<0> : tensor<i8>
  %w = graph.constant dense<1> : tensor<3x2xi8>
  %q = graph.quantize %x, %s, %z : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  %a = graph.dequantize %q, %s, %z : (tensor<2x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x3xf32>
  %b = graph.dequantize %w, %s, %z : (tensor<3x2xi8>, tensor<f32>, tensor<i8>) -> tensor<3x2xf32>
  %y = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %r = graph.relu %a : tensor<2x3xf32>
  return %y, %r : tensor<2x2xf32>, tensor<2x3xf32>
}

// A dequantization with another scale than the quantization's stays.
// CHECK-LABEL: func.func @other_scale
// CHECK:         graph.quantize
// CHECK:         graph.dequantize
// CHECK-NOT:     graph.fake_quantize
func.func @other_scale(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = graph.constant dense<0.5> : tensor<f32>
  %t = graph.constant dense<0.25> : tensor<f32>
  %z = graph.constant dense<0> : tensor<i8>
  %q = graph.quantize %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i8>) -> tensor<4xi8>
  %d = graph.dequantize %q, %t, %z : (tensor<4xi8>, tensor<f32>, tensor<i8>) -> tensor<4xf32>
  return %d : tensor<4xf32>
}
