// A concat with an empty operand runs: the empty operand adds nothing.
// RUN: graph-run %s -O0 | FileCheck %s
// RUN: graph-run %s -O3 | FileCheck %s

// CHECK: result0: (2, 3)
// CHECK-NEXT: 1 2 3
// CHECK-NEXT: 4 5 6
func.func @main() -> tensor<2x3xf32> {
  %x = graph.constant dense<[[1.0, 2.0], [4.0, 5.0]]> : tensor<2x2xf32>
  %e = graph.constant dense<> : tensor<2x0xf32>
  %y = graph.constant dense<[[3.0], [6.0]]> : tensor<2x1xf32>
  %0 = graph.concat %x, %e, %y {axis = 1 : i64} : (tensor<2x2xf32>, tensor<2x0xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
