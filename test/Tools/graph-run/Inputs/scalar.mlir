// A rank-0 input and output.
func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %y = graph.relu %x : tensor<f32>
  return %y : tensor<f32>
}
