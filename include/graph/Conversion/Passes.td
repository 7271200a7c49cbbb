//===- Passes.td - Lowering the graph dialect --------------*- tablegen -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// From graph ops to upstream dialects: graph ops to linalg on tensors. The
// code generation for CPUs that follows is in graph/Codegen/CPU.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_CONVERSION_PASSES_TD
#define GRAPH_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertGraphToLinalg : Pass<"convert-graph-to-linalg"> {
  let summary = "Lower graph ops to linalg on tensors, tensor, arith and math";
  let description = [{
    Rewrites every graph compute op, including those inside `graph.fused`
    bodies, into upstream ops on tensors: `linalg` named and generic ops,
    `tensor` for padding and reshapes, `arith` and `math` for the scalar
    work. Elementwise ops compute exactly what their fold hooks compute (the
    same operations in the same order, in f32), so that folding and running
    agree bit for bit. `graph.constant` becomes `arith.constant`.
    `graph.fused` is left in place, with a lowered body, for
    `graph-lower-fused`. The random ops (`graph.random_uniform`, training
    `graph.dropout`) are refused with a diagnostic.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // GRAPH_CONVERSION_PASSES_TD
