//===- TypedElementwiseToLinalg.cpp - Typed elementwise ops -----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The ops of GraphElementwiseOps.td become one parallel linalg.generic each
// (createTypedElementwise: storage types in memory, compute types in the
// body). The bodies are the operations of the fold hooks
// (lib/Dialect/Graph/IR/ElementwiseOps.cpp) in the same order, without
// fast-math flags; math functions become the libm calls the folds make.
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

/// The compute-type constant `value`.
static Value constant(OpBuilder &b, Location loc, Type type, double value) {
  return createScalarConstant(b, loc, type, value);
}

static Value cmpf(OpBuilder &b, Location loc, arith::CmpFPredicate predicate,
                  Value x, Value y) {
  return arith::CmpFOp::create(b, loc, predicate, x, y);
}

static Value cmpi(OpBuilder &b, Location loc, arith::CmpIPredicate predicate,
                  Value x, Value y) {
  return arith::CmpIOp::create(b, loc, predicate, x, y);
}

static Value select(OpBuilder &b, Location loc, Value c, Value x, Value y) {
  return arith::SelectOp::create(b, loc, c, x, y);
}

/// min(max(v, 0), 1) with NaN propagating.
static Value clamp01(OpBuilder &b, Location loc, Value v) {
  Type type = v.getType();
  Value raised =
      arith::MaximumFOp::create(b, loc, v, constant(b, loc, type, 0));
  return arith::MinimumFOp::create(b, loc, raised, constant(b, loc, type, 1));
}

