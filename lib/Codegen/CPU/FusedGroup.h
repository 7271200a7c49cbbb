//===- FusedGroup.h - Steps of graph-lower-fused on a group -----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph-lower-fused inlines each graph.fused body and remembers the group as
// the set of ops that came from it; these steps rewrite such a group before
// it is tiled: its elementwise trees merged into single generics
// (MergeElementwise.cpp), its padded inputs and results given buffers that
// their producers write in place (PaddedGroups.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CODEGEN_CPU_FUSEDGROUP_H
#define LIB_CODEGEN_CPU_FUSEDGROUP_H

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace graph {

/// Whether `op` is an elementwise linalg.generic that can be merged with
/// others: parallel loops only, one result written through a permutation,
/// a body that neither reads the output's old value nor the loop indices.
bool isMergeableElementwise(Operation *op);

/// Merges every tree of elementwise generics in the group into one generic,
/// keeping `group` up to date. Linear in the size of the group.
void mergeElementwiseOps(RewriterBase &rewriter,
                         llvm::SetVector<Operation *> &group);

/// Whether `pad` pads a value computed outside the group (the input of an
/// NHWC convolution). Such a pad stays whole, outside the tile loops: the
/// value's producer then writes straight into the interior of the padded
/// buffer (a filled buffer the value is inserted into, see graph-vectorize),
/// and each tile of the convolution reads its window, halo and padding
/// included, in place. Fused into the loops, it would copy every input tile
/// and its halo into a padded tile (a third of a depthwise convolution's
/// time). The input of an NCHW convolution is transposed inside the group
/// first, tile by tile, and padded there.
bool isPaddedGroupInput(tensor::PadOp pad,
                        const llvm::SetVector<Operation *> &group);

/// Replaces each pad of a group input (isPaddedGroupInput) by a buffer
/// whose border holds the padding value (fillBorder), made right before the
/// input's producer, and the input inserted into its interior: bufferization
/// then lets the producer write into that interior (empty tensor elimination
/// needs the filled buffer to exist before the producer starts), so that the
/// padded input costs no copy at all, and the tiles of the convolution read
/// their windows from it in place.
void padGroupInputsInPlace(RewriterBase &rewriter,
                           llvm::SetVector<Operation *> &group);

/// Replaces each padded result of the group (isPaddedGroupResult) by a
/// buffer made before the group, whose border alone is filled and whose
/// interior the group's tile loops write in place (empty tensor
/// elimination). A result viewed without panels (N x H x W x F/f0 x f0 as
/// N x H x W x F) is padded on its panels and viewed afterwards: a view
/// between the tile loops and the buffer would keep bufferization from
/// writing in place. The view without padding stays, unused, for the
/// choice of tiles (choosePanelTileSizes), and goes with the dead ops.
void padGroupResultsInPlace(RewriterBase &rewriter,
                            llvm::SetVector<Operation *> &group);

} // namespace graph
} // namespace mlir

#endif // LIB_CODEGEN_CPU_FUSEDGROUP_H
