// graph-pack-weights: constant weights of matmul and gemm packed into
// N/n0 x K x n0 panels, n0 chosen for the pinned target; a second run
// changes nothing; weights that are not constants stay.
// RUN: graph-opt %s --graph-pack-weights=target-cpu=x86-64-v3 | FileCheck %s --check-prefixes=CHECK,AVX2
// RUN: graph-opt %s --graph-pack-weights=target-cpu=x86-64-v4 | FileCheck %s --check-prefixes=CHECK,AVX512
// RUN: graph-opt %s --graph-pack-weights=target-cpu=x86-64-v2 | FileCheck %s --check-prefixes=CHECK,SSE
// RUN: graph-opt %s --graph-pack-weights=target-cpu=neoverse-n1 | FileCheck %s --check-prefixes=CHECK,NEON
// RUN: graph-opt %s --graph-pack-weights=target-cpu=x86-64-v3 --graph-pack-weights=target-cpu=x86-64-v3 | FileCheck %s --check-prefixes=CHECK,AVX2
// RUN: graph-opt %s --graph-print-kernel-config=target-cpu=x86-64-v3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONFIG
// RUN: not graph-opt %s --graph-pack-weights=target-cpu=bogus 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: graph-opt %s --graph-optimize=opt-level=1 | FileCheck %s --check-prefix=O1
// RUN: graph-opt %s --graph-optimize="opt-level=2 target-cpu=x86-64-v3" --graph-report=json=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// CONFIG: kernel configuration for x86-64-v3 (x86_64, AVX2+FMA: 8 f32 lanes
// CONFIG: graph.matmul 1x2x24 at {{.*}}: n0=8 tile=1x3x8 k=2
// CONFIG: graph.gemm 1x2x24 at {{.*}}: n0=8 tile=1x3x8 k=2
// CONFIG: graph.matmul 1x4x64 at {{.*}}: n0=32 tile=1x1x32 k=4
// CONFIG: graph.matmul 6x8x32 at {{.*}}: n0=16 tile=6x1x16 k=8
// CONFIG: graph.matmul 2x4x16 at {{.*}}: n0=16 tile=2x1x16 k=4
// BAD: graph-pack-weights: unknown target CPU 'bogus'
// O1-NOT: packed_b
// REPORT: "constants":{"count":5,"bytes":3456}
// REPORT-SAME: "packed_weights":{"count":5,"bytes":3456}

// 24 columns: no whole 16-lane vector divides them, so 8-column panels on
// every target; packed[j][k][l] = w[k][j * 8 + l].
// CHECK-LABEL: func.func @matmul_panels
// CHECK: %[[P:.*]] = graph.constant dense<{{\[\[\[}}0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00], [2.400000e+01, 2.500000e+01, 2.600000e+01, 2.700000e+01, 2.800000e+01, 2.900000e+01, 3.000000e+01, 3.100000e+01]], {{\[\[}}8.000000e+00, 9.000000e+00,
// CHECK-SAME: tensor<3x2x8xf32>
// CHECK: graph.matmul %{{.*}}, %[[P]] {packed_b} : (tensor<1x2xf32>, tensor<3x2x8xf32>) -> tensor<1x24xf32>
func.func @matmul_panels(%a: tensor<1x2xf32>) -> tensor<1x24xf32> {
  %w = graph.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0], [24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0]]> : tensor<2x24xf32>
  %y = graph.matmul %a, %w : (tensor<1x2xf32>, tensor<2x24xf32>) -> tensor<1x24xf32>
  return %y : tensor<1x24xf32>
}

// trans_b (nn.Linear's N x K): packed straight from it, trans_b dropped;
// packed[j][k][l] = w[j * 8 + l][k].
// CHECK-LABEL: func.func @gemm_trans_b
// CHECK: %[[P:.*]] = graph.constant dense<{{\[\[\[}}0.000000e+00, 2.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00, 1.000000e+01, 1.200000e+01, 1.400000e+01], [1.000000e+00, 3.000000e+00,
// CHECK: graph.gemm %{{.*}}, %[[P]] {packed_b} : (tensor<1x2xf32>, tensor<3x2x8xf32>) -> tensor<1x24xf32>
// CHECK-NOT: trans_b
func.func @gemm_trans_b(%a: tensor<1x2xf32>) -> tensor<1x24xf32> {
  %w = graph.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0], [8.0, 9.0], [10.0, 11.0], [12.0, 13.0], [14.0, 15.0], [16.0, 17.0], [18.0, 19.0], [20.0, 21.0], [22.0, 23.0], [24.0, 25.0], [26.0, 27.0], [28.0, 29.0], [30.0, 31.0], [32.0, 33.0], [34.0, 35.0], [36.0, 37.0], [38.0, 39.0], [40.0, 41.0], [42.0, 43.0], [44.0, 45.0], [46.0, 47.0]]> : tensor<24x2xf32>
  %y = graph.gemm %a, %w {trans_b} : (tensor<1x2xf32>, tensor<24x2xf32>) -> tensor<1x24xf32>
  return %y : tensor<1x24xf32>
}

