// RUN: graph-opt %s --convert-graph-to-linalg --split-input-file -verify-diagnostics

// The random ops are refused with a diagnostic that names them; every one
// is reported, including those nested in a graph.fused body.

func.func @random_uniform() -> tensor<2x2xf32> {
  // expected-error @+1 {{'graph.random_uniform' op cannot be lowered: it draws random numbers, which the CPU lowering does not support}}
  %0 = graph.random_uniform {shape = array<i64: 2, 2>} : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @dropout_training(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.relu %x : tensor<4xf32>
  // expected-error @+1 {{'graph.dropout' op cannot be lowered: it draws random numbers, which the CPU lowering does not support}}
  %1 = graph.dropout %0 {training} : tensor<4xf32>
  // expected-error @+1 {{'graph.random_uniform' op cannot be lowered}}
  %2 = graph.random_uniform {shape = array<i64: 4>} : tensor<4xf32>
  %3 = graph.add %1, %2 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %3 : tensor<4xf32>
}
