// RUN: graph-opt %s --graph-vectorize=target-cpu=x86-64-v4 | FileCheck %s

// The structure of the register tiles, on an AVX-512 target (16 f32 lanes,
// 32 registers; vectorize-targets.mlir shows how the tiles follow the
// target). Each convolution and matmul becomes loops over output tiles whose
// reduction loops carry the accumulators as a vector and update them with
// broadcast-FMAs.

// A 4 x 64 tile: 16 zmm registers of accumulators, 4 of weights, 1
// broadcast. With 1.2M multiply-adds the kernel is worth several threads:
// its 8 output rows are the independent slices of an scf.forall (see
// parallel.mlir), each tiled to registers alike.
// CHECK-LABEL: func.func @conv
// CHECK-NOT: linalg.conv
// CHECK: scf.forall {{.*}} in (8) {{.*}} -> (tensor<1x8x16x64xf32>)
// CHECK: scf.for {{.*}} -> (tensor<1x1x16x64xf32>)
// CHECK: vector.transfer_read {{.*}} : tensor<1x1x16x64xf32>, vector<4x64xf32>
// The reduction loops: KH, KW, and C in steps of 8.
// CHECK: scf.for {{.*}} -> (vector<1x4x64xf32>)
// CHECK: scf.for {{.*}} -> (vector<1x4x64xf32>)
// CHECK: scf.for {{.*}} -> (vector<1x4x64xf32>)
// CHECK-DAG: vector.transfer_read {{.*}} : tensor<3x3x16x64xf32>, vector<8x64xf32>
// CHECK-DAG: vector.transfer_read {{.*}} : tensor<1x10x18x16xf32>, vector<4x8xf32>
// CHECK-COUNT-32: vector.fma {{.*}} : vector<64xf32>
// CHECK-NOT: vector.fma
// CHECK: vector.transfer_write {{.*}} : vector<4x64xf32>, tensor<1x1x16x64xf32>
// CHECK: tensor.parallel_insert_slice
// CHECK-NOT: linalg.conv
// CHECK: return
func.func @conv(%x: tensor<1x10x18x16xf32>, %w: tensor<3x3x16x64xf32>,
                %init: tensor<1x8x16x64xf32>) -> tensor<1x8x16x64xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%x, %w : tensor<1x10x18x16xf32>, tensor<3x3x16x64xf32>)
    outs(%init : tensor<1x8x16x64xf32>) -> tensor<1x8x16x64xf32>
  return %0 : tensor<1x8x16x64xf32>
}

// Sizes that no register tile divides: rows take the largest divisor (7),
// vector dimensions the largest power of two that divides them (5 channels:
// 1 lane; 3 input channels: steps of 1). Odd vector types are avoided: see
// powerOfTwoTile in Vectorize.cpp.
// CHECK-LABEL: func.func @conv_odd
// CHECK-NOT: linalg.conv
// CHECK: vector.transfer_read {{.*}} : tensor<1x7x7x5xf32>, vector<7x1xf32>
// CHECK: scf.for {{.*}} -> (vector<1x7x1xf32>)
// CHECK: scf.for {{.*}} -> (vector<1x7x1xf32>)
// CHECK-COUNT-7: vector.fma {{.*}} : vector<1xf32>
// CHECK-NOT: vector.fma
// CHECK: vector.transfer_write {{.*}} : vector<7x1xf32>, tensor<1x7x7x5xf32>
// CHECK: return
func.func @conv_odd(%x: tensor<1x9x9x3xf32>, %w: tensor<3x3x3x5xf32>,
                    %init: tensor<1x7x7x5xf32>) -> tensor<1x7x7x5xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%x, %w : tensor<1x9x9x3xf32>, tensor<3x3x3x5xf32>)
    outs(%init : tensor<1x7x7x5xf32>) -> tensor<1x7x7x5xf32>
  return %0 : tensor<1x7x7x5xf32>
}

// Depthwise: the whole 3 x 3 window in each register tile, written out as
// vector FMAs of an input vector by a weight vector: 16 pixels x 16
// channels (16 accumulators, half the register file), 9 steps each.
// CHECK-LABEL: func.func @depthwise
// CHECK-NOT: linalg.depthwise
// CHECK: scf.for {{.*}} to %c8 step %c1 {{.*}} -> (tensor<1x8x16x32xf32>)
// CHECK-NEXT: scf.for {{.*}} to %c32 step %c16 {{.*}} -> (tensor<1x8x16x32xf32>)
// CHECK-COUNT-144: vector.fma {{.*}} : vector<16xf32>
// CHECK-NOT: vector.fma
// CHECK: return
func.func @depthwise(%x: tensor<1x10x18x32xf32>, %w: tensor<3x3x32xf32>,
                     %init: tensor<1x8x16x32xf32>) -> tensor<1x8x16x32xf32> {
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%x, %w : tensor<1x10x18x32xf32>, tensor<3x3x32xf32>)
    outs(%init : tensor<1x8x16x32xf32>) -> tensor<1x8x16x32xf32>
  return %0 : tensor<1x8x16x32xf32>
}

