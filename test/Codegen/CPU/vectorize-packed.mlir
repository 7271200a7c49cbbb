// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg,graph-vectorize{target-cpu=x86-64-v3},canonicalize,cse))' | FileCheck %s

// The micro-kernels of products by packed panels (graph-pack-weights) and of
// batched products, on AVX2 (8 f32 lanes, 16 registers).

// 13 rows by two 16-column panels: the panel loop outermost, 6-row tiles of
// 12 accumulators (6 x 2 ymm) for the first 12 rows and the last row peeled
// into a tile of its own; per step of K one load per panel, one broadcast
// per row, one FMA per accumulator, the accumulators carried across K.
// CHECK-LABEL: func.func @packed
// CHECK: vector.transfer_write %{{.*}} : vector<16xf32>, tensor<13x2x16xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 {{.*}} -> (tensor<13x2x16xf32>)
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c12 step %c6 {{.*}} -> (tensor<13x2x16xf32>)
// CHECK-NEXT: vector.transfer_read {{.*}} : tensor<13x2x16xf32>, vector<6x1x16xf32>
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c16 step %c8 {{.*}} -> (vector<6x1x16xf32>)
// CHECK-COUNT-48: vector.fma {{.*}} : vector<16xf32>
// CHECK: vector.transfer_write {{.*}} : vector<6x1x16xf32>, tensor<13x2x16xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c8 {{.*}} -> (vector<1x1x16xf32>)
// CHECK-COUNT-8: vector.fma {{.*}} : vector<16xf32>
// CHECK: return
func.func @packed(%a: tensor<13x16xf32>, %w: tensor<2x16x16xf32>) -> tensor<13x32xf32> {
  %y = graph.matmul %a, %w {packed_b} : (tensor<13x16xf32>, tensor<2x16x16xf32>) -> tensor<13x32xf32>
  return %y : tensor<13x32xf32>
}

// A matrix-vector product: one row, all five 8-column panels side by side
// for five independent accumulators.
// CHECK-LABEL: func.func @gemv
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c8 {{.*}} -> (vector<1x5x8xf32>)
// CHECK-COUNT-40: vector.fma {{.*}} : vector<8xf32>
// CHECK-NOT: vector.fma
// CHECK: return
func.func @gemv(%a: tensor<1x64xf32>, %w: tensor<5x64x8xf32>) -> tensor<1x40xf32> {
  %y = graph.matmul %a, %w {packed_b} : (tensor<1x64xf32>, tensor<5x64x8xf32>) -> tensor<1x40xf32>
  return %y : tensor<1x40xf32>
}

// A batched product of two computed operands (attention's P.V): one matrix
// of the batch per tile, a matmul's 6 x 16 register tile.
// CHECK-LABEL: func.func @heads
// CHECK: vector.transfer_write %{{.*}} : vector<32xf32>, tensor<4x24x32xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1 {{.*}} -> (tensor<4x24x32xf32>)
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c24 step %c6 {{.*}} -> (tensor<4x24x32xf32>)
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c32 step %c16 {{.*}} -> (tensor<4x24x32xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c8 {{.*}} -> (vector<1x6x16xf32>)
// CHECK-COUNT-48: vector.fma {{.*}} : vector<16xf32>
// CHECK: return
func.func @heads(%q: tensor<4x24x16xf32>, %k: tensor<4x16x32xf32>) -> tensor<4x24x32xf32> {
  %y = graph.batch_matmul %q, %k : (tensor<4x24x16xf32>, tensor<4x16x32xf32>) -> tensor<4x24x32xf32>
  return %y : tensor<4x24x32xf32>
}

// 197 columns, which no vector divides, and 5 rows: padded with zeros to
// 208 columns (two ymm) and 8 rows, vectorized in 4 x 16 tiles, the result
// sliced back.
// CHECK-LABEL: func.func @keys
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0] [2, 16, 197] [1, 1, 1] : tensor<2x16x197xf32> into tensor<2x16x208xf32>
// CHECK: scf.for {{.*}} -> (vector<1x4x16xf32>)
// CHECK-COUNT-32: vector.fma {{.*}} : vector<16xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0] [2, 5, 197] [1, 1, 1] : tensor<2x8x208xf32> to tensor<2x5x197xf32>
// CHECK: return
func.func @keys(%q: tensor<2x5x16xf32>, %k: tensor<2x16x197xf32>) -> tensor<2x5x197xf32> {
  %y = graph.batch_matmul %q, %k : (tensor<2x5x16xf32>, tensor<2x16x197xf32>) -> tensor<2x5x197xf32>
  return %y : tensor<2x5x197xf32>
}

