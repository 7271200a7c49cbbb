// RUN: graph-opt %s --convert-graph-to-linalg --split-input-file | FileCheck %s

// graph.quantize: divide, round half to even, add the zero point, clamp
// with maxnumf/minnumf (so NaN gives the lowest value) and convert by the
// result's signedness.
// CHECK-LABEL: func.func @quantize
// CHECK: linalg.generic
// CHECK: ^bb0(%[[X:.*]]: f32, %[[S:.*]]: f32, %[[Z:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT: %[[Q:.*]] = arith.divf %[[X]], %[[S]] : f32
// CHECK-NEXT: %[[R:.*]] = math.roundeven %[[Q]] : f32
// CHECK-NEXT: %[[ZF:.*]] = arith.uitofp %[[Z]] : i8 to f32
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[R]], %[[ZF]] : f32
// CHECK-NEXT: %[[LO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[UP:.*]] = arith.maxnumf %[[SUM]], %[[LO]] : f32
// CHECK-NEXT: %[[HI:.*]] = arith.constant 2.550000e+02 : f32
// CHECK-NEXT: %[[C:.*]] = arith.minnumf %[[UP]], %[[HI]] : f32
// CHECK-NEXT: arith.fptoui %[[C]] : f32 to i8
func.func @quantize(%x: tensor<2x3xf32>, %s: tensor<2x1xf32>, %z: tensor<2x1xui8>) -> tensor<2x3xui8> {
  %q = graph.quantize %x, %s, %z : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x1xui8>) -> tensor<2x3xui8>
  return %q : tensor<2x3xui8>
}

// -----

