// Names that are no C identifiers, two of them the same once escaped, types
// other than f32, and a rank-0 result without a name.
func.func @main(%a: tensor<2xi64> {graph.name = "a\"b\\c?"},
                %b: tensor<3xi1> {graph.name = "a-b-c?"},
                %c: tensor<f64>) -> tensor<f64> {
  return %c : tensor<f64>
}
