// RUN: graph-opt %s --canonicalize --split-input-file | FileCheck %s

// The quantization ops fold on constants as the lowering computes: round
// half to even, saturation, NaN to the lowest value.

// CHECK-LABEL: func.func @quantize_fold
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<[1, 3, 3, -1, 127, -128, -128]> : tensor<7xi8>
// CHECK-NEXT: return %[[C]]
func.func @quantize_fold() -> tensor<7xi8> {
  %x = graph.constant dense<[0.0, 1.5, 2.5, -2.5, 1000.0, 0x7FC00000, 0xFF800000]> : tensor<7xf32>
  %s = graph.constant dense<1.0> : tensor<f32>
  %z = graph.constant dense<1> : tensor<i8>
  %q = graph.quantize %x, %s, %z : (tensor<7xf32>, tensor<f32>, tensor<i8>) -> tensor<7xi8>
  return %q : tensor<7xi8>
}

// -----

// A per-row scale and zero point (2 x 1) broadcast along the rows.
// CHECK-LABEL: func.func @quantize_per_axis_fold
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<{{\[\[}}128, 130, 0], [3, 5, 255]]> : tensor<2x3xui8>
func.func @quantize_per_axis_fold() -> tensor<2x3xui8> {
  %x = graph.constant dense<[[0.25, 0.75, -100.0], [1.0, 3.0, 1000.0]]> : tensor<2x3xf32>
  %s = graph.constant dense<[[0.5], [2.0]]> : tensor<2x1xf32>
  %z = graph.constant dense<[[128], [3]]> : tensor<2x1xui8>
  %q = graph.quantize %x, %s, %z : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x1xui8>) -> tensor<2x3xui8>
  return %q : tensor<2x3xui8>
}

// -----

// CHECK-LABEL: func.func @dequantize_fold
// CHECK-NEXT: graph.constant dense<[-6.400000e+01, 6.350000e+01, 0.000000e+00, -6.250000e+01]> : tensor<4xf32>
func.func @dequantize_fold() -> tensor<4xf32> {
  %x = graph.constant dense<[0, 255, 128, 3]> : tensor<4xui8>
  %s = graph.constant dense<0.5> : tensor<f32>
  %z = graph.constant dense<128> : tensor<ui8>
  %d = graph.dequantize %x, %s, %z : (tensor<4xui8>, tensor<f32>, tensor<ui8>) -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// A weight quantized at compile time: the float weight and the quantize
// op are gone, the activation's ops stay.
// CHECK-LABEL: func.func @constant_weight
// CHECK: %[[W:.*]] = graph.constant dense<{{\[\[}}-1, 2], [127, -128]]> : tensor<2x2xi8>
// CHECK-NOT: graph.quantize
// CHECK: graph.matmul_integer %arg0, %[[W]]
func.func @constant_weight(%a: tensor<3x2xui8>) -> tensor<3x2xi32> {
  %w = graph.constant dense<[[-0.1, 0.2], [50.0, -50.0]]> : tensor<2x2xf32>
  %s = graph.constant dense<0.1> : tensor<f32>
  %z = graph.constant dense<0> : tensor<i8>
  %az = graph.constant dense<128> : tensor<ui8>
  %q = graph.quantize %w, %s, %z : (tensor<2x2xf32>, tensor<f32>, tensor<i8>) -> tensor<2x2xi8>
  %m = graph.matmul_integer %a, %q, %az, %z : (tensor<3x2xui8>, tensor<2x2xi8>, tensor<ui8>, tensor<i8>) -> tensor<3x2xi32>
  return %m : tensor<3x2xi32>
}

// -----

// The integer contractions fold exactly, wrapping in i32.
// CHECK-LABEL: func.func @integer_folds
// CHECK-DAG: graph.constant dense<{{\[\[}}-255, 0]]> : tensor<1x2xi32>
// CHECK-DAG: graph.constant dense<4> : tensor<1x1x1x1xi32>
func.func @integer_folds() -> (tensor<1x2xi32>, tensor<1x1x1x1xi32>) {
  %a = graph.constant dense<[[0, 255]]> : tensor<1x2xui8>
  %az = graph.constant dense<128> : tensor<ui8>
  %b = graph.constant dense<[[1, 1], [-1, 1]]> : tensor<2x2xi8>
  %bz = graph.constant dense<[0, 1]> : tensor<2xi8>
  %m = graph.matmul_integer %a, %b, %az, %bz : (tensor<1x2xui8>, tensor<2x2xi8>, tensor<ui8>, tensor<2xi8>) -> tensor<1x2xi32>
  %x = graph.constant dense<[[[[1, 2], [3, 4]]]]> : tensor<1x1x2x2xui8>
  %xz = graph.constant dense<2> : tensor<ui8>
  %w = graph.constant dense<[[[[1, 1], [1, 1]]]]> : tensor<1x1x2x2xi8>
  %wz = graph.constant dense<-1> : tensor<i8>
  %c = graph.conv_integer %x, %w, %xz, %wz {dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1x2x2xui8>, tensor<1x1x2x2xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x1x1x1xi32>
  return %m, %c : tensor<1x2xi32>, tensor<1x1x1x1xi32>
}

// -----

// In NHWC: pixels (1, 2) and (3, 4) by HWCF filters (1, 3) and (2, 4) with
// zero points (0, 2) per filter, 1 x 1 x 1 x F.
// CHECK-LABEL: func.func @nhwc_fold
// CHECK: graph.constant dense<{{\[\[\[\[}}7, 4], [15, 8]]]]> : tensor<1x1x2x2xi32>
func.func @nhwc_fold() -> tensor<1x1x2x2xi32> {
  %x = graph.constant dense<[[[[1, 2], [3, 4]]]]> : tensor<1x1x2x2xui8>
  %xz = graph.constant dense<0> : tensor<ui8>
  %w = graph.constant dense<[[[[1, 2], [3, 4]]]]> : tensor<1x1x2x2xi8>
  %wz = graph.constant dense<[[[[0, 2]]]]> : tensor<1x1x1x2xi8>
  %c = graph.conv_integer %x, %w, %xz, %wz {dilations = array<i64: 1, 1>, layout = #graph<layout NHWC>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1x2x2xui8>, tensor<1x1x2x2xi8>, tensor<ui8>, tensor<1x1x1x2xi8>) -> tensor<1x1x2x2xi32>
  return %c : tensor<1x1x2x2xi32>
}

// -----

// fake_quantize folds as dequantize(quantize(x)): ties to even, saturation,
// NaN to the lowest value, dequantized.
// CHECK-LABEL: func.func @fake_quantize_fold
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<[0.000000e+00, 2.000000e+00, 2.000000e+00, -2.000000e+00, 1.260000e+02, -1.290000e+02, -1.290000e+02]> : tensor<7xf32>
// CHECK-NEXT: return %[[C]]
func.func @fake_quantize_fold() -> tensor<7xf32> {
  %x = graph.constant dense<[0.0, 1.5, 2.5, -2.5, 1000.0, 0x7FC00000, 0xFF800000]> : tensor<7xf32>
  %s = graph.constant dense<1.0> : tensor<f32>
  %z = graph.constant dense<1> : tensor<i8>
  %f = graph.fake_quantize %x, %s, %z : (tensor<7xf32>, tensor<f32>, tensor<i8>) -> tensor<7xf32>
  return %f : tensor<7xf32>
}
