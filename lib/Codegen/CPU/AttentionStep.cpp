//===- AttentionStep.cpp - One step of graph-lower-attention ----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The vector arithmetic of one step of the attention kernel over a block of
// keys (AttentionEmitter.h): the scores q_i . k_t, the online softmax's
// step (row maxima, exponentials, sums, the rescaled accumulators) and the
// product of the probabilities by v, with the accumulators in registers or
// in the block's output tile. LowerAttention.cpp builds the loops around it.
//
//===----------------------------------------------------------------------===//

#include "AttentionEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::graph;

Value AttentionEmitter::readChunk(Value tile, int64_t i, int64_t c) {
  return vector::TransferReadOp::create(
      b, loc, chunkType(), tile,
      ValueRange{index(0), index(i), index(c * tiling.lanes)},
      f32Constant(0.0f), ArrayRef<bool>{chunkInBounds(c)});
}

Value AttentionEmitter::writeChunk(Value chunk, Value tile, int64_t i,
                                   int64_t c) {
  return vector::TransferWriteOp::create(
             b, loc, chunk, tile,
             ValueRange{index(0), index(i), index(c * tiling.lanes)},
             ArrayRef<bool>{chunkInBounds(c)})
      .getResult();
}

Value AttentionEmitter::emitMax(Value a, Value c) {
  Value greater =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, a, c);
  return arith::SelectOp::create(b, loc, greater, a, c);
}

Value AttentionEmitter::emitHorizontalMax(Value vector) {
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

SmallVector<Value> AttentionEmitter::getKeyStarts(Value key0) {
  SmallVector<Value> keyStart;
  for (int64_t k = 0; k < tiling.keyVectors; ++k)
    keyStart.push_back(
        arith::AddIOp::create(b, loc, key0, index(k * tiling.lanes)));
  return keyStart;
}

SmallVector<Value> AttentionEmitter::emitScores(Value bh,
                                                ArrayRef<Value> rowIndex,
                                                Value key0, int64_t count) {
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
      Value qValue =
          tensor::ExtractOp::create(b, loc, q, ValueRange{bh, rowIndex[i], d});
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

AttentionEmitter::State
AttentionEmitter::emitSoftmaxStep(const State &state, ArrayRef<Value> scores,
                                  Value bh, ArrayRef<Value> rowIndex,
                                  Value key0, int64_t count) {
  int64_t rows = rowIndex.size(), lanes = tiling.lanes, chunks = tiling.chunks,
          keyVectors = tiling.keyVectors;
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
    Value stillNegInf = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                              newMax, negInf);
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
    Value blockSum =
        vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD, rowSum,
                                    Value(), arith::FastMathFlags::reassoc);
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

void AttentionEmitter::emitProductByV(State &next, Value bh, int64_t rows,
                                      Value key0, int64_t count) {
  if (accumulatorsInMemory())
    return emitProductByVInMemory(next, bh, rows, key0, count);
  for (int64_t j = 0; j < count; ++j)
    addKeyTimesV(next.acc, next.probabilities, bh, rows,
                 arith::AddIOp::create(b, loc, key0, index(j)), index(j),
                 /*first=*/0, tiling.chunks);
}

void AttentionEmitter::addKeyTimesV(SmallVectorImpl<Value> &acc,
                                    Value probabilities, Value bh, int64_t rows,
                                    Value key, Value column, int64_t first,
                                    int64_t group) {
  SmallVector<Value> pj;
  for (int64_t i = 0; i < rows; ++i)
    pj.push_back(splat(tensor::ExtractOp::create(b, loc, probabilities,
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

void AttentionEmitter::emitProductByVInMemory(State &next, Value bh,
                                              int64_t rows, Value key0,
                                              int64_t count) {
  static constexpr int64_t kKeysPerStep = 4;
  int64_t chunks = tiling.chunks;
  for (int64_t first = 0; first < chunks; first += tiling.chunkGroup) {
    int64_t group = std::min(tiling.chunkGroup, chunks - first);
    SmallVector<Value> acc; // acc[row * group + chunk - first]
    for (int64_t i = 0; i < rows; ++i) {
      Value correction = splat(next.correction[i], chunkType());
      for (int64_t c = first; c < first + group; ++c)
        acc.push_back(arith::MulFOp::create(b, loc, readChunk(next.tile, i, c),
                                            correction));
    }
    Value probabilities = next.probabilities;
    // acc after the keys [j, j + steps) of the block.
    auto addKeys = [&](Value j, int64_t steps, SmallVector<Value> acc) {
      for (int64_t u = 0; u < steps; ++u) {
        Value column = arith::AddIOp::create(b, loc, j, index(u));
        addKeyTimesV(acc, probabilities, bh, rows,
                     arith::AddIOp::create(b, loc, key0, column), column, first,
                     group);
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
                b, loc, addKeys(j, kKeysPerStep, SmallVector<Value>(iterArgs)));
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