/// Builds the body of one op: `build(op, b, loc, args, graphType)` with the
/// operands in compute types and the graph element type of the operands.
template <typename OpTy, typename Fn>
struct TypedElementwiseToGeneric : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    SmallVector<Type> inputTypes;
    for (Value operand : op->getOperands())
      inputTypes.push_back(getElementTypeOf(operand));
    Type operandType = inputTypes.back();
    Value result = createTypedElementwise(
        rewriter, op.getLoc(), resultType, adaptor.getOperands(), inputTypes,
        {}, [&](OpBuilder &b, Location loc, ValueRange args) {
          return Fn::build(op, b, loc, args, operandType);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

struct NegFn {
  static Value build(Operation *, OpBuilder &b, Location loc, ValueRange args,
                     Type) {
    Value x = args[0];
    if (isa<FloatType>(x.getType()))
      return arith::NegFOp::create(b, loc, x);
    return arith::SubIOp::create(b, loc,
                                 createIntConstant(b, loc, x.getType(), 0), x);
  }
};

struct AbsFn {
  static Value build(Operation *, OpBuilder &b, Location loc, ValueRange args,
                     Type graphType) {
    Value x = args[0];
    if (isa<FloatType>(x.getType()))
      return math::AbsFOp::create(b, loc, x);
    if (isUnsignedGraphType(graphType))
      return x;
    // x < 0 ? 0 - x : x (math.absi has no lowering to LLVM here); MIN wraps.
    Value zero = createIntConstant(b, loc, x.getType(), 0);
    Value negated = arith::SubIOp::create(b, loc, zero, x);
    return select(b, loc, cmpi(b, loc, arith::CmpIPredicate::slt, x, zero),
                  negated, x);
  }
};

struct SignFn {
  static Value build(Operation *, OpBuilder &b, Location loc, ValueRange args,
                     Type graphType) {
    Value x = args[0];
    Type type = x.getType();
    Value zero = constant(b, loc, type, 0), one = constant(b, loc, type, 1);
    if (isa<FloatType>(type)) {
      Value negative =
          select(b, loc, cmpf(b, loc, arith::CmpFPredicate::OLT, x, zero),
                 constant(b, loc, type, -1), x);
      return select(b, loc, cmpf(b, loc, arith::CmpFPredicate::OGT, x, zero),
                    one, negative);
    }
    if (isUnsignedGraphType(graphType))
      return select(b, loc, cmpi(b, loc, arith::CmpIPredicate::ugt, x, zero),
                    one, x);
    Value negative =
        select(b, loc, cmpi(b, loc, arith::CmpIPredicate::slt, x, zero),
               constant(b, loc, type, -1), x);
    return select(b, loc, cmpi(b, loc, arith::CmpIPredicate::sgt, x, zero), one,
                  negative);
  }
};

template <typename MathOpTy> struct MathFn {
  static Value build(Operation *, OpBuilder &b, Location loc, ValueRange args,
                     Type) {
    return MathOpTy::create(b, loc, args[0]);
  }
};

struct ReciprocalFn {
  static Value build(Operation *, OpBuilder &b, Location loc, ValueRange args,
                     Type) {
    return arith::DivFOp::create(b, loc, constant(b, loc, args[0].getType(), 1),
                                 args[0]);
  }
};

struct SoftplusFn {
  static Value build(Operation *, OpBuilder &b, Location loc, ValueRange args,
                     Type) {
    Value e = math::ExpOp::create(b, loc, args[0]);
    Value s =
        arith::AddFOp::create(b, loc, e, constant(b, loc, e.getType(), 1));
    return math::LogOp::create(b, loc, s);
  }
};

struct NotFn {
  static Value build(Operation *, OpBuilder &b, Location loc, ValueRange args,
                     Type) {
    Value one = createIntConstant(b, loc, b.getI1Type(), 1);
    return arith::XOrIOp::create(b, loc, args[0], one);
  }
};

struct LeakyReluFn {
  static Value build(LeakyReluOp op, OpBuilder &b, Location loc,
                     ValueRange args, Type) {
    Value x = args[0];
    Type type = x.getType();
    Value alpha = constant(b, loc, type, op.getAlpha().convertToFloat());
    Value scaled = arith::MulFOp::create(b, loc, alpha, x);
    return select(
        b, loc,
        cmpf(b, loc, arith::CmpFPredicate::OLT, x, constant(b, loc, type, 0)),
        scaled, x);
  }
};

struct EluFn {
  static Value build(EluOp op, OpBuilder &b, Location loc, ValueRange args,
                     Type) {
    Value x = args[0];
    Type type = x.getType();
    Value alpha = constant(b, loc, type, op.getAlpha().convertToFloat());
    Value e = math::ExpOp::create(b, loc, x);
    Value m = arith::SubFOp::create(b, loc, e, constant(b, loc, type, 1));
    Value scaled = arith::MulFOp::create(b, loc, alpha, m);
    return select(
        b, loc,
        cmpf(b, loc, arith::CmpFPredicate::OLT, x, constant(b, loc, type, 0)),
        scaled, x);
  }
};

struct SeluFn {
  static Value build(SeluOp op, OpBuilder &b, Location loc, ValueRange args,
                     Type) {
    Value x = args[0];
    Type type = x.getType();
    Value alpha = constant(b, loc, type, op.getAlpha().convertToFloat());
    Value gamma = constant(b, loc, type, op.getGamma().convertToFloat());
    Value positive = arith::MulFOp::create(b, loc, x, gamma);
    Value e = math::ExpOp::create(b, loc, x);
    Value scaled = arith::MulFOp::create(b, loc, e, alpha);
    Value shifted = arith::SubFOp::create(b, loc, scaled, alpha);
    Value negative = arith::MulFOp::create(b, loc, shifted, gamma);
    return select(
        b, loc,
        cmpf(b, loc, arith::CmpFPredicate::OGT, x, constant(b, loc, type, 0)),
        positive, negative);
  }
};

struct HardSigmoidFn {
  static Value build(HardSigmoidOp op, OpBuilder &b, Location loc,
                     ValueRange args, Type) {
    Value x = args[0];
    Type type = x.getType();
    Value v = arith::MulFOp::create(
        b, loc, x, constant(b, loc, type, op.getAlpha().convertToFloat()));
    v = arith::AddFOp::create(
        b, loc, v, constant(b, loc, type, op.getBeta().convertToFloat()));
    return clamp01(b, loc, v);
  }
};

struct HardSwishFn {
  static Value build(Operation *, OpBuilder &b, Location loc, ValueRange args,
                     Type) {
    Value x = args[0];
    Type type = x.getType();
    Value v =
        arith::MulFOp::create(b, loc, x, constant(b, loc, type, 1.0f / 6.0f));
    v = arith::AddFOp::create(b, loc, v, constant(b, loc, type, 0.5));
    return arith::MulFOp::create(b, loc, x, clamp01(b, loc, v));
  }
};

struct GeluFn {
  static Value build(GeluOp op, OpBuilder &b, Location loc, ValueRange args,
                     Type) {
    Value x = args[0];
    Type type = x.getType();
    auto c = [&](double v) { return constant(b, loc, type, v); };
    if (!op.getTanh()) {
      Value scaled =
          arith::DivFOp::create(b, loc, x, c(1.41421356237309504880));
      Value e = math::ErfOp::create(b, loc, scaled);
      Value shifted = arith::AddFOp::create(b, loc, e, c(1));
      Value product = arith::MulFOp::create(b, loc, x, shifted);
      return arith::MulFOp::create(b, loc, product, c(0.5));
    }
    Value cube = arith::MulFOp::create(b, loc, x, x);
    cube = arith::MulFOp::create(b, loc, cube, x);
    Value inner = arith::MulFOp::create(b, loc, cube, c(0.044715));
    inner = arith::AddFOp::create(b, loc, x, inner);
    inner = arith::MulFOp::create(b, loc, inner, c(0.79788456080286535588));
    Value t = math::TanhOp::create(b, loc, inner);
    Value shifted = arith::AddFOp::create(b, loc, t, c(1));
    Value product = arith::MulFOp::create(b, loc, x, shifted);
    return arith::MulFOp::create(b, loc, product, c(0.5));
  }
};

//===----------------------------------------------------------------------===//
// Binary
//===----------------------------------------------------------------------===//

/// Integer `base` to the power `exponent` as PowOp's fold (powInt): square
/// and multiply over every bit of the exponent, unrolled and branch-free,
/// wrapping; a negative exponent gives 0 unless the base is 1 or -1.
static Value powInteger(OpBuilder &b, Location loc, Value base, Value exponent,
                        bool isUnsigned) {
  Type type = base.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  auto constantOf = [&](int64_t v) {
    return createIntConstant(b, loc, type, v);
  };
  Value one = constantOf(1), zero = constantOf(0);
  Value result = one, power = base;
  for (unsigned i = 0, e = isUnsigned ? width : width - 1; i < e; ++i) {
    Value bit = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, exponent, constantOf(i)), one);
    Value set = cmpi(b, loc, arith::CmpIPredicate::ne, bit, zero);
    result = select(b, loc, set, arith::MulIOp::create(b, loc, result, power),
                    result);
    if (i + 1 < e)
      power = arith::MulIOp::create(b, loc, power, power);
  }
  if (isUnsigned || width == 1)
    return result;
  Value minusOne = constantOf(-1);
  Value odd = cmpi(b, loc, arith::CmpIPredicate::ne,
                   arith::AndIOp::create(b, loc, exponent, one), zero);
  Value ofMinusOne = select(b, loc, odd, minusOne, one);
  Value negativeResult = select(
      b, loc, cmpi(b, loc, arith::CmpIPredicate::eq, base, one), one,
      select(b, loc, cmpi(b, loc, arith::CmpIPredicate::eq, base, minusOne),
             ofMinusOne, zero));
  Value negative = cmpi(b, loc, arith::CmpIPredicate::slt, exponent, zero);
  return select(b, loc, negative, negativeResult, result);
}

