// The demo graph of the seed document, in the graph dialect.
//
//   c1 = 2, c2 = 3, mul = c1 * c2        constant folding turns mul into 6
//   data -> conv -> batch_norm -> relu   with the conv weight and the BN
//   add = relu + mul                     parameters as function arguments:
//   out = add                            fusion makes one kernel of all four
//   dead = relu(data), used by nothing   dead code elimination erases it
//
// Run: graph-opt --graph-optimize examples/seed.mlir
func.func @main(%data: tensor<1x3x8x8xf32> {graph.name = "data"},
                %weight: tensor<4x3x3x3xf32> {graph.name = "conv.weight"},
                %scale: tensor<4xf32> {graph.name = "bn.scale"},
                %bias: tensor<4xf32> {graph.name = "bn.bias"},
                %mean: tensor<4xf32> {graph.name = "bn.mean"},
                %variance: tensor<4xf32> {graph.name = "bn.variance"})
    -> (tensor<1x4x8x8xf32> {graph.name = "out"}) {
  %c1 = graph.constant dense<2.0> : tensor<1xf32>
  %c2 = graph.constant dense<3.0> : tensor<1xf32>
  %mul = graph.mul %c1, %c2 : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  %conv = graph.conv2d %data, %weight {padding = array<i64: 1, 1, 1, 1>}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %bn = graph.batch_norm %conv, %scale, %bias, %mean, %variance
      : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
         tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %relu = graph.relu %bn : tensor<1x4x8x8xf32>
  %add = graph.add %relu, %mul
      : (tensor<1x4x8x8xf32>, tensor<1xf32>) -> tensor<1x4x8x8xf32>
  %dead = graph.relu %data : tensor<1x3x8x8xf32>
  return %add : tensor<1x4x8x8xf32>
}
