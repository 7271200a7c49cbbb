// The ops beyond the f32 core (GraphElementwiseOps.td, GraphShapeOps.td,
// GraphReductionOps.td, GraphNNOps.td) and the core ops on other element
// types: each parses, verifies and prints; printing, parsing and printing
// again gives the same text; the generic form parses back to the same ops.
// RUN: graph-opt %s | FileCheck %s
// RUN: graph-opt %s | graph-opt | FileCheck %s
// RUN: graph-opt %s --mlir-print-op-generic | graph-opt | FileCheck %s

// CHECK-LABEL: func.func @core_ops_widened
// CHECK: graph.add %{{.*}}, %{{.*}} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
// CHECK: graph.div %{{.*}}, %{{.*}} : (tensor<4xui8>, tensor<1xui8>) -> tensor<4xui8>
// CHECK: graph.mul %{{.*}}, %{{.*}} : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
// CHECK: graph.sub %{{.*}}, %{{.*}} : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
// CHECK: graph.reshape %{{.*}} {shape = array<i64: 2, 2>} : (tensor<4xi1>) -> tensor<2x2xi1>
// CHECK: graph.transpose %{{.*}} {perm = array<i64: 1, 0>} : (tensor<2x2xi1>) -> tensor<2x2xi1>
// CHECK: graph.flatten %{{.*}} {axis = 0 : i64} : (tensor<2x2xi1>) -> tensor<1x4xi1>
// CHECK: graph.concat %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<4xi64>, tensor<4xi64>) -> tensor<8xi64>
func.func @core_ops_widened(%a: tensor<4xi64>, %u: tensor<4xui8>, %v: tensor<1xui8>,
                            %h: tensor<4xf16>, %d: tensor<4xf64>, %b: tensor<4xi1>)
    -> (tensor<4xi64>, tensor<4xui8>, tensor<4xf16>, tensor<4xf64>, tensor<1x4xi1>, tensor<8xi64>) {
  %0 = graph.add %a, %a : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %1 = graph.div %u, %v : (tensor<4xui8>, tensor<1xui8>) -> tensor<4xui8>
  %2 = graph.mul %h, %h : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %3 = graph.sub %d, %d : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %4 = graph.reshape %b {shape = array<i64: 2, 2>} : (tensor<4xi1>) -> tensor<2x2xi1>
  %5 = graph.transpose %4 {perm = array<i64: 1, 0>} : (tensor<2x2xi1>) -> tensor<2x2xi1>
  %6 = graph.flatten %5 {axis = 0 : i64} : (tensor<2x2xi1>) -> tensor<1x4xi1>
  %7 = graph.concat %a, %0 {axis = 0 : i64} : (tensor<4xi64>, tensor<4xi64>) -> tensor<8xi64>
  return %0, %1, %2, %3, %6, %7 : tensor<4xi64>, tensor<4xui8>, tensor<4xf16>, tensor<4xf64>, tensor<1x4xi1>, tensor<8xi64>
}

// CHECK-LABEL: func.func @unary_math
// CHECK-COUNT-23: graph.{{[a-z]+}} %{{.*}} : tensor<3xf64>
// CHECK: graph.not %{{.*}} : tensor<3xi1>
// CHECK: graph.abs %{{.*}} : tensor<3xi32>
func.func @unary_math(%x: tensor<3xf64>, %b: tensor<3xi1>, %i: tensor<3xi32>) -> tensor<3xf64> {
  %0 = graph.neg %x : tensor<3xf64>
  %1 = graph.abs %0 : tensor<3xf64>
  %2 = graph.sign %1 : tensor<3xf64>
  %3 = graph.reciprocal %2 : tensor<3xf64>
  %4 = graph.exp %3 : tensor<3xf64>
  %5 = graph.log %4 : tensor<3xf64>
  %6 = graph.sqrt %5 : tensor<3xf64>
  %7 = graph.erf %6 : tensor<3xf64>
  %8 = graph.floor %7 : tensor<3xf64>
  %9 = graph.ceil %8 : tensor<3xf64>
  %10 = graph.round %9 : tensor<3xf64>
  %11 = graph.sin %10 : tensor<3xf64>
  %12 = graph.cos %11 : tensor<3xf64>
  %13 = graph.tan %12 : tensor<3xf64>
  %14 = graph.asin %13 : tensor<3xf64>
  %15 = graph.acos %14 : tensor<3xf64>
  %16 = graph.atan %15 : tensor<3xf64>
  %17 = graph.sinh %16 : tensor<3xf64>
  %18 = graph.cosh %17 : tensor<3xf64>
  %19 = graph.asinh %18 : tensor<3xf64>
  %20 = graph.acosh %19 : tensor<3xf64>
  %21 = graph.atanh %20 : tensor<3xf64>
  %22 = graph.softplus %21 : tensor<3xf64>
  %23 = graph.not %b : tensor<3xi1>
  %24 = graph.abs %i : tensor<3xi32>
  return %22 : tensor<3xf64>
}

