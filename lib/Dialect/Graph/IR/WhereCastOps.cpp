//===- WhereCastOps.cpp - graph.where and graph.cast ----------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Verifiers and fold hooks of the two elementwise ops that change no value
// by arithmetic: where selects, cast converts (with the lowering's
// saturation and rounding).
//
//===----------------------------------------------------------------------===//

#include "TypedFolds.h"
#include "VerifyUtils.h"

#include "graph/Dialect/Graph/IR/FoldLimits.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/ReferenceKernels.h"
#include "graph/Dialect/Graph/IR/TypedTensor.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::graph;

//===----------------------------------------------------------------------===//
// graph.where
//===----------------------------------------------------------------------===//

LogicalResult WhereOp::verify() {
  if (failed(checkTensorOf(*this, getCondition(), "operand 'condition'",
                           TypeClass::Bool)) ||
      failed(checkTensorOf(*this, getX(), "operand 'x'", TypeClass::Any)) ||
      failed(checkTensorOf(*this, getY(), "operand 'y'", TypeClass::Any)) ||
      failed(checkTensorOf(*this, getOutput(), "result 'output'",
                           TypeClass::Any)) ||
      failed(checkSameElementType(*this, getX(), "operand 'x'", getY(),
                                  "operand 'y'")) ||
      failed(checkSameElementType(*this, getX(), "operand 'x'", getOutput(),
                                  "result 'output'")))
    return failure();
  FailureOr<SmallVector<int64_t>> shape =
      broadcastOperands(*this, {"condition", "x", "y"});
  return failed(shape) ? failure() : checkResultDims(*this, *shape);
}

OpFoldResult WhereOp::fold(FoldAdaptor adaptor) {
  auto result = getTypedResultKind(*this);
  std::optional<TypedTensor> cond = readTypedTensor(adaptor.getCondition());
  std::optional<TypedTensor> x = readTypedTensor(adaptor.getX());
  std::optional<TypedTensor> y = readTypedTensor(adaptor.getY());
  if (!result || !cond || !x || !y || cond->getKind() != ElementKind::Bool ||
      x->getKind() != result->second || y->getKind() != result->second)
    return {};
  ArrayRef<int64_t> outShape = result->first.getShape();
  for (const TypedTensor *t : {&*cond, &*x, &*y})
    if (!reference::broadcastsTo(t->getShape(), outShape))
      return {};
  // A constant condition of one value selects an operand, if it keeps the
  // shape.
  if (cond->isSplat()) {
    const TypedTensor &chosen = cond->get<bool>(0) ? *x : *y;
    if (chosen.getShape() == outShape)
      return chosen.toAttr();
  }
  if (!withinFoldLimits(result->first.getNumElements()))
    return {};
  SmallVector<int64_t> ci = broadcastSourceIndices(cond->getShape(), outShape);
  SmallVector<int64_t> xi = broadcastSourceIndices(x->getShape(), outShape);
  SmallVector<int64_t> yi = broadcastSourceIndices(y->getShape(), outShape);
  unsigned width = x->getElementBytes();
  std::vector<char> bytes(ci.size() * width);
  ArrayRef<char> xb = x->getBytes(), yb = y->getBytes();
  for (size_t i = 0; i < ci.size(); ++i) {
    bool pick = cond->get<bool>(ci[i]);
    const char *src = pick ? xb.data() + (x->isSplat() ? 0 : xi[i]) * width
                           : yb.data() + (y->isSplat() ? 0 : yi[i]) * width;
    std::memcpy(bytes.data() + i * width, src, width);
  }
  return TypedTensor(result->first, result->second, false, std::move(bytes))
      .toAttr();
}

//===----------------------------------------------------------------------===//
// graph.cast
//===----------------------------------------------------------------------===//

LogicalResult CastOp::verify() {
  if (failed(checkTensorOf(*this, getX(), "operand 'x'", TypeClass::Any)) ||
      failed(
          checkTensorOf(*this, getOutput(), "result 'output'", TypeClass::Any)))
    return failure();
  return checkResultDims(*this, getDims(getX()));
}

/// Converts one element from In to Out as the lowering does (see the op's
/// description): through the compute types, float to integer saturating with
/// NaN to 0, and floats to floats rounded once.
template <typename In, typename Out> static Out castElement(In value) {
  if constexpr (std::is_same_v<In, Out>) {
    return value;
  } else if constexpr (std::is_same_v<Out, bool>) {
    return widen(value) != 0;
  } else if constexpr (isFloatStorage<In> && isFloatStorage<Out>) {
    // One rounding from the wider source: f64 -> f16 does not go through
    // f32.
    if constexpr (std::is_same_v<In, double> && std::is_same_v<Out, Half>)
      return toHalf(value);
    else if constexpr (std::is_same_v<In, double> &&
                       std::is_same_v<Out, BFloat16>)
      return toBFloat16(value);
    else
      return narrow<Out>(static_cast<ComputeType<Out>>(widen(value)));
  } else if constexpr (isFloatStorage<In>) {
    // Float to integer: truncate, saturate, NaN to 0.
    double v = double(widen(value));
    if (std::isnan(v))
      return 0;
    // 2^bits (or 2^(bits-1)) is exact in every float type.
    constexpr double half = double(uint64_t(1) << (sizeof(Out) * 8 - 1));
    constexpr double limit = std::is_signed_v<Out> ? half : 2.0 * half;
    if (v >= limit)
      return std::numeric_limits<Out>::max();
    if constexpr (std::is_signed_v<Out>) {
      if (v < -limit)
        return std::numeric_limits<Out>::min();
    } else {
      if (v <= -1.0)
        return 0;
    }
    return static_cast<Out>(widen(value));
  } else if constexpr (isFloatStorage<Out>) {
    // Integer (or bool) to float: one rounding into the compute type, as
    // sitofp/uitofp into f32 or f64; f16 and bf16 round again from f32.
    return narrow<Out>(static_cast<ComputeType<Out>>(value));
  } else {
    // Integer to integer: wrap (signed sources sign-extend).
    return static_cast<Out>(value);
  }
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  auto result = getTypedResultKind(*this);
  std::optional<TypedTensor> x = readTypedTensor(adaptor.getX());
  if (!result || !x || x->getShape() != result->first.getShape())
    return {};
  if (getX().getType() == getType())
    return getX();
  TypedTensor folded = dispatchKind(x->getKind(), [&](auto in) {
    using In = decltype(in);
    return dispatchKind(result->second, [&](auto out) {
      using Out = decltype(out);
      return mapElements<In, Out>(*x, result->first, result->second,
                                  castElement<In, Out>);
    });
  });
  return folded.toAttr();
}