struct PowFn {
  static Value build(Operation *, OpBuilder &b, Location loc, ValueRange args,
                     Type graphType) {
    if (isa<FloatType>(args[0].getType()))
      return math::PowFOp::create(b, loc, args[0], args[1]);
    return powInteger(b, loc, args[0], args[1], isUnsignedGraphType(graphType));
  }
};

/// Integer remainder with the sign of the dividend, by 0 (and by -1) 0,
/// without trapping.
static Value remInt(OpBuilder &b, Location loc, Value x, Value y,
                    bool isUnsigned) {
  Type type = x.getType();
  Value zero = createIntConstant(b, loc, type, 0);
  Value one = createIntConstant(b, loc, type, 1);
  Value unsafe = cmpi(b, loc, arith::CmpIPredicate::eq, y, zero);
  if (!isUnsigned)
    unsafe = arith::OrIOp::create(b, loc, unsafe,
                                  cmpi(b, loc, arith::CmpIPredicate::eq, y,
                                       createIntConstant(b, loc, type, -1)));
  Value safe = select(b, loc, unsafe, one, y);
  Value r = isUnsigned ? Value(arith::RemUIOp::create(b, loc, x, safe))
                       : Value(arith::RemSIOp::create(b, loc, x, safe));
  return select(b, loc, unsafe, zero, r);
}

