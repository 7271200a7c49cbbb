// graph-pack-weights on convolutions: constant weights of a conv2d of one
// group packed into F/f0 x KH x KW x C x f0 panels, from FCHW (NCHW convs)
// and from HWCF (NHWC ones), f0 and the register tile chosen for the pinned
// target; a second run changes nothing; grouped and depthwise convs, and
// weights that are not constants, stay as they are.
// RUN: graph-opt %s --graph-pack-weights=target-cpu=x86-64-v3 | FileCheck %s --check-prefixes=CHECK,AVX2
// RUN: graph-opt %s --graph-pack-weights=target-cpu=x86-64-v4 | FileCheck %s --check-prefixes=CHECK,AVX512
// RUN: graph-opt %s --graph-pack-weights=target-cpu=x86-64-v2 | FileCheck %s --check-prefixes=CHECK,SSE
// RUN: graph-opt %s --graph-pack-weights=target-cpu=neoverse-n1 | FileCheck %s --check-prefixes=CHECK,NEON
// RUN: graph-opt %s --graph-pack-weights=target-cpu=x86-64-v3 --graph-pack-weights=target-cpu=x86-64-v3 | FileCheck %s --check-prefixes=CHECK,AVX2
// RUN: graph-opt %s --graph-print-kernel-config=target-cpu=x86-64-v3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONFIG-AVX2
// RUN: graph-opt %s --graph-print-kernel-config=target-cpu=x86-64-v4 -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONFIG-AVX512
// RUN: graph-opt %s --graph-optimize=opt-level=1 | FileCheck %s --check-prefix=O1
// RUN: graph-opt %s --graph-optimize="opt-level=2 target-cpu=x86-64-v3" --graph-report=json=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// O1-NOT: packed_weight
// REPORT: "packed_weights":{"count":5,

// CONFIG-AVX2: graph.conv2d 4x4x4 at {{.*}}: f0=4 tile=2x4x4 k=2
// CONFIG-AVX2: graph.conv2d 2x2x12 at {{.*}}: f0=4 tile=2x2x4 k=2
// CONFIG-AVX2: graph.conv2d 7x7x512 at {{.*}}: f0=8 tile=2x7x8 k=8
// CONFIG-AVX2: graph.conv2d 14x14x256 at {{.*}}: f0=32 tile=1x2x32 k=8
// CONFIG-AVX2: graph.conv2d 56x56x64 at {{.*}}: f0=32 tile=1x2x32 k=8
// CONFIG-AVX512: graph.conv2d 7x7x512 at {{.*}}: f0=32 tile=2x7x32 k=8
// CONFIG-AVX512: graph.conv2d 14x14x256 at {{.*}}: f0=32 tile=1x14x32 k=8
// CONFIG-AVX512: graph.conv2d 56x56x64 at {{.*}}: f0=32 tile=1x14x32 k=8

// NCHW, FCHW weights: packed[0][0][0][c][l] = w[l][c][0][0].
// CHECK-LABEL: func.func @nchw
// CHECK: %[[P:.*]] = graph.constant dense<{{\[\[\[\[\[}}0.000000e+00, 2.000000e+00, 4.000000e+00, 6.000000e+00], [1.000000e+00, 3.000000e+00, 5.000000e+00, 7.000000e+00]]]]]> : tensor<1x1x1x2x4xf32>
// CHECK: graph.conv2d %{{.*}}, %[[P]] {packed_weight} : (tensor<1x2x4x4xf32>, tensor<1x1x1x2x4xf32>) -> tensor<1x4x4x4xf32>
func.func @nchw(%x: tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = graph.constant dense<[[[[0.0]], [[1.0]]], [[[2.0]], [[3.0]]], [[[4.0]], [[5.0]]], [[[6.0]], [[7.0]]]]> : tensor<4x2x1x1xf32>
  %y = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x4x4xf32>
  return %y : tensor<1x4x4x4xf32>
}

// NHWC, HWCF weights, 12 filters: panels of 4 on every target;
// packed[j][0][0][c][l] = w[0][0][c][j * 4 + l].
// CHECK-LABEL: func.func @nhwc
// CHECK: %[[P:.*]] = graph.constant dense<{{\[\[\[\[\[}}0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00], [1.200000e+01, 1.300000e+01, 1.400000e+01, 1.500000e+01]]]], {{\[\[\[\[}}4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00], [1.600000e+01,
// CHECK-SAME: tensor<3x1x1x2x4xf32>
// CHECK: graph.conv2d %{{.*}}, %[[P]], %{{.*}} {layout = #graph<layout NHWC>, packed_weight, strides = array<i64: 2, 2>} : (tensor<1x4x4x2xf32>, tensor<3x1x1x2x4xf32>, tensor<12xf32>) -> tensor<1x2x2x12xf32>
func.func @nhwc(%x: tensor<1x4x4x2xf32>) -> tensor<1x2x2x12xf32> {
  %w = graph.constant dense<[[[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0]]]]> : tensor<1x1x2x12xf32>
  %b = graph.constant dense<1.0> : tensor<12xf32>
  %y = graph.conv2d %x, %w, %b {layout = #graph<layout NHWC>, strides = array<i64: 2, 2>} : (tensor<1x4x4x2xf32>, tensor<1x1x2x12xf32>, tensor<12xf32>) -> tensor<1x2x2x12xf32>
  return %y : tensor<1x2x2x12xf32>
}

