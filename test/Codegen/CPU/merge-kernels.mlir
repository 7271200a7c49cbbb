// RUN: graph-opt %s --graph-merge-kernels --split-input-file | FileCheck %s
// RUN: graph-opt %s --graph-merge-kernels=min-constant-bytes=64 --split-input-file | FileCheck %s --check-prefix=LARGE

// Two kernels that differ only in a weight become one that takes it as an
// argument; each call passes its own. A kernel whose constant is a splat,
// and one that computes something else, stay as they are.
// CHECK-LABEL: func.func private @k0(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf32>, %[[W:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT:     arith.constant
// CHECK:         %[[Y:.*]] = arith.addf %[[X]], %[[W]]
// CHECK:         return %[[Y]]
// CHECK-NOT:   func.func private @k1(
// CHECK-LABEL: func.func private @splat(
// CHECK-SAME:    %{{.*}}: tensor<4xf32>) -> tensor<4xf32>
// CHECK:         arith.constant dense<2.000000e+00>
// CHECK-LABEL: func.func private @other(
// CHECK-SAME:    %{{.*}}: tensor<4xf32>) -> tensor<4xf32>
// CHECK:         arith.constant dense<[5.000000e+00
// CHECK:         arith.mulf
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %[[IN:.*]]: tensor<4xf32>)
// CHECK:         %[[W0:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK:         %[[A:.*]] = call @k0(%[[IN]], %[[W0]])
// CHECK:         %[[W1:.*]] = arith.constant dense<[-1.000000e+00, -2.000000e+00, -3.000000e+00, -4.000000e+00]>
// CHECK:         %[[B:.*]] = call @k0(%[[A]], %[[W1]])
// CHECK:         %[[C:.*]] = call @splat(%[[B]])
// CHECK:         %[[W2:.*]] = arith.constant dense<[-1.000000e+00, -2.000000e+00, -3.000000e+00, -4.000000e+00]>
// CHECK:         %[[D:.*]] = call @k0(%[[C]], %[[W2]])
// CHECK:         %[[E:.*]] = call @other(%[[D]])
// CHECK:         return %[[E]]

// With a minimum size above theirs (16 bytes), the weights stay constants
// that tell the kernels apart.
// LARGE-LABEL: func.func private @k0(
// LARGE-SAME:    %{{.*}}: tensor<4xf32>) -> tensor<4xf32>
// LARGE-LABEL: func.func private @k1(
// LARGE-SAME:    %{{.*}}: tensor<4xf32>) -> tensor<4xf32>
func.func private @k0(%x: tensor<4xf32>) -> tensor<4xf32> attributes {graph.kernel = "add"} {
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %y = arith.addf %x, %w : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func private @k1(%x: tensor<4xf32>) -> tensor<4xf32> attributes {graph.kernel = "add"} {
  %w = arith.constant dense<[-1.0, -2.0, -3.0, -4.0]> : tensor<4xf32>
  %y = arith.addf %x, %w : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func private @splat(%x: tensor<4xf32>) -> tensor<4xf32> attributes {graph.kernel = "add"} {
  %w = arith.constant dense<2.0> : tensor<4xf32>
  %y = arith.addf %x, %w : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func private @other(%x: tensor<4xf32>) -> tensor<4xf32> attributes {graph.kernel = "mul"} {
  %w = arith.constant dense<[5.0, 6.0, 7.0, 8.0]> : tensor<4xf32>
  %y = arith.mulf %x, %w : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = call @k0(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = call @k1(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %c = call @splat(%b) : (tensor<4xf32>) -> tensor<4xf32>
  %d = call @k1(%c) : (tensor<4xf32>) -> tensor<4xf32>
  %e = call @other(%d) : (tensor<4xf32>) -> tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

// A kernel whose symbol is used by something other than a call (here its
// address is taken) is left alone, and so is its twin without it.
// CHECK-LABEL: func.func private @taken(
// CHECK-SAME:    %{{.*}}: tensor<4xf32>) -> tensor<4xf32>
// CHECK-LABEL: func.func private @twin(
// CHECK-SAME:    %{{.*}}: tensor<4xf32>) -> tensor<4xf32>
func.func private @taken(%x: tensor<4xf32>) -> tensor<4xf32> attributes {graph.kernel = "add"} {
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %y = arith.addf %x, %w : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func private @twin(%x: tensor<4xf32>) -> tensor<4xf32> attributes {graph.kernel = "add"} {
  %w = arith.constant dense<[-1.0, -2.0, -3.0, -4.0]> : tensor<4xf32>
  %y = arith.addf %x, %w : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %f = func.constant @taken : (tensor<4xf32>) -> tensor<4xf32>
  %a = call_indirect %f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = call @twin(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
