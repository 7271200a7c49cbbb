// RUN: graph-opt %s --split-input-file --graph-lower-integer-matmul=target-cpu=cascadelake | FileCheck %s
// RUN: graph-opt %s --split-input-file --graph-lower-integer-matmul=target-cpu=haswell | FileCheck %s --check-prefix=AVX2
// RUN: graph-opt %s --split-input-file --graph-lower-integer-matmul=target-cpu=x86-64-v2 | FileCheck %s --check-prefix=SSE

// On AVX-512 VNNI, a product by constant int8 weights becomes an scf.forall
// over blocks of 8 rows of a (and one over the last rows, one at a time)
// whose loop over K / 4 adds, per row and vector of 16 columns, four
// u8 x s8 products per lane with vpdpbusd. The weights are packed at compile
// time: word [column vector][k / 4][column % 16] holds rows 4(k/4)..+3 of a
// column, here (1, 4, 7, 10) = 0x0A070401 and (13, 0, 0, 0), two vectors of
// columns (an even count, the kernel takes two at a time), and the column
// sums of b - b_zero_point are subtracted, times a's zero point, at the end.
// a's rows are packed into words once, before the blocks.
// AVX2 has no int8 dot product: pmaddwd adds two i16 x i16 products per
// lane, 8 lanes, two rows a word ((1, 4) = 0x00040001), blocks of 4 rows;
// the products are added.
// Below AVX2 the op is left to the generic lowering.
// CHECK-LABEL: func.func @packs
// CHECK:     %[[A:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<10x5xui8> to tensor<10x5xi8>
// CHECK:     arith.constant dense<{{\[\[\[}}168231937, 185074946, 201917955, 0, {{.*}}], [13, 14, 15, 0, {{.*}} : tensor<2x2x16xi32>
// CHECK:     arith.constant dense<[35, 40, 45, 0, {{.*}}]> : tensor<32xi32>
// CHECK:     arith.extui %{{.*}} : i8 to i32
// CHECK:     %[[WORDS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<10x2xi32>)
// CHECK:       tensor.extract %[[A]]
// CHECK:     scf.forall (%{{.*}}) in (1)
// CHECK:       tensor.extract %[[WORDS]]
// CHECK-COUNT-2: llvm.call @llvm.x86.avx512.vpdpbusd.512({{.*}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK:     scf.forall (%{{.*}}) in (2)
// CHECK:   llvm.func @llvm.x86.avx512.vpdpbusd.512(vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// AVX2-LABEL: func.func @packs
// AVX2:       arith.constant dense<{{\[\[\[}}262145, 327682, 393219, 0, {{.*}} : tensor<2x3x8xi32>
// AVX2:       scf.forall (%{{.*}}) in (2)
// AVX2:       %[[P:.*]] = llvm.call @llvm.x86.avx2.pmadd.wd({{.*}}) : (vector<16xi16>, vector<16xi16>) -> vector<8xi32>
// AVX2-NEXT:  arith.addi %{{.*}}, %[[P]] : vector<8xi32>
// AVX2:       llvm.func @llvm.x86.avx2.pmadd.wd(vector<16xi16>, vector<16xi16>) -> vector<8xi32>
// SSE-LABEL: func.func @packs
// SSE:       graph.matmul_integer
// SSE-NOT:   llvm.call
func.func @packs(%a: tensor<10x5xui8>, %az: tensor<ui8>) -> tensor<10x3xi32> {
  %b = graph.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12], [13, 14, 15]]> : tensor<5x3xi8>
  %bz = graph.constant dense<0> : tensor<i8>
  %0 = graph.matmul_integer %a, %b, %az, %bz : (tensor<10x5xui8>, tensor<5x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<10x3xi32>
  return %0 : tensor<10x3xi32>
}

// -----

