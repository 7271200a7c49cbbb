// Three convolutions of one shape with different weights (the blocks of a
// stage of MobileNetV2 or ResNet): graph-merge-kernels compiles them as one
// kernel that takes the weights as arguments, and every call must still
// compute with its own weights. Checked against NumPy at -O0 and -O3, and
// the merge itself on the lowered module.
// RUN: rm -rf %t && mkdir %t
// RUN: graph-run -O0 %s --seed 4 --output %t/y0.npy
// RUN: graph-run -O3 %s --seed 4 --output %t/y3.npy
// RUN: %python %S/Inputs/check_npy.py %t/y0.npy "relu(conv2d(relu(conv2d(relu(conv2d(x, w1, b1, padding=(1, 1, 1, 1))), w2, b2, padding=(1, 1, 1, 1))), w3, b3, padding=(1, 1, 1, 1)))" x=random:4:0:1x2x5x5 --constants %s
// RUN: %python %S/Inputs/check_npy.py %t/y3.npy "relu(conv2d(relu(conv2d(relu(conv2d(x, w1, b1, padding=(1, 1, 1, 1))), w2, b2, padding=(1, 1, 1, 1))), w3, b3, padding=(1, 1, 1, 1)))" x=random:4:0:1x2x5x5 --constants %s
// Merged without graph-pad-in-producer, which would give the first two
// kernels a padded result and the last two a padded input (three shapes).
// RUN: graph-opt %s --graph-optimize --graph-lower-to-llvm="pad-in-producer=false" --mlir-print-ir-after=graph-merge-kernels -o /dev/null 2>&1 | FileCheck %s

// One conv2d_relu kernel is left, with the bias and the weights (in the
// layout the kernel reads) as arguments, called three times.
// CHECK:     func.func private @main_kernel1_conv2d_relu(%{{.*}}: tensor<1x5x5x2xf32>, %{{.*}}: tensor<1x2xf32>, %{{.*}}: tensor<1x3x3x2x2xf32>)
// CHECK-NOT: func.func private @main_kernel{{[23]}}_conv2d_relu
// CHECK:     func.func @main
// CHECK:     call @main_kernel1_conv2d_relu(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK:     call @main_kernel1_conv2d_relu(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK:     call @main_kernel1_conv2d_relu(%{{.*}}, %{{.*}}, %{{.*}})
func.func @main(%x: tensor<1x2x5x5xf32> {graph.name = "x"})
    -> (tensor<1x2x5x5xf32> {graph.name = "y"}) {
 %w1 = graph.constant dense<[[[[0.1016, 0.4163, -0.4182], [0.0217, 0.7859, 0.7926], [-0.7488, -0.5855, -0.8971]], [[-0.1184, -0.9402, -0.0863], [0.2983, -0.4430, 0.3525], [0.1817, -0.9520, 0.1177]]], [[[-0.4815, -0.1698, -0.4329], [0.3863, -0.1191, -0.6863], [0.0893, 0.5606, -0.3873]], [[-0.5561, -0.2241, 0.8728], [0.9520, 0.3448, 0.8057], [0.6915, -0.2440, -0.8156]]]]> : tensor<2x2x3x3xf32>
  %b1 = graph.constant dense<[0.8559, 0.5752]> : tensor<2xf32>
 %w2 = graph.constant dense<[[[[0.3068, 0.1157, -0.2769], [-0.5499, -0.1870, -0.0621], [-0.4615, -0.4164, -0.0846]], [[0.7211, 0.1725, -0.4330], [-0.4440, -0.0908, -0.5892], [-0.5972, 0.0281, -0.8255]]], [[[-0.0328, -0.2756, 0.4154], [0.4935, 0.3822, 0.3784], [-0.2528, 0.3363, -0.3203]], [[0.1456, -0.3484, -0.1097], [-0.8769, -0.5146, 0.9432], [-0.5388, 0.3830, 0.3010]]]]> : tensor<2x2x3x3xf32>
  %b2 = graph.constant dense<[-0.0298, -0.0894]> : tensor<2xf32>
 %w3 = graph.constant dense<[[[[0.4479, -0.0498, 0.1933], [-0.8661, -0.8549, -0.6020], [-0.6963, -0.7998, -0.7414]], [[0.1066, -0.6244, 0.9042], [0.3632, 0.0820, 0.4144], [-0.4722, 0.8535, 0.6784]]], [[[0.4526, -0.0395, 0.6842], [0.4895, 0.3207, 0.8280], [0.2673, -0.2681, 0.1057]], [[-0.6072, -0.6159, 0.4513], [0.5699, 0.9442, 0.7019], [0.0872, -0.8204, -0.0223]]]]> : tensor<2x2x3x3xf32>
  %b3 = graph.constant dense<[-0.5640, -0.6456]> : tensor<2xf32>
  %c1 = graph.conv2d %x, %w1, %b1 {padding = array<i64: 1, 1, 1, 1>}
      : (tensor<1x2x5x5xf32>, tensor<2x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x5x5xf32>
  %r1 = graph.relu %c1 : tensor<1x2x5x5xf32>
  %c2 = graph.conv2d %r1, %w2, %b2 {padding = array<i64: 1, 1, 1, 1>}
      : (tensor<1x2x5x5xf32>, tensor<2x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x5x5xf32>
  %r2 = graph.relu %c2 : tensor<1x2x5x5xf32>
  %c3 = graph.conv2d %r2, %w3, %b3 {padding = array<i64: 1, 1, 1, 1>}
      : (tensor<1x2x5x5xf32>, tensor<2x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x5x5xf32>
  %r3 = graph.relu %c3 : tensor<1x2x5x5xf32>
  return %r3 : tensor<1x2x5x5xf32>
}