// CHECK-LABEL: func.func @quantize_signed
// CHECK: arith.constant -1.280000e+02 : f32
// CHECK: arith.constant 1.270000e+02 : f32
// CHECK: arith.fptosi %{{.*}} : f32 to i8
func.func @quantize_signed(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<4xi8> {
  %q = graph.quantize %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i8>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}

// -----

// graph.dequantize: both integers to float by their signedness, subtract,
// scale.
// CHECK-LABEL: func.func @dequantize
// CHECK: ^bb0(%[[X:.*]]: i8, %[[S:.*]]: f32, %[[Z:.*]]: i8, %{{.*}}: f32):
// CHECK-NEXT: %[[XF:.*]] = arith.sitofp %[[X]] : i8 to f32
// CHECK-NEXT: %[[ZF:.*]] = arith.sitofp %[[Z]] : i8 to f32
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[XF]], %[[ZF]] : f32
// CHECK-NEXT: arith.mulf %[[D]], %[[S]] : f32
func.func @dequantize(%x: tensor<2x3xi8>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<2x3xf32> {
  %q = graph.dequantize %x, %s, %z : (tensor<2x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x3xf32>
  return %q : tensor<2x3xf32>
}

// -----

// graph.fake_quantize: quantize's body, then dequantize's on its integer,
// in one generic whose result is float.
// CHECK-LABEL: func.func @fake_quantize
// CHECK: linalg.generic
// CHECK: ^bb0(%[[X:.*]]: f32, %[[S:.*]]: f32, %[[Z:.*]]: i8, %{{.*}}: f32):
// CHECK-NEXT: %[[Q:.*]] = arith.divf %[[X]], %[[S]] : f32
// CHECK-NEXT: %[[R:.*]] = math.roundeven %[[Q]] : f32
// CHECK:      %[[UP:.*]] = arith.maxnumf
// CHECK:      %[[C:.*]] = arith.minnumf %[[UP]]
// CHECK-NEXT: %[[I:.*]] = arith.fptosi %[[C]] : f32 to i8
// CHECK-NEXT: %[[IF:.*]] = arith.sitofp %[[I]] : i8 to f32
// CHECK-NEXT: %[[ZF:.*]] = arith.sitofp %[[Z]] : i8 to f32
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[IF]], %[[ZF]] : f32
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %[[D]], %[[S]] : f32
// CHECK-NEXT: linalg.yield %[[Y]] : f32
func.func @fake_quantize(%x: tensor<2x3xf32>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<2x3xf32> {
  %f = graph.fake_quantize %x, %s, %z : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xf32>
  return %f : tensor<2x3xf32>
}

// -----

// graph.conv_integer: each operand centered on its zero point in i32 (ui8
// zero-extended, i8 sign-extended), then the convolution's contraction with
// i32 multiply-adds from zero.
// CHECK-LABEL: func.func @conv_integer
// CHECK: ^bb0(%[[X:.*]]: i8, %[[XZ:.*]]: i8, %{{.*}}: i32):
// CHECK-NEXT: %[[X32:.*]] = arith.extui %[[X]] : i8 to i32
// CHECK-NEXT: %[[XZ32:.*]] = arith.extui %[[XZ]] : i8 to i32
// CHECK-NEXT: arith.subi %[[X32]], %[[XZ32]] : i32
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: linalg.fill ins(%{{.*}} : i32)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK: arith.muli
// CHECK-NEXT: arith.addi
// CHECK-NOT: graph.
func.func @conv_integer(%x: tensor<1x2x5x5xui8>, %w: tensor<4x2x3x3xi8>, %xz: tensor<ui8>, %wz: tensor<4x1x1x1xi8>) -> tensor<1x4x3x3xi32> {
  %0 = graph.conv_integer %x, %w, %xz, %wz {dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x2x5x5xui8>, tensor<4x2x3x3xi8>, tensor<ui8>, tensor<4x1x1x1xi8>) -> tensor<1x4x3x3xi32>
  return %0 : tensor<1x4x3x3xi32>
}

// -----

// In NHWC (the reference path, where the integer kernels do not serve):
// the operands centered in their own layout, transposed to NCHW and FCHW,
// the same convolution, the result transposed back.
// CHECK-LABEL: func.func @conv_integer_nhwc
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x5x5x2xi32>) outs(%{{.*}} : tensor<1x2x5x5xi32>) permutation = [0, 3, 1, 2]
// CHECK: linalg.transpose ins(%{{.*}} : tensor<3x3x2x4xi32>) outs(%{{.*}} : tensor<4x2x3x3xi32>) permutation = [3, 2, 0, 1]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x4x3x3xi32>) outs(%{{.*}} : tensor<1x3x3x4xi32>) permutation = [0, 2, 3, 1]
// CHECK-NOT: graph.
func.func @conv_integer_nhwc(%x: tensor<1x5x5x2xui8>, %w: tensor<3x3x2x4xi8>, %xz: tensor<ui8>, %wz: tensor<1x1x1x4xi8>) -> tensor<1x3x3x4xi32> {
  %0 = graph.conv_integer %x, %w, %xz, %wz {dilations = array<i64: 1, 1>, layout = #graph<layout NHWC>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x5x5x2xui8>, tensor<3x3x2x4xi8>, tensor<ui8>, tensor<1x1x1x4xi8>) -> tensor<1x3x3x4xi32>
  return %0 : tensor<1x3x3x4xi32>
}

// -----

// graph.matmul_integer: centered operands, then linalg.matmul in i32.
// CHECK-LABEL: func.func @matmul_integer
// CHECK-COUNT-2: arith.subi
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<3x5xi32>, tensor<5x4xi32>) outs(%{{.*}} : tensor<3x4xi32>)
func.func @matmul_integer(%a: tensor<3x5xui8>, %b: tensor<5x4xi8>, %az: tensor<3x1xui8>, %bz: tensor<4xi8>) -> tensor<3x4xi32> {
  %0 = graph.matmul_integer %a, %b, %az, %bz : (tensor<3x5xui8>, tensor<5x4xi8>, tensor<3x1xui8>, tensor<4xi8>) -> tensor<3x4xi32>
  return %0 : tensor<3x4xi32>
}
