// RUN: graph-opt %s -split-input-file | graph-opt -split-input-file | FileCheck %s
// RUN: graph-opt %s -split-input-file --canonicalize | FileCheck %s --check-prefix=FOLD
// RUN: graph-opt %s -split-input-file --convert-graph-to-linalg | FileCheck %s --check-prefix=LOWER

// graph.non_max_suppression: rows [batch, class, box] of the bound's shape
// (batches x classes x limit) and the run-time count beside them.

// CHECK-LABEL: func.func @defaults
// CHECK: graph.non_max_suppression %arg0, %arg1 {max_output_boxes_per_class = 2 : i64} : (tensor<1x5x4xf32>, tensor<1x3x5xf32>) -> (tensor<6x3xi64>, tensor<i64>)
// CHECK-LABEL: func.func @all_attributes
// CHECK: {center_point_box, iou_threshold = 5.000000e-01 : f32, max_output_boxes_per_class = 1 : i64, score_threshold = 2.500000e-01 : f32}
// Loops over batches and classes; per class, a step per candidate whose
// scan finds the next in rank order, then a loop over the boxes selected.
// LOWER-LABEL: func.func @defaults
// LOWER: linalg.fill
// LOWER: scf.for
// LOWER: scf.for
// LOWER: scf.for
// LOWER: scf.for
// LOWER: arith.cmpf ord
// LOWER: scf.if
// LOWER: scf.for
// LOWER: tensor.from_elements
func.func @defaults(%boxes: tensor<1x5x4xf32>, %scores: tensor<1x3x5xf32>) -> (tensor<6x3xi64>, tensor<i64>) {
  %selected, %count = graph.non_max_suppression %boxes, %scores {max_output_boxes_per_class = 2} : (tensor<1x5x4xf32>, tensor<1x3x5xf32>) -> (tensor<6x3xi64>, tensor<i64>)
  return %selected, %count : tensor<6x3xi64>, tensor<i64>
}

func.func @all_attributes(%boxes: tensor<2x5x4xf32>, %scores: tensor<2x1x5xf32>) -> (tensor<2x3xi64>, tensor<i64>) {
  %selected, %count = graph.non_max_suppression %boxes, %scores {center_point_box, iou_threshold = 0.5 : f32, max_output_boxes_per_class = 1, score_threshold = 0.25 : f32} : (tensor<2x5x4xf32>, tensor<2x1x5xf32>) -> (tensor<2x3xi64>, tensor<i64>)
  return %selected, %count : tensor<2x3xi64>, tensor<i64>
}

// -----

// A limit of 0 selects nothing: no loop.
// LOWER-LABEL: func.func @no_limit
// LOWER-NOT: scf.for
// LOWER: return
func.func @no_limit(%boxes: tensor<1x5x4xf32>, %scores: tensor<1x3x5xf32>) -> (tensor<0x3xi64>, tensor<i64>) {
  %selected, %count = graph.non_max_suppression %boxes, %scores {max_output_boxes_per_class = 0} : (tensor<1x5x4xf32>, tensor<1x3x5xf32>) -> (tensor<0x3xi64>, tensor<i64>)
  return %selected, %count : tensor<0x3xi64>, tensor<i64>
}

// -----

// Constants fold, in ONNX Runtime's order: box 1 (score 0.9) first, box 0
// (0.8) overlaps it by 81 / 100 > 0.5 and is suppressed, box 2 (0.7) does
// not overlap; equal scores by index; the NaN score never selected.
// FOLD-LABEL: func.func @constant
// FOLD-DAG: graph.constant dense<{{\[\[}}0, 0, 1], [0, 0, 2], [0, 1, 0], [0, 1, 2], [0, 0, 0], [0, 0, 0]]> : tensor<6x3xi64>
// FOLD-DAG: graph.constant dense<4> : tensor<i64>
// FOLD-NOT: graph.non_max_suppression
func.func @constant() -> (tensor<6x3xi64>, tensor<i64>) {
  %boxes = graph.constant dense<[[[0.0, 0.0, 10.0, 10.0], [1.0, 1.0, 10.0, 10.0], [20.0, 20.0, 21.0, 21.0]]]> : tensor<1x3x4xf32>
  %scores = graph.constant dense<[[[0.8, 0.9, 0.7], [0.5, 0x7FC00000, 0.5]]]> : tensor<1x2x3xf32>
  %selected, %count = graph.non_max_suppression %boxes, %scores {iou_threshold = 0.5 : f32, max_output_boxes_per_class = 3} : (tensor<1x3x4xf32>, tensor<1x2x3xf32>) -> (tensor<6x3xi64>, tensor<i64>)
  return %selected, %count : tensor<6x3xi64>, tensor<i64>
}
