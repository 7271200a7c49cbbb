func.func @main(%x: tensor<32768x1xf32>) -> tensor<1x1x1x1xf32> {
  %t = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<32768x1xf32>) -> tensor<1x32768xf32>
  %m = graph.matmul %x, %t : (tensor<32768x1xf32>, tensor<1x32768xf32>) -> tensor<32768x32768xf32>
  %r = graph.reshape %m {shape = array<i64: 1, 1, 32768, 32768>} : (tensor<32768x32768xf32>) -> tensor<1x1x32768x32768xf32>
  %g = graph.global_avg_pool %r : (tensor<1x1x32768x32768xf32>) -> tensor<1x1x1x1xf32>
  return %g : tensor<1x1x1x1xf32>
}
