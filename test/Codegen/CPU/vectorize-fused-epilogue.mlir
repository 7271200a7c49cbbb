// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg,graph-lower-fused{target-cpu=x86-64-v3},graph-vectorize{target-cpu=x86-64-v3},canonicalize,cse))' | FileCheck %s
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg,graph-lower-fused{target-cpu=x86-64-v3},graph-vectorize{target-cpu=x86-64-v3 fuse-epilogues=false},canonicalize,cse))' | FileCheck %s --check-prefix=UNFUSED

// A group's epilogue and the bias that starts the accumulators are fused
// into the register tiles of its convolution by packed weights (AVX2: 4
// pixels x 16 filters): per tile the bias is loaded and broadcast into the
// accumulators, the FMAs run over the channels, and the epilogue takes the
// sums from registers; the tile is written once, by the epilogue. Without
// that, the bias, the sums and the epilogue would each pass over a tile
// buffer in memory (fuse-epilogues=false): the bias broadcast into it a
// vector at a time, the accumulators read from it and written back, the
// epilogue reading them a vector at a time.
// UNFUSED-LABEL: func.func @conv_bias_clip
// UNFUSED: vector.transfer_write {{.*}} : vector<16xf32>, tensor<1x2x8x2x16xf32>
// UNFUSED: vector.transfer_read {{.*}} : tensor<1x2x8x2x16xf32>, vector<4x1x16xf32>
// UNFUSED: vector.transfer_write {{.*}} : vector<4x1x16xf32>, tensor<1x2x8x2x16xf32>
// UNFUSED: vector.transfer_read {{.*}} : tensor<1x2x8x2x16xf32>, vector<16xf32>
// UNFUSED: arith.maximumf

// CHECK-LABEL: func.func @conv_bias_clip
// CHECK: %[[BIAS:.*]] = vector.transfer_read %{{.*}} : tensor<2x16xf32>, vector<16xf32>
// CHECK-NEXT: %[[INIT:.*]] = vector.broadcast %[[BIAS]] : vector<16xf32> to vector<1x1x4x1x16xf32>
// CHECK-NEXT: %[[SUMS:.*]] = scf.for %{{.*}} = %c0 to %c16 step %c8 iter_args(%{{.*}} = %[[INIT]]) -> (vector<1x1x4x1x16xf32>)
// CHECK-NOT: vector.transfer_write
// CHECK-COUNT-32: vector.fma
// CHECK-NOT: vector.transfer_write
// CHECK: %[[TILE:.*]] = vector.extract %[[SUMS]][0, 0] : vector<4x1x16xf32> from vector<1x1x4x1x16xf32>
// CHECK-NEXT: %[[LOW:.*]] = arith.maximumf %[[TILE]]
// CHECK-NEXT: %[[HIGH:.*]] = arith.minimumf %[[LOW]]
// CHECK-NEXT: vector.transfer_write %[[HIGH]], {{.*}} : vector<4x1x16xf32>, tensor<1x2x8x2x16xf32>
// CHECK-NOT: vector.transfer_write
// CHECK: return
func.func @conv_bias_clip(%x: tensor<1x4x8x16xf32>, %w: tensor<2x1x1x16x16xf32>, %b: tensor<32xf32>) -> tensor<1x4x8x32xf32> {
  %0 = graph.fused "conv2d_clip"(%x, %w, %b) : (tensor<1x4x8x16xf32>, tensor<2x1x1x16x16xf32>, tensor<32xf32>) -> tensor<1x4x8x32xf32> {
  ^bb0(%a: tensor<1x4x8x16xf32>, %aw: tensor<2x1x1x16x16xf32>, %ab: tensor<32xf32>):
    %1 = graph.conv2d %a, %aw, %ab {layout = #graph<layout NHWC>, packed_weight} : (tensor<1x4x8x16xf32>, tensor<2x1x1x16x16xf32>, tensor<32xf32>) -> tensor<1x4x8x32xf32>
    %2 = graph.clip %1 {max = 6.000000e+00 : f32, min = 0.000000e+00 : f32} : tensor<1x4x8x32xf32>
    graph.yield %2 : tensor<1x4x8x32xf32>
  }
  return %0 : tensor<1x4x8x32xf32>
}

// A chain of two elementwise ops (a residual add, then relu): both in the
// tile, the residual read at the tile's place.
// CHECK-LABEL: func.func @conv_residual_relu
// CHECK: %[[SUMS:.*]] = scf.for {{.*}} -> (vector<1x1x4x1x16xf32>)
// CHECK-COUNT-32: vector.fma
// CHECK-NOT: vector.transfer_write
// CHECK: %[[RESIDUAL:.*]] = vector.transfer_read {{.*}} : tensor<1x4x8x2x16xf32>, vector<4x1x16xf32>
// CHECK-NEXT: %[[TILE:.*]] = vector.extract %[[SUMS]][0, 0]
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[TILE]], %[[RESIDUAL]] : vector<4x1x16xf32>
// CHECK-NEXT: %[[RELU:.*]] = arith.maximumf %[[SUM]]
// CHECK-NEXT: vector.transfer_write %[[RELU]], {{.*}} : vector<4x1x16xf32>, tensor<1x2x8x2x16xf32>
// CHECK-NOT: vector.transfer_write
// CHECK: return
func.func @conv_residual_relu(%x: tensor<1x4x8x16xf32>, %w: tensor<2x1x1x16x16xf32>, %b: tensor<32xf32>, %r: tensor<1x4x8x32xf32>) -> tensor<1x4x8x32xf32> {
  %0 = graph.fused "conv2d_add_relu"(%x, %w, %b, %r) : (tensor<1x4x8x16xf32>, tensor<2x1x1x16x16xf32>, tensor<32xf32>, tensor<1x4x8x32xf32>) -> tensor<1x4x8x32xf32> {
  ^bb0(%a: tensor<1x4x8x16xf32>, %aw: tensor<2x1x1x16x16xf32>, %ab: tensor<32xf32>, %ar: tensor<1x4x8x32xf32>):
    %1 = graph.conv2d %a, %aw, %ab {layout = #graph<layout NHWC>, packed_weight} : (tensor<1x4x8x16xf32>, tensor<2x1x1x16x16xf32>, tensor<32xf32>) -> tensor<1x4x8x32xf32>
    %2 = graph.add %1, %ar : (tensor<1x4x8x32xf32>, tensor<1x4x8x32xf32>) -> tensor<1x4x8x32xf32>
    %3 = graph.relu %2 : tensor<1x4x8x32xf32>
    graph.yield %3 : tensor<1x4x8x32xf32>
  }
  return %0 : tensor<1x4x8x32xf32>
}
