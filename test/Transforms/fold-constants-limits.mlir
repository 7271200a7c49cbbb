// RUN: graph-opt %s --graph-fold-constants | FileCheck %s --check-prefixes=CHECK,DEFAULT
// RUN: graph-opt %s --graph-fold-constants="max-work=32" | FileCheck %s --check-prefixes=CHECK,WORK32
// RUN: graph-opt %s --graph-optimize="max-work=32" | FileCheck %s --check-prefixes=CHECK,WORK32
// RUN: graph-opt %s --graph-fold-constants="max-elements=4" | FileCheck %s --check-prefixes=CHECK,ELEMENTS4

// Resource limits of compile-time evaluation: every fold hook checks, before
// it evaluates anything, that it would materialize no tensor (a non-splat
// result, an expanded splat operand) of more than `max-elements` elements
// (default 2^24) and take at most `max-work` scalar operations (default
// 2^30). An op over a limit stays as it is, to be computed at run time: no
// input makes folding hang or exhaust memory. Each function below would take
// hours or terabytes without the limits.

// A splat matmul sums K equal products one by one (as the compiled code
// does): K = 2^40 is over the work limit.
// CHECK-LABEL: func.func @splat_matmul_huge_k
// CHECK: graph.matmul
func.func @splat_matmul_huge_k() -> tensor<1x1xf32> {
  %a = graph.constant dense<1.0> : tensor<1x1099511627776xf32>
  %b = graph.constant dense<2.0> : tensor<1099511627776x1xf32>
  %0 = graph.matmul %a, %b : (tensor<1x1099511627776xf32>, tensor<1099511627776x1xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// K = 64: within the default limit, over max-work=32.
// CHECK-LABEL: func.func @splat_matmul_k64
// DEFAULT-NOT: graph.matmul
// DEFAULT: graph.constant dense<1.280000e+02> : tensor<3x5xf32>
// ELEMENTS4-NOT: graph.matmul
// WORK32: graph.matmul
func.func @splat_matmul_k64() -> tensor<3x5xf32> {
  %a = graph.constant dense<1.0> : tensor<3x64xf32>
  %b = graph.constant dense<2.0> : tensor<64x5xf32>
  %0 = graph.matmul %a, %b : (tensor<3x64xf32>, tensor<64x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// Two different splats joined are not a splat: 2^29 elements would be
// materialized, over max-elements, so nothing is evaluated.
// CHECK-LABEL: func.func @concat_of_large_splats
// CHECK: graph.concat
func.func @concat_of_large_splats() -> tensor<32768x16384xf32> {
  %a = graph.constant dense<1.0> : tensor<16384x16384xf32>
  %b = graph.constant dense<2.0> : tensor<16384x16384xf32>
  %0 = graph.concat %a, %b {axis = 0} : (tensor<16384x16384xf32>, tensor<16384x16384xf32>) -> tensor<32768x16384xf32>
  return %0 : tensor<32768x16384xf32>
}

// Equal splats join into a splat at no cost, whatever the size.
// CHECK-LABEL: func.func @concat_of_equal_large_splats
// CHECK-NOT: graph.concat
// CHECK: graph.constant dense<1.000000e+00> : tensor<32768x16384xf32>
func.func @concat_of_equal_large_splats() -> tensor<32768x16384xf32> {
  %a = graph.constant dense<1.0> : tensor<16384x16384xf32>
  %0 = graph.concat %a, %a {axis = 0} : (tensor<16384x16384xf32>, tensor<16384x16384xf32>) -> tensor<32768x16384xf32>
  return %0 : tensor<32768x16384xf32>
}

// The mean of a splat plane of 2^60 cells sums them one by one: over the
// work limit. (H * W fits int64: the verifier refuses types whose size in
// bytes does not.)
// CHECK-LABEL: func.func @global_avg_pool_huge_splat
// CHECK: graph.global_avg_pool
func.func @global_avg_pool_huge_splat() -> tensor<1x1x1x1xf32> {
  %x = graph.constant dense<1.0> : tensor<1x1x1073741824x1073741824xf32>
  %0 = graph.global_avg_pool %x : (tensor<1x1x1073741824x1073741824xf32>) -> tensor<1x1x1x1xf32>
  return %0 : tensor<1x1x1x1xf32>
}

// A splat operand next to a non-splat one is expanded: 2^40 elements here,
// over max-elements, although the result has one.
// CHECK-LABEL: func.func @expanded_splat_operand
// CHECK: graph.conv2d
func.func @expanded_splat_operand() -> tensor<1x1x1x1xf32> {
  %x = graph.constant dense<1.0> : tensor<1x1x1048576x1048576xf32>
  %w = graph.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
  %0 = graph.conv2d %x, %w {strides = array<i64: 1048576, 1048576>} : (tensor<1x1x1048576x1048576xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x1x1xf32>
  return %0 : tensor<1x1x1x1xf32>
}

// A small non-splat fold: 6 results of 2 products each, within every limit
// above but max-elements=4.
// CHECK-LABEL: func.func @small_matmul
// DEFAULT-NOT: graph.matmul
// WORK32-NOT: graph.matmul
// ELEMENTS4: graph.matmul
func.func @small_matmul() -> tensor<2x3xf32> {
  %a = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = graph.constant dense<[[1.0, 0.0, 2.0], [0.0, 1.0, 3.0]]> : tensor<2x3xf32>
  %0 = graph.matmul %a, %b : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
