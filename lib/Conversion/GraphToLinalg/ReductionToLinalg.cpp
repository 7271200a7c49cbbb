//===- ReductionToLinalg.cpp - Reductions and scans -------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// reduce_* become a linalg.generic with reduction iterators into a filled
// accumulator (reduce_mean divides after); argmax/argmin carry the value and
// the index as two accumulators; cumsum is an scf.for along the axis
// carrying the running sum; log_softmax is softmax's max, exp and sum
// reductions followed by the logarithm. The elements combine in row-major
// order, as in the fold hooks.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"

#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

#include <limits>

using namespace mlir;
using namespace mlir::graph;

namespace {
enum class ReduceKind { Sum, Mean, Max, Min, Prod };
} // namespace

/// The initial accumulator, a compute-type constant.
static Value reduceInit(OpBuilder &b, Location loc, ReduceKind kind,
                        Type computeType, bool isUnsigned) {
  if (kind == ReduceKind::Sum || kind == ReduceKind::Mean)
    return createScalarConstant(b, loc, computeType, 0);
  if (kind == ReduceKind::Prod)
    return createScalarConstant(b, loc, computeType, 1);
  bool isMax = kind == ReduceKind::Max;
  if (auto floatType = dyn_cast<FloatType>(computeType))
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(floatType,
                       isMax ? -std::numeric_limits<double>::infinity()
                             : std::numeric_limits<double>::infinity()));
  unsigned width = computeType.getIntOrFloatBitWidth();
  APInt value = isMax ? (isUnsigned ? APInt::getMinValue(width)
                                    : APInt::getSignedMinValue(width))
                      : (isUnsigned ? APInt::getMaxValue(width)
                                    : APInt::getSignedMaxValue(width));
  return arith::ConstantOp::create(b, loc,
                                   b.getIntegerAttr(computeType, value));
}

static Value reduceCombine(OpBuilder &b, Location loc, ReduceKind kind,
                           Value acc, Value v, bool isUnsigned) {
  bool isFloat = isa<FloatType>(acc.getType());
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    return isFloat ? Value(arith::AddFOp::create(b, loc, acc, v))
                   : Value(arith::AddIOp::create(b, loc, acc, v));
  case ReduceKind::Prod:
    return isFloat ? Value(arith::MulFOp::create(b, loc, acc, v))
                   : Value(arith::MulIOp::create(b, loc, acc, v));
  case ReduceKind::Max:
    return isFloat      ? Value(arith::MaximumFOp::create(b, loc, acc, v))
           : isUnsigned ? Value(arith::MaxUIOp::create(b, loc, acc, v))
                        : Value(arith::MaxSIOp::create(b, loc, acc, v));
  case ReduceKind::Min:
    return isFloat      ? Value(arith::MinimumFOp::create(b, loc, acc, v))
           : isUnsigned ? Value(arith::MinUIOp::create(b, loc, acc, v))
                        : Value(arith::MinSIOp::create(b, loc, acc, v));
  }
  return acc;
}

/// The maps and iterators of a reduction of a rank-`rank` tensor over
/// `reduced` dimensions into a tensor that keeps the others.
static void reductionMaps(MLIRContext *context, ArrayRef<bool> reduced,
                          AffineMap &inMap, AffineMap &outMap,
                          SmallVectorImpl<utils::IteratorType> &iterators) {
  int64_t rank = reduced.size();
  SmallVector<AffineExpr> outExprs;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced[d])
      outExprs.push_back(getAffineDimExpr(d, context));
    iterators.push_back(reduced[d] ? utils::IteratorType::reduction
                                   : utils::IteratorType::parallel);
  }
  inMap = AffineMap::getMultiDimIdentityMap(rank, context);
  outMap = AffineMap::get(rank, 0, outExprs, context);
}

