// Register tiles and vector shapes chosen from the target description, one
// target per RUN line: AVX-512 (16 f32 lanes, 32 registers), AVX2 and AVX
// (8 lanes, 16 registers), SSE4.2 (4 lanes, 16 registers) and AArch64 NEON
// (4 lanes, 32 registers). The expected tiles follow from the rule in
// Vectorize.cpp (chooseRegisterTile): accumulators + one weight vector per
// column (+ one input vector for depthwise) + one broadcast must fit the
// register file; among tiles that divide the output, the most FMAs per load
// win, then the most accumulators.
// RUN: graph-opt %s --convert-graph-to-linalg --graph-vectorize="target-cpu=x86-64-v4" | FileCheck %s --check-prefix=AVX512
// RUN: graph-opt %s --convert-graph-to-linalg --graph-vectorize="target-cpu=haswell" | FileCheck %s --check-prefix=AVX2
// RUN: graph-opt %s --convert-graph-to-linalg --graph-vectorize="target-cpu=znver4 target-features=-avx512f" | FileCheck %s --check-prefix=AVX2
// RUN: graph-opt %s --convert-graph-to-linalg --graph-vectorize="target-cpu=sandybridge" | FileCheck %s --check-prefix=AVX2
// RUN: graph-opt %s --convert-graph-to-linalg --graph-vectorize="target-cpu=x86-64-v2" | FileCheck %s --check-prefix=SSE
// RUN: graph-opt %s --convert-graph-to-linalg --graph-vectorize="target-cpu=cortex-a76" | FileCheck %s --check-prefix=NEON
// RUN: not graph-opt %s --graph-vectorize="target-cpu=pentium9" 2>&1 | FileCheck %s --check-prefix=BADCPU
// RUN: not graph-opt %s --graph-vectorize="target-features=avx2" 2>&1 | FileCheck %s --check-prefix=BADFEATURE

// BADCPU: graph-vectorize: unknown target CPU 'pentium9'
// BADFEATURE: graph-vectorize: target feature 'avx2' must start with '+' (add) or '-' (remove)

// 3x3 convolution, 64 -> 64 channels, 56 output columns (NHWC inside).
// AVX-512: 4 rows x 64 lanes = 16 accumulators (4 x 4 + 4 + 1 = 21 of 32
//   registers; 16 FMAs per 8 loads beats 14 x 32's 28 per 16).
// AVX2/AVX: 2 x 32 = 8 accumulators (8 + 4 + 1 = 13 of 16; 8 x 32's 32
//   accumulators would spill).
// SSE4.2: 2 x 16 = 8 accumulators (8 + 4 + 1 = 13 of 16).
// On NEON, 4 x 16 = 16 accumulators (16 + 4 + 1 = 21 of 32).
// AVX512-LABEL: func.func @conv
// AVX512:         iter_args({{.*}}) -> (vector<1x4x64xf32>)
// AVX512:         vector.fma {{.*}} : vector<64xf32>
// AVX2-LABEL:   func.func @conv
// AVX2:           iter_args({{.*}}) -> (vector<1x2x32xf32>)
// AVX2:           vector.fma {{.*}} : vector<32xf32>
// SSE-LABEL:    func.func @conv
// SSE:            iter_args({{.*}}) -> (vector<1x2x16xf32>)
// SSE:            vector.fma {{.*}} : vector<16xf32>
// NEON-LABEL:   func.func @conv
// NEON:           iter_args({{.*}}) -> (vector<1x4x16xf32>)
// NEON:           vector.fma {{.*}} : vector<16xf32>
func.func @conv(%x: tensor<1x64x56x56xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %y = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32>
  return %y : tensor<1x64x56x56xf32>
}

// Depthwise 3x3 over 64 channels, the window unrolled in each tile: half
// the register file for accumulators, then the most pixels: AVX-512 8
// pixels x 32 channels (16 zmm), AVX2 and AVX 8 x 8 (8 ymm), SSE4.2 8 x 4,
// NEON 8 x 8 (16 q registers); 9 FMAs per accumulator.
// AVX512-LABEL: func.func @depthwise
// AVX512-COUNT-144: vector.fma {{.*}} : vector<16xf32>
// AVX2-LABEL:   func.func @depthwise
// AVX2-COUNT-72:  vector.fma {{.*}} : vector<8xf32>
// SSE-LABEL:    func.func @depthwise
// SSE-COUNT-72:   vector.fma {{.*}} : vector<4xf32>
// NEON-LABEL:   func.func @depthwise
// NEON-COUNT-144: vector.fma {{.*}} : vector<4xf32>
func.func @depthwise(%x: tensor<1x64x56x56xf32>, %w: tensor<64x1x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %y = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, groups = 64} : (tensor<1x64x56x56xf32>, tensor<64x1x3x3xf32>) -> tensor<1x64x56x56xf32>
  return %y : tensor<1x64x56x56xf32>
}

// Matmul 64 x 256 x 128: the same kernel as the convolution, rows of M.
// AVX512-LABEL: func.func @matmul
// AVX512:         iter_args({{.*}}) -> (vector<4x64xf32>)
// AVX2-LABEL:   func.func @matmul
// AVX2:           iter_args({{.*}}) -> (vector<2x32xf32>)
// SSE-LABEL:    func.func @matmul
// SSE:            iter_args({{.*}}) -> (vector<2x16xf32>)
// NEON-LABEL:   func.func @matmul
// NEON:           iter_args({{.*}}) -> (vector<4x16xf32>)
func.func @matmul(%a: tensor<64x256xf32>, %b: tensor<256x128xf32>) -> tensor<64x128xf32> {
  %y = graph.matmul %a, %b : (tensor<64x256xf32>, tensor<256x128xf32>) -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}

// Elementwise: four vectors per row.
// AVX512-LABEL: func.func @relu
// AVX512:         arith.maximumf {{.*}} : vector<64xf32>
// AVX2-LABEL:   func.func @relu
// AVX2:           arith.maximumf {{.*}} : vector<32xf32>
// SSE-LABEL:    func.func @relu
// SSE:            arith.maximumf {{.*}} : vector<16xf32>
// NEON-LABEL:   func.func @relu
// NEON:           arith.maximumf {{.*}} : vector<16xf32>
func.func @relu(%x: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %y = graph.relu %x : tensor<4x256xf32>
  return %y : tensor<4x256xf32>
}

// Transposes: square blocks of one vector's lanes.
// AVX512-LABEL: func.func @transpose
// AVX512:         vector.transfer_read {{.*}} : tensor<64x64xf32>, vector<16x16xf32>
// AVX2-LABEL:   func.func @transpose
// AVX2:           vector.transfer_read {{.*}} : tensor<64x64xf32>, vector<8x8xf32>
// SSE-LABEL:    func.func @transpose
// SSE:            vector.transfer_read {{.*}} : tensor<64x64xf32>, vector<4x4xf32>
// NEON-LABEL:   func.func @transpose
// NEON:           vector.transfer_read {{.*}} : tensor<64x64xf32>, vector<4x4xf32>
func.func @transpose(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %y = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}
