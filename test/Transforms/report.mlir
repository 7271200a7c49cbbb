// RUN: graph-opt %s --graph-report -o /dev/null 2>&1 | FileCheck %s
// The IR is not changed: it prints exactly as without the pass.
// RUN: graph-opt %s --graph-report 2>/dev/null > %t.report.mlir
// RUN: graph-opt %s > %t.plain.mlir
// RUN: diff %t.plain.mlir %t.report.mlir
// RUN: graph-opt %s --graph-report 2>/dev/null | FileCheck %s --check-prefix=IR
// The report composes with the optimization pipeline.
// RUN: graph-opt %s --graph-optimize --graph-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPT

// Byte figures, by hand (f32 = 4 bytes):
//   constants: %w splat 4x3x3x3 = 108 elements = 432 bytes (a splat counts
//   its logical size), %p 4 elements = 16 bytes: 2 constants, 448 bytes.
//   @conv_bn_relu: conv2d out 1x4x6x6 = 144 elements = 576 bytes, batch_norm
//   out 576 bytes; relu is yielded: 1152 bytes.
//   @two_results: the add out 2x4 = 32 bytes; the matmul is yielded and the
//   constant is a constant: neither counts; relu is yielded: 32 bytes.
//   Intermediate bytes 1152 + 32 = 1184; saving 2 x 1184 = 2368.
// After graph-optimize @plain becomes a matmul_relu group whose matmul out
// (2x4, 32 bytes) is an intermediate: 1216 bytes, saving 2432. Its dead
// sigmoid goes.

// CHECK:      === graph-report ===
// CHECK-NEXT: ops:
// CHECK-NEXT:   func.return: 3
// CHECK-NEXT:   graph.constant: 2
// CHECK-NEXT:   graph.fused: 2
// CHECK-NEXT:   graph.matmul: 1
// CHECK-NEXT:   graph.relu: 1
// CHECK-NEXT:   graph.sigmoid: 1
// CHECK-NEXT: constants: 2 (448 bytes)
// CHECK-NEXT: fused groups:
// CHECK-NEXT:   conv2d_batch_norm_relu: 1
// CHECK-NEXT:   matmul_add_relu: 1
// CHECK-NEXT: intermediate bytes: 1184
// CHECK-NEXT: saving (2 x intermediate bytes): 2368
// CHECK-NEXT: layout changes: 0
// CHECK-NEXT: packed weights: 0 (0 bytes)
// CHECK-NOT: {{.}}

// IR-LABEL: func.func @conv_bn_relu
// IR: graph.fused "conv2d_batch_norm_relu"
// IR-LABEL: func.func @two_results
// IR: graph.fused "matmul_add_relu"
// IR-LABEL: func.func @plain
// IR: graph.sigmoid

// OPT:      === graph-report ===
// OPT-NEXT: ops:
// OPT-NEXT:   func.return: 3
// OPT-NEXT:   graph.constant: 2
// OPT-NEXT:   graph.fused: 3
// OPT-NEXT: constants: 2 (448 bytes)
// OPT-NEXT: fused groups:
// OPT-NEXT:   conv2d_batch_norm_relu: 1
// OPT-NEXT:   matmul_add_relu: 1
// OPT-NEXT:   matmul_relu: 1
// OPT-NEXT: intermediate bytes: 1216
// OPT-NEXT: saving (2 x intermediate bytes): 2432
// OPT-NEXT: layout changes: 0

func.func @conv_bn_relu(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x6x6xf32> {
  %w = graph.constant dense<0.1> : tensor<4x3x3x3xf32>
  %p = graph.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = graph.fused "conv2d_batch_norm_relu"(%x, %w, %p, %p, %p, %p) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32> {
  ^bb0(%a0: tensor<1x3x8x8xf32>, %a1: tensor<4x3x3x3xf32>, %a2: tensor<4xf32>, %a3: tensor<4xf32>, %a4: tensor<4xf32>, %a5: tensor<4xf32>):
    %1 = graph.conv2d %a0, %a1 : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
    %2 = graph.batch_norm %1, %a2, %a3, %a4, %a5 : (tensor<1x4x6x6xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
    %3 = graph.relu %2 : tensor<1x4x6x6xf32>
    graph.yield %3 : tensor<1x4x6x6xf32>
  }
  return %0 : tensor<1x4x6x6xf32>
}

func.func @two_results(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %0:2 = graph.fused "matmul_add_relu"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  ^bb0(%a0: tensor<2x3xf32>, %a1: tensor<3x4xf32>):
    %c = graph.constant dense<1.0> : tensor<2x4xf32>
    %1 = graph.matmul %a0, %a1 : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %2 = graph.add %1, %c : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %3 = graph.relu %2 : tensor<2x4xf32>
    graph.yield %3, %1 : tensor<2x4xf32>, tensor<2x4xf32>
  }
  return %0#0, %0#1 : tensor<2x4xf32>, tensor<2x4xf32>
}

func.func @plain(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = graph.relu %0 : tensor<2x4xf32>
  %dead = graph.sigmoid %a : tensor<2x3xf32>
  return %1 : tensor<2x4xf32>
}
