// RUN: graph-opt %s --convert-graph-to-linalg --split-input-file | FileCheck %s

// max_pool2d: -inf padding and a -inf accumulator, so padded cells never win;
// the named op combines with arith.maximumf, so NaN propagates as in the fold.
// The right padding is never read (the last window ends at column 5) and is
// dropped.

// CHECK-LABEL: func.func @max_pool
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x5x5xf32>)
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[P:.*]] = tensor.pad %[[X]] low[0, 0, 1, 0] high[0, 0, 1, 0]
// CHECK: tensor.yield %[[NINF]] : f32
// CHECK: } : tensor<1x2x5x5xf32> to tensor<1x2x7x5xf32>
// CHECK: %[[NINF2:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[NINF2]] : f32) outs(%{{.*}} : tensor<1x2x3x2xf32>)
// CHECK: %[[WIN:.*]] = tensor.empty() : tensor<3x2xf32>
// CHECK: %[[R:.*]] = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<[2, 3]> : vector<2xi64>}
// CHECK-SAME: ins(%[[P]], %[[WIN]] : tensor<1x2x7x5xf32>, tensor<3x2xf32>) outs(%[[INIT]] : tensor<1x2x3x2xf32>)
// CHECK: return %[[R]]
// CHECK-NOT: graph.max_pool2d
func.func @max_pool(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x2xf32> {
  %0 = graph.max_pool2d %x {kernel = array<i64: 3, 2>, strides = array<i64: 2, 3>, padding = array<i64: 1, 0, 1, 1>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x2xf32>
  return %0 : tensor<1x2x3x2xf32>
}

// -----

// Without padding every window is full: one scalar divisor, kh * kw.

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @avg_pool_no_padding
// CHECK-NOT: tensor.pad
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32)
// CHECK: %[[S:.*]] = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
// CHECK-SAME: outs(%[[INIT]] : tensor<1x1x2x2xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ID]]]
// CHECK-SAME: ins(%[[S]] : tensor<1x1x2x2xf32>)
// CHECK: %[[N:.*]] = arith.constant 4.000000e+00 : f32
// CHECK-NEXT: arith.divf %{{.*}}, %[[N]] : f32
func.func @avg_pool_no_padding(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  %0 = graph.avg_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

// Padded cells excluded: each window divides by its count of real cells, a
// compile-time OH x OW constant broadcast over N and C.

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[HW:.*]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
// CHECK-LABEL: func.func @avg_pool_exclude_pad
// CHECK: %[[P:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[S:.*]] = linalg.pooling_nchw_sum {{.*}} ins(%[[P]], %{{.*}} : tensor<2x3x7x7xf32>, tensor<3x3xf32>)
// CHECK: %[[COUNTS:.*]] = arith.constant dense<{{\[\[}}4.000000e+00, 6.000000e+00, 4.000000e+00], [6.000000e+00, 9.000000e+00, 6.000000e+00], [4.000000e+00, 6.000000e+00, 4.000000e+00]]> : tensor<3x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[HW]], #[[ID]]]
// CHECK-SAME: ins(%[[S]], %[[COUNTS]] : tensor<2x3x3x3xf32>, tensor<3x3xf32>)
// CHECK: ^bb0(%[[SUM:.*]]: f32, %[[COUNT:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.divf %[[SUM]], %[[COUNT]] : f32
func.func @avg_pool_exclude_pad(%x: tensor<2x3x5x5xf32>) -> tensor<2x3x3x3xf32> {
  %0 = graph.avg_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<2x3x5x5xf32>) -> tensor<2x3x3x3xf32>
  return %0 : tensor<2x3x3x3xf32>
}

// -----

// count_include_pad: every window divides by kh * kw.

// CHECK-LABEL: func.func @avg_pool_include_pad
// CHECK: tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: linalg.pooling_nchw_sum
// CHECK-NOT: arith.constant dense
// CHECK: %[[N:.*]] = arith.constant 9.000000e+00 : f32
// CHECK-NEXT: arith.divf %{{.*}}, %[[N]] : f32
func.func @avg_pool_include_pad(%x: tensor<2x3x5x5xf32>) -> tensor<2x3x3x3xf32> {
  %0 = graph.avg_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, count_include_pad} : (tensor<2x3x5x5xf32>) -> tensor<2x3x3x3xf32>
  return %0 : tensor<2x3x3x3xf32>
}

