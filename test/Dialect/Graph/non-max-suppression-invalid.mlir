// RUN: graph-opt %s -split-input-file -verify-diagnostics

func.func @boxes_not_four(%boxes: tensor<1x5x3xf32>, %scores: tensor<1x2x5xf32>) {
  // expected-error @+1 {{'graph.non_max_suppression' op operand 'boxes' must be [B, N, 4], but has shape [1, 5, 3]}}
  %s, %c = graph.non_max_suppression %boxes, %scores {max_output_boxes_per_class = 1} : (tensor<1x5x3xf32>, tensor<1x2x5xf32>) -> (tensor<2x3xi64>, tensor<i64>)
  return
}

// -----

func.func @scores_other_boxes(%boxes: tensor<1x5x4xf32>, %scores: tensor<1x2x6xf32>) {
  // expected-error @+1 {{'graph.non_max_suppression' op operand 'scores' must be [1, C, 5], but has shape [1, 2, 6]}}
  %s, %c = graph.non_max_suppression %boxes, %scores {max_output_boxes_per_class = 1} : (tensor<1x5x4xf32>, tensor<1x2x6xf32>) -> (tensor<2x3xi64>, tensor<i64>)
  return
}

// -----

func.func @limit_above_boxes(%boxes: tensor<1x5x4xf32>, %scores: tensor<1x2x5xf32>) {
  // expected-error @+1 {{'graph.non_max_suppression' op attribute 'max_output_boxes_per_class' (6) must be in [0, 5], the number of boxes}}
  %s, %c = graph.non_max_suppression %boxes, %scores {max_output_boxes_per_class = 6} : (tensor<1x5x4xf32>, tensor<1x2x5xf32>) -> (tensor<12x3xi64>, tensor<i64>)
  return
}

// -----

func.func @not_the_bound(%boxes: tensor<1x5x4xf32>, %scores: tensor<1x2x5xf32>) {
  // expected-error @+1 {{'graph.non_max_suppression' op result 'selected' must be a tensor<4x3xi64>, but got 'tensor<3x3xi64>'}}
  %s, %c = graph.non_max_suppression %boxes, %scores {max_output_boxes_per_class = 2} : (tensor<1x5x4xf32>, tensor<1x2x5xf32>) -> (tensor<3x3xi64>, tensor<i64>)
  return
}

// -----

func.func @f16_boxes(%boxes: tensor<1x5x4xf16>, %scores: tensor<1x2x5xf32>) {
  // expected-error @+1 {{'graph.non_max_suppression' op operand 'boxes'}}
  %s, %c = graph.non_max_suppression %boxes, %scores {max_output_boxes_per_class = 2} : (tensor<1x5x4xf16>, tensor<1x2x5xf32>) -> (tensor<4x3xi64>, tensor<i64>)
  return
}
