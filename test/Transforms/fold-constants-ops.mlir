// RUN: graph-opt %s --graph-fold-constants | FileCheck %s

// The fold of every compute op on a small example. The expected values are
// computed independently with NumPy by Inputs/fold_constants_expected.py
// (the name of each case is given in a comment); nested dense literals start
// with `{{\[\[}}` because `[[` is FileCheck syntax.

// conv_pad_stride
// CHECK-LABEL: func.func @conv2d_padding_stride
// CHECK-NOT: graph.conv2d
// CHECK: %[[C:.+]] = graph.constant dense<{{\[\[\[\[}}1.250000e+01, 2.250000e+01], [3.050000e+01, 6.050000e+01]]]]> : tensor<1x1x2x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @conv2d_padding_stride() -> tensor<1x1x2x2xf32> {
  %x = graph.constant dense<[[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]]]> : tensor<1x1x4x4xf32>
  %w = graph.constant dense<[[[[1.0, 0.0, -1.0], [2.0, 1.0, 0.0], [0.0, 1.0, 1.0]]]]> : tensor<1x1x3x3xf32>
  %b = graph.constant dense<0.5> : tensor<1xf32>
  %y = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>, tensor<1xf32>) -> tensor<1x1x2x2xf32>
  return %y : tensor<1x1x2x2xf32>
}

// conv_asym_dilated: padding [top 0, left 1, bottom 1, right 0], dilation 2.
// CHECK-LABEL: func.func @conv2d_asymmetric_padding_dilation
// CHECK-NOT: graph.conv2d
// CHECK: %[[C:.+]] = graph.constant dense<{{\[\[\[\[}}8.000000e+00, 2.700000e+01, 3.000000e+01], [8.000000e+00, 3.900000e+01, 4.200000e+01], [-1.000000e+01, -2.000000e+00, -2.000000e+00]]]]> : tensor<1x1x3x3xf32>
// CHECK-NEXT: return %[[C]]
func.func @conv2d_asymmetric_padding_dilation() -> tensor<1x1x3x3xf32> {
  %x = graph.constant dense<[[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]]]> : tensor<1x1x4x4xf32>
  %w = graph.constant dense<[[[[1.0, -1.0], [2.0, 1.0]]]]> : tensor<1x1x2x2xf32>
  %y = graph.conv2d %x, %w {padding = array<i64: 0, 1, 1, 0>, dilations = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x3x3xf32>
  return %y : tensor<1x1x3x3xf32>
}

// conv_grouped: two groups of two channels each.
// CHECK-LABEL: func.func @conv2d_grouped
// CHECK-NOT: graph.conv2d
// CHECK: %[[C:.+]] = graph.constant dense<{{\[\[\[\[}}2.100000e+01, 2.400000e+01], [2.700000e+01, 3.000000e+01]], {{\[\[}}3.400000e+01, 3.600000e+01], [3.800000e+01, 4.000000e+01]]]]> : tensor<1x2x2x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @conv2d_grouped() -> tensor<1x2x2x2xf32> {
  %x = graph.constant dense<[[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]], [[9.0, 10.0], [11.0, 12.0]], [[13.0, 14.0], [15.0, 16.0]]]]> : tensor<1x4x2x2xf32>
  %w = graph.constant dense<[[[[1.0]], [[2.0]]], [[[3.0]], [[-1.0]]]]> : tensor<2x2x1x1xf32>
  %b = graph.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %y = graph.conv2d %x, %w, %b {groups = 2 : i64} : (tensor<1x4x2x2xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}

