//===- QuantOps.cpp - graph.quantize and graph.dequantize ---------*- C++
//-*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Verifiers and fold hooks of the quantization ops of GraphQuantOps.td (the
// integer contractions are with the other contractions in NNOps.cpp). The
// folds compute as the lowering does (TypedElementwiseToLinalg.cpp): in the
// compute type of the float operand, rounding half to even.
//
//===----------------------------------------------------------------------===//

#include "VerifyUtils.h"

#include "graph/Dialect/Graph/IR/FoldLimits.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/TypedTensor.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::graph;

/// The integer types a quantized tensor holds.
static bool isQuantizedKind(ElementKind kind) {
  return kind == ElementKind::I8 || kind == ElementKind::U8 ||
         kind == ElementKind::I16 || kind == ElementKind::U16;
}

static std::optional<ElementKind> getKindOf(Value value) {
  return getElementKind(cast<ShapedType>(value.getType()).getElementType());
}

/// The checks both ops share: `scale` a float tensor of `floatType` and the
/// zero point of the integer operand's type, both broadcasting onto `x`'s
/// shape, the result of `x`'s shape.
static LogicalResult verifyAffineParameters(Operation *op, Value x, Value scale,
                                            Value zeroPoint, Value integer,
                                            StringRef name) {
  if (failed(checkTensorOf(op, scale, "operand 'scale'", TypeClass::Float)) ||
      failed(checkSameElementType(op, integer, name, zeroPoint,
                                  "operand 'zero_point'")))
    return failure();
  ArrayRef<int64_t> shape = getDims(x);
  if (failed(checkBroadcastsOnto(op, scale, "operand 'scale'", shape)) ||
      failed(checkBroadcastsOnto(op, zeroPoint, "operand 'zero_point'", shape)))
    return failure();
  return checkResultDims(op, shape);
}

/// The constant operands of a quantization op whose result is `type`, and
/// for each element of the result the index of its scale and zero point.
struct AffineConstants {
  TypedTensor x, scale, zeroPoint;
  SmallVector<int64_t> scaleIndex, zeroIndex;
};

/// AffineConstants of `x`, `scale` and `zeroPoint` when all three are
/// constants and the fold is within the limits; nothing otherwise.
static std::optional<AffineConstants> readAffineConstants(RankedTensorType type,
                                                          Attribute x,
                                                          Attribute scale,
                                                          Attribute zeroPoint) {
  std::optional<TypedTensor> xTensor = readTypedTensor(x);
  std::optional<TypedTensor> scaleTensor = readTypedTensor(scale);
  std::optional<TypedTensor> zeroTensor = readTypedTensor(zeroPoint);
  if (!xTensor || !scaleTensor || !zeroTensor ||
      !withinFoldLimits(type.getNumElements()))
    return std::nullopt;
  SmallVector<int64_t> scaleIndex =
      broadcastSourceIndices(scaleTensor->getShape(), type.getShape());
  SmallVector<int64_t> zeroIndex =
      broadcastSourceIndices(zeroTensor->getShape(), type.getShape());
  return AffineConstants{std::move(*xTensor), std::move(*scaleTensor),
                         std::move(*zeroTensor), std::move(scaleIndex),
                         std::move(zeroIndex)};
}

//===----------------------------------------------------------------------===//
// graph.quantize
//===----------------------------------------------------------------------===//

LogicalResult QuantizeOp::verify() {
  if (failed(checkTensorOf(*this, getX(), "operand 'x'", TypeClass::Float)) ||
      failed(checkSameElementType(*this, getX(), "operand 'x'", getScale(),
                                  "operand 'scale'")))
    return failure();
  std::optional<ElementKind> kind = getKindOf(getOutput());
  if (!kind || !isQuantizedKind(*kind))
    return emitOpError() << "result 'output' must be a tensor of i8, ui8, "
                            "i16 or ui16, but got "
                         << getOutput().getType();
  return verifyAffineParameters(*this, getX(), getScale(), getZeroPoint(),
                                getOutput(), "result 'output'");
}

/// round(x / scale) + zero point, saturated to Q; NaN gives Q's lowest.
template <typename Q, typename C>
static Q quantizeElement(C x, C scale, C zeroPoint) {
  C value = std::nearbyint(x / scale) + zeroPoint;
  value = std::fmax(value, C(std::numeric_limits<Q>::lowest()));
  value = std::fmin(value, C(std::numeric_limits<Q>::max()));
  return static_cast<Q>(value);
}

OpFoldResult QuantizeOp::fold(FoldAdaptor adaptor) {
  auto type = dyn_cast<RankedTensorType>(getType());
  std::optional<ElementKind> kind = getKindOf(getOutput());
  if (!type || !kind || failed(verify()))
    return {};
  std::optional<AffineConstants> constants = readAffineConstants(
      type, adaptor.getX(), adaptor.getScale(), adaptor.getZeroPoint());
  if (!constants)
    return {};
  const TypedTensor *x = &constants->x, *scale = &constants->scale,
                    *zeroPoint = &constants->zeroPoint;
  ArrayRef<int64_t> scaleIndex = constants->scaleIndex,
                    zeroIndex = constants->zeroIndex;
  TypedTensor out = TypedTensor::zeros(type);
  dispatchKind(x->getKind(), [&](auto xt) {
    using X = decltype(xt);
    using C = ComputeType<X>;
    dispatchKind(*kind, [&](auto qt) {
      using Q = decltype(qt);
      if constexpr (isFloatStorage<X> && std::is_integral_v<Q> &&
                    !std::is_same_v<Q, bool>) {
        for (int64_t i = 0, e = type.getNumElements(); i < e; ++i)
          out.set<Q>(i,
                     quantizeElement<Q, C>(widen(x->get<X>(i)),
                                           widen(scale->get<X>(scaleIndex[i])),
                                           C(zeroPoint->get<Q>(zeroIndex[i]))));
      }
    });
  });
  return out.toAttr();
}