namespace {

template <typename OpTy> struct ReduceToLinalg : OpConversionPattern<OpTy> {
  ReduceToLinalg(const TypeConverter &converter, MLIRContext *context,
                 ReduceKind kind)
      : OpConversionPattern<OpTy>(converter, context), kind(kind) {}
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    auto inType = cast<RankedTensorType>(op.getX().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    Type graphType = inType.getElementType();
    Type computeType = getComputeElementType(graphType);
    bool isUnsigned = isUnsignedGraphType(graphType);
    int64_t rank = inType.getRank();
    SmallVector<bool> reduced(rank, false);
    for (int64_t axis : op.getAxes())
      reduced[axis < 0 ? axis + rank : axis] = true;
    SmallVector<int64_t> keptShape;
    int64_t count = 1;
    for (int64_t d = 0; d < rank; ++d) {
      if (!reduced[d])
        keptShape.push_back(inType.getDimSize(d));
      else
        count *= inType.getDimSize(d);
    }
    auto accType =
        getStorageTensorType(RankedTensorType::get(keptShape, graphType));
    Value init = createFilledTensorWith(
        rewriter, loc, accType,
        storeScalar(rewriter, loc,
                    reduceInit(rewriter, loc, kind, computeType, isUnsigned),
                    graphType));
    AffineMap inMap, outMap;
    SmallVector<utils::IteratorType> iterators;
    reductionMaps(context, reduced, inMap, outMap, iterators);
    Value acc =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{accType}, ValueRange{adaptor.getX()},
            ValueRange{init}, {inMap, outMap}, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value v = loadScalar(b, l, args[0], graphType);
              Value a = loadScalar(b, l, args[1], graphType);
              Value next = reduceCombine(b, l, kind, a, v, isUnsigned);
              linalg::YieldOp::create(b, l, storeScalar(b, l, next, graphType));
            })
            .getResult(0);
    if (kind == ReduceKind::Mean) {
      double divisor = double(count);
      acc = createTypedElementwise(
          rewriter, loc, RankedTensorType::get(keptShape, graphType),
          ValueRange{acc}, {graphType}, {},
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value d = createScalarConstant(b, l, computeType, divisor);
            return arith::DivFOp::create(b, l, args[0], d).getResult();
          });
    }
    rewriter.replaceOp(op, createReshape(rewriter, loc, acc,
                                         getStorageTensorType(resultType)));
    return success();
  }

  ReduceKind kind;
};

//===----------------------------------------------------------------------===//
// graph.argmax, graph.argmin
//===----------------------------------------------------------------------===//

template <typename OpTy> struct ArgReduceToLinalg : OpConversionPattern<OpTy> {
  ArgReduceToLinalg(const TypeConverter &converter, MLIRContext *context,
                    bool isMax)
      : OpConversionPattern<OpTy>(converter, context), isMax(isMax) {}
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    auto inType = cast<RankedTensorType>(op.getX().getType());
    Type graphType = inType.getElementType();
    Type computeType = getComputeElementType(graphType);
    bool isUnsigned = isUnsignedGraphType(graphType);
    int64_t rank = inType.getRank();
    int64_t axis = op.getAxis();
    if (axis < 0)
      axis += rank;
    SmallVector<bool> reduced(rank, false);
    reduced[axis] = true;
    SmallVector<int64_t> keptShape;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        keptShape.push_back(inType.getDimSize(d));
    auto valueType = RankedTensorType::get(keptShape, computeType);
    auto indexType = RankedTensorType::get(keptShape, rewriter.getI64Type());
    Value valueInit = createFilledTensorWith(
        rewriter, loc, valueType,
        reduceInit(rewriter, loc, isMax ? ReduceKind::Max : ReduceKind::Min,
                   computeType, isUnsigned));
    Value indexInit = createFilledTensorWith(
        rewriter, loc, indexType,
        createIntConstant(rewriter, loc, rewriter.getI64Type(), 0));
    AffineMap inMap, outMap;
    SmallVector<utils::IteratorType> iterators;
    reductionMaps(context, reduced, inMap, outMap, iterators);
    bool last = op.getSelectLastIndex();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{valueType, indexType},
        ValueRange{adaptor.getX()}, ValueRange{valueInit, indexInit},
        {inMap, outMap, outMap}, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = loadScalar(b, l, args[0], graphType);
          Value best = args[1];
          Value better;
          if (isa<FloatType>(v.getType())) {
            arith::CmpFPredicate predicate =
                isMax ? (last ? arith::CmpFPredicate::OGE
                              : arith::CmpFPredicate::OGT)
                      : (last ? arith::CmpFPredicate::OLE
                              : arith::CmpFPredicate::OLT);
            better = arith::CmpFOp::create(b, l, predicate, v, best);
            // A NaN is the extreme: the first one, or with select_last_index
            // the last one.
            Value vIsNan =
                arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, v, v);
            Value takes = vIsNan;
            if (!last) {
              Value bestIsNumber = arith::CmpFOp::create(
                  b, l, arith::CmpFPredicate::ORD, best, best);
              takes = arith::AndIOp::create(b, l, vIsNan, bestIsNumber);
            }
            better = arith::OrIOp::create(b, l, better, takes);
          } else {
            arith::CmpIPredicate predicate =
                isMax ? (last ? (isUnsigned ? arith::CmpIPredicate::uge
                                            : arith::CmpIPredicate::sge)
                              : (isUnsigned ? arith::CmpIPredicate::ugt
                                            : arith::CmpIPredicate::sgt))
                      : (last ? (isUnsigned ? arith::CmpIPredicate::ule
                                            : arith::CmpIPredicate::sle)
                              : (isUnsigned ? arith::CmpIPredicate::ult
                                            : arith::CmpIPredicate::slt));
            better = arith::CmpIOp::create(b, l, predicate, v, best);
          }
          Value index = arith::IndexCastOp::create(
              b, l, b.getI64Type(), linalg::IndexOp::create(b, l, axis));
          Value nextValue = arith::SelectOp::create(b, l, better, v, best);
          Value nextIndex =
              arith::SelectOp::create(b, l, better, index, args[2]);
          linalg::YieldOp::create(b, l, ValueRange{nextValue, nextIndex});
        });
    auto resultType = cast<RankedTensorType>(op.getType());
    rewriter.replaceOp(
        op, createReshape(rewriter, loc, generic.getResult(1), resultType));
    return success();
  }

  bool isMax;
};

