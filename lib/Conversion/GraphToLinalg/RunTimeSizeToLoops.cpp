//===- RunTimeSizeToLoops.cpp - Ops whose result size the data decides ----===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph.nonzero: a loop nest over `x` in row-major order that carries the
// count found so far and writes each nonzero element's index into the
// column of that count; the result starts as zeros, which the columns past
// the final count keep.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

#include <functional>

using namespace mlir;
using namespace mlir::graph;

namespace {

/// Whether the compute scalar `v` is nonzero (NaN is).
static Value isNonZero(OpBuilder &b, Location loc, Value v) {
  Type type = v.getType();
  if (type.isInteger(1))
    return v;
  Value zero = createScalarConstant(b, loc, type, 0);
  if (isa<FloatType>(type))
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v, zero);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, zero);
}

struct NonZeroToLoops : OpConversionPattern<NonZeroOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(NonZeroOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto xType = cast<RankedTensorType>(op.getX().getType());
    ArrayRef<int64_t> shape = xType.getShape();
    Type graphType = xType.getElementType();
    auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
    Value x = adaptor.getX();

    Value zeroI64 =
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI64Type(), 0);
    Value indices =
        linalg::FillOp::create(rewriter, loc, zeroI64,
                               createEmptyTensor(rewriter, loc, indicesType))
            .getResult(0);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<Value> ivs(shape.size(), zero);

    // The element at `ivs`: its index into column `count` when nonzero.
    auto visit = [&](OpBuilder &b, Location l, Value result,
                     Value count) -> std::pair<Value, Value> {
      Value v =
          loadScalar(b, l, tensor::ExtractOp::create(b, l, x, ivs), graphType);
      auto branch = scf::IfOp::create(
          b, l, isNonZero(b, l, v),
          [&](OpBuilder &b, Location l) {
            Value written = result;
            for (auto [d, iv] : llvm::enumerate(ivs)) {
              Value row = arith::ConstantIndexOp::create(b, l, d);
              Value index =
                  arith::IndexCastOp::create(b, l, b.getI64Type(), iv);
              written = tensor::InsertOp::create(b, l, index, written,
                                                 ValueRange{row, count});
            }
            Value next = arith::AddIOp::create(b, l, count, one);
            scf::YieldOp::create(b, l, ValueRange{written, next});
          },
          [&](OpBuilder &b, Location l) {
            scf::YieldOp::create(b, l, ValueRange{result, count});
          });
      return {branch.getResult(0), branch.getResult(1)};
    };
    // One loop per dimension, outermost first.
    std::function<std::pair<Value, Value>(OpBuilder &, Location, size_t, Value,
                                          Value)>
        nest = [&](OpBuilder &b, Location l, size_t d, Value result,
                   Value count) -> std::pair<Value, Value> {
      if (d == shape.size())
        return visit(b, l, result, count);
      Value upper = arith::ConstantIndexOp::create(b, l, shape[d]);
      auto loop = scf::ForOp::create(
          b, l, zero, upper, one, ValueRange{result, count},
          [&](OpBuilder &nested, Location nl, Value iv, ValueRange args) {
            ivs[d] = iv;
            auto [nextResult, nextCount] =
                nest(nested, nl, d + 1, args[0], args[1]);
            ivs[d] = zero;
            scf::YieldOp::create(nested, nl, ValueRange{nextResult, nextCount});
          });
      return {loop.getResult(0), loop.getResult(1)};
    };
    auto [result, count] = nest(rewriter, loc, 0, indices, zero);
    Value countI64 =
        arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), count);
    Value countTensor = tensor::FromElementsOp::create(
        rewriter, loc, cast<RankedTensorType>(op.getCount().getType()),
        ValueRange{countI64});
    rewriter.replaceOp(op, ValueRange{result, countTensor});
    return success();
  }
};

} // namespace

void mlir::graph::populateRunTimeSizeToLoopsPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<NonZeroToLoops>(converter, patterns.getContext());
}
