// RUN: graph-opt %s --graph-lower-to-llvm \
// RUN: | %mlir_runner -e entry -entry-point-result=void \
// RUN:   -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s

// Every tiled and vectorized path of graph-lower-to-llvm against NumPy
// (Inputs/gen_vectorize_runner.py writes this file): odd sizes that no tile
// divides, strides, dilations, asymmetric padding, depthwise and grouped
// convolutions, matmul and gemm, fused groups, elementwise ops. The inputs
// are small multiples of 1/16 built by a formula, so that every result is
// exact in f32 whatever the order of summation; three weighted sums of each
// result, exact in f64, are compared with NumPy's, and each case prints how
// many of them differ.

// 8 -> 32 channels, 3x3, pad 1: full 6x32 register tiles, C in steps of 8
func.func @conv_main(%x: tensor<1x8x10x12xf32>, %w: tensor<32x8x3x3xf32>, %b: tensor<32xf32>) -> tensor<1x32x10x12xf32> {
  %y = graph.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x10x12xf32>, tensor<32x8x3x3xf32>, tensor<32xf32>) -> tensor<1x32x10x12xf32>
  return %y : tensor<1x32x10x12xf32>
}

// stride 2, pad 1, 5 -> 3 channels
func.func @conv_stride2(%x: tensor<1x5x9x9xf32>, %w: tensor<3x5x3x3xf32>, %b: tensor<3xf32>) -> tensor<1x3x5x5xf32> {
  %y = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x5x9x9xf32>, tensor<3x5x3x3xf32>, tensor<3xf32>) -> tensor<1x3x5x5xf32>
  return %y : tensor<1x3x5x5xf32>
}

// 7x7 output, 3 -> 5 channels, no bias
func.func @conv_7x7_out(%x: tensor<1x3x7x7xf32>, %w: tensor<5x3x3x3xf32>) -> tensor<1x5x7x7xf32> {
  %y = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x7x7xf32>, tensor<5x3x3x3xf32>) -> tensor<1x5x7x7xf32>
  return %y : tensor<1x5x7x7xf32>
}

// 1x1 kernel, stride 2, 24 -> 48 channels
func.func @conv_1x1_stride2(%x: tensor<1x24x8x8xf32>, %w: tensor<48x24x1x1xf32>, %b: tensor<48xf32>) -> tensor<1x48x4x4xf32> {
  %y = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>} : (tensor<1x24x8x8xf32>, tensor<48x24x1x1xf32>, tensor<48xf32>) -> tensor<1x48x4x4xf32>
  return %y : tensor<1x48x4x4xf32>
}

// batch 2, 5x5 kernel, dilation [2, 1], asymmetric padding
func.func @conv_5x5_dilated(%x: tensor<2x4x11x9xf32>, %w: tensor<16x4x5x5xf32>, %b: tensor<16xf32>) -> tensor<2x16x5x9xf32> {
  %y = graph.conv2d %x, %w, %b {padding = array<i64: 2, 1, 0, 3>, dilations = array<i64: 2, 1>} : (tensor<2x4x11x9xf32>, tensor<16x4x5x5xf32>, tensor<16xf32>) -> tensor<2x16x5x9xf32>
  return %y : tensor<2x16x5x9xf32>
}

// depthwise 3x3, pad 1, 16 channels
func.func @depthwise(%x: tensor<1x16x9x9xf32>, %w: tensor<16x1x3x3xf32>, %b: tensor<16xf32>) -> tensor<1x16x9x9xf32> {
  %y = graph.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>, groups = 16 : i64} : (tensor<1x16x9x9xf32>, tensor<16x1x3x3xf32>, tensor<16xf32>) -> tensor<1x16x9x9xf32>
  return %y : tensor<1x16x9x9xf32>
}

// depthwise 3x3, pad 1, 32 channels, 16x16: the layout transposes in 16 x 16 blocks
func.func @depthwise_16x16(%x: tensor<1x32x16x16xf32>, %w: tensor<32x1x3x3xf32>, %b: tensor<32xf32>) -> tensor<1x32x16x16xf32> {
  %y = graph.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>, groups = 32 : i64} : (tensor<1x32x16x16xf32>, tensor<32x1x3x3xf32>, tensor<32xf32>) -> tensor<1x32x16x16xf32>
  return %y : tensor<1x32x16x16xf32>
}

// depthwise 3x3, pad 1, 48 channels: 16-lane channel tiles
func.func @depthwise_48(%x: tensor<1x48x7x9xf32>, %w: tensor<48x1x3x3xf32>, %b: tensor<48xf32>) -> tensor<1x48x7x9xf32> {
  %y = graph.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>, groups = 48 : i64} : (tensor<1x48x7x9xf32>, tensor<48x1x3x3xf32>, tensor<48xf32>) -> tensor<1x48x7x9xf32>
  return %y : tensor<1x48x7x9xf32>
}

// depthwise 3x3, stride 2, 40 channels
func.func @depthwise_stride2(%x: tensor<1x40x10x10xf32>, %w: tensor<40x1x3x3xf32>) -> tensor<1x40x5x5xf32> {
  %y = graph.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, groups = 40 : i64} : (tensor<1x40x10x10xf32>, tensor<40x1x3x3xf32>) -> tensor<1x40x5x5xf32>
  return %y : tensor<1x40x5x5xf32>
}

