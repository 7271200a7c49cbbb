// RUN: graph-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Operand and result types of compute ops
//===----------------------------------------------------------------------===//

func.func @conv2d_dynamic_weight(%x: tensor<1x3x8x8xf32>, %w: tensor<?x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'graph.conv2d' op operand 'weight' must be a statically shaped tensor of f32, but got 'tensor<?x3x3x3xf32>'}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<?x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_bias_f16(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf16>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{operand 'bias' must be a statically shaped tensor of f32, but got 'tensor<4xf16>'}}
  %0 = graph.conv2d %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf16>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @relu_f16(%x: tensor<2xf16>) -> tensor<2xf16> {
  // expected-error @+1 {{operand 'x' must be a statically shaped tensor of f32, but got 'tensor<2xf16>'}}
  %0 = graph.relu %x : tensor<2xf16>
  return %0 : tensor<2xf16>
}

// -----

func.func @add_unranked(%a: tensor<*xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{operand 'lhs' must be a statically shaped tensor of f32, but got 'tensor<*xf32>'}}
  %0 = graph.add %a, %b : (tensor<*xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @matmul_dynamic_result(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{result 'output' must be a statically shaped tensor of f32, but got 'tensor<?x4xf32>'}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @dropout_i32(%x: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{operand 'x' must be a statically shaped tensor of f32, but got 'tensor<2xi32>'}}
  %0 = graph.dropout %x : tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @concat_dynamic_input(%a: tensor<2x3xf32>, %b: tensor<2x?xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{operand 'inputs' #1 must be a statically shaped tensor of f32, but got 'tensor<2x?xf32>'}}
  %0 = graph.concat %a, %b {axis = 1} : (tensor<2x3xf32>, tensor<2x?xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

// Sizes in bytes must fit int64, or element counts and offsets computed from
// the type (by folds, the lowering, the runtime) would wrap: 2^80 elements.
func.func @relu_too_large(%x: tensor<1099511627776x1099511627776xf32>) -> tensor<1099511627776x1099511627776xf32> {
  // expected-error @+1 {{'graph.relu' op operand 'x' of type 'tensor<1099511627776x1099511627776xf32>' is too large: its size in bytes does not fit in int64}}
  %0 = graph.relu %x : tensor<1099511627776x1099511627776xf32>
  return %0 : tensor<1099511627776x1099511627776xf32>
}

// -----

// 2^61 elements, 2^63 bytes: one byte more than int64 holds.
func.func @matmul_result_too_large(%a: tensor<2147483648x1xf32>, %b: tensor<1x1073741824xf32>) -> tensor<2147483648x1073741824xf32> {
  // expected-error @+1 {{result 'output' of type 'tensor<2147483648x1073741824xf32>' is too large}}
  %0 = graph.matmul %a, %b : (tensor<2147483648x1xf32>, tensor<1x1073741824xf32>) -> tensor<2147483648x1073741824xf32>
  return %0 : tensor<2147483648x1073741824xf32>
}

// -----

// A splat holds one value whatever its type; its type must still be sized.
func.func @constant_too_large() -> tensor<4294967296x4294967296x4294967296xf32> {
  // expected-error @+1 {{'graph.constant' op result 'output' of type 'tensor<4294967296x4294967296x4294967296xf32>' is too large}}
  %0 = graph.constant dense<1.0> : tensor<4294967296x4294967296x4294967296xf32>
  return %0 : tensor<4294967296x4294967296x4294967296xf32>
}

// -----

func.func @concat_too_large(%a: tensor<4611686018427387903xf32>) -> tensor<9223372036854775806xf32> {
  // expected-error @+1 {{operand 'inputs' #0 of type 'tensor<4611686018427387903xf32>' is too large}}
  %0 = graph.concat %a, %a {axis = 0} : (tensor<4611686018427387903xf32>, tensor<4611686018427387903xf32>) -> tensor<9223372036854775806xf32>
  return %0 : tensor<9223372036854775806xf32>
}

//===----------------------------------------------------------------------===//
// graph.conv2d
//===----------------------------------------------------------------------===//

// -----

func.func @conv2d_input_rank(%x: tensor<3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{operand 'input' must have rank 4 (N x C x H x W), but got rank 3}}
  %0 = graph.conv2d %x, %w : (tensor<3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_weight_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{operand 'weight' must have rank 4 (F x C/groups x KH x KW), but got rank 3}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_bias_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{operand 'bias' must be 1-D of size 4 (the output channels), but got 'tensor<3xf32>'}}
  %0 = graph.conv2d %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_groups_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{attribute 'groups' must be >= 1, but got 0}}
  %0 = graph.conv2d %x, %w {groups = 0} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_groups_input_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{attribute 'groups' (2) must divide the input channels (3)}}
  %0 = graph.conv2d %x, %w {groups = 2} : (tensor<1x3x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_groups_output_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x6x6xf32> {
  // expected-error @+1 {{attribute 'groups' (2) must divide the output channels (3)}}
  %0 = graph.conv2d %x, %w {groups = 2} : (tensor<1x4x8x8xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x6xf32>
  return %0 : tensor<1x3x6x6xf32>
}

// -----

func.func @conv2d_weight_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{operand 'weight' dim 1 must be C/groups = 2, but got 4}}
  %0 = graph.conv2d %x, %w {groups = 2} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_empty_kernel(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x0x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{operand 'weight' must have a non-empty kernel, but got 'tensor<4x3x0x3xf32>'}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x0x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_strides_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{attribute 'strides' must have 2 elements, but got 3}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_strides_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{attribute 'strides' must have elements >= 1, but got [1, 0]}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_dilations_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{attribute 'dilations' must have 2 elements, but got 1}}
  %0 = graph.conv2d %x, %w {dilations = array<i64: 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_dilations_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{attribute 'dilations' must have elements >= 1, but got [0, 1]}}
  %0 = graph.conv2d %x, %w {dilations = array<i64: 0, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_padding_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  // expected-error @+1 {{attribute 'padding' must have 4 elements, but got 2}}
  %0 = graph.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

func.func @conv2d_padding_negative(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{attribute 'padding' must have elements >= 0, but got [0, 0, -1, 0]}}
  %0 = graph.conv2d %x, %w {padding = array<i64: 0, 0, -1, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

// The dilated kernel (2*(3-1)+1 = 5) does not fit in a width of 4: the
// numerator of OW is negative.
func.func @conv2d_empty_output(%x: tensor<1x3x8x4xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x1xf32> {
  // expected-error @+1 {{padded input width (4 + 0 + 0) is smaller than the dilated kernel of operand 'weight' (5): the output would be empty}}
  %0 = graph.conv2d %x, %w {dilations = array<i64: 2, 2>} : (tensor<1x3x8x4xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x1xf32>
  return %0 : tensor<1x4x4x1xf32>
}

// -----

// OH = (8 + 1 + 1 - 3) / 2 + 1 = 4, OW = (8 - 3) / 1 + 1 = 6.
func.func @conv2d_result(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x5x6xf32> {
  // expected-error @+1 {{result type 'tensor<1x4x5x6xf32>' does not match the expected 'tensor<1x4x4x6xf32>'}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 2, 1>, padding = array<i64: 1, 0, 1, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x5x6xf32>
  return %0 : tensor<1x4x5x6xf32>
}

//===----------------------------------------------------------------------===//
// graph.batch_norm
//===----------------------------------------------------------------------===//

// -----

func.func @batch_norm_rank(%x: tensor<3xf32>, %p: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{operand 'input' must have rank >= 2 (channels on dim 1), but got rank 1}}
  %0 = graph.batch_norm %x, %p, %p, %p, %p : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @batch_norm_scale(%x: tensor<1x3x2x2xf32>, %s: tensor<4xf32>, %p: tensor<3xf32>) -> tensor<1x3x2x2xf32> {
  // expected-error @+1 {{operand 'scale' must be 1-D of size 3 (input dim 1), but got 'tensor<4xf32>'}}
  %0 = graph.batch_norm %x, %s, %p, %p, %p : (tensor<1x3x2x2xf32>, tensor<4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x2x2xf32>
  return %0 : tensor<1x3x2x2xf32>
}

// -----

func.func @batch_norm_bias(%x: tensor<1x3x2x2xf32>, %b: tensor<1x3xf32>, %p: tensor<3xf32>) -> tensor<1x3x2x2xf32> {
  // expected-error @+1 {{operand 'bias' must be 1-D of size 3 (input dim 1), but got 'tensor<1x3xf32>'}}
  %0 = graph.batch_norm %x, %p, %b, %p, %p : (tensor<1x3x2x2xf32>, tensor<3xf32>, tensor<1x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x2x2xf32>
  return %0 : tensor<1x3x2x2xf32>
}

// -----

func.func @batch_norm_mean(%x: tensor<1x3x2x2xf32>, %m: tensor<2xf32>, %p: tensor<3xf32>) -> tensor<1x3x2x2xf32> {
  // expected-error @+1 {{operand 'mean' must be 1-D of size 3 (input dim 1), but got 'tensor<2xf32>'}}
  %0 = graph.batch_norm %x, %p, %p, %m, %p : (tensor<1x3x2x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2xf32>, tensor<3xf32>) -> tensor<1x3x2x2xf32>
  return %0 : tensor<1x3x2x2xf32>
}

// -----

func.func @batch_norm_variance(%x: tensor<1x3x2x2xf32>, %v: tensor<f32>, %p: tensor<3xf32>) -> tensor<1x3x2x2xf32> {
  // expected-error @+1 {{operand 'variance' must be 1-D of size 3 (input dim 1), but got 'tensor<f32>'}}
  %0 = graph.batch_norm %x, %p, %p, %p, %v : (tensor<1x3x2x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<f32>) -> tensor<1x3x2x2xf32>
  return %0 : tensor<1x3x2x2xf32>
}

// -----

func.func @batch_norm_result(%x: tensor<1x3x2x2xf32>, %p: tensor<3xf32>) -> tensor<1x3x4xf32> {
  // expected-error @+1 {{result type 'tensor<1x3x4xf32>' does not match the expected 'tensor<1x3x2x2xf32>'}}
  %0 = graph.batch_norm %x, %p, %p, %p, %p : (tensor<1x3x2x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4xf32>
  return %0 : tensor<1x3x4xf32>
}

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

// -----

// Checked by ODS (AllTypesMatch), as for relu, sigmoid, tanh, softmax and
// dropout.
func.func @clip_result(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{failed to verify that all of {x, output} have same type}}
  %0 = "graph.clip"(%x) <{min = 0.0 : f32, max = 6.0 : f32}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @softmax_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{attribute 'axis' must be in [-2, 1], but got 2}}
  %0 = graph.softmax %x {axis = 2} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @softmax_negative_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{attribute 'axis' must be in [-2, 1], but got -3}}
  %0 = graph.softmax %x {axis = -3} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @layer_norm_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{attribute 'axis' must be in [-2, 1], but got 2}}
  %0 = graph.layer_norm %x {axis = 2} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @layer_norm_scale(%x: tensor<2x3xf32>, %s: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{operand 'scale' must have the shape of a row, [3], but got [2, 3]}}
  %0 = graph.layer_norm %x scale %s : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @layer_norm_bias_type(%x: tensor<2x3xf32>, %b: tensor<3xf16>) -> tensor<2x3xf32> {
  // expected-error @+1 {{operand 'bias' must be a statically shaped tensor of f32, but got 'tensor<3xf16>'}}
  %0 = graph.layer_norm %x bias %b : (tensor<2x3xf32>, tensor<3xf16>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @layer_norm_result(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{result type 'tensor<3x2xf32>' does not match the expected 'tensor<2x3xf32>'}}
  %0 = graph.layer_norm %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @rms_norm_scalar(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{operand 'x' must have rank >= 1}}
  %0 = graph.rms_norm %x : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @attention_depth(%q: tensor<2x5x4xf32>, %k: tensor<2x3x6xf32>, %v: tensor<2x6x3xf32>) -> tensor<2x5x3xf32> {
  // expected-error @+1 {{operand 'q' has D = 4, but operand 'k_t' has D = 3}}
  %0 = graph.attention %q, %k, %v : (tensor<2x5x4xf32>, tensor<2x3x6xf32>, tensor<2x6x3xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}

// -----

func.func @attention_keys(%q: tensor<2x5x4xf32>, %k: tensor<2x4x6xf32>, %v: tensor<2x7x3xf32>) -> tensor<2x5x3xf32> {
  // expected-error @+1 {{operand 'k_t' has T = 6, but operand 'v' has T = 7}}
  %0 = graph.attention %q, %k, %v : (tensor<2x5x4xf32>, tensor<2x4x6xf32>, tensor<2x7x3xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}

// -----

func.func @attention_batch(%q: tensor<2x5x4xf32>, %k: tensor<1x4x6xf32>, %v: tensor<2x6x3xf32>) -> tensor<2x5x3xf32> {
  // expected-error @+1 {{batch dimensions [2], [1] and [2] differ}}
  %0 = graph.attention %q, %k, %v : (tensor<2x5x4xf32>, tensor<1x4x6xf32>, tensor<2x6x3xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}

// -----

func.func @attention_mask(%q: tensor<2x5x4xf32>, %k: tensor<2x4x6xf32>, %v: tensor<2x6x3xf32>, %m: tensor<2x5x1xf32>) -> tensor<2x5x3xf32> {
  // expected-error @+1 {{operand 'mask' of shape [2, 5, 1] must have the scores' rank and dimensions (batch all 1 or [2], then 5 or 1, then 6)}}
  %0 = graph.attention %q, %k, %v mask %m : (tensor<2x5x4xf32>, tensor<2x4x6xf32>, tensor<2x6x3xf32>, tensor<2x5x1xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}

// -----

func.func @attention_f16(%q: tensor<5x4xf16>, %k: tensor<4x6xf16>, %v: tensor<6x3xf16>) -> tensor<5x3xf16> {
  // expected-error @+1 {{operand 'q' must have element type f32, but got 'tensor<5x4xf16>'}}
  %0 = graph.attention %q, %k, %v : (tensor<5x4xf16>, tensor<4x6xf16>, tensor<6x3xf16>) -> tensor<5x3xf16>
  return %0 : tensor<5x3xf16>
}

// -----

func.func @attention_result(%q: tensor<5x4xf32>, %k: tensor<4x6xf32>, %v: tensor<6x3xf32>) -> tensor<5x6xf32> {
  // expected-error @+1 {{result type 'tensor<5x6xf32>' does not match the expected 'tensor<5x3xf32>'}}
  %0 = graph.attention %q, %k, %v : (tensor<5x4xf32>, tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<5x6xf32>
  return %0 : tensor<5x6xf32>
}

// -----

func.func @rms_norm_f64(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{operand 'x' must be a statically shaped tensor of f32, but got 'tensor<4xf64>'}}
  %0 = graph.rms_norm %x : (tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @dropout_ratio_one(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{attribute 'ratio' must be in [0, 1), but got 1.000000e+00}}
  %0 = graph.dropout %x {ratio = 1.0 : f32, training} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @dropout_ratio_negative(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{attribute 'ratio' must be in [0, 1), but got -5.000000e-01}}
  %0 = graph.dropout %x {ratio = -0.5 : f32} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

// -----

func.func @add_no_broadcast(%a: tensor<2x3xf32>, %b: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{operands 'lhs' of shape [2, 3] and 'rhs' of shape [2] do not broadcast}}
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @div_no_broadcast(%a: tensor<4x1x3xf32>, %b: tensor<2x2x1xf32>) -> tensor<4x2x3xf32> {
  // expected-error @+1 {{operands 'lhs' of shape [4, 1, 3] and 'rhs' of shape [2, 2, 1] do not broadcast}}
  %0 = graph.div %a, %b : (tensor<4x1x3xf32>, tensor<2x2x1xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

func.func @mul_result(%a: tensor<2x1xf32>, %b: tensor<3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{result type 'tensor<2x1xf32>' does not match the expected 'tensor<2x3xf32>'}}
  %0 = graph.mul %a, %b : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

//===----------------------------------------------------------------------===//
// graph.matmul and graph.gemm
//===----------------------------------------------------------------------===//

// -----

func.func @matmul_rank(%a: tensor<2x2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{operand 'a' must have rank 2 (M x K), but got rank 3}}
  %0 = graph.matmul %a, %b : (tensor<2x2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @matmul_k(%a: tensor<2x3xf32>, %b: tensor<4x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{operand 'a' dim 1 (K = 3) must equal operand 'b' dim 0 (4)}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @matmul_result(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{result type 'tensor<4x2xf32>' does not match the expected 'tensor<2x4xf32>'}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @gemm_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{operand 'b' must have rank 2, but got rank 1}}
  %0 = graph.gemm %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// With trans_a, a' is 3 x 2: K = 2 does not match b's 3.
func.func @gemm_k(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{operand 'a' gives K = 2 but operand 'b' gives K = 3 (after 'trans_a' and 'trans_b')}}
  %0 = graph.gemm %a, %b {trans_a} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gemm_c_broadcast(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<2xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{operand 'c' of shape [2] does not broadcast to M x N = [2, 4]}}
  %0 = graph.gemm %a, %b, %c : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<2xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @gemm_c_rank(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<1x2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{operand 'c' of shape [1, 2, 4] does not broadcast to M x N = [2, 4]}}
  %0 = graph.gemm %a, %b, %c : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<1x2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @gemm_result(%a: tensor<3x2xf32>, %b: tensor<4x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{result type 'tensor<3x3xf32>' does not match the expected 'tensor<2x4xf32>'}}
  %0 = graph.gemm %a, %b {trans_a, trans_b} : (tensor<3x2xf32>, tensor<4x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

// -----

func.func @max_pool2d_rank(%x: tensor<2x4x4xf32>) -> tensor<2x3x3xf32> {
  // expected-error @+1 {{operand 'x' must have rank 4 (N x C x H x W), but got rank 3}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<2x4x4xf32>) -> tensor<2x3x3xf32>
  return %0 : tensor<2x3x3xf32>
}

// -----

func.func @max_pool2d_kernel_size(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
  // expected-error @+1 {{attribute 'kernel' must have 2 elements, but got 1}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

func.func @max_pool2d_kernel_zero(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
  // expected-error @+1 {{attribute 'kernel' must have elements >= 1, but got [2, 0]}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 2, 0>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

func.func @max_pool2d_strides(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
  // expected-error @+1 {{attribute 'strides' must have elements >= 1, but got [0, 0]}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 0, 0>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

func.func @max_pool2d_padding_negative(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
  // expected-error @+1 {{attribute 'padding' must have elements >= 0, but got [0, -1, 0, 0]}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 2, 2>, padding = array<i64: 0, -1, 0, 0>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

// The right pad (2) is as wide as the kernel (2): a window could be all
// padding.
func.func @max_pool2d_padding_kernel(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x5xf32> {
  // expected-error @+1 {{attribute 'padding' must be smaller than the kernel on its axis, but got 2 for a kernel of 2}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x3x5xf32>
  return %0 : tensor<1x2x3x5xf32>
}

// -----

func.func @max_pool2d_empty_output(%x: tensor<1x2x2x4xf32>) -> tensor<1x2x1x1xf32> {
  // expected-error @+1 {{padded input height (2 + 0 + 0) is smaller than the attribute 'kernel' (3): the output would be empty}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 3, 3>} : (tensor<1x2x2x4xf32>) -> tensor<1x2x1x1xf32>
  return %0 : tensor<1x2x1x1xf32>
}

// -----

// OH = (5 + 1 + 0 - 3) / 2 + 1 = 2, OW = (5 - 3) / 2 + 1 = 2.
func.func @max_pool2d_result(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x2xf32> {
  // expected-error @+1 {{result type 'tensor<1x2x3x2xf32>' does not match the expected 'tensor<1x2x2x2xf32>'}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 0>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x2xf32>
  return %0 : tensor<1x2x3x2xf32>
}

// -----

func.func @avg_pool2d_padding_kernel(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x5x3xf32> {
  // expected-error @+1 {{attribute 'padding' must be smaller than the kernel on its axis, but got 3 for a kernel of 3}}
  %0 = graph.avg_pool2d %x {kernel = array<i64: 3, 2>, padding = array<i64: 3, 0, 0, 0>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x5x3xf32>
  return %0 : tensor<1x2x5x3xf32>
}

// -----

func.func @avg_pool2d_result(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
  // expected-error @+1 {{result type 'tensor<1x2x3x3xf32>' does not match the expected 'tensor<1x2x2x2xf32>'}}
  %0 = graph.avg_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, count_include_pad} : (tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

func.func @global_avg_pool_rank(%x: tensor<2x3xf32>) -> tensor<2x3x1x1xf32> {
  // expected-error @+1 {{operand 'x' must have rank 4 (N x C x H x W), but got rank 2}}
  %0 = graph.global_avg_pool %x : (tensor<2x3xf32>) -> tensor<2x3x1x1xf32>
  return %0 : tensor<2x3x1x1xf32>
}

// -----

func.func @global_avg_pool_result(%x: tensor<2x3x4x4xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{result type 'tensor<2x3xf32>' does not match the expected 'tensor<2x3x1x1xf32>'}}
  %0 = graph.global_avg_pool %x : (tensor<2x3x4x4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

// -----

func.func @reshape_minus_one(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{attribute 'shape' must be static, but entry 0 is -1 (-1 is not inferred)}}
  %0 = graph.reshape %x {shape = array<i64: -1>} : (tensor<2x3xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @reshape_count(%x: tensor<2x3xf32>) -> tensor<7xf32> {
  // expected-error @+1 {{attribute 'shape' [7] must hold as many elements as operand 'x' (6)}}
  %0 = graph.reshape %x {shape = array<i64: 7>} : (tensor<2x3xf32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

func.func @reshape_result(%x: tensor<2x3xf32>) -> tensor<6x1xf32> {
  // expected-error @+1 {{result type 'tensor<6x1xf32>' does not match the expected 'tensor<1x6xf32>'}}
  %0 = graph.reshape %x {shape = array<i64: 1, 6>} : (tensor<2x3xf32>) -> tensor<6x1xf32>
  return %0 : tensor<6x1xf32>
}

// -----

func.func @flatten_axis(%x: tensor<2x3x4xf32>) -> tensor<24x1xf32> {
  // expected-error @+1 {{attribute 'axis' must be in [-3, 3], but got 4}}
  %0 = graph.flatten %x {axis = 4} : (tensor<2x3x4xf32>) -> tensor<24x1xf32>
  return %0 : tensor<24x1xf32>
}

// -----

// axis -2 is axis 1: [2, 3 * 4].
func.func @flatten_result(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  // expected-error @+1 {{result type 'tensor<6x4xf32>' does not match the expected 'tensor<2x12xf32>'}}
  %0 = graph.flatten %x {axis = -2} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

func.func @transpose_perm_size(%x: tensor<2x3x4xf32>) -> tensor<3x2x4xf32> {
  // expected-error @+1 {{attribute 'perm' must have 3 elements (the rank of operand 'x'), but got 2}}
  %0 = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  return %0 : tensor<3x2x4xf32>
}

// -----

func.func @transpose_not_permutation(%x: tensor<2x3x4xf32>) -> tensor<3x3x4xf32> {
  // expected-error @+1 {{attribute 'perm' must be a permutation of 0..2, but got [1, 1, 2]}}
  %0 = graph.transpose %x {perm = array<i64: 1, 1, 2>} : (tensor<2x3x4xf32>) -> tensor<3x3x4xf32>
  return %0 : tensor<3x3x4xf32>
}

// -----

func.func @transpose_result(%x: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
  // expected-error @+1 {{result type 'tensor<4x3x2xf32>' does not match the expected 'tensor<3x4x2xf32>'}}
  %0 = graph.transpose %x {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  return %0 : tensor<4x3x2xf32>
}

// -----

func.func @concat_no_inputs() -> tensor<2xf32> {
  // expected-error @+1 {{operand 'inputs' must hold at least one tensor}}
  %0 = "graph.concat"() <{axis = 0 : i64}> : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{operand 'inputs' #1 has rank 1, but operand 'inputs' #0 has rank 2}}
  %0 = graph.concat %a, %b {axis = 1} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @concat_axis(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{attribute 'axis' must be in [-2, 1], but got 2}}
  %0 = graph.concat %a, %b {axis = 2} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @concat_dims(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %c: tensor<3x3xf32>) -> tensor<2x9xf32> {
  // expected-error @+1 {{operand 'inputs' #2 has dim 0 = 3, but operand 'inputs' #0 has 2}}
  %0 = graph.concat %a, %b, %c {axis = -1} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x9xf32>
  return %0 : tensor<2x9xf32>
}

// -----

func.func @concat_result(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x9xf32> {
  // expected-error @+1 {{result type 'tensor<2x9xf32>' does not match the expected 'tensor<2x8xf32>'}}
  %0 = graph.concat %a, %b {axis = 1} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x9xf32>
  return %0 : tensor<2x9xf32>
}

//===----------------------------------------------------------------------===//
// graph.random_uniform
//===----------------------------------------------------------------------===//

// -----

func.func @random_uniform_shape_negative() -> tensor<2xf32> {
  // expected-error @+1 {{attribute 'shape' must have elements >= 0, but got [-2]}}
  %0 = graph.random_uniform {shape = array<i64: -2>} : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @random_uniform_f64() -> tensor<2xf64> {
  // expected-error @+1 {{result 'output' must be a statically shaped tensor of f32, but got 'tensor<2xf64>'}}
  %0 = graph.random_uniform {shape = array<i64: 2>} : tensor<2xf64>
  return %0 : tensor<2xf64>
}

// -----

func.func @random_uniform_result() -> tensor<3xf32> {
  // expected-error @+1 {{result type 'tensor<3xf32>' does not match the expected 'tensor<2xf32>'}}
  %0 = graph.random_uniform {shape = array<i64: 2>} : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @random_uniform_bounds() -> tensor<2xf32> {
  // expected-error @+1 {{attribute 'low' (2.000000e+00) must not exceed attribute 'high' (1.000000e+00)}}
  %0 = graph.random_uniform {shape = array<i64: 2>, low = 2.0 : f32} : tensor<2xf32>
  return %0 : tensor<2xf32>
}

//===----------------------------------------------------------------------===//
// graph.constant
//===----------------------------------------------------------------------===//

// -----

func.func @constant_type() -> tensor<3xf32> {
  // expected-error @+1 {{failed to verify that all of {value, output} have same type}}
  %0 = "graph.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @constant_dynamic() -> tensor<?xf32> {
  // expected-error @+1 {{result #0 must be statically shaped tensor of any type values, but got 'tensor<?xf32>'}}
  %0 = "graph.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Two f32 elements need 8 bytes; the blob holds 4.
func.func @constant_resource_size() -> tensor<2xf32> {
  // expected-error @+1 {{attribute 'value' holds 4 bytes, but its type 'tensor<2xf32>' needs 8}}
  %0 = graph.constant dense_resource<short_blob> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      short_blob: "0x040000000000803F"
    }
  }
#-}

//===----------------------------------------------------------------------===//
// graph.fused and graph.yield
//===----------------------------------------------------------------------===//

// -----

func.func @fused_empty_kind(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{attribute 'kind' must be non-empty}}
  %0 = graph.fused ""(%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    graph.yield %a : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @fused_no_block(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{region #0 ('body') failed to verify constraint: region with 1 blocks}}
  %0 = "graph.fused"(%x) <{kind = "relu"}> ({
  }) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @fused_argument_count(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{body has 0 arguments, but operand 'inputs' has 1 values}}
  %0 = graph.fused "relu"(%x) : (tensor<2xf32>) -> tensor<2xf32> {
    %c = graph.constant dense<1.0> : tensor<2xf32>
    graph.yield %c : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @fused_argument_type(%x: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{body argument #0 has type 'tensor<3xf32>', but operand 'inputs' #0 has type 'tensor<2xf32>'}}
  %0 = graph.fused "relu"(%x) : (tensor<2xf32>) -> tensor<3xf32> {
  ^bb0(%a: tensor<3xf32>):
    graph.yield %a : tensor<3xf32>
  }
  return %0 : tensor<3xf32>
}

// -----

func.func @fused_no_yield(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{body must end in 'graph.yield'}}
  %0 = graph.fused "relu"(%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    %1 = graph.relu %a : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @fused_yield_types(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.yield' operand types ('tensor<2xf32>', 'tensor<2xf32>') must match result 'results' types ('tensor<2xf32>')}}
  %0 = graph.fused "relu"(%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    graph.yield %a, %a : tensor<2xf32>, tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @yield_outside_fused(%x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.yield' op expects parent op to be one of 'graph.fused, graph.if, graph.loop'}}
  graph.yield %x : tensor<2xf32>
}
