// RUN: graph-opt %s --convert-graph-to-linalg | FileCheck %s

// graph.top_k without `axis` takes the last one (-1): per row (2), one pass
// over the row's 5 elements, each that ranks before the last of the k (2)
// kept inserted into them, the kept ones after it shifting on. (An I64Attr
// reads as unsigned: the lowering once took the default -1 for a positive
// axis and crashed.)
// CHECK-LABEL: func.func @default_axis
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG: %[[K:.*]] = arith.constant 2 : index
// CHECK: scf.for
// CHECK: %[[UPPER:.*]] = arith.select %{{.*}}, %[[C5]], %{{.*}} : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[UPPER]]
// CHECK: tensor.extract %arg0[%{{.*}}, %{{.*}}] : tensor<2x5xf32>
// CHECK: arith.cmpi eq, %{{.*}}, %[[K]] : index
// CHECK: scf.while
// CHECK: scf.condition
// CHECK: tensor.insert
// CHECK: tensor.insert
func.func @default_axis(%x: tensor<2x5xf32>) -> (tensor<2x2xf32>, tensor<2x2xi64>) {
  %v, %i = graph.top_k %x {k = 2} : (tensor<2x5xf32>) -> (tensor<2x2xf32>, tensor<2x2xi64>)
  return %v, %i : tensor<2x2xf32>, tensor<2x2xi64>
}
