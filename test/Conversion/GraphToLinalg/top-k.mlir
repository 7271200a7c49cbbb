// RUN: graph-opt %s --convert-graph-to-linalg | FileCheck %s

// graph.top_k without `axis` takes the last one (-1): per row (2), k scans
// (2) of the row's 5 elements. (An I64Attr reads as unsigned: the lowering
// once took the default -1 for a positive axis and crashed.)
// CHECK-LABEL: func.func @default_axis
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG: %[[K:.*]] = arith.constant 2 : index
// CHECK: scf.for
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[K]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C5]]
func.func @default_axis(%x: tensor<2x5xf32>) -> (tensor<2x2xf32>, tensor<2x2xi64>) {
  %v, %i = graph.top_k %x {k = 2} : (tensor<2x5xf32>) -> (tensor<2x2xf32>, tensor<2x2xi64>)
  return %v, %i : tensor<2x2xf32>, tensor<2x2xi64>
}
