// RUN: graph-opt %s --convert-graph-to-linalg --split-input-file | FileCheck %s

// conv2d is computed in NHWC/HWCF: input transposed and zero-padded, weight
// transposed, bias broadcast into the accumulator, result transposed back.

// CHECK-LABEL: func.func @conv_bias_pad_stride_dilation
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x9xf32>, %[[W:.*]]: tensor<4x3x3x2xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK: %[[XE:.*]] = tensor.empty() : tensor<1x8x9x3xf32>
// CHECK: %[[XT:.*]] = linalg.transpose ins(%[[X]] : tensor<1x3x8x9xf32>) outs(%[[XE]] : tensor<1x8x9x3xf32>) permutation = [0, 2, 3, 1]
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[XP:.*]] = tensor.pad %[[XT]] low[0, 1, 2, 0] high[0, 3, 0, 0]
// CHECK: tensor.yield %[[ZERO]] : f32
// CHECK: } : tensor<1x8x9x3xf32> to tensor<1x12x11x3xf32>
// CHECK: %[[BE:.*]] = tensor.empty() : tensor<1x5x3x4xf32>
// CHECK: %[[INIT:.*]] = linalg.broadcast ins(%[[B]] : tensor<4xf32>) outs(%[[BE]] : tensor<1x5x3x4xf32>) dimensions = [0, 1, 2]
// CHECK: %[[WE:.*]] = tensor.empty() : tensor<3x2x3x4xf32>
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<4x3x3x2xf32>) outs(%[[WE]] : tensor<3x2x3x4xf32>) permutation = [2, 3, 1, 0]
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<[2, 3]> : vector<2xi64>}
// CHECK-SAME: ins(%[[XP]], %[[WT]] : tensor<1x12x11x3xf32>, tensor<3x2x3x4xf32>) outs(%[[INIT]] : tensor<1x5x3x4xf32>)
// CHECK: %[[RE:.*]] = tensor.empty() : tensor<1x4x5x3xf32>
// CHECK: %[[R:.*]] = linalg.transpose ins(%[[C]] : tensor<1x5x3x4xf32>) outs(%[[RE]] : tensor<1x4x5x3xf32>) permutation = [0, 3, 1, 2]
// CHECK: return %[[R]]
// CHECK-NOT: graph.conv2d
func.func @conv_bias_pad_stride_dilation(%x: tensor<1x3x8x9xf32>, %w: tensor<4x3x3x2xf32>, %b: tensor<4xf32>) -> tensor<1x4x5x3xf32> {
  %0 = graph.conv2d %x, %w, %b {strides = array<i64: 2, 3>, padding = array<i64: 1, 2, 3, 0>, dilations = array<i64: 1, 2>} : (tensor<1x3x8x9xf32>, tensor<4x3x3x2xf32>, tensor<4xf32>) -> tensor<1x4x5x3xf32>
  return %0 : tensor<1x4x5x3xf32>
}

// -----

// Without bias and padding: a zero-filled accumulator and no tensor.pad.

