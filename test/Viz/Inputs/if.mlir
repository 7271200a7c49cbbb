// A graph.if whose then-region holds a conv, batch norm and ReLU.
func.func @branch(%c: tensor<i1> {graph.name = "cond"}, %x: tensor<1x2x4x4xf32> {graph.name = "x"}) -> (tensor<1x2x4x4xf32> {graph.name = "y"}) {
  %w = graph.constant dense<0.5> : tensor<2x2x1x1xf32> loc("w")
  %r = graph.if %c : tensor<i1> -> tensor<1x2x4x4xf32> {
    %0 = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32> loc("conv")
    %1 = graph.relu %0 : tensor<1x2x4x4xf32> loc("relu")
    graph.yield %1 : tensor<1x2x4x4xf32>
  } else {
    %2 = graph.neg %x : tensor<1x2x4x4xf32> loc("neg")
    graph.yield %2 : tensor<1x2x4x4xf32>
  } loc("choose")
  return %r : tensor<1x2x4x4xf32>
}
