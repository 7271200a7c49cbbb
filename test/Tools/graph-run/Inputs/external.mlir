// Calls a function that nothing defines: the JIT cannot resolve it.
func.func private @ext_missing(%x: tensor<2xf32>) -> tensor<2xf32>
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = call @ext_missing(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
