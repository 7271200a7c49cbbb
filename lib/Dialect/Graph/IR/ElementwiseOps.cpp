//===- ElementwiseOps.cpp - Typed elementwise ops ---------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Verifiers and fold hooks of the elementwise ops of GraphElementwiseOps.td.
// Each op's scalar semantics is one small struct (`...Fn`): which element
// types it takes and what it computes on one element, in the compute type
// (float for f16/bf16, rounded back after the op; the type itself
// otherwise). The folds evaluate exactly that, so that they agree bit for
// bit with the lowering, which emits the same operations.
//
//===----------------------------------------------------------------------===//

#include "ScalarKernels.h"
#include "TypedFolds.h"
#include "VerifyUtils.h"

#include "graph/Dialect/Graph/IR/FoldLimits.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/TypedTensor.h"
#include "graph/Support/ApproximateMath.h"

#include <cmath>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::scalar;

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

//===----------------------------------------------------------------------===//
// Scalar semantics
//===----------------------------------------------------------------------===//

namespace {

// Unary: `cls` and `template <typename C> static C apply(Op, C x)`.

struct NegFn {
  static constexpr TypeClass cls = TypeClass::SignedNumeric;
  template <typename C> static C apply(Operation *, C x) {
    if constexpr (isFloatCompute<C>)
      return -x;
    else
      return wrapSub<C>(0, x);
  }
};

struct AbsFn {
  static constexpr TypeClass cls = TypeClass::Numeric;
  template <typename C> static C apply(Operation *, C x) {
    if constexpr (isFloatCompute<C>)
      return std::fabs(x);
    else if constexpr (std::is_signed_v<C>)
      return x < 0 ? wrapSub<C>(0, x) : x;
    else
      return x;
  }
};

struct SignFn {
  static constexpr TypeClass cls = TypeClass::Numeric;
  template <typename C> static C apply(Operation *, C x) {
    if (x > 0)
      return C(1);
    if constexpr (std::is_signed_v<C> || isFloatCompute<C>)
      if (x < 0)
        return C(-1);
    return x;
  }
};

#define GRAPH_FLOAT_FN(NAME, EXPR)                                             \
  struct NAME {                                                                \
    static constexpr TypeClass cls = TypeClass::Float;                         \
    template <typename C> static C apply(Operation *, C x) { return EXPR; }    \
  };

GRAPH_FLOAT_FN(ReciprocalFn, C(1) / x)
GRAPH_FLOAT_FN(ExpFn, kernelExp(x))
GRAPH_FLOAT_FN(LogFn, std::log(x))
GRAPH_FLOAT_FN(SqrtFn, std::sqrt(x))
GRAPH_FLOAT_FN(ErfFn, kernelErf(x))
GRAPH_FLOAT_FN(FloorFn, std::floor(x))
GRAPH_FLOAT_FN(CeilFn, std::ceil(x))
GRAPH_FLOAT_FN(RoundFn, std::nearbyint(x))
GRAPH_FLOAT_FN(SinFn, std::sin(x))
GRAPH_FLOAT_FN(CosFn, std::cos(x))
GRAPH_FLOAT_FN(TanFn, std::tan(x))
GRAPH_FLOAT_FN(AsinFn, std::asin(x))
GRAPH_FLOAT_FN(AcosFn, std::acos(x))
GRAPH_FLOAT_FN(AtanFn, std::atan(x))
GRAPH_FLOAT_FN(SinhFn, std::sinh(x))
GRAPH_FLOAT_FN(CoshFn, std::cosh(x))
GRAPH_FLOAT_FN(AsinhFn, std::asinh(x))
GRAPH_FLOAT_FN(AcoshFn, std::acosh(x))
GRAPH_FLOAT_FN(AtanhFn, std::atanh(x))
#undef GRAPH_FLOAT_FN

struct SoftplusFn {
  static constexpr TypeClass cls = TypeClass::Float;
  template <typename C> static C apply(Operation *, C x) {
    C e = kernelExp(x);
    C s = e + C(1);
    return std::log(s);
  }
};

struct NotFn {
  static constexpr TypeClass cls = TypeClass::Bool;
  template <typename C> static C apply(Operation *, C x) { return !x; }
};

struct LeakyReluFn {
  static constexpr TypeClass cls = TypeClass::Float;
  template <typename C> static C apply(Operation *op, C x) {
    C alpha = param<C>(cast<LeakyReluOp>(op).getAlpha().convertToFloat());
    return x < C(0) ? alpha * x : x;
  }
};

struct EluFn {
  static constexpr TypeClass cls = TypeClass::Float;
  template <typename C> static C apply(Operation *op, C x) {
    C alpha = param<C>(cast<EluOp>(op).getAlpha().convertToFloat());
    if (!(x < C(0)))
      return x;
    C e = kernelExp(x);
    C m = e - C(1);
    return alpha * m;
  }
};

struct SeluFn {
  static constexpr TypeClass cls = TypeClass::Float;
  template <typename C> static C apply(Operation *op, C x) {
    auto selu = cast<SeluOp>(op);
    C alpha = param<C>(selu.getAlpha().convertToFloat());
    C gamma = param<C>(selu.getGamma().convertToFloat());
    if (x > C(0))
      return x * gamma;
    C e = kernelExp(x);
    C scaled = e * alpha;
    C shifted = scaled - alpha;
    return shifted * gamma;
  }
};

struct HardSigmoidFn {
  static constexpr TypeClass cls = TypeClass::Float;
  template <typename C> static C apply(Operation *op, C x) {
    auto hs = cast<HardSigmoidOp>(op);
    C alpha = param<C>(hs.getAlpha().convertToFloat());
    C beta = param<C>(hs.getBeta().convertToFloat());
    C v = x * alpha;
    v = v + beta;
    return minimumF(maximumF(v, C(0)), C(1));
  }
};

struct HardSwishFn {
  static constexpr TypeClass cls = TypeClass::Float;
  template <typename C> static C apply(Operation *, C x) {
    C v = x * param<C>(1.0f / 6.0f);
    v = v + C(0.5);
    C gate = minimumF(maximumF(v, C(0)), C(1));
    return x * gate;
  }
};

struct GeluFn {
  static constexpr TypeClass cls = TypeClass::Float;
  template <typename C> static C apply(Operation *op, C x) {
    if (!cast<GeluOp>(op).getTanh()) {
      C scaled = x / C(1.41421356237309504880);
      C e = kernelErf(scaled);
      C shifted = e + C(1);
      C product = x * shifted;
      return product * C(0.5);
    }
    C cube = x * x;
    cube = cube * x;
    C inner = cube * C(0.044715);
    inner = x + inner;
    inner = inner * C(0.79788456080286535588);
    C t = kernelTanh(inner);
    C shifted = t + C(1);
    C product = x * shifted;
    return product * C(0.5);
  }
};

// Binary: `cls` and `template <typename C> static C apply(Op, C a, C b)`.

struct PowFn {
  static constexpr TypeClass cls = TypeClass::Numeric;
  template <typename C> static C apply(Operation *, C a, C b) {
    if constexpr (isFloatCompute<C>)
      return std::pow(a, b);
    else
      return powInt(a, b);
  }
};

struct ModFn {
  static constexpr TypeClass cls = TypeClass::Numeric;
  template <typename C> static C apply(Operation *op, C a, C b) {
    if constexpr (isFloatCompute<C>)
      return std::fmod(a, b);
    else
      return cast<ModOp>(op).getFmod() ? remInt(a, b) : modInt(a, b);
  }
};

struct MinFn {
  static constexpr TypeClass cls = TypeClass::Numeric;
  template <typename C> static C apply(Operation *, C a, C b) {
    if constexpr (isFloatCompute<C>)
      return minimumF(a, b);
    else
      return a < b ? a : b;
  }
};

struct MaxFn {
  static constexpr TypeClass cls = TypeClass::Numeric;
  template <typename C> static C apply(Operation *, C a, C b) {
    if constexpr (isFloatCompute<C>)
      return maximumF(a, b);
    else
      return a > b ? a : b;
  }
};

struct AndFn {
  static constexpr TypeClass cls = TypeClass::Bool;
  template <typename C> static C apply(Operation *, C a, C b) { return a && b; }
};
struct OrFn {
  static constexpr TypeClass cls = TypeClass::Bool;
  template <typename C> static C apply(Operation *, C a, C b) { return a || b; }
};
struct XorFn {
  static constexpr TypeClass cls = TypeClass::Bool;
  template <typename C> static C apply(Operation *, C a, C b) { return a != b; }
};

struct PReluFn {
  static constexpr TypeClass cls = TypeClass::Float;
  template <typename C> static C apply(Operation *, C x, C slope) {
    return x < C(0) ? slope * x : x;
  }
};

struct BitShiftFn {
  static constexpr TypeClass cls = TypeClass::Unsigned;
  template <typename C> static C apply(Operation *op, C a, C b) {
    if (b >= C(sizeof(C) * 8))
      return 0;
    return cast<BitShiftOp>(op).getRight() ? C(a >> b) : C(a << b);
  }
};

// Comparisons: `cls` and `template <typename C> static bool apply(C, C)`.

#define GRAPH_COMPARE_FN(NAME, CLS, EXPR)                                      \
  struct NAME {                                                                \
    static constexpr TypeClass cls = CLS;                                      \
    template <typename C> static bool apply(C a, C b) { return EXPR; }         \
  };
GRAPH_COMPARE_FN(EqualFn, TypeClass::Any, a == b)
GRAPH_COMPARE_FN(LessFn, TypeClass::Numeric, a < b)
GRAPH_COMPARE_FN(LessEqualFn, TypeClass::Numeric, a <= b)
GRAPH_COMPARE_FN(GreaterFn, TypeClass::Numeric, a > b)
GRAPH_COMPARE_FN(GreaterEqualFn, TypeClass::Numeric, a >= b)
#undef GRAPH_COMPARE_FN

} // namespace