// batch_norm
// CHECK-LABEL: func.func @batch_norm
// CHECK-NOT: graph.batch_norm
// CHECK: %[[C:.+]] = graph.constant dense<{{\[\[\[\[}}1.000000e+00, 3.000000e+00], [5.000000e+00, 7.000000e+00]], {{\[\[}}-1.000000e+00, -5.000000e-01], [0.000000e+00, -1.500000e+00]]]]> : tensor<1x2x2x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @batch_norm() -> tensor<1x2x2x2xf32> {
  %x = graph.constant dense<[[[[1.0, 3.0], [5.0, 7.0]], [[2.0, 6.0], [10.0, -2.0]]]]> : tensor<1x2x2x2xf32>
  %scale = graph.constant dense<[2.0, 0.5]> : tensor<2xf32>
  %bias = graph.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %mean = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %var = graph.constant dense<[3.0, 15.0]> : tensor<2xf32>
  %y = graph.batch_norm %x, %scale, %bias, %mean, %var {epsilon = 1.0 : f32} : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}

// batch_norm_splat: all operands splat, so the result is a splat.
// CHECK-LABEL: func.func @batch_norm_splat
// CHECK: %[[C:.+]] = graph.constant dense<6.500000e+00> : tensor<2x3x4x4xf32>
// CHECK-NEXT: return %[[C]]
func.func @batch_norm_splat() -> tensor<2x3x4x4xf32> {
  %x = graph.constant dense<5.0> : tensor<2x3x4x4xf32>
  %scale = graph.constant dense<3.0> : tensor<3xf32>
  %bias = graph.constant dense<0.5> : tensor<3xf32>
  %mean = graph.constant dense<1.0> : tensor<3xf32>
  %var = graph.constant dense<3.0> : tensor<3xf32>
  %y = graph.batch_norm %x, %scale, %bias, %mean, %var {epsilon = 1.0 : f32} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return %y : tensor<2x3x4x4xf32>
}

// gemm: a stored K x M, b stored N x K, c of shape [N] broadcast to M x N.
// CHECK-LABEL: func.func @gemm_transposed
// CHECK-NOT: graph.gemm
// CHECK: %[[C:.+]] = graph.constant dense<{{\[\[}}2.500000e+00, 1.500000e+01, 1.050000e+01, -1.000000e+01], [4.500000e+00, 1.700000e+01, 1.350000e+01, -1.000000e+01], [6.500000e+00, 1.900000e+01, 1.650000e+01, -1.000000e+01]]> : tensor<3x4xf32>
// CHECK-NEXT: return %[[C]]
func.func @gemm_transposed() -> tensor<3x4xf32> {
  %a = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = graph.constant dense<[[1.0, 0.0], [-1.0, 2.0], [0.5, 1.0], [2.0, -2.0]]> : tensor<4x2xf32>
  %c = graph.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %y = graph.gemm %a, %b, %c {alpha = 2.0 : f32, beta = 0.5 : f32, trans_a, trans_b} : (tensor<2x3xf32>, tensor<4x2xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// matmul
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: graph.matmul
// CHECK: %[[C:.+]] = graph.constant dense<{{\[\[}}2.100000e+01, 2.400000e+01, 2.700000e+01], [4.700000e+01, 5.400000e+01, 6.100000e+01]]> : tensor<2x3xf32>
// CHECK-NEXT: return %[[C]]
func.func @matmul() -> tensor<2x3xf32> {
  %a = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = graph.constant dense<[[5.0, 6.0, 7.0], [8.0, 9.0, 10.0]]> : tensor<2x3xf32>
  %y = graph.matmul %a, %b : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// max_pool_neg: padded cells (zeros) never win over the negative values.
// CHECK-LABEL: func.func @max_pool2d_padding_negative
// CHECK-NOT: graph.max_pool2d
// CHECK: %[[C:.+]] = graph.constant dense<{{\[\[\[\[}}-1.000000e+00, -2.000000e+00], [-4.000000e+00, -5.000000e+00]]]]> : tensor<1x1x2x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @max_pool2d_padding_negative() -> tensor<1x1x2x2xf32> {
  %x = graph.constant dense<[[[[-1.0, -2.0, -3.0], [-4.0, -5.0, -6.0], [-7.0, -8.0, -9.0]]]]> : tensor<1x1x3x3xf32>
  %y = graph.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32>
  return %y : tensor<1x1x2x2xf32>
}

// avg_pool: the mean over the real cells only.
// CHECK-LABEL: func.func @avg_pool2d_padding
// CHECK-NOT: graph.avg_pool2d
// CHECK: %[[C:.+]] = graph.constant dense<{{\[\[\[\[}}1.000000e+00, 2.500000e+00, 4.000000e+00], [7.000000e+00, 8.500000e+00, 1.000000e+01], [1.300000e+01, 1.450000e+01, 1.600000e+01]]]]> : tensor<1x1x3x3xf32>
// CHECK-NEXT: return %[[C]]
func.func @avg_pool2d_padding() -> tensor<1x1x3x3xf32> {
  %x = graph.constant dense<[[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]]]> : tensor<1x1x4x4xf32>
  %y = graph.avg_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32>
  return %y : tensor<1x1x3x3xf32>
}

// avg_pool_incl: padded zeros count in the divisor.
// CHECK-LABEL: func.func @avg_pool2d_count_include_pad
// CHECK-NOT: graph.avg_pool2d
// CHECK: %[[C:.+]] = graph.constant dense<{{\[\[\[\[}}2.500000e-01, 1.250000e+00, 1.000000e+00], [3.500000e+00, 8.500000e+00, 5.000000e+00], [3.250000e+00, 7.250000e+00, 4.000000e+00]]]]> : tensor<1x1x3x3xf32>
// CHECK-NEXT: return %[[C]]
func.func @avg_pool2d_count_include_pad() -> tensor<1x1x3x3xf32> {
  %x = graph.constant dense<[[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]]]> : tensor<1x1x4x4xf32>
  %y = graph.avg_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, count_include_pad} : (tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32>
  return %y : tensor<1x1x3x3xf32>
}