// -----

// A stride larger than the window leaves trailing cells that no window
// reads: the named op gets exactly the cells read, the end padding dropped
// first, then the input's trailing rows and columns. With one output row and
// a size-one window, upstream's decomposition needs an input of one row.

// CHECK-LABEL: func.func @max_pool_stride_over_window
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x3x3xf32>)
// CHECK: %[[S:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 2, 1, 1] [1, 1, 1, 1] : tensor<1x2x3x3xf32> to tensor<1x2x1x1xf32>
// CHECK-NOT: tensor.pad
// CHECK: linalg.pooling_nchw_max {{.*}} ins(%[[S]], %{{.*}} : tensor<1x2x1x1xf32>, tensor<1x1xf32>)
func.func @max_pool_stride_over_window(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x1x1xf32> {
  %0 = graph.max_pool2d %x {kernel = array<i64: 1, 1>, strides = array<i64: 3, 3>} : (tensor<1x2x3x3xf32>) -> tensor<1x2x1x1xf32>
  return %0 : tensor<1x2x1x1xf32>
}

// H: 7 + 1 + 1 padded, (2 - 1) * 4 + 2 = 6 read: the bottom pad and two rows
// go. W: 8 + 0 + 1 padded, (2 - 1) * 5 + 2 = 7 read: the right pad and one
// column go. The divisors still count the cells of each window.
// CHECK-LABEL: func.func @avg_pool_stride_over_window
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x7x8xf32>)
// CHECK: %[[S:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 2, 5, 7] [1, 1, 1, 1] : tensor<1x2x7x8xf32> to tensor<1x2x5x7xf32>
// CHECK: %[[P:.*]] = tensor.pad %[[S]] low[0, 0, 1, 0] high[0, 0, 0, 0]
// CHECK: } : tensor<1x2x5x7xf32> to tensor<1x2x6x7xf32>
// CHECK: linalg.pooling_nchw_sum {{.*}} ins(%[[P]], %{{.*}} : tensor<1x2x6x7xf32>, tensor<2x2xf32>)
// CHECK: arith.constant dense<{{\[\[}}2.000000e+00, 2.000000e+00], [4.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
func.func @avg_pool_stride_over_window(%x: tensor<1x2x7x8xf32>) -> tensor<1x2x2x2xf32> {
  %0 = graph.avg_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 4, 5>, padding = array<i64: 1, 0, 1, 1>} : (tensor<1x2x7x8xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// global_avg_pool: a row-major sum over H and W, then a division by H * W
// that also restores the unit dimensions.

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[NC:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-LABEL: func.func @global_avg_pool
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4x5xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK: %[[S:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[NC]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[X]] : tensor<2x3x4x5xf32>) outs(%[[INIT]] : tensor<2x3xf32>)
// CHECK: ^bb0(%[[IN:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[ADD:.*]] = arith.addf %[[ACC]], %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[ADD]] : f32
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[NC]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[S]] : tensor<2x3xf32>) outs(%{{.*}} : tensor<2x3x1x1xf32>)
// CHECK: %[[N:.*]] = arith.constant 2.000000e+01 : f32
// CHECK-NEXT: arith.divf %{{.*}}, %[[N]] : f32
// CHECK: return %[[R]]
// CHECK-NOT: graph.global_avg_pool
func.func @global_avg_pool(%x: tensor<2x3x4x5xf32>) -> tensor<2x3x1x1xf32> {
  %0 = graph.global_avg_pool %x : (tensor<2x3x4x5xf32>) -> tensor<2x3x1x1xf32>
  return %0 : tensor<2x3x1x1xf32>
}
