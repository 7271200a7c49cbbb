// RUN: graph-opt %s --graph-report=json=true -o /dev/null 2>&1 | FileCheck %s
// The output is one valid JSON object.
// RUN: graph-opt %s --graph-report=json=true -o /dev/null 2>&1 | %python -c "import json,sys; d=json.load(sys.stdin); print(d['intermediate_bytes'], d['saving_bytes'], d['fused']); print(d['constants']['count'], d['constants']['bytes']); print(sorted(d['ops'].items()))" | FileCheck %s --check-prefix=PY
// The option works through --pass-pipeline too.
// RUN: graph-opt %s --pass-pipeline='builtin.module(graph-report{json=true})' -o /dev/null 2>&1 | FileCheck %s

// Byte figures, by hand (f32 = 4 bytes):
//   constants: two %w splats 3x2x2x2 = 24 elements = 96 bytes each, %bias
//   3 elements = 12 bytes: 3 constants, 204 bytes.
//   conv2d out 1x3x4x4 = 48 elements = 192 bytes, in each of the two
//   conv2d_relu groups: 384 bytes.
//   matmul_add_sigmoid: matmul out 4x2 = 32 bytes, add out 32 bytes: 64.
//   Intermediate bytes 384 + 64 = 448; saving 2 x 448 = 896.
//   Ops at graph level: 3 returns, 3 constants, 3 fused, 1 random_uniform
//   (the bodies count as groups, not as ops).

// CHECK: {"ops":{"func.return":3,"graph.constant":3,"graph.fused":3,"graph.random_uniform":1},"constants":{"count":3,"bytes":204},"fused":{"conv2d_relu":2,"matmul_add_sigmoid":1},"intermediate_bytes":448,"saving_bytes":896,"layout_changes":0,"packed_weights":{"count":0,"bytes":0}}
// CHECK-NOT: {{.}}

// PY: 448 896 {'conv2d_relu': 2, 'matmul_add_sigmoid': 1}
// PY-NEXT: 3 204
// PY-NEXT: [('func.return', 3), ('graph.constant', 3), ('graph.fused', 3), ('graph.random_uniform', 1)]

func.func @conv_relu(%x: tensor<1x2x5x5xf32>) -> tensor<1x3x4x4xf32> {
  %w = graph.constant dense<0.5> : tensor<3x2x2x2xf32>
  %0 = graph.fused "conv2d_relu"(%x, %w) : (tensor<1x2x5x5xf32>, tensor<3x2x2x2xf32>) -> tensor<1x3x4x4xf32> {
  ^bb0(%a0: tensor<1x2x5x5xf32>, %a1: tensor<3x2x2x2xf32>):
    %1 = graph.conv2d %a0, %a1 : (tensor<1x2x5x5xf32>, tensor<3x2x2x2xf32>) -> tensor<1x3x4x4xf32>
    %2 = graph.relu %1 : tensor<1x3x4x4xf32>
    graph.yield %2 : tensor<1x3x4x4xf32>
  }
  return %0 : tensor<1x3x4x4xf32>
}

func.func @conv_bias_relu(%x: tensor<1x2x5x5xf32>) -> tensor<1x3x4x4xf32> {
  %w = graph.constant dense<0.25> : tensor<3x2x2x2xf32>
  %bias = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = graph.fused "conv2d_relu"(%x, %w, %bias) : (tensor<1x2x5x5xf32>, tensor<3x2x2x2xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32> {
  ^bb0(%a0: tensor<1x2x5x5xf32>, %a1: tensor<3x2x2x2xf32>, %a2: tensor<3xf32>):
    %1 = graph.conv2d %a0, %a1, %a2 : (tensor<1x2x5x5xf32>, tensor<3x2x2x2xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
    %2 = graph.relu %1 : tensor<1x3x4x4xf32>
    graph.yield %2 : tensor<1x3x4x4xf32>
  }
  return %0 : tensor<1x3x4x4xf32>
}

func.func @matmul_add_sigmoid(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  %0 = graph.fused "matmul_add_sigmoid"(%a, %b, %c) : (tensor<4x8xf32>, tensor<8x2xf32>, tensor<2xf32>) -> tensor<4x2xf32> {
  ^bb0(%a0: tensor<4x8xf32>, %a1: tensor<8x2xf32>, %a2: tensor<2xf32>):
    %1 = graph.matmul %a0, %a1 : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
    %2 = graph.add %1, %a2 : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
    %3 = graph.sigmoid %2 : tensor<4x2xf32>
    graph.yield %3 : tensor<4x2xf32>
  }
  %r = graph.random_uniform {shape = array<i64: 4, 2>} : tensor<4x2xf32>
  return %0, %r : tensor<4x2xf32>, tensor<4x2xf32>
}
