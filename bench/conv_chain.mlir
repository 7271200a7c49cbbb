func.func @main(%x: tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32> {
  %w = graph.constant dense<0.01> : tensor<64x64x3x3xf32>
  %b = graph.constant dense<0.1> : tensor<64xf32>
  %c0 = graph.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
  %r0 = graph.relu %c0 : tensor<1x64x56x56xf32>
  %c1 = graph.conv2d %r0, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
  %r1 = graph.relu %c1 : tensor<1x64x56x56xf32>
  %c2 = graph.conv2d %r1, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
  %r2 = graph.relu %c2 : tensor<1x64x56x56xf32>
  %c3 = graph.conv2d %r2, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
  %r3 = graph.relu %c3 : tensor<1x64x56x56xf32>
  %c4 = graph.conv2d %r3, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
  %r4 = graph.relu %c4 : tensor<1x64x56x56xf32>
  %c5 = graph.conv2d %r4, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
  %r5 = graph.relu %c5 : tensor<1x64x56x56xf32>
  %s = graph.add %r5, %x : (tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return %s : tensor<1x64x56x56xf32>
}