// 48 channels, which 32 does not divide, in tiles of whole 16-lane vectors
// rather than 24 lanes (one and a half), 16 pixels wide.
// CHECK-LABEL: func.func @depthwise_48
// CHECK-NOT: linalg.depthwise
// CHECK: scf.for {{.*}} to %c48 step %c16
// CHECK-COUNT-144: vector.fma {{.*}} : vector<16xf32>
// CHECK-NOT: vector.fma
// CHECK: return
func.func @depthwise_48(%x: tensor<1x10x18x48xf32>, %w: tensor<3x3x48xf32>,
                        %init: tensor<1x8x16x48xf32>) -> tensor<1x8x16x48xf32> {
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%x, %w : tensor<1x10x18x48xf32>, tensor<3x3x48xf32>)
    outs(%init : tensor<1x8x16x48xf32>) -> tensor<1x8x16x48xf32>
  return %0 : tensor<1x8x16x48xf32>
}

// Max and sum pooling: the depthwise kernel's register tiles, the window
// whole in each, combined by maximumf (the pooling's own scalar op, which
// propagates NaN) or addf instead of an FMA by weights; stride 2.
// CHECK-LABEL: func.func @max_pool
// CHECK-NOT: linalg.pooling
// CHECK: scf.for {{.*}} to %c8 step %c1 {{.*}} -> (tensor<1x8x16x32xf32>)
// CHECK-COUNT-144: arith.maximumf {{.*}} : vector<16xf32>
// CHECK-NOT: arith.maximumf
// CHECK: return
func.func @max_pool(%x: tensor<1x17x33x32xf32>, %w: tensor<3x3xf32>,
                    %init: tensor<1x8x16x32xf32>) -> tensor<1x8x16x32xf32> {
  %0 = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
    ins(%x, %w : tensor<1x17x33x32xf32>, tensor<3x3xf32>)
    outs(%init : tensor<1x8x16x32xf32>) -> tensor<1x8x16x32xf32>
  return %0 : tensor<1x8x16x32xf32>
}

// CHECK-LABEL: func.func @sum_pool
// CHECK-NOT: linalg.pooling
// CHECK-COUNT-144: arith.addf {{.*}} : vector<16xf32>
// CHECK-NOT: arith.addf {{.*}} : vector
// CHECK: return
func.func @sum_pool(%x: tensor<1x10x18x32xf32>, %w: tensor<3x3xf32>,
                    %init: tensor<1x8x16x32xf32>) -> tensor<1x8x16x32xf32> {
  %0 = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%x, %w : tensor<1x10x18x32xf32>, tensor<3x3xf32>)
    outs(%init : tensor<1x8x16x32xf32>) -> tensor<1x8x16x32xf32>
  return %0 : tensor<1x8x16x32xf32>
}

// Matmul: 4 x 64 tiles as for the convolution, K in steps of 8.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: linalg.matmul
// CHECK: vector.transfer_read {{.*}} : tensor<16x64xf32>, vector<4x64xf32>
// CHECK: scf.for {{.*}} -> (vector<4x64xf32>)
// CHECK-DAG: vector.transfer_read {{.*}} : tensor<16x24xf32>, vector<4x8xf32>
// CHECK-DAG: vector.transfer_read {{.*}} : tensor<24x64xf32>, vector<8x64xf32>
// CHECK-COUNT-32: vector.fma {{.*}} : vector<64xf32>
// CHECK-NOT: vector.fma
// CHECK: vector.transfer_write {{.*}} : vector<4x64xf32>, tensor<16x64xf32>
// CHECK: return
func.func @matmul(%a: tensor<16x24xf32>, %b: tensor<24x64xf32>,
                  %c: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<16x24xf32>, tensor<24x64xf32>)
    outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}

// Elementwise: vectors along the innermost dimension, of the largest power
// of two that divides it, up to four vectors. No vector divides 40: the two
// innermost loops, which every operand reads contiguously, become one of
// 240, and vectors of 16 cover it.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @elementwise
// CHECK-NOT: linalg.generic
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<1x4x6x40xf32> into tensor<1x4x240xf32>
// CHECK: vector.transfer_read {{.*}} : tensor<1x4x240xf32>, vector<16xf32>
// CHECK: arith.addf {{.*}} : vector<16xf32>
// CHECK: vector.transfer_write {{.*}} : vector<16xf32>, tensor<1x4x240xf32>
// CHECK: tensor.expand_shape
// CHECK: return
func.func @elementwise(%x: tensor<1x4x6x40xf32>, %b: tensor<4xf32>) -> tensor<1x4x6x40xf32> {
  %e = tensor.empty() : tensor<1x4x6x40xf32>
  %0 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%x, %b : tensor<1x4x6x40xf32>, tensor<4xf32>) outs(%e : tensor<1x4x6x40xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    linalg.yield %s : f32
  } -> tensor<1x4x6x40xf32>
  return %0 : tensor<1x4x6x40xf32>
}

