// relu of one named 2x3 input.
func.func @main(%x: tensor<2x3xf32> {graph.name = "x"})
    -> (tensor<2x3xf32> {graph.name = "y"}) {
  %y = graph.relu %x : tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
