//===- VectorKernels.cpp - Micro-kernels written out in vectors -----------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// See VectorKernels.h.
//
//===----------------------------------------------------------------------===//

#include "VectorKernels.h"

#include "graph/Conversion/PackedContraction.h"
#include "graph/Target/CPU/KernelConfig.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::graph;

void mlir::graph::emitPackedContractionKernel(RewriterBase &rewriter,
                                              linalg::GenericOp op) {
  Location loc = op.getLoc();
  OpOperand *lhsOperand = op.getDpsInputOperand(0);
  OpOperand *packedOperand = op.getDpsInputOperand(1);
  OpOperand *accOperand = op.getDpsInitOperand(0);
  AffineMap lhsMap = op.getMatchingIndexingMap(lhsOperand);
  AffineMap packedMap = op.getMatchingIndexingMap(packedOperand);
  AffineMap accMap = op.getMatchingIndexingMap(accOperand);
  Value lhs = lhsOperand->get(), packed = packedOperand->get();
  Value acc = accOperand->get();
  auto accType = cast<RankedTensorType>(acc.getType());
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned columnLoop =
      cast<AffineDimExpr>(accMap.getResults().back()).getPosition();
  int64_t n0 = ranges[columnLoop];
  SmallVector<unsigned> rowLoops, panelLoops, reductionLoops;
  for (unsigned loop = 0; loop < ranges.size(); ++loop) {
    if (loop == columnLoop)
      continue;
    if (iterators[loop] == utils::IteratorType::reduction)
      reductionLoops.push_back(loop);
    else if (packedMap.isFunctionOfDim(loop))
      panelLoops.push_back(loop);
    else
      rowLoops.push_back(loop);
  }
  // Every point of the given loops, the first loop outermost, as a full
  // iteration vector with the other loops at 0.
  auto pointsOf = [&](ArrayRef<unsigned> loops) {
    SmallVector<SmallVector<int64_t>> points = {
        SmallVector<int64_t>(ranges.size(), 0)};
    for (unsigned loop : loops) {
      SmallVector<SmallVector<int64_t>> next;
      for (const SmallVector<int64_t> &point : points)
        for (int64_t i = 0; i < ranges[loop]; ++i) {
          next.push_back(point);
          next.back()[loop] = i;
        }
      points = std::move(next);
    }
    return points;
  };
  SmallVector<SmallVector<int64_t>> rows = pointsOf(rowLoops);
  SmallVector<SmallVector<int64_t>> panels = pointsOf(panelLoops);
  SmallVector<SmallVector<int64_t>> steps = pointsOf(reductionLoops);
  auto combine = [](ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
    SmallVector<int64_t> point(a);
    for (auto [x, y] : llvm::zip(point, b))
      x += y;
    return point;
  };

  Type f32 = accType.getElementType();
  auto vectorType = VectorType::get({n0}, f32);
  auto tileType = VectorType::get(accType.getShape(), f32);
  auto indices = [&](AffineMap map, ArrayRef<int64_t> point) {
    SmallVector<Value> values;
    for (int64_t i : map.compose(point))
      values.push_back(arith::ConstantIndexOp::create(rewriter, loc, i));
    return values;
  };
  Value padding =
      arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(f32));
  // The accumulator tile is one full-rank transfer each way, as the
  // vectorizer writes them: hoistAccumulators moves such pairs out of the
  // reduction loops.
  SmallVector<Value> origin(accType.getRank(),
                            arith::ConstantIndexOp::create(rewriter, loc, 0));
  SmallVector<bool> inBounds(accType.getRank(), true);
  Value tile = vector::TransferReadOp::create(
      rewriter, loc, tileType, acc, origin, padding, ArrayRef<bool>(inBounds));
  // The position of each (row, panel) accumulator in the tile: the output
  // map at that point, without the column.
  auto positionOf = [&](ArrayRef<int64_t> row, ArrayRef<int64_t> panel) {
    return llvm::to_vector(
        ArrayRef<int64_t>(accMap.compose(combine(row, panel))).drop_back());
  };
  SmallVector<Value> sums;
  for (const SmallVector<int64_t> &row : rows)
    for (const SmallVector<int64_t> &panel : panels)
      sums.push_back(vector::ExtractOp::create(rewriter, loc, tile,
                                               positionOf(row, panel)));
  SmallVector<bool> rowInBounds = {true};
  for (const SmallVector<int64_t> &step : steps) {
    SmallVector<Value> weights;
    for (const SmallVector<int64_t> &panel : panels)
      weights.push_back(vector::TransferReadOp::create(
          rewriter, loc, vectorType, packed,
          indices(packedMap, combine(panel, step)), padding,
          ArrayRef<bool>(rowInBounds)));
    for (auto [r, row] : llvm::enumerate(rows)) {
      Value x = tensor::ExtractOp::create(rewriter, loc, lhs,
                                          indices(lhsMap, combine(row, step)));
      Value broadcast =
          vector::BroadcastOp::create(rewriter, loc, vectorType, x);
      for (auto [p, weight] : llvm::enumerate(weights)) {
        Value &sum = sums[r * panels.size() + p];
        sum = vector::FMAOp::create(rewriter, loc, broadcast, weight, sum);
      }
    }
  }
  for (auto [r, row] : llvm::enumerate(rows))
    for (auto [p, panel] : llvm::enumerate(panels))
      tile =
          vector::InsertOp::create(rewriter, loc, sums[r * panels.size() + p],
                                   tile, positionOf(row, panel));
  Value result = vector::TransferWriteOp::create(
                     rewriter, loc, tile, acc, origin, ArrayRef<bool>(inBounds))
                     .getResult();
  rewriter.replaceOp(op, result);
}