struct ModFn {
  static Value build(ModOp op, OpBuilder &b, Location loc, ValueRange args,
                     Type graphType) {
    Value x = args[0], y = args[1];
    if (isa<FloatType>(x.getType()))
      return arith::RemFOp::create(b, loc, x, y);
    bool isUnsigned = isUnsignedGraphType(graphType);
    Value r = remInt(b, loc, x, y, isUnsigned);
    if (op.getFmod() || isUnsigned)
      return r;
    // Python's %: a non-zero remainder takes the sign of the divisor.
    Value zero = createIntConstant(b, loc, x.getType(), 0);
    Value nonZero = cmpi(b, loc, arith::CmpIPredicate::ne, r, zero);
    Value signsDiffer = arith::XOrIOp::create(
        b, loc, cmpi(b, loc, arith::CmpIPredicate::slt, r, zero),
        cmpi(b, loc, arith::CmpIPredicate::slt, y, zero));
    Value adjust = arith::AndIOp::create(b, loc, nonZero, signsDiffer);
    return select(b, loc, adjust, arith::AddIOp::create(b, loc, r, y), r);
  }
};

template <bool IsMax> struct MinMaxFn {
  static Value build(Operation *, OpBuilder &b, Location loc, ValueRange args,
                     Type graphType) {
    Value x = args[0], y = args[1];
    if (isa<FloatType>(x.getType()))
      return IsMax ? Value(arith::MaximumFOp::create(b, loc, x, y))
                   : Value(arith::MinimumFOp::create(b, loc, x, y));
    if (isUnsignedGraphType(graphType))
      return IsMax ? Value(arith::MaxUIOp::create(b, loc, x, y))
                   : Value(arith::MinUIOp::create(b, loc, x, y));
    return IsMax ? Value(arith::MaxSIOp::create(b, loc, x, y))
                 : Value(arith::MinSIOp::create(b, loc, x, y));
  }
};

template <typename ArithOpTy> struct LogicFn {
  static Value build(Operation *, OpBuilder &b, Location loc, ValueRange args,
                     Type) {
    return ArithOpTy::create(b, loc, args[0], args[1]);
  }
};

struct PReluFn {
  static Value build(Operation *, OpBuilder &b, Location loc, ValueRange args,
                     Type) {
    Value x = args[0], slope = args[1];
    Value scaled = arith::MulFOp::create(b, loc, slope, x);
    return select(b, loc,
                  cmpf(b, loc, arith::CmpFPredicate::OLT, x,
                       constant(b, loc, x.getType(), 0)),
                  scaled, x);
  }
};

struct BitShiftFn {
  static Value build(BitShiftOp op, OpBuilder &b, Location loc, ValueRange args,
                     Type) {
    Value x = args[0], y = args[1];
    Type type = x.getType();
    Value width = createIntConstant(b, loc, type, type.getIntOrFloatBitWidth());
    Value tooFar = cmpi(b, loc, arith::CmpIPredicate::uge, y, width);
    Value shifted = op.getRight() ? Value(arith::ShRUIOp::create(b, loc, x, y))
                                  : Value(arith::ShLIOp::create(b, loc, x, y));
    return select(b, loc, tooFar, createIntConstant(b, loc, type, 0), shifted);
  }
};

/// Comparisons: ordered for floats, signed or unsigned for integers.
template <arith::CmpFPredicate F, arith::CmpIPredicate S,
          arith::CmpIPredicate U>
struct CompareFn {
  static Value build(Operation *, OpBuilder &b, Location loc, ValueRange args,
                     Type graphType) {
    Value x = args[0], y = args[1];
    if (isa<FloatType>(x.getType()))
      return cmpf(b, loc, F, x, y);
    return cmpi(b, loc, isUnsignedGraphType(graphType) ? U : S, x, y);
  }
};

