// RUN: graph-opt %s --graph-outline-kernels --graph-instrument-kernels | FileCheck %s

// Integer multiply-adds count as float ones in the profile's table (the
// profiler's GFLOP/s are then integer GOP/s):
//   conv:   NHWC, 2 * N*OH*OW*F * C*KH*KW = 2 * 1*4*4*16 * 8*1*1 = 4096;
//   matmul: 2 * M*N*K = 2 * 3*16*8 = 768.
// CHECK: module attributes {graph.profile = [
// CHECK-SAME: flops = 4096 : i64, kernel = "main_kernel0_conv_integer", kind = "conv_integer", name = "conv"
// CHECK-SAME: flops = 768 : i64, kernel = "main_kernel1_matmul_integer", kind = "matmul_integer", name = "mm"
func.func @main(%x: tensor<1x4x4x8xui8>, %a: tensor<3x8xui8>) -> (tensor<1x4x4x16xi32>, tensor<3x16xi32>) {
  %w = graph.constant dense<1> : tensor<1x1x8x16xi8>
  %m = graph.constant dense<1> : tensor<8x16xi8>
  %z = graph.constant dense<3> : tensor<ui8>
  %wz = graph.constant dense<0> : tensor<i8>
  %c = graph.conv_integer %x, %w, %z, %wz {dilations = array<i64: 1, 1>, layout = #graph<layout NHWC>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x4x8xui8>, tensor<1x1x8x16xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x4x4x16xi32> loc("conv")
  %p = graph.matmul_integer %a, %m, %z, %wz : (tensor<3x8xui8>, tensor<8x16xi8>, tensor<ui8>, tensor<i8>) -> tensor<3x16xi32> loc("mm")
  return %c, %p : tensor<1x4x4x16xi32>, tensor<3x16xi32>
}