//===----------------------------------------------------------------------===//
// Verifier helpers
//===----------------------------------------------------------------------===//

/// x and output of one element type (AllTypesMatch) in `cls`.
static LogicalResult verifyUnary(Operation *op, TypeClass cls) {
  return checkTensorOf(op, op->getOperand(0), "operand 'x'", cls);
}

/// lhs, rhs and output in `cls`, all of one element type (or an i1 result
/// for comparisons), with the result of the broadcast shape.
static LogicalResult verifyBinary(Operation *op, TypeClass cls,
                                  bool boolResult = false) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  Value result = op->getResult(0);
  if (failed(checkTensorOf(op, lhs, "operand 'lhs'", cls)) ||
      failed(checkTensorOf(op, rhs, "operand 'rhs'", cls)) ||
      failed(
          checkSameElementType(op, lhs, "operand 'lhs'", rhs, "operand 'rhs'")))
    return failure();
  if (boolResult) {
    if (failed(checkTensorOf(op, result, "result 'output'", TypeClass::Bool)))
      return failure();
  } else if (failed(checkTensorOf(op, result, "result 'output'", cls)) ||
             failed(checkSameElementType(op, lhs, "operand 'lhs'", result,
                                         "result 'output'"))) {
    return failure();
  }
  FailureOr<SmallVector<int64_t>> shape = broadcastOperands(op, {"lhs", "rhs"});
  return failed(shape) ? failure() : checkResultDims(op, *shape);
}

