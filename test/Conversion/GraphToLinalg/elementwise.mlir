// RUN: graph-opt %s --convert-graph-to-linalg --split-input-file | FileCheck %s

// Elementwise ops become one parallel linalg.generic each, whose body is the
// fold hook's arithmetic in the same order and without fast-math flags.

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @relu
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[X]] : tensor<2x3xf32>) outs(%[[E]] : tensor<2x3xf32>)
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[MAX:.*]] = arith.maximumf %[[IN]], %[[ZERO]] : f32
// CHECK-NEXT: linalg.yield %[[MAX]] : f32
// CHECK: return %[[R]]
// CHECK-NOT: graph.
func.func @relu(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.relu %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @clip
// CHECK: linalg.generic
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[LO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[HI:.*]] = arith.constant 6.000000e+00 : f32
// CHECK-NEXT: %[[A:.*]] = arith.maximumf %[[IN]], %[[LO]] : f32
// CHECK-NEXT: %[[B:.*]] = arith.minimumf %[[A]], %[[HI]] : f32
// CHECK-NEXT: linalg.yield %[[B]] : f32
// CHECK-NOT: graph.clip
func.func @clip(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.clip %x {min = 0.0 : f32, max = 6.0 : f32} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @sigmoid
// CHECK: linalg.generic
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[NEG:.*]] = arith.negf %[[IN]] : f32
// CHECK-NEXT: %[[EXP:.*]] = math.exp %[[NEG]] : f32
// CHECK-NEXT: %[[DEN:.*]] = arith.addf %[[ONE]], %[[EXP]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.divf %[[ONE]], %[[DEN]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK-NOT: graph.sigmoid
func.func @sigmoid(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.sigmoid %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @tanh
// CHECK: linalg.generic
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[R:.*]] = math.tanh %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK-NOT: graph.tanh
func.func @tanh(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.tanh %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Same shapes: identity maps on both operands.

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @arith
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x3xf32>)
// CHECK: %[[ADD:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]]
// CHECK-SAME: ins(%[[A]], %[[B]] :
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: %[[SUB:.*]] = linalg.generic
// CHECK-SAME: ins(%[[ADD]], %[[B]] :
// CHECK: arith.subf %{{.*}}, %{{.*}} : f32
// CHECK: %[[MUL:.*]] = linalg.generic
// CHECK-SAME: ins(%[[SUB]], %[[B]] :
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: %[[DIV:.*]] = linalg.generic
// CHECK-SAME: ins(%[[MUL]], %[[B]] :
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: return %[[DIV]]
// CHECK-NOT: graph.
func.func @arith(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = graph.sub %0, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.mul %1, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = graph.div %2, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %3 : tensor<2x3xf32>
}

// -----

// NumPy broadcasting: a missing leading dimension is dropped from the map and
// a broadcast size-1 dimension reads index 0, on either side.

// CHECK-DAG: #[[LHS:.*]] = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
// CHECK-DAG: #[[RHS:.*]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: (%[[A:.*]]: tensor<2x1x4xf32>, %[[B:.*]]: tensor<3x1xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3x4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<2x1x4xf32>, tensor<3x1xf32>) outs(%[[E]] : tensor<2x3x4xf32>)
// CHECK: arith.mulf
func.func @broadcast(%a: tensor<2x1x4xf32>, %b: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %0 = graph.mul %a, %b : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// A rank-0 operand broadcasts to everything through an empty map.

// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @broadcast_scalar
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[SCALAR]], #{{.*}}]
// CHECK: arith.subf
func.func @broadcast_scalar(%a: tensor<2x3xf32>, %b: tensor<f32>) -> tensor<2x3xf32> {
  %0 = graph.sub %a, %b : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// batch_norm reads its parameters along dimension 1:
// ((x - mean) / sqrt(var + eps)) * scale + bias, in that order.

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @batch_norm
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x4x4xf32>, %[[S:.*]]: tensor<3xf32>, %[[B:.*]]: tensor<3xf32>, %[[M:.*]]: tensor<3xf32>, %[[V:.*]]: tensor<3xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[CH]], #[[CH]], #[[CH]], #[[CH]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[X]], %[[S]], %[[B]], %[[M]], %[[V]] :
// CHECK: ^bb0(%[[XI:.*]]: f32, %[[SI:.*]]: f32, %[[BI:.*]]: f32, %[[MI:.*]]: f32, %[[VI:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[EPS:.*]] = arith.constant 1.000000e-03 : f32
// CHECK-NEXT: %[[C:.*]] = arith.subf %[[XI]], %[[MI]] : f32
// CHECK-NEXT: %[[VE:.*]] = arith.addf %[[VI]], %[[EPS]] : f32
// CHECK-NEXT: %[[SD:.*]] = math.sqrt %[[VE]] : f32
// CHECK-NEXT: %[[N:.*]] = arith.divf %[[C]], %[[SD]] : f32
// CHECK-NEXT: %[[SC:.*]] = arith.mulf %[[N]], %[[SI]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[SC]], %[[BI]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK-NOT: graph.batch_norm
func.func @batch_norm(%x: tensor<1x3x4x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>,
                      %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<1x3x4x4xf32> {
  %0 = graph.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-3 : f32} : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

// Inference dropout is its input.

// CHECK-LABEL: func.func @dropout_inference
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]] : tensor<4xf32>
func.func @dropout_inference(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.dropout %x {ratio = 0.25 : f32} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
