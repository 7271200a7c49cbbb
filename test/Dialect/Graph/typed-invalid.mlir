// RUN: graph-opt %s -split-input-file -verify-diagnostics
// The verifiers of the ops beyond the f32 core: each names the operand,
// result or attribute at fault.

func.func @add_bool(%a: tensor<2xi1>) -> tensor<2xi1> {
  // expected-error @+1 {{'graph.add' op operand 'lhs' must be a statically shaped tensor of numbers (integers or floats, not i1), but got 'tensor<2xi1>'}}
  %0 = graph.add %a, %a : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @add_mixed(%a: tensor<2xi64>, %b: tensor<2xi32>) -> tensor<2xi64> {
  // expected-error @+1 {{operand 'rhs' has element type 'i32', but result 'output' has 'i64'}}
  %0 = graph.add %a, %b : (tensor<2xi64>, tensor<2xi32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @add_dynamic_i64(%a: tensor<?xi64>) -> tensor<?xi64> {
  // expected-error @+1 {{operand 'lhs' must be a statically shaped tensor of i64, but got 'tensor<?xi64>'}}
  %0 = graph.add %a, %a : (tensor<?xi64>, tensor<?xi64>) -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

func.func @exp_int(%a: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'graph.exp' op operand 'x' must be a statically shaped tensor of floats (f16, bf16, f32 or f64), but got 'tensor<2xi32>'}}
  %0 = graph.exp %a : tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @not_float(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.not' op operand 'x' must be a statically shaped tensor of i1, but got 'tensor<2xf32>'}}
  %0 = graph.not %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @neg_unsigned(%a: tensor<2xui8>) -> tensor<2xui8> {
  // expected-error @+1 {{'graph.neg' op operand 'x' must be a statically shaped tensor of signed numbers (signless integers or floats), but got 'tensor<2xui8>'}}
  %0 = graph.neg %a : tensor<2xui8>
  return %0 : tensor<2xui8>
}

// -----

func.func @less_result(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.less' op result 'output' must be a statically shaped tensor of i1, but got 'tensor<2xf32>'}}
  %0 = graph.less %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @less_broadcast(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<3xi1> {
  // expected-error @+1 {{'graph.less' op operands 'lhs' of shape [2] and 'rhs' of shape [3] do not broadcast}}
  %0 = graph.less %a, %b : (tensor<2xf32>, tensor<3xf32>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

func.func @where_condition(%c: tensor<2xi8>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.where' op operand 'condition' must be a statically shaped tensor of i1, but got 'tensor<2xi8>'}}
  %0 = graph.where %c, %x, %x : (tensor<2xi8>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @cast_shape(%x: tensor<2xf32>) -> tensor<3xi32> {
  // expected-error @+1 {{'graph.cast' op result type 'tensor<3xi32>' does not match the expected 'tensor<2xi32>'}}
  %0 = graph.cast %x : (tensor<2xf32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @mod_float_without_fmod(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.mod' op floats need attribute 'fmod'}}
  %0 = graph.mod %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @bit_shift_signed(%x: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'graph.bit_shift' op operand 'lhs' must be a statically shaped tensor of unsigned integers (ui8..ui64), but got 'tensor<2xi32>'}}
  %0 = graph.bit_shift %x, %x : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @prelu_slope(%x: tensor<3xf32>, %s: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'graph.prelu' op operand 'rhs' (the slope) of shape [2, 3] must broadcast to operand 'lhs' of shape [3]}}
  %0 = graph.prelu %x, %s : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @slice_outside(%x: tensor<4xi64>) -> tensor<3xi64> {
  // expected-error @+1 {{'graph.slice' op dimension 0 reads 3 elements from 1 by step 2, outside operand 'x' of size 4}}
  %0 = graph.slice %x {starts = array<i64: 1>, steps = array<i64: 2>} : (tensor<4xi64>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

func.func @slice_zero_step(%x: tensor<4xi64>) -> tensor<1xi64> {
  // expected-error @+1 {{'graph.slice' op attribute 'steps' must be non-zero, but got [0]}}
  %0 = graph.slice %x {starts = array<i64: 1>, steps = array<i64: 0>} : (tensor<4xi64>) -> tensor<1xi64>
  return %0 : tensor<1xi64>
}

// -----

func.func @gather_float_indices(%x: tensor<4xi64>, %i: tensor<2xf32>) -> tensor<2xi64> {
  // expected-error @+1 {{'graph.gather' op operand 'indices' must be a statically shaped tensor of indices (i32 or i64), but got 'tensor<2xf32>'}}
  %0 = graph.gather %x, %i : (tensor<4xi64>, tensor<2xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @gather_axis(%x: tensor<4xi64>, %i: tensor<2xi64>) -> tensor<2xi64> {
  // expected-error @+1 {{'graph.gather' op attribute 'axis' must be in [-1, 0], but got 1}}
  %0 = graph.gather %x, %i {axis = 1 : i64} : (tensor<4xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @gather_elements_rank(%x: tensor<4x2xi64>, %i: tensor<2xi64>) -> tensor<2xi64> {
  // expected-error @+1 {{'graph.gather_elements' op operand 'indices' of rank 1 must have the rank of operand 'data' (2, at least 1)}}
  %0 = graph.gather_elements %x, %i : (tensor<4x2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @scatter_reduction(%x: tensor<4xi64>, %i: tensor<2xi64>) -> tensor<4xi64> {
  // expected-error @+1 {{'graph.scatter_elements' op attribute 'reduction' must be none, add, mul, max or min, but got 'sub'}}
  %0 = graph.scatter_elements %x, %i, %i {reduction = "sub"} : (tensor<4xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @broadcast_shape(%x: tensor<3xi64>) -> tensor<2x4xi64> {
  // expected-error @+1 {{'graph.broadcast' op operand 'x' of shape [3] does not broadcast to the result shape [2, 4]}}
  %0 = graph.broadcast %x : (tensor<3xi64>) -> tensor<2x4xi64>
  return %0 : tensor<2x4xi64>
}

// -----

func.func @pad_count(%x: tensor<3xi64>) -> tensor<5xi64> {
  // expected-error @+1 {{'graph.pad' op attribute 'pads' must have 2 elements (begin and end of each dimension), but got 1}}
  %0 = graph.pad %x {pads = array<i64: 2>} : (tensor<3xi64>) -> tensor<5xi64>
  return %0 : tensor<5xi64>
}

// -----

func.func @pad_reflect_one(%x: tensor<1xi64>) -> tensor<3xi64> {
  // expected-error @+1 {{'graph.pad' op mode reflect pads dimension 0 of size 1; it needs at least 2}}
  %0 = graph.pad %x {mode = "reflect", pads = array<i64: 1, 1>} : (tensor<1xi64>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

func.func @pad_value_type(%x: tensor<3xi64>, %v: tensor<f32>) -> tensor<5xi64> {
  // expected-error @+1 {{'graph.pad' op operand 'value' has element type 'f32', but operand 'x' has 'i64'}}
  %0 = graph.pad %x, %v {pads = array<i64: 1, 1>} : (tensor<3xi64>, tensor<f32>) -> tensor<5xi64>
  return %0 : tensor<5xi64>
}

// -----

func.func @resize_mode(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error @+1 {{'graph.resize' op unknown mode 'area', coordinate_transformation_mode 'half_pixel' or nearest_mode 'round_prefer_floor'}}
  %0 = graph.resize %x {mode = "area", scales = array<f64: 1.0, 1.0, 2.0, 2.0>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

func.func @resize_int(%x: tensor<1x1x2x2xi32>) -> tensor<1x1x4x4xi32> {
  // expected-error @+1 {{'graph.resize' op operand 'x' must be a statically shaped tensor of floats (f16, bf16, f32 or f64), but got 'tensor<1x1x2x2xi32>'}}
  %0 = graph.resize %x {scales = array<f64: 1.0, 1.0, 2.0, 2.0>} : (tensor<1x1x2x2xi32>) -> tensor<1x1x4x4xi32>
  return %0 : tensor<1x1x4x4xi32>
}

// -----

func.func @reduce_repeated(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.reduce_sum' op attribute 'axes' names dimension 1 twice}}
  %0 = graph.reduce_sum %x {axes = array<i64: 1, -1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_mean_int(%x: tensor<2x3xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'graph.reduce_mean' op operand 'x' must be a statically shaped tensor of floats (f16, bf16, f32 or f64), but got 'tensor<2x3xi32>'}}
  %0 = graph.reduce_mean %x {axes = array<i64: 1>} : (tensor<2x3xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @argmax_result(%x: tensor<2x3xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{'graph.argmax' op result 'output' must be a statically shaped tensor of i64, but got 'tensor<2xi32>'}}
  %0 = graph.argmax %x {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @batch_matmul_k(%a: tensor<2x3x4xf32>, %b: tensor<2x5x6xf32>) -> tensor<2x3x6xf32> {
  // expected-error @+1 {{'graph.batch_matmul' op operand 'a' has K = 4, but operand 'b' has K = 5}}
  %0 = graph.batch_matmul %a, %b : (tensor<2x3x4xf32>, tensor<2x5x6xf32>) -> tensor<2x3x6xf32>
  return %0 : tensor<2x3x6xf32>
}

// -----

func.func @einsum_equation(%a: tensor<2x3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'graph.einsum' op attribute 'equation' ('ij') must be explicit}}
  %0 = graph.einsum %a {equation = "ij"} : (tensor<2x3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @einsum_sizes(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{'graph.einsum' op letter 'j' has sizes 3 and 4}}
  %0 = graph.einsum %a, %b {equation = "ij,jk->ik"} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @conv_groups(%x: tensor<1x4x5x5x5xf32>, %w: tensor<6x4x3x3x3xf32>) -> tensor<1x6x3x3x3xf32> {
  // expected-error @+1 {{'graph.conv' op operand 'weight' dim 1 must be C/groups = 2, but got 4}}
  %0 = graph.conv %x, %w {dilations = array<i64: 1, 1, 1>, groups = 2 : i64, padding = array<i64: 0, 0, 0, 0, 0, 0>, strides = array<i64: 1, 1, 1>} : (tensor<1x4x5x5x5xf32>, tensor<6x4x3x3x3xf32>) -> tensor<1x6x3x3x3xf32>
  return %0 : tensor<1x6x3x3x3xf32>
}

// -----

func.func @max_pool_padding_only(%x: tensor<1x1x4xf32>) -> tensor<1x1x5xf32> {
  // expected-error @+1 {{'graph.max_pool' op window 0 of spatial dimension 0 holds only padding}}
  %0 = graph.max_pool %x {dilations = array<i64: 1>, kernel = array<i64: 2>, padding = array<i64: 2, 0>, strides = array<i64: 1>} : (tensor<1x1x4xf32>) -> tensor<1x1x5xf32>
  return %0 : tensor<1x1x5xf32>
}

// -----

func.func @avg_pool_int(%x: tensor<1x1x4xi32>) -> tensor<1x1x3xi32> {
  // expected-error @+1 {{'graph.avg_pool' op operand 'x' must be a statically shaped tensor of floats (f16, bf16, f32 or f64), but got 'tensor<1x1x4xi32>'}}
  %0 = graph.avg_pool %x {dilations = array<i64: 1>, kernel = array<i64: 2>, padding = array<i64: 0, 0>, strides = array<i64: 1>} : (tensor<1x1x4xi32>) -> tensor<1x1x3xi32>
  return %0 : tensor<1x1x3xi32>
}
