//===- AttentionTiling.h - How graph-lower-attention cuts work --*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The register tiles of the attention kernel for a target, the blocks of
// keys a constant mask lets each block of query rows skip, and the operands
// as [batch, rows, columns] tensors: what the emitter in LowerAttention.cpp
// builds on, and the pass uses to put its result back in the op's shape.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CODEGEN_CPU_ATTENTIONTILING_H
#define LIB_CODEGEN_CPU_ATTENTIONTILING_H

#include "graph/Target/CPU/CPUTarget.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace mlir {
namespace graph {

/// How one attention runs on the target: f32 lanes, the vectors of a row
/// of the result (chunks), the query rows of a block, the vectors of keys
/// each step takes, and the independent partial sums of each score (over d
/// modulo `splits`). The accumulators stay in registers across the key
/// loop when those of `rows` rows fit; otherwise (`chunkGroup` > 0) they
/// live in the block's output tile, in L1, and the product by v takes
/// `chunkGroup` vectors of each row at a time, in registers.
struct AttentionTiling {
  int64_t lanes;
  int64_t chunks;
  int64_t rows;
  int64_t keyVectors;
  int64_t splits;
  int64_t chunkGroup = 0;
};

/// The tiling for `target` of an attention whose rows of v have `dv`
/// elements.
AttentionTiling chooseAttentionTiling(const CPUTarget &target, int64_t dv);

/// For a constant mask (`values`, [maskBatches, maskRows, keys]) that hides
/// whole blocks of `blockKeys` keys from a block of query rows (a causal
/// mask: every key after the block's last row), the blocks of keys each of
/// `blocks` blocks of `rows` rows from row `first` visits, [first, last)
/// per (mask batch, block of rows); nothing when every block of rows visits
/// every block of keys. A block of rows where some row sees no key at all
/// visits every key, so that the row ends as the softmax of its scores
/// would.
std::optional<SmallVector<int32_t>>
computeKeyBlockRanges(ArrayRef<float> values, int64_t maskBatches,
                      int64_t maskRows, int64_t keys, int64_t blockKeys,
                      int64_t first, int64_t blocks, int64_t rows);

/// `value` reshaped to `type`, the two differing only in how many leading
/// (batch) dimensions the last two follow: [batch..., A, B] and
/// [prod(batch), A, B] either way.
Value reshapeBatch(OpBuilder &b, Location loc, Value value,
                   RankedTensorType type);

/// `value` ([batch..., A, B]) as [prod(batch), A, B].
Value toRank3(OpBuilder &b, Location loc, Value value);

} // namespace graph
} // namespace mlir

#endif // LIB_CODEGEN_CPU_ATTENTIONTILING_H
