// Functions graph-run cannot call, next to one it can.
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = graph.relu %x : tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func @complex(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  return %x : tensor<2xcomplex<f32>>
}
func.func @dynamic(%x: tensor<2xf32>) -> tensor<?xf32> {
  %c = tensor.cast %x : tensor<2xf32> to tensor<?xf32>
  return %c : tensor<?xf32>
}
func.func private @declaration(%x: tensor<2xf32>) -> tensor<2xf32>
