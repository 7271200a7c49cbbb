// RUN: graph-opt %s --convert-graph-to-linalg --split-input-file | FileCheck %s

// Stable softmax as four generics: max along the axis, exp(x - max), sum
// along the axis, division. NaN propagates through arith.maximumf.

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[RED:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @softmax_last
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[MINIT:.*]] = linalg.fill ins(%[[NINF]] : f32) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK: %[[MAX:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[RED]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[MINIT]] : tensor<2x3xf32>)
// CHECK: ^bb0(%[[IN:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[ACC]], %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[M]] : f32
// CHECK: %[[EXP:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[RED]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[X]], %[[MAX]] : tensor<2x3x4xf32>, tensor<2x3xf32>)
// CHECK: ^bb0(%[[XI:.*]]: f32, %[[MI:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[XI]], %[[MI]] : f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[D]] : f32
// CHECK-NEXT: linalg.yield %[[E]] : f32
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[SINIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[RED]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[EXP]] : tensor<2x3x4xf32>) outs(%[[SINIT]] : tensor<2x3xf32>)
// CHECK: ^bb0(%[[IN2:.*]]: f32, %[[ACC2:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC2]], %[[IN2]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[RED]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[EXP]], %[[SUM]] : tensor<2x3x4xf32>, tensor<2x3xf32>)
// CHECK: arith.divf
// CHECK: return %[[R]]
// CHECK-NOT: graph.softmax
func.func @softmax_last(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = graph.softmax %x : tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// A middle axis: the reduction iterator and the reduced map follow it.

// CHECK-DAG: #[[RED:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @softmax_axis1
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[RED]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK-SAME: outs(%{{.*}} : tensor<2x4xf32>)
// CHECK: arith.maximumf
func.func @softmax_axis1(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = graph.softmax %x {axis = 1 : i64} : tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