//===----------------------------------------------------------------------===//
// graph.fake_quantize
//===----------------------------------------------------------------------===//

LogicalResult FakeQuantizeOp::verify() {
  if (failed(checkTensorOf(*this, getX(), "operand 'x'", TypeClass::Float)) ||
      failed(checkSameElementType(*this, getX(), "operand 'x'", getScale(),
                                  "operand 'scale'")) ||
      failed(checkSameElementType(*this, getX(), "operand 'x'", getOutput(),
                                  "result 'output'")))
    return failure();
  std::optional<ElementKind> kind = getKindOf(getZeroPoint());
  if (!kind || !isQuantizedKind(*kind))
    return emitOpError() << "operand 'zero_point' must be a tensor of i8, "
                            "ui8, i16 or ui16, but got "
                         << getZeroPoint().getType();
  return verifyAffineParameters(*this, getX(), getScale(), getZeroPoint(),
                                getZeroPoint(), "operand 'zero_point'");
}

OpFoldResult FakeQuantizeOp::fold(FoldAdaptor adaptor) {
  auto type = dyn_cast<RankedTensorType>(getType());
  if (!type || failed(verify()))
    return {};
  std::optional<AffineConstants> constants = readAffineConstants(
      type, adaptor.getX(), adaptor.getScale(), adaptor.getZeroPoint());
  if (!constants)
    return {};
  const TypedTensor *x = &constants->x, *scale = &constants->scale,
                    *zeroPoint = &constants->zeroPoint;
  ArrayRef<int64_t> scaleIndex = constants->scaleIndex,
                    zeroIndex = constants->zeroIndex;
  TypedTensor out = TypedTensor::zeros(type);
  dispatchKind(x->getKind(), [&](auto xt) {
    using X = decltype(xt);
    using C = ComputeType<X>;
    dispatchKind(zeroPoint->getKind(), [&](auto qt) {
      using Q = decltype(qt);
      if constexpr (isFloatStorage<X> && std::is_integral_v<Q> &&
                    !std::is_same_v<Q, bool>) {
        for (int64_t i = 0, e = type.getNumElements(); i < e; ++i) {
          C s = widen(scale->get<X>(scaleIndex[i]));
          C z = C(zeroPoint->get<Q>(zeroIndex[i]));
          Q q = quantizeElement<Q, C>(widen(x->get<X>(i)), s, z);
          out.set<X>(i, narrow<X>((C(q) - z) * s));
        }
      }
    });
  });
  return out.toAttr();
}

//===----------------------------------------------------------------------===//
// graph.dequantize
//===----------------------------------------------------------------------===//

LogicalResult DequantizeOp::verify() {
  std::optional<ElementKind> kind = getKindOf(getX());
  if (!kind || !(isQuantizedKind(*kind) || *kind == ElementKind::I32))
    return emitOpError() << "operand 'x' must be a tensor of i8, ui8, i16, "
                            "ui16 or i32, but got "
                         << getX().getType();
  if (failed(checkSameElementType(*this, getScale(), "operand 'scale'",
                                  getOutput(), "result 'output'")))
    return failure();
  return verifyAffineParameters(*this, getX(), getScale(), getZeroPoint(),
                                getX(), "operand 'x'");
}

OpFoldResult DequantizeOp::fold(FoldAdaptor adaptor) {
  auto type = dyn_cast<RankedTensorType>(getType());
  if (!type || failed(verify()))
    return {};
  std::optional<AffineConstants> constants = readAffineConstants(
      type, adaptor.getX(), adaptor.getScale(), adaptor.getZeroPoint());
  if (!constants)
    return {};
  const TypedTensor *x = &constants->x, *scale = &constants->scale,
                    *zeroPoint = &constants->zeroPoint;
  ArrayRef<int64_t> scaleIndex = constants->scaleIndex,
                    zeroIndex = constants->zeroIndex;
  TypedTensor out = TypedTensor::zeros(type);
  dispatchKind(scale->getKind(), [&](auto st) {
    using S = decltype(st);
    using C = ComputeType<S>;
    dispatchKind(x->getKind(), [&](auto qt) {
      using Q = decltype(qt);
      if constexpr (isFloatStorage<S> && std::is_integral_v<Q> &&
                    !std::is_same_v<Q, bool>) {
        for (int64_t i = 0, e = type.getNumElements(); i < e; ++i) {
          C value = (C(x->get<Q>(i)) - C(zeroPoint->get<Q>(zeroIndex[i]))) *
                    widen(scale->get<S>(scaleIndex[i]));
          out.set<S>(i, narrow<S>(value));
        }
      }
    });
  });
  return out.toAttr();
}