using EqualFn = CompareFn<arith::CmpFPredicate::OEQ, arith::CmpIPredicate::eq,
                          arith::CmpIPredicate::eq>;
using LessFn = CompareFn<arith::CmpFPredicate::OLT, arith::CmpIPredicate::slt,
                         arith::CmpIPredicate::ult>;
using LessEqualFn =
    CompareFn<arith::CmpFPredicate::OLE, arith::CmpIPredicate::sle,
              arith::CmpIPredicate::ule>;
using GreaterFn =
    CompareFn<arith::CmpFPredicate::OGT, arith::CmpIPredicate::sgt,
              arith::CmpIPredicate::ugt>;
using GreaterEqualFn =
    CompareFn<arith::CmpFPredicate::OGE, arith::CmpIPredicate::sge,
              arith::CmpIPredicate::uge>;

struct WhereFn {
  static Value build(Operation *, OpBuilder &b, Location loc, ValueRange args,
                     Type) {
    return select(b, loc, args[0], args[1], args[2]);
  }
};

//===----------------------------------------------------------------------===//
// graph.cast
//===----------------------------------------------------------------------===//

/// Converts a compute scalar of graph type `from` to the compute type of
/// graph type `to`, as CastOp's fold (castElement).
static Value castScalar(OpBuilder &b, Location loc, Value x, Type from,
                        Type to) {
  Type target = getComputeElementType(to);
  Type source = x.getType();
  if (from == to)
    return x;
  if (to.isInteger(1)) {
    if (isa<FloatType>(source))
      return cmpf(b, loc, arith::CmpFPredicate::UNE, x,
                  constant(b, loc, source, 0));
    return cmpi(b, loc, arith::CmpIPredicate::ne, x,
                createIntConstant(b, loc, source, 0));
  }
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
  if (fromFloat && toFloat) {
    // f64 -> f16/bf16 round once, not through f32.
    if (from.isF64() && (to.isF16() || to.isBF16())) {
      Value narrow = arith::TruncFOp::create(b, loc, to, x);
      return arith::ExtFOp::create(b, loc, target, narrow);
    }
    unsigned sourceWidth = source.getIntOrFloatBitWidth();
    unsigned targetWidth = target.getIntOrFloatBitWidth();
    if (sourceWidth < targetWidth)
      return arith::ExtFOp::create(b, loc, target, x);
    if (sourceWidth > targetWidth)
      return arith::TruncFOp::create(b, loc, target, x);
    // f16 <-> bf16: both compute in f32; storeScalar rounds.
    return x;
  }
  if (!fromFloat && toFloat) {
    bool isUnsigned = isUnsignedGraphType(from) || from.isInteger(1);
    return isUnsigned ? Value(arith::UIToFPOp::create(b, loc, target, x))
                      : Value(arith::SIToFPOp::create(b, loc, target, x));
  }
  if (fromFloat) {
    // Truncate toward zero, saturate, NaN to 0.
    unsigned width = target.getIntOrFloatBitWidth();
    bool isUnsigned = isUnsignedGraphType(to);
    double half = std::ldexp(1.0, width - 1);
    double limit = isUnsigned ? 2 * half : half;
    Value converted = isUnsigned
                          ? Value(arith::FPToUIOp::create(b, loc, target, x))
                          : Value(arith::FPToSIOp::create(b, loc, target, x));
    APInt maxValue = isUnsigned ? APInt::getMaxValue(width)
                                : APInt::getSignedMaxValue(width);
    APInt minValue = isUnsigned ? APInt::getMinValue(width)
                                : APInt::getSignedMinValue(width);
    Value maxConst =
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(target, maxValue));
    Value minConst =
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(target, minValue));
    Value tooLow = isUnsigned ? cmpf(b, loc, arith::CmpFPredicate::OLE, x,
                                     constant(b, loc, source, -1))
                              : cmpf(b, loc, arith::CmpFPredicate::OLT, x,
                                     constant(b, loc, source, -limit));
    Value tooHigh = cmpf(b, loc, arith::CmpFPredicate::OGE, x,
                         constant(b, loc, source, limit));
    Value isNan = cmpf(b, loc, arith::CmpFPredicate::UNO, x, x);
    Value result = select(b, loc, tooLow, minConst, converted);
    result = select(b, loc, tooHigh, maxConst, result);
    return select(b, loc, isNan, createIntConstant(b, loc, target, 0), result);
  }
  // Integer to integer: wrap, extending by the source's signedness.
  unsigned sourceWidth = source.getIntOrFloatBitWidth();
  unsigned targetWidth = target.getIntOrFloatBitWidth();
  if (sourceWidth > targetWidth)
    return arith::TruncIOp::create(b, loc, target, x);
  if (sourceWidth < targetWidth) {
    if (isUnsignedGraphType(from) || from.isInteger(1))
      return arith::ExtUIOp::create(b, loc, target, x);
    return arith::ExtSIOp::create(b, loc, target, x);
  }
  return x;
}

