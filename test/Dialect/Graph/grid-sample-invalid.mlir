// RUN: graph-opt %s -split-input-file -verify-diagnostics

func.func @grid_not_pairs(%x: tensor<1x2x4x5xf32>, %grid: tensor<1x3x3x3xf32>) {
  // expected-error @+1 {{'graph.grid_sample' op operand 'grid' must be [1, Ho, Wo, 2], but has shape [1, 3, 3, 3]}}
  %0 = graph.grid_sample %x, %grid : (tensor<1x2x4x5xf32>, tensor<1x3x3x3xf32>) -> tensor<1x2x3x3xf32>
  return
}

// -----

func.func @volume(%x: tensor<1x2x4x5x6xf32>, %grid: tensor<1x3x3x2xf32>) {
  // expected-error @+1 {{'graph.grid_sample' op operand 'x' must be [N, C, H, W], but has shape [1, 2, 4, 5, 6]}}
  %0 = graph.grid_sample %x, %grid : (tensor<1x2x4x5x6xf32>, tensor<1x3x3x2xf32>) -> tensor<1x2x3x3xf32>
  return
}

// -----

func.func @result_shape(%x: tensor<1x2x4x5xf32>, %grid: tensor<1x3x3x2xf32>) {
  // expected-error @+1 {{'graph.grid_sample' op result type 'tensor<1x2x3x4xf32>' does not match the expected 'tensor<1x2x3x3xf32>'}}
  %0 = graph.grid_sample %x, %grid : (tensor<1x2x4x5xf32>, tensor<1x3x3x2xf32>) -> tensor<1x2x3x4xf32>
  return
}

// -----

func.func @unknown_mode(%x: tensor<1x2x4x5xf32>, %grid: tensor<1x3x3x2xf32>) {
  // expected-error @+2 {{expected ::mlir::graph::SampleMode to be one of: linear, nearest, cubic}}
  // expected-error @+1 {{failed to parse Graph_SampleModeAttr parameter 'value'}}
  %0 = graph.grid_sample %x, %grid {mode = #graph<sample_mode bilinear>} : (tensor<1x2x4x5xf32>, tensor<1x3x3x2xf32>) -> tensor<1x2x3x3xf32>
  return
}
