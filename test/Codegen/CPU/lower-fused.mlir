// The tiles follow the target's L2 (an eighth of it): pinned to an AVX-512
// CPU (1 MiB of L2 unless it is this machine) for the checks below, and to
// an AVX2 one (512 KiB) for the L2-512K prefix.
// RUN: graph-opt %s --convert-graph-to-linalg \
// RUN:   --graph-lower-fused="target-cpu=x86-64-v4" \
// RUN: | FileCheck %s --check-prefix=TILED
// RUN: graph-opt %s --convert-graph-to-linalg \
// RUN:   --graph-lower-fused="target-cpu=x86-64-v3" \
// RUN: | FileCheck %s --check-prefix=L2-512K
// Buffers as deallocation leaves them (plan-buffers=false: no arena views),
// each group as written (pad-in-producer=false: @padded_in_place's kernels
// keep their padding).
// RUN: graph-opt %s --graph-lower-to-llvm="target-cpu=x86-64-v4 plan-buffers=false pad-in-producer=false" \
// RUN:   --mlir-print-ir-after=convert-linalg-to-loops --mlir-print-ir-module-scope \
// RUN:   --mlir-disable-threading -o /dev/null 2>&1 \
// RUN: | FileCheck %s --check-prefix=BUFFERS

// A conv2d -> batch_norm -> relu group is one kernel: tiled by output rows,
// with the convolution, its input transpose and padding, the batch norm and
// the relu computed tile by tile. No intermediate of the group ever exists at
// its full size: not the NHWC convolution result (1x40x36x16), not its NCHW
// transpose or the batch norm result (1x16x40x36, the shape of the group's
// result, which lives only in the caller's out-parameter), not the input in
// NHWC (1x40x36x4) or padded (1x42x38x4).

// TILED-LABEL: func.func @conv_bn_relu
// TILED-NOT: graph.fused
// TILED-NOT: tensor<1x40x36x16xf32>
// TILED-NOT: tensor<1x40x36x4xf32>
// TILED-NOT: tensor<1x42x38x4xf32>
// The result is built by inserting the tiles into the destination; with
// this much work (1.8M multiply-adds) the tiles are the independent
// iterations of an scf.forall, which the threads share.
// TILED: %[[INIT:.*]] = tensor.empty() : tensor<1x16x40x36xf32>
// TILED: scf.forall {{.*}} shared_outs(%[[ACC:.*]] = %[[INIT]]) -> (tensor<1x16x40x36xf32>)
// TILED-NOT: tensor<1x40x36x16xf32>
// TILED: linalg.transpose ins(%{{.*}} : tensor<1x4x?x36xf32>) outs(%{{.*}} : tensor<1x?x36x4xf32>)
// TILED: tensor.pad
// TILED: linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x20x36x16xf32>
// TILED: linalg.transpose ins(%{{.*}} : tensor<1x20x36x16xf32>) outs(%{{.*}} : tensor<1x16x20x36xf32>)
// The epilogue (batch norm, relu) is one generic.
// TILED: linalg.generic
// TILED: math.sqrt
// TILED-NOT: linalg.generic
// TILED: arith.maximumf
// TILED: } -> tensor<1x16x20x36xf32>
// TILED: tensor.parallel_insert_slice {{.*}} into %[[ACC]]
// TILED-NOT: tensor<1x40x36x16xf32>
// TILED: return

