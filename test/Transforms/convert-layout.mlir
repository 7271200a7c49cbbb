// RUN: graph-opt %s --graph-convert-layout --split-input-file | FileCheck %s
// Running the pass twice gives the same IR as running it once.
// RUN: graph-opt %s --graph-convert-layout --split-input-file \
// RUN:   | graph-opt --graph-convert-layout --split-input-file | FileCheck %s

// A small ResNet: every conv and pool runs in NHWC and the layout changes
// between them cancel. One transpose is left, at the input; the global
// pool's 1x1xC result needs none (a reshape). The constant weights are
// permuted to HWCF at compile time; the batch_norm moves with the layout.

// CHECK-LABEL: func.func @resnet
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8xf32>, %[[S:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[XT:.*]] = graph.transpose %[[X]] {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32>
// CHECK-NOT: graph.transpose
// CHECK: %[[W1:.*]] = graph.constant dense<5.000000e-01> : tensor<3x3x3x4xf32>
// CHECK-NEXT: %[[C1:.*]] = graph.conv2d %[[XT]], %[[W1]] {layout = #graph<layout NHWC>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
// CHECK-NEXT: %[[BN:.*]] = graph.batch_norm %[[C1]], %[[S]], %[[S]], %[[S]], %[[S]] {layout = #graph<layout NHWC>}
// CHECK-NEXT: %[[R1:.*]] = graph.relu %[[BN]] : tensor<1x8x8x4xf32>
// CHECK-NEXT: %[[P:.*]] = graph.max_pool2d %[[R1]] {kernel = array<i64: 2, 2>, layout = #graph<layout NHWC>, strides = array<i64: 2, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK: %[[C2:.*]] = graph.conv2d %[[P]], %{{.*}} {layout = #graph<layout NHWC>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x4x4x4xf32>, tensor<3x3x4x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT: %[[ADD:.*]] = graph.add %[[C2]], %[[P]] : (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT: %[[R2:.*]] = graph.relu %[[ADD]]
// CHECK-NEXT: %[[G:.*]] = graph.global_avg_pool %[[R2]] {layout = #graph<layout NHWC>} : (tensor<1x4x4x4xf32>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT: %[[GR:.*]] = graph.reshape %[[G]] {shape = array<i64: 1, 4, 1, 1>} : (tensor<1x1x1x4xf32>) -> tensor<1x4x1x1xf32>
// CHECK-NEXT: %[[F:.*]] = graph.flatten %[[GR]]
// CHECK-NOT: graph.transpose
// CHECK: return
func.func @resnet(%x: tensor<1x3x8x8xf32>, %s: tensor<4xf32>) -> tensor<1x10xf32> {
  %w = graph.constant dense<0.5> : tensor<4x3x3x3xf32>
  %0 = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = graph.batch_norm %0, %s, %s, %s, %s : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %2 = graph.relu %1 : tensor<1x4x8x8xf32>
  %p = graph.max_pool2d %2 {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  %w2 = graph.constant dense<0.25> : tensor<4x4x3x3xf32>
  %3 = graph.conv2d %p, %w2 {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x4x4xf32>
  %4 = graph.add %3, %p : (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %5 = graph.relu %4 : tensor<1x4x4x4xf32>
  %g = graph.global_avg_pool %5 : (tensor<1x4x4x4xf32>) -> tensor<1x4x1x1xf32>
  %f = graph.flatten %g : (tensor<1x4x1x1xf32>) -> tensor<1x4xf32>
  %fw = graph.constant dense<0.1> : tensor<4x10xf32>
  %y = graph.gemm %f, %fw : (tensor<1x4xf32>, tensor<4x10xf32>) -> tensor<1x10xf32>
  return %y : tensor<1x10xf32>
}

// -----

// A constant weight is permuted FCHW -> HWCF by the transpose's fold hook:
// weight[f][0][0][kw] lands at [0][kw][0][f].

// CHECK-LABEL: func.func @weight_values
// CHECK: graph.constant dense<{{\[\[\[\[}}1.000000e+00, 3.000000e+00]], {{\[\[}}2.000000e+00, 4.000000e+00]]]]> : tensor<1x2x1x2xf32>
// CHECK-NOT: graph.constant dense<{{\[\[\[\[}}1.000000e+00, 2.000000e+00]]]
func.func @weight_values(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x3x1xf32> {
  %w = graph.constant dense<[[[[1.0, 2.0]]], [[[3.0, 4.0]]]]> : tensor<2x1x1x2xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x2xf32>) -> tensor<1x2x3x2xf32>
  %1 = graph.max_pool2d %0 {kernel = array<i64: 1, 2>} : (tensor<1x2x3x2xf32>) -> tensor<1x2x3x1xf32>
  return %1 : tensor<1x2x3x1xf32>
}

// -----

// A conv alone (no other conv or pool reachable through ops that run in
// either layout) stays NCHW: its two layout changes would stay whatever the
// pass did, and the NCHW lowering does them tile by tile in its kernel.

// CHECK-LABEL: func.func @lone_conv
// CHECK-NOT: graph.transpose
// CHECK-NOT: layout
// CHECK: return
func.func @lone_conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>,
                     %s: tensor<4xf32>) -> tensor<1x4x6x6xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %1 = graph.batch_norm %0, %s, %s, %s, %s : (tensor<1x4x6x6xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  %2 = graph.relu %1 : tensor<1x4x6x6xf32>
  %3 = graph.softmax %2 {axis = 1} : tensor<1x4x6x6xf32>
  %4 = graph.relu %3 : tensor<1x4x6x6xf32>
  %5 = graph.max_pool2d %4 {kernel = array<i64: 2, 2>} : (tensor<1x4x6x6xf32>) -> tensor<1x4x5x5xf32>
  return %2 : tensor<1x4x6x6xf32>
}

// -----

// A conv whose output is both a model output and the input of another conv:
// the transpose of the first output must stay (the model returns NCHW); the
// second conv reads the NHWC value directly.

// CHECK-LABEL: func.func @conv_two_users
// CHECK: %[[C1:.*]] = graph.conv2d {{.*}}layout = #graph<layout NHWC>
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[C1]] : tensor<1x8x8x4xf32>
// CHECK-NEXT: %[[OUT1:.*]] = graph.transpose %[[R]] {perm = array<i64: 0, 3, 1, 2>}
// CHECK: %[[C2:.*]] = graph.conv2d %[[R]], %{{.*}} {layout = #graph<layout NHWC>}
// CHECK-NEXT: %[[OUT2:.*]] = graph.transpose %[[C2]] {perm = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: return %[[OUT1]], %[[OUT2]]
func.func @conv_two_users(%x: tensor<1x3x8x8xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) {
  %w = graph.constant dense<0.5> : tensor<4x3x3x3xf32>
  %w2 = graph.constant dense<0.25> : tensor<4x4x1x1xf32>
  %0 = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = graph.relu %0 : tensor<1x4x8x8xf32>
  %2 = graph.conv2d %1, %w2 : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  return %1, %2 : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>
}

// -----

// Two convs of one input share its layout change; their concat along the
// channels becomes a concat along the last dimension, and the relu after it
// runs in NHWC too. Non-constant weights are transposed where they enter.

// CHECK-LABEL: func.func @concat_convs
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8xf32>, %[[W1:.*]]: tensor<2x3x1x1xf32>, %[[W2:.*]]: tensor<5x3x1x1xf32>)
// CHECK-NEXT: %[[XT:.*]] = graph.transpose %[[X]] {perm = array<i64: 0, 2, 3, 1>}
// CHECK-NEXT: %[[W1T:.*]] = graph.transpose %[[W1]] {perm = array<i64: 2, 3, 1, 0>}
// CHECK-NEXT: %[[C1:.*]] = graph.conv2d %[[XT]], %[[W1T]] {layout = #graph<layout NHWC>}
// CHECK-NEXT: %[[W2T:.*]] = graph.transpose %[[W2]] {perm = array<i64: 2, 3, 1, 0>}
// CHECK-NEXT: %[[C2:.*]] = graph.conv2d %[[XT]], %[[W2T]] {layout = #graph<layout NHWC>}
// CHECK-NEXT: %[[CAT:.*]] = graph.concat %[[C1]], %[[C2]] {axis = 3 : i64} : (tensor<1x8x8x2xf32>, tensor<1x8x8x5xf32>) -> tensor<1x8x8x7xf32>
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[CAT]] : tensor<1x8x8x7xf32>
// CHECK-NEXT: %[[T:.*]] = graph.transpose %[[R]] {perm = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: return %[[T]]
func.func @concat_convs(%x: tensor<1x3x8x8xf32>, %w1: tensor<2x3x1x1xf32>, %w2: tensor<5x3x1x1xf32>) -> tensor<1x7x8x8xf32> {
  %0 = graph.conv2d %x, %w1 : (tensor<1x3x8x8xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x8x8xf32>
  %1 = graph.conv2d %x, %w2 : (tensor<1x3x8x8xf32>, tensor<5x3x1x1xf32>) -> tensor<1x5x8x8xf32>
  %2 = graph.concat %0, %1 {axis = 1} : (tensor<1x2x8x8xf32>, tensor<1x5x8x8xf32>) -> tensor<1x7x8x8xf32>
  %3 = graph.relu %2 : tensor<1x7x8x8xf32>
  return %3 : tensor<1x7x8x8xf32>
}

// -----

// The same with the channel axis counted from the end (-3): the concat moves
// to NHWC all the same.

// CHECK-LABEL: func.func @concat_negative_axis
// CHECK: graph.concat %{{.*}}, %{{.*}} {axis = 3 : i64} : (tensor<1x8x8x2xf32>, tensor<1x8x8x5xf32>) -> tensor<1x8x8x7xf32>
// CHECK-NEXT: graph.relu %{{.*}} : tensor<1x8x8x7xf32>
func.func @concat_negative_axis(%x: tensor<1x3x8x8xf32>, %w1: tensor<2x3x1x1xf32>, %w2: tensor<5x3x1x1xf32>) -> tensor<1x7x8x8xf32> {
  %0 = graph.conv2d %x, %w1 : (tensor<1x3x8x8xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x8x8xf32>
  %1 = graph.conv2d %x, %w2 : (tensor<1x3x8x8xf32>, tensor<5x3x1x1xf32>) -> tensor<1x5x8x8xf32>
  %2 = graph.concat %0, %1 {axis = -3} : (tensor<1x2x8x8xf32>, tensor<1x5x8x8xf32>) -> tensor<1x7x8x8xf32>
  %3 = graph.relu %2 : tensor<1x7x8x8xf32>
  return %3 : tensor<1x7x8x8xf32>
}

// -----

// An op with no NHWC form (softmax over the channels) keeps the transpose
// before it; the per-channel bias before it is permuted at compile time.

// CHECK-LABEL: func.func @softmax_needs_nchw
// CHECK: %[[C:.*]] = graph.conv2d {{.*}}layout = #graph<layout NHWC>
// CHECK-NEXT: %[[B:.*]] = graph.constant dense<[{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]]]> : tensor<1x1x4xf32>
// CHECK-NEXT: %[[ADD:.*]] = graph.add %[[C]], %[[B]]
// CHECK-NEXT: %[[T:.*]] = graph.transpose %[[ADD]] {perm = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: graph.softmax %[[T]] {axis = 1 : i64}
func.func @softmax_needs_nchw(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x1x1xf32>) -> tensor<1x4x8x8xf32> {
  %b = graph.constant dense<[[[1.0]], [[2.0]], [[3.0]], [[4.0]]]> : tensor<4x1x1xf32>
  %p = graph.max_pool2d %x {kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %0 = graph.conv2d %p, %w : (tensor<1x3x8x8xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x8x8xf32>
  %1 = graph.add %0, %b : (tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %2 = graph.softmax %1 {axis = 1} : tensor<1x4x8x8xf32>
  return %2 : tensor<1x4x8x8xf32>
}

// -----

// A pool whose input does not come from NHWC stays NCHW: converting it
// would add two layout changes. Depthwise convs convert like any other,
// and an avg_pool after one follows it into NHWC.

// CHECK-LABEL: func.func @pools
// CHECK-NEXT: %[[P:.*]] = graph.max_pool2d %{{.*}} {kernel = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x7x7xf32>
// CHECK-NEXT: %[[PT:.*]] = graph.transpose %[[P]] {perm = array<i64: 0, 2, 3, 1>}
// CHECK: %[[D:.*]] = graph.conv2d %[[PT]], %{{.*}} {groups = 4 : i64, layout = #graph<layout NHWC>} : (tensor<1x7x7x4xf32>, tensor<3x3x1x4xf32>) -> tensor<1x5x5x4xf32>
// CHECK-NEXT: %[[A:.*]] = graph.avg_pool2d %[[D]] {count_include_pad, kernel = array<i64: 2, 2>, layout = #graph<layout NHWC>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x5x5x4xf32>) -> tensor<1x3x3x4xf32>
// CHECK-NEXT: %[[T:.*]] = graph.transpose %[[A]] {perm = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: return %[[T]]
func.func @pools(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x3x3xf32> {
  %p = graph.max_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x7x7xf32>
  %w = graph.constant dense<0.5> : tensor<4x1x3x3xf32>
  %0 = graph.conv2d %p, %w {groups = 4} : (tensor<1x4x7x7xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x5x5xf32>
  %1 = graph.avg_pool2d %0 {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, count_include_pad} : (tensor<1x4x5x5xf32>) -> tensor<1x4x3x3xf32>
  return %1 : tensor<1x4x3x3xf32>
}

// -----

// Ops inside a fused group are left as they are.

// CHECK-LABEL: func.func @inside_fused
// CHECK-NOT: graph.transpose
// CHECK: graph.conv2d
// CHECK-NOT: layout
// CHECK: graph.yield
func.func @inside_fused(%x: tensor<1x1x3x3xf32>, %w: tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32> {
  %0 = graph.fused "conv2d_relu"(%x, %w) : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32> {
  ^bb0(%a: tensor<1x1x3x3xf32>, %b: tensor<2x1x1x1xf32>):
    %1 = graph.conv2d %a, %b : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
    %2 = graph.relu %1 : tensor<1x2x3x3xf32>
    graph.yield %2 : tensor<1x2x3x3xf32>
  }
  return %0 : tensor<1x2x3x3xf32>
}

// -----

// Dead ops change nothing (graph-optimize is idempotent: its DCE at the end
// must not enable a second run of this pass to do more, found by
// fuzz/random_graphs.py). The softmax, a dead user of the conv's result,
// does not keep the avg_pool from following the conv into NHWC, and the dead
// max_pool does not make a lone conv worth converting. A constant input is
// permuted at compile time.

// CHECK-LABEL: func.func @dead_users
// CHECK: %[[C:.*]] = graph.conv2d %{{.*}} {layout = #graph<layout NHWC>}
// CHECK-NEXT: graph.transpose %[[C]]
// CHECK-NEXT: graph.softmax
// CHECK-NEXT: %[[A:.*]] = graph.avg_pool2d %[[C]] {kernel = array<i64: 2, 2>, layout = #graph<layout NHWC>}
// CHECK-NEXT: %[[T:.*]] = graph.transpose %[[A]] {perm = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: return %[[T]]
func.func @dead_users(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x1x1xf32>) -> tensor<1x4x7x7xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x8x8xf32>
  %dead = graph.softmax %0 {axis = 1 : i64} : tensor<1x4x8x8xf32>
  %1 = graph.avg_pool2d %0 {kernel = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x7x7xf32>
  return %1 : tensor<1x4x7x7xf32>
}

// CHECK-LABEL: func.func @dead_pool
// CHECK-NOT: graph.transpose
// CHECK: graph.conv2d
// CHECK-NOT: layout = #graph<layout NHWC>
// CHECK: return
func.func @dead_pool(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x1x1xf32>) -> tensor<1x4x8x8xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x8x8xf32>
  %dead = graph.max_pool2d %0 {kernel = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x7x7xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// CHECK-LABEL: func.func @constant_input
// CHECK-NOT: graph.transpose %cst
// CHECK: %[[CST:.*]] = graph.constant dense<{{.*}}> : tensor<1x2x2x1xf32>
// CHECK: graph.conv2d %[[CST]]
func.func @constant_input(%w: tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32> {
  %x = graph.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
  %1 = graph.max_pool2d %0 {kernel = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x1x1xf32>
  return %1 : tensor<1x1x1x1xf32>
}

// A dead user of a layout change does not keep it from moving past its live
// elementwise user (seeds 392 and 402 of fuzz/random_graphs.py: the second
// graph-optimize moved it once DCE had removed the clip).

// CHECK-LABEL: func.func @dead_elementwise_user
// CHECK: %[[P:.*]] = graph.avg_pool2d %{{.*}} layout = #graph<layout NHWC>
// CHECK: %[[S:.*]] = graph.sigmoid %[[P]] : tensor<1x3x3x4xf32>
// CHECK: %[[T:.*]] = graph.transpose %[[S]] {perm = array<i64: 0, 3, 1, 2>}
// CHECK: return %[[T]]
func.func @dead_elementwise_user(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x1x1xf32>) -> tensor<1x4x3x3xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x8x8xf32>
  %1 = graph.avg_pool2d %0 {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x3x3xf32>
  %dead = graph.clip %1 {min = -1.0 : f32, max = 0.0 : f32} : tensor<1x4x3x3xf32>
  %2 = graph.sigmoid %1 : tensor<1x4x3x3xf32>
  return %2 : tensor<1x4x3x3xf32>
}

// Nor does an operand of a graph.fused that its body never reads (seed 9401
// of fuzz/random_graphs.py): it is trimmed first, as graph-eliminate-dead-code
// would, and the avg_pool follows the conv into NHWC.

// CHECK-LABEL: func.func @unread_fused_operand
// CHECK: graph.fused "user"(%{{[^,]*}}) : (tensor<1xf32>) -> tensor<1xf32>
// CHECK: graph.avg_pool2d %{{.*}} layout = #graph<layout NHWC>
func.func @unread_fused_operand(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x1x1xf32>, %y: tensor<1xf32>) -> (tensor<1xf32>, tensor<1x4x7x7xf32>) {
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x8x8xf32>
  %u = graph.fused "user"(%0, %y) : (tensor<1x4x8x8xf32>, tensor<1xf32>) -> tensor<1xf32> {
  ^bb0(%a: tensor<1x4x8x8xf32>, %b: tensor<1xf32>):
    %t = graph.tanh %b : tensor<1xf32>
    graph.yield %t : tensor<1xf32>
  }
  %1 = graph.avg_pool2d %0 {kernel = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x7x7xf32>
  return %u, %1 : tensor<1xf32>, tensor<1x4x7x7xf32>
}

// -----

// SiLU, x * sigmoid(x), reads the layout change after the first conv twice:
// the transpose is split between its two users, both sink, and what is left
// cancels against the second conv's.
// CHECK-LABEL: func.func @silu_between_convs
// CHECK:       %[[C1:.*]] = graph.conv2d {{.*}} {layout = #graph<layout NHWC>}
// CHECK-NEXT:  %[[S:.*]] = graph.sigmoid %[[C1]] : tensor<1x6x6x8xf32>
// CHECK-NEXT:  %[[M:.*]] = graph.mul %[[C1]], %[[S]] : (tensor<1x6x6x8xf32>, tensor<1x6x6x8xf32>)
// CHECK:       graph.conv2d %[[M]], {{.*}} {layout = #graph<layout NHWC>}
// CHECK-NEXT:  graph.transpose {{.*}} {perm = array<i64: 0, 3, 1, 2>}
// CHECK-NOT:   graph.transpose
func.func @silu_between_convs(%x: tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32> {
  %w1 = graph.constant dense<0.5> : tensor<8x8x1x1xf32>
  %c = graph.conv2d %x, %w1 : (tensor<1x8x6x6xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x6x6xf32>
  %s = graph.sigmoid %c : tensor<1x8x6x6xf32>
  %m = graph.mul %c, %s : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %w2 = graph.constant dense<0.25> : tensor<8x8x1x1xf32>
  %d = graph.conv2d %m, %w2 : (tensor<1x8x6x6xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x6x6xf32>
  return %d : tensor<1x8x6x6xf32>
}

// -----

// Squeeze-excitation: the block's input feeds its global pool and the
// product that rescales it by the per-channel gate (1 x C x 1 x 1, read in
// NHWC through a reshape); no layout change is left inside the block.
// CHECK-LABEL: func.func @squeeze_excitation
// CHECK:       %[[C1:.*]] = graph.conv2d {{.*}} {layout = #graph<layout NHWC>}
// CHECK-NEXT:  %[[P:.*]] = graph.global_avg_pool %[[C1]] {layout = #graph<layout NHWC>}
// CHECK-NOT:   graph.transpose
// CHECK:       %[[G:.*]] = graph.reshape {{.*}} -> tensor<1x1x1x8xf32>
// CHECK-NEXT:  %[[M:.*]] = graph.mul %[[C1]], %[[G]] : (tensor<1x6x6x8xf32>, tensor<1x1x1x8xf32>)
// CHECK:       graph.conv2d %[[M]], {{.*}} {layout = #graph<layout NHWC>}
func.func @squeeze_excitation(%x: tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32> {
  %w1 = graph.constant dense<0.5> : tensor<8x8x1x1xf32>
  %c = graph.conv2d %x, %w1 : (tensor<1x8x6x6xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x6x6xf32>
  %p = graph.global_avg_pool %c : (tensor<1x8x6x6xf32>) -> tensor<1x8x1x1xf32>
  %g = graph.sigmoid %p : tensor<1x8x1x1xf32>
  %m = graph.mul %c, %g : (tensor<1x8x6x6xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x6x6xf32>
  %w2 = graph.constant dense<0.25> : tensor<8x8x1x1xf32>
  %d = graph.conv2d %m, %w2 : (tensor<1x8x6x6xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x6x6xf32>
  return %d : tensor<1x8x6x6xf32>
}

// -----

// Two users whose results both leave them: sinking through both would make
// two layout changes of one, so the transpose stays where it is, one.
// CHECK-LABEL: func.func @two_results_leave
// CHECK:       graph.max_pool2d {{.*}} layout = #graph<layout NHWC>
// CHECK-NEXT:  %[[T:.*]] = graph.transpose {{.*}} {perm = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT:  graph.relu %[[T]] : tensor<1x8x6x6xf32>
// CHECK-NEXT:  graph.sigmoid %[[T]] : tensor<1x8x6x6xf32>
// CHECK-NOT:   graph.transpose
func.func @two_results_leave(%x: tensor<1x8x6x6xf32>) -> (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) {
  %w1 = graph.constant dense<0.5> : tensor<8x8x1x1xf32>
  %c = graph.conv2d %x, %w1 : (tensor<1x8x6x6xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x6x6xf32>
  %p = graph.max_pool2d %c {kernel = array<i64: 1, 1>} : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %r = graph.relu %p : tensor<1x8x6x6xf32>
  %s = graph.sigmoid %p : tensor<1x8x6x6xf32>
  return %r, %s : tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>
}

// -----

// Equal layout changes the input already had are the input's: the pass
// merges only the copies it made itself.
// CHECK-LABEL: func.func @input_duplicates_kept
// CHECK:       %[[A:.*]] = graph.transpose %arg0
// CHECK-NEXT:  %[[B:.*]] = graph.transpose %arg0
// CHECK-NEXT:  return %[[A]], %[[B]]
func.func @input_duplicates_kept(%x: tensor<1x8x6x4xf32>) -> (tensor<1x4x8x6xf32>, tensor<1x4x8x6xf32>) {
  %a = graph.transpose %x {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x8x6x4xf32>) -> tensor<1x4x8x6xf32>
  %b = graph.transpose %x {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x8x6x4xf32>) -> tensor<1x4x8x6xf32>
  return %a, %b : tensor<1x4x8x6xf32>, tensor<1x4x8x6xf32>
}

// -----

// Integer convolutions take the layout as the float ones do: the filters
// and their zero points per filter permuted to HWCF (1 x 1 x 1 x F) at
// compile time, the 8-bit activations between them left NHWC (the
// transposes move through dequantize, the bias, relu and quantize: their
// per-channel operands are permuted with them), one transpose at the input
// and one at the output.

// CHECK-LABEL: func.func @integer_convs
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x6x6xui8>)
// CHECK:      %[[XT:.*]] = graph.transpose %[[X]] {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x4x6x6xui8>) -> tensor<1x6x6x4xui8>
// CHECK-NOT:  graph.transpose
// CHECK-DAG:  %[[W1:.*]] = graph.constant dense<{{.*}}> : tensor<3x3x4x8xi8>
// CHECK-DAG:  %[[Z1:.*]] = graph.constant dense<{{\[\[\[\[}}0, 1, 2, 3, 4, 5, 6, 7]]]]> : tensor<1x1x1x8xi8>
// CHECK:      %[[C1:.*]] = graph.conv_integer %[[XT]], %[[W1]], %{{.*}}, %[[Z1]] {dilations = array<i64: 1, 1>, layout = #graph<layout NHWC>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x6x6x4xui8>, tensor<3x3x4x8xi8>, tensor<ui8>, tensor<1x1x1x8xi8>) -> tensor<1x6x6x8xi32>
// CHECK:      graph.dequantize %[[C1]], {{.*}} -> tensor<1x6x6x8xf32>
// CHECK:      %[[Q:.*]] = graph.quantize {{.*}} -> tensor<1x6x6x8xui8>
// CHECK:      graph.conv_integer %[[Q]], {{.*}}layout = #graph<layout NHWC>{{.*}} -> tensor<1x6x6x2xi32>
// CHECK:      %[[Y:.*]] = graph.transpose %{{.*}} {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x6x6x2xi32>) -> tensor<1x2x6x6xi32>
// CHECK-NEXT: return %[[Y]]
func.func @integer_convs(%x: tensor<1x4x6x6xui8>) -> tensor<1x2x6x6xi32> {
  %xz = graph.constant dense<128> : tensor<ui8>
  %w1 = graph.constant dense<3> : tensor<8x4x3x3xi8>
  %z1 = graph.constant dense<[[[[0]]], [[[1]]], [[[2]]], [[[3]]], [[[4]]], [[[5]]], [[[6]]], [[[7]]]]> : tensor<8x1x1x1xi8>
  %c1 = graph.conv_integer %x, %w1, %xz, %z1 {dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x4x6x6xui8>, tensor<8x4x3x3xi8>, tensor<ui8>, tensor<8x1x1x1xi8>) -> tensor<1x8x6x6xi32>
  %scale = graph.constant dense<0.5> : tensor<8x1x1xf32>
  %zero = graph.constant dense<0> : tensor<i32>
  %real = graph.dequantize %c1, %scale, %zero : (tensor<1x8x6x6xi32>, tensor<8x1x1xf32>, tensor<i32>) -> tensor<1x8x6x6xf32>
  %bias = graph.constant dense<0.25> : tensor<8x1x1xf32>
  %sum = graph.add %real, %bias : (tensor<1x8x6x6xf32>, tensor<8x1x1xf32>) -> tensor<1x8x6x6xf32>
  %relu = graph.relu %sum : tensor<1x8x6x6xf32>
  %ys = graph.constant dense<0.1> : tensor<f32>
  %q = graph.quantize %relu, %ys, %xz : (tensor<1x8x6x6xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x8x6x6xui8>
  %w2 = graph.constant dense<-2> : tensor<2x8x1x1xi8>
  %z2 = graph.constant dense<0> : tensor<i8>
  %c2 = graph.conv_integer %q, %w2, %xz, %z2 {dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x8x6x6xui8>, tensor<2x8x1x1xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x2x6x6xi32>
  return %c2 : tensor<1x2x6x6xi32>
}

// -----

// A quantized block's input feeds a quantization for the next integer
// convolution and, dequantized (fake_quantize), the residual add: two users
// whose results leave them, but one of them only into a layout change back
// that cancels once it has moved. The transpose splits and sinks into both,
// so that the block stays NHWC and only the output changes layout.
// CHECK-LABEL: func.func @quantized_shortcut
// CHECK:       graph.transpose %{{.*}} : (tensor<1x4x6x6xui8>) -> tensor<1x6x6x4xui8>
// CHECK-NOT:   graph.transpose
// CHECK:       %[[P:.*]] = graph.max_pool2d {{.*}} -> tensor<1x6x6x4xf32>
// CHECK-DAG:   graph.quantize %[[P]]
// CHECK-DAG:   graph.fake_quantize %[[P]]
// CHECK-NOT:   graph.transpose
// CHECK:       graph.add {{.*}} : (tensor<1x6x6x4xf32>, tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
// CHECK:       graph.transpose %{{.*}} : (tensor<1x6x6x4xf32>) -> tensor<1x4x6x6xf32>
// CHECK-NEXT:  return
func.func @quantized_shortcut(%x: tensor<1x4x6x6xui8>) -> tensor<1x4x6x6xf32> {
  %z = graph.constant dense<128> : tensor<ui8>
  %wz = graph.constant dense<0> : tensor<i8>
  %s = graph.constant dense<0.5> : tensor<f32>
  %z32 = graph.constant dense<0> : tensor<i32>
  %w = graph.constant dense<1> : tensor<4x4x3x3xi8>
  %c0 = graph.conv_integer %x, %w, %z, %wz {dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x4x6x6xui8>, tensor<4x4x3x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x4x6x6xi32>
  %d0 = graph.dequantize %c0, %s, %z32 : (tensor<1x4x6x6xi32>, tensor<f32>, tensor<i32>) -> tensor<1x4x6x6xf32>
  %p = graph.max_pool2d %d0 {kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %q = graph.quantize %p, %s, %z : (tensor<1x4x6x6xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  %shortcut = graph.fake_quantize %p, %s, %z : (tensor<1x4x6x6xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x6x6xf32>
  %c1 = graph.conv_integer %q, %w, %z, %wz {dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x4x6x6xui8>, tensor<4x4x3x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x4x6x6xi32>
  %d1 = graph.dequantize %c1, %s, %z32 : (tensor<1x4x6x6xi32>, tensor<f32>, tensor<i32>) -> tensor<1x4x6x6xf32>
  %sum = graph.add %d1, %shortcut : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %sum : tensor<1x4x6x6xf32>
}