//===----------------------------------------------------------------------===//
// graph.cumsum
//===----------------------------------------------------------------------===//

struct CumSumToLoops : OpConversionPattern<CumSumOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CumSumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    auto type = cast<RankedTensorType>(op.getType());
    Type graphType = type.getElementType();
    auto storageType = getStorageTensorType(type);
    int64_t rank = type.getRank();
    int64_t axis = op.getAxis();
    if (axis < 0)
      axis += rank;
    int64_t size = type.getDimSize(axis);
    bool exclusive = op.getExclusive(), reverse = op.getReverse();

    // One slice along the axis: its shape with the axis kept as 1.
    SmallVector<int64_t> sliceShape(type.getShape());
    sliceShape[axis] = 1;
    auto sliceType =
        RankedTensorType::get(sliceShape, storageType.getElementType());
    Value zero =
        createScalarConstant(rewriter, loc, storageType.getElementType(), 0);
    Value sum = createFilledTensorWith(rewriter, loc, sliceType, zero);
    Value result = createEmptyTensor(rewriter, loc, storageType);
    Value x = adaptor.getX();
    auto sliceAt = [&](OpBuilder &b, Location l, Value position) {
      SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
      offsets[axis] = position;
      SmallVector<OpFoldResult> sizes =
          getAsIndexOpFoldResult(context, sliceShape);
      SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
      return std::make_tuple(offsets, sizes, strides);
    };
    Value lower = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value upper = arith::ConstantIndexOp::create(rewriter, loc, size);
    Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto loop = scf::ForOp::create(
        rewriter, loc, lower, upper, step, ValueRange{result, sum},
        [&](OpBuilder &b, Location l, Value iv, ValueRange args) {
          Value position = iv;
          if (reverse)
            position = arith::SubIOp::create(
                b, l, arith::ConstantIndexOp::create(b, l, size - 1), iv);
          auto [offsets, sizes, strides] = sliceAt(b, l, position);
          Value slice = tensor::ExtractSliceOp::create(b, l, sliceType, x,
                                                       offsets, sizes, strides);
          // The running sum is updated in place (its own buffer, as
          // bufferization wants of a loop-carried value); the exclusive form
          // writes it out before adding.
          Value written = args[0];
          if (exclusive)
            written = tensor::InsertSliceOp::create(b, l, args[1], written,
                                                    offsets, sizes, strides);
          int64_t sliceRank = sliceShape.size();
          AffineMap identity =
              AffineMap::getMultiDimIdentityMap(sliceRank, context);
          SmallVector<utils::IteratorType> parallel(
              sliceRank, utils::IteratorType::parallel);
          Value next =
              linalg::GenericOp::create(
                  b, l, TypeRange{sliceType}, ValueRange{slice},
                  ValueRange{args[1]}, {identity, identity}, parallel,
                  [&](OpBuilder &nb, Location nl, ValueRange values) {
                    Value v = loadScalar(nb, nl, values[0], graphType);
                    Value acc = loadScalar(nb, nl, values[1], graphType);
                    Value sum =
                        isa<FloatType>(v.getType())
                            ? Value(arith::AddFOp::create(nb, nl, acc, v))
                            : Value(arith::AddIOp::create(nb, nl, acc, v));
                    linalg::YieldOp::create(
                        nb, nl, storeScalar(nb, nl, sum, graphType));
                  })
                  .getResult(0);
          if (!exclusive)
            written = tensor::InsertSliceOp::create(b, l, next, written,
                                                    offsets, sizes, strides);
          scf::YieldOp::create(b, l, ValueRange{written, next});
        });
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// graph.log_softmax
//===----------------------------------------------------------------------===//

