// bfloat16 at the boundary (bfloat16-io.test): doubled in bf16, and widened
// to f32.
func.func @main(%x: tensor<5xbf16> {graph.name = "x"}) -> (tensor<5xbf16> {graph.name = "twice"}, tensor<5xf32> {graph.name = "wide"}) {
  %y = graph.add %x, %x : (tensor<5xbf16>, tensor<5xbf16>) -> tensor<5xbf16>
  %f = graph.cast %x : (tensor<5xbf16>) -> tensor<5xf32>
  return %y, %f : tensor<5xbf16>, tensor<5xf32>
}