// Row reductions (softmax's max and sum, reduce_mean over the last axis):
// one row per tile, in tiles of up to 16 vectors, each reduced by one
// vector.reduction; sums reassociated into a tree. A row of 768 takes three
// tiles of 256; a row of 197 (attention over ViT's tokens) three of 64 and
// a scalar remainder of 5, peeled.
#row = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rowOut = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @row_reductions
// CHECK:       scf.for
// CHECK:         scf.for
// CHECK:           vector.transfer_read {{.*}} : tensor<2x8x128xf32>, vector<128xf32>
// CHECK:           vector.reduction <maximumf>, %{{.*}}, %{{.*}} : vector<128xf32> into f32
// CHECK:       scf.for {{.*}} step %c256
// CHECK:           vector.transfer_read {{.*}} : tensor<2x8x768xf32>, vector<256xf32>
// CHECK:           vector.reduction <add>, %{{.*}}, %{{.*}} fastmath<reassoc> : vector<256xf32> into f32
// CHECK:       scf.for {{.*}} to %c192 step %c64
// CHECK:           vector.transfer_read {{.*}} : tensor<2x8x197xf32>, vector<64xf32>
// CHECK:           vector.reduction <add>, %{{.*}}, %{{.*}} fastmath<reassoc> : vector<64xf32> into f32
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%{{.*}} : tensor<1x1x5xf32>)
// CHECK:       return
func.func @row_reductions(%x: tensor<2x8x128xf32>, %y: tensor<2x8x768xf32>, %z: tensor<2x8x197xf32>, %init: tensor<2x8xf32>)
    -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) {
  %0 = linalg.generic {indexing_maps = [#row, #rowOut], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x : tensor<2x8x128xf32>) outs(%init : tensor<2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  } -> tensor<2x8xf32>
  %1 = linalg.generic {indexing_maps = [#row, #rowOut], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%y : tensor<2x8x768xf32>) outs(%init : tensor<2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  } -> tensor<2x8xf32>
  %2 = linalg.generic {indexing_maps = [#row, #rowOut], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%z : tensor<2x8x197xf32>) outs(%init : tensor<2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  } -> tensor<2x8xf32>
  return %0, %1, %2 : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>
}

// The layout transposes around convolutions: 16 x 16 blocks, read as 16 rows
// of the input and transposed by shuffles of whole vectors.
// CHECK-LABEL: func.func @transpose_to_nhwc
// CHECK-NOT: linalg.transpose
// CHECK: scf.for
// CHECK: scf.for {{.*}} step %c16
// CHECK: vector.transfer_read {{.*}} : tensor<1x32x2x16xf32>, vector<16x1x16xf32>
// CHECK-COUNT-64: vector.shuffle {{.*}} : vector<16xf32>, vector<16xf32>
// CHECK-NOT: vector.shuffle
// CHECK: vector.transfer_write {{.*}} : vector<16x16xf32>, tensor<1x2x16x32xf32>
func.func @transpose_to_nhwc(%x: tensor<1x32x2x16xf32>) -> tensor<1x2x16x32xf32> {
  %init = tensor.empty() : tensor<1x2x16x32xf32>
  %0 = linalg.transpose ins(%x : tensor<1x32x2x16xf32>)
    outs(%init : tensor<1x2x16x32xf32>) permutation = [0, 2, 3, 1]
  return %0 : tensor<1x2x16x32xf32>
}

// Sizes that 16 does not divide get the largest powers of two that divide
// them, 8 x 1 here: a column of 8 moved as one vector, no shuffle; the rows
// of a halo slice, of dynamic height, one at a time.
// CHECK-LABEL: func.func @transpose_halo
// CHECK-NOT: linalg.transpose
// CHECK: scf.for {{.*}} step %c1
// CHECK: scf.for {{.*}} step %c8
// CHECK: vector.transfer_read {{.*}} : tensor<1x24x?x7xf32>, vector<8x1x1xf32>
// CHECK-NOT: vector.shuffle
// CHECK: vector.transfer_write {{.*}} : vector<8xf32>, tensor<1x?x7x24xf32>
func.func @transpose_halo(%x: tensor<1x24x?x7xf32>,
                          %init: tensor<1x?x7x24xf32>) -> tensor<1x?x7x24xf32> {
  %0 = linalg.transpose ins(%x : tensor<1x24x?x7xf32>)
    outs(%init : tensor<1x?x7x24xf32>) permutation = [0, 2, 3, 1]
  return %0 : tensor<1x?x7x24xf32>
}

// A transpose that keeps the innermost dimension moves whole rows: it stays
// a copy loop.
// CHECK-LABEL: func.func @transpose_inner_kept
// CHECK: linalg.transpose
func.func @transpose_inner_kept(%x: tensor<4x8x16xf32>) -> tensor<8x4x16xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  %0 = linalg.transpose ins(%x : tensor<4x8x16xf32>)
    outs(%init : tensor<8x4x16xf32>) permutation = [1, 0, 2]
  return %0 : tensor<8x4x16xf32>
}