bool mlir::graph::isPackedContractionTile(linalg::LinalgOp op) {
  if (!isPackedContraction(op) || !op->getParentOfType<LoopLikeOpInterface>())
    return false;
  int64_t points = 1;
  for (int64_t range : op.getStaticLoopRanges())
    points *= range;
  // At most 32 rows x 8 panels of accumulators over kReductionTile steps,
  // 128 lanes each.
  return points <= 32 * 8 * kReductionTile * 128;
}

void mlir::graph::emitWindowKernel(RewriterBase &rewriter, linalg::LinalgOp op,
                                   int64_t f32Lanes) {
  Location loc = op.getLoc();
  bool depthwise = isa<linalg::DepthwiseConv2DNhwcHwcOp>(op.getOperation());
  bool max = isa<linalg::PoolingNhwcMaxOp>(op.getOperation());
  Value input = op.getDpsInputOperand(0)->get();
  Value filter = op.getDpsInputOperand(1)->get();
  Value acc = op.getDpsInitOperand(0)->get();
  auto accType = cast<RankedTensorType>(acc.getType());
  ArrayRef<int64_t> out = accType.getShape();
  ArrayRef<int64_t> window =
      cast<RankedTensorType>(filter.getType()).getShape();
  auto getValues = [&](StringRef name) {
    return SmallVector<int64_t>(
        op->getAttrOfType<DenseIntElementsAttr>(name).getValues<int64_t>());
  };
  SmallVector<int64_t> strides = getValues("strides");
  SmallVector<int64_t> dilations = getValues("dilations");
  int64_t width = powerOfTwoTile(out[3], f32Lanes);
  Type f32 = accType.getElementType();
  auto vectorType = VectorType::get({width}, f32);
  auto index = [&](int64_t i) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, i);
  };
  Value padding =
      arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(f32));
  SmallVector<bool> inBounds = {true};
  auto read = [&](Value source, ArrayRef<int64_t> at) -> Value {
    SmallVector<Value> indices = llvm::map_to_vector(at, index);
    return vector::TransferReadOp::create(rewriter, loc, vectorType, source,
                                          indices, padding,
                                          ArrayRef<bool>(inBounds));
  };
  // Accumulators in (n, oh, ow, column) order.
  SmallVector<SmallVector<int64_t>> positions;
  for (int64_t n = 0; n < out[0]; ++n)
    for (int64_t h = 0; h < out[1]; ++h)
      for (int64_t w = 0; w < out[2]; ++w)
        for (int64_t c = 0; c < out[3]; c += width)
          positions.push_back({n, h, w, c});
  SmallVector<Value> sums = llvm::map_to_vector(
      positions, [&](ArrayRef<int64_t> at) { return read(acc, at); });
  for (int64_t kh = 0; kh < window[0]; ++kh) {
    for (int64_t kw = 0; kw < window[1]; ++kw) {
      llvm::SmallDenseMap<int64_t, Value> weights;
      for (auto [position, sum] : llvm::zip(positions, sums)) {
        auto [n, h, w, c] =
            std::make_tuple(position[0], position[1], position[2], position[3]);
        Value x = read(input, {n, h * strides[0] + kh * dilations[0],
                               w * strides[1] + kw * dilations[1], c});
        if (!depthwise) {
          // The pooling ops' own scalar bodies: maximumf, addf.
          sum =
              max ? arith::MaximumFOp::create(rewriter, loc, sum, x).getResult()
                  : arith::AddFOp::create(rewriter, loc, sum, x).getResult();
          continue;
        }
        Value &weight = weights[c];
        if (!weight)
          weight = read(filter, {kh, kw, c});
        sum = vector::FMAOp::create(rewriter, loc, x, weight, sum);
      }
    }
  }
  Value result = acc;
  for (auto [position, sum] : llvm::zip(positions, sums))
    result = vector::TransferWriteOp::create(
                 rewriter, loc, sum, result,
                 llvm::map_to_vector(position, index), ArrayRef<bool>(inBounds))
                 .getResult();
  rewriter.replaceOp(op, result);
}
