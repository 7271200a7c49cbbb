// RUN: graph-opt %s -split-input-file | graph-opt -split-input-file | FileCheck %s
// RUN: graph-opt %s -split-input-file --graph-fold-constants --canonicalize | FileCheck %s --check-prefix=FOLD
// RUN: graph-opt %s -split-input-file --convert-graph-to-linalg | FileCheck %s --check-prefix=LOWER

// graph.grid_sample: the mode and the padding are enum attributes (linear
// and zeros by default, not printed).

// CHECK-LABEL: func.func @defaults
// CHECK: graph.grid_sample %arg0, %arg1 : (tensor<1x2x4x5xf32>, tensor<1x3x3x2xf32>) -> tensor<1x2x3x3xf32>
// CHECK-LABEL: func.func @cubic_border
// CHECK: graph.grid_sample %arg0, %arg1 {align_corners, mode = #graph<sample_mode cubic>, padding = #graph<sample_padding border>}
// One generic over the output reading the image with tensor.extract.
// LOWER-LABEL: func.func @defaults
// LOWER: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// LOWER-COUNT-4: tensor.extract %arg0
func.func @defaults(%x: tensor<1x2x4x5xf32>, %grid: tensor<1x3x3x2xf32>) -> tensor<1x2x3x3xf32> {
  %0 = graph.grid_sample %x, %grid : (tensor<1x2x4x5xf32>, tensor<1x3x3x2xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}
func.func @cubic_border(%x: tensor<1x2x4x5xf16>, %grid: tensor<1x3x3x2xf16>) -> tensor<1x2x3x3xf16> {
  %0 = graph.grid_sample %x, %grid {mode = #graph<sample_mode cubic>, padding = #graph<sample_padding border>, align_corners} : (tensor<1x2x4x5xf16>, tensor<1x3x3x2xf16>) -> tensor<1x2x3x3xf16>
  return %0 : tensor<1x2x3x3xf16>
}

// -----

// Folding, on the 2 x 2 image [[1, 2], [3, 4]]: with align_corners (-1, 1
// at the corner pixels' centres) the centre (0, 0) is their mean, 2.5, and
// (1, -1) is the top right pixel, 2; (3, -1) is pixel column 2, outside:
// reflected about column 1 to column 0: the top left pixel, 1.
// FOLD-LABEL: func.func @folds
// FOLD: graph.constant dense<{{\[\[\[\[}}2.500000e+00, 2.000000e+00, 1.000000e+00]]]]>
// FOLD-NOT: graph.grid_sample
func.func @folds() -> tensor<1x1x1x3xf32> {
  %x = graph.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
  %grid = graph.constant dense<[[[[0.0, 0.0], [1.0, -1.0], [3.0, -1.0]]]]> : tensor<1x1x3x2xf32>
  %0 = graph.grid_sample %x, %grid {align_corners, padding = #graph<sample_padding reflection>} : (tensor<1x1x2x2xf32>, tensor<1x1x3x2xf32>) -> tensor<1x1x1x3xf32>
  return %0 : tensor<1x1x1x3xf32>
}