// A convolution by packed weights (F/f0 x KH x KW x C x f0: two panels of
// 16 filters), NHWC: tiles of 3 x 2 output pixels (12 accumulators: 6
// pixels x 2 ymm) over the 6 x 8 map, the panels innermost (weights this
// small stay in L2 while each tile of input is read from L1 for both), the
// loops over KH, KW and the channels carrying the accumulators; per step of
// the channels one broadcast per pixel, two loads of weights, one FMA per
// accumulator. The fill of the accumulators is fused into the register
// tile: they start as zeros in registers, never written to memory first.
// CHECK-LABEL: func.func @packed_conv
// CHECK-DAG: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<1x3x2x1x16xf32>
// CHECK-NOT: vector.transfer_write %{{.*}} : vector<16xf32>, tensor<1x6x8x2x16xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c6 step %c3 {{.*}} -> (tensor<1x6x8x2x16xf32>)
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c8 step %c2 {{.*}} -> (tensor<1x6x8x2x16xf32>)
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c2 step %c1 {{.*}} -> (tensor<1x6x8x2x16xf32>)
// CHECK-NOT: vector.transfer_read {{.*}} : tensor<1x6x8x2x16xf32>
// CHECK-NOT: vector.transfer_read {{.*}} : tensor<1x3x2x1x16xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%{{.*}} = %[[ZEROS]]) -> (vector<1x3x2x1x16xf32>)
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c3 step %c1 {{.*}} -> (vector<1x3x2x1x16xf32>)
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c16 step %c8 {{.*}} -> (vector<1x3x2x1x16xf32>)
// CHECK-COUNT-48: vector.fma {{.*}} : vector<16xf32>
// CHECK-NOT: vector.fma
// CHECK: tensor.collapse_shape {{.*}} into tensor<1x6x8x32xf32>
// CHECK: return
func.func @packed_conv(%x: tensor<1x6x8x16xf32>, %w: tensor<2x3x3x16x16xf32>) -> tensor<1x6x8x32xf32> {
  %y = graph.conv2d %x, %w {layout = #graph<layout NHWC>, packed_weight, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x6x8x16xf32>, tensor<2x3x3x16x16xf32>) -> tensor<1x6x8x32xf32>
  return %y : tensor<1x6x8x32xf32>
}

// A 7 x 7 map: no tile height divides 7, so the tiles are two whole rows (14
// pixels x one ymm of filters: 14 accumulators) and the last row is peeled
// into a tile of its own (7 accumulators), both with static shapes. The
// epilogue is not fused into tiles of two shapes: the fill stays a loop of
// its own.
// CHECK-LABEL: func.func @packed_conv_rows
// CHECK: scf.for %{{.*}} = %c0 to %c6 step %c2 {{.*}} -> (tensor<1x7x7x1x8xf32>)
// CHECK: scf.for %{{.*}} -> (vector<1x2x7x1x8xf32>)
// CHECK-COUNT-112: vector.fma {{.*}} : vector<8xf32>
// CHECK: vector.transfer_write {{.*}} : vector<2x7x1x8xf32>, tensor<1x7x7x1x8xf32>
// CHECK: scf.for %{{.*}} -> (vector<1x1x7x1x8xf32>)
// CHECK-COUNT-56: vector.fma {{.*}} : vector<8xf32>
// CHECK-NOT: vector.fma
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%c0, %c6, %c0, %c0, %c0] {{.*}} : vector<7x1x8xf32>, tensor<1x7x7x1x8xf32>
// CHECK: return
func.func @packed_conv_rows(%x: tensor<1x7x7x16xf32>, %w: tensor<1x3x3x16x8xf32>) -> tensor<1x7x7x8xf32> {
  %y = graph.conv2d %x, %w {layout = #graph<layout NHWC>, packed_weight, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x7x7x16xf32>, tensor<1x3x3x16x8xf32>) -> tensor<1x7x7x8xf32>
  return %y : tensor<1x7x7x8xf32>
}
