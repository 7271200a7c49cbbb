// RUN: graph-opt --graph-fuse %s | FileCheck %s
// RUN: graph-opt --graph-fuse --graph-report %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// graph-fuse's first pattern set: layer norms and RMS norms written out in
// elementwise ops and reductions become graph.layer_norm and graph.rms_norm.
// The ONNX forms (PyTorch's export before opset 17, LLaMA's RMSNorm) are in
// test/Target/ONNX/normalizations.test.

// REPORT: graph.layer_norm: 3
// REPORT: graph.rms_norm: 2

// ONNX's LayerNormalization function: the inverse deviation by reciprocal,
// the scale on the left, a bias of shape 1x1x8 (reshaped to the row's).
// CHECK-LABEL: func.func @reciprocal_form
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x8xf32>, %[[S:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<1x1x8xf32>)
// CHECK:         %[[ROWB:.*]] = graph.reshape %[[B]] {shape = array<i64: 8>}
// CHECK:         %[[Y:.*]] = graph.layer_norm %[[X]] scale %[[S]] bias %[[ROWB]] {axis = 2 : i64, epsilon = 1.000000e-03 : f32}
// CHECK-NOT:     graph.reduce_mean
// CHECK:         return %[[Y]]
func.func @reciprocal_form(%x: tensor<2x3x8xf32>, %s: tensor<8xf32>, %b: tensor<1x1x8xf32>) -> tensor<2x3x8xf32> {
  %eps = graph.constant dense<1.0e-3> : tensor<f32>
  %mean = graph.reduce_mean %x {axes = array<i64: -1>, keepdims} : (tensor<2x3x8xf32>) -> tensor<2x3x1xf32>
  %d = graph.sub %x, %mean : (tensor<2x3x8xf32>, tensor<2x3x1xf32>) -> tensor<2x3x8xf32>
  %dd = graph.mul %d, %d : (tensor<2x3x8xf32>, tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %var = graph.reduce_mean %dd {axes = array<i64: 2>, keepdims} : (tensor<2x3x8xf32>) -> tensor<2x3x1xf32>
  %ve = graph.add %eps, %var : (tensor<f32>, tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  %sd = graph.sqrt %ve : tensor<2x3x1xf32>
  %inv = graph.reciprocal %sd : tensor<2x3x1xf32>
  %n = graph.mul %inv, %d : (tensor<2x3x1xf32>, tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %sc = graph.mul %s, %n : (tensor<8xf32>, tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %y = graph.add %sc, %b : (tensor<2x3x8xf32>, tensor<1x1x8xf32>) -> tensor<2x3x8xf32>
  return %y : tensor<2x3x8xf32>
}

// Over the last two dimensions; an intermediate with a dead user goes with
// the pattern (the dead user too).
// CHECK-LABEL: func.func @two_dims_dead_user
// CHECK:         %[[Y:.*]] = graph.layer_norm %arg0 {axis = 1 : i64} :
// CHECK-NOT:     graph.relu
// CHECK:         return %[[Y]]
func.func @two_dims_dead_user(%x: tensor<2x3x8xf32>) -> tensor<2x3x8xf32> {
  %eps = graph.constant dense<1.0e-5> : tensor<1x1x1xf32>
  %mean = graph.reduce_mean %x {axes = array<i64: 2, 1>, keepdims} : (tensor<2x3x8xf32>) -> tensor<2x1x1xf32>
  %d = graph.sub %x, %mean : (tensor<2x3x8xf32>, tensor<2x1x1xf32>) -> tensor<2x3x8xf32>
  %dead = graph.relu %d : tensor<2x3x8xf32>
  %dd = graph.mul %d, %d : (tensor<2x3x8xf32>, tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %var = graph.reduce_mean %dd {axes = array<i64: 1, 2>, keepdims} : (tensor<2x3x8xf32>) -> tensor<2x1x1xf32>
  %ve = graph.add %var, %eps : (tensor<2x1x1xf32>, tensor<1x1x1xf32>) -> tensor<2x1x1xf32>
  %sd = graph.sqrt %ve : tensor<2x1x1xf32>
  %y = graph.div %d, %sd : (tensor<2x3x8xf32>, tensor<2x1x1xf32>) -> tensor<2x3x8xf32>
  return %y : tensor<2x3x8xf32>
}

// x - mean is also a result: no layer norm (it would compute x - mean
// again), but what follows it is an RMS norm of x - mean. The variance
// reduced over other axes than the mean, or an epsilon that is not a
// constant: nothing.
// CHECK-LABEL: func.func @not_normalizations
// CHECK-NOT:     graph.layer_norm
// CHECK:         %[[MEAN:.*]] = graph.reduce_mean %arg0
// CHECK:         %[[D:.*]] = graph.sub %arg0, %[[MEAN]]
// CHECK:         %[[Y:.*]] = graph.rms_norm %[[D]] {axis = 1 : i64}
// CHECK-NOT:     graph.layer_norm
// CHECK-NOT:     graph.rms_norm
// CHECK:         return %[[Y]], %[[D]], %{{.*}} :
func.func @not_normalizations(%x: tensor<4x8xf32>, %e: tensor<f32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %eps = graph.constant dense<1.0e-5> : tensor<f32>
  %mean = graph.reduce_mean %x {axes = array<i64: 1>, keepdims} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %d = graph.sub %x, %mean : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %dd = graph.mul %d, %d : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %var = graph.reduce_mean %dd {axes = array<i64: 1>, keepdims} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %ve = graph.add %var, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %sd = graph.sqrt %ve : tensor<4x1xf32>
  %y = graph.div %d, %sd : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>

  %mean2 = graph.reduce_mean %x {axes = array<i64: 1>, keepdims} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %d2 = graph.sub %x, %mean2 : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %dd2 = graph.mul %d2, %d2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %var2 = graph.reduce_mean %dd2 {axes = array<i64: 0, 1>, keepdims} : (tensor<4x8xf32>) -> tensor<1x1xf32>
  %ve2 = graph.add %var2, %eps : (tensor<1x1xf32>, tensor<f32>) -> tensor<1x1xf32>
  %sd2 = graph.sqrt %ve2 : tensor<1x1xf32>
  %y2 = graph.div %d2, %sd2 : (tensor<4x8xf32>, tensor<1x1xf32>) -> tensor<4x8xf32>

  %sq = graph.mul %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ms = graph.reduce_mean %sq {axes = array<i64: 1>, keepdims} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %me = graph.add %ms, %e : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %rs = graph.sqrt %me : tensor<4x1xf32>
  %y3 = graph.div %x, %rs : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %y, %d, %y3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// RMSNorm with the scale and torch's rsqrt (1 / sqrt); a layer norm whose
// scale is used elsewhere too (a parameter may be) and whose result has two
// users.
// CHECK-LABEL: func.func @rms_and_shared
// CHECK:         %[[R:.*]] = graph.rms_norm %arg0 scale %arg1 {axis = 1 : i64, epsilon = 9.99999997E-7 : f32}
// CHECK:         %[[L:.*]] = graph.layer_norm %arg0 scale %arg1 {axis = 1 : i64, epsilon = 9.99999997E-7 : f32}
// CHECK:         graph.fused "add_add"(%[[R]], %[[L]])
func.func @rms_and_shared(%x: tensor<4x8xf32>, %s: tensor<8xf32>) -> tensor<4x8xf32> {
  %eps = graph.constant dense<1.0e-6> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %sq = graph.mul %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ms = graph.reduce_mean %sq {axes = array<i64: 1>, keepdims} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %me = graph.add %ms, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %rs = graph.sqrt %me : tensor<4x1xf32>
  %inv = graph.div %one, %rs : (tensor<f32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %n = graph.mul %x, %inv : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %r = graph.mul %n, %s : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>

  %mean = graph.reduce_mean %x {axes = array<i64: 1>, keepdims} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %d = graph.sub %x, %mean : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %dd = graph.mul %d, %d : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %var = graph.reduce_mean %dd {axes = array<i64: 1>, keepdims} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %ve = graph.add %var, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %sd = graph.sqrt %ve : tensor<4x1xf32>
  %y = graph.div %d, %sd : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %l = graph.mul %y, %s : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %sum = graph.add %r, %l : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %out = graph.add %sum, %l : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %out : tensor<4x8xf32>
}
