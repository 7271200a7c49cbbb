func.func @main(%x: tensor<16777216x1xf32>) -> tensor<1x1x1x1xf32> {
  %t = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<16777216x1xf32>) -> tensor<1x16777216xf32>
  %m = graph.matmul %x, %t : (tensor<16777216x1xf32>, tensor<1x16777216xf32>) -> tensor<16777216x16777216xf32>
  %r = graph.reshape %m {shape = array<i64: 1, 1, 16777216, 16777216>} : (tensor<16777216x16777216xf32>) -> tensor<1x1x16777216x16777216xf32>
  %g = graph.global_avg_pool %r : (tensor<1x1x16777216x16777216xf32>) -> tensor<1x1x1x1xf32>
  return %g : tensor<1x1x1x1xf32>
}