// Bufferized: the group is a kernel function; the only buffer of the
// result's shape is the out-parameter, which the model passes on to it.
// BUFFERS-LABEL: func.func private @conv_bn_relu_kernel0_conv2d_batch_norm_relu
// BUFFERS-SAME: %{{.*}}: memref<1x16x40x36xf32>)
// BUFFERS-NOT: memref.alloc{{.*}}memref<1x16x40x36xf32>
// BUFFERS-NOT: memref.alloc{{.*}}memref<1x40x36x16xf32>
// BUFFERS-NOT: memref.alloc{{.*}}memref<1x40x36x4xf32>
// BUFFERS-NOT: memref.alloc{{.*}}memref<1x42x38x4xf32>
// BUFFERS: return
// BUFFERS-LABEL: func.func @conv_bn_relu(
// BUFFERS-SAME: %[[OUT:[^:]*]]: memref<1x16x40x36xf32>)
// BUFFERS-NOT: memref.alloc
// BUFFERS: call @conv_bn_relu_kernel0_conv2d_batch_norm_relu({{.*}}, %[[OUT]])
// BUFFERS-NOT: memref.alloc
// BUFFERS: return
func.func @conv_bn_relu(%x: tensor<1x4x40x36xf32>, %w: tensor<16x4x3x3xf32>,
    %s: tensor<16xf32>, %b: tensor<16xf32>, %m: tensor<16xf32>,
    %v: tensor<16xf32>) -> tensor<1x16x40x36xf32> {
  %0 = graph.fused "conv2d_batch_norm_relu" (%x, %w, %s, %b, %m, %v) : (tensor<1x4x40x36xf32>, tensor<16x4x3x3xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x16x40x36xf32> {
  ^bb0(%a0: tensor<1x4x40x36xf32>, %a1: tensor<16x4x3x3xf32>, %a2: tensor<16xf32>, %a3: tensor<16xf32>, %a4: tensor<16xf32>, %a5: tensor<16xf32>):
    %1 = graph.conv2d %a0, %a1 {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x4x40x36xf32>, tensor<16x4x3x3xf32>) -> tensor<1x16x40x36xf32>
    %2 = graph.batch_norm %1, %a2, %a3, %a4, %a5 : (tensor<1x16x40x36xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x16x40x36xf32>
    %3 = graph.relu %2 : tensor<1x16x40x36xf32>
    graph.yield %3 : tensor<1x16x40x36xf32>
  }
  return %0 : tensor<1x16x40x36xf32>
}

// The same ops unfused materialize the convolution result whole: what the
// checks above rule out does happen without graph.fused. Each op is a
// kernel, and the model passes whole intermediates between them.
// TILED-LABEL: func.func @unfused
// TILED: linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x40x36x16xf32>
// BUFFERS-LABEL: func.func private @unfused_kernel0_conv2d
// BUFFERS: memref.alloc{{.*}}memref<1x40x36x16xf32>
// BUFFERS-LABEL: func.func @unfused(
// BUFFERS: memref.alloc() : memref<1x16x40x36xf32>
// BUFFERS: call @unfused_kernel0_conv2d
// BUFFERS: memref.alloc() : memref<1x16x40x36xf32>
// BUFFERS: call @unfused_kernel1_batch_norm
// BUFFERS: call @unfused_kernel2_relu
func.func @unfused(%x: tensor<1x4x40x36xf32>, %w: tensor<16x4x3x3xf32>,
    %s: tensor<16xf32>, %b: tensor<16xf32>, %m: tensor<16xf32>,
    %v: tensor<16xf32>) -> tensor<1x16x40x36xf32> {
  %1 = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x4x40x36xf32>, tensor<16x4x3x3xf32>) -> tensor<1x16x40x36xf32>
  %2 = graph.batch_norm %1, %s, %b, %m, %v : (tensor<1x16x40x36xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x16x40x36xf32>
  %3 = graph.relu %2 : tensor<1x16x40x36xf32>
  return %3 : tensor<1x16x40x36xf32>
}

// A matmul group is tiled by rows: each tile multiplies a slice of rows of
// %a by the whole of %b and adds the bias, into the result's rows.
// TILED-LABEL: func.func @matmul_add
// TILED-SAME: %[[A:[^:]*]]: tensor<12x16xf32>, %[[B:[^:]*]]: tensor<16x32xf32>
// TILED: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<12x32xf32>)
// TILED: %[[ROWS:.*]] = tensor.extract_slice %[[A]][%[[I]], 0] [6, 16] [1, 1]
// TILED: linalg.fill {{.*}} -> tensor<6x32xf32>
// TILED: linalg.matmul ins(%[[ROWS]], %[[B]] : tensor<6x16xf32>, tensor<16x32xf32>) {{.*}} -> tensor<6x32xf32>
// TILED: linalg.generic
// TILED: arith.addf
// TILED: tensor.insert_slice {{.*}} into %[[ACC]][%[[I]], 0] [6, 32] [1, 1]
// TILED: return
func.func @matmul_add(%a: tensor<12x16xf32>, %b: tensor<16x32xf32>, %c: tensor<32xf32>) -> tensor<12x32xf32> {
  %y = graph.fused "matmul_add" (%a, %b, %c) : (tensor<12x16xf32>, tensor<16x32xf32>, tensor<32xf32>) -> tensor<12x32xf32> {
  ^bb0(%a0: tensor<12x16xf32>, %a1: tensor<16x32xf32>, %a2: tensor<32xf32>):
    %0 = graph.matmul %a0, %a1 : (tensor<12x16xf32>, tensor<16x32xf32>) -> tensor<12x32xf32>
    %1 = graph.add %0, %a2 : (tensor<12x32xf32>, tensor<32xf32>) -> tensor<12x32xf32>
    graph.yield %1 : tensor<12x32xf32>
  }
  return %y : tensor<12x32xf32>
}

// A squeeze-excitation's gate: the sigmoid of 8 channel scales is computed
// once, 8 exps, and the product reads it broadcast; merged into the product
// it would be computed again for each of the 64 x 64 pixels. It is computed
// before the tile loops, not in each tile.
// TILED-LABEL: func.func @broadcast_producer_not_merged
// TILED: %[[GATE:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x8x1x1xf32>)
// TILED: math.exp
// TILED: scf.for
// TILED: linalg.generic {{.*}} ins(%[[GATE]], %{{.*}} : tensor<1x8x1x1xf32>, tensor<1x8x{{[0-9]+}}x64xf32>)
// TILED-NOT: math.exp
// TILED: arith.mulf
// TILED: return
func.func @broadcast_producer_not_merged(%s: tensor<1x8x1x1xf32>, %x: tensor<1x8x64x64xf32>) -> tensor<1x8x64x64xf32> {
  %y = graph.fused "sigmoid_mul" (%s, %x) : (tensor<1x8x1x1xf32>, tensor<1x8x64x64xf32>) -> tensor<1x8x64x64xf32> {
  ^bb0(%a0: tensor<1x8x1x1xf32>, %a1: tensor<1x8x64x64xf32>):
    %0 = graph.sigmoid %a0 : tensor<1x8x1x1xf32>
    %1 = graph.mul %0, %a1 : (tensor<1x8x1x1xf32>, tensor<1x8x64x64xf32>) -> tensor<1x8x64x64xf32>
    graph.yield %1 : tensor<1x8x64x64xf32>
  }
  return %y : tensor<1x8x64x64xf32>
}

// A body that yields its own block arguments (an identity, here next to a
// computed result): each result stands for the operand passed in, not for the
// block argument, which dies with the inlined body.
// TILED-LABEL: func.func @yields_block_argument
// TILED-SAME: (%[[X:[^:]*]]: tensor<2x3xf32>, %[[Y:[^:]*]]: tensor<2x3xf32>)
// TILED: %[[R:.*]] = linalg.generic
// TILED: arith.maximumf
// TILED: return %[[Y]], %[[X]], %[[R]]
// The identities become copies into the out-parameters.
// BUFFERS-LABEL: func.func private @yields_block_argument_kernel0_identity
// BUFFERS-SAME: (%[[X:[^:]*]]: memref<2x3xf32>, %[[Y:[^:]*]]: memref<2x3xf32>, %[[O0:[^:]*]]: memref<2x3xf32>, %[[O1:[^:]*]]: memref<2x3xf32>, %[[O2:[^:]*]]: memref<2x3xf32>)
// BUFFERS-DAG: memref.copy %[[Y]], %[[O0]]
// BUFFERS-DAG: memref.copy %[[X]], %[[O1]]
// BUFFERS: return
func.func @yields_block_argument(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0:3 = graph.fused "identity" (%x, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  ^bb0(%a0: tensor<2x3xf32>, %a1: tensor<2x3xf32>):
    %1 = graph.relu %a0 : tensor<2x3xf32>
    graph.yield %a1, %a0, %1 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
  }
  return %0#0, %0#1, %0#2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// A yielded transpose of a constant (the relu folded while converting to
// linalg) is folded at compile time: the result is the permuted constant,
// not the transpose that folding erased (found by fuzz/random_graphs.py: a
// use after free).
// TILED-LABEL: func.func @yields_constant_transpose
// TILED: %[[C:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00], [2.000000e+00, 5.000000e+00], [0.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// TILED-NOT: linalg.transpose
// TILED: return %[[C]]
// BUFFERS-LABEL: func.func private @yields_constant_transpose_kernel0_k
// BUFFERS: memref.copy
func.func @yields_constant_transpose(%x: tensor<2xf32>) -> tensor<3x2xf32> {
  %0 = graph.fused "k" (%x) : (tensor<2xf32>) -> tensor<3x2xf32> {
  ^bb0(%a: tensor<2xf32>):
    %c = graph.constant dense<[[1.0, 2.0, -3.0], [-4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %r = graph.relu %c : tensor<2x3xf32>
    %t = graph.transpose %r {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
    graph.yield %t : tensor<3x2xf32>
  }
  return %0 : tensor<3x2xf32>
}

// An NHWC group (graph-convert-layout's) is tiled by rows too, here
// [1, 1, 7, 64]: whole rows, every channel, so that the convolution's
// register tiles run along the row; no transpose anywhere.
// TILED-LABEL: func.func @nhwc_rows
// TILED-NOT: linalg.transpose
// TILED: scf.forall {{.*}} -> (tensor<1x7x7x64xf32>)
// TILED: linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x1x7x64xf32>
// TILED-NOT: linalg.transpose
// TILED: return
func.func @nhwc_rows(%x: tensor<1x7x7x32xf32>, %w: tensor<3x3x32x64xf32>) -> tensor<1x7x7x64xf32> {
  %0 = graph.fused "conv2d_relu" (%x, %w) : (tensor<1x7x7x32xf32>, tensor<3x3x32x64xf32>) -> tensor<1x7x7x64xf32> {
  ^bb0(%a0: tensor<1x7x7x32xf32>, %a1: tensor<3x3x32x64xf32>):
    %1 = graph.conv2d %a0, %a1 {layout = #graph<layout NHWC>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x7x7x32xf32>, tensor<3x3x32x64xf32>) -> tensor<1x7x7x64xf32>
    %2 = graph.relu %1 : tensor<1x7x7x64xf32>
    graph.yield %2 : tensor<1x7x7x64xf32>
  }
  return %0 : tensor<1x7x7x64xf32>
}

// The padded input of an NHWC convolution is padded whole, not tile by tile:
// a buffer whose border alone is filled with zeros (a slab per side: rows 0
// and 13 whole, then columns 0 and 11 of the rows between; the interior is
// never filled, the input is written there), the input written into its
// interior once, and
// the tiles read their windows, padding included, from it in place. Within
// one function (graph-lower-fused alone) the input's producer, the first
// group, writes straight into the interior. In graph-lower-to-llvm each
// group is a kernel function of its own, so the second kernel copies its
// input into its padded buffer once, before its tile loops (unless
// graph-pad-in-producer gives the first kernel a padded result, as in
// @padded_result below).
// TILED-LABEL: func.func @padded_in_place
// TILED-NOT: linalg.fill {{.*}} -> tensor<1x14x12x8xf32>
// TILED: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0, 0] [1, 1, 12, 8]
// TILED: tensor.insert_slice %{{.*}} into %{{.*}}[0, 13, 0, 0] [1, 1, 12, 8]
// TILED: tensor.insert_slice %{{.*}} into %{{.*}}[0, 1, 0, 0] [1, 12, 1, 8]
// TILED: %[[BORDER:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 1, 11, 0] [1, 12, 1, 8]
// TILED-NOT: linalg.fill {{.*}} -> tensor<1x14x12x8xf32>
// TILED: %[[FIRST:.*]] = scf.for
// TILED: %[[PADDED:.*]] = tensor.insert_slice %[[FIRST]] into %[[BORDER]][0, 1, 1, 0] [1, 12, 10, 8] [1, 1, 1, 1]
// TILED-NOT: tensor.pad
// TILED: scf.for
// TILED: tensor.extract_slice %[[PADDED]]
// TILED-NOT: tensor.pad
// TILED: return
// BUFFERS-LABEL: func.func private @padded_in_place_kernel1_conv2d_relu
// BUFFERS-NOT: scf.for
// BUFFERS: %[[PADDED:.*]] = memref.alloc(){{.*}}memref<1x14x12x8xf32>
// BUFFERS-NOT: memref.alloc{{.*}}memref<1x14x12x8xf32>
// BUFFERS: vector.transfer_read %[[PADDED]]
// BUFFERS-NOT: memref.alloc{{.*}}memref<1x14x12x8xf32>
// BUFFERS: return
func.func @padded_in_place(%x: tensor<1x12x10x4xf32>, %w1: tensor<1x1x4x8xf32>, %w2: tensor<3x3x1x8xf32>) -> tensor<1x12x10x8xf32> {
  %0 = graph.fused "conv2d_relu" (%x, %w1) : (tensor<1x12x10x4xf32>, tensor<1x1x4x8xf32>) -> tensor<1x12x10x8xf32> {
  ^bb0(%a0: tensor<1x12x10x4xf32>, %a1: tensor<1x1x4x8xf32>):
    %1 = graph.conv2d %a0, %a1 {layout = #graph<layout NHWC>} : (tensor<1x12x10x4xf32>, tensor<1x1x4x8xf32>) -> tensor<1x12x10x8xf32>
    %2 = graph.relu %1 : tensor<1x12x10x8xf32>
    graph.yield %2 : tensor<1x12x10x8xf32>
  }
  %3 = graph.fused "conv2d_relu" (%0, %w2) : (tensor<1x12x10x8xf32>, tensor<3x3x1x8xf32>) -> tensor<1x12x10x8xf32> {
  ^bb0(%a0: tensor<1x12x10x8xf32>, %a1: tensor<3x3x1x8xf32>):
    %4 = graph.conv2d %a0, %a1 {layout = #graph<layout NHWC>, groups = 8, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x12x10x8xf32>, tensor<3x3x1x8xf32>) -> tensor<1x12x10x8xf32>
    %5 = graph.relu %4 : tensor<1x12x10x8xf32>
    graph.yield %5 : tensor<1x12x10x8xf32>
  }
  return %3 : tensor<1x12x10x8xf32>
}

// 56 rows of 64 channels x 56 columns (14 KiB a row): 128 KiB tiles take 8
// rows (the largest divisor of 56 within 9), 64 KiB ones 4.
// TILED-LABEL: func.func @tile_rows_follow_l2
// TILED: scf.forall ({{.*}}) = (0) to (56) step (8)
// TILED: linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x8x56x64xf32>
// L2-512K-LABEL: func.func @tile_rows_follow_l2
// L2-512K: scf.forall ({{.*}}) = (0) to (56) step (4)
// L2-512K: linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x4x56x64xf32>
func.func @tile_rows_follow_l2(%x: tensor<1x64x56x56xf32>, %w: tensor<64x64x1x1xf32>) -> tensor<1x64x56x56xf32> {
  %0 = graph.fused "conv2d_relu" (%x, %w) : (tensor<1x64x56x56xf32>, tensor<64x64x1x1xf32>) -> tensor<1x64x56x56xf32> {
  ^bb0(%a0: tensor<1x64x56x56xf32>, %a1: tensor<64x64x1x1xf32>):
    %1 = graph.conv2d %a0, %a1 : (tensor<1x64x56x56xf32>, tensor<64x64x1x1xf32>) -> tensor<1x64x56x56xf32>
    %2 = graph.relu %1 : tensor<1x64x56x56xf32>
    graph.yield %2 : tensor<1x64x56x56xf32>
  }
  return %0 : tensor<1x64x56x56xf32>
}

// Few rows and many channels (ResNet-18's last stage): two tiles of half the
// channels, not seven 1-row tiles that would each read every weight again;
// also where the whole result outgrows the tile budget (AVX2's 512 KiB L2:
// 64 KiB tiles, the result is 98 KiB), which gave 1-row tiles before.
// TILED-LABEL: func.func @few_rows_split_channels
// TILED: scf.forall ({{.*}}) = (0) to (512) step (256)
// TILED: linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x7x7x256xf32>
// L2-512K-LABEL: func.func @few_rows_split_channels
// L2-512K: scf.forall ({{.*}}) = (0) to (512) step (256)
// L2-512K: linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x7x7x256xf32>
func.func @few_rows_split_channels(%x: tensor<1x7x7x512xf32>, %w: tensor<3x3x512x512xf32>) -> tensor<1x7x7x512xf32> {
  %0 = graph.fused "conv2d_relu" (%x, %w) : (tensor<1x7x7x512xf32>, tensor<3x3x512x512xf32>) -> tensor<1x7x7x512xf32> {
  ^bb0(%a0: tensor<1x7x7x512xf32>, %a1: tensor<3x3x512x512xf32>):
    %1 = graph.conv2d %a0, %a1 {layout = #graph<layout NHWC>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x7x7x512xf32>, tensor<3x3x512x512xf32>) -> tensor<1x7x7x512xf32>
    %2 = graph.relu %1 : tensor<1x7x7x512xf32>
    graph.yield %2 : tensor<1x7x7x512xf32>
  }
  return %0 : tensor<1x7x7x512xf32>
}

// A group whose result is padded for the next kernel's convolution
// (graph-fuse's pad-in-producer): the border of a buffer made before the
// group is filled, the tile loops compute the interior, inserted there, and
// no tensor.pad copies it. The kernel writes into its padded out-parameter:
// no buffer of the unpadded result nor a second padded one.
// TILED-LABEL: func.func @padded_result
// TILED: %[[BUF:.*]] = bufferization.alloc_tensor() : tensor<1x14x12x8xf32>
// TILED: %[[BORDER:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 1, 11, 0] [1, 12, 1, 8]
// TILED-NOT: tensor.pad
// TILED: %[[TILES:.*]] = scf.for
// TILED: %[[PADDED:.*]] = tensor.insert_slice %[[TILES]] into %[[BORDER]][0, 1, 1, 0] [1, 12, 10, 8] [1, 1, 1, 1]
// TILED-NEXT: return %[[PADDED]]
// BUFFERS-LABEL: func.func private @padded_result_kernel0_conv2d_relu_pad
// BUFFERS-SAME: memref<1x14x12x8xf32>)
// BUFFERS-NOT: memref.alloc(){{.*}}memref<1x12x10x8xf32>
// BUFFERS-NOT: memref.alloc(){{.*}}memref<1x14x12x8xf32>
// BUFFERS: return
func.func @padded_result(%x: tensor<1x12x10x4xf32>, %w: tensor<1x1x4x8xf32>) -> tensor<1x14x12x8xf32> {
  %0 = graph.fused "conv2d_relu_pad" (%x, %w) : (tensor<1x12x10x4xf32>, tensor<1x1x4x8xf32>) -> tensor<1x14x12x8xf32> {
  ^bb0(%a0: tensor<1x12x10x4xf32>, %a1: tensor<1x1x4x8xf32>):
    %1 = graph.conv2d %a0, %a1 {layout = #graph<layout NHWC>} : (tensor<1x12x10x4xf32>, tensor<1x1x4x8xf32>) -> tensor<1x12x10x8xf32>
    %2 = graph.relu %1 : tensor<1x12x10x8xf32>
    %3 = graph.pad %2 {pads = array<i64: 0, 1, 1, 0, 0, 1, 1, 0>} : (tensor<1x12x10x8xf32>) -> tensor<1x14x12x8xf32>
    graph.yield %3 : tensor<1x14x12x8xf32>
  }
  return %0 : tensor<1x14x12x8xf32>
}

// The same over the panels of packed weights: padded on the panels, then
// viewed without them, so that the tile loops write the buffer in place.
// TILED-LABEL: func.func @padded_panels
// TILED: bufferization.alloc_tensor() : tensor<1x14x12x2x16xf32>
// TILED: %[[BORDER:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 1, 11, 0, 0] [1, 12, 1, 2, 16]
// TILED-NOT: tensor.pad
// TILED: %[[TILES:.*]] = scf.for {{.*}} -> (tensor<1x12x10x2x16xf32>)
// TILED: %[[PADDED:.*]] = tensor.insert_slice %[[TILES]] into %[[BORDER]][0, 1, 1, 0, 0] [1, 12, 10, 2, 16]
// TILED-NEXT: %[[VIEW:.*]] = tensor.collapse_shape %[[PADDED]] {{\[}}[0], [1], [2], [3, 4]]
// TILED-NEXT: return %[[VIEW]]
// BUFFERS-LABEL: func.func private @padded_panels_kernel0_conv2d_relu_pad
// BUFFERS-NOT: memref.alloc(){{.*}}memref<1x12x10x2x16xf32>
// BUFFERS-NOT: memref.alloc(){{.*}}memref<1x14x12x2x16xf32>
// BUFFERS: return
func.func @padded_panels(%x: tensor<1x12x10x4xf32>, %w: tensor<2x1x1x4x16xf32>) -> tensor<1x14x12x32xf32> {
  %0 = graph.fused "conv2d_relu_pad" (%x, %w) : (tensor<1x12x10x4xf32>, tensor<2x1x1x4x16xf32>) -> tensor<1x14x12x32xf32> {
  ^bb0(%a0: tensor<1x12x10x4xf32>, %a1: tensor<2x1x1x4x16xf32>):
    %1 = graph.conv2d %a0, %a1 {layout = #graph<layout NHWC>, packed_weight} : (tensor<1x12x10x4xf32>, tensor<2x1x1x4x16xf32>) -> tensor<1x12x10x32xf32>
    %2 = graph.relu %1 : tensor<1x12x10x32xf32>
    %3 = graph.pad %2 {pads = array<i64: 0, 1, 1, 0, 0, 1, 1, 0>} : (tensor<1x12x10x32xf32>) -> tensor<1x14x12x32xf32>
    graph.yield %3 : tensor<1x14x12x32xf32>
  }
  return %0 : tensor<1x14x12x32xf32>
}

// A result padded for a max pooling: the border holds -inf, graph.pad's
// rank-0 value, found through the tensor.extract the lowering reads it with.
// TILED-LABEL: func.func @padded_result_neg_inf
// TILED-DAG: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// TILED-DAG: bufferization.alloc_tensor() : tensor<1x14x12x8xf32>
// TILED: linalg.fill ins(%[[NEG]] : f32)
// TILED-NOT: tensor.pad
// TILED: %[[TILES:.*]] = scf.for
// TILED: tensor.insert_slice %[[TILES]] into %{{.*}}[0, 1, 1, 0] [1, 12, 10, 8] [1, 1, 1, 1]
// TILED-NOT: tensor.pad
// TILED: return
func.func @padded_result_neg_inf(%x: tensor<1x12x10x4xf32>, %w: tensor<1x1x4x8xf32>) -> tensor<1x14x12x8xf32> {
  %0 = graph.fused "conv2d_relu" (%x, %w) : (tensor<1x12x10x4xf32>, tensor<1x1x4x8xf32>) -> tensor<1x14x12x8xf32> {
  ^bb0(%a0: tensor<1x12x10x4xf32>, %a1: tensor<1x1x4x8xf32>):
    %1 = graph.conv2d %a0, %a1 {layout = #graph<layout NHWC>} : (tensor<1x12x10x4xf32>, tensor<1x1x4x8xf32>) -> tensor<1x12x10x8xf32>
    %2 = graph.relu %1 : tensor<1x12x10x8xf32>
    %neg = graph.constant dense<0xFF800000> : tensor<f32>
    %3 = graph.pad %2, %neg {pads = array<i64: 0, 1, 1, 0, 0, 1, 1, 0>} : (tensor<1x12x10x8xf32>, tensor<f32>) -> tensor<1x14x12x8xf32>
    graph.yield %3 : tensor<1x14x12x8xf32>
  }
  return %0 : tensor<1x14x12x8xf32>
}
