// Two inputs with names, two outputs: the first named, the second not.
func.func @main(%a: tensor<2x3x4xf32> {graph.name = "lhs"},
                %b: tensor<3x1xf32> {graph.name = "rhs"})
    -> (tensor<2x3x4xf32> {graph.name = "sum"}, tensor<2x3x4xf32>) {
  %s = graph.add %a, %b : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %r = graph.relu %s : tensor<2x3x4xf32>
  return %s, %r : tensor<2x3x4xf32>, tensor<2x3x4xf32>
}
