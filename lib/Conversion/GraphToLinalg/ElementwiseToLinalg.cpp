//===- ElementwiseToLinalg.cpp - Elementwise graph ops ----------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Activations, broadcasting arithmetic and batch normalization become one
// parallel linalg.generic each. The scalar bodies are the operations of the
// fold hooks (ReferenceKernels.cpp) in the same order, without fast-math
// flags, so that compile-time and run-time results agree bit for bit.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"

#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::graph;

namespace {

/// Rewrites a unary or binary op into an elementwise linalg.generic whose
/// body is `ScalarFn::build(op, builder, loc, scalars)`.
template <typename OpTy, typename ScalarFn>
struct ElementwiseToGeneric : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    Value result = createElementwise(
        rewriter, op.getLoc(), resultType, adaptor.getOperands(), {},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return ScalarFn::build(op, b, loc, args);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// maximumf(x, +0): relu(-0) = +0 and NaN stays NaN, as the fold.
struct ReluFn {
  static Value build(ReluOp, OpBuilder &b, Location loc, ValueRange args) {
    Value zero = createF32Constant(b, loc, 0.0f);
    return arith::MaximumFOp::create(b, loc, args[0], zero);
  }
};

struct ClipFn {
  static Value build(ClipOp op, OpBuilder &b, Location loc, ValueRange args) {
    Value lo = createF32Constant(b, loc, op.getMin().convertToFloat());
    Value hi = createF32Constant(b, loc, op.getMax().convertToFloat());
    Value raised = arith::MaximumFOp::create(b, loc, args[0], lo);
    return arith::MinimumFOp::create(b, loc, raised, hi);
  }
};

/// 1 / (1 + exp(-x)).
struct SigmoidFn {
  static Value build(SigmoidOp, OpBuilder &b, Location loc, ValueRange args) {
    Value one = createF32Constant(b, loc, 1.0f);
    Value negated = arith::NegFOp::create(b, loc, args[0]);
    Value exp = math::ExpOp::create(b, loc, negated);
    Value denominator = arith::AddFOp::create(b, loc, one, exp);
    return arith::DivFOp::create(b, loc, one, denominator);
  }
};

struct TanhFn {
  static Value build(TanhOp, OpBuilder &b, Location loc, ValueRange args) {
    return math::TanhOp::create(b, loc, args[0]);
  }
};

template <typename OpTy, typename ArithOpTy> struct BinaryFn {
  static Value build(OpTy, OpBuilder &b, Location loc, ValueRange args) {
    return ArithOpTy::create(b, loc, args[0], args[1]);
  }
};

/// add, sub, mul, div of integers and of floats other than f32 (the f32
/// bodies are BinaryFn's): integers wrap; integer division truncates, and
/// is guarded so that it never traps: x / 0 = 0, MIN / -1 = MIN, as the
/// fold.
template <typename OpTy>
struct TypedArithmeticToGeneric : OpConversionPattern<OpTy> {
  TypedArithmeticToGeneric(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern<OpTy>(converter, context, /*benefit=*/2) {}
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  static Value buildInteger(OpBuilder &b, Location loc, Value x, Value y,
                            bool isUnsigned) {
    if constexpr (std::is_same_v<OpTy, AddOp>)
      return arith::AddIOp::create(b, loc, x, y);
    else if constexpr (std::is_same_v<OpTy, SubOp>)
      return arith::SubIOp::create(b, loc, x, y);
    else if constexpr (std::is_same_v<OpTy, MulOp>)
      return arith::MulIOp::create(b, loc, x, y);
    Type type = x.getType();
    Value zero = createIntConstant(b, loc, type, 0);
    Value one = createIntConstant(b, loc, type, 1);
    Value isZero =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, zero);
    if (isUnsigned) {
      Value safe = arith::SelectOp::create(b, loc, isZero, one, y);
      Value q = arith::DivUIOp::create(b, loc, x, safe);
      return arith::SelectOp::create(b, loc, isZero, zero, q);
    }
    Value minusOne = createIntConstant(b, loc, type, -1);
    Value isMinusOne =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, minusOne);
    Value unsafe = arith::OrIOp::create(b, loc, isZero, isMinusOne);
    Value safe = arith::SelectOp::create(b, loc, unsafe, one, y);
    Value q = arith::DivSIOp::create(b, loc, x, safe);
    Value negated = arith::SubIOp::create(b, loc, zero, x);
    Value result = arith::SelectOp::create(b, loc, isMinusOne, negated, q);
    return arith::SelectOp::create(b, loc, isZero, zero, result);
  }

  static Value buildFloat(OpBuilder &b, Location loc, Value x, Value y) {
    if constexpr (std::is_same_v<OpTy, AddOp>)
      return arith::AddFOp::create(b, loc, x, y);
    else if constexpr (std::is_same_v<OpTy, SubOp>)
      return arith::SubFOp::create(b, loc, x, y);
    else if constexpr (std::is_same_v<OpTy, MulOp>)
      return arith::MulFOp::create(b, loc, x, y);
    else
      return arith::DivFOp::create(b, loc, x, y);
  }

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    Type elementType = resultType.getElementType();
    if (elementType.isF32())
      return rewriter.notifyMatchFailure(op, "f32 has its own pattern");
    bool isUnsigned = isUnsignedGraphType(elementType);
    Value result = createTypedElementwise(
        rewriter, op.getLoc(), resultType, adaptor.getOperands(),
        {elementType, elementType}, {},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          if (isa<FloatType>(args[0].getType()))
            return buildFloat(b, loc, args[0], args[1]);
          return buildInteger(b, loc, args[0], args[1], isUnsigned);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// ((x - mean) / sqrt(var + eps)) * scale + bias, the parameters read along
/// the channel dimension (1, or 3 in NHWC).
struct BatchNormToGeneric : OpConversionPattern<BatchNormOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BatchNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    MLIRContext *context = rewriter.getContext();
    unsigned rank = resultType.getRank();
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
    unsigned channelDim = op.getLayout() == Layout::NHWC ? 3 : 1;
    AffineMap channel =
        AffineMap::get(rank, 0, getAffineDimExpr(channelDim, context), context);
    float epsilon = op.getEpsilon().convertToFloat();
    Value result = createElementwise(
        rewriter, op.getLoc(), resultType,
        ValueRange{adaptor.getInput(), adaptor.getScale(), adaptor.getBias(),
                   adaptor.getMean(), adaptor.getVariance()},
        {identity, channel, channel, channel, channel},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value x = args[0], scale = args[1], bias = args[2], mean = args[3],
                var = args[4];
          Value eps = createF32Constant(b, loc, epsilon);
          Value centered = arith::SubFOp::create(b, loc, x, mean);
          Value shifted = arith::AddFOp::create(b, loc, var, eps);
          Value stddev = math::SqrtOp::create(b, loc, shifted);
          Value normalized = arith::DivFOp::create(b, loc, centered, stddev);
          Value scaled = arith::MulFOp::create(b, loc, normalized, scale);
          return arith::AddFOp::create(b, loc, scaled, bias);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::graph::populateElementwiseToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns
      .add<TypedArithmeticToGeneric<AddOp>, TypedArithmeticToGeneric<SubOp>,
           TypedArithmeticToGeneric<MulOp>, TypedArithmeticToGeneric<DivOp>>(
          converter, context);
  patterns.add<ElementwiseToGeneric<ReluOp, ReluFn>,
               ElementwiseToGeneric<ClipOp, ClipFn>,
               ElementwiseToGeneric<SigmoidOp, SigmoidFn>,
               ElementwiseToGeneric<TanhOp, TanhFn>,
               ElementwiseToGeneric<AddOp, BinaryFn<AddOp, arith::AddFOp>>,
               ElementwiseToGeneric<SubOp, BinaryFn<SubOp, arith::SubFOp>>,
               ElementwiseToGeneric<MulOp, BinaryFn<MulOp, arith::MulFOp>>,
               ElementwiseToGeneric<DivOp, BinaryFn<DivOp, arith::DivFOp>>,
               BatchNormToGeneric>(context);
}