// ResNet-18's last stage: on AVX2 one vector of filters, on AVX-512 two,
// by two 7-pixel rows (no tile height divides 7: the last tile is one row,
// peeled by graph-vectorize). Splats stay splats.
// CHECK-LABEL: func.func @small_map
// AVX2: graph.constant dense<2.500000e-01> : tensor<64x3x3x512x8xf32>
// AVX512: graph.constant dense<2.500000e-01> : tensor<16x3x3x512x32xf32>
// SSE: graph.constant dense<2.500000e-01> : tensor<{{[0-9]+}}x3x3x512x{{[0-9]+}}xf32>
// NEON: graph.constant dense<2.500000e-01> : tensor<{{[0-9]+}}x3x3x512x{{[0-9]+}}xf32>
// CHECK: graph.conv2d {{.*}}packed_weight
func.func @small_map(%x: tensor<1x512x7x7xf32>) -> tensor<1x512x7x7xf32> {
  %w = graph.constant dense<0.25> : tensor<512x512x3x3xf32>
  %y = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x512x7x7xf32>, tensor<512x512x3x3xf32>) -> tensor<1x512x7x7xf32>
  return %y : tensor<1x512x7x7xf32>
}

// 14 x 14 pixels: on AVX2 a 1 x 2 block by four vectors of filters; on
// AVX-512, whose 64-byte weight loads count double (fullRateLoadBytes), a
// row of 14 pixels by two vectors.
// CHECK-LABEL: func.func @blocks
// AVX2: graph.constant dense<2.500000e-01> : tensor<8x3x3x256x32xf32>
// AVX512: graph.constant dense<2.500000e-01> : tensor<8x3x3x256x32xf32>
func.func @blocks(%x: tensor<1x256x14x14xf32>) -> tensor<1x256x14x14xf32> {
  %w = graph.constant dense<0.25> : tensor<256x256x3x3xf32>
  %y = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x256x14x14xf32>, tensor<256x256x3x3xf32>) -> tensor<1x256x14x14xf32>
  return %y : tensor<1x256x14x14xf32>
}

// Inside a fused body: the packed weight is a new operand of the group.
// CHECK-LABEL: func.func @fused
// AVX2: %[[P:.*]] = graph.constant dense<5.000000e-01> : tensor<2x3x3x64x32xf32>
// AVX512: %[[P:.*]] = graph.constant dense<5.000000e-01> : tensor<2x3x3x64x32xf32>
// SSE: %[[P:.*]] = graph.constant dense<5.000000e-01> : tensor<{{[0-9]+}}x3x3x64x{{[0-9]+}}xf32>
// NEON: %[[P:.*]] = graph.constant dense<5.000000e-01> : tensor<{{[0-9]+}}x3x3x64x{{[0-9]+}}xf32>
// CHECK: graph.fused "conv2d_relu"(%{{.*}}, %{{.*}}, %[[P]])
// CHECK: ^bb0(%[[X:.*]]: tensor<1x64x56x56xf32>, %{{.*}}: tensor<64x64x3x3xf32>, %[[K:.*]]: tensor<
// CHECK-NEXT: graph.conv2d %[[X]], %[[K]] {packed_weight, padding = array<i64: 1, 1, 1, 1>}
func.func @fused(%x: tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32> {
  %w = graph.constant dense<0.5> : tensor<64x64x3x3xf32>
  %r = graph.fused "conv2d_relu" (%x, %w) : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  ^bb0(%a: tensor<1x64x56x56xf32>, %k: tensor<64x64x3x3xf32>):
    %c = graph.conv2d %a, %k {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32>
    %y = graph.relu %c : tensor<1x64x56x56xf32>
    graph.yield %y : tensor<1x64x56x56xf32>
  }
  return %r : tensor<1x64x56x56xf32>
}

// Grouped and depthwise convolutions, and a weight computed at run time,
// stay as they are.
// CHECK-LABEL: func.func @not_packed
// CHECK-NOT: packed_weight
// CHECK: return
func.func @not_packed(%x: tensor<1x8x6x6xf32>, %v: tensor<8x8x1x1xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x6x6xf32>) {
  %g = graph.constant dense<1.0> : tensor<8x4x3x3xf32>
  %d = graph.constant dense<1.0> : tensor<8x1x3x3xf32>
  %a = graph.conv2d %x, %g {groups = 2 : i64} : (tensor<1x8x6x6xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x4x4xf32>
  %b = graph.conv2d %x, %d {groups = 8 : i64} : (tensor<1x8x6x6xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x4x4xf32>
  %c = graph.conv2d %x, %v : (tensor<1x8x6x6xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x6x6xf32>
  return %a, %b, %c : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x6x6xf32>
}