// Signed activations are offset into u8 (xor 0x80), their zero point with
// them (+128).
// CHECK-LABEL: func.func @signed
// CHECK:     %[[Z:.*]] = arith.extsi %{{.*}} : i8 to i32
// CHECK:     arith.addi %[[Z]], %{{.*}} : i32
// CHECK:     arith.xori %{{.*}}, %{{.*}} : i8
// CHECK:     llvm.call @llvm.x86.avx512.vpdpbusd.512
func.func @signed(%a: tensor<8x4xi8>, %az: tensor<i8>) -> tensor<8x16xi32> {
  %b = graph.constant dense<-7> : tensor<4x16xi8>
  %bz = graph.constant dense<0> : tensor<i8>
  %0 = graph.matmul_integer %a, %b, %az, %bz : (tensor<8x4xi8>, tensor<4x16xi8>, tensor<i8>, tensor<i8>) -> tensor<8x16xi32>
  return %0 : tensor<8x16xi32>
}

// -----

// Left to the generic lowering: weights that leave i8 once centered (200),
// a zero point per row of a, weights computed at run time.
// CHECK-LABEL: func.func @wide_weights
// CHECK:       graph.matmul_integer
// CHECK-NOT:   llvm.call
func.func @wide_weights(%a: tensor<4x2xui8>, %az: tensor<ui8>) -> tensor<4x2xi32> {
  %b = graph.constant dense<200> : tensor<2x2xui8>
  %bz = graph.constant dense<0> : tensor<ui8>
  %0 = graph.matmul_integer %a, %b, %az, %bz : (tensor<4x2xui8>, tensor<2x2xui8>, tensor<ui8>, tensor<ui8>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

// CHECK-LABEL: func.func @row_zero_points
// CHECK:       graph.matmul_integer
// CHECK-NOT:   llvm.call
func.func @row_zero_points(%a: tensor<4x2xui8>, %az: tensor<4x1xui8>) -> tensor<4x2xi32> {
  %b = graph.constant dense<1> : tensor<2x2xi8>
  %bz = graph.constant dense<0> : tensor<i8>
  %0 = graph.matmul_integer %a, %b, %az, %bz : (tensor<4x2xui8>, tensor<2x2xi8>, tensor<4x1xui8>, tensor<i8>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

// CHECK-LABEL: func.func @runtime_weights
// CHECK:       graph.matmul_integer
// CHECK-NOT:   llvm.call
func.func @runtime_weights(%a: tensor<4x2xui8>, %b: tensor<2x2xi8>, %az: tensor<ui8>) -> tensor<4x2xi32> {
  %bz = graph.constant dense<0> : tensor<i8>
  %0 = graph.matmul_integer %a, %b, %az, %bz : (tensor<4x2xui8>, tensor<2x2xi8>, tensor<ui8>, tensor<i8>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

// A convolution by constant filters is an implicit GEMM on the same
// micro-kernel: rows are output pixels, K the channels of each kernel tap
// (3 x 3 taps of two words: 8 channels), the filters packed at compile time
// (column sums 72 = 3 x 3 x 8 ones). The input is padded once with its zero
// point (padding adds nothing); the kernel reads a word per row and tap in
// place, a loop over the taps around one over a tap's words. Blocks stay in
// one row of the output image: here the 5 pixels of each of its 5 rows;
// with pmaddwd (AVX2, input widened to i16 first) blocks of 4, then one of
// 1.
// CHECK-LABEL: func.func @conv_nhwc
// CHECK:       arith.constant dense<{{.*}}> : tensor<2x18x16xi32>
// CHECK:       arith.constant dense<[72, 72, 72, 72, 0, {{.*}}]> : tensor<32xi32>
// CHECK:       %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:       } : tensor<1x5x5x8xi8> to tensor<1x7x7x8xi8>
// CHECK:       scf.forall (%{{.*}}) in (5) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<1x5x5x4xi32>)
// CHECK:         tensor.extract_slice {{.*}} [1, 1, 5, 4] [1, 1, 1, 1] : tensor<1x5x5x4xi32> to tensor<5x4xi32>
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             vector.transfer_read %[[PAD]]{{.*}} : tensor<1x7x7x8xi8>, vector<4xi8>
// CHECK:             vector.bitcast %{{.*}} : vector<4xi8> to vector<1xi32>
// CHECK:             llvm.call @llvm.x86.avx512.vpdpbusd.512
// CHECK:         tensor.parallel_insert_slice {{.*}} [1, 1, 5, 4] [1, 1, 1, 1] : tensor<5x4xi32> into tensor<1x5x5x4xi32>
// CHECK-NOT:   scf.forall
// CHECK:       return
// AVX2-LABEL: func.func @conv_nhwc
// AVX2:       linalg.generic {{.*}} outs(%{{.*}} : tensor<1x5x5x8xi16>)
// AVX2:         arith.extui %{{.*}} : i8 to i16
// AVX2:       tensor.pad
// AVX2:       } : tensor<1x5x5x8xi16> to tensor<1x7x7x8xi16>
// AVX2:       scf.forall (%{{.*}}) in (5)
// AVX2:             vector.transfer_read {{.*}} : tensor<1x7x7x8xi16>, vector<2xi16>
// AVX2:             llvm.call @llvm.x86.avx2.pmadd.wd
// AVX2:       scf.forall (%{{.*}}) in (5)
// AVX2:         tensor.extract_slice {{.*}} [1, 1, 1, 4] [1, 1, 1, 1] : tensor<1x5x5x4xi32> to tensor<1x4xi32>
// SSE-LABEL: func.func @conv_nhwc
// SSE:       graph.conv_integer
func.func @conv_nhwc(%x: tensor<1x5x5x8xui8>, %xz: tensor<ui8>) -> tensor<1x5x5x4xi32> {
  %w = graph.constant dense<1> : tensor<3x3x8x4xi8>
  %wz = graph.constant dense<0> : tensor<i8>
  %0 = graph.conv_integer %x, %w, %xz, %wz {dilations = array<i64: 1, 1>, layout = #graph<layout NHWC>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x5x5x8xui8>, tensor<3x3x8x4xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x5x5x4xi32>
  return %0 : tensor<1x5x5x4xi32>
}

// -----

// With few channels (3, most of a word would pad), a tap is a whole row of
// the kernel: its 3 x 3 elements are consecutive in the input, read as
// three words from the padded input's rows (W and C collapsed, one more
// column on the right for the last word's overreach); 3 taps of 3 words.
// CHECK-LABEL: func.func @conv_few_channels
// CHECK:       arith.constant dense<{{.*}}> : tensor<2x9x16xi32>
// CHECK:       %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 2, 0]
// CHECK:       %[[ROWS:.*]] = tensor.collapse_shape %[[PAD]] {{\[\[}}0], [1], [2, 3]] : tensor<1x7x8x3xi8> into tensor<1x7x24xi8>
// CHECK:       scf.forall
// CHECK:             vector.transfer_read %[[ROWS]]{{.*}} : tensor<1x7x24xi8>, vector<4xi8>
// AVX2-LABEL: func.func @conv_few_channels
// AVX2:       tensor.collapse_shape {{.*}} : tensor<1x7x8x3xi16> into tensor<1x7x24xi16>
func.func @conv_few_channels(%x: tensor<1x5x5x3xui8>, %xz: tensor<ui8>) -> tensor<1x5x5x4xi32> {
  %w = graph.constant dense<1> : tensor<3x3x3x4xi8>
  %wz = graph.constant dense<0> : tensor<i8>
  %0 = graph.conv_integer %x, %w, %xz, %wz {dilations = array<i64: 1, 1>, layout = #graph<layout NHWC>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x5x5x3xui8>, tensor<3x3x3x4xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x5x5x4xi32>
  return %0 : tensor<1x5x5x4xi32>
}

// -----

// NCHW (a convolution graph-convert-layout left alone): the same kernel
// between transposes. Grouped convolutions stay generic.
// CHECK-LABEL: func.func @conv_nchw
// CHECK:       linalg.transpose ins(%{{.*}} : tensor<1x3x5x5xi8>) outs(%{{.*}} : tensor<1x5x5x3xi8>) permutation = [0, 2, 3, 1]
// CHECK:       llvm.call @llvm.x86.avx512.vpdpbusd.512
// CHECK:       linalg.transpose ins(%{{.*}} : tensor<1x5x5x4xi32>) outs(%{{.*}} : tensor<1x4x5x5xi32>) permutation = [0, 3, 1, 2]
// CHECK:       graph.conv_integer {{.*}}groups = 2
func.func @conv_nchw(%x: tensor<1x3x5x5xui8>, %xz: tensor<ui8>, %g: tensor<1x4x5x5xui8>) -> (tensor<1x4x5x5xi32>, tensor<1x4x5x5xi32>) {
  %w = graph.constant dense<1> : tensor<4x3x3x3xi8>
  %wg = graph.constant dense<1> : tensor<4x2x3x3xi8>
  %wz = graph.constant dense<0> : tensor<i8>
  %0 = graph.conv_integer %x, %w, %xz, %wz {dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x5x5xui8>, tensor<4x3x3x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x4x5x5xi32>
  %1 = graph.conv_integer %g, %wg, %xz, %wz {dilations = array<i64: 1, 1>, groups = 2 : i64, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x4x5x5xui8>, tensor<4x2x3x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x4x5x5xi32>
  return %0, %1 : tensor<1x4x5x5xi32>, tensor<1x4x5x5xi32>
}

// -----

// A fused group of an integer convolution and its epilogue is one kernel:
// each vector of sums is dequantized (sitofp, minus the zero point, times
// the scale per filter), the bias per filter added, Relu taken and the
// result quantized (round half to even, clamped by maxnumf/minnumf, to u8)
// in registers; bytes are stored. The i32 sums never reach memory.
// CHECK-LABEL: func.func @fused_epilogue
// CHECK-NOT:   graph.fused
// CHECK:       scf.forall
// CHECK:         llvm.call @llvm.x86.avx512.vpdpbusd.512
// CHECK:         arith.sitofp %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK:         arith.subf
// CHECK:         arith.mulf
// CHECK:         vector.transfer_read %{{.*}} : tensor<16xf32>, vector<16xf32>
// CHECK:         arith.addf
// CHECK:         arith.maximumf
// CHECK:         arith.divf
// CHECK:         math.roundeven
// CHECK:         arith.maxnumf
// CHECK:         arith.minnumf
// CHECK:         arith.fptoui %{{.*}} : vector<16xf32> to vector<16xi8>
// CHECK:         vector.transfer_write %{{.*}} : vector<16xi8>, tensor<4x16xi8>
// CHECK:       builtin.unrealized_conversion_cast %{{.*}} : tensor<1x4x4x16xi8> to tensor<1x4x4x16xui8>
// CHECK-NOT:   graph.
func.func @fused_epilogue(%x: tensor<1x4x4x8xui8>) -> tensor<1x4x4x16xui8> {
  %w = graph.constant dense<1> : tensor<1x1x8x16xi8>
  %z = graph.constant dense<3> : tensor<ui8>
  %wz = graph.constant dense<0> : tensor<i8>
  %s = graph.constant dense<0.5> : tensor<1x1x16xf32>
  %z32 = graph.constant dense<0> : tensor<i32>
  %b = graph.constant dense<0.25> : tensor<1x1x16xf32>
  %ys = graph.constant dense<0.1> : tensor<f32>
  %0 = graph.fused "conv_integer_dequantize_add_relu_quantize"(%x, %w, %z, %wz, %s, %z32, %b, %ys) : (tensor<1x4x4x8xui8>, tensor<1x1x8x16xi8>, tensor<ui8>, tensor<i8>, tensor<1x1x16xf32>, tensor<i32>, tensor<1x1x16xf32>, tensor<f32>) -> tensor<1x4x4x16xui8> {
  ^bb0(%a0: tensor<1x4x4x8xui8>, %a1: tensor<1x1x8x16xi8>, %a2: tensor<ui8>, %a3: tensor<i8>, %a4: tensor<1x1x16xf32>, %a5: tensor<i32>, %a6: tensor<1x1x16xf32>, %a7: tensor<f32>):
    %c = graph.conv_integer %a0, %a1, %a2, %a3 {dilations = array<i64: 1, 1>, layout = #graph<layout NHWC>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x4x8xui8>, tensor<1x1x8x16xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x4x4x16xi32>
    %d = graph.dequantize %c, %a4, %a5 : (tensor<1x4x4x16xi32>, tensor<1x1x16xf32>, tensor<i32>) -> tensor<1x4x4x16xf32>
    %e = graph.add %d, %a6 : (tensor<1x4x4x16xf32>, tensor<1x1x16xf32>) -> tensor<1x4x4x16xf32>
    %r = graph.relu %e : tensor<1x4x4x16xf32>
    %q = graph.quantize %r, %a7, %a2 : (tensor<1x4x4x16xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x4x16xui8>
    graph.yield %q : tensor<1x4x4x16xui8>
  }
  return %0 : tensor<1x4x4x16xui8>
}

// -----

// A result padded for the next kernel's window (graph-pad-in-producer,
// here with -inf for a max pool): the border alone is filled, then each
// block of a row of the image written at its place in the padded result.
// A group whose epilogue has an op the kernel does not apply in registers
// (sigmoid) is left to graph-lower-fused.
// CHECK-LABEL: func.func @padded_result
// CHECK:       %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK:       linalg.fill ins(%[[NEG]] : f32) outs(%{{.*}} : tensor<1x1x6x16xf32>)
// CHECK:       scf.forall (%{{.*}}) in (4) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<1x6x6x16xf32>)
// CHECK:         tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, 0] [1, 1, 4, 16] [1, 1, 1, 1] : tensor<4x16xf32> into tensor<1x6x6x16xf32>
// CHECK:       graph.fused "conv_integer_dequantize_sigmoid"
func.func @padded_result(%x: tensor<1x4x4x8xui8>) -> (tensor<1x6x6x16xf32>, tensor<1x4x4x16xf32>) {
  %w = graph.constant dense<1> : tensor<1x1x8x16xi8>
  %z = graph.constant dense<3> : tensor<ui8>
  %wz = graph.constant dense<0> : tensor<i8>
  %s = graph.constant dense<0.5> : tensor<f32>
  %z32 = graph.constant dense<0> : tensor<i32>
  %0 = graph.fused "conv_integer_dequantize"(%x, %w, %z, %wz, %s, %z32) : (tensor<1x4x4x8xui8>, tensor<1x1x8x16xi8>, tensor<ui8>, tensor<i8>, tensor<f32>, tensor<i32>) -> tensor<1x6x6x16xf32> {
  ^bb0(%a0: tensor<1x4x4x8xui8>, %a1: tensor<1x1x8x16xi8>, %a2: tensor<ui8>, %a3: tensor<i8>, %a4: tensor<f32>, %a5: tensor<i32>):
    %c = graph.conv_integer %a0, %a1, %a2, %a3 {dilations = array<i64: 1, 1>, layout = #graph<layout NHWC>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x4x8xui8>, tensor<1x1x8x16xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x4x4x16xi32>
    %d = graph.dequantize %c, %a4, %a5 : (tensor<1x4x4x16xi32>, tensor<f32>, tensor<i32>) -> tensor<1x4x4x16xf32>
    %inf = graph.constant dense<0xFF800000> : tensor<f32>
    %p = graph.pad %d, %inf {pads = array<i64: 0, 1, 1, 0, 0, 1, 1, 0>} : (tensor<1x4x4x16xf32>, tensor<f32>) -> tensor<1x6x6x16xf32>
    graph.yield %p : tensor<1x6x6x16xf32>
  }
  %1 = graph.fused "conv_integer_dequantize_sigmoid"(%x, %w, %z, %wz, %s, %z32) : (tensor<1x4x4x8xui8>, tensor<1x1x8x16xi8>, tensor<ui8>, tensor<i8>, tensor<f32>, tensor<i32>) -> tensor<1x4x4x16xf32> {
  ^bb0(%a0: tensor<1x4x4x8xui8>, %a1: tensor<1x1x8x16xi8>, %a2: tensor<ui8>, %a3: tensor<i8>, %a4: tensor<f32>, %a5: tensor<i32>):
    %c = graph.conv_integer %a0, %a1, %a2, %a3 {dilations = array<i64: 1, 1>, layout = #graph<layout NHWC>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x4x8xui8>, tensor<1x1x8x16xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x4x4x16xi32>
    %d = graph.dequantize %c, %a4, %a5 : (tensor<1x4x4x16xi32>, tensor<f32>, tensor<i32>) -> tensor<1x4x4x16xf32>
    %g = graph.sigmoid %d : tensor<1x4x4x16xf32>
    graph.yield %g : tensor<1x4x4x16xf32>
  }
  return %0, %1 : tensor<1x6x6x16xf32>, tensor<1x4x4x16xf32>
}
