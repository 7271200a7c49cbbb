// Reads one element past the end of its 16-element input: undefined
// behaviour that only an instrumented build of the compiled code reports.
func.func @main(%x: tensor<16xf32>) -> tensor<1xf32> {
  %c16 = arith.constant 16 : index
  %v = tensor.extract %x[%c16] : tensor<16xf32>
  %r = tensor.from_elements %v : tensor<1xf32>
  return %r : tensor<1xf32>
}