struct CastToGeneric : OpConversionPattern<CastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    Type from = getElementTypeOf(op.getX());
    Type to = resultType.getElementType();
    Value result = createTypedElementwise(
        rewriter, op.getLoc(), resultType, adaptor.getX(), {from}, {},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return castScalar(b, loc, args[0], from, to);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// graph.quantize, graph.dequantize
//===----------------------------------------------------------------------===//

/// An integer compute scalar of graph type `graphType` as float `type`.
static Value integerToFloat(OpBuilder &b, Location loc, Value x, Type graphType,
                            Type type) {
  if (isUnsignedGraphType(graphType))
    return arith::UIToFPOp::create(b, loc, type, x);
  return arith::SIToFPOp::create(b, loc, type, x);
}

/// clamp(roundeven(x / scale) + zero point) as QuantizeOp's fold: NaN stays
/// NaN through the rounding and the sum, and maxnumf gives the lowest value.
struct QuantizeFn {
  static Value build(Operation *, OpBuilder &b, Location loc, ValueRange args,
                     Type quantizedType) {
    Type floatType = args[0].getType();
    Type intType = getComputeElementType(quantizedType);
    unsigned width = intType.getIntOrFloatBitWidth();
    bool isUnsigned = isUnsignedGraphType(quantizedType);
    double lowest = isUnsigned ? 0.0 : -std::ldexp(1.0, width - 1);
    double highest = isUnsigned ? std::ldexp(1.0, width) - 1
                                : std::ldexp(1.0, width - 1) - 1;
    Value scaled = arith::DivFOp::create(b, loc, args[0], args[1]);
    Value rounded = math::RoundEvenOp::create(b, loc, scaled);
    Value shifted = arith::AddFOp::create(
        b, loc, rounded,
        integerToFloat(b, loc, args[2], quantizedType, floatType));
    Value raised = arith::MaxNumFOp::create(
        b, loc, shifted, constant(b, loc, floatType, lowest));
    Value clamped = arith::MinNumFOp::create(
        b, loc, raised, constant(b, loc, floatType, highest));
    if (isUnsigned)
      return arith::FPToUIOp::create(b, loc, intType, clamped);
    return arith::FPToSIOp::create(b, loc, intType, clamped);
  }
};

/// (x - zero point) * scale in the scale's compute type.
struct DequantizeFn {
  static Value build(Operation *, OpBuilder &b, Location loc, ValueRange args,
                     Type quantizedType) {
    Type floatType = args[1].getType();
    Value x = integerToFloat(b, loc, args[0], quantizedType, floatType);
    Value zeroPoint = integerToFloat(b, loc, args[2], quantizedType, floatType);
    Value centered = arith::SubFOp::create(b, loc, x, zeroPoint);
    return arith::MulFOp::create(b, loc, centered, args[1]);
  }
};

/// DequantizeFn of QuantizeFn, the integer in between never stored.
struct FakeQuantizeFn {
  static Value build(Operation *op, OpBuilder &b, Location loc, ValueRange args,
                     Type quantizedType) {
    Value quantized = QuantizeFn::build(op, b, loc, args, quantizedType);
    return DequantizeFn::build(op, b, loc, {quantized, args[1], args[2]},
                               quantizedType);
  }
};

} // namespace

