// RUN: graph-opt %s --graph-pad-in-producer --split-input-file | FileCheck %s
// graph-lower-to-llvm runs it before outlining the kernels, unless told not
// to.
// RUN: graph-opt %s --split-input-file --graph-lower-to-llvm \
// RUN:   --mlir-print-ir-before=graph-outline-kernels -o /dev/null 2>&1 \
// RUN: | FileCheck %s --check-prefix=ON
// RUN: graph-opt %s --split-input-file \
// RUN:   --graph-lower-to-llvm="pad-in-producer=false" \
// RUN:   --mlir-print-ir-before=graph-outline-kernels -o /dev/null 2>&1 \
// RUN: | FileCheck %s --check-prefix=OFF

// The zero padding of an NHWC conv moves into the group producing its input:
// the producer yields the padded tensor (pads: all begins, then all ends)
// and the conv reads it unpadded.

// CHECK-LABEL: func.func @nhwc_chain
// CHECK: %[[P:.*]] = graph.fused "conv2d_relu"({{.*}}) : ({{.*}}) -> tensor<1x10x11x8xf32>
// CHECK: %[[R:.*]] = graph.relu
// CHECK-NEXT: %[[PAD:.*]] = graph.pad %[[R]] {pads = array<i64: 0, 1, 2, 0, 0, 1, 1, 0>} : (tensor<1x8x8x8xf32>) -> tensor<1x10x11x8xf32>
// CHECK-NEXT: graph.yield %[[PAD]] : tensor<1x10x11x8xf32>
// CHECK: graph.fused "conv2d_relu"(%[[P]], %{{.*}}) : (tensor<1x10x11x8xf32>, tensor<3x3x1x8xf32>)
// CHECK-NEXT: ^bb0(%{{.*}}: tensor<1x10x11x8xf32>
// CHECK-NEXT: graph.conv2d {{.*}} {groups = 8 : i64, layout = #graph<layout NHWC>} :
// ON-LABEL: func.func @nhwc_chain
// ON: graph.pad {{.*}} -> tensor<1x10x11x8xf32>
// OFF-LABEL: func.func @nhwc_chain
// OFF-NOT: graph.pad
// OFF: padding = array<i64: 1, 2, 1, 1>
func.func @nhwc_chain(%x: tensor<1x8x8x4xf32>, %w0: tensor<1x1x4x8xf32>,
                      %w1: tensor<3x3x1x8xf32>) -> tensor<1x8x9x8xf32> {
  %0 = graph.fused "conv2d_relu"(%x, %w0) : (tensor<1x8x8x4xf32>, tensor<1x1x4x8xf32>) -> tensor<1x8x8x8xf32> {
  ^bb0(%a: tensor<1x8x8x4xf32>, %w: tensor<1x1x4x8xf32>):
    %c = graph.conv2d %a, %w {layout = #graph<layout NHWC>} : (tensor<1x8x8x4xf32>, tensor<1x1x4x8xf32>) -> tensor<1x8x8x8xf32>
    %r = graph.relu %c : tensor<1x8x8x8xf32>
    graph.yield %r : tensor<1x8x8x8xf32>
  }
  %1 = graph.fused "conv2d_relu"(%0, %w1) : (tensor<1x8x8x8xf32>, tensor<3x3x1x8xf32>) -> tensor<1x8x9x8xf32> {
  ^bb0(%a: tensor<1x8x8x8xf32>, %w: tensor<3x3x1x8xf32>):
    %c = graph.conv2d %a, %w {groups = 8 : i64, layout = #graph<layout NHWC>, padding = array<i64: 1, 2, 1, 1>} : (tensor<1x8x8x8xf32>, tensor<3x3x1x8xf32>) -> tensor<1x8x9x8xf32>
    %r = graph.relu %c : tensor<1x8x9x8xf32>
    graph.yield %r : tensor<1x8x9x8xf32>
  }
  return %1 : tensor<1x8x9x8xf32>
}

// -----

// Another user of the producer's result would read the padded tensor, and
// a conv that is not the only reader of its block argument would pad it
// for the others: nothing moves.

// CHECK-LABEL: func.func @two_users
// CHECK-NOT: graph.pad
// CHECK: padding = array<i64: 1, 1, 1, 1>
// CHECK-LABEL: func.func @two_readers_in_group
// CHECK-NOT: graph.pad
// CHECK: padding = array<i64: 1, 1, 1, 1>
func.func @two_users(%x: tensor<1x8x8x8xf32>, %w0: tensor<1x1x8x8xf32>,
                     %w1: tensor<3x3x8x8xf32>) -> (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) {
  %0 = graph.fused "conv2d_relu"(%x, %w0) : (tensor<1x8x8x8xf32>, tensor<1x1x8x8xf32>) -> tensor<1x8x8x8xf32> {
  ^bb0(%a: tensor<1x8x8x8xf32>, %w: tensor<1x1x8x8xf32>):
    %c = graph.conv2d %a, %w {layout = #graph<layout NHWC>} : (tensor<1x8x8x8xf32>, tensor<1x1x8x8xf32>) -> tensor<1x8x8x8xf32>
    %r = graph.relu %c : tensor<1x8x8x8xf32>
    graph.yield %r : tensor<1x8x8x8xf32>
  }
  %1 = graph.fused "conv2d_relu"(%0, %w1) : (tensor<1x8x8x8xf32>, tensor<3x3x8x8xf32>) -> tensor<1x8x8x8xf32> {
  ^bb0(%a: tensor<1x8x8x8xf32>, %w: tensor<3x3x8x8xf32>):
    %c = graph.conv2d %a, %w {layout = #graph<layout NHWC>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x8xf32>, tensor<3x3x8x8xf32>) -> tensor<1x8x8x8xf32>
    %r = graph.relu %c : tensor<1x8x8x8xf32>
    graph.yield %r : tensor<1x8x8x8xf32>
  }
  return %0, %1 : tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>
}

func.func @two_readers_in_group(%x: tensor<1x8x8x8xf32>, %w0: tensor<1x1x8x8xf32>,
                                %w1: tensor<3x3x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = graph.fused "conv2d_relu"(%x, %w0) : (tensor<1x8x8x8xf32>, tensor<1x1x8x8xf32>) -> tensor<1x8x8x8xf32> {
  ^bb0(%a: tensor<1x8x8x8xf32>, %w: tensor<1x1x8x8xf32>):
    %c = graph.conv2d %a, %w {layout = #graph<layout NHWC>} : (tensor<1x8x8x8xf32>, tensor<1x1x8x8xf32>) -> tensor<1x8x8x8xf32>
    %r = graph.relu %c : tensor<1x8x8x8xf32>
    graph.yield %r : tensor<1x8x8x8xf32>
  }
  %1 = graph.fused "conv2d_add"(%0, %w1) : (tensor<1x8x8x8xf32>, tensor<3x3x8x8xf32>) -> tensor<1x8x8x8xf32> {
  ^bb0(%a: tensor<1x8x8x8xf32>, %w: tensor<3x3x8x8xf32>):
    %c = graph.conv2d %a, %w {layout = #graph<layout NHWC>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x8xf32>, tensor<3x3x8x8xf32>) -> tensor<1x8x8x8xf32>
    %s = graph.add %c, %a : (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    graph.yield %s : tensor<1x8x8x8xf32>
  }
  return %1 : tensor<1x8x8x8xf32>
}

// -----

// NCHW convs transpose their input inside the kernel, and an input that no
// group produces is no kernel's result: nothing moves.

// CHECK-LABEL: func.func @nchw
// CHECK-NOT: graph.pad
// CHECK-LABEL: func.func @input_not_fused
// CHECK-NOT: graph.pad
func.func @nchw(%x: tensor<1x4x8x8xf32>, %w0: tensor<8x4x1x1xf32>,
                %w1: tensor<8x8x3x3xf32>) -> tensor<1x8x8x8xf32> {
  %0 = graph.fused "conv2d_relu"(%x, %w0) : (tensor<1x4x8x8xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x8x8xf32> {
  ^bb0(%a: tensor<1x4x8x8xf32>, %w: tensor<8x4x1x1xf32>):
    %c = graph.conv2d %a, %w : (tensor<1x4x8x8xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x8x8xf32>
    %r = graph.relu %c : tensor<1x8x8x8xf32>
    graph.yield %r : tensor<1x8x8x8xf32>
  }
  %1 = graph.fused "conv2d_relu"(%0, %w1) : (tensor<1x8x8x8xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x8x8xf32> {
  ^bb0(%a: tensor<1x8x8x8xf32>, %w: tensor<8x8x3x3xf32>):
    %c = graph.conv2d %a, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x8xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x8x8xf32>
    %r = graph.relu %c : tensor<1x8x8x8xf32>
    graph.yield %r : tensor<1x8x8x8xf32>
  }
  return %1 : tensor<1x8x8x8xf32>
}

func.func @input_not_fused(%x: tensor<1x8x8x8xf32>, %w1: tensor<3x3x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %1 = graph.fused "conv2d_relu"(%x, %w1) : (tensor<1x8x8x8xf32>, tensor<3x3x8x8xf32>) -> tensor<1x8x8x8xf32> {
  ^bb0(%a: tensor<1x8x8x8xf32>, %w: tensor<3x3x8x8xf32>):
    %c = graph.conv2d %a, %w {layout = #graph<layout NHWC>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x8xf32>, tensor<3x3x8x8xf32>) -> tensor<1x8x8x8xf32>
    %r = graph.relu %c : tensor<1x8x8x8xf32>
    graph.yield %r : tensor<1x8x8x8xf32>
  }
  return %1 : tensor<1x8x8x8xf32>
}

// -----

// A max pooling pads with -inf: the producer pads with that value (a rank-0
// constant). A conv outside any group moves its padding the same way.

// CHECK-LABEL: func.func @max_pool
// CHECK: graph.fused "conv2d_relu"({{.*}}) -> tensor<1x10x10x8xf32>
// CHECK: %[[NEG:.*]] = graph.constant dense<0xFF800000> : tensor<f32>
// CHECK-NEXT: %[[PAD:.*]] = graph.pad %{{.*}}, %[[NEG]] {pads = array<i64: 0, 1, 1, 0, 0, 1, 1, 0>} : (tensor<1x8x8x8xf32>, tensor<f32>) -> tensor<1x10x10x8xf32>
// CHECK-NEXT: graph.yield %[[PAD]]
// CHECK: graph.max_pool2d %{{.*}} {kernel = array<i64: 3, 3>, layout = #graph<layout NHWC>, strides = array<i64: 2, 2>} : (tensor<1x10x10x8xf32>) -> tensor<1x4x4x8xf32>
// CHECK-LABEL: func.func @bare_conv
// CHECK: graph.pad %{{.*}} {pads = array<i64: 0, 2, 2, 0, 0, 2, 2, 0>} : (tensor<1x8x8x8xf32>) -> tensor<1x12x12x8xf32>
// CHECK: graph.conv2d %{{.*}}, %{{.*}} {layout = #graph<layout NHWC>} : (tensor<1x12x12x8xf32>, tensor<5x5x8x4xf32>)
func.func @max_pool(%x: tensor<1x8x8x4xf32>, %w0: tensor<1x1x4x8xf32>) -> tensor<1x4x4x8xf32> {
  %0 = graph.fused "conv2d_relu"(%x, %w0) : (tensor<1x8x8x4xf32>, tensor<1x1x4x8xf32>) -> tensor<1x8x8x8xf32> {
  ^bb0(%a: tensor<1x8x8x4xf32>, %w: tensor<1x1x4x8xf32>):
    %c = graph.conv2d %a, %w {layout = #graph<layout NHWC>} : (tensor<1x8x8x4xf32>, tensor<1x1x4x8xf32>) -> tensor<1x8x8x8xf32>
    %r = graph.relu %c : tensor<1x8x8x8xf32>
    graph.yield %r : tensor<1x8x8x8xf32>
  }
  %1 = graph.max_pool2d %0 {kernel = array<i64: 3, 3>, layout = #graph<layout NHWC>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x8x8x8xf32>) -> tensor<1x4x4x8xf32>
  return %1 : tensor<1x4x4x8xf32>
}

func.func @bare_conv(%x: tensor<1x8x8x4xf32>, %w0: tensor<1x1x4x8xf32>,
                     %w1: tensor<5x5x8x4xf32>) -> tensor<1x8x8x4xf32> {
  %0 = graph.fused "conv2d_relu"(%x, %w0) : (tensor<1x8x8x4xf32>, tensor<1x1x4x8xf32>) -> tensor<1x8x8x8xf32> {
  ^bb0(%a: tensor<1x8x8x4xf32>, %w: tensor<1x1x4x8xf32>):
    %c = graph.conv2d %a, %w {layout = #graph<layout NHWC>} : (tensor<1x8x8x4xf32>, tensor<1x1x4x8xf32>) -> tensor<1x8x8x8xf32>
    %r = graph.relu %c : tensor<1x8x8x8xf32>
    graph.yield %r : tensor<1x8x8x8xf32>
  }
  %1 = graph.conv2d %0, %w1 {layout = #graph<layout NHWC>, padding = array<i64: 2, 2, 2, 2>} : (tensor<1x8x8x8xf32>, tensor<5x5x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %1 : tensor<1x8x8x4xf32>
}