// 2 groups of 4 -> 4 channels
func.func @grouped(%x: tensor<1x8x6x6xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x4x4xf32> {
  %y = graph.conv2d %x, %w, %b {groups = 2 : i64} : (tensor<1x8x6x6xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
  return %y : tensor<1x8x4x4xf32>
}

// 7x13 by 13x5: no dimension a multiple of a tile
func.func @matmul_odd(%a: tensor<7x13xf32>, %b: tensor<13x5xf32>) -> tensor<7x5xf32> {
  %y = graph.matmul %a, %b : (tensor<7x13xf32>, tensor<13x5xf32>) -> tensor<7x5xf32>
  return %y : tensor<7x5xf32>
}

// 16x24 by 24x64: whole 8x32x8 tiles
func.func @matmul_tiles(%a: tensor<16x24xf32>, %b: tensor<24x64xf32>) -> tensor<16x64xf32> {
  %y = graph.matmul %a, %b : (tensor<16x24xf32>, tensor<24x64xf32>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// 9x40 by 40x48
func.func @matmul_mixed(%a: tensor<9x40xf32>, %b: tensor<40x48xf32>) -> tensor<9x48xf32> {
  %y = graph.matmul %a, %b : (tensor<9x40xf32>, tensor<40x48xf32>) -> tensor<9x48xf32>
  return %y : tensor<9x48xf32>
}

// alpha 0.5, beta 2, trans_b, c broadcast over rows
func.func @gemm_trans_b(%a: tensor<6x20xf32>, %b: tensor<18x20xf32>, %c: tensor<18xf32>) -> tensor<6x18xf32> {
  %y = graph.gemm %a, %b, %c {alpha = 0.5 : f32, beta = 2.0 : f32, trans_b} : (tensor<6x20xf32>, tensor<18x20xf32>, tensor<18xf32>) -> tensor<6x18xf32>
  return %y : tensor<6x18xf32>
}

// trans_a, no c
func.func @gemm_trans_a(%a: tensor<20x6xf32>, %b: tensor<20x18xf32>) -> tensor<6x18xf32> {
  %y = graph.gemm %a, %b {trans_a} : (tensor<20x6xf32>, tensor<20x18xf32>) -> tensor<6x18xf32>
  return %y : tensor<6x18xf32>
}

// a graph.fused group, tiled by rows, each tile vectorized
func.func @fused_conv_relu(%x: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf32>, %b: tensor<16xf32>) -> tensor<1x16x16x16xf32> {
  %y = graph.fused "conv2d_relu" (%x, %w, %b) : (tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>, tensor<16xf32>) -> tensor<1x16x16x16xf32> {
  ^bb0(%a0: tensor<1x8x16x16xf32>, %a1: tensor<16x8x3x3xf32>, %a2: tensor<16xf32>):
    %0 = graph.conv2d %a0, %a1, %a2 {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>, tensor<16xf32>) -> tensor<1x16x16x16xf32>
    %1 = graph.relu %0 : tensor<1x16x16x16xf32>
    graph.yield %1 : tensor<1x16x16x16xf32>
  }
  return %y : tensor<1x16x16x16xf32>
}

// a graph.fused matmul + bias group
func.func @fused_matmul_add(%a: tensor<12x16xf32>, %b: tensor<16x32xf32>, %c: tensor<32xf32>) -> tensor<12x32xf32> {
  %y = graph.fused "matmul_add" (%a, %b, %c) : (tensor<12x16xf32>, tensor<16x32xf32>, tensor<32xf32>) -> tensor<12x32xf32> {
  ^bb0(%a0: tensor<12x16xf32>, %a1: tensor<16x32xf32>, %a2: tensor<32xf32>):
    %0 = graph.matmul %a0, %a1 : (tensor<12x16xf32>, tensor<16x32xf32>) -> tensor<12x32xf32>
    %1 = graph.add %0, %a2 : (tensor<12x32xf32>, tensor<32xf32>) -> tensor<12x32xf32>
    graph.yield %1 : tensor<12x32xf32>
  }
  return %y : tensor<12x32xf32>
}

// mul by a broadcast, sub, clip: fused and vectorized by rows
func.func @elementwise(%x: tensor<1x16x9x20xf32>, %s: tensor<1x16x1x1xf32>) -> tensor<1x16x9x20xf32> {
  %0 = graph.mul %x, %s : (tensor<1x16x9x20xf32>, tensor<1x16x1x1xf32>) -> tensor<1x16x9x20xf32>
  %1 = graph.sub %0, %x : (tensor<1x16x9x20xf32>, tensor<1x16x9x20xf32>) -> tensor<1x16x9x20xf32>
  %y = graph.clip %1 {max = 6.0 : f32, min = 0.0 : f32} : tensor<1x16x9x20xf32>
  return %y : tensor<1x16x9x20xf32>
}

// sum_i a[i] * (i mod m + 1), in f64.
func.func @checksum(%a: tensor<?xf32>, %m: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
    %x = tensor.extract %a[%i] : tensor<?xf32>
    %xd = arith.extf %x : f32 to f64
    %k = arith.remui %i, %m : index
    %k1 = arith.addi %k, %c1 : index
    %ki = arith.index_cast %k1 : index to i64
    %w = arith.sitofp %ki : i64 to f64
    %p = arith.mulf %xd, %w : f64
    %next = arith.addf %acc, %p : f64
    scf.yield %next : f64
  }
  return %r : f64
}

// How many of the three checksums of %a differ from the expected ones.
func.func @check(%a: tensor<?xf32>, %e1: f64, %e7: f64, %e13: f64) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c13 = arith.constant 13 : index
  %s1 = call @checksum(%a, %c1) : (tensor<?xf32>, index) -> f64
  %s7 = call @checksum(%a, %c7) : (tensor<?xf32>, index) -> f64
  %s13 = call @checksum(%a, %c13) : (tensor<?xf32>, index) -> f64
  %ok1 = arith.cmpf oeq, %s1, %e1 : f64
  %ok7 = arith.cmpf oeq, %s7, %e7 : f64
  %ok13 = arith.cmpf oeq, %s13, %e13 : f64
  %b1 = arith.select %ok1, %c0, %c1 : index
  %b7 = arith.select %ok7, %c0, %c1 : index
  %b13 = arith.select %ok13, %c0, %c1 : index
  %b17 = arith.addi %b1, %b7 : index
  %bad = arith.addi %b17, %b13 : index
  return %bad : index
}

func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %c11 = arith.constant 11 : index
  %c12 = arith.constant 12 : index
  %c13 = arith.constant 13 : index
  %c14 = arith.constant 14 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %c17 = arith.constant 17 : index
  %c18 = arith.constant 18 : index
  %c20 = arith.constant 20 : index
  %c24 = arith.constant 24 : index
  %c32 = arith.constant 32 : index
  %c40 = arith.constant 40 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %conv_main_x = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c8 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c10 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c12 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c3 : index
    %s = arith.addi %m, %c0 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<1x8x10x12xf32>
  %conv_main_w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c8 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c3 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c3 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c5 : index
    %s = arith.addi %m, %c5 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 16.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<32x8x3x3xf32>
  %conv_main_b = tensor.generate {
  ^bb0(%i0: index):
    %m = arith.muli %i0, %c7 : index
    %s = arith.addi %m, %c10 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<32xf32>
  %conv_main_y = call @conv_main(%conv_main_x, %conv_main_w, %conv_main_b) : (tensor<1x8x10x12xf32>, tensor<32x8x3x3xf32>, tensor<32xf32>) -> tensor<1x32x10x12xf32>
  %conv_main_flat = tensor.collapse_shape %conv_main_y [[0, 1, 2, 3]] : tensor<1x32x10x12xf32> into tensor<3840xf32>
  %conv_main_dyn = tensor.cast %conv_main_flat : tensor<3840xf32> to tensor<?xf32>
  %conv_main_e1 = arith.constant 0.5 : f64
  %conv_main_e7 = arith.constant -10.5390625 : f64
  %conv_main_e13 = arith.constant 56.5859375 : f64
  %conv_main_bad = call @check(%conv_main_dyn, %conv_main_e1, %conv_main_e7, %conv_main_e13) : (tensor<?xf32>, f64, f64, f64) -> index
  vector.print str "conv_main: checksums differing from NumPy: "
  vector.print %conv_main_bad : index
  %conv_stride2_x = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c5 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c9 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c9 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c11 : index
    %s = arith.addi %m, %c15 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<1x5x9x9xf32>
  %conv_stride2_w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c5 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c3 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c3 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c13 : index
    %s = arith.addi %m, %c3 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 16.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<3x5x3x3xf32>
  %conv_stride2_b = tensor.generate {
  ^bb0(%i0: index):
    %m = arith.muli %i0, %c2 : index
    %s = arith.addi %m, %c8 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<3xf32>
  %conv_stride2_y = call @conv_stride2(%conv_stride2_x, %conv_stride2_w, %conv_stride2_b) : (tensor<1x5x9x9xf32>, tensor<3x5x3x3xf32>, tensor<3xf32>) -> tensor<1x3x5x5xf32>
  %conv_stride2_flat = tensor.collapse_shape %conv_stride2_y [[0, 1, 2, 3]] : tensor<1x3x5x5xf32> into tensor<75xf32>
  %conv_stride2_dyn = tensor.cast %conv_stride2_flat : tensor<75xf32> to tensor<?xf32>
  %conv_stride2_e1 = arith.constant 15.2265625 : f64
  %conv_stride2_e7 = arith.constant 78.4140625 : f64
  %conv_stride2_e13 = arith.constant 130.8125 : f64
  %conv_stride2_bad = call @check(%conv_stride2_dyn, %conv_stride2_e1, %conv_stride2_e7, %conv_stride2_e13) : (tensor<?xf32>, f64, f64, f64) -> index
  vector.print str "conv_stride2: checksums differing from NumPy: "
  vector.print %conv_stride2_bad : index
  %conv_7x7_out_x = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c3 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c7 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c7 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c4 : index
    %s = arith.addi %m, %c13 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<1x3x7x7xf32>
  %conv_7x7_out_w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c3 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c3 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c3 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c6 : index
    %s = arith.addi %m, %c1 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 16.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<5x3x3x3xf32>
  %conv_7x7_out_y = call @conv_7x7_out(%conv_7x7_out_x, %conv_7x7_out_w) : (tensor<1x3x7x7xf32>, tensor<5x3x3x3xf32>) -> tensor<1x5x7x7xf32>
  %conv_7x7_out_flat = tensor.collapse_shape %conv_7x7_out_y [[0, 1, 2, 3]] : tensor<1x5x7x7xf32> into tensor<245xf32>
  %conv_7x7_out_dyn = tensor.cast %conv_7x7_out_flat : tensor<245xf32> to tensor<?xf32>
  %conv_7x7_out_e1 = arith.constant 3.328125 : f64
  %conv_7x7_out_e7 = arith.constant -6.625 : f64
  %conv_7x7_out_e13 = arith.constant 34.484375 : f64
  %conv_7x7_out_bad = call @check(%conv_7x7_out_dyn, %conv_7x7_out_e1, %conv_7x7_out_e7, %conv_7x7_out_e13) : (tensor<?xf32>, f64, f64, f64) -> index
  vector.print str "conv_7x7_out: checksums differing from NumPy: "
  vector.print %conv_7x7_out_bad : index
  %conv_1x1_stride2_x = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c24 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c8 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c8 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c3 : index
    %s = arith.addi %m, %c6 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<1x24x8x8xf32>
  %conv_1x1_stride2_w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c24 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c1 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c1 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c5 : index
    %s = arith.addi %m, %c11 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 16.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<48x24x1x1xf32>
  %conv_1x1_stride2_b = tensor.generate {
  ^bb0(%i0: index):
    %m = arith.muli %i0, %c7 : index
    %s = arith.addi %m, %c16 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<48xf32>
  %conv_1x1_stride2_y = call @conv_1x1_stride2(%conv_1x1_stride2_x, %conv_1x1_stride2_w, %conv_1x1_stride2_b) : (tensor<1x24x8x8xf32>, tensor<48x24x1x1xf32>, tensor<48xf32>) -> tensor<1x48x4x4xf32>
  %conv_1x1_stride2_flat = tensor.collapse_shape %conv_1x1_stride2_y [[0, 1, 2, 3]] : tensor<1x48x4x4xf32> into tensor<768xf32>
  %conv_1x1_stride2_dyn = tensor.cast %conv_1x1_stride2_flat : tensor<768xf32> to tensor<?xf32>
  %conv_1x1_stride2_e1 = arith.constant 16.796875 : f64
  %conv_1x1_stride2_e7 = arith.constant 53.8671875 : f64
  %conv_1x1_stride2_e13 = arith.constant 98.46875 : f64
  %conv_1x1_stride2_bad = call @check(%conv_1x1_stride2_dyn, %conv_1x1_stride2_e1, %conv_1x1_stride2_e7, %conv_1x1_stride2_e13) : (tensor<?xf32>, f64, f64, f64) -> index
  vector.print str "conv_1x1_stride2: checksums differing from NumPy: "
  vector.print %conv_1x1_stride2_bad : index
  %conv_5x5_dilated_x = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c4 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c11 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c9 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c11 : index
    %s = arith.addi %m, %c4 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<2x4x11x9xf32>
  %conv_5x5_dilated_w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c4 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c5 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c5 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c13 : index
    %s = arith.addi %m, %c9 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 16.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<16x4x5x5xf32>
  %conv_5x5_dilated_b = tensor.generate {
  ^bb0(%i0: index):
    %m = arith.muli %i0, %c2 : index
    %s = arith.addi %m, %c14 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<16xf32>
  %conv_5x5_dilated_y = call @conv_5x5_dilated(%conv_5x5_dilated_x, %conv_5x5_dilated_w, %conv_5x5_dilated_b) : (tensor<2x4x11x9xf32>, tensor<16x4x5x5xf32>, tensor<16xf32>) -> tensor<2x16x5x9xf32>
  %conv_5x5_dilated_flat = tensor.collapse_shape %conv_5x5_dilated_y [[0, 1, 2, 3]] : tensor<2x16x5x9xf32> into tensor<1440xf32>
  %conv_5x5_dilated_dyn = tensor.cast %conv_5x5_dilated_flat : tensor<1440xf32> to tensor<?xf32>
  %conv_5x5_dilated_e1 = arith.constant -46.9609375 : f64
  %conv_5x5_dilated_e7 = arith.constant -227.875 : f64
  %conv_5x5_dilated_e13 = arith.constant -450.921875 : f64
  %conv_5x5_dilated_bad = call @check(%conv_5x5_dilated_dyn, %conv_5x5_dilated_e1, %conv_5x5_dilated_e7, %conv_5x5_dilated_e13) : (tensor<?xf32>, f64, f64, f64) -> index
  vector.print str "conv_5x5_dilated: checksums differing from NumPy: "
  vector.print %conv_5x5_dilated_bad : index
  %depthwise_x = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c16 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c9 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c9 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c4 : index
    %s = arith.addi %m, %c2 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<1x16x9x9xf32>
  %depthwise_w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c1 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c3 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c3 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c6 : index
    %s = arith.addi %m, %c7 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 16.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<16x1x3x3xf32>
  %depthwise_b = tensor.generate {
  ^bb0(%i0: index):
    %m = arith.muli %i0, %c3 : index
    %s = arith.addi %m, %c12 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<16xf32>
  %depthwise_y = call @depthwise(%depthwise_x, %depthwise_w, %depthwise_b) : (tensor<1x16x9x9xf32>, tensor<16x1x3x3xf32>, tensor<16xf32>) -> tensor<1x16x9x9xf32>
  %depthwise_flat = tensor.collapse_shape %depthwise_y [[0, 1, 2, 3]] : tensor<1x16x9x9xf32> into tensor<1296xf32>
  %depthwise_dyn = tensor.cast %depthwise_flat : tensor<1296xf32> to tensor<?xf32>
  %depthwise_e1 = arith.constant -10.5078125 : f64
  %depthwise_e7 = arith.constant -63.1484375 : f64
  %depthwise_e13 = arith.constant 31.9921875 : f64
  %depthwise_bad = call @check(%depthwise_dyn, %depthwise_e1, %depthwise_e7, %depthwise_e13) : (tensor<?xf32>, f64, f64, f64) -> index
  vector.print str "depthwise: checksums differing from NumPy: "
  vector.print %depthwise_bad : index
  %depthwise_16x16_x = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c32 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c16 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c16 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c5 : index
    %s = arith.addi %m, %c0 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<1x32x16x16xf32>
  %depthwise_16x16_w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c1 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c3 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c3 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c7 : index
    %s = arith.addi %m, %c5 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 16.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<32x1x3x3xf32>
  %depthwise_16x16_b = tensor.generate {
  ^bb0(%i0: index):
    %m = arith.muli %i0, %c11 : index
    %s = arith.addi %m, %c10 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<32xf32>
  %depthwise_16x16_y = call @depthwise_16x16(%depthwise_16x16_x, %depthwise_16x16_w, %depthwise_16x16_b) : (tensor<1x32x16x16xf32>, tensor<32x1x3x3xf32>, tensor<32xf32>) -> tensor<1x32x16x16xf32>
  %depthwise_16x16_flat = tensor.collapse_shape %depthwise_16x16_y [[0, 1, 2, 3]] : tensor<1x32x16x16xf32> into tensor<8192xf32>
  %depthwise_16x16_dyn = tensor.cast %depthwise_16x16_flat : tensor<8192xf32> to tensor<?xf32>
  %depthwise_16x16_e1 = arith.constant -147.3359375 : f64
  %depthwise_16x16_e7 = arith.constant -625.28125 : f64
  %depthwise_16x16_e13 = arith.constant -981.0 : f64
  %depthwise_16x16_bad = call @check(%depthwise_16x16_dyn, %depthwise_16x16_e1, %depthwise_16x16_e7, %depthwise_16x16_e13) : (tensor<?xf32>, f64, f64, f64) -> index
  vector.print str "depthwise_16x16: checksums differing from NumPy: "
  vector.print %depthwise_16x16_bad : index
  %depthwise_48_x = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c48 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c7 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c9 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c13 : index
    %s = arith.addi %m, %c15 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<1x48x7x9xf32>
  %depthwise_48_w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c1 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c3 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c3 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c2 : index
    %s = arith.addi %m, %c3 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 16.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<48x1x3x3xf32>
  %depthwise_48_b = tensor.generate {
  ^bb0(%i0: index):
    %m = arith.muli %i0, %c4 : index
    %s = arith.addi %m, %c8 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<48xf32>
  %depthwise_48_y = call @depthwise_48(%depthwise_48_x, %depthwise_48_w, %depthwise_48_b) : (tensor<1x48x7x9xf32>, tensor<48x1x3x3xf32>, tensor<48xf32>) -> tensor<1x48x7x9xf32>
  %depthwise_48_flat = tensor.collapse_shape %depthwise_48_y [[0, 1, 2, 3]] : tensor<1x48x7x9xf32> into tensor<3024xf32>
  %depthwise_48_dyn = tensor.cast %depthwise_48_flat : tensor<3024xf32> to tensor<?xf32>
  %depthwise_48_e1 = arith.constant 37.578125 : f64
  %depthwise_48_e7 = arith.constant 159.296875 : f64
  %depthwise_48_e13 = arith.constant 240.0546875 : f64
  %depthwise_48_bad = call @check(%depthwise_48_dyn, %depthwise_48_e1, %depthwise_48_e7, %depthwise_48_e13) : (tensor<?xf32>, f64, f64, f64) -> index
  vector.print str "depthwise_48: checksums differing from NumPy: "
  vector.print %depthwise_48_bad : index
  %depthwise_stride2_x = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c40 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c10 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c10 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c6 : index
    %s = arith.addi %m, %c13 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<1x40x10x10xf32>
  %depthwise_stride2_w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c1 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c3 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c3 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c3 : index
    %s = arith.addi %m, %c1 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 16.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<40x1x3x3xf32>
  %depthwise_stride2_y = call @depthwise_stride2(%depthwise_stride2_x, %depthwise_stride2_w) : (tensor<1x40x10x10xf32>, tensor<40x1x3x3xf32>) -> tensor<1x40x5x5xf32>
  %depthwise_stride2_flat = tensor.collapse_shape %depthwise_stride2_y [[0, 1, 2, 3]] : tensor<1x40x5x5xf32> into tensor<1000xf32>
  %depthwise_stride2_dyn = tensor.cast %depthwise_stride2_flat : tensor<1000xf32> to tensor<?xf32>
  %depthwise_stride2_e1 = arith.constant -6.734375 : f64
  %depthwise_stride2_e7 = arith.constant -35.9609375 : f64
  %depthwise_stride2_e13 = arith.constant -65.8046875 : f64
  %depthwise_stride2_bad = call @check(%depthwise_stride2_dyn, %depthwise_stride2_e1, %depthwise_stride2_e7, %depthwise_stride2_e13) : (tensor<?xf32>, f64, f64, f64) -> index
  vector.print str "depthwise_stride2: checksums differing from NumPy: "
  vector.print %depthwise_stride2_bad : index
  %grouped_x = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c8 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c6 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c6 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c5 : index
    %s = arith.addi %m, %c6 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<1x8x6x6xf32>
  %grouped_w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c4 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c3 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c3 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c7 : index
    %s = arith.addi %m, %c11 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 16.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<8x4x3x3xf32>
  %grouped_b = tensor.generate {
  ^bb0(%i0: index):
    %m = arith.muli %i0, %c11 : index
    %s = arith.addi %m, %c16 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<8xf32>
  %grouped_y = call @grouped(%grouped_x, %grouped_w, %grouped_b) : (tensor<1x8x6x6xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
  %grouped_flat = tensor.collapse_shape %grouped_y [[0, 1, 2, 3]] : tensor<1x8x4x4xf32> into tensor<128xf32>
  %grouped_dyn = tensor.cast %grouped_flat : tensor<128xf32> to tensor<?xf32>
  %grouped_e1 = arith.constant 29.7109375 : f64
  %grouped_e7 = arith.constant 130.3359375 : f64
  %grouped_e13 = arith.constant 245.1015625 : f64
  %grouped_bad = call @check(%grouped_dyn, %grouped_e1, %grouped_e7, %grouped_e13) : (tensor<?xf32>, f64, f64, f64) -> index
  vector.print str "grouped: checksums differing from NumPy: "
  vector.print %grouped_bad : index
  %matmul_odd_a = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %f1_s = arith.muli %i0, %c13 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %m = arith.muli %f1, %c13 : index
    %s = arith.addi %m, %c4 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<7x13xf32>
  %matmul_odd_b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %f1_s = arith.muli %i0, %c5 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %m = arith.muli %f1, %c2 : index
    %s = arith.addi %m, %c9 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 16.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<13x5xf32>
  %matmul_odd_y = call @matmul_odd(%matmul_odd_a, %matmul_odd_b) : (tensor<7x13xf32>, tensor<13x5xf32>) -> tensor<7x5xf32>
  %matmul_odd_flat = tensor.collapse_shape %matmul_odd_y [[0, 1]] : tensor<7x5xf32> into tensor<35xf32>
  %matmul_odd_dyn = tensor.cast %matmul_odd_flat : tensor<35xf32> to tensor<?xf32>
  %matmul_odd_e1 = arith.constant -0.015625 : f64
  %matmul_odd_e7 = arith.constant -7.203125 : f64
  %matmul_odd_e13 = arith.constant -14.4765625 : f64
  %matmul_odd_bad = call @check(%matmul_odd_dyn, %matmul_odd_e1, %matmul_odd_e7, %matmul_odd_e13) : (tensor<?xf32>, f64, f64, f64) -> index
  vector.print str "matmul_odd: checksums differing from NumPy: "
  vector.print %matmul_odd_bad : index
  %matmul_tiles_a = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %f1_s = arith.muli %i0, %c24 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %m = arith.muli %f1, %c4 : index
    %s = arith.addi %m, %c14 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<16x24xf32>
  %matmul_tiles_b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %f1_s = arith.muli %i0, %c64 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %m = arith.muli %f1, %c6 : index
    %s = arith.addi %m, %c2 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 16.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<24x64xf32>
  %matmul_tiles_y = call @matmul_tiles(%matmul_tiles_a, %matmul_tiles_b) : (tensor<16x24xf32>, tensor<24x64xf32>) -> tensor<16x64xf32>
  %matmul_tiles_flat = tensor.collapse_shape %matmul_tiles_y [[0, 1]] : tensor<16x64xf32> into tensor<1024xf32>
  %matmul_tiles_dyn = tensor.cast %matmul_tiles_flat : tensor<1024xf32> to tensor<?xf32>
  %matmul_tiles_e1 = arith.constant 2.5625 : f64
  %matmul_tiles_e7 = arith.constant -38.21875 : f64
  %matmul_tiles_e13 = arith.constant -29.5859375 : f64
  %matmul_tiles_bad = call @check(%matmul_tiles_dyn, %matmul_tiles_e1, %matmul_tiles_e7, %matmul_tiles_e13) : (tensor<?xf32>, f64, f64, f64) -> index
  vector.print str "matmul_tiles: checksums differing from NumPy: "
  vector.print %matmul_tiles_bad : index
  %matmul_mixed_a = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %f1_s = arith.muli %i0, %c40 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %m = arith.muli %f1, %c3 : index
    %s = arith.addi %m, %c7 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<9x40xf32>
  %matmul_mixed_b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %f1_s = arith.muli %i0, %c48 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %m = arith.muli %f1, %c5 : index
    %s = arith.addi %m, %c12 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 16.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<40x48xf32>
  %matmul_mixed_y = call @matmul_mixed(%matmul_mixed_a, %matmul_mixed_b) : (tensor<9x40xf32>, tensor<40x48xf32>) -> tensor<9x48xf32>
  %matmul_mixed_flat = tensor.collapse_shape %matmul_mixed_y [[0, 1]] : tensor<9x48xf32> into tensor<432xf32>
  %matmul_mixed_dyn = tensor.cast %matmul_mixed_flat : tensor<432xf32> to tensor<?xf32>
  %matmul_mixed_e1 = arith.constant -1.421875 : f64
  %matmul_mixed_e7 = arith.constant 22.953125 : f64
  %matmul_mixed_e13 = arith.constant -21.8203125 : f64
  %matmul_mixed_bad = call @check(%matmul_mixed_dyn, %matmul_mixed_e1, %matmul_mixed_e7, %matmul_mixed_e13) : (tensor<?xf32>, f64, f64, f64) -> index
  vector.print str "matmul_mixed: checksums differing from NumPy: "
  vector.print %matmul_mixed_bad : index
  %gemm_trans_b_a = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %f1_s = arith.muli %i0, %c20 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %m = arith.muli %f1, %c7 : index
    %s = arith.addi %m, %c0 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<6x20xf32>
  %gemm_trans_b_b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %f1_s = arith.muli %i0, %c20 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %m = arith.muli %f1, %c11 : index
    %s = arith.addi %m, %c5 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 16.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<18x20xf32>
  %gemm_trans_b_c = tensor.generate {
  ^bb0(%i0: index):
    %m = arith.muli %i0, %c13 : index
    %s = arith.addi %m, %c10 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<18xf32>
  %gemm_trans_b_y = call @gemm_trans_b(%gemm_trans_b_a, %gemm_trans_b_b, %gemm_trans_b_c) : (tensor<6x20xf32>, tensor<18x20xf32>, tensor<18xf32>) -> tensor<6x18xf32>
  %gemm_trans_b_flat = tensor.collapse_shape %gemm_trans_b_y [[0, 1]] : tensor<6x18xf32> into tensor<108xf32>
  %gemm_trans_b_dyn = tensor.cast %gemm_trans_b_flat : tensor<108xf32> to tensor<?xf32>
  %gemm_trans_b_e1 = arith.constant 2.57421875 : f64
  %gemm_trans_b_e7 = arith.constant 3.05859375 : f64
  %gemm_trans_b_e13 = arith.constant -9.54296875 : f64
  %gemm_trans_b_bad = call @check(%gemm_trans_b_dyn, %gemm_trans_b_e1, %gemm_trans_b_e7, %gemm_trans_b_e13) : (tensor<?xf32>, f64, f64, f64) -> index
  vector.print str "gemm_trans_b: checksums differing from NumPy: "
  vector.print %gemm_trans_b_bad : index
  %gemm_trans_a_a = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %f1_s = arith.muli %i0, %c6 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %m = arith.muli %f1, %c2 : index
    %s = arith.addi %m, %c15 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<20x6xf32>
  %gemm_trans_a_b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %f1_s = arith.muli %i0, %c18 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %m = arith.muli %f1, %c4 : index
    %s = arith.addi %m, %c3 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 16.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<20x18xf32>
  %gemm_trans_a_y = call @gemm_trans_a(%gemm_trans_a_a, %gemm_trans_a_b) : (tensor<20x6xf32>, tensor<20x18xf32>) -> tensor<6x18xf32>
  %gemm_trans_a_flat = tensor.collapse_shape %gemm_trans_a_y [[0, 1]] : tensor<6x18xf32> into tensor<108xf32>
  %gemm_trans_a_dyn = tensor.cast %gemm_trans_a_flat : tensor<108xf32> to tensor<?xf32>
  %gemm_trans_a_e1 = arith.constant -0.734375 : f64
  %gemm_trans_a_e7 = arith.constant 48.8984375 : f64
  %gemm_trans_a_e13 = arith.constant 6.421875 : f64
  %gemm_trans_a_bad = call @check(%gemm_trans_a_dyn, %gemm_trans_a_e1, %gemm_trans_a_e7, %gemm_trans_a_e13) : (tensor<?xf32>, f64, f64, f64) -> index
  vector.print str "gemm_trans_a: checksums differing from NumPy: "
  vector.print %gemm_trans_a_bad : index
  %fused_conv_relu_x = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c8 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c16 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c16 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c6 : index
    %s = arith.addi %m, %c8 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<1x8x16x16xf32>
  %fused_conv_relu_w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c8 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c3 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c3 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c3 : index
    %s = arith.addi %m, %c13 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 16.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<16x8x3x3xf32>
  %fused_conv_relu_b = tensor.generate {
  ^bb0(%i0: index):
    %m = arith.muli %i0, %c5 : index
    %s = arith.addi %m, %c1 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<16xf32>
  %fused_conv_relu_y = call @fused_conv_relu(%fused_conv_relu_x, %fused_conv_relu_w, %fused_conv_relu_b) : (tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>, tensor<16xf32>) -> tensor<1x16x16x16xf32>
  %fused_conv_relu_flat = tensor.collapse_shape %fused_conv_relu_y [[0, 1, 2, 3]] : tensor<1x16x16x16xf32> into tensor<4096xf32>
  %fused_conv_relu_dyn = tensor.cast %fused_conv_relu_flat : tensor<4096xf32> to tensor<?xf32>
  %fused_conv_relu_e1 = arith.constant 1831.484375 : f64
  %fused_conv_relu_e7 = arith.constant 7296.6953125 : f64
  %fused_conv_relu_e13 = arith.constant 12851.5390625 : f64
  %fused_conv_relu_bad = call @check(%fused_conv_relu_dyn, %fused_conv_relu_e1, %fused_conv_relu_e7, %fused_conv_relu_e13) : (tensor<?xf32>, f64, f64, f64) -> index
  vector.print str "fused_conv_relu: checksums differing from NumPy: "
  vector.print %fused_conv_relu_bad : index
  %fused_matmul_add_a = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %f1_s = arith.muli %i0, %c16 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %m = arith.muli %f1, %c7 : index
    %s = arith.addi %m, %c6 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<12x16xf32>
  %fused_matmul_add_b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %f1_s = arith.muli %i0, %c32 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %m = arith.muli %f1, %c11 : index
    %s = arith.addi %m, %c11 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 16.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<16x32xf32>
  %fused_matmul_add_c = tensor.generate {
  ^bb0(%i0: index):
    %m = arith.muli %i0, %c13 : index
    %s = arith.addi %m, %c16 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<32xf32>
  %fused_matmul_add_y = call @fused_matmul_add(%fused_matmul_add_a, %fused_matmul_add_b, %fused_matmul_add_c) : (tensor<12x16xf32>, tensor<16x32xf32>, tensor<32xf32>) -> tensor<12x32xf32>
  %fused_matmul_add_flat = tensor.collapse_shape %fused_matmul_add_y [[0, 1]] : tensor<12x32xf32> into tensor<384xf32>
  %fused_matmul_add_dyn = tensor.cast %fused_matmul_add_flat : tensor<384xf32> to tensor<?xf32>
  %fused_matmul_add_e1 = arith.constant 10.1953125 : f64
  %fused_matmul_add_e7 = arith.constant 19.921875 : f64
  %fused_matmul_add_e13 = arith.constant 51.328125 : f64
  %fused_matmul_add_bad = call @check(%fused_matmul_add_dyn, %fused_matmul_add_e1, %fused_matmul_add_e7, %fused_matmul_add_e13) : (tensor<?xf32>, f64, f64, f64) -> index
  vector.print str "fused_matmul_add: checksums differing from NumPy: "
  vector.print %fused_matmul_add_bad : index
  %elementwise_x = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c16 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c9 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c20 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c2 : index
    %s = arith.addi %m, %c4 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<1x16x9x20xf32>
  %elementwise_s = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %f1_s = arith.muli %i0, %c16 : index
    %f1 = arith.addi %f1_s, %i1 : index
    %f2_s = arith.muli %f1, %c1 : index
    %f2 = arith.addi %f2_s, %i2 : index
    %f3_s = arith.muli %f2, %c1 : index
    %f3 = arith.addi %f3_s, %i3 : index
    %m = arith.muli %f3, %c4 : index
    %s = arith.addi %m, %c9 : index
    %r = arith.remui %s, %c17 : index
    %c = arith.subi %r, %c8 : index
    %ci = arith.index_cast %c : index to i32
    %v = arith.sitofp %ci : i32 to f32
    %den = arith.constant 8.0 : f32
    %q = arith.divf %v, %den : f32
    tensor.yield %q : f32
  } : tensor<1x16x1x1xf32>
  %elementwise_y = call @elementwise(%elementwise_x, %elementwise_s) : (tensor<1x16x9x20xf32>, tensor<1x16x1x1xf32>) -> tensor<1x16x9x20xf32>
  %elementwise_flat = tensor.collapse_shape %elementwise_y [[0, 1, 2, 3]] : tensor<1x16x9x20xf32> into tensor<2880xf32>
  %elementwise_dyn = tensor.cast %elementwise_flat : tensor<2880xf32> to tensor<?xf32>
  %elementwise_e1 = arith.constant 742.171875 : f64
  %elementwise_e7 = arith.constant 2942.953125 : f64
  %elementwise_e13 = arith.constant 5209.46875 : f64
  %elementwise_bad = call @check(%elementwise_dyn, %elementwise_e1, %elementwise_e7, %elementwise_e13) : (tensor<?xf32>, f64, f64, f64) -> index
  vector.print str "elementwise: checksums differing from NumPy: "
  vector.print %elementwise_bad : index
  return
}

// CHECK: conv_main: checksums differing from NumPy: 0
// CHECK: conv_stride2: checksums differing from NumPy: 0
// CHECK: conv_7x7_out: checksums differing from NumPy: 0
// CHECK: conv_1x1_stride2: checksums differing from NumPy: 0
// CHECK: conv_5x5_dilated: checksums differing from NumPy: 0
// CHECK: depthwise: checksums differing from NumPy: 0
// CHECK: depthwise_16x16: checksums differing from NumPy: 0
// CHECK: depthwise_48: checksums differing from NumPy: 0
// CHECK: depthwise_stride2: checksums differing from NumPy: 0
// CHECK: grouped: checksums differing from NumPy: 0
// CHECK: matmul_odd: checksums differing from NumPy: 0
// CHECK: matmul_tiles: checksums differing from NumPy: 0
// CHECK: matmul_mixed: checksums differing from NumPy: 0
// CHECK: gemm_trans_b: checksums differing from NumPy: 0
// CHECK: gemm_trans_a: checksums differing from NumPy: 0
// CHECK: fused_conv_relu: checksums differing from NumPy: 0
// CHECK: fused_matmul_add: checksums differing from NumPy: 0
// CHECK: elementwise: checksums differing from NumPy: 0
