//===- VectorKernels.h - Micro-kernels written out in vectors ---*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The register tiles that graph-vectorize writes out as vector ops itself
// rather than leaving them to the linalg vectorizer: contractions by packed
// weights and the window ops (depthwise convolutions, poolings).
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CODEGEN_CPU_VECTORKERNELS_H
#define LIB_CODEGEN_CPU_VECTORKERNELS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace graph {

/// The micro-kernel of a register tile of a contraction by packed weights
/// (isPackedContraction): every accumulator of the tile, one vector of n0
/// columns per row and panel, over a few reduction steps. Per step, each
/// panel's n0 weights are one load from consecutive addresses, each row's
/// input one broadcast, and every accumulator one FMA. The loops are
/// classified from the indexing maps, so that one emitter serves both
/// kinds: the column loop indexes the output's innermost dimension, the
/// other parallel loops the weights read are panels, the rest rows (m; n,
/// oh, ow). Every index is a constant of the tile: the maps are evaluated
/// at each point. Written out rather than left to the vectorizer, whose
/// lowering of a contraction with two parallel dimensions on the weights'
/// side is not an outer product (and which gave wrong values for NCHW
/// convolutions). The accumulators are read and written once per tile;
/// hoistAccumulators then carries them across the reduction loops.
void emitPackedContractionKernel(RewriterBase &rewriter, linalg::GenericOp op);

/// Whether `op` is a register tile of a contraction by packed weights: a
/// full tile, or the partial one that peeling left (fewer rows), small
/// enough to be written out.
bool isPackedContractionTile(linalg::LinalgOp op);

/// The micro-kernel of a register tile of a depthwise convolution or a
/// pooling (NHWC input; KH x KW x C weights or a KH x KW window shape; the
/// whole window in the tile): per step of the window, each vector of
/// channels' weights is one load shared by the tile's pixels, each pixel's
/// input one load (the same one for neighbouring pixels along KW at stride
/// 1, which CSE shares), each accumulator one FMA (one max or add for a
/// pooling). Written out rather than decomposed into 1-D convolutions, whose
/// vectorized form reads a strided input through shuffles (stride 2 ran at
/// 2-4 GFLOP/s); a pooling the vectorizer leaves scalar.
void emitWindowKernel(RewriterBase &rewriter, linalg::LinalgOp op,
                      int64_t f32Lanes);

} // namespace graph
} // namespace mlir

#endif // LIB_CODEGEN_CPU_VECTORKERNELS_H