// CHECK-LABEL: func.func @activations
// CHECK: graph.leaky_relu %{{.*}} {alpha = 1.000000e-01 : f32} : tensor<2x3xf32>
// CHECK: graph.elu %{{.*}} : tensor<2x3xf32>
// CHECK: graph.selu %{{.*}} : tensor<2x3xf32>
// CHECK: graph.hard_sigmoid %{{.*}} {alpha = 0.166666672 : f32} : tensor<2x3xf32>
// CHECK: graph.hard_swish %{{.*}} : tensor<2x3xf32>
// CHECK: graph.gelu %{{.*}} : tensor<2x3xf32>
// CHECK: graph.gelu %{{.*}} {tanh} : tensor<2x3xf32>
// CHECK: graph.prelu %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
func.func @activations(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = graph.leaky_relu %x {alpha = 0.1 : f32} : tensor<2x3xf32>
  %1 = graph.elu %0 : tensor<2x3xf32>
  %2 = graph.selu %1 : tensor<2x3xf32>
  %3 = graph.hard_sigmoid %2 {alpha = 0.166666672 : f32} : tensor<2x3xf32>
  %4 = graph.hard_swish %3 : tensor<2x3xf32>
  %5 = graph.gelu %4 : tensor<2x3xf32>
  %6 = graph.gelu %5 {tanh} : tensor<2x3xf32>
  %7 = graph.prelu %6, %s : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %7 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @binary_compare_select_cast
// CHECK: graph.pow %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: graph.mod %{{.*}}, %{{.*}} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
// CHECK: graph.mod %{{.*}}, %{{.*}} {fmod} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: graph.min %{{.*}}, %{{.*}} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
// CHECK: graph.max %{{.*}}, %{{.*}} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
// CHECK: graph.bit_shift %{{.*}}, %{{.*}} {right} : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
// CHECK: graph.equal %{{.*}}, %{{.*}} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
// CHECK: graph.less %{{.*}}, %{{.*}} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
// CHECK: graph.less_equal %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
// CHECK: graph.greater %{{.*}}, %{{.*}} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
// CHECK: graph.greater_equal %{{.*}}, %{{.*}} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
// CHECK: graph.and %{{.*}}, %{{.*}} : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
// CHECK: graph.or %{{.*}}, %{{.*}} : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
// CHECK: graph.xor %{{.*}}, %{{.*}} : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
// CHECK: graph.where %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4xi1>, tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
// CHECK: graph.cast %{{.*}} : (tensor<4xi64>) -> tensor<4xf16>
func.func @binary_compare_select_cast(%x: tensor<2x3xf32>, %y: tensor<3xf32>, %a: tensor<4xi64>,
                                      %u: tensor<4xui32>, %z: tensor<i64>) -> tensor<4xf16> {
  %0 = graph.pow %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = graph.mod %a, %a : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %2 = graph.mod %0, %y {fmod} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %3 = graph.min %a, %1 : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %4 = graph.max %a, %3 : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %5 = graph.bit_shift %u, %u {right} : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  %6 = graph.equal %a, %4 : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  %7 = graph.less %a, %4 : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  %8 = graph.less_equal %2, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %9 = graph.greater %a, %4 : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  %10 = graph.greater_equal %a, %4 : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  %11 = graph.and %6, %7 : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %12 = graph.or %11, %9 : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %13 = graph.xor %12, %10 : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %14 = graph.where %13, %a, %z : (tensor<4xi1>, tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
  %15 = graph.cast %14 : (tensor<4xi64>) -> tensor<4xf16>
  return %15 : tensor<4xf16>
}

// CHECK-LABEL: func.func @data_movement
// CHECK: graph.slice %{{.*}} {starts = array<i64: 3, 0>, steps = array<i64: -2, 1>} : (tensor<4x3xi64>) -> tensor<2x3xi64>
// CHECK: graph.gather %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<4x3xi64>, tensor<2xi32>) -> tensor<4x2xi64>
// CHECK: graph.gather_elements %{{.*}}, %{{.*}} : (tensor<4x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
// CHECK: graph.scatter_elements %{{.*}}, %{{.*}}, %{{.*}} {reduction = "add"} : (tensor<4x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<4x3xi64>
// CHECK: graph.broadcast %{{.*}} : (tensor<3xi64>) -> tensor<2x3xi64>
// CHECK: graph.pad %{{.*}} {pads = array<i64: 1, 0, 0, -1>} : (tensor<4x3xi64>) -> tensor<5x2xi64>
// CHECK: graph.pad %{{.*}}, %{{.*}} {pads = array<i64: 0, 1, 0, 1>} : (tensor<4x3xi64>, tensor<i64>) -> tensor<4x5xi64>
// CHECK: graph.pad %{{.*}} {mode = "reflect", pads = array<i64: 0, 2, 0, 2>} : (tensor<4x3xi64>) -> tensor<4x7xi64>
// CHECK: graph.resize %{{.*}} {mode = "linear", scales = array<f64: 1.000000e+00, 1.000000e+00, 2.000000e+00, 1.500000e+00>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x3xf32>
func.func @data_movement(%x: tensor<4x3xi64>, %i: tensor<2xi32>, %j: tensor<2x3xi64>, %r: tensor<3xi64>,
                         %v: tensor<i64>, %img: tensor<1x1x2x2xf32>) -> tensor<1x1x4x3xf32> {
  %0 = graph.slice %x {starts = array<i64: 3, 0>, steps = array<i64: -2, 1>} : (tensor<4x3xi64>) -> tensor<2x3xi64>
  %1 = graph.gather %x, %i {axis = 1 : i64} : (tensor<4x3xi64>, tensor<2xi32>) -> tensor<4x2xi64>
  %2 = graph.gather_elements %x, %j {axis = 0 : i64} : (tensor<4x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  %3 = graph.scatter_elements %x, %j, %2 {reduction = "add"} : (tensor<4x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<4x3xi64>
  %4 = graph.broadcast %r : (tensor<3xi64>) -> tensor<2x3xi64>
  %5 = graph.pad %x {pads = array<i64: 1, 0, 0, -1>} : (tensor<4x3xi64>) -> tensor<5x2xi64>
  %6 = graph.pad %x, %v {pads = array<i64: 0, 1, 0, 1>} : (tensor<4x3xi64>, tensor<i64>) -> tensor<4x5xi64>
  %7 = graph.pad %x {mode = "reflect", pads = array<i64: 0, 2, 0, 2>} : (tensor<4x3xi64>) -> tensor<4x7xi64>
  %8 = graph.resize %img {mode = "linear", scales = array<f64: 1.0, 1.0, 2.0, 1.5>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x3xf32>
  return %8 : tensor<1x1x4x3xf32>
}

// CHECK-LABEL: func.func @reductions
// CHECK: graph.reduce_sum %{{.*}} {axes = array<i64: 0, 2>} : (tensor<2x3x4xi32>) -> tensor<3xi32>
// CHECK: graph.reduce_mean %{{.*}} {axes = array<i64: -1>, keepdims} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
// CHECK: graph.reduce_max %{{.*}} {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// CHECK: graph.reduce_min %{{.*}} {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// CHECK: graph.reduce_prod %{{.*}} {axes = array<i64: 1>} : (tensor<2x3x4xi32>) -> tensor<2x4xi32>
// CHECK: graph.argmax %{{.*}} {axis = 1 : i64, keepdims, select_last_index} : (tensor<2x3x4xf32>) -> tensor<2x1x4xi64>
// CHECK: graph.argmin %{{.*}} {axis = 2 : i64} : (tensor<2x3x4xi32>) -> tensor<2x3xi64>
// CHECK: graph.cumsum %{{.*}} {axis = 1 : i64, exclusive, reverse} : tensor<2x3x4xi32>
// CHECK: graph.log_softmax %{{.*}} {axis = 1 : i64} : tensor<2x3x4xf32>
func.func @reductions(%x: tensor<2x3x4xf32>, %i: tensor<2x3x4xi32>) -> tensor<2x3x4xf32> {
  %0 = graph.reduce_sum %i {axes = array<i64: 0, 2>} : (tensor<2x3x4xi32>) -> tensor<3xi32>
  %1 = graph.reduce_mean %x {axes = array<i64: -1>, keepdims} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  %2 = graph.reduce_max %x {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  %3 = graph.reduce_min %x {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  %4 = graph.reduce_prod %i {axes = array<i64: 1>} : (tensor<2x3x4xi32>) -> tensor<2x4xi32>
  %5 = graph.argmax %x {axis = 1 : i64, keepdims, select_last_index} : (tensor<2x3x4xf32>) -> tensor<2x1x4xi64>
  %6 = graph.argmin %i {axis = 2 : i64} : (tensor<2x3x4xi32>) -> tensor<2x3xi64>
  %7 = graph.cumsum %i {axis = 1 : i64, exclusive, reverse} : tensor<2x3x4xi32>
  %8 = graph.log_softmax %x {axis = 1 : i64} : tensor<2x3x4xf32>
  return %8 : tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @nn
// CHECK: graph.batch_matmul %{{.*}}, %{{.*}} : (tensor<2x1x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x5x3x6xf32>
// CHECK: graph.einsum %{{.*}}, %{{.*}} {equation = "bij,bjk->bik"} : (tensor<2x3x4xf64>, tensor<2x4x5xf64>) -> tensor<2x3x5xf64>
// CHECK: graph.conv %{{.*}}, %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1, 1>, groups = 2 : i64, padding = array<i64: 1, 1, 1, 1, 1, 1>, strides = array<i64: 1, 1, 1>} : (tensor<1x4x5x5x5xf32>, tensor<6x2x3x3x3xf32>, tensor<6xf32>) -> tensor<1x6x5x5x5xf32>
// CHECK: graph.conv_transpose %{{.*}}, %{{.*}} {dilations = array<i64: 1>, padding = array<i64: 0, 0>, strides = array<i64: 2>} : (tensor<1x2x5xf32>, tensor<2x3x3xf32>) -> tensor<1x3x11xf32>
// CHECK: graph.max_pool %{{.*}} {dilations = array<i64: 2>, kernel = array<i64: 2>, padding = array<i64: 1, 0>, strides = array<i64: 1>} : (tensor<1x2x5xui8>) -> tensor<1x2x4xui8>
// CHECK: graph.avg_pool %{{.*}} {count_include_pad, dilations = array<i64: 1>, kernel = array<i64: 3>, padding = array<i64: 1, 1>, strides = array<i64: 2>} : (tensor<1x2x5xf32>) -> tensor<1x2x3xf32>
func.func @nn(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x6xf32>, %p: tensor<2x3x4xf64>, %q: tensor<2x4x5xf64>,
              %x: tensor<1x4x5x5x5xf32>, %w: tensor<6x2x3x3x3xf32>, %bias: tensor<6xf32>,
              %t: tensor<1x2x5xf32>, %tw: tensor<2x3x3xf32>, %u: tensor<1x2x5xui8>) -> tensor<1x2x3xf32> {
  %0 = graph.batch_matmul %a, %b : (tensor<2x1x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x5x3x6xf32>
  %1 = graph.einsum %p, %q {equation = "bij,bjk->bik"} : (tensor<2x3x4xf64>, tensor<2x4x5xf64>) -> tensor<2x3x5xf64>
  %2 = graph.conv %x, %w, %bias {dilations = array<i64: 1, 1, 1>, groups = 2 : i64, padding = array<i64: 1, 1, 1, 1, 1, 1>, strides = array<i64: 1, 1, 1>} : (tensor<1x4x5x5x5xf32>, tensor<6x2x3x3x3xf32>, tensor<6xf32>) -> tensor<1x6x5x5x5xf32>
  %3 = graph.conv_transpose %t, %tw {dilations = array<i64: 1>, padding = array<i64: 0, 0>, strides = array<i64: 2>} : (tensor<1x2x5xf32>, tensor<2x3x3xf32>) -> tensor<1x3x11xf32>
  %4 = graph.max_pool %u {dilations = array<i64: 2>, kernel = array<i64: 2>, padding = array<i64: 1, 0>, strides = array<i64: 1>} : (tensor<1x2x5xui8>) -> tensor<1x2x4xui8>
  %5 = graph.avg_pool %t {count_include_pad, dilations = array<i64: 1>, kernel = array<i64: 3>, padding = array<i64: 1, 1>, strides = array<i64: 2>} : (tensor<1x2x5xf32>) -> tensor<1x2x3xf32>
  return %5 : tensor<1x2x3xf32>
}
