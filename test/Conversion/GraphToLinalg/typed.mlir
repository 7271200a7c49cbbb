// RUN: graph-opt %s --convert-graph-to-linalg --split-input-file | FileCheck %s

// Tensors take their storage types in the lowered code: a bool is a byte
// (i1 -> i8, so that memory holds 0 or 1 per element, as NumPy's bool, and
// vectors of bools are never bit-packed), an unsigned integer its signless
// type. Function signatures, constants and graph.fused change with them;
// scalar bodies truncate bytes to i1 and extend f16 to f32 to compute.

// CHECK-LABEL: func.func @bool_signature
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>, %[[P:.*]]: tensor<4xi8>) -> tensor<4xi8>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xi8>
// CHECK: linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<4xf32>, tensor<4xf32>) outs(%[[E]] : tensor<4xi8>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: i8):
// CHECK-NEXT: %[[LT:.*]] = arith.cmpf olt, %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[BYTE:.*]] = arith.extui %[[LT]] : i1 to i8
// CHECK-NEXT: linalg.yield %[[BYTE]] : i8
// CHECK: linalg.generic
// CHECK: ^bb0(%[[L:.*]]: i8, %[[R:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT: %[[L1:.*]] = arith.trunci %[[L]] : i8 to i1
// CHECK-NEXT: %[[R1:.*]] = arith.trunci %[[R]] : i8 to i1
// CHECK-NEXT: %[[AND:.*]] = arith.andi %[[L1]], %[[R1]] : i1
// CHECK-NEXT: arith.extui %[[AND]] : i1 to i8
// CHECK-NOT: graph.
func.func @bool_signature(%a: tensor<4xf32>, %b: tensor<4xf32>, %p: tensor<4xi1>) -> tensor<4xi1> {
  %0 = graph.less %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = graph.and %0, %p : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %1 : tensor<4xi1>
}

// -----

// Constants of bools become bytes; unsigned constants keep their bits.
// CHECK-LABEL: func.func @constants
// CHECK-DAG: arith.constant dense<[1, 0, 1]> : tensor<3xi8>
// CHECK-DAG: arith.constant dense<[-1, 1, -128]> : tensor<3xi8>
func.func @constants() -> (tensor<3xi1>, tensor<3xui8>) {
  %0 = graph.constant dense<[true, false, true]> : tensor<3xi1>
  %1 = graph.constant dense<[255, 1, 128]> : tensor<3xui8>
  return %0, %1 : tensor<3xi1>, tensor<3xui8>
}

// -----

// Unsigned division, guarded: x / 0 = 0 without trapping.
// CHECK-LABEL: func.func @unsigned_div
// CHECK-SAME: (%{{.*}}: tensor<4xi8>, %{{.*}}: tensor<4xi8>) -> tensor<4xi8>
// CHECK: ^bb0(%[[X:.*]]: i8, %[[Y:.*]]: i8, %{{.*}}: i8):
// CHECK: %[[Z:.*]] = arith.cmpi eq, %[[Y]], %{{.*}} : i8
// CHECK: %[[SAFE:.*]] = arith.select %[[Z]], %{{.*}}, %[[Y]] : i8
// CHECK: %[[Q:.*]] = arith.divui %[[X]], %[[SAFE]] : i8
// CHECK: arith.select %[[Z]], %{{.*}}, %[[Q]] : i8
func.func @unsigned_div(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
  %0 = graph.div %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// f16 computes in f32 and rounds back after the operation.
// CHECK-LABEL: func.func @half_exp
// CHECK: ^bb0(%[[H:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[W]] : f32
// CHECK-NEXT: %[[N:.*]] = arith.truncf %[[E]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[N]] : f16
func.func @half_exp(%x: tensor<3xf16>) -> tensor<3xf16> {
  %0 = graph.exp %x : tensor<3xf16>
  return %0 : tensor<3xf16>
}

// -----

// Float to integer: truncation, saturation at the type's range, NaN to 0.
// CHECK-LABEL: func.func @cast_saturates
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: i8):
// CHECK: %[[C:.*]] = arith.fptosi %[[X]] : f32 to i8
// CHECK-DAG: %[[LOW:.*]] = arith.cmpf olt, %[[X]], %{{.*}} : f32
// CHECK-DAG: %[[HIGH:.*]] = arith.cmpf oge, %[[X]], %{{.*}} : f32
// CHECK-DAG: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK: %[[S1:.*]] = arith.select %[[LOW]], %{{.*}}, %[[C]] : i8
// CHECK: %[[S2:.*]] = arith.select %[[HIGH]], %{{.*}}, %[[S1]] : i8
// CHECK: arith.select %[[NAN]], %{{.*}}, %[[S2]] : i8
func.func @cast_saturates(%x: tensor<3xf32>) -> tensor<3xi8> {
  %0 = graph.cast %x : (tensor<3xf32>) -> tensor<3xi8>
  return %0 : tensor<3xi8>
}

