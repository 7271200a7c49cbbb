// graph.random_uniform, which the CPU lowering refuses.
func.func @main() -> tensor<2x3xf32> {
  %r = graph.random_uniform {shape = array<i64: 2, 3>} : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