// CHECK-LABEL: func.func @conv_no_bias
// CHECK-NOT: tensor.pad
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<1x2x2x2xf32>)
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
// CHECK-SAME: outs(%[[INIT]] : tensor<1x2x2x2xf32>)
func.func @conv_no_bias(%x: tensor<1x1x3x3xf32>, %w: tensor<2x1x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// A constant weight is transposed at compile time (FCHW -> HWCF) and the
// original constant is dropped. w[f][c][h][w] = 8f + 4c + 2h + w.

// CHECK-LABEL: func.func @conv_constant_weight
// CHECK-NOT: linalg.transpose ins(%{{.*}} : tensor<2x2x2x2xf32>)
// CHECK: %[[WT:.*]] = arith.constant dense<{{\[\[\[\[}}0.000000e+00, 8.000000e+00], [4.000000e+00, 1.200000e+01]], {{\[\[}}1.000000e+00, 9.000000e+00], [5.000000e+00, 1.300000e+01]]], {{\[\[\[}}2.000000e+00, 1.000000e+01], [6.000000e+00, 1.400000e+01]], {{\[\[}}3.000000e+00, 1.100000e+01], [7.000000e+00, 1.500000e+01]]]]> : tensor<2x2x2x2xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-SAME: ins(%{{.*}}, %[[WT]] :
// CHECK-NOT: dense<[{{\[\[\[}}0.000000e+00, 1.000000e+00]
func.func @conv_constant_weight(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x2x2xf32> {
  %w = graph.constant dense<[[[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]],
                             [[[8.0, 9.0], [10.0, 11.0]], [[12.0, 13.0], [14.0, 15.0]]]]> : tensor<2x2x2x2xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// Depthwise (groups == C == F): F x 1 x KH x KW -> KH x KW x F.

// CHECK-LABEL: func.func @conv_depthwise
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x5x5xf32>, %[[W:.*]]: tensor<4x1x3x3xf32>)
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<4x1x3x3xf32>) outs(%{{.*}} : tensor<3x3x1x4xf32>) permutation = [2, 3, 1, 0]
// CHECK: %[[WC:.*]] = tensor.collapse_shape %[[WT]] {{\[\[}}0], [1], [2, 3]] : tensor<3x3x1x4xf32> into tensor<3x3x4xf32>
// CHECK: %[[C:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
// CHECK-SAME: ins(%{{.*}}, %[[WC]] : tensor<1x7x7x4xf32>, tensor<3x3x4xf32>) outs(%{{.*}} : tensor<1x3x3x4xf32>)
// CHECK: linalg.transpose ins(%[[C]] : tensor<1x3x3x4xf32>) outs(%{{.*}} : tensor<1x4x3x3xf32>) permutation = [0, 3, 1, 2]
// CHECK-NOT: graph.conv2d
func.func @conv_depthwise(%x: tensor<1x4x5x5xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %0 = graph.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, groups = 4 : i64} : (tensor<1x4x5x5xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// -----

// Depthwise with a constant weight: reshaped and transposed at compile time.

// CHECK-LABEL: func.func @conv_depthwise_constant
// CHECK: %[[WC:.*]] = arith.constant dense<{{\[\[\[}}0.000000e+00, 4.000000e+00], [1.000000e+00, 5.000000e+00]], {{\[\[}}2.000000e+00, 6.000000e+00], [3.000000e+00, 7.000000e+00]]]> : tensor<2x2x2xf32>
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
// CHECK-SAME: ins(%{{.*}}, %[[WC]] :
// CHECK-NOT: tensor.collapse_shape
func.func @conv_depthwise_constant(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x2x2xf32> {
  %w = graph.constant dense<[[[[0.0, 1.0], [2.0, 3.0]]], [[[4.0, 5.0], [6.0, 7.0]]]]> : tensor<2x1x2x2xf32>
  %0 = graph.conv2d %x, %w {groups = 2 : i64} : (tensor<1x2x3x3xf32>, tensor<2x1x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// Other groups: one convolution per group on channel slices, inserted into
// the accumulator.

// CHECK-LABEL: func.func @conv_groups
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x4xf32>, %[[W:.*]]: tensor<6x2x3x3xf32>, %[[B:.*]]: tensor<6xf32>)
// CHECK: %[[XT:.*]] = linalg.transpose ins(%[[X]]
// CHECK: %[[INIT:.*]] = linalg.broadcast ins(%[[B]] : tensor<6xf32>)
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<6x2x3x3xf32>) outs(%{{.*}} : tensor<3x3x2x6xf32>) permutation = [2, 3, 1, 0]
// CHECK: %[[X0:.*]] = tensor.extract_slice %[[XT]][0, 0, 0, 0] [1, 4, 4, 2] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x4x4x2xf32>
// CHECK: %[[W0:.*]] = tensor.extract_slice %[[WT]][0, 0, 0, 0] [3, 3, 2, 3] [1, 1, 1, 1] : tensor<3x3x2x6xf32> to tensor<3x3x2x3xf32>
// CHECK: %[[I0:.*]] = tensor.extract_slice %[[INIT]][0, 0, 0, 0] [1, 2, 2, 3] [1, 1, 1, 1] : tensor<1x2x2x6xf32> to tensor<1x2x2x3xf32>
// CHECK: %[[C0:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[X0]], %[[W0]] : tensor<1x4x4x2xf32>, tensor<3x3x2x3xf32>) outs(%[[I0]] : tensor<1x2x2x3xf32>)
// CHECK: %[[R0:.*]] = tensor.insert_slice %[[C0]] into %[[INIT]][0, 0, 0, 0] [1, 2, 2, 3] [1, 1, 1, 1] : tensor<1x2x2x3xf32> into tensor<1x2x2x6xf32>
// CHECK: %[[X1:.*]] = tensor.extract_slice %[[XT]][0, 0, 0, 2] [1, 4, 4, 2] [1, 1, 1, 1]
// CHECK: %[[W1:.*]] = tensor.extract_slice %[[WT]][0, 0, 0, 3] [3, 3, 2, 3] [1, 1, 1, 1]
// CHECK: %[[I1:.*]] = tensor.extract_slice %[[INIT]][0, 0, 0, 3] [1, 2, 2, 3] [1, 1, 1, 1]
// CHECK: %[[C1:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[X1]], %[[W1]] : {{.*}}) outs(%[[I1]] :
// CHECK: %[[R1:.*]] = tensor.insert_slice %[[C1]] into %[[R0]][0, 0, 0, 3] [1, 2, 2, 3] [1, 1, 1, 1]
// CHECK: linalg.transpose ins(%[[R1]] : tensor<1x2x2x6xf32>) outs(%{{.*}} : tensor<1x6x2x2xf32>) permutation = [0, 3, 1, 2]
// CHECK-NOT: graph.conv2d
func.func @conv_groups(%x: tensor<1x4x4x4xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x2x2xf32> {
  %0 = graph.conv2d %x, %w, %b {groups = 2 : i64} : (tensor<1x4x4x4xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x2x2xf32>
  return %0 : tensor<1x6x2x2xf32>
}
