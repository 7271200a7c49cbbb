// An output of run-time size written by hand: graph.extents on a result
// names, per dimension, the result (a tensor<i64> of rank 0) that holds its
// extent after a run, -1 for a fixed one. graph-run prints the true shape
// and not the extent, at -O0 and -O3; a graph.extents that does not name
// such a result is refused with a message.
// RUN: rm -rf %t && mkdir %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([0, 7, 0, 0, -1, 0], np.float32))"
// RUN: graph-run -O0 %s %t/x.npy | FileCheck %s
// RUN: graph-run -O3 %s %t/x.npy | FileCheck %s
// RUN: not graph-run %s %t/x.npy --entry bad_rank 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not graph-run %s %t/x.npy --entry bad_result 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not graph-run %s %t/x.npy --entry self 2>&1 | FileCheck %s --check-prefix=SELF
// RUN: not graph-run %s %t/x.npy --entry extent_first 2>&1 | FileCheck %s --check-prefix=ORDER

// CHECK:      indices: (1, 2)
// CHECK-NEXT: 1 4
// CHECK-NEXT: doubled: (6,)
// CHECK-NOT:  extent
func.func @main(%x: tensor<6xf32> {graph.name = "x"})
    -> (tensor<1x6xi64> {graph.name = "indices", graph.extents = array<i64: -1, 2>},
        tensor<6xf32> {graph.name = "doubled"},
        tensor<i64> {graph.name = "indices.extent1"}) {
  %indices, %count = graph.nonzero %x : (tensor<6xf32>) -> (tensor<1x6xi64>, tensor<i64>)
  %doubled = graph.add %x, %x : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  return %indices, %doubled, %count : tensor<1x6xi64>, tensor<6xf32>, tensor<i64>
}

// RANK: error: result 0 of @bad_rank: graph.extents must name one result per dimension
func.func @bad_rank(%x: tensor<6xf32>)
    -> (tensor<1x6xi64> {graph.extents = array<i64: 1>}, tensor<i64>) {
  %indices, %count = graph.nonzero %x : (tensor<6xf32>) -> (tensor<1x6xi64>, tensor<i64>)
  return %indices, %count : tensor<1x6xi64>, tensor<i64>
}

// RESULT: error: result 0 of @bad_result: graph.extents must name results that are tensor<i64> of rank 0
func.func @bad_result(%x: tensor<6xf32>)
    -> (tensor<1x6xi64> {graph.extents = array<i64: -1, 1>}, tensor<6xf32>) {
  %indices, %count = graph.nonzero %x : (tensor<6xf32>) -> (tensor<1x6xi64>, tensor<i64>)
  return %indices, %x : tensor<1x6xi64>, tensor<6xf32>
}

// SELF: error: result 0 of @self: graph.extents must name results that are tensor<i64> of rank 0
func.func @self(%x: tensor<6xf32>)
    -> (tensor<1x6xi64> {graph.extents = array<i64: -1, 0>}, tensor<i64>) {
  %indices, %count = graph.nonzero %x : (tensor<6xf32>) -> (tensor<1x6xi64>, tensor<i64>)
  return %indices, %count : tensor<1x6xi64>, tensor<i64>
}

// The C API and the library ABI pass the model's own outputs first.
// ORDER: error: result 2 of @extent_first follows an extent that graph.extents names: the extents must be the last results
func.func @extent_first(%x: tensor<6xf32>)
    -> (tensor<1x6xi64> {graph.extents = array<i64: -1, 1>}, tensor<i64>, tensor<6xf32>) {
  %indices, %count = graph.nonzero %x : (tensor<6xf32>) -> (tensor<1x6xi64>, tensor<i64>)
  return %indices, %count, %x : tensor<1x6xi64>, tensor<i64>, tensor<6xf32>
}