struct LogSoftmaxToLinalg : OpConversionPattern<LogSoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LogSoftmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    auto type = cast<RankedTensorType>(op.getType());
    Type graphType = type.getElementType();
    Type computeType = getComputeElementType(graphType);
    int64_t rank = type.getRank();
    int64_t axis = op.getAxis();
    if (axis < 0)
      axis += rank;
    SmallVector<bool> reduced(rank, false);
    reduced[axis] = true;
    SmallVector<int64_t> keptShape;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        keptShape.push_back(type.getDimSize(d));
    auto keptGraphType = RankedTensorType::get(keptShape, graphType);
    auto keptType = getStorageTensorType(keptGraphType);
    AffineMap inMap, outMap;
    SmallVector<utils::IteratorType> iterators;
    reductionMaps(context, reduced, inMap, outMap, iterators);

    auto reduce = [&](Value input, Value initValue, bool isMax) {
      Value init = createFilledTensorWith(
          rewriter, loc, keptType,
          storeScalar(rewriter, loc, initValue, graphType));
      return linalg::GenericOp::create(
                 rewriter, loc, TypeRange{keptType}, ValueRange{input},
                 ValueRange{init}, {inMap, outMap}, iterators,
                 [&](OpBuilder &b, Location l, ValueRange args) {
                   Value v = loadScalar(b, l, args[0], graphType);
                   Value a = loadScalar(b, l, args[1], graphType);
                   Value next =
                       isMax ? Value(arith::MaximumFOp::create(b, l, a, v))
                             : Value(arith::AddFOp::create(b, l, a, v));
                   linalg::YieldOp::create(b, l,
                                           storeScalar(b, l, next, graphType));
                 })
          .getResult(0);
    };

    Value x = adaptor.getX();
    Value max = reduce(
        x, reduceInit(rewriter, loc, ReduceKind::Max, computeType, false),
        /*isMax=*/true);
    Value shifted = createTypedElementwise(
        rewriter, loc, type, ValueRange{x, max}, {graphType, graphType},
        {inMap, outMap}, [](OpBuilder &b, Location l, ValueRange args) {
          return arith::SubFOp::create(b, l, args[0], args[1]).getResult();
        });
    Value exp = createTypedElementwise(
        rewriter, loc, type, ValueRange{shifted}, {graphType}, {},
        [](OpBuilder &b, Location l, ValueRange args) {
          return math::ExpOp::create(b, l, args[0]).getResult();
        });
    Value sum =
        reduce(exp, createScalarConstant(rewriter, loc, computeType, 0), false);
    Value logSum = createTypedElementwise(
        rewriter, loc, keptGraphType, ValueRange{sum}, {graphType}, {},
        [](OpBuilder &b, Location l, ValueRange args) {
          return math::LogOp::create(b, l, args[0]).getResult();
        });
    Value result = createTypedElementwise(
        rewriter, loc, type, ValueRange{shifted, logSum},
        {graphType, graphType}, {inMap, outMap},
        [](OpBuilder &b, Location l, ValueRange args) {
          return arith::SubFOp::create(b, l, args[0], args[1]).getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// graph.top_k
//===----------------------------------------------------------------------===//

namespace {

/// The pass over each row of `x` along `axis` (its first `length`
/// elements) that keeps the first `count` in top_k's order in `values` and
/// `indices` (`shape`: the results' shape).
static std::pair<Value, Value>
buildTopKLoops(OpBuilder &rewriter, Location loc, Value x, Type graphType,
               ArrayRef<int64_t> shape, int64_t axis, bool smallest,
               Value length, Value count, Value values, Value indices) {
  bool isUnsigned = isUnsignedGraphType(graphType);

  auto cmp = [&](OpBuilder &b, Location l, bool greater, Value p, Value q) {
    if (isa<FloatType>(p.getType()))
      return Value(arith::CmpFOp::create(
          b, l, greater ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
          p, q));
    arith::CmpIPredicate predicate =
        greater ? (isUnsigned ? arith::CmpIPredicate::ugt
                              : arith::CmpIPredicate::sgt)
                : (isUnsigned ? arith::CmpIPredicate::ult
                              : arith::CmpIPredicate::slt);
    return Value(arith::CmpIOp::create(b, l, predicate, p, q));
  };
  auto isNaN = [](OpBuilder &b, Location l, Value v) {
    return Value(arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, v, v));
  };
  // p ranks before q: NaN above every number.
  auto ranksBefore = [&](OpBuilder &b, Location l, Value p, Value q) {
    Value ordered = cmp(b, l, !smallest, p, q);
    if (!isa<FloatType>(p.getType()))
      return ordered;
    Value pNaN = isNaN(b, l, p), qNaN = isNaN(b, l, q);
    Value notNaN = arith::XOrIOp::create(
        b, l, smallest ? pNaN : qNaN,
        arith::ConstantIntOp::create(b, l, b.getI1Type(), 1));
    Value nanFirst =
        arith::AndIOp::create(b, l, smallest ? qNaN : pNaN, notNaN);
    return Value(arith::OrIOp::create(b, l, ordered, nanFirst));
  };

  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  SmallVector<Value> ivs(shape.size(), zero);

  // The row at `ivs` (its axis index aside) in one pass: each element that
  // ranks before the last of the `count` kept so far (any while fewer are
  // kept) is inserted into the kept ones, which shift towards the end; an
  // element ranks after the kept ones equal to it (their index is lower).
  // O(n + shifts) per row: about n for rows in random order, n x count
  // for rows already in the reverse order.
  auto selectRow = [&](OpBuilder &b, Location l, Value vs, Value is) {
    auto at = [&](Value position) {
      SmallVector<Value> indices(ivs);
      indices[axis] = position;
      return indices;
    };
    auto kept = [&](OpBuilder &b, Location l, Value from, Value position) {
      return loadScalar(
          b, l, tensor::ExtractOp::create(b, l, from, at(position)), graphType);
    };
    auto cmpIndex = [](OpBuilder &b, Location l, arith::CmpIPredicate p,
                       Value x, Value y) {
      return arith::CmpIOp::create(b, l, p, x, y).getResult();
    };
    Value positive = cmpIndex(b, l, arith::CmpIPredicate::sgt, count, zero);
    Value last = arith::SubIOp::create(b, l, count, one);
    // No element is read when nothing is kept.
    Value upper = arith::SelectOp::create(b, l, positive, length, zero);
    auto scan = scf::ForOp::create(
        b, l, zero, upper, one, ValueRange{vs, is, zero},
        [&](OpBuilder &b, Location l, Value i, ValueRange state) {
          Value v = loadScalar(b, l, tensor::ExtractOp::create(b, l, x, at(i)),
                               graphType);
          Value full =
              cmpIndex(b, l, arith::CmpIPredicate::eq, state[2], count);
          auto enters = scf::IfOp::create(
              b, l, full,
              [&](OpBuilder &b, Location l) {
                scf::YieldOp::create(
                    b, l, ranksBefore(b, l, v, kept(b, l, state[0], last)));
              },
              [&](OpBuilder &b, Location l) {
                scf::YieldOp::create(b, l,
                                     ValueRange{arith::ConstantIntOp::create(
                                         b, l, b.getI1Type(), 1)});
              });
          auto insert = scf::IfOp::create(
              b, l, enters.getResult(0),
              [&](OpBuilder &b, Location l) {
                Value start =
                    arith::SelectOp::create(b, l, full, last, state[2]);
                // Shift the kept ones that v ranks before one place on.
                auto shift = scf::WhileOp::create(
                    b, l,
                    TypeRange{start.getType(), vs.getType(), is.getType()},
                    ValueRange{start, state[0], state[1]},
                    [&](OpBuilder &b, Location l, ValueRange w) {
                      Value p = w[0];
                      Value inside =
                          cmpIndex(b, l, arith::CmpIPredicate::sgt, p, zero);
                      Value before = arith::SelectOp::create(
                          b, l, inside, arith::SubIOp::create(b, l, p, one),
                          zero);
                      Value moves = arith::AndIOp::create(
                          b, l, inside,
                          ranksBefore(b, l, v, kept(b, l, w[1], before)));
                      scf::ConditionOp::create(b, l, moves, w);
                    },
                    [&](OpBuilder &b, Location l, ValueRange w) {
                      Value p = w[0];
                      Value before = arith::SubIOp::create(b, l, p, one);
                      Value movedValue = tensor::InsertOp::create(
                          b, l,
                          tensor::ExtractOp::create(b, l, w[1], at(before)),
                          w[1], at(p));
                      Value movedIndex = tensor::InsertOp::create(
                          b, l,
                          tensor::ExtractOp::create(b, l, w[2], at(before)),
                          w[2], at(p));
                      scf::YieldOp::create(
                          b, l, ValueRange{before, movedValue, movedIndex});
                    });
                Value p = shift.getResult(0);
                Value vs2 = tensor::InsertOp::create(
                    b, l, storeScalar(b, l, v, graphType), shift.getResult(1),
                    at(p));
                Value is2 = tensor::InsertOp::create(
                    b, l, arith::IndexCastOp::create(b, l, b.getI64Type(), i),
                    shift.getResult(2), at(p));
                Value filled = arith::SelectOp::create(
                    b, l, full, state[2],
                    arith::AddIOp::create(b, l, state[2], one));
                scf::YieldOp::create(b, l, ValueRange{vs2, is2, filled});
              },
              [&](OpBuilder &b, Location l) {
                scf::YieldOp::create(b, l, state);
              });
          scf::YieldOp::create(b, l, insert.getResults());
        });
    return std::make_pair(scan.getResult(0), scan.getResult(1));
  };

  // One loop per dimension but the axis, outermost first.
  std::function<std::pair<Value, Value>(OpBuilder &, Location, size_t, Value,
                                        Value)>
      nest = [&](OpBuilder &b, Location l, size_t d, Value vs,
                 Value is) -> std::pair<Value, Value> {
    if (d == shape.size())
      return selectRow(b, l, vs, is);
    if (int64_t(d) == axis)
      return nest(b, l, d + 1, vs, is);
    Value upper = arith::ConstantIndexOp::create(b, l, shape[d]);
    auto loop = scf::ForOp::create(
        b, l, zero, upper, one, ValueRange{vs, is},
        [&](OpBuilder &nested, Location nl, Value iv, ValueRange args) {
          ivs[d] = iv;
          auto [nextValues, nextIndices] =
              nest(nested, nl, d + 1, args[0], args[1]);
          ivs[d] = zero;
          scf::YieldOp::create(nested, nl, ValueRange{nextValues, nextIndices});
        });
    return {loop.getResult(0), loop.getResult(1)};
  };
  return nest(rewriter, loc, 0, values, indices);
}

/// Selection of the k first elements of each row in top_k's order: one
/// pass over the row inserting each element that ranks before the last of
/// the k kept so far into them (insertion into a sorted list of k; equal
/// values keep index order). O(n + shifts) per row, no scratch buffer; the
/// order is TopKOp::fold's.
struct TopKToLoops : OpConversionPattern<TopKOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TopKOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto valuesType = cast<RankedTensorType>(op.getValues().getType());
    ArrayRef<int64_t> shape = valuesType.getShape();
    // An I64Attr reads as unsigned: the default axis -1 as 2^64 - 1.
    int64_t axis = op.getAxis();
    if (axis < 0)
      axis += int64_t(shape.size());
    int64_t size = cast<RankedTensorType>(op.getX().getType()).getDimSize(axis);
    Value values =
        createEmptyTensor(rewriter, loc, getStorageTensorType(valuesType));
    Value indices = createEmptyTensor(
        rewriter, loc, cast<RankedTensorType>(op.getIndices().getType()));
    auto [resultValues, resultIndices] = buildTopKLoops(
        rewriter, loc, adaptor.getX(), valuesType.getElementType(), shape, axis,
        op.getSmallest(), arith::ConstantIndexOp::create(rewriter, loc, size),
        arith::ConstantIndexOp::create(rewriter, loc, op.getK()), values,
        indices);
    rewriter.replaceOp(op, ValueRange{resultValues, resultIndices});
    return success();
  }
};

