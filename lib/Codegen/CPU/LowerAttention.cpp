//===- LowerAttention.cpp - graph.attention as one fused kernel -*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The graph-lower-attention pass: each graph.attention becomes loops over
// vectors that never hold the S x T scores in memory (FlashAttention's
// scheme on a CPU). The batch dimensions are flattened; an scf.forall runs
// over (batch, block of queries), which the OpenMP lowering shares among
// threads. Each block of R query rows walks the keys one vector of lanes at
// a time:
//
//   s_i   = (q_i . k_t[:, block]) * scale + mask_i[block]   (R vectors)
//   m'_i  = max(m_i, max(s_i)),  p_i = exp(s_i - m'_i)
//   l_i   = l_i * exp(m_i - m'_i) + sum(p_i)
//   acc_i = acc_i * exp(m_i - m'_i) + sum_j p_i[j] * v[j, :]
//
// and writes acc_i / l_i. The running max, sum and accumulators stay in
// registers across the key loop: R is the most rows (up to four) whose
// accumulators (Dv / lanes vectors each), scores and one row of v fit the
// target's register file; where fewer than four would (AVX2's 16 registers,
// heads of 128 on AVX-512), four rows keep their accumulators in the
// block's output tile, in L1, which the product by v reads, scales and
// writes once per block of keys, a group of vectors of each row at a time.
// The loop over whole blocks of keys is software-pipelined (a block's
// scores, then the previous block's product by v, then the block's softmax
// step), so that the softmax's chain of dependent steps overlaps FMAs that
// do not wait for it. A maximum that is still -inf (every score so far
// masked) is taken as 0 in the exponents, so that masked blocks add nothing
// rather than NaN; a row with every score -inf ends as 0 / 0, NaN, as the
// softmax gives.
//
//===----------------------------------------------------------------------===//

#include "AttentionTiling.h"
#include "graph/Codegen/CPU/Passes.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Target/CPU/PassTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHLOWERATTENTION
#include "graph/Codegen/CPU/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

namespace {

class AttentionEmitter {
public:
  AttentionEmitter(OpBuilder &b, Location loc, AttentionOp op,
                   const AttentionTiling &tiling)
      : b(b), loc(loc), tiling(tiling) {
    q = toRank3(b, loc, op.getQ());
    kT = toRank3(b, loc, op.getKT());
    v = toRank3(b, loc, op.getV());
    if (op.getMask()) {
      mask = toRank3(b, loc, op.getMask());
      DenseElementsAttr values;
      if (matchPattern(op.getMask(), m_Constant(&values)) &&
          !values.isSplat() && values.getElementType().isF32())
        constantMask = values;
    }
    ArrayRef<int64_t> qs = cast<RankedTensorType>(q.getType()).getShape();
    batch = qs[0];
    queries = qs[1];
    depth = qs[2];
    keys = cast<RankedTensorType>(kT.getType()).getShape()[2];
    valueDepth = cast<RankedTensorType>(v.getType()).getShape()[2];
    if (mask) {
      ArrayRef<int64_t> ms = cast<RankedTensorType>(mask.getType()).getShape();
      maskPerBatch = ms[0] > 1;
      maskPerRow = ms[1] > 1;
    }
    scale = op.getScale().convertToFloat();
    f32 = b.getF32Type();
    keyVector = VectorType::get({tiling.lanes}, f32);
  }

  /// The attention, as [batch, S, Dv].
  Value emit() {
    Value out = tensor::EmptyOp::create(
        b, loc, ArrayRef<int64_t>{batch, queries, valueDepth}, f32);
    int64_t full = queries / tiling.rows;
    if (full > 0)
      out = emitQueryBlocks(out, 0, full, tiling.rows);
    if (int64_t rest = queries % tiling.rows)
      out = emitQueryBlocks(out, full * tiling.rows, rest, 1);
    return out;
  }

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

