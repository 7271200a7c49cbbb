// RUN: graph-opt --graph-fuse %s | FileCheck %s
// RUN: graph-opt --graph-fuse --graph-report %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: graph-opt --graph-fuse=attention=false %s | FileCheck %s --check-prefix=OFF

// OFF-NOT: graph.attention

// graph-fuse recognizes scaled dot-product attention written out: Q . K^T,
// a constant scale (div or mul, either side), an additive mask, softmax
// along the keys, P . V. A full run of the ONNX forms is in
// test/Target/ONNX/transformers.test; the numbers in
// test/Integration/ops/attention.test.

// REPORT: graph.attention: 3

// PyTorch's export: div by sqrt(d), a causal mask of the scores' last two
// dimensions (reshaped to their rank).
// CHECK-LABEL: func.func @causal
// CHECK-SAME:    (%[[Q:.*]]: tensor<1x2x5x4xf32>, %[[K:.*]]: tensor<1x2x4x5xf32>, %[[V:.*]]: tensor<1x2x5x3xf32>, %[[M:.*]]: tensor<5x5xf32>)
// CHECK:         %[[MASK:.*]] = graph.reshape %[[M]] {shape = array<i64: 1, 1, 5, 5>}
// CHECK:         %[[O:.*]] = graph.attention %[[Q]], %[[K]], %[[V]] mask %[[MASK]] {scale = 5.000000e-01 : f32}
// CHECK-SAME:      -> tensor<1x2x5x3xf32>
// CHECK-NEXT:    return %[[O]]
func.func @causal(%q: tensor<1x2x5x4xf32>, %k: tensor<1x2x4x5xf32>, %v: tensor<1x2x5x3xf32>,
                  %m: tensor<5x5xf32>) -> tensor<1x2x5x3xf32> {
  %c = graph.constant dense<2.0> : tensor<f32>
  %s = graph.batch_matmul %q, %k : (tensor<1x2x5x4xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x5x5xf32>
  %d = graph.div %s, %c : (tensor<1x2x5x5xf32>, tensor<f32>) -> tensor<1x2x5x5xf32>
  %a = graph.add %d, %m : (tensor<1x2x5x5xf32>, tensor<5x5xf32>) -> tensor<1x2x5x5xf32>
  %p = graph.softmax %a {axis = 3} : tensor<1x2x5x5xf32>
  %o = graph.batch_matmul %p, %v : (tensor<1x2x5x5xf32>, tensor<1x2x5x3xf32>) -> tensor<1x2x5x3xf32>
  return %o : tensor<1x2x5x3xf32>
}

// The scale on the left of a mul; a padding mask that every query row
// shares, on the left of the add; no mask and no scale.
// CHECK-LABEL: func.func @forms
// CHECK:         graph.attention %arg0, %arg1, %arg2 mask %arg3 {scale = 2.500000e-01 : f32} : (tensor<2x5x4xf32>, tensor<2x4x6xf32>, tensor<2x6x3xf32>, tensor<2x1x6xf32>)
// CHECK:         graph.attention %arg0, %arg1, %arg2 : (tensor<2x5x4xf32>, tensor<2x4x6xf32>, tensor<2x6x3xf32>)
// CHECK-NOT:     graph.softmax
func.func @forms(%q: tensor<2x5x4xf32>, %k: tensor<2x4x6xf32>, %v: tensor<2x6x3xf32>,
                 %m: tensor<2x1x6xf32>) -> (tensor<2x5x3xf32>, tensor<2x5x3xf32>) {
  %c = graph.constant dense<0.25> : tensor<1xf32>
  %s = graph.batch_matmul %q, %k : (tensor<2x5x4xf32>, tensor<2x4x6xf32>) -> tensor<2x5x6xf32>
  %d = graph.mul %c, %s : (tensor<1xf32>, tensor<2x5x6xf32>) -> tensor<2x5x6xf32>
  %a = graph.add %m, %d : (tensor<2x1x6xf32>, tensor<2x5x6xf32>) -> tensor<2x5x6xf32>
  %p = graph.softmax %a : tensor<2x5x6xf32>
  %o = graph.batch_matmul %p, %v : (tensor<2x5x6xf32>, tensor<2x6x3xf32>) -> tensor<2x5x3xf32>
  %s2 = graph.batch_matmul %q, %k : (tensor<2x5x4xf32>, tensor<2x4x6xf32>) -> tensor<2x5x6xf32>
  %p2 = graph.softmax %s2 : tensor<2x5x6xf32>
  %o2 = graph.batch_matmul %p2, %v : (tensor<2x5x6xf32>, tensor<2x6x3xf32>) -> tensor<2x5x3xf32>
  return %o, %o2 : tensor<2x5x3xf32>, tensor<2x5x3xf32>
}

// Not attention: a scale that is not a constant, a mask that multiplies,
// the softmax along the queries, probabilities that are also a result,
// batch dimensions that broadcast.
// CHECK-LABEL: func.func @not_attention
// CHECK-NOT:     graph.attention
// CHECK:         return
func.func @not_attention(%q: tensor<2x5x4xf32>, %k: tensor<2x4x5xf32>, %v: tensor<2x5x3xf32>,
                         %e: tensor<f32>, %m: tensor<2x5x5xf32>, %k1: tensor<1x4x5xf32>)
    -> (tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<2x5x5xf32>, tensor<2x5x3xf32>) {
  %s = graph.batch_matmul %q, %k : (tensor<2x5x4xf32>, tensor<2x4x5xf32>) -> tensor<2x5x5xf32>
  %d = graph.mul %s, %e : (tensor<2x5x5xf32>, tensor<f32>) -> tensor<2x5x5xf32>
  %p = graph.softmax %d : tensor<2x5x5xf32>
  %o = graph.batch_matmul %p, %v : (tensor<2x5x5xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>

  %s2 = graph.batch_matmul %q, %k : (tensor<2x5x4xf32>, tensor<2x4x5xf32>) -> tensor<2x5x5xf32>
  %x2 = graph.mul %s2, %m : (tensor<2x5x5xf32>, tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
  %p2 = graph.softmax %x2 : tensor<2x5x5xf32>
  %o2 = graph.batch_matmul %p2, %v : (tensor<2x5x5xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>

  %s3 = graph.batch_matmul %q, %k : (tensor<2x5x4xf32>, tensor<2x4x5xf32>) -> tensor<2x5x5xf32>
  %p3 = graph.softmax %s3 {axis = 1} : tensor<2x5x5xf32>
  %o3 = graph.batch_matmul %p3, %v : (tensor<2x5x5xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>

  %s4 = graph.batch_matmul %q, %k : (tensor<2x5x4xf32>, tensor<2x4x5xf32>) -> tensor<2x5x5xf32>
  %p4 = graph.softmax %s4 : tensor<2x5x5xf32>
  %o4 = graph.batch_matmul %p4, %v : (tensor<2x5x5xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>

  %s5 = graph.batch_matmul %q, %k1 : (tensor<2x5x4xf32>, tensor<1x4x5xf32>) -> tensor<2x5x5xf32>
  %p5 = graph.softmax %s5 : tensor<2x5x5xf32>
  %o5 = graph.batch_matmul %p5, %v : (tensor<2x5x5xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  return %o, %o2, %o3, %o4, %p4, %o5
      : tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<2x5x5xf32>, tensor<2x5x3xf32>
}