//===----------------------------------------------------------------------===//
// Fold helpers
//===----------------------------------------------------------------------===//

template <typename Fn>
static OpFoldResult foldUnary(Operation *op, Attribute operand) {
  auto result = getTypedResultKind(op);
  std::optional<TypedTensor> x = readTypedTensor(operand);
  if (!result || !x || x->getType() != result->first)
    return {};
  std::optional<TypedTensor> folded =
      dispatchKind(x->getKind(), [&](auto t) -> std::optional<TypedTensor> {
        using T = decltype(t);
        if constexpr (kindMatches<T>(Fn::cls)) {
          return mapElements<T, T>(*x, result->first, result->second, [&](T v) {
            return narrow<T>(Fn::apply(op, widen(v)));
          });
        } else {
          return std::nullopt;
        }
      });
  if (!folded)
    return {};
  return folded->toAttr();
}

template <typename Fn>
static OpFoldResult foldBinary(Operation *op, Attribute lhsAttr,
                               Attribute rhsAttr) {
  auto result = getTypedResultKind(op);
  std::optional<TypedTensor> lhs = readTypedTensor(lhsAttr);
  std::optional<TypedTensor> rhs = readTypedTensor(rhsAttr);
  if (!result || !lhs || !rhs || lhs->getKind() != rhs->getKind() ||
      lhs->getKind() != result->second)
    return {};
  std::optional<SmallVector<int64_t>> shape =
      reference::broadcastShapes(lhs->getShape(), rhs->getShape());
  if (!shape || ArrayRef<int64_t>(*shape) != result->first.getShape())
    return {};
  if (!(lhs->isSplat() && rhs->isSplat()) &&
      !withinFoldLimits(result->first.getNumElements()))
    return {};
  std::optional<TypedTensor> folded =
      dispatchKind(lhs->getKind(), [&](auto t) -> std::optional<TypedTensor> {
        using T = decltype(t);
        if constexpr (kindMatches<T>(Fn::cls)) {
          return broadcastElements<T, T, T>(
              *lhs, *rhs, result->first, result->second, [&](T a, T b) {
                return narrow<T>(Fn::apply(op, widen(a), widen(b)));
              });
        } else {
          return std::nullopt;
        }
      });
  if (!folded)
    return {};
  return folded->toAttr();
}