/// top_k's pass over the row's first `valid` elements, keeping `count`;
/// the results start as zeros, which the positions past `count` keep.
struct TopKPrefixToLoops : OpConversionPattern<TopKPrefixOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TopKPrefixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto valuesType = cast<RankedTensorType>(op.getValues().getType());
    auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
    ArrayRef<int64_t> shape = valuesType.getShape();
    int64_t axis = op.getAxis();
    if (axis < 0)
      axis += int64_t(shape.size());
    auto readIndex = [&](Value scalar, Value lo, Value hi) {
      Value v = arith::IndexCastOp::create(
          rewriter, loc, rewriter.getIndexType(),
          tensor::ExtractOp::create(rewriter, loc, scalar));
      v = arith::MaxSIOp::create(rewriter, loc, v, lo);
      return arith::MinSIOp::create(rewriter, loc, v, hi).getResult();
    };
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value length =
        readIndex(adaptor.getValid(), zero,
                  arith::ConstantIndexOp::create(rewriter, loc, shape[axis]));
    Value count = readIndex(adaptor.getK(), zero, length);
    RankedTensorType storageType = getStorageTensorType(valuesType);
    Value zeroValue =
        createScalarConstant(rewriter, loc, storageType.getElementType(), 0);
    Value zeroIndex =
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI64Type(), 0);
    Value values =
        createFilledTensorWith(rewriter, loc, storageType, zeroValue);
    Value indices =
        createFilledTensorWith(rewriter, loc, indicesType, zeroIndex);
    auto [resultValues, resultIndices] = buildTopKLoops(
        rewriter, loc, adaptor.getX(), valuesType.getElementType(), shape, axis,
        op.getSmallest(), length, count, values, indices);
    replaceWithExtent(rewriter, op, {resultValues, resultIndices}, count);
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// graph.det
//===----------------------------------------------------------------------===//

