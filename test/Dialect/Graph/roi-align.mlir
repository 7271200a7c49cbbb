// RUN: graph-opt %s -split-input-file | graph-opt -split-input-file | FileCheck %s
// RUN: graph-opt %s -split-input-file --convert-graph-to-linalg | FileCheck %s --check-prefix=LOWER

// graph.roi_align: mode avg, 1 x 1 bins, sampling_ratio 0 (adaptive),
// spatial_scale 1 and the output_half_pixel alignment by default, none of
// them printed.

// CHECK-LABEL: func.func @defaults
// CHECK: graph.roi_align %arg0, %arg1, %arg2 : (tensor<2x3x8x9xf32>, tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x3x1x1xf32>
// CHECK-LABEL: func.func @max_half_pixel
// CHECK: graph.roi_align %arg0, %arg1, %arg2 {half_pixel, mode = #graph<roi_align_mode max>, output_height = 2 : i64, output_width = 3 : i64, sampling_ratio = 2 : i64, spatial_scale = 2.500000e-01 : f32}
// One generic over the output; each bin's samples in two loops, whose
// counts come from the region (sampling_ratio 0) or are constants.
// LOWER-LABEL: func.func @defaults
// LOWER: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// LOWER: math.ceil
// LOWER: scf.for
// LOWER: scf.for
// LOWER-COUNT-4: tensor.extract %arg0
// LOWER-LABEL: func.func @max_half_pixel
// LOWER-NOT: math.ceil
// LOWER: arith.maximumf
func.func @defaults(%x: tensor<2x3x8x9xf32>, %rois: tensor<4x4xf32>, %batch: tensor<4xi64>) -> tensor<4x3x1x1xf32> {
  %0 = graph.roi_align %x, %rois, %batch : (tensor<2x3x8x9xf32>, tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x3x1x1xf32>
  return %0 : tensor<4x3x1x1xf32>
}
func.func @max_half_pixel(%x: tensor<1x2x8x8xf16>, %rois: tensor<3x4xf16>, %batch: tensor<3xi32>) -> tensor<3x2x2x3xf16> {
  %0 = graph.roi_align %x, %rois, %batch {mode = #graph<roi_align_mode max>, output_height = 2, output_width = 3, sampling_ratio = 2, spatial_scale = 0.25 : f32, half_pixel} : (tensor<1x2x8x8xf16>, tensor<3x4xf16>, tensor<3xi32>) -> tensor<3x2x2x3xf16>
  return %0 : tensor<3x2x2x3xf16>
}