template <typename Fn>
static OpFoldResult foldCompare(Operation *op, Attribute lhsAttr,
                                Attribute rhsAttr) {
  auto result = getTypedResultKind(op);
  std::optional<TypedTensor> lhs = readTypedTensor(lhsAttr);
  std::optional<TypedTensor> rhs = readTypedTensor(rhsAttr);
  if (!result || result->second != ElementKind::Bool || !lhs || !rhs ||
      lhs->getKind() != rhs->getKind())
    return {};
  std::optional<SmallVector<int64_t>> shape =
      reference::broadcastShapes(lhs->getShape(), rhs->getShape());
  if (!shape || ArrayRef<int64_t>(*shape) != result->first.getShape())
    return {};
  if (!(lhs->isSplat() && rhs->isSplat()) &&
      !withinFoldLimits(result->first.getNumElements()))
    return {};
  std::optional<TypedTensor> folded =
      dispatchKind(lhs->getKind(), [&](auto t) -> std::optional<TypedTensor> {
        using T = decltype(t);
        if constexpr (kindMatches<T>(Fn::cls)) {
          return broadcastElements<T, T, bool>(
              *lhs, *rhs, result->first, ElementKind::Bool,
              [&](T a, T b) { return Fn::apply(widen(a), widen(b)); });
        } else {
          return std::nullopt;
        }
      });
  if (!folded)
    return {};
  return folded->toAttr();
}

//===----------------------------------------------------------------------===//
// Unary ops and activations
//===----------------------------------------------------------------------===//

#define GRAPH_UNARY_OP(OP, FN)                                                 \
  LogicalResult OP::verify() { return verifyUnary(*this, FN::cls); }           \
  OpFoldResult OP::fold(FoldAdaptor adaptor) {                                 \
    return foldUnary<FN>(*this, adaptor.getX());                               \
  }

GRAPH_UNARY_OP(NegOp, NegFn)
GRAPH_UNARY_OP(AbsOp, AbsFn)
GRAPH_UNARY_OP(SignOp, SignFn)
GRAPH_UNARY_OP(ReciprocalOp, ReciprocalFn)
GRAPH_UNARY_OP(ExpOp, ExpFn)
GRAPH_UNARY_OP(LogOp, LogFn)
GRAPH_UNARY_OP(SqrtOp, SqrtFn)
GRAPH_UNARY_OP(ErfOp, ErfFn)
GRAPH_UNARY_OP(FloorOp, FloorFn)
GRAPH_UNARY_OP(CeilOp, CeilFn)
GRAPH_UNARY_OP(RoundOp, RoundFn)
GRAPH_UNARY_OP(SinOp, SinFn)
GRAPH_UNARY_OP(CosOp, CosFn)
GRAPH_UNARY_OP(TanOp, TanFn)
GRAPH_UNARY_OP(AsinOp, AsinFn)
GRAPH_UNARY_OP(AcosOp, AcosFn)
GRAPH_UNARY_OP(AtanOp, AtanFn)
GRAPH_UNARY_OP(SinhOp, SinhFn)
GRAPH_UNARY_OP(CoshOp, CoshFn)
GRAPH_UNARY_OP(AsinhOp, AsinhFn)
GRAPH_UNARY_OP(AcoshOp, AcoshFn)
GRAPH_UNARY_OP(AtanhOp, AtanhFn)
GRAPH_UNARY_OP(SoftplusOp, SoftplusFn)
GRAPH_UNARY_OP(NotOp, NotFn)
GRAPH_UNARY_OP(LeakyReluOp, LeakyReluFn)
GRAPH_UNARY_OP(EluOp, EluFn)
GRAPH_UNARY_OP(SeluOp, SeluFn)
GRAPH_UNARY_OP(HardSigmoidOp, HardSigmoidFn)
GRAPH_UNARY_OP(HardSwishOp, HardSwishFn)
GRAPH_UNARY_OP(GeluOp, GeluFn)
#undef GRAPH_UNARY_OP

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

#define GRAPH_BINARY_OP(OP, FN)                                                \
  LogicalResult OP::verify() { return verifyBinary(*this, FN::cls); }          \
  OpFoldResult OP::fold(FoldAdaptor adaptor) {                                 \
    return foldBinary<FN>(*this, adaptor.getLhs(), adaptor.getRhs());          \
  }

GRAPH_BINARY_OP(PowOp, PowFn)
GRAPH_BINARY_OP(MinOp, MinFn)
GRAPH_BINARY_OP(MaxOp, MaxFn)
GRAPH_BINARY_OP(AndOp, AndFn)
GRAPH_BINARY_OP(OrOp, OrFn)
GRAPH_BINARY_OP(XorOp, XorFn)
GRAPH_BINARY_OP(BitShiftOp, BitShiftFn)
#undef GRAPH_BINARY_OP

