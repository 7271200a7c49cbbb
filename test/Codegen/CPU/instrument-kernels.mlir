// RUN: graph-opt %s --graph-outline-kernels --graph-instrument-kernels | FileCheck %s
// RUN: graph-opt %s --graph-lower-to-llvm | FileCheck %s --check-prefix=PLAIN
// RUN: graph-opt %s --graph-lower-to-llvm=profile=true | FileCheck %s --check-prefix=LOWERED

// Each kernel call site gets a number and a row of the module's table: its
// location's names (a fused group's joined by +), the kernel, its kind, the
// FLOPs of its convolutions and matrix products and the bytes of its
// operands (weights included) and results.
//   conv1: 2 * N*F*OH*OW * C*KH*KW = 2 * 1*4*6*6 * 3*3*3 = 7776 FLOPs;
//          768 + 432 + 576 = 1776 bytes.
//   mm:    2 * M*N*K = 2 * 2*5*3 = 60 FLOPs; 24 + 60 + 40 = 124 bytes.
//   gemm:  trans_a, K = 4: 2 * 2*5*4 = 80 FLOPs; 32 + 80 + 40 = 152 bytes.
// The two relus on equal types are one kernel called from two sites.
// CHECK: module attributes {graph.profile = [
// CHECK-SAME: {bytes = 1776 : i64, flops = 7776 : i64, kernel = "main_kernel0_conv2d", kind = "conv2d", name = "conv1"},
// CHECK-SAME: {bytes = 1152 : i64, flops = 0 : i64, kernel = "main_kernel1_relu", kind = "relu", name = "relu1"},
// CHECK-SAME: {bytes = 1152 : i64, flops = 0 : i64, kernel = "main_kernel1_relu", kind = "relu", name = "relu2"},
// CHECK-SAME: {bytes = 124 : i64, flops = 60 : i64, kernel = "main_kernel3_matmul", kind = "matmul", name = "mm"},
// CHECK-SAME: {bytes = 152 : i64, flops = 80 : i64, kernel = "main_kernel4_gemm", kind = "gemm", name = "gemm"},
// CHECK-SAME: {bytes = 48 : i64, flops = 0 : i64, kernel = "main_kernel5_add_relu", kind = "add_relu", name = "add+relu3"}]}
// CHECK-DAG: func.func private @graph_profile_enter(i64)
// CHECK-DAG: func.func private @graph_profile_exit(i64)
// CHECK-LABEL: func.func @main(
// CHECK:       %[[ID0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:  call @graph_profile_enter(%[[ID0]])
// CHECK-NEXT:  call @main_kernel0_conv2d(
// CHECK-NEXT:  call @graph_profile_exit(%[[ID0]])
// CHECK:       %[[ID1:.*]] = arith.constant 1 : i64
// CHECK-NEXT:  call @graph_profile_enter(%[[ID1]])
// CHECK-NEXT:  call @main_kernel1_relu(
// CHECK-NEXT:  call @graph_profile_exit(%[[ID1]])
// CHECK:       %[[ID2:.*]] = arith.constant 2 : i64
// CHECK-NEXT:  call @graph_profile_enter(%[[ID2]])
// CHECK-NEXT:  call @main_kernel1_relu(
// CHECK-NEXT:  call @graph_profile_exit(%[[ID2]])
// CHECK-COUNT-3: call @graph_profile_exit
// CHECK-NOT:   call @graph_profile

// Without the option, the lowering generates no profiling code at all.
// PLAIN-NOT: graph_profile
// PLAIN-NOT: graph.profile

// With it, the hooks survive the lowering around the kernel calls.
// LOWERED-DAG: llvm.func @graph_profile_enter(i64)
// LOWERED-DAG: llvm.func @graph_profile_exit(i64)
// LOWERED-LABEL: llvm.func @main(
// LOWERED-COUNT-6: llvm.call @graph_profile_enter
// LOWERED-NOT: llvm.call @graph_profile_enter
func.func @main(%x: tensor<1x3x8x8xf32>, %a: tensor<2x3xf32>, %b: tensor<3x5xf32>,
                %at: tensor<4x2xf32>, %bt: tensor<4x5xf32>, %v: tensor<4xf32>)
    -> (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<4xf32>) {
  %w = graph.constant dense<0.5> : tensor<4x3x3x3xf32>
  %c = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> loc("conv1")
  %r1 = graph.relu %c : tensor<1x4x6x6xf32> loc("relu1")
  %r2 = graph.relu %r1 : tensor<1x4x6x6xf32> loc("relu2")
  %m = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32> loc("mm")
  %g = graph.gemm %at, %bt {trans_a} : (tensor<4x2xf32>, tensor<4x5xf32>) -> tensor<2x5xf32> loc("gemm")
  %f = graph.fused "add_relu" (%v, %v) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%p: tensor<4xf32>, %q: tensor<4xf32>):
    %s = graph.add %p, %q : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %t = graph.relu %s : tensor<4xf32>
    graph.yield %t : tensor<4xf32>
  } loc(fused["add", "relu3"])
  return %r1, %r2, %m, %g, %f : tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<4xf32>
}