namespace {
/// graph.det as loops over the matrices: each copied into an f64 working
/// tensor and factorized in place (LU with partial pivoting, the
/// reference's `determinant` in ReductionOps.cpp step for step); a zero
/// pivot makes the determinant 0 and skips the rest.
struct DetToLoops : OpConversionPattern<DetOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DetOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    auto outType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getOutput().getType()));
    Type element = xType.getElementType();
    Type f64 = rewriter.getF64Type();
    int64_t n = xType.getShape().back();
    ArrayRef<int64_t> batchShape = outType.getShape();
    int64_t batch = outType.getNumElements();

    auto index = [&](OpBuilder &b, int64_t v) {
      return Value(arith::ConstantIndexOp::create(b, loc, v));
    };
    auto f64Constant = [&](OpBuilder &b, double v) {
      return Value(arith::ConstantFloatOp::create(b, loc, cast<FloatType>(f64),
                                                  APFloat(v)));
    };
    Value zero = index(rewriter, 0), one = index(rewriter, 1);
    Value size = index(rewriter, n);
    auto cmpIndex = [&](OpBuilder &b, arith::CmpIPredicate p, Value l,
                        Value r) {
      return Value(arith::CmpIOp::create(b, loc, p, l, r));
    };
    auto at = [&](OpBuilder &b, Value matrix, Value i, Value j) {
      return Value(tensor::ExtractOp::create(b, loc, matrix, ValueRange{i, j}));
    };
    auto put = [&](OpBuilder &b, Value v, Value matrix, Value i, Value j) {
      return Value(
          tensor::InsertOp::create(b, loc, v, matrix, ValueRange{i, j}));
    };
    // for (i = from; i < to; ++i) with `state`, the body's results next.
    auto loop =
        [&](OpBuilder &b, Value from, Value to, ValueRange state,
            function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)>
                body) {
          return buildCountedLoop(b, loc, from, to, state, body);
        };
    // if (cond) then else, both giving values of `types`.
    auto branch = [&](OpBuilder &b, Value cond, TypeRange types,
                      function_ref<SmallVector<Value>(OpBuilder &)> thenBody,
                      function_ref<SmallVector<Value>(OpBuilder &)> elseBody) {
      return scf::IfOp::create(
                 b, loc, cond,
                 [&](OpBuilder &b, Location) {
                   scf::YieldOp::create(b, loc, thenBody(b));
                 },
                 [&](OpBuilder &b, Location) {
                   scf::YieldOp::create(b, loc, elseBody(b));
                 })
          .getResults();
    };

    Value out = tensor::EmptyOp::create(rewriter, loc, batchShape,
                                        outType.getElementType());
    Value work =
        tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{n, n}, f64);
    Value result = loop(
        rewriter, zero, index(rewriter, batch), ValueRange{out, work},
        [&](OpBuilder &b, Value flat, ValueRange s) -> SmallVector<Value> {
          // The batch position of matrix `flat`, row-major.
          SmallVector<Value> position(batchShape.size());
          Value rest = flat;
          for (int64_t d = batchShape.size() - 1; d >= 0; --d) {
            Value extent = index(b, batchShape[d]);
            position[d] = arith::RemUIOp::create(b, loc, rest, extent);
            rest = arith::DivUIOp::create(b, loc, rest, extent);
          }
          auto read = [&](OpBuilder &b, Value i, Value j) {
            SmallVector<Value> indices(position);
            indices.append({i, j});
            Value v = tensor::ExtractOp::create(b, loc, x, indices);
            return element == f64
                       ? v
                       : Value(arith::ExtFOp::create(b, loc, f64, v));
          };
          Value matrix = loop(
              b, zero, size, s[1], [&](OpBuilder &b, Value i, ValueRange r) {
                return SmallVector<Value>(
                    loop(b, zero, size, r[0],
                         [&](OpBuilder &b, Value j, ValueRange c) {
                           return SmallVector<Value>{
                               put(b, read(b, i, j), c[0], i, j)};
                         }));
              })[0];

          // Column by column: (matrix, determinant so far, singular).
          Type i1 = b.getI1Type();
          Value notYet = arith::ConstantIntOp::create(b, loc, i1, 0);
          ValueRange factored = loop(
              b, zero, size, ValueRange{matrix, f64Constant(b, 1), notYet},
              [&](OpBuilder &b, Value k, ValueRange st) -> SmallVector<Value> {
                TypeRange types = ValueRange(st).getTypes();
                return SmallVector<Value>(branch(
                    b, st[2], types,
                    [&](OpBuilder &) { return SmallVector<Value>(st); },
                    [&](OpBuilder &b) -> SmallVector<Value> {
                      Value a = st[0], det = st[1];
                      // The first row of the largest magnitude from k on.
                      Value kPlus1 = arith::AddIOp::create(b, loc, k, one);
                      Value start =
                          math::AbsFOp::create(b, loc, at(b, a, k, k));
                      ValueRange found = loop(
                          b, kPlus1, size, ValueRange{start, k},
                          [&](OpBuilder &b, Value i, ValueRange best) {
                            Value v =
                                math::AbsFOp::create(b, loc, at(b, a, i, k));
                            Value larger = arith::CmpFOp::create(
                                b, loc, arith::CmpFPredicate::OGT, v, best[0]);
                            return SmallVector<Value>{
                                arith::SelectOp::create(b, loc, larger, v,
                                                        best[0]),
                                arith::SelectOp::create(b, loc, larger, i,
                                                        best[1])};
                          });
                      Value p = found[1];
                      Value pivot = at(b, a, p, k);
                      Value isZero = arith::CmpFOp::create(
                          b, loc, arith::CmpFPredicate::OEQ, pivot,
                          f64Constant(b, 0));
                      return SmallVector<Value>(branch(
                          b, isZero, types,
                          [&](OpBuilder &b) {
                            return SmallVector<Value>{
                                a, f64Constant(b, 0),
                                arith::ConstantIntOp::create(b, loc, i1, 1)};
                          },
                          [&](OpBuilder &b) -> SmallVector<Value> {
                            // Swap rows k and p; the sign flips.
                            Value swapRows =
                                cmpIndex(b, arith::CmpIPredicate::ne, p, k);
                            ValueRange swapped = branch(
                                b, swapRows, TypeRange{a.getType(), f64},
                                [&](OpBuilder &b) -> SmallVector<Value> {
                                  Value rows = loop(
                                      b, zero, size, a,
                                      [&](OpBuilder &b, Value j, ValueRange r) {
                                        Value top = at(b, r[0], k, j);
                                        Value other = at(b, r[0], p, j);
                                        Value m = put(b, other, r[0], k, j);
                                        return SmallVector<Value>{
                                            put(b, top, m, p, j)};
                                      })[0];
                                  return {rows,
                                          arith::NegFOp::create(b, loc, det)};
                                },
                                [&](OpBuilder &) {
                                  return SmallVector<Value>{a, det};
                                });
                            Value next = arith::MulFOp::create(
                                b, loc, swapped[1], pivot);
                            // Eliminate below the pivot.
                            Value eliminated = loop(
                                b, kPlus1, size, swapped[0],
                                [&](OpBuilder &b, Value i, ValueRange r) {
                                  Value f = arith::DivFOp::create(
                                      b, loc, at(b, r[0], i, k), pivot);
                                  return SmallVector<Value>(loop(
                                      b, kPlus1, size, r[0],
                                      [&](OpBuilder &b, Value j, ValueRange c) {
                                        Value product = arith::MulFOp::create(
                                            b, loc, f, at(b, c[0], k, j));
                                        Value updated = arith::SubFOp::create(
                                            b, loc, at(b, c[0], i, j), product);
                                        return SmallVector<Value>{
                                            put(b, updated, c[0], i, j)};
                                      }));
                                })[0];
                            return {eliminated, next, st[2]};
                          }));
                    }));
              });
          Value det = factored[1];
          if (outType.getElementType() != f64)
            det =
                arith::TruncFOp::create(b, loc, outType.getElementType(), det);
          return {tensor::InsertOp::create(b, loc, det, s[0], position),
                  factored[0]};
        })[0];
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void mlir::graph::populateReductionToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ReduceToLinalg<ReduceSumOp>>(converter, context,
                                            ReduceKind::Sum);
  patterns.add<ReduceToLinalg<ReduceMeanOp>>(converter, context,
                                             ReduceKind::Mean);
  patterns.add<ReduceToLinalg<ReduceMaxOp>>(converter, context,
                                            ReduceKind::Max);
  patterns.add<ReduceToLinalg<ReduceMinOp>>(converter, context,
                                            ReduceKind::Min);
  patterns.add<ReduceToLinalg<ReduceProdOp>>(converter, context,
                                             ReduceKind::Prod);
  patterns.add<ArgReduceToLinalg<ArgMaxOp>>(converter, context, true);
  patterns.add<ArgReduceToLinalg<ArgMinOp>>(converter, context, false);
  patterns.add<CumSumToLoops, LogSoftmaxToLinalg, TopKToLoops,
               TopKPrefixToLoops, DetToLoops>(converter, context);
}