LogicalResult ModOp::verify() {
  if (failed(verifyBinary(*this, ModFn::cls)))
    return failure();
  ElementKind kind = *getElementKind(
      cast<RankedTensorType>(getLhs().getType()).getElementType());
  if (!getFmod() && isFloatKind(kind))
    return emitOpError() << "floats need attribute 'fmod' (the remainder "
                            "with the sign of the divisor is for integers)";
  return success();
}

OpFoldResult ModOp::fold(FoldAdaptor adaptor) {
  return foldBinary<ModFn>(*this, adaptor.getLhs(), adaptor.getRhs());
}

LogicalResult PReluOp::verify() {
  if (failed(verifyBinary(*this, PReluFn::cls)))
    return failure();
  // The slope broadcasts to x, not x to the slope.
  if (getDims(getOutput()) != getDims(getLhs()))
    return emitOpError() << "operand 'rhs' (the slope) of shape "
                         << formatDims(getDims(getRhs()))
                         << " must broadcast to operand 'lhs' of shape "
                         << formatDims(getDims(getLhs()));
  return success();
}

OpFoldResult PReluOp::fold(FoldAdaptor adaptor) {
  return foldBinary<PReluFn>(*this, adaptor.getLhs(), adaptor.getRhs());
}

#define GRAPH_COMPARE_OP(OP, FN)                                               \
  LogicalResult OP::verify() {                                                 \
    return verifyBinary(*this, FN::cls, /*boolResult=*/true);                  \
  }                                                                            \
  OpFoldResult OP::fold(FoldAdaptor adaptor) {                                 \
    return foldCompare<FN>(*this, adaptor.getLhs(), adaptor.getRhs());         \
  }

GRAPH_COMPARE_OP(EqualOp, EqualFn)
GRAPH_COMPARE_OP(LessOp, LessFn)
GRAPH_COMPARE_OP(LessEqualOp, LessEqualFn)
GRAPH_COMPARE_OP(GreaterOp, GreaterFn)
GRAPH_COMPARE_OP(GreaterEqualOp, GreaterEqualFn)
#undef GRAPH_COMPARE_OP

//===----------------------------------------------------------------------===//
// add, sub, mul, div beyond f32 (called by GraphFolds.cpp)
//===----------------------------------------------------------------------===//

OpFoldResult mlir::graph::foldTypedArithmetic(reference::BinaryKind kind,
                                              Attribute lhsAttr,
                                              Attribute rhsAttr,
                                              Type resultType) {
  auto type = dyn_cast<RankedTensorType>(resultType);
  std::optional<TypedTensor> lhs = readTypedTensor(lhsAttr);
  std::optional<TypedTensor> rhs = readTypedTensor(rhsAttr);
  if (!type || !type.hasStaticShape() || !lhs || !rhs ||
      lhs->getType().getElementType() != type.getElementType() ||
      rhs->getType().getElementType() != type.getElementType())
    return {};
  std::optional<SmallVector<int64_t>> shape =
      reference::broadcastShapes(lhs->getShape(), rhs->getShape());
  if (!shape || ArrayRef<int64_t>(*shape) != type.getShape())
    return {};
  if (!(lhs->isSplat() && rhs->isSplat()) &&
      !withinFoldLimits(type.getNumElements()))
    return {};
  std::optional<TypedTensor> folded =
      dispatchKind(lhs->getKind(), [&](auto t) -> std::optional<TypedTensor> {
        using T = decltype(t);
        using C = ComputeType<T>;
        if constexpr (std::is_same_v<T, bool>) {
          return std::nullopt;
        } else {
          return broadcastElements<T, T, T>(
              *lhs, *rhs, type, lhs->getKind(), [&](T a, T b) {
                C x = widen(a), y = widen(b);
                C r;
                if constexpr (isFloatCompute<C>) {
                  r = kind == reference::BinaryKind::Add   ? x + y
                      : kind == reference::BinaryKind::Sub ? x - y
                      : kind == reference::BinaryKind::Mul ? x * y
                                                           : x / y;
                } else {
                  r = kind == reference::BinaryKind::Add   ? wrapAdd(x, y)
                      : kind == reference::BinaryKind::Sub ? wrapSub(x, y)
                      : kind == reference::BinaryKind::Mul ? wrapMul(x, y)
                                                           : divInt(x, y);
                }
                return narrow<T>(r);
              });
        }
      });
  if (!folded)
    return {};
  return folded->toAttr();
}