// -----

// graph.fused takes the storage types too: results, block arguments, yield.
// CHECK-LABEL: func.func @fused_bools
// CHECK-SAME: (%[[X:.*]]: tensor<4xi8>) -> tensor<4xi8>
// CHECK: %[[F:.*]] = graph.fused "not_not"(%[[X]]) : (tensor<4xi8>) -> tensor<4xi8>
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<4xi8>):
// CHECK: linalg.generic
// CHECK: graph.yield %{{.*}} : tensor<4xi8>
// CHECK: return %[[F]] : tensor<4xi8>
func.func @fused_bools(%x: tensor<4xi1>) -> tensor<4xi1> {
  %0 = graph.fused "not_not" (%x) : (tensor<4xi1>) -> tensor<4xi1> {
  ^bb0(%a: tensor<4xi1>):
    %1 = graph.not %a : tensor<4xi1>
    %2 = graph.not %1 : tensor<4xi1>
    graph.yield %2 : tensor<4xi1>
  }
  return %0 : tensor<4xi1>
}

// -----

// Gathers read the index tensor, count negative indices from the end and
// clamp, then tensor.extract: memory-safe whatever the indices.
// CHECK-LABEL: func.func @gather
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = tensor.extract %{{.*}}[%{{.*}}] : tensor<2xi64>
// CHECK: %[[C:.*]] = arith.index_cast %[[I]] : i64 to index
// CHECK: arith.cmpi slt, %[[C]]
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<3x4xf32>
func.func @gather(%x: tensor<3x4xf32>, %i: tensor<2xi64>) -> tensor<3x2xf32> {
  %0 = graph.gather %x, %i {axis = 1 : i64} : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// A slice with positive steps is a strided tensor.extract_slice.
// CHECK-LABEL: func.func @slice
// CHECK: tensor.extract_slice %{{.*}}[1, 0] [2, 2] [1, 2] : tensor<3x4xi64> to tensor<2x2xi64>
func.func @slice(%x: tensor<3x4xi64>) -> tensor<2x2xi64> {
  %0 = graph.slice %x {starts = array<i64: 1, 0>, steps = array<i64: 1, 2>} : (tensor<3x4xi64>) -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}

// -----

// A reduction: one linalg.generic with reduction iterators into a filled
// accumulator; the mean divides after.
// CHECK-LABEL: func.func @reduce_mean
// CHECK: %[[INIT:.*]] = linalg.fill
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[SUM]]
// CHECK: arith.divf
func.func @reduce_mean(%x: tensor<3x4xf32>) -> tensor<3xf32> {
  %0 = graph.reduce_mean %x {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// A batched matmul whose b has no batch is one linalg.matmul over the rows
// of a (the vectorized path); with batches, linalg.batch_matmul.
// CHECK-LABEL: func.func @batch_matmul
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<6x4xf32>, tensor<4x5xf32>)
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x3x4xf32>, tensor<2x4x5xf32>)
func.func @batch_matmul(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<2x4x5xf32>) -> (tensor<2x3x5xf32>, tensor<2x3x5xf32>) {
  %0 = graph.batch_matmul %a, %b : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  %1 = graph.batch_matmul %a, %c : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0, %1 : tensor<2x3x5xf32>, tensor<2x3x5xf32>
}
