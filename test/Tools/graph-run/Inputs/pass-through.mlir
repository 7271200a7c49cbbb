// Typed inputs passed through to the outputs (typed-io.test).
func.func @pass_through(%a: tensor<2x2xi64>, %b: tensor<3xi1>, %c: tensor<3xui8>, %d: tensor<2xf64>, %e: tensor<3xf16>) -> (tensor<2x2xi64>, tensor<3xi1>, tensor<3xui8>, tensor<2xf64>, tensor<3xf16>) {
  return %a, %b, %c, %d, %e : tensor<2x2xi64>, tensor<3xi1>, tensor<3xui8>, tensor<2xf64>, tensor<3xf16>
}
