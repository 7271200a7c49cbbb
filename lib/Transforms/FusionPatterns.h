//===- FusionPatterns.h - Patterns of the graph-fuse pass -------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the Transforms library: the pattern sets that graph-fuse
// applies, one after the other. Each reads the liveness the pass computed
// once for the whole run.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_LIB_TRANSFORMS_FUSIONPATTERNS_H
#define GRAPH_LIB_TRANSFORMS_FUSIONPATTERNS_H

#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir {
namespace graph {

class BatchMatMulOp;
class LiveOps;
class MatMulOp;

/// The value of `value` when it is a constant f32 splat.
std::optional<float> getConstantSplatF32(Value value);

/// Replaces a batch_matmul of an f32 activation by a constant matrix by a
/// matmul over its flattened rows between two reshapes; returns the matmul,
/// or null when `batch` is not such a product (PackWeights.cpp).
MatMulOp flattenBatchMatMul(RewriterBase &rewriter, BatchMatMulOp batch);

/// Turns each linear layer (a batch_matmul by a constant matrix, a matmul
/// whose result is reshaped) into a matmul whose reshape back comes after
/// the elementwise ops that follow it, which then fuse as its epilogue.
void populateLinearLayerEpiloguePatterns(RewritePatternSet &patterns,
                                         const LiveOps &live);

/// Replaces scaled dot-product attention written out (batch_matmul, scale,
/// mask, softmax, batch_matmul) by `graph.attention`.
void populateRecognizeAttentionPatterns(RewritePatternSet &patterns,
                                        const LiveOps &live);

/// Replaces layer norms and RMS norms written out in elementwise ops and
/// reductions by `graph.layer_norm` and `graph.rms_norm`.
void populateRecognizeNormalizationPatterns(RewritePatternSet &patterns,
                                            const LiveOps &live);

/// Folds a `graph.batch_norm` into the constant weight and bias of the
/// `graph.conv2d` that feeds it.
void populateFoldBatchNormPatterns(RewritePatternSet &patterns,
                                   const LiveOps &live);

/// Wraps an anchor (`conv2d`, `matmul`, `gemm`) and its longest epilogue
/// chain into one `graph.fused`.
void populateFuseEpiloguePatterns(RewritePatternSet &patterns,
                                  const LiveOps &live);

/// Wraps each tree of elementwise ops (no anchor) into one `graph.fused`.
void populateFuseElementwisePatterns(RewritePatternSet &patterns,
                                     const LiveOps &live);

} // namespace graph
} // namespace mlir

#endif // GRAPH_LIB_TRANSFORMS_FUSIONPATTERNS_H