// global_avg_pool
// CHECK-LABEL: func.func @global_avg_pool
// CHECK-NOT: graph.global_avg_pool
// CHECK: %[[C:.+]] = graph.constant dense<{{\[\[\[\[}}2.500000e+00]], {{\[\[}}6.500000e+00]]]]> : tensor<1x2x1x1xf32>
// CHECK-NEXT: return %[[C]]
func.func @global_avg_pool() -> tensor<1x2x1x1xf32> {
  %x = graph.constant dense<[[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]]> : tensor<1x2x2x2xf32>
  %y = graph.global_avg_pool %x : (tensor<1x2x2x2xf32>) -> tensor<1x2x1x1xf32>
  return %y : tensor<1x2x1x1xf32>
}

// softmax (last axis); exp-based, so matched to 6 significant digits.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: graph.softmax
// CHECK: %[[C:.+]] = graph.constant dense<{{\[\[}}{{0.0900305[0-9]*|9.003057e-02}}, {{0.244728[0-9]*|2.447284e-01}}, {{0.665240[0-9]*|6.652409e-01}}], [{{0.333333[0-9]*|3.333333e-01}}, {{0.333333[0-9]*|3.333333e-01}}, {{0.333333[0-9]*|3.333333e-01}}]]> : tensor<2x3xf32>
// CHECK-NEXT: return %[[C]]
func.func @softmax() -> tensor<2x3xf32> {
  %x = graph.constant dense<[[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]> : tensor<2x3xf32>
  %y = graph.softmax %x : tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// softmax_axis0
// CHECK-LABEL: func.func @softmax_axis0
// CHECK: %[[C:.+]] = graph.constant dense<{{\[\[}}5.000000e-01, {{0.880797[0-9]*|8.807970e-01}}], [5.000000e-01, {{0.119202[0-9]*|1.192029e-01}}]]> : tensor<2x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @softmax_axis0() -> tensor<2x2xf32> {
  %x = graph.constant dense<[[1.0, 2.0], [1.0, 0.0]]> : tensor<2x2xf32>
  %y = graph.softmax %x {axis = 0 : i64} : tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// softmax_splat: a splat in gives a splat out.
// CHECK-LABEL: func.func @softmax_splat
// CHECK: %[[C:.+]] = graph.constant dense<2.500000e-01> : tensor<2x4xf32>
// CHECK-NEXT: return %[[C]]
func.func @softmax_splat() -> tensor<2x4xf32> {
  %x = graph.constant dense<7.0> : tensor<2x4xf32>
  %y = graph.softmax %x {axis = 1 : i64} : tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// transpose
// CHECK-LABEL: func.func @transpose
// CHECK-NOT: graph.transpose
// CHECK: %[[C:.+]] = graph.constant dense<{{\[\[}}1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @transpose() -> tensor<3x2xf32> {
  %x = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %y = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

// transpose3
// CHECK-LABEL: func.func @transpose_rank3
// CHECK: %[[C:.+]] = graph.constant dense<{{\[\[\[}}1.000000e+00, 3.000000e+00, 5.000000e+00], [7.000000e+00, 9.000000e+00, 1.100000e+01]], {{\[\[}}2.000000e+00, 4.000000e+00, 6.000000e+00], [8.000000e+00, 1.000000e+01, 1.200000e+01]]]> : tensor<2x2x3xf32>
// CHECK-NEXT: return %[[C]]
func.func @transpose_rank3() -> tensor<2x2x3xf32> {
  %x = graph.constant dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]]> : tensor<2x3x2xf32>
  %y = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x2xf32>) -> tensor<2x2x3xf32>
  return %y : tensor<2x2x3xf32>
}

