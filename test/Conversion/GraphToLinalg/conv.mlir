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

// Other groups: one loop over the groups whose body is one convolution on
// the group's channel slices, inserted into the accumulator.

// CHECK-LABEL: func.func @conv_groups
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x4xf32>, %[[W:.*]]: tensor<6x2x3x3xf32>, %[[B:.*]]: tensor<6xf32>)
// CHECK: %[[XT:.*]] = linalg.transpose ins(%[[X]]
// CHECK: %[[INIT:.*]] = linalg.broadcast ins(%[[B]] : tensor<6xf32>)
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<6x2x3x3xf32>) outs(%{{.*}} : tensor<3x3x2x6xf32>) permutation = [2, 3, 1, 0]
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[G:.*]] = arith.constant 2 : index
// CHECK: %[[R:.*]] = scf.for %[[I:.*]] = %[[C0]] to %[[G]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<1x2x2x6xf32>) {
// CHECK:   %[[XO:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK:   %[[XS:.*]] = tensor.extract_slice %[[XT]][0, 0, 0, %[[XO]]] [1, 4, 4, 2] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x4x4x2xf32>
// CHECK:   %[[WO:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK:   %[[WS:.*]] = tensor.extract_slice %[[WT]][0, 0, 0, %[[WO]]] [3, 3, 2, 3] [1, 1, 1, 1] : tensor<3x3x2x6xf32> to tensor<3x3x2x3xf32>
// CHECK:   %[[OO:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK:   %[[OS:.*]] = tensor.extract_slice %[[ACC]][0, 0, 0, %[[OO]]] [1, 2, 2, 3] [1, 1, 1, 1] : tensor<1x2x2x6xf32> to tensor<1x2x2x3xf32>
// CHECK:   %[[CV:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[XS]], %[[WS]] : tensor<1x4x4x2xf32>, tensor<3x3x2x3xf32>) outs(%[[OS]] : tensor<1x2x2x3xf32>)
// CHECK:   %[[INS:.*]] = tensor.insert_slice %[[CV]] into %[[ACC]][0, 0, 0, %[[OO]]] [1, 2, 2, 3] [1, 1, 1, 1] : tensor<1x2x2x3xf32> into tensor<1x2x2x6xf32>
// CHECK:   scf.yield %[[INS]]
// CHECK: linalg.transpose ins(%[[R]] : tensor<1x2x2x6xf32>) outs(%{{.*}} : tensor<1x6x2x2xf32>) permutation = [0, 3, 1, 2]
// CHECK-NOT: graph.conv2d
func.func @conv_groups(%x: tensor<1x4x4x4xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x2x2xf32> {
  %0 = graph.conv2d %x, %w, %b {groups = 2 : i64} : (tensor<1x4x4x4xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x2x2xf32>
  return %0 : tensor<1x6x2x2xf32>
}

// -----

// The IR does not grow with the group count: 64 groups (NHWC, HWCF weight)
// are one loop with one convolution.

// CHECK-LABEL: func.func @conv_groups_64
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<1x8x8x128xf32>) {
// CHECK:   linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x10x10x2xf32>, tensor<3x3x2x2xf32>) outs(%{{.*}} : tensor<1x8x8x2xf32>)
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
// CHECK: return
func.func @conv_groups_64(%x: tensor<1x10x10x128xf32>, %w: tensor<3x3x2x128xf32>) -> tensor<1x8x8x128xf32> {
  %0 = graph.conv2d %x, %w {layout = #graph<layout NHWC>, groups = 64 : i64} : (tensor<1x10x10x128xf32>, tensor<3x3x2x128xf32>) -> tensor<1x8x8x128xf32>
  return %0 : tensor<1x8x8x128xf32>
}
