//===- RegisterTiles.h - The tiles graph-vectorize makes --------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What graph-vectorize makes of each linalg op it vectorizes: the register
// tile sizes, the order of the tile loops and the slices the threads share,
// all from the target description (CPUTarget): vector lanes, the register
// file and the caches.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CODEGEN_CPU_REGISTERTILES_H
#define LIB_CODEGEN_CPU_REGISTERTILES_H

#include "graph/Target/CPU/CPUTarget.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>
#include <utility>

namespace mlir {
namespace graph {

/// Whether `op` works on tensors and all its loop ranges are static.
bool hasStaticTensorSemantics(linalg::LinalgOp op);

/// Whether `op` slides a window over an NHWC input channel by channel, the
/// whole window in each register tile (emitWindowKernel): a depthwise
/// convolution, a max or a sum pooling.
bool isChannelWindowOp(Operation *op);

/// Register tile sizes for `op`, one per loop, or nothing when it is not one
/// of the ops this pass vectorizes.
std::optional<SmallVector<int64_t>>
chooseRegisterTileSizes(const CPUTarget &target, linalg::LinalgOp op);

/// The order of the register tiles' loops, when not the op's own: the loop
/// over the weights' output channels (panels) outermost where the weights
/// outgrow the core's L2 and are the larger operand, so that one block of
/// weights stays in the caches while every tile of activations streams past
/// it, rather than all weights streaming once per row of output (ResNet-18's
/// last stage: 9.4 MB of weights for a 7 x 7 x 512 output, seven times).
/// Weights packed into panels for a matrix product are streamed that way
/// whatever their size; a convolution's only when they outgrow half the L2:
/// below, the panels are the innermost tile loop, so that each tile of
/// input is read from L1 for every panel while the weights stay in L2.
std::optional<SmallVector<int64_t>> chooseInterchange(const CPUTarget &target,
                                                      linalg::LinalgOp op);

/// The dimension of `op` whose slices the threads share, and the slice size:
/// the outermost parallel dimension with more than one register tile (output
/// rows of a convolution, rows of a matmul), or the weights' output channels
/// where those come first (chooseInterchange: each thread then streams only
/// its own part of the weights, where slices of rows would each stream all
/// of them), cut into at most kParallelSlices slices of whole register tiles.
std::optional<std::pair<unsigned, int64_t>>
chooseParallelDimension(const CPUTarget &target, linalg::LinalgOp op);

} // namespace graph
} // namespace mlir

#endif // LIB_CODEGEN_CPU_REGISTERTILES_H
