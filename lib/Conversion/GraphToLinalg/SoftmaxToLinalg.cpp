//===- SoftmaxToLinalg.cpp - graph.softmax to linalg.generic ----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The stable softmax of the fold hook, as four linalg.generic ops: a max
// reduction along the axis, exp(x - max), a sum reduction and a division.
// Written out rather than through linalg.softmax, whose decomposition picks
// its own max semantics; here NaN propagates through arith.maximumf as in
// the fold.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"

#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

#include <limits>

using namespace mlir;
using namespace mlir::graph;

namespace {

struct SoftmaxToLinalg : OpConversionPattern<SoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SoftmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    auto type = cast<RankedTensorType>(op.getType());
    int64_t rank = type.getRank();
    int64_t axis = op.getAxis();
    if (axis < 0)
      axis += rank;

    // The reduced tensor drops the axis; it is read back through `reduced`.
    SmallVector<int64_t> reducedShape;
    SmallVector<AffineExpr> reducedExprs;
    for (int64_t d = 0; d < rank; ++d) {
      if (d == axis)
        continue;
      reducedShape.push_back(type.getDimSize(d));
      reducedExprs.push_back(getAffineDimExpr(d, context));
    }
    auto reducedType =
        RankedTensorType::get(reducedShape, type.getElementType());
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
    AffineMap reduced = AffineMap::get(rank, 0, reducedExprs, context);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators[axis] = utils::IteratorType::reduction;

    auto reduce = [&](Value input, float initValue, auto combine) {
      Value init = createFilledTensor(rewriter, loc, reducedType, initValue);
      return linalg::GenericOp::create(
                 rewriter, loc, TypeRange{reducedType}, ValueRange{input},
                 ValueRange{init}, {identity, reduced}, iterators,
                 [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
                   Value acc = combine(b, bodyLoc, args[1], args[0]);
                   linalg::YieldOp::create(b, bodyLoc, acc);
                 })
          .getResult(0);
    };

    Value x = adaptor.getX();
    Value max =
        reduce(x, -std::numeric_limits<float>::infinity(),
               [](OpBuilder &b, Location l, Value acc, Value v) {
                 return arith::MaximumFOp::create(b, l, acc, v).getResult();
               });
    Value exp = createElementwise(
        rewriter, loc, type, ValueRange{x, max}, {identity, reduced},
        [](OpBuilder &b, Location l, ValueRange args) {
          Value shifted = arith::SubFOp::create(b, l, args[0], args[1]);
          return math::ExpOp::create(b, l, shifted).getResult();
        });
    Value sum =
        reduce(exp, 0.0f, [](OpBuilder &b, Location l, Value acc, Value v) {
          return arith::AddFOp::create(b, l, acc, v).getResult();
        });
    Value result = createElementwise(
        rewriter, loc, type, ValueRange{exp, sum}, {identity, reduced},
        [](OpBuilder &b, Location l, ValueRange args) {
          return arith::DivFOp::create(b, l, args[0], args[1]).getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::graph::populateSoftmaxToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<SoftmaxToLinalg>(patterns.getContext());
}
