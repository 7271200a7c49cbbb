//===- Passes.td - Lowering the graph dialect --------------*- tablegen -*-===//
//
// From graph ops to upstream dialects and on to LLVM: the conversion to
// linalg on tensors, the single-kernel lowering of graph.fused, the tiling and
// vectorization of the compute-heavy ops, and the graph-lower-to-llvm pipeline
// that strings them together with bufferization.
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
    "::mlir::tensor::TensorDialect",
  ];
}

def GraphLowerFused : Pass<"graph-lower-fused"> {
  let summary = "Make each graph.fused one kernel: tile its result and fuse "
                "its producers into the tile loops, then inline it";
  let description = [{
    Runs after `convert-graph-to-linalg`. In each `graph.fused` body, the op
    that produces the yielded value is tiled and every producer inside the
    body is fused into the tile loops, so that the group's intermediates only
    ever exist as tiles. The body is then inlined in place of the op.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def GraphVectorize : Pass<"graph-vectorize"> {
  let summary = "Tile and vectorize convolutions, matmuls and elementwise ops "
                "for the host CPU";
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

#endif // GRAPH_CONVERSION_PASSES_TD