void mlir::graph::populateTypedElementwiseToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<TypedElementwiseToGeneric<NegOp, NegFn>,
               TypedElementwiseToGeneric<AbsOp, AbsFn>,
               TypedElementwiseToGeneric<SignOp, SignFn>,
               TypedElementwiseToGeneric<ReciprocalOp, ReciprocalFn>,
               TypedElementwiseToGeneric<ExpOp, MathFn<math::ExpOp>>,
               TypedElementwiseToGeneric<LogOp, MathFn<math::LogOp>>,
               TypedElementwiseToGeneric<SqrtOp, MathFn<math::SqrtOp>>,
               TypedElementwiseToGeneric<ErfOp, MathFn<math::ErfOp>>,
               TypedElementwiseToGeneric<FloorOp, MathFn<math::FloorOp>>,
               TypedElementwiseToGeneric<CeilOp, MathFn<math::CeilOp>>,
               TypedElementwiseToGeneric<RoundOp, MathFn<math::RoundEvenOp>>,
               TypedElementwiseToGeneric<SinOp, MathFn<math::SinOp>>,
               TypedElementwiseToGeneric<CosOp, MathFn<math::CosOp>>,
               TypedElementwiseToGeneric<TanOp, MathFn<math::TanOp>>,
               TypedElementwiseToGeneric<AsinOp, MathFn<math::AsinOp>>,
               TypedElementwiseToGeneric<AcosOp, MathFn<math::AcosOp>>,
               TypedElementwiseToGeneric<AtanOp, MathFn<math::AtanOp>>,
               TypedElementwiseToGeneric<SinhOp, MathFn<math::SinhOp>>,
               TypedElementwiseToGeneric<CoshOp, MathFn<math::CoshOp>>,
               TypedElementwiseToGeneric<AsinhOp, MathFn<math::AsinhOp>>,
               TypedElementwiseToGeneric<AcoshOp, MathFn<math::AcoshOp>>,
               TypedElementwiseToGeneric<AtanhOp, MathFn<math::AtanhOp>>,
               TypedElementwiseToGeneric<SoftplusOp, SoftplusFn>,
               TypedElementwiseToGeneric<NotOp, NotFn>,
               TypedElementwiseToGeneric<LeakyReluOp, LeakyReluFn>,
               TypedElementwiseToGeneric<EluOp, EluFn>,
               TypedElementwiseToGeneric<SeluOp, SeluFn>,
               TypedElementwiseToGeneric<HardSigmoidOp, HardSigmoidFn>,
               TypedElementwiseToGeneric<HardSwishOp, HardSwishFn>,
               TypedElementwiseToGeneric<GeluOp, GeluFn>,
               TypedElementwiseToGeneric<PowOp, PowFn>,
               TypedElementwiseToGeneric<ModOp, ModFn>,
               TypedElementwiseToGeneric<MinOp, MinMaxFn<false>>,
               TypedElementwiseToGeneric<MaxOp, MinMaxFn<true>>,
               TypedElementwiseToGeneric<AndOp, LogicFn<arith::AndIOp>>,
               TypedElementwiseToGeneric<OrOp, LogicFn<arith::OrIOp>>,
               TypedElementwiseToGeneric<XorOp, LogicFn<arith::XOrIOp>>,
               TypedElementwiseToGeneric<PReluOp, PReluFn>,
               TypedElementwiseToGeneric<BitShiftOp, BitShiftFn>,
               TypedElementwiseToGeneric<EqualOp, EqualFn>,
               TypedElementwiseToGeneric<LessOp, LessFn>,
               TypedElementwiseToGeneric<LessEqualOp, LessEqualFn>,
               TypedElementwiseToGeneric<GreaterOp, GreaterFn>,
               TypedElementwiseToGeneric<GreaterEqualOp, GreaterEqualFn>,
               TypedElementwiseToGeneric<WhereOp, WhereFn>,
               TypedElementwiseToGeneric<QuantizeOp, QuantizeFn>,
               TypedElementwiseToGeneric<DequantizeOp, DequantizeFn>,
               TypedElementwiseToGeneric<FakeQuantizeOp, FakeQuantizeFn>,
               CastToGeneric>(converter, context);
}
