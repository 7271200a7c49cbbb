// relu of an unnamed 1-D input.
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = graph.relu %x : tensor<3xf32>
  return %y : tensor<3xf32>
}
