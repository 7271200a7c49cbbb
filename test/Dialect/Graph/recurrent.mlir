// RUN: graph-opt %s -split-input-file | graph-opt -split-input-file | FileCheck %s
// RUN: graph-opt %s -split-input-file --graph-fold-constants | FileCheck %s --check-prefix=FOLD

// graph.rnn, graph.gru and graph.lstm: the optional operands by keyword, the
// direction as an enum attribute, round trip through the printer.

// CHECK-LABEL: func.func @lstm_all_operands
// CHECK: graph.lstm %arg0, %arg1, %arg2 bias %arg3 sequence_lens %arg4 initial_h %arg5 initial_c %arg6 peepholes %arg7 {activation_alpha = array<f32: 1.000000e+00, 1.000000e+00, 1.000000e+00, 2.000000e+00, 1.000000e+00, 1.000000e+00>, activations = ["sigmoid", "tanh", "tanh", "hard_sigmoid", "tanh", "tanh"], clip = 5.000000e-01 : f32, direction = #graph<direction bidirectional>, input_forget}
func.func @lstm_all_operands(%x: tensor<5x3x4xf32>, %w: tensor<2x24x4xf32>, %r: tensor<2x24x6xf32>, %b: tensor<2x48xf32>, %lens: tensor<3xi32>, %h: tensor<2x3x6xf32>, %c: tensor<2x3x6xf32>, %p: tensor<2x18xf32>) -> (tensor<5x2x3x6xf32>, tensor<2x3x6xf32>, tensor<2x3x6xf32>) {
  %y, %yh, %yc = graph.lstm %x, %w, %r bias %b sequence_lens %lens initial_h %h initial_c %c peepholes %p {direction = #graph<direction bidirectional>, activations = ["sigmoid", "tanh", "tanh", "hard_sigmoid", "tanh", "tanh"], activation_alpha = array<f32: 1.0, 1.0, 1.0, 2.0, 1.0, 1.0>, clip = 0.5 : f32, input_forget} : (tensor<5x3x4xf32>, tensor<2x24x4xf32>, tensor<2x24x6xf32>, tensor<2x48xf32>, tensor<3xi32>, tensor<2x3x6xf32>, tensor<2x3x6xf32>, tensor<2x18xf32>) -> (tensor<5x2x3x6xf32>, tensor<2x3x6xf32>, tensor<2x3x6xf32>)
  return %y, %yh, %yc : tensor<5x2x3x6xf32>, tensor<2x3x6xf32>, tensor<2x3x6xf32>
}

// -----

// CHECK-LABEL: func.func @gru_reverse
// CHECK: graph.gru %arg0, %arg1, %arg2 initial_h %arg3 {direction = #graph<direction reverse>, linear_before_reset}
// CHECK-LABEL: func.func @rnn_forward
// CHECK: graph.rnn %arg0, %arg1, %arg2 :
func.func @gru_reverse(%x: tensor<5x3x4xf16>, %w: tensor<1x18x4xf16>, %r: tensor<1x18x6xf16>, %h: tensor<1x3x6xf16>) -> (tensor<5x1x3x6xf16>, tensor<1x3x6xf16>) {
  %y, %yh = graph.gru %x, %w, %r initial_h %h {direction = #graph<direction reverse>, linear_before_reset} : (tensor<5x3x4xf16>, tensor<1x18x4xf16>, tensor<1x18x6xf16>, tensor<1x3x6xf16>) -> (tensor<5x1x3x6xf16>, tensor<1x3x6xf16>)
  return %y, %yh : tensor<5x1x3x6xf16>, tensor<1x3x6xf16>
}
func.func @rnn_forward(%x: tensor<2x1x3xf32>, %w: tensor<1x2x3xf32>, %r: tensor<1x2x2xf32>) -> tensor<1x1x2xf32> {
  %y, %yh = graph.rnn %x, %w, %r : (tensor<2x1x3xf32>, tensor<1x2x3xf32>, tensor<1x2x2xf32>) -> (tensor<2x1x1x2xf32>, tensor<1x1x2xf32>)
  return %yh : tensor<1x1x2xf32>
}

// -----

// A layer on constants folds. h = relu(x·w + h·r), h0 = 0, w = [1, -1],
// r = [[1, 0], [0, 1]] (h carried as it is): x = [1, 2], [3, 1] gives
// h1 = relu([1, -1] + 0) = [1, 0] and h2 = relu([3, -3] + [1, 0]) = [4, 0].
// FOLD-LABEL: func.func @rnn_folds
// FOLD-NOT: graph.rnn
// FOLD: graph.constant dense<{{\[\[\[}}4.000000e+00, 0.000000e+00]]]>
func.func @rnn_folds() -> tensor<1x1x2xf32> {
  %x = graph.constant dense<[[[1.0]], [[3.0]]]> : tensor<2x1x1xf32>
  %w = graph.constant dense<[[[1.0], [-1.0]]]> : tensor<1x2x1xf32>
  %r = graph.constant dense<[[[1.0, 0.0], [0.0, 1.0]]]> : tensor<1x2x2xf32>
  %y, %yh = graph.rnn %x, %w, %r {activations = ["relu"]} : (tensor<2x1x1xf32>, tensor<1x2x1xf32>, tensor<1x2x2xf32>) -> (tensor<2x1x1x2xf32>, tensor<1x1x2xf32>)
  return %yh : tensor<1x1x2xf32>
}
