// RUN: graph-opt %s -split-input-file -verify-diagnostics

// The recurrent ops' shapes follow from x [S, B, I] and r [D, G x H, H];
// their options are checked against the direction and the cell.

func.func @r_not_bidirectional(%x: tensor<5x3x4xf32>, %w: tensor<1x24x4xf32>, %r: tensor<1x24x6xf32>) {
  // expected-error @+1 {{'graph.lstm' op operand 'r' must be [2, 4 x hidden, hidden] for bidirectional, but has shape [1, 24, 6]}}
  %y, %yh, %yc = graph.lstm %x, %w, %r {direction = #graph<direction bidirectional>} : (tensor<5x3x4xf32>, tensor<1x24x4xf32>, tensor<1x24x6xf32>) -> (tensor<5x2x3x6xf32>, tensor<2x3x6xf32>, tensor<2x3x6xf32>)
  return
}

// -----

func.func @w_input_size(%x: tensor<5x3x4xf32>, %w: tensor<1x18x5xf32>, %r: tensor<1x18x6xf32>) {
  // expected-error @+1 {{'graph.gru' op operand 'w' must have shape [1, 18, 4], but has shape [1, 18, 5]}}
  %y, %yh = graph.gru %x, %w, %r : (tensor<5x3x4xf32>, tensor<1x18x5xf32>, tensor<1x18x6xf32>) -> (tensor<5x1x3x6xf32>, tensor<1x3x6xf32>)
  return
}

// -----

func.func @result_shape(%x: tensor<5x3x4xf32>, %w: tensor<1x6x4xf32>, %r: tensor<1x6x6xf32>) {
  // expected-error @+1 {{'graph.rnn' op result 0 must have shape [5, 1, 3, 6], but has shape [5, 3, 6]}}
  %y, %yh = graph.rnn %x, %w, %r : (tensor<5x3x4xf32>, tensor<1x6x4xf32>, tensor<1x6x6xf32>) -> (tensor<5x3x6xf32>, tensor<1x3x6xf32>)
  return
}

// -----

func.func @lens_type(%x: tensor<5x3x4xf32>, %w: tensor<1x6x4xf32>, %r: tensor<1x6x6xf32>, %lens: tensor<3xf32>) {
  // expected-error @+1 {{'graph.rnn' op operand 'sequence_lens' must be a statically shaped tensor of}}
  %y, %yh = graph.rnn %x, %w, %r sequence_lens %lens : (tensor<5x3x4xf32>, tensor<1x6x4xf32>, tensor<1x6x6xf32>, tensor<3xf32>) -> (tensor<5x1x3x6xf32>, tensor<1x3x6xf32>)
  return
}

// -----

func.func @activation_count(%x: tensor<5x3x4xf32>, %w: tensor<1x18x4xf32>, %r: tensor<1x18x6xf32>) {
  // expected-error @+1 {{'graph.gru' op attribute 'activations' must name 2 functions per direction (2), but names 3}}
  %y, %yh = graph.gru %x, %w, %r {activations = ["sigmoid", "tanh", "tanh"]} : (tensor<5x3x4xf32>, tensor<1x18x4xf32>, tensor<1x18x6xf32>) -> (tensor<5x1x3x6xf32>, tensor<1x3x6xf32>)
  return
}

// -----

func.func @unknown_activation(%x: tensor<5x3x4xf32>, %w: tensor<1x6x4xf32>, %r: tensor<1x6x6xf32>) {
  // expected-error @+1 {{'graph.rnn' op unknown activation 'Tanh'}}
  %y, %yh = graph.rnn %x, %w, %r {activations = ["Tanh"]} : (tensor<5x3x4xf32>, tensor<1x6x4xf32>, tensor<1x6x6xf32>) -> (tensor<5x1x3x6xf32>, tensor<1x3x6xf32>)
  return
}

// -----

func.func @alpha_count(%x: tensor<5x3x4xf32>, %w: tensor<1x6x4xf32>, %r: tensor<1x6x6xf32>) {
  // expected-error @+1 {{'graph.rnn' op attribute 'activation_alpha' must hold one value per activation (1), but holds 2}}
  %y, %yh = graph.rnn %x, %w, %r {activations = ["leaky_relu"], activation_alpha = array<f32: 0.1, 0.2>} : (tensor<5x3x4xf32>, tensor<1x6x4xf32>, tensor<1x6x6xf32>) -> (tensor<5x1x3x6xf32>, tensor<1x3x6xf32>)
  return
}

// -----

func.func @negative_clip(%x: tensor<5x3x4xf32>, %w: tensor<1x6x4xf32>, %r: tensor<1x6x6xf32>) {
  // expected-error @+1 {{'graph.rnn' op attribute 'clip' must be >= 0, but is -1}}
  %y, %yh = graph.rnn %x, %w, %r {clip = -1.0 : f32} : (tensor<5x3x4xf32>, tensor<1x6x4xf32>, tensor<1x6x6xf32>) -> (tensor<5x1x3x6xf32>, tensor<1x3x6xf32>)
  return
}

// -----

func.func @mixed_types(%x: tensor<5x3x4xf32>, %w: tensor<1x6x4xf16>, %r: tensor<1x6x6xf32>) {
  // expected-error @+1 {{'graph.rnn' op operand 'w' has element type 'f16', but operand 'x' has 'f32'}}
  %y, %yh = graph.rnn %x, %w, %r : (tensor<5x3x4xf32>, tensor<1x6x4xf16>, tensor<1x6x6xf32>) -> (tensor<5x1x3x6xf32>, tensor<1x3x6xf32>)
  return
}