  /// The blocks of keys each block of rows visits under a constant mask
  /// that hides whole blocks of keys (computeKeyBlockRanges), as a constant
  /// [mask batch, block of rows, 2] table; null without such a mask.
  Value getKeyBlockRanges(int64_t first, int64_t blocks, int64_t rows) {
    if (!constantMask)
      return {};
    ArrayRef<int64_t> shape = cast<RankedTensorType>(mask.getType()).getShape();
    auto values = llvm::to_vector(constantMask.getValues<float>());
    std::optional<SmallVector<int32_t>> ranges = computeKeyBlockRanges(
        values, shape[0], shape[1], keys, tiling.lanes * tiling.keyVectors,
        first, blocks, rows);
    if (!ranges)
      return {};
    auto type = RankedTensorType::get({shape[0], blocks, 2}, b.getI32Type());
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, ArrayRef<int32_t>(*ranges)));
  }

  /// An scf.forall over (batch, `blocks` blocks of `rows` query rows from
  /// row `first`) writing into `out`.
  Value emitQueryBlocks(Value out, int64_t first, int64_t blocks,
                        int64_t rows) {
    Value keyBlockRanges = getKeyBlockRanges(first, blocks, rows);
    SmallVector<OpFoldResult> ubs = {b.getIndexAttr(batch),
                                     b.getIndexAttr(blocks)};
    auto forall = scf::ForallOp::create(
        b, loc, ubs, ValueRange{out}, std::nullopt,
        [&](OpBuilder &nested, Location, ValueRange args) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
          Value bh = args[0];
          Value row0 = arith::AddIOp::create(
              b, loc, index(first),
              arith::MulIOp::create(b, loc, args[1], index(rows)));
          SmallVector<OpFoldResult> offsets = {bh, row0, b.getIndexAttr(0)};
          SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1),
                                             b.getIndexAttr(rows),
                                             b.getIndexAttr(valueDepth)};
          SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
          Value tile = tensor::ExtractSliceOp::create(
              b, loc, RankedTensorType::get({1, rows, valueDepth}, f32),
              args[2], offsets, sizes, strides);
          std::optional<std::pair<Value, Value>> keyBlocks;
          if (keyBlockRanges) {
            Value maskBatch = maskPerBatch ? bh : index(0);
            auto bound = [&](int64_t which) -> Value {
              Value entry = tensor::ExtractOp::create(
                  b, loc, keyBlockRanges,
                  ValueRange{maskBatch, args[1], index(which)});
              return arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                                entry);
            };
            keyBlocks = std::make_pair(bound(0), bound(1));
          }
          tile = emitBlock(tile, bh, row0, rows, keyBlocks);
          auto terminator = scf::InParallelOp::create(b, loc);
          b.setInsertionPointToStart(terminator.getBody());
          tensor::ParallelInsertSliceOp::create(b, loc, tile, args[2], offsets,
                                                sizes, strides);
        });
    return forall.getResult(0);
  }

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
    SmallVector<Value> flatten() const {
      SmallVector<Value> values(max);
      llvm::append_range(values, sum);
      llvm::append_range(values, correction);
      llvm::append_range(values, acc);
      values.push_back(probabilities);
      if (tile)
        values.push_back(tile);
      return values;
    }
    static State unflatten(ValueRange values, int64_t rows, bool inMemory) {
      State state;
      auto take = [&](size_t count) {
        ValueRange taken = values.take_front(count);
        values = values.drop_front(count);
        return SmallVector<Value>(taken);
      };
      state.max = take(rows);
      state.sum = take(rows);
      if (inMemory) {
        state.correction = take(rows);
      } else {
        state.acc = take(values.size() - 1);
      }
      state.probabilities = values.front();
      if (inMemory)
        state.tile = values.back();
      return state;
    }
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
                  std::optional<std::pair<Value, Value>> keyBlocks) {
    int64_t lanes = tiling.lanes, chunks = tiling.chunks;
    State state;
    Value negInf = f32Constant(-std::numeric_limits<float>::infinity());
    Value zero = f32Constant(0.0f);
    Value zeroChunk = splat(zero, chunkType());
    for (int64_t i = 0; i < rows; ++i) {
      state.max.push_back(negInf);
      state.sum.push_back(zero);
      if (accumulatorsInMemory()) {
        state.correction.push_back(zero);
        for (int64_t c = 0; c < chunks; ++c)
          tile = writeChunk(zeroChunk, tile, i, c);
      } else {
        for (int64_t c = 0; c < chunks; ++c)
          state.acc.push_back(zeroChunk);
      }
    }
    if (accumulatorsInMemory())
      state.tile = tile;
    SmallVector<Value> rowIndex;
    for (int64_t i = 0; i < rows; ++i)
      rowIndex.push_back(arith::AddIOp::create(b, loc, row0, index(i)));

    int64_t blockKeys = lanes * tiling.keyVectors;
    state.probabilities = tensor::EmptyOp::create(
        b, loc, ArrayRef<int64_t>{rows, blockKeys}, f32);
    int64_t fullBlocks = keys / blockKeys;
    Value lower = index(0), upper = index(fullBlocks * blockKeys);
    if (keyBlocks) {
      lower = arith::MulIOp::create(b, loc, keyBlocks->first, index(blockKeys));
      upper = arith::MulIOp::create(
          b, loc,
          arith::MinSIOp::create(b, loc, keyBlocks->second, index(fullBlocks)),
          index(blockKeys));
    }
    if (fullBlocks > 0 && !keyBlocks) {
      state = emitFullBlocks(state, bh, rowIndex, lower, upper);
    } else if (fullBlocks > 0) {
      // The range of blocks the mask leaves may be empty.
      Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                        lower, upper);
      SmallVector<Value> current = state.flatten();
      auto ifOp = scf::IfOp::create(
          b, loc, any,
          [&](OpBuilder &nested, Location) {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPoint(nested.getInsertionBlock(),
                                nested.getInsertionPoint());
            scf::YieldOp::create(
                b, loc,
                emitFullBlocks(state, bh, rowIndex, lower, upper).flatten());
          },
          [&](OpBuilder &nested, Location) {
            scf::YieldOp::create(nested, loc, current);
          });
      state = unflatten(ifOp.getResults(), rows);
    }
    if (int64_t rest = keys % blockKeys) {
      auto emitRest = [&]() {
        return emitKeyBlock(state, bh, rowIndex, index(fullBlocks * blockKeys),
                            rest);
      };
      if (!keyBlocks) {
        state = emitRest();
      } else {
        // The partial block last, when the range reaches it.
        Value reaches =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                  keyBlocks->second, index(fullBlocks));
        SmallVector<Value> current = state.flatten();
        auto ifOp = scf::IfOp::create(
            b, loc, reaches,
            [&](OpBuilder &nested, Location) {
              OpBuilder::InsertionGuard guard(b);
              b.setInsertionPoint(nested.getInsertionBlock(),
                                  nested.getInsertionPoint());
              scf::YieldOp::create(b, loc, emitRest().flatten());
            },
            [&](OpBuilder &nested, Location) {
              scf::YieldOp::create(nested, loc, current);
            });
        state = unflatten(ifOp.getResults(), rows);
      }
    }

    if (accumulatorsInMemory())
      tile = state.tile;
    for (int64_t i = 0; i < rows; ++i) {
      Value sum = splat(state.sum[i], chunkType());
      for (int64_t c = 0; c < chunks; ++c) {
        Value acc = accumulatorsInMemory() ? readChunk(tile, i, c)
                                           : state.acc[i * chunks + c];
        tile = writeChunk(arith::DivFOp::create(b, loc, acc, sum), tile, i, c);
      }
    }
    return tile;
  }

  /// Chunk `c` of row `i` of a block's tile ([1, rows, Dv]).
  Value readChunk(Value tile, int64_t i, int64_t c) {
    return vector::TransferReadOp::create(
        b, loc, chunkType(), tile,
        ValueRange{index(0), index(i), index(c * tiling.lanes)},
        f32Constant(0.0f), ArrayRef<bool>{chunkInBounds(c)});
  }
  Value writeChunk(Value chunk, Value tile, int64_t i, int64_t c) {
    return vector::TransferWriteOp::create(
               b, loc, chunk, tile,
               ValueRange{index(0), index(i), index(c * tiling.lanes)},
               ArrayRef<bool>{chunkInBounds(c)})
        .getResult();
  }

  /// The state after the whole blocks of keys in [lower, upper) (a
  /// non-empty range), software-pipelined: each step computes the scores of
  /// its block, then adds the previous block's probabilities times v, then
  /// takes the softmax step of its own block. The softmax's chain of
  /// dependent steps (row maximum, exponentials, sums) thus overlaps the
  /// next step's FMAs, which do not depend on it, where in block order the
  /// product by v, which does, came between them.
  State emitFullBlocks(const State &initial, Value bh, ArrayRef<Value> rowIndex,
                       Value lower, Value upper) {
    int64_t rows = rowIndex.size();
    int64_t blockKeys = tiling.lanes * tiling.keyVectors;
    SmallVector<Value> first = emitScores(bh, rowIndex, lower, blockKeys);
    State state =
        emitSoftmaxStep(initial, first, bh, rowIndex, lower, blockKeys);
    Value second = arith::AddIOp::create(b, loc, lower, index(blockKeys));
    auto loop = scf::ForOp::create(
        b, loc, second, upper, index(blockKeys), state.flatten(),
        [&](OpBuilder &nested, Location, Value key0, ValueRange iterArgs) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
          State next = unflatten(iterArgs, rows);
          SmallVector<Value> scores = emitScores(bh, rowIndex, key0, blockKeys);
          Value previous =
              arith::SubIOp::create(b, loc, key0, index(blockKeys));
          emitProductByV(next, bh, rows, previous, blockKeys);
          next = emitSoftmaxStep(next, scores, bh, rowIndex, key0, blockKeys);
          scf::YieldOp::create(b, loc, next.flatten());
        });
    state = unflatten(loop.getResults(), rows);
    Value last = arith::SubIOp::create(b, loc, upper, index(blockKeys));
    emitProductByV(state, bh, rows, last, blockKeys);
    return state;
  }

  /// The state after the `count` keys from `key0` (count <= the block's
  /// keys; the lanes past it are masked out).
  State emitKeyBlock(const State &state, Value bh, ArrayRef<Value> rowIndex,
                     Value key0, int64_t count) {
    SmallVector<Value> scores = emitScores(bh, rowIndex, key0, count);
    State next = emitSoftmaxStep(state, scores, bh, rowIndex, key0, count);
    emitProductByV(next, bh, rowIndex.size(), key0, count);
    return next;
  }

  /// max(a, b) as x86's maxps takes it, b where either is NaN: one
  /// instruction where arith.maximumf, NaN-propagating and ordering -0 below
  /// +0, costs a sign blend and a NaN test. Enough for the row maxima: only
  /// differences from them are used, so the sign of a zero does not matter,
  /// and a NaN score makes its own probability NaN whatever the maximum, so
  /// that the row ends NaN as the softmax's does.
  Value emitMax(Value a, Value c) {
    Value greater =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, a, c);
    return arith::SelectOp::create(b, loc, greater, a, c);
  }

  /// The maximum of a vector's lanes (emitMax), halving it in log2(lanes)
  /// steps; vector.reduction's maximumf steps go through scalar registers.
  Value emitHorizontalMax(Value vector) {
    for (int64_t width = tiling.lanes / 2; width >= 1; width /= 2) {
      Value low = vector::ExtractStridedSliceOp::create(
          b, loc, vector, ArrayRef<int64_t>{0}, ArrayRef<int64_t>{width},
          ArrayRef<int64_t>{1});
      Value high = vector::ExtractStridedSliceOp::create(
          b, loc, vector, ArrayRef<int64_t>{width}, ArrayRef<int64_t>{width},
          ArrayRef<int64_t>{1});
      vector = emitMax(low, high);
    }
    return vector::ExtractOp::create(b, loc, vector, ArrayRef<int64_t>{0});
  }

  /// The first key of each vector of a block from `key0`.
  SmallVector<Value> getKeyStarts(Value key0) {
    SmallVector<Value> keyStart;
    for (int64_t k = 0; k < tiling.keyVectors; ++k)
      keyStart.push_back(
          arith::AddIOp::create(b, loc, key0, index(k * tiling.lanes)));
    return keyStart;
  }

  /// The raw scores q_i . k_t of the `count` keys from `key0`, as
  /// score[i * keyVectors + k] (lanes past `count` are 0).
  SmallVector<Value> emitScores(Value bh, ArrayRef<Value> rowIndex, Value key0,
                                int64_t count) {
    int64_t rows = rowIndex.size(), lanes = tiling.lanes,
            keyVectors = tiling.keyVectors,
            splits = std::min(tiling.splits, std::max<int64_t>(depth, 1));
    Value zero = f32Constant(0.0f);
    SmallVector<Value> keyStart = getKeyStarts(key0);
    auto inBounds = [&](int64_t k) { return (k + 1) * lanes <= count; };

    // The scores, score[i * keyVectors + k], summed over D as `splits`
    // interleaved partial sums (more FMA chains in flight), added at the end.
    int64_t perStep = rows * keyVectors;
    auto accumulate = [&](Value d, ValueRange partial,
                          SmallVectorImpl<Value> &sums) {
      SmallVector<Value> keysRow;
      for (int64_t k = 0; k < keyVectors; ++k)
        keysRow.push_back(vector::TransferReadOp::create(
            b, loc, keyVector, kT, ValueRange{bh, d, keyStart[k]}, zero,
            ArrayRef<bool>{inBounds(k)}));
      for (int64_t i = 0; i < rows; ++i) {
        Value qValue = tensor::ExtractOp::create(
            b, loc, q, ValueRange{bh, rowIndex[i], d});
        Value qSplat = splat(qValue, keyVector);
        for (int64_t k = 0; k < keyVectors; ++k)
          sums.push_back(vector::FMAOp::create(b, loc, qSplat, keysRow[k],
                                               partial[i * keyVectors + k]));
      }
    };
    int64_t steps = depth / splits;
    SmallVector<Value> init(perStep * splits, splat(zero, keyVector));
    auto depthLoop = scf::ForOp::create(
        b, loc, index(0), index(steps * splits), index(splits), init,
        [&](OpBuilder &nested, Location, Value d, ValueRange partial) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
          SmallVector<Value> sums;
          for (int64_t split = 0; split < splits; ++split)
            accumulate(arith::AddIOp::create(b, loc, d, index(split)),
                       partial.slice(split * perStep, perStep), sums);
          scf::YieldOp::create(b, loc, sums);
        });
    SmallVector<Value> scores(depthLoop.getResults().take_front(perStep));
    for (int64_t split = 1; split < splits; ++split)
      for (int64_t n = 0; n < perStep; ++n)
        scores[n] = arith::AddFOp::create(
            b, loc, scores[n], depthLoop.getResult(split * perStep + n));
    for (int64_t d = steps * splits; d < depth; ++d) {
      SmallVector<Value> sums;
      accumulate(index(d), scores, sums);
      scores = sums;
    }
    return scores;
  }

  /// The online softmax's step over the block's `scores` (emitScores): the
  /// new maxima and sums, the accumulators rescaled to the new maxima, and
  /// the block's probabilities written for emitProductByV.
  State emitSoftmaxStep(const State &state, ArrayRef<Value> scores, Value bh,
                        ArrayRef<Value> rowIndex, Value key0, int64_t count) {
    int64_t rows = rowIndex.size(), lanes = tiling.lanes,
            chunks = tiling.chunks, keyVectors = tiling.keyVectors;
    Value zero = f32Constant(0.0f);
    SmallVector<Value> keyStart = getKeyStarts(key0);
    auto inBounds = [&](int64_t k) { return (k + 1) * lanes <= count; };
    Value scaleVector = splat(f32Constant(scale), keyVector);
    Value negInf = f32Constant(-std::numeric_limits<float>::infinity());
    Value negInfVector = splat(negInf, keyVector);
    SmallVector<Value> lanesInRange(keyVectors);
    for (int64_t k = 0; k < keyVectors; ++k) {
      int64_t valid = std::clamp<int64_t>(count - k * lanes, 0, lanes);
      if (valid == lanes)
        continue;
      SmallVector<bool> inRange(lanes, false);
      std::fill_n(inRange.begin(), valid, true);
      lanesInRange[k] = arith::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(VectorType::get({lanes}, b.getI1Type()),
                                 ArrayRef<bool>(inRange)));
    }
    State next;
    next.probabilities = state.probabilities;
    next.tile = state.tile;
    for (int64_t i = 0; i < rows; ++i) {
      SmallVector<Value> s;
      for (int64_t k = 0; k < keyVectors; ++k) {
        Value score = arith::MulFOp::create(b, loc, scores[i * keyVectors + k],
                                            scaleVector);
        if (mask) {
          Value maskBatch = maskPerBatch ? bh : index(0);
          Value maskRow = maskPerRow ? rowIndex[i] : index(0);
          Value m = vector::TransferReadOp::create(
              b, loc, keyVector, mask,
              ValueRange{maskBatch, maskRow, keyStart[k]}, zero,
              ArrayRef<bool>{inBounds(k)});
          score = arith::AddFOp::create(b, loc, score, m);
        }
        if (lanesInRange[k])
          score = arith::SelectOp::create(b, loc, lanesInRange[k], score,
                                          negInfVector);
        s.push_back(score);
      }
      Value rowMax = s[0];
      for (int64_t k = 1; k < keyVectors; ++k)
        rowMax = emitMax(rowMax, s[k]);
      Value newMax = emitMax(state.max[i], emitHorizontalMax(rowMax));
      Value stillNegInf = arith::CmpFOp::create(
          b, loc, arith::CmpFPredicate::OEQ, newMax, negInf);
      Value base = arith::SelectOp::create(b, loc, stillNegInf, zero, newMax);
      Value baseVector = splat(base, keyVector);
      Value rowSum;
      for (int64_t k = 0; k < keyVectors; ++k) {
        Value p = math::ExpOp::create(
            b, loc, arith::SubFOp::create(b, loc, s[k], baseVector));
        next.probabilities =
            vector::TransferWriteOp::create(
                b, loc, p, next.probabilities,
                ValueRange{index(i), index(k * lanes)}, ArrayRef<bool>{true})
                .getResult();
        rowSum =
            rowSum ? arith::AddFOp::create(b, loc, rowSum, p).getResult() : p;
      }
      Value correction = math::ExpOp::create(
          b, loc, arith::SubFOp::create(b, loc, state.max[i], base));
      Value blockSum = vector::ReductionOp::create(
          b, loc, vector::CombiningKind::ADD, rowSum, Value(),
          arith::FastMathFlags::reassoc);
      next.max.push_back(newMax);
      next.sum.push_back(arith::AddFOp::create(
          b, loc, arith::MulFOp::create(b, loc, state.sum[i], correction),
          blockSum));
      if (accumulatorsInMemory()) {
        next.correction.push_back(correction);
        continue;
      }
      Value correctionChunk = splat(correction, chunkType());
      for (int64_t c = 0; c < chunks; ++c)
        next.acc.push_back(arith::MulFOp::create(
            b, loc, state.acc[i * chunks + c], correctionChunk));
    }
    return next;
  }

  /// acc_i += sum_j p_i[j] * v[key0 + j, :] over the `count` keys whose
  /// probabilities emitSoftmaxStep wrote into `next.probabilities`: each
  /// key's row of v, a vector at a time, for all the block's query rows.
  void emitProductByV(State &next, Value bh, int64_t rows, Value key0,
                      int64_t count) {
    if (accumulatorsInMemory())
      return emitProductByVInMemory(next, bh, rows, key0, count);
    for (int64_t j = 0; j < count; ++j)
      addKeyTimesV(next.acc, next.probabilities, bh, rows,
                   arith::AddIOp::create(b, loc, key0, index(j)), index(j),
                   /*first=*/0, tiling.chunks);
  }

  /// acc[i * group + c - first] += p_i[column] * v[key, chunk c], for the
  /// block's rows i and the chunks c in [first, first + group): one key's
  /// row of v, read a vector at a time, for every row.
  void addKeyTimesV(SmallVectorImpl<Value> &acc, Value probabilities, Value bh,
                    int64_t rows, Value key, Value column, int64_t first,
                    int64_t group) {
    SmallVector<Value> pj;
    for (int64_t i = 0; i < rows; ++i)
      pj.push_back(
          splat(tensor::ExtractOp::create(b, loc, probabilities,
                                          ValueRange{index(i), column}),
                chunkType()));
    for (int64_t c = first; c < first + group; ++c) {
      Value valueRow = vector::TransferReadOp::create(
          b, loc, chunkType(), v, ValueRange{bh, key, index(c * tiling.lanes)},
          f32Constant(0.0f), ArrayRef<bool>{chunkInBounds(c)});
      for (int64_t i = 0; i < rows; ++i) {
        Value &sum = acc[i * group + c - first];
        sum = vector::FMAOp::create(b, loc, pj[i], valueRow, sum);
      }
    }
  }

  /// The same with the accumulators in `next.tile`: a group of chunks of
  /// every row at a time is loaded, scaled by the row's pending correction,
  /// takes the block's keys, and is stored back. The keys are a loop of
  /// their own per group (kKeysPerStep at a time): unrolled, LLVM
  /// interleaved the groups and spilled their accumulators.
  void emitProductByVInMemory(State &next, Value bh, int64_t rows, Value key0,
                              int64_t count) {
    static constexpr int64_t kKeysPerStep = 4;
    int64_t chunks = tiling.chunks;
    for (int64_t first = 0; first < chunks; first += tiling.chunkGroup) {
      int64_t group = std::min(tiling.chunkGroup, chunks - first);
      SmallVector<Value> acc; // acc[row * group + chunk - first]
      for (int64_t i = 0; i < rows; ++i) {
        Value correction = splat(next.correction[i], chunkType());
        for (int64_t c = first; c < first + group; ++c)
          acc.push_back(arith::MulFOp::create(
              b, loc, readChunk(next.tile, i, c), correction));
      }
      Value probabilities = next.probabilities;
      // acc after the keys [j, j + steps) of the block.
      auto addKeys = [&](Value j, int64_t steps, SmallVector<Value> acc) {
        for (int64_t u = 0; u < steps; ++u) {
          Value column = arith::AddIOp::create(b, loc, j, index(u));
          addKeyTimesV(acc, probabilities, bh, rows,
                       arith::AddIOp::create(b, loc, key0, column), column,
                       first, group);
        }
        return acc;
      };
      int64_t looped = count - count % kKeysPerStep;
      if (looped > 0) {
        auto loop = scf::ForOp::create(
            b, loc, index(0), index(looped), index(kKeysPerStep), acc,
            [&](OpBuilder &nested, Location, Value j, ValueRange iterArgs) {
              OpBuilder::InsertionGuard guard(b);
              b.setInsertionPoint(nested.getInsertionBlock(),
                                  nested.getInsertionPoint());
              scf::YieldOp::create(
                  b, loc,
                  addKeys(j, kKeysPerStep, SmallVector<Value>(iterArgs)));
            });
        acc.assign(loop.getResults().begin(), loop.getResults().end());
      }
      if (looped < count)
        acc = addKeys(index(looped), count - looped, acc);
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t c = first; c < first + group; ++c)
          next.tile = writeChunk(acc[i * group + c - first], next.tile, i, c);
    }
    // Applied: the accumulators are relative to the current maximum.
    Value one = f32Constant(1.0f);
    for (Value &correction : next.correction)
      correction = one;
  }

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

struct GraphLowerAttentionPass
    : public graph::impl::GraphLowerAttentionBase<GraphLowerAttentionPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    FailureOr<CPUTarget> result =
        getPassTarget(context, getArgument(), targetCpu, targetFeatures);
    if (failed(result))
      return failure();
    target = *result;
    return success();
  }

  void runOnOperation() override {
    SmallVector<AttentionOp> ops;
    getOperation()->walk([&](AttentionOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (AttentionOp op : ops) {
      rewriter.setInsertionPoint(op);
      auto type = cast<RankedTensorType>(op.getType());
      AttentionTiling tiling =
          chooseAttentionTiling(target, type.getShape().back());
      Value flat = AttentionEmitter(rewriter, op.getLoc(), op, tiling).emit();
      rewriter.replaceOp(op, reshapeBatch(rewriter, op.getLoc(), flat, type));
    }
  }

  CPUTarget target;
};

} // namespace
