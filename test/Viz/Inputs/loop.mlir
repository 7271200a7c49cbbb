// A graph.loop whose body runs a conv and ReLU on the value it carries.
func.func @repeat(%m: tensor<i64> {graph.name = "m"}, %x: tensor<1x2x4x4xf32> {graph.name = "x"}) -> (tensor<1x2x4x4xf32> {graph.name = "y"}) {
  %w = graph.constant dense<0.5> : tensor<2x2x1x1xf32> loc("w")
  %c = graph.constant dense<true> : tensor<i1> loc("go")
  %y, %n = graph.loop %m, %c, %x : tensor<i64>, tensor<i1>, tensor<1x2x4x4xf32> -> tensor<1x2x4x4xf32>, tensor<i64> {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %v: tensor<1x2x4x4xf32>):
    %0 = graph.conv2d %v, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32> loc("conv")
    %1 = graph.relu %0 : tensor<1x2x4x4xf32> loc("relu")
    graph.yield %ci, %1 : tensor<i1>, tensor<1x2x4x4xf32>
  } loc("repeat")
  return %y : tensor<1x2x4x4xf32>
}
