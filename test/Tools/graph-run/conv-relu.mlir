// conv2d with bias, stride 2 and asymmetric padding, then relu, on random
// inputs from --seed: the reference rebuilds them from graph-run's documented
// generator, so this checks the generator and the compiled code at once.
// RUN: rm -rf %t && mkdir %t
// RUN: graph-run -O0 %s --seed 5 --output %t/y0.npy
// RUN: graph-run -O1 %s --seed 5 --output %t/y1.npy
// RUN: graph-run -O2 %s --seed 5 --output %t/y2.npy
// RUN: graph-run -O3 %s --seed 5 --output %t/y3.npy
// RUN: %python %S/Inputs/check_npy.py %t/y0.npy "relu(conv2d(x, w, b, strides=(2, 2), padding=(1, 0, 2, 1)))" x=random:5:0:1x3x9x8,6x3x3x3,6 w=random:5:1:1x3x9x8,6x3x3x3,6 b=random:5:2:1x3x9x8,6x3x3x3,6
// RUN: %python %S/Inputs/check_npy.py %t/y1.npy "relu(conv2d(x, w, b, strides=(2, 2), padding=(1, 0, 2, 1)))" x=random:5:0:1x3x9x8,6x3x3x3,6 w=random:5:1:1x3x9x8,6x3x3x3,6 b=random:5:2:1x3x9x8,6x3x3x3,6
// RUN: %python %S/Inputs/check_npy.py %t/y2.npy "relu(conv2d(x, w, b, strides=(2, 2), padding=(1, 0, 2, 1)))" x=random:5:0:1x3x9x8,6x3x3x3,6 w=random:5:1:1x3x9x8,6x3x3x3,6 b=random:5:2:1x3x9x8,6x3x3x3,6
// RUN: %python %S/Inputs/check_npy.py %t/y3.npy "relu(conv2d(x, w, b, strides=(2, 2), padding=(1, 0, 2, 1)))" x=random:5:0:1x3x9x8,6x3x3x3,6 w=random:5:1:1x3x9x8,6x3x3x3,6 b=random:5:2:1x3x9x8,6x3x3x3,6

// OH = floor((9 + 1 + 2 - 3) / 2) + 1 = 5, OW = floor((8 + 0 + 1 - 3) / 2) + 1 = 4.
func.func @main(%x: tensor<1x3x9x8xf32> {graph.name = "x"},
                %w: tensor<6x3x3x3xf32> {graph.name = "w"},
                %b: tensor<6xf32> {graph.name = "b"})
    -> (tensor<1x6x5x4xf32> {graph.name = "y"}) {
  %c = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>,
                                padding = array<i64: 1, 0, 2, 1>}
      : (tensor<1x3x9x8xf32>, tensor<6x3x3x3xf32>, tensor<6xf32>)
      -> tensor<1x6x5x4xf32>
  %y = graph.relu %c : tensor<1x6x5x4xf32>
  return %y : tensor<1x6x5x4xf32>
}
