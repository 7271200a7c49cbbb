//===- NormalizationToLinalg.cpp - layer_norm, rms_norm ---------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph.layer_norm and graph.rms_norm over a row (the dimensions from `axis`
// on), in the fold hook's order of operations: the input viewed as rows x
// width, one linalg.generic per step. One division per row, the inverse of
// the deviation, which each element is multiplied by (a division per
// element took two thirds of the kernel on AVX-512). Each reduction reads a row
// and keeps the innermost dimension reduced, so that graph-vectorize runs it
// one row per tile in vectors; the per-row figures are read back broadcast
// along the row.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"

#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::graph;

namespace {

/// Builds the normalization of `x` (of `type`) over its dimensions from
/// `axis` on; `scale` and `bias` may be null, `rms` skips the mean.
static Value buildNormalization(OpBuilder &b, Location loc,
                                RankedTensorType type, Value x, Value scale,
                                Value bias, int64_t axis, float epsilon,
                                bool rms) {
  MLIRContext *context = b.getContext();
  if (axis < 0)
    axis += type.getRank();
  int64_t rows = 1, width = 1;
  for (int64_t d = 0; d < type.getRank(); ++d)
    (d < axis ? rows : width) *= type.getDimSize(d);
  Type f32 = type.getElementType();
  auto matrixType = RankedTensorType::get({rows, width}, f32);
  auto rowType = RankedTensorType::get({width}, f32);
  auto perRowType = RankedTensorType::get({rows}, f32);
  Value matrix = createReshape(b, loc, x, matrixType);
  if (scale)
    scale = createReshape(b, loc, scale, rowType);
  if (bias)
    bias = createReshape(b, loc, bias, rowType);

  AffineExpr r = getAffineDimExpr(0, context), w = getAffineDimExpr(1, context);
  AffineMap identity = AffineMap::getMultiDimIdentityMap(2, context);
  AffineMap perRow = AffineMap::get(2, 0, {r}, context);
  AffineMap alongRow = AffineMap::get(2, 0, {w}, context);
  AffineMap rowIdentity = AffineMap::getMultiDimIdentityMap(1, context);
  SmallVector<utils::IteratorType> reduction = {utils::IteratorType::parallel,
                                                utils::IteratorType::reduction};

  // sum over each row of body(x[r, w], perRowInputs[r]...).
  auto sumRows = [&](ValueRange perRowInputs, auto body) {
    SmallVector<Value> inputs = {matrix};
    SmallVector<AffineMap> maps = {identity};
    for (Value v : perRowInputs) {
      inputs.push_back(v);
      maps.push_back(perRow);
    }
    maps.push_back(perRow);
    Value init = createFilledTensor(b, loc, perRowType, 0.0f);
    return linalg::GenericOp::create(
               b, loc, TypeRange{perRowType}, inputs, ValueRange{init}, maps,
               reduction,
               [&](OpBuilder &nb, Location l, ValueRange args) {
                 Value term = body(nb, l, args.drop_back());
                 Value acc = arith::AddFOp::create(nb, l, args.back(), term);
                 linalg::YieldOp::create(nb, l, acc);
               })
        .getResult(0);
  };
  auto perRowValue = [&](Value input, auto body) {
    return createElementwise(b, loc, perRowType, ValueRange{input},
                             {rowIdentity}, body);
  };
  auto divideByCount = [&](OpBuilder &nb, Location l, Value v) {
    Value n = createF32Constant(nb, l, static_cast<float>(width));
    return arith::DivFOp::create(nb, l, v, n).getResult();
  };

  Value mean;
  if (!rms) {
    Value sum = sumRows(
        {}, [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    mean = perRowValue(sum, [&](OpBuilder &nb, Location l, ValueRange args) {
      return divideByCount(nb, l, args[0]);
    });
  }
  Value squares = sumRows(
      rms ? ValueRange{} : ValueRange{mean},
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value d =
            rms ? args[0]
                : arith::SubFOp::create(nb, l, args[0], args[1]).getResult();
        return arith::MulFOp::create(nb, l, d, d).getResult();
      });
  Value inverse =
      perRowValue(squares, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value variance = divideByCount(nb, l, args[0]);
        Value eps = createF32Constant(nb, l, epsilon);
        Value shifted = arith::AddFOp::create(nb, l, variance, eps);
        Value deviation = math::SqrtOp::create(nb, l, shifted);
        Value one = createF32Constant(nb, l, 1.0f);
        return arith::DivFOp::create(nb, l, one, deviation).getResult();
      });

  SmallVector<Value> inputs = {matrix, inverse};
  SmallVector<AffineMap> maps = {identity, perRow};
  if (mean) {
    inputs.push_back(mean);
    maps.push_back(perRow);
  }
  for (Value param : {scale, bias})
    if (param) {
      inputs.push_back(param);
      maps.push_back(alongRow);
    }
  Value result =
      createElementwise(b, loc, matrixType, inputs, maps,
                        [&](OpBuilder &nb, Location l, ValueRange args) {
                          unsigned next = 2;
                          Value y = args[0];
                          if (mean)
                            y = arith::SubFOp::create(nb, l, y, args[next++]);
                          y = arith::MulFOp::create(nb, l, y, args[1]);
                          if (scale)
                            y = arith::MulFOp::create(nb, l, y, args[next++]);
                          if (bias)
                            y = arith::AddFOp::create(nb, l, y, args[next++]);
                          return y;
                        });
  return createReshape(b, loc, result, type);
}

struct LayerNormToLinalg : OpConversionPattern<LayerNormOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LayerNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, buildNormalization(
                rewriter, op.getLoc(), cast<RankedTensorType>(op.getType()),
                adaptor.getX(), adaptor.getScale(), adaptor.getBias(),
                op.getAxis(), op.getEpsilon().convertToFloat(), false));
    return success();
  }
};

struct RMSNormToLinalg : OpConversionPattern<RMSNormOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RMSNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, buildNormalization(
                rewriter, op.getLoc(), cast<RankedTensorType>(op.getType()),
                adaptor.getX(), adaptor.getScale(), Value(), op.getAxis(),
                op.getEpsilon().convertToFloat(), true));
    return success();
  }
};

} // namespace

void mlir::graph::populateNormalizationToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LayerNormToLinalg, RMSNormToLinalg>(patterns.getContext());
}
