// RUN: graph-opt %s -split-input-file -verify-diagnostics
// The verifiers of the quantization ops name the operand or result at fault.

func.func @quantize_to_float(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.quantize' op result 'output' must be a tensor of i8, ui8, i16 or ui16, but got 'tensor<4xf32>'}}
  %q = graph.quantize %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return %q : tensor<4xf32>
}

// -----

func.func @quantize_integer_input(%x: tensor<4xi32>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<4xi8> {
  // expected-error @+1 {{'graph.quantize' op operand 'x' must be a statically shaped tensor of floats (f16, bf16, f32 or f64), but got 'tensor<4xi32>'}}
  %q = graph.quantize %x, %s, %z : (tensor<4xi32>, tensor<f32>, tensor<i8>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}

// -----

func.func @quantize_zero_point_type(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<ui8>) -> tensor<4xi8> {
  // expected-error @+1 {{'graph.quantize' op operand 'zero_point' has element type 'ui8', but result 'output' has 'i8'}}
  %q = graph.quantize %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<ui8>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}

// -----

func.func @quantize_scale_shape(%x: tensor<2x3xf32>, %s: tensor<2xf32>, %z: tensor<i8>) -> tensor<2x3xi8> {
  // expected-error @+1 {{'graph.quantize' op operand 'scale' [2] must broadcast to [2, 3] without changing it}}
  %q = graph.quantize %x, %s, %z : (tensor<2x3xf32>, tensor<2xf32>, tensor<i8>) -> tensor<2x3xi8>
  return %q : tensor<2x3xi8>
}

// -----

func.func @quantize_result_shape(%x: tensor<2x3xf32>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<3x2xi8> {
  // expected-error @+1 {{'graph.quantize' op result type 'tensor<3x2xi8>' does not match the expected 'tensor<2x3xi8>'}}
  %q = graph.quantize %x, %s, %z : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<3x2xi8>
  return %q : tensor<3x2xi8>
}

// -----

func.func @dequantize_float_input(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.dequantize' op operand 'x' must be a tensor of i8, ui8, i16, ui16 or i32, but got 'tensor<4xf32>'}}
  %d = graph.dequantize %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

func.func @dequantize_result_type(%x: tensor<4xi8>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<4xf16> {
  // expected-error @+1 {{'graph.dequantize' op result 'output' has element type 'f16', but operand 'scale' has 'f32'}}
  %d = graph.dequantize %x, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i8>) -> tensor<4xf16>
  return %d : tensor<4xf16>
}

// -----

func.func @conv_integer_float(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x1x1xi8>, %xz: tensor<f32>, %wz: tensor<i8>) -> tensor<1x1x3x3xi32> {
  // expected-error @+1 {{'graph.conv_integer' op operand 'input' must be a tensor of i8 or ui8, but got 'tensor<1x1x3x3xf32>'}}
  %0 = graph.conv_integer %x, %w, %xz, %wz {dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1x3x3xf32>, tensor<1x1x1x1xi8>, tensor<f32>, tensor<i8>) -> tensor<1x1x3x3xi32>
  return %0 : tensor<1x1x3x3xi32>
}

// -----

func.func @conv_integer_zero_point(%x: tensor<1x1x3x3xui8>, %w: tensor<2x1x1x1xi8>, %xz: tensor<ui8>, %wz: tensor<2xi8>) -> tensor<1x2x3x3xi32> {
  // expected-error @+1 {{'graph.conv_integer' op operand 'weight_zero_point' [2] must broadcast to [2, 1, 1, 1] without changing it}}
  %0 = graph.conv_integer %x, %w, %xz, %wz {dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1x3x3xui8>, tensor<2x1x1x1xi8>, tensor<ui8>, tensor<2xi8>) -> tensor<1x2x3x3xi32>
  return %0 : tensor<1x2x3x3xi32>
}

// -----

func.func @conv_integer_result(%x: tensor<1x1x3x3xui8>, %w: tensor<1x1x1x1xi8>, %xz: tensor<ui8>, %wz: tensor<i8>) -> tensor<1x1x3x3xf32> {
  // expected-error @+1 {{'graph.conv_integer' op result 'output' must be a tensor of i32, but got 'tensor<1x1x3x3xf32>'}}
  %0 = graph.conv_integer %x, %w, %xz, %wz {dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1x3x3xui8>, tensor<1x1x1x1xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

func.func @conv_integer_groups(%x: tensor<1x3x3x3xui8>, %w: tensor<2x3x1x1xi8>, %xz: tensor<ui8>, %wz: tensor<i8>) -> tensor<1x2x3x3xi32> {
  // expected-error @+1 {{'graph.conv_integer' op attribute 'groups' (2) must be >= 1 and divide the input channels (3) and the output channels (2)}}
  %0 = graph.conv_integer %x, %w, %xz, %wz {dilations = array<i64: 1, 1>, groups = 2 : i64, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x3x3xui8>, tensor<2x3x1x1xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x2x3x3xi32>
  return %0 : tensor<1x2x3x3xi32>
}

// -----

func.func @matmul_integer_k(%a: tensor<2x3xui8>, %b: tensor<4x2xi8>, %az: tensor<ui8>, %bz: tensor<i8>) -> tensor<2x2xi32> {
  // expected-error @+1 {{'graph.matmul_integer' op operand 'a' has K = 3, but operand 'b' has K = 4}}
  %0 = graph.matmul_integer %a, %b, %az, %bz : (tensor<2x3xui8>, tensor<4x2xi8>, tensor<ui8>, tensor<i8>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

func.func @matmul_integer_zero_point_type(%a: tensor<2x3xui8>, %b: tensor<3x2xi8>, %az: tensor<i8>, %bz: tensor<i8>) -> tensor<2x2xi32> {
  // expected-error @+1 {{'graph.matmul_integer' op operand 'a_zero_point' has element type 'i8', but operand 'a' has 'ui8'}}
  %0 = graph.matmul_integer %a, %b, %az, %bz : (tensor<2x3xui8>, tensor<3x2xi8>, tensor<i8>, tensor<i8>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

func.func @fake_quantize_float_zero_point(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.fake_quantize' op operand 'zero_point' must be a tensor of i8, ui8, i16 or ui16, but got 'tensor<f32>'}}
  %f = graph.fake_quantize %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return %f : tensor<4xf32>
}

// -----

func.func @fake_quantize_to_integer(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<4xi8> {
  // expected-error @+1 {{'graph.fake_quantize' op result 'output' has element type 'i8', but operand 'x' has 'f32'}}
  %f = graph.fake_quantize %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i8>) -> tensor<4xi8>
  return %f : tensor<4xi8>
}

// -----

func.func @fake_quantize_scale_shape(%x: tensor<2x3xf32>, %s: tensor<2xf32>, %z: tensor<i8>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'graph.fake_quantize' op operand 'scale' [2] must broadcast to [2, 3] without changing it}}
  %f = graph.fake_quantize %x, %s, %z : (tensor<2x3xf32>, tensor<2xf32>, tensor<i8>) -> tensor<2x3xf32>
  return %f : tensor<2x3xf32>
}

// -----

func.func @conv_integer_nhwc_rank(%x: tensor<1x3x3xui8>, %w: tensor<1x1x1xi8>, %xz: tensor<ui8>, %wz: tensor<i8>) -> tensor<1x3x3xi32> {
  // expected-error @+1 {{'graph.conv_integer' op with layout NHWC, operands 'input' and 'weight' must have rank 4 (N x H x W x C, KH x KW x C/groups x F), but got ranks 3 and 3}}
  %0 = graph.conv_integer %x, %w, %xz, %wz {dilations = array<i64: 1>, layout = #graph<layout NHWC>, padding = array<i64: 0, 0>, strides = array<i64: 1>} : (tensor<1x3x3xui8>, tensor<1x1x1xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x3x3xi32>
  return %0 : tensor<1x3x3xi32>
}

// -----

func.func @conv_integer_nhwc_result(%x: tensor<1x4x4x3xui8>, %w: tensor<3x3x3x5xi8>, %xz: tensor<ui8>, %wz: tensor<i8>) -> tensor<1x5x2x2xi32> {
  // expected-error @+1 {{'graph.conv_integer' op result type 'tensor<1x5x2x2xi32>' does not match the expected 'tensor<1x2x2x5xi32>'}}
  %0 = graph.conv_integer %x, %w, %xz, %wz {dilations = array<i64: 1, 1>, layout = #graph<layout NHWC>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x4x3xui8>, tensor<3x3x3x5xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x5x2x2xi32>
  return %0 : tensor<1x5x2x2xi32>
}
