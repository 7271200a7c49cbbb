// A product over packed weights is tiled by runs of whole panels, every
// tile computing all rows. The tiles are shared among the threads, so their
// count is made a multiple of 4 (else 2) where a tile no smaller than half
// the largest allows it. Pinned to an AVX-512 CPU (1 MiB of L2: tiles of
// 128 KiB).
// RUN: graph-opt %s --convert-graph-to-linalg \
// RUN:   --graph-lower-fused="target-cpu=x86-64-v4" \
// RUN: | FileCheck %s

// 97 rows by 12 panels of 64 columns: a 128 KiB tile holds 5 panels of 97
// rows; the largest divisor of 12 below that, 4, gives 3 tiles (two threads
// share them 2:1), and 3 panels give 4.
// CHECK-LABEL: func.func @panels_in_four_tiles
// CHECK: scf.forall (%[[J:.*]]) = (0) to (12) step (3)
// CHECK: tensor.extract_slice %{{.*}}[%[[J]], 0, 0] [3, 64, 64]
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<97x64xf32>, tensor<3x64x64xf32>)
// CHECK-NOT: scf.forall (
// CHECK: return
func.func @panels_in_four_tiles(%a: tensor<97x64xf32>, %w: tensor<12x64x64xf32>, %c: tensor<768xf32>) -> tensor<97x768xf32> {
  %y = graph.fused "matmul_add" (%a, %w, %c) : (tensor<97x64xf32>, tensor<12x64x64xf32>, tensor<768xf32>) -> tensor<97x768xf32> {
  ^bb0(%x: tensor<97x64xf32>, %k: tensor<12x64x64xf32>, %b: tensor<768xf32>):
    %0 = graph.matmul %x, %k {packed_b} : (tensor<97x64xf32>, tensor<12x64x64xf32>) -> tensor<97x768xf32>
    %1 = graph.add %0, %b : (tensor<97x768xf32>, tensor<768xf32>) -> tensor<97x768xf32>
    graph.yield %1 : tensor<97x768xf32>
  }
  return %y : tensor<97x768xf32>
}

// 15 panels: 3 tiles of 5 are the largest; 4 panels do not divide 15 and 3
// give 5 tiles, as odd, so the count stays 3.
// CHECK-LABEL: func.func @odd_count_kept
// CHECK: scf.forall (%{{.*}}) = (0) to (15) step (5)
func.func @odd_count_kept(%a: tensor<97x64xf32>, %w: tensor<15x64x64xf32>, %c: tensor<960xf32>) -> tensor<97x960xf32> {
  %y = graph.fused "matmul_add" (%a, %w, %c) : (tensor<97x64xf32>, tensor<15x64x64xf32>, tensor<960xf32>) -> tensor<97x960xf32> {
  ^bb0(%x: tensor<97x64xf32>, %k: tensor<15x64x64xf32>, %b: tensor<960xf32>):
    %0 = graph.matmul %x, %k {packed_b} : (tensor<97x64xf32>, tensor<15x64x64xf32>) -> tensor<97x960xf32>
    %1 = graph.add %0, %b : (tensor<97x960xf32>, tensor<960xf32>) -> tensor<97x960xf32>
    graph.yield %1 : tensor<97x960xf32>
  }
  return %y : tensor<97x960xf32>
}