// 64 columns, one row: the widest panel whose accumulators and weight
// vectors fit the register file. A splat stays a splat.
// CHECK-LABEL: func.func @widths
// AVX2: graph.constant dense<1.500000e+00> : tensor<2x4x32xf32>
// AVX512: graph.constant dense<1.500000e+00> : tensor<1x4x64xf32>
// SSE: graph.constant dense<1.500000e+00> : tensor<4x4x16xf32>
// NEON: graph.constant dense<1.500000e+00> : tensor<2x4x32xf32>
// CHECK: graph.matmul %{{.*}}, %{{.*}} {packed_b}
func.func @widths(%a: tensor<1x4xf32>) -> tensor<1x64xf32> {
  %w = graph.constant dense<1.5> : tensor<4x64xf32>
  %y = graph.matmul %a, %w : (tensor<1x4xf32>, tensor<4x64xf32>) -> tensor<1x64xf32>
  return %y : tensor<1x64xf32>
}

// Inside a fused body: the packed weight is a new operand of the group.
// CHECK-LABEL: func.func @fused
// AVX2: %[[P:.*]] = graph.constant dense<5.000000e-01> : tensor<2x8x16xf32>
// AVX512: %[[P:.*]] = graph.constant dense<5.000000e-01> : tensor<1x8x32xf32>
// SSE: %[[P:.*]] = graph.constant dense<5.000000e-01> : tensor<4x8x8xf32>
// NEON: %[[P:.*]] = graph.constant dense<5.000000e-01> : tensor<2x8x16xf32>
// CHECK: graph.fused "matmul_add"(%{{.*}}, %{{.*}}, %{{.*}}, %[[P]])
// CHECK: ^bb0(%[[X:.*]]: tensor<6x8xf32>, %{{.*}}: tensor<8x32xf32>, %{{.*}}: tensor<32xf32>, %[[K:.*]]: tensor<
// CHECK-NEXT: graph.matmul %[[X]], %[[K]] {packed_b}
func.func @fused(%a: tensor<6x8xf32>, %bias: tensor<32xf32>) -> tensor<6x32xf32> {
  %w = graph.constant dense<0.5> : tensor<8x32xf32>
  %r = graph.fused "matmul_add" (%a, %w, %bias) : (tensor<6x8xf32>, tensor<8x32xf32>, tensor<32xf32>) -> tensor<6x32xf32> {
  ^bb0(%x: tensor<6x8xf32>, %k: tensor<8x32xf32>, %b: tensor<32xf32>):
    %m = graph.matmul %x, %k : (tensor<6x8xf32>, tensor<8x32xf32>) -> tensor<6x32xf32>
    %s = graph.add %m, %b : (tensor<6x32xf32>, tensor<32xf32>) -> tensor<6x32xf32>
    graph.yield %s : tensor<6x32xf32>
  }
  return %r : tensor<6x32xf32>
}

// A batch_matmul by a constant matrix: one product over the flattened rows.
// CHECK-LABEL: func.func @batch_rows
// CHECK: %[[A:.*]] = graph.reshape %{{.*}} {shape = array<i64: 10, 8>} : (tensor<2x5x8xf32>) -> tensor<10x8xf32>
// AVX2: %[[M:.*]] = graph.matmul %[[A]], %{{.*}} {packed_b} : (tensor<10x8xf32>, tensor<2x8x16xf32>) -> tensor<10x32xf32>
// CHECK: graph.reshape %{{.*}} {shape = array<i64: 2, 5, 32>} : (tensor<10x32xf32>) -> tensor<2x5x32xf32>
// CHECK-NOT: graph.batch_matmul
func.func @batch_rows(%a: tensor<2x5x8xf32>) -> tensor<2x5x32xf32> {
  %w = graph.constant dense<0.25> : tensor<1x8x32xf32>
  %y = graph.batch_matmul %a, %w : (tensor<2x5x8xf32>, tensor<1x8x32xf32>) -> tensor<2x5x32xf32>
  return %y : tensor<2x5x32xf32>
}

// A weight computed at run time stays as it is.
// CHECK-LABEL: func.func @not_constant
// CHECK-NOT: packed_b
// CHECK: return
func.func @not_constant(%a: tensor<2x4xf32>, %w: tensor<4x16xf32>) -> tensor<2x16xf32> {
  %y = graph.matmul %a, %w : (tensor<2x4xf32>, tensor<4x16xf32>) -> tensor<2x16xf32>
  return %y : tensor<2x16xf32>
}