// concat, with a negative axis.
// CHECK-LABEL: func.func @concat
// CHECK-NOT: graph.concat
// CHECK: %[[C:.+]] = graph.constant dense<{{\[\[}}1.000000e+00, 3.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
// CHECK-NEXT: return %[[C]]
func.func @concat() -> tensor<2x3xf32> {
  %a = graph.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %b = graph.constant dense<[[3.0, 4.0], [5.0, 6.0]]> : tensor<2x2xf32>
  %y = graph.concat %a, %b {axis = -1 : i64} : (tensor<2x1xf32>, tensor<2x2xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// Concatenated splats of one value stay a splat.
// CHECK-LABEL: func.func @concat_splat
// CHECK: %[[C:.+]] = graph.constant dense<3.000000e+00> : tensor<5x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @concat_splat() -> tensor<5x2xf32> {
  %a = graph.constant dense<3.0> : tensor<2x2xf32>
  %b = graph.constant dense<3.0> : tensor<3x2xf32>
  %y = graph.concat %a, %b {axis = 0 : i64} : (tensor<2x2xf32>, tensor<3x2xf32>) -> tensor<5x2xf32>
  return %y : tensor<5x2xf32>
}

// reshape reuses the elements in row-major order.
// CHECK-LABEL: func.func @reshape
// CHECK-NOT: graph.reshape
// CHECK: %[[C:.+]] = graph.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00], [5.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @reshape() -> tensor<3x2xf32> {
  %x = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %y = graph.reshape %x {shape = array<i64: 3, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @reshape_splat
// CHECK: %[[C:.+]] = graph.constant dense<-2.000000e+00> : tensor<6x4xf32>
// CHECK-NEXT: return %[[C]]
func.func @reshape_splat() -> tensor<6x4xf32> {
  %x = graph.constant dense<-2.0> : tensor<2x3x4xf32>
  %y = graph.reshape %x {shape = array<i64: 6, 4>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}

// flatten
// CHECK-LABEL: func.func @flatten
// CHECK-NOT: graph.flatten
// CHECK: %[[C:.+]] = graph.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00], [5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00]]> : tensor<2x4xf32>
// CHECK-NEXT: return %[[C]]
func.func @flatten() -> tensor<2x4xf32> {
  %x = graph.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]> : tensor<2x2x2xf32>
  %y = graph.flatten %x {axis = 1 : i64} : (tensor<2x2x2xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// relu: relu(-0) = +0 and NaN stays NaN.
// CHECK-LABEL: func.func @relu
// CHECK: %[[C:.+]] = graph.constant dense<[0.000000e+00, 0.000000e+00, 3.000000e+00, 0x7FC00000]> : tensor<4xf32>
// CHECK-NEXT: return %[[C]]
func.func @relu() -> tensor<4xf32> {
  %x = graph.constant dense<[-2.0, -0.0, 3.0, 0x7FC00000]> : tensor<4xf32>
  %y = graph.relu %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// clip as ReLU6: clip(-0) = +0.
// CHECK-LABEL: func.func @clip
// CHECK: %[[C:.+]] = graph.constant dense<[0.000000e+00, 5.000000e-01, 6.000000e+00, 0.000000e+00]> : tensor<4xf32>
// CHECK-NEXT: return %[[C]]
func.func @clip() -> tensor<4xf32> {
  %x = graph.constant dense<[-1.0, 0.5, 7.0, -0.0]> : tensor<4xf32>
  %y = graph.clip %x {min = 0.0 : f32, max = 6.0 : f32} : tensor<4xf32>
  return %y : tensor<4xf32>
}

// sigmoid: exp-based, matched to 6 significant digits.
// CHECK-LABEL: func.func @sigmoid
// CHECK: %[[C:.+]] = graph.constant dense<[5.000000e-01, {{0.731058[0-9]*|7.310586e-01}}, {{0.268941[0-9]*|2.689414e-01}}]> : tensor<3xf32>
// CHECK-NEXT: return %[[C]]
func.func @sigmoid() -> tensor<3xf32> {
  %x = graph.constant dense<[0.0, 1.0, -1.0]> : tensor<3xf32>
  %y = graph.sigmoid %x : tensor<3xf32>
  return %y : tensor<3xf32>
}

// tanh
// CHECK-LABEL: func.func @tanh
// CHECK: %[[C:.+]] = graph.constant dense<[0.000000e+00, {{0.462117[0-9]*|4.621172e-01}}, -1.000000e+00]> : tensor<3xf32>
// CHECK-NEXT: return %[[C]]
func.func @tanh() -> tensor<3xf32> {
  %x = graph.constant dense<[0.0, 0.5, -20.0]> : tensor<3xf32>
  %y = graph.tanh %x : tensor<3xf32>
  return %y : tensor<3xf32>
}

// sub_bcast: rhs broadcast along the rows.
// CHECK-LABEL: func.func @sub_broadcast
// CHECK: %[[C:.+]] = graph.constant dense<{{\[\[}}-9.000000e+00, -1.800000e+01], [-7.000000e+00, -1.600000e+01]]> : tensor<2x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @sub_broadcast() -> tensor<2x2xf32> {
  %a = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = graph.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %y = graph.sub %a, %b : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// div_bcast: both operands broadcast (2x1 and 2 give 2x2).
// CHECK-LABEL: func.func @div_broadcast
// CHECK: %[[C:.+]] = graph.constant dense<{{\[\[}}2.500000e-01, -1.250000e-01], [5.000000e-01, -2.500000e-01]]> : tensor<2x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @div_broadcast() -> tensor<2x2xf32> {
  %a = graph.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %b = graph.constant dense<[4.0, -8.0]> : tensor<2xf32>
  %y = graph.div %a, %b : (tensor<2x1xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// resource_add: a dense_resource operand is read like a dense one; its
// reshape keeps the blob.
// CHECK-LABEL: func.func @dense_resource
// CHECK-DAG: %[[R:.+]] = graph.constant dense_resource<blob> : tensor<2x2xf32>
// CHECK-DAG: %[[C:.+]] = graph.constant dense<[1.500000e+00, 2.500000e+00, 3.500000e+00, 4.500000e+00]> : tensor<4xf32>
// CHECK: return %[[C]], %[[R]]
func.func @dense_resource() -> (tensor<4xf32>, tensor<2x2xf32>) {
  %x = graph.constant dense_resource<blob> : tensor<4xf32>
  %h = graph.constant dense<0.5> : tensor<4xf32>
  %y = graph.add %x, %h : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = graph.reshape %x {shape = array<i64: 2, 2>} : (tensor<4xf32>) -> tensor<2x2xf32>
  return %y, %r : tensor<4xf32>, tensor<2x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
