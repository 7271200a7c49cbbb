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

#include "AttentionEmitter.h"
#include "AttentionTiling.h"
#include "graph/Codegen/CPU/Passes.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Target/CPU/PassTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

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

AttentionEmitter::AttentionEmitter(OpBuilder &b, Location loc, AttentionOp op,
                                   const AttentionTiling &tiling)
    : b(b), loc(loc), tiling(tiling) {
  q = toRank3(b, loc, op.getQ());
  kT = toRank3(b, loc, op.getKT());
  v = toRank3(b, loc, op.getV());
  if (op.getMask()) {
    mask = toRank3(b, loc, op.getMask());
    DenseElementsAttr values;
    if (matchPattern(op.getMask(), m_Constant(&values)) && !values.isSplat() &&
        values.getElementType().isF32())
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

Value AttentionEmitter::emit() {
  Value out = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{batch, queries, valueDepth}, f32);
  int64_t full = queries / tiling.rows;
  if (full > 0)
    out = emitQueryBlocks(out, 0, full, tiling.rows);
  if (int64_t rest = queries % tiling.rows)
    out = emitQueryBlocks(out, full * tiling.rows, rest, 1);
  return out;
}

Value AttentionEmitter::getKeyBlockRanges(int64_t first, int64_t blocks,
                                          int64_t rows) {
  if (!constantMask)
    return {};
  ArrayRef<int64_t> shape = cast<RankedTensorType>(mask.getType()).getShape();
  auto values = llvm::to_vector(constantMask.getValues<float>());
  std::optional<SmallVector<int32_t>> ranges = computeKeyBlockRanges(
      values, shape[0], shape[1], keys, tiling.lanes * tiling.keyVectors, first,
      blocks, rows);
  if (!ranges)
    return {};
  auto type = RankedTensorType::get({shape[0], blocks, 2}, b.getI32Type());
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, ArrayRef<int32_t>(*ranges)));
}

Value AttentionEmitter::emitQueryBlocks(Value out, int64_t first,
                                        int64_t blocks, int64_t rows) {
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
            b, loc, RankedTensorType::get({1, rows, valueDepth}, f32), args[2],
            offsets, sizes, strides);
        std::optional<std::pair<Value, Value>> keyBlocks;
        if (keyBlockRanges) {
          Value maskBatch = maskPerBatch ? bh : index(0);
          auto bound = [&](int64_t which) -> Value {
            Value entry = tensor::ExtractOp::create(
                b, loc, keyBlockRanges,
                ValueRange{maskBatch, args[1], index(which)});
            return arith::IndexCastOp::create(b, loc, b.getIndexType(), entry);
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

SmallVector<Value> AttentionEmitter::State::flatten() const {
  SmallVector<Value> values(max);
  llvm::append_range(values, sum);
  llvm::append_range(values, correction);
  llvm::append_range(values, acc);
  values.push_back(probabilities);
  if (tile)
    values.push_back(tile);
  return values;
}

AttentionEmitter::State AttentionEmitter::State::unflatten(ValueRange values,
                                                           int64_t rows,
                                                           bool inMemory) {
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

Value AttentionEmitter::emitBlock(
    Value tile, Value bh, Value row0, int64_t rows,
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
  state.probabilities =
      tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{rows, blockKeys}, f32);
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
    Value any =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lower, upper);
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

AttentionEmitter::State
AttentionEmitter::emitFullBlocks(const State &initial, Value bh,
                                 ArrayRef<Value> rowIndex, Value lower,
                                 Value upper) {
  int64_t rows = rowIndex.size();
  int64_t blockKeys = tiling.lanes * tiling.keyVectors;
  SmallVector<Value> first = emitScores(bh, rowIndex, lower, blockKeys);
  State state = emitSoftmaxStep(initial, first, bh, rowIndex, lower, blockKeys);
  Value second = arith::AddIOp::create(b, loc, lower, index(blockKeys));
  auto loop = scf::ForOp::create(
      b, loc, second, upper, index(blockKeys), state.flatten(),
      [&](OpBuilder &nested, Location, Value key0, ValueRange iterArgs) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        State next = unflatten(iterArgs, rows);
        SmallVector<Value> scores = emitScores(bh, rowIndex, key0, blockKeys);
        Value previous = arith::SubIOp::create(b, loc, key0, index(blockKeys));
        emitProductByV(next, bh, rows, previous, blockKeys);
        next = emitSoftmaxStep(next, scores, bh, rowIndex, key0, blockKeys);
        scf::YieldOp::create(b, loc, next.flatten());
      });
  state = unflatten(loop.getResults(), rows);
  Value last = arith::SubIOp::create(b, loc, upper, index(blockKeys));
  emitProductByV(state, bh, rows, last, blockKeys);
  return state;
}

AttentionEmitter::State AttentionEmitter::emitKeyBlock(const State &state,
                                                       Value bh,
                                                       ArrayRef<Value> rowIndex,
                                                       Value key0,
                                                       int64_t count) {
  SmallVector<Value> scores = emitScores(bh, rowIndex, key0, count);
  State next = emitSoftmaxStep(state, scores, bh, rowIndex, key0, count);
  emitProductByV(next, bh, rowIndex.size(), key0, count);
  return next;
}

namespace {

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
