//===- AttentionEmitter.h - graph-lower-attention's emitter -----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The class that emits one graph.attention as the loops LowerAttention.cpp
// describes: the blocks of query rows and the loops over blocks of keys are
// defined there, the vector arithmetic of one step over a block of keys
// (scores, softmax step, product by v) in AttentionStep.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CODEGEN_CPU_ATTENTIONEMITTER_H
#define LIB_CODEGEN_CPU_ATTENTIONEMITTER_H

#include "AttentionTiling.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace mlir {
namespace graph {

/// Emits one graph.attention (`op`, flattened to [batch, rows, columns]) as
/// one fused kernel with the register tiles of `tiling`.
class AttentionEmitter {
public:
  AttentionEmitter(OpBuilder &b, Location loc, AttentionOp op,
                   const AttentionTiling &tiling);

  /// The attention, as [batch, S, Dv].
  Value emit();

private:
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value f32Constant(float value) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
  }
  Value splat(Value scalar, VectorType type) {
    return vector::BroadcastOp::create(b, loc, type, scalar);
  }

  // The blocks of query rows and the loops over blocks of keys
  // (LowerAttention.cpp).

  /// The blocks of keys each block of rows visits under a constant mask
  /// that hides whole blocks of keys (computeKeyBlockRanges), as a constant
  /// [mask batch, block of rows, 2] table; null without such a mask.
  Value getKeyBlockRanges(int64_t first, int64_t blocks, int64_t rows);

  /// An scf.forall over (batch, `blocks` blocks of `rows` query rows from
  /// row `first`) writing into `out`.
  Value emitQueryBlocks(Value out, int64_t first, int64_t blocks, int64_t rows);

  /// The running state of each row: max, sum, accumulators; and the
  /// block's probabilities, rows x keys, through which the product by v
  /// reads them one at a time (a broadcast load each, where a broadcast from
  /// a register would take a shuffle). With the accumulators in memory
  /// (tiling.chunkGroup), `tile` holds them, relative to the maximum before
  /// the last softmax step, and `correction` the factor that brings them to
  /// the current one, which the next product by v applies as it loads them.
  struct State {
    SmallVector<Value> max, sum, acc; // acc[row * chunks + chunk]
    SmallVector<Value> correction;
    Value probabilities, tile;
    SmallVector<Value> flatten() const;
    static State unflatten(ValueRange values, int64_t rows, bool inMemory);
  };

  bool accumulatorsInMemory() const { return tiling.chunkGroup > 0; }
  State unflatten(ValueRange values, int64_t rows) {
    return State::unflatten(values, rows, accumulatorsInMemory());
  }

  VectorType chunkType() { return VectorType::get({tiling.lanes}, f32); }

  /// Whether chunk `c` of a row of v lies wholly inside it.
  bool chunkInBounds(int64_t c) { return (c + 1) * tiling.lanes <= valueDepth; }

  /// One block of `rows` query rows from `row0` in batch `bh`, written into
  /// `tile` ([1, rows, Dv]): every block of keys, or those of `keyBlocks`
  /// ([first, last) in blocks of keys) when the mask hides the others.
  Value emitBlock(Value tile, Value bh, Value row0, int64_t rows,
                  std::optional<std::pair<Value, Value>> keyBlocks);

  /// The state after the whole blocks of keys in [lower, upper) (a
  /// non-empty range), software-pipelined: each step computes the scores of
  /// its block, then adds the previous block's probabilities times v, then
  /// takes the softmax step of its own block. The softmax's chain of
  /// dependent steps (row maximum, exponentials, sums) thus overlaps the
  /// next step's FMAs, which do not depend on it, where in block order the
  /// product by v, which does, came between them.
  State emitFullBlocks(const State &initial, Value bh, ArrayRef<Value> rowIndex,
                       Value lower, Value upper);

  /// The state after the `count` keys from `key0` (count <= the block's
  /// keys; the lanes past it are masked out).
  State emitKeyBlock(const State &state, Value bh, ArrayRef<Value> rowIndex,
                     Value key0, int64_t count);

  // The vector arithmetic of one step over a block of keys
  // (AttentionStep.cpp).

  /// Chunk `c` of row `i` of a block's tile ([1, rows, Dv]).
  Value readChunk(Value tile, int64_t i, int64_t c);
  Value writeChunk(Value chunk, Value tile, int64_t i, int64_t c);

  /// max(a, b) as x86's maxps takes it, b where either is NaN: one
  /// instruction where arith.maximumf, NaN-propagating and ordering -0 below
  /// +0, costs a sign blend and a NaN test. Enough for the row maxima: only
  /// differences from them are used, so the sign of a zero does not matter,
  /// and a NaN score makes its own probability NaN whatever the maximum, so
  /// that the row ends NaN as the softmax's does.
  Value emitMax(Value a, Value c);

  /// The maximum of a vector's lanes (emitMax), halving it in log2(lanes)
  /// steps; vector.reduction's maximumf steps go through scalar registers.
  Value emitHorizontalMax(Value vector);

  /// The first key of each vector of a block from `key0`.
  SmallVector<Value> getKeyStarts(Value key0);

  /// The raw scores q_i . k_t of the `count` keys from `key0`, as
  /// score[i * keyVectors + k] (lanes past `count` are 0).
  SmallVector<Value> emitScores(Value bh, ArrayRef<Value> rowIndex, Value key0,
                                int64_t count);

  /// The online softmax's step over the block's `scores` (emitScores): the
  /// new maxima and sums, the accumulators rescaled to the new maxima, and
  /// the block's probabilities written for emitProductByV.
  State emitSoftmaxStep(const State &state, ArrayRef<Value> scores, Value bh,
                        ArrayRef<Value> rowIndex, Value key0, int64_t count);

  /// acc_i += sum_j p_i[j] * v[key0 + j, :] over the `count` keys whose
  /// probabilities emitSoftmaxStep wrote into `next.probabilities`: each
  /// key's row of v, a vector at a time, for all the block's query rows.
  void emitProductByV(State &next, Value bh, int64_t rows, Value key0,
                      int64_t count);

  /// acc[i * group + c - first] += p_i[column] * v[key, chunk c], for the
  /// block's rows i and the chunks c in [first, first + group): one key's
  /// row of v, read a vector at a time, for every row.
  void addKeyTimesV(SmallVectorImpl<Value> &acc, Value probabilities, Value bh,
                    int64_t rows, Value key, Value column, int64_t first,
                    int64_t group);

  /// The same with the accumulators in `next.tile`: a group of chunks of
  /// every row at a time is loaded, scaled by the row's pending correction,
  /// takes the block's keys, and is stored back. The keys are a loop of
  /// their own per group (kKeysPerStep at a time): unrolled, LLVM
  /// interleaved the groups and spilled their accumulators.
  void emitProductByVInMemory(State &next, Value bh, int64_t rows, Value key0,
                              int64_t count);

  OpBuilder &b;
  Location loc;
  const AttentionTiling &tiling;
  Value q, kT, v, mask;
  /// The mask's values when it is a constant (not a splat).
  DenseElementsAttr constantMask;
  int64_t batch = 0, queries = 0, depth = 0, keys = 0, valueDepth = 0;
  bool maskPerBatch = false, maskPerRow = false;
  float scale = 1.0f;
  Type f32;
  VectorType keyVector;
};

} // namespace graph
} // namespace mlir

#endif // LIB_CODEGEN_CPU_ATTENTIONEMITTER_H
