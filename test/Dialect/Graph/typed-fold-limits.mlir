// RUN: graph-opt %s --canonicalize | FileCheck %s --check-prefixes=CHECK,DEFAULT
// RUN: graph-opt %s --graph-fold-constants="max-work=32" | FileCheck %s --check-prefixes=CHECK,WORK32

// The fold hooks of integer (and bool, f16) ops ask the same limits as the
// f32 ones (FoldLimits.h): before a fold materializes a non-splat result or
// an expanded splat, or loops over a tensor, it checks the elements and the
// steps against `max-elements` and `max-work` (defaults 2^24 and 2^30; the
// passes' options where a pass sets them, the defaults under canonicalize).
// Each function below would take terabytes or hours without them (the first
// one aborted graph-opt --canonicalize before).

// A small non-splat broadcast against a splat of 2^43 elements.
// CHECK-LABEL: func.func @broadcast_add_huge
// CHECK: graph.add
func.func @broadcast_add_huge() -> tensor<1099511627776x8xi64> {
  %a = graph.constant dense<1> : tensor<1099511627776x8xi64>
  %b = graph.constant dense<[[0,1,2,3,4,5,6,7]]> : tensor<1x8xi64>
  %0 = graph.add %a, %b : (tensor<1099511627776x8xi64>, tensor<1x8xi64>) -> tensor<1099511627776x8xi64>
  return %0 : tensor<1099511627776x8xi64>
}

// A broadcast of a non-splat to 2^43 elements.
// CHECK-LABEL: func.func @broadcast_huge
// CHECK: graph.broadcast
func.func @broadcast_huge() -> tensor<1099511627776x8xi64> {
  %b = graph.constant dense<[[0,1,2,3,4,5,6,7]]> : tensor<1x8xi64>
  %0 = graph.broadcast %b : (tensor<1x8xi64>) -> tensor<1099511627776x8xi64>
  return %0 : tensor<1099511627776x8xi64>
}

// The sum of a splat of 2^43 elements, one step per element.
// CHECK-LABEL: func.func @reduce_huge_splat
// CHECK: graph.reduce_sum
func.func @reduce_huge_splat() -> tensor<8xi64> {
  %a = graph.constant dense<1> : tensor<1099511627776x8xi64>
  %0 = graph.reduce_sum %a {axes = array<i64: 0>} : (tensor<1099511627776x8xi64>) -> tensor<8xi64>
  return %0 : tensor<8xi64>
}

// An f64 batched matmul with K = 64 (2^12 multiply-adds): within the
// defaults, over max-work=32 (it had a limit of its own, which no option
// changed).
// CHECK-LABEL: func.func @f64_matmul_k64
// DEFAULT-NOT: graph.batch_matmul
// DEFAULT: graph.constant dense<1.280000e+02> : tensor<1x8x8xf64>
// WORK32: graph.batch_matmul
func.func @f64_matmul_k64() -> tensor<1x8x8xf64> {
  %a = graph.constant dense<1.0> : tensor<1x8x64xf64>
  %b = graph.constant dense<2.0> : tensor<1x64x8xf64>
  %0 = graph.batch_matmul %a, %b : (tensor<1x8x64xf64>, tensor<1x64x8xf64>) -> tensor<1x8x8xf64>
  return %0 : tensor<1x8x8xf64>
}

// Small typed folds still happen.
// CHECK-LABEL: func.func @small_add
// CHECK-NOT: graph.add
// CHECK: graph.constant dense<[1, 3, 5]> : tensor<3xi64>
func.func @small_add() -> tensor<3xi64> {
  %a = graph.constant dense<[0, 1, 2]> : tensor<3xi64>
  %b = graph.constant dense<[1, 2, 3]> : tensor<3xi64>
  %0 = graph.add %a, %b : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}
