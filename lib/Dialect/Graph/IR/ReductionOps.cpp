//===- ReductionOps.cpp - Reductions and scans ------------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Verifiers and fold hooks of GraphReductionOps.td. The folds combine the
// elements in row-major order, the order of the lowering's loops.
//
//===----------------------------------------------------------------------===//

#include "ScalarKernels.h"
#include "VerifyUtils.h"

#include "graph/Dialect/Graph/IR/FoldLimits.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/TypedKernels.h"
#include "graph/Dialect/Graph/IR/TypedTensor.h"
#include "graph/Support/ApproximateMath.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::scalar;
namespace ref = mlir::graph::reference;

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

//===----------------------------------------------------------------------===//
// Reductions over axes
//===----------------------------------------------------------------------===//

/// The normalized axes of a reduction and its result shape, or an error.
static FailureOr<SmallVector<int64_t>>
verifyReduceShape(Operation *op, ArrayRef<int64_t> axes, bool keepdims,
                  SmallVectorImpl<bool> *reducedOut = nullptr) {
  ArrayRef<int64_t> in = getDims(op->getOperand(0));
  int64_t rank = in.size();
  SmallVector<bool> reduced(rank, false);
  for (int64_t axis : axes) {
    FailureOr<int64_t> d = checkAxisIn(op, "axes", axis, rank);
    if (failed(d))
      return failure();
    if (reduced[*d])
      return op->emitOpError()
             << "attribute 'axes' names dimension " << *d << " twice";
    reduced[*d] = true;
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced[d])
      shape.push_back(in[d]);
    else if (keepdims)
      shape.push_back(1);
  }
  if (reducedOut)
    reducedOut->assign(reduced.begin(), reduced.end());
  return shape;
}

template <typename OpTy>
static LogicalResult verifyReduce(OpTy op, TypeClass cls) {
  if (failed(checkTensorOf(op, op.getX(), "operand 'x'", cls)) ||
      failed(checkTensorOf(op, op.getOutput(), "result 'output'", cls)) ||
      failed(checkSameElementType(op, op.getX(), "operand 'x'", op.getOutput(),
                                  "result 'output'")))
    return failure();
  FailureOr<SmallVector<int64_t>> shape =
      verifyReduceShape(op, op.getAxes(), op.getKeepdims());
  return failed(shape) ? failure() : checkResultDims(op, *shape);
}

namespace {
enum class ReduceKind { Sum, Mean, Max, Min, Prod };
} // namespace

/// The initial accumulator of a reduction.
template <typename C> static C reduceInit(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    return C(0);
  case ReduceKind::Prod:
    return C(1);
  case ReduceKind::Max:
    if constexpr (isFloatCompute<C>)
      return -std::numeric_limits<C>::infinity();
    else
      return std::numeric_limits<C>::lowest();
  case ReduceKind::Min:
    if constexpr (isFloatCompute<C>)
      return std::numeric_limits<C>::infinity();
    else
      return std::numeric_limits<C>::max();
  }
  return C(0);
}

template <typename C> static C reduceCombine(ReduceKind kind, C acc, C value) {
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    if constexpr (isFloatCompute<C>)
      return acc + value;
    else
      return wrapAdd(acc, value);
  case ReduceKind::Prod:
    if constexpr (isFloatCompute<C>)
      return acc * value;
    else
      return wrapMul(acc, value);
  case ReduceKind::Max:
    if constexpr (isFloatCompute<C>)
      return maximumF(acc, value);
    else
      return acc > value ? acc : value;
  case ReduceKind::Min:
    if constexpr (isFloatCompute<C>)
      return minimumF(acc, value);
    else
      return acc < value ? acc : value;
  }
  return acc;
}

template <typename OpTy>
static OpFoldResult foldReduce(OpTy op, Attribute operand, ReduceKind kind) {
  auto type = dyn_cast<RankedTensorType>(op.getType());
  std::optional<TypedTensor> x = readTypedTensor(operand);
  if (!type || !x || failed(op.verify()))
    return {};
  // One step per input element, the result written once.
  if (!withinFoldLimits({type.getNumElements()}, x->getNumElements()))
    return {};
  SmallVector<bool> reduced;
  if (failed(verifyReduceShape(op, op.getAxes(), op.getKeepdims(), &reduced)))
    return {};
  ArrayRef<int64_t> in = x->getShape();
  // The output position of each input element: its index with the reduced
  // dimensions dropped.
  SmallVector<int64_t> outDims, outStrides;
  for (size_t d = 0; d < in.size(); ++d)
    if (!reduced[d])
      outDims.push_back(in[d]);
  outStrides = ref::rowMajorStrides(outDims);
  int64_t count = 1;
  for (size_t d = 0; d < in.size(); ++d)
    if (reduced[d])
      count *= in[d];

  std::optional<TypedTensor> folded =
      dispatchKind(x->getKind(), [&](auto t) -> std::optional<TypedTensor> {
        using T = decltype(t);
        using C = ComputeType<T>;
        if constexpr (std::is_same_v<T, bool>) {
          return std::nullopt;
        } else {
          if (kind == ReduceKind::Mean && !isFloatCompute<C>)
            return std::nullopt;
          SmallVector<C> acc(type.getNumElements(), reduceInit<C>(kind));
          int64_t i = 0;
          ref::forEachIndex(in, [&](ArrayRef<int64_t> index) {
            int64_t position = 0, k = 0;
            for (size_t d = 0; d < index.size(); ++d)
              if (!reduced[d])
                position += index[d] * outStrides[k++];
            // Rounded as stored after each step, as the lowering's
            // accumulator tensor.
            acc[position] = widen(narrow<T>(
                reduceCombine<C>(kind, acc[position], widen(x->get<T>(i++)))));
          });
          TypedTensor out = TypedTensor::zeros(type);
          for (size_t j = 0; j < acc.size(); ++j) {
            C value = acc[j];
            if (kind == ReduceKind::Mean)
              value = value / C(count);
            out.set<T>(j, narrow<T>(value));
          }
          return out;
        }
      });
  if (!folded)
    return {};
  return folded->toAttr();
}

LogicalResult ReduceSumOp::verify() {
  return verifyReduce(*this, TypeClass::Numeric);
}
LogicalResult ReduceMeanOp::verify() {
  return verifyReduce(*this, TypeClass::Float);
}
LogicalResult ReduceMaxOp::verify() {
  return verifyReduce(*this, TypeClass::Numeric);
}
LogicalResult ReduceMinOp::verify() {
  return verifyReduce(*this, TypeClass::Numeric);
}
LogicalResult ReduceProdOp::verify() {
  return verifyReduce(*this, TypeClass::Numeric);
}

OpFoldResult ReduceSumOp::fold(FoldAdaptor adaptor) {
  return foldReduce(*this, adaptor.getX(), ReduceKind::Sum);
}
OpFoldResult ReduceMeanOp::fold(FoldAdaptor adaptor) {
  return foldReduce(*this, adaptor.getX(), ReduceKind::Mean);
}
OpFoldResult ReduceMaxOp::fold(FoldAdaptor adaptor) {
  return foldReduce(*this, adaptor.getX(), ReduceKind::Max);
}
OpFoldResult ReduceMinOp::fold(FoldAdaptor adaptor) {
  return foldReduce(*this, adaptor.getX(), ReduceKind::Min);
}
OpFoldResult ReduceProdOp::fold(FoldAdaptor adaptor) {
  return foldReduce(*this, adaptor.getX(), ReduceKind::Prod);
}

//===----------------------------------------------------------------------===//
// graph.argmax, graph.argmin
//===----------------------------------------------------------------------===//

template <typename OpTy> static LogicalResult verifyArgReduce(OpTy op) {
  if (failed(checkTensorOf(op, op.getX(), "operand 'x'", TypeClass::Numeric)))
    return failure();
  auto resultType = cast<RankedTensorType>(op.getOutput().getType());
  if (!resultType.getElementType().isSignlessInteger(64) ||
      !resultType.hasStaticShape())
    return op.emitOpError() << "result 'output' must be a statically shaped "
                               "tensor of i64, but got "
                            << resultType;
  ArrayRef<int64_t> in = getDims(op.getX());
  if (in.empty())
    return op.emitOpError() << "operand 'x' must have rank >= 1";
  FailureOr<int64_t> axis = checkAxisIn(op, "axis", op.getAxis(), in.size());
  if (failed(axis))
    return failure();
  if (in[*axis] == 0)
    return op.emitOpError() << "reduces an empty dimension";
  FailureOr<SmallVector<int64_t>> shape =
      verifyReduceShape(op, {*axis}, op.getKeepdims());
  return failed(shape) ? failure() : checkResultDims(op, *shape);
}

template <typename OpTy>
static OpFoldResult foldArgReduce(OpTy op, Attribute operand, bool isMax) {
  auto type = dyn_cast<RankedTensorType>(op.getType());
  std::optional<TypedTensor> x = readTypedTensor(operand);
  if (!type || !x || failed(verifyArgReduce(op)))
    return {};
  // One step per input element, the result written once.
  if (!withinFoldLimits({type.getNumElements()}, x->getNumElements()))
    return {};
  ArrayRef<int64_t> in = x->getShape();
  int64_t axis = normalizedAxis(op.getAxis(), in.size());
  int64_t outer = llvm::product_of(in.take_front(axis));
  int64_t size = in[axis];
  int64_t inner = llvm::product_of(in.drop_front(axis + 1));
  bool last = op.getSelectLastIndex();
  TypedTensor out = TypedTensor::zeros(type);
  std::optional<bool> ok =
      dispatchKind(x->getKind(), [&](auto t) -> std::optional<bool> {
        using T = decltype(t);
        using C = ComputeType<T>;
        if constexpr (std::is_same_v<T, bool>) {
          return std::nullopt;
        } else {
          for (int64_t o = 0; o < outer; ++o)
            for (int64_t n = 0; n < inner; ++n) {
              C best = reduceInit<C>(isMax ? ReduceKind::Max : ReduceKind::Min);
              int64_t bestIndex = 0;
              for (int64_t j = 0; j < size; ++j) {
                C v = widen(x->get<T>((o * size + j) * inner + n));
                bool better = isMax ? (last ? v >= best : v > best)
                                    : (last ? v <= best : v < best);
                // A NaN is the extreme: the first one, or with
                // select_last_index the last one.
                if constexpr (isFloatCompute<C>)
                  better =
                      better || (std::isnan(v) && (last || !std::isnan(best)));
                if (better) {
                  best = v;
                  bestIndex = j;
                }
              }
              out.set<int64_t>(o * inner + n, bestIndex);
            }
          return true;
        }
      });
  if (!ok)
    return {};
  return out.toAttr();
}

LogicalResult ArgMaxOp::verify() { return verifyArgReduce(*this); }
LogicalResult ArgMinOp::verify() { return verifyArgReduce(*this); }
OpFoldResult ArgMaxOp::fold(FoldAdaptor adaptor) {
  return foldArgReduce(*this, adaptor.getX(), /*isMax=*/true);
}
OpFoldResult ArgMinOp::fold(FoldAdaptor adaptor) {
  return foldArgReduce(*this, adaptor.getX(), /*isMax=*/false);
}

//===----------------------------------------------------------------------===//
// graph.cumsum
//===----------------------------------------------------------------------===//

LogicalResult CumSumOp::verify() {
  if (failed(checkTensorOf(*this, getX(), "operand 'x'", TypeClass::Numeric)))
    return failure();
  ArrayRef<int64_t> in = getDims(getX());
  if (in.empty())
    return emitOpError() << "operand 'x' must have rank >= 1";
  return checkAxisIn(*this, "axis", getAxis(), in.size());
}

OpFoldResult CumSumOp::fold(FoldAdaptor adaptor) {
  auto type = dyn_cast<RankedTensorType>(getType());
  std::optional<TypedTensor> x = readTypedTensor(adaptor.getX());
  if (!type || !x || failed(verify()))
    return {};
  // One step per input element, the result written once.
  if (!withinFoldLimits({type.getNumElements()}, x->getNumElements()))
    return {};
  ArrayRef<int64_t> in = x->getShape();
  int64_t axis = normalizedAxis(getAxis(), in.size());
  int64_t outer = llvm::product_of(in.take_front(axis));
  int64_t size = in[axis];
  int64_t inner = llvm::product_of(in.drop_front(axis + 1));
  bool exclusive = getExclusive(), reverse = getReverse();
  TypedTensor out = TypedTensor::zeros(type);
  std::optional<bool> ok =
      dispatchKind(x->getKind(), [&](auto t) -> std::optional<bool> {
        using T = decltype(t);
        using C = ComputeType<T>;
        if constexpr (std::is_same_v<T, bool>) {
          return std::nullopt;
        } else {
          for (int64_t o = 0; o < outer; ++o)
            for (int64_t n = 0; n < inner; ++n) {
              C acc = 0;
              for (int64_t s = 0; s < size; ++s) {
                int64_t j = reverse ? size - 1 - s : s;
                int64_t position = (o * size + j) * inner + n;
                C v = widen(x->get<T>(position));
                C next;
                if constexpr (isFloatCompute<C>)
                  next = acc + v;
                else
                  next = wrapAdd(acc, v);
                out.set<T>(position, narrow<T>(exclusive ? acc : next));
                // Rounded as stored, as the lowering's running sum is.
                acc = widen(narrow<T>(next));
              }
            }
          return true;
        }
      });
  if (!ok)
    return {};
  return out.toAttr();
}

//===----------------------------------------------------------------------===//
// graph.log_softmax
//===----------------------------------------------------------------------===//

LogicalResult LogSoftmaxOp::verify() {
  if (failed(checkTensorOf(*this, getX(), "operand 'x'", TypeClass::Float)))
    return failure();
  ArrayRef<int64_t> in = getDims(getX());
  if (in.empty())
    return emitOpError() << "operand 'x' must have rank >= 1";
  return checkAxisIn(*this, "axis", getAxis(), in.size());
}

OpFoldResult LogSoftmaxOp::fold(FoldAdaptor adaptor) {
  auto type = dyn_cast<RankedTensorType>(getType());
  std::optional<TypedTensor> x = readTypedTensor(adaptor.getX());
  if (!type || !x || failed(verify()))
    return {};
  // A few steps per input element, the result written once.
  if (!withinFoldLimits({type.getNumElements()},
                        checkedProduct({x->getNumElements(), int64_t(3)})))
    return {};
  ArrayRef<int64_t> in = x->getShape();
  int64_t axis = normalizedAxis(getAxis(), in.size());
  int64_t outer = llvm::product_of(in.take_front(axis));
  int64_t size = in[axis];
  int64_t inner = llvm::product_of(in.drop_front(axis + 1));
  TypedTensor out = TypedTensor::zeros(type);
  std::optional<bool> ok =
      dispatchKind(x->getKind(), [&](auto t) -> std::optional<bool> {
        using T = decltype(t);
        using C = ComputeType<T>;
        if constexpr (!isFloatStorage<T>) {
          return std::nullopt;
        } else {
          // Each step rounds to T, as the lowering's intermediate tensors.
          auto at = [&](int64_t o, int64_t j, int64_t n) {
            return (o * size + j) * inner + n;
          };
          for (int64_t o = 0; o < outer; ++o)
            for (int64_t n = 0; n < inner; ++n) {
              C max = -std::numeric_limits<C>::infinity();
              for (int64_t j = 0; j < size; ++j)
                max = widen(
                    narrow<T>(maximumF(max, widen(x->get<T>(at(o, j, n))))));
              C sum = 0;
              for (int64_t j = 0; j < size; ++j) {
                C shifted =
                    widen(narrow<T>(widen(x->get<T>(at(o, j, n))) - max));
                C e = widen(narrow<T>(kernelExp(shifted)));
                sum = widen(narrow<T>(sum + e));
              }
              C logSum = widen(narrow<T>(C(std::log(sum))));
              for (int64_t j = 0; j < size; ++j) {
                C shifted =
                    widen(narrow<T>(widen(x->get<T>(at(o, j, n))) - max));
                out.set<T>(at(o, j, n), narrow<T>(shifted - logSum));
              }
            }
          return true;
        }
      });
  if (!ok)
    return {};
  return out.toAttr();
}

//===----------------------------------------------------------------------===//
// graph.top_k
//===----------------------------------------------------------------------===//

/// What top_k and top_k_prefix share: numeric `x` of rank >= 1, `values` of
/// its element type, i64 `indices`, an axis of `x`. The normalized axis.
static FailureOr<int64_t> verifyTopKOperands(Operation *op, Value x,
                                             Value values, Value indices,
                                             int64_t axis) {
  if (failed(checkTensorOf(op, x, "operand 'x'", TypeClass::Numeric)) ||
      failed(checkSameElementType(op, x, "operand 'x'", values,
                                  "result 'values'")))
    return failure();
  auto indicesType = cast<RankedTensorType>(indices.getType());
  if (!indicesType.getElementType().isSignlessInteger(64))
    return op->emitOpError()
           << "result 'indices' must be a tensor of i64, but got "
           << indicesType;
  ArrayRef<int64_t> in = getDims(x);
  if (in.empty())
    return op->emitOpError() << "operand 'x' must have rank >= 1";
  return checkAxisIn(op, "axis", axis, in.size());
}

LogicalResult TopKOp::verify() {
  FailureOr<int64_t> axis =
      verifyTopKOperands(*this, getX(), getValues(), getIndices(), getAxis());
  if (failed(axis))
    return failure();
  ArrayRef<int64_t> in = getDims(getX());
  int64_t k = getK();
  if (k < 1 || k > in[*axis])
    return emitOpError() << "attribute 'k' (" << k << ") must be in [1, "
                         << in[*axis] << "], the size of axis " << *axis;
  SmallVector<int64_t> shape(in);
  shape[*axis] = k;
  if (getDims(getValues()) != ArrayRef<int64_t>(shape) ||
      getDims(getIndices()) != ArrayRef<int64_t>(shape))
    return emitOpError() << "results must have shape " << formatDims(shape);
  return success();
}

/// Whether `a` ranks before `b` in top_k's order (NaN above every number),
/// for the largest first or, with `smallest`, the smallest first.
template <typename C> static bool ranksBefore(C a, C b, bool smallest) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a) || std::isnan(b))
      return smallest ? !std::isnan(a) && std::isnan(b)
                      : std::isnan(a) && !std::isnan(b);
  }
  return smallest ? a < b : a > b;
}

/// top_k's order over the first `valid` elements of each row of `x` along
/// `axis`: the first `k` into `values` and `indices` (of `x`'s shape but
/// `kBound` along `axis`), the rest left as they are. False for bool or
/// beyond the fold limits.
static bool foldTopK(const TypedTensor &x, int64_t axis, bool smallest,
                     int64_t valid, int64_t k, int64_t kBound,
                     TypedTensor &values, TypedTensor &indices) {
  ArrayRef<int64_t> in = x.getShape();
  int64_t outer = llvm::product_of(in.take_front(axis));
  int64_t size = in[axis];
  int64_t inner = llvm::product_of(in.drop_front(axis + 1));
  // A sort of each row: size * log(size) steps per row.
  if (!withinFoldLimits({2 * values.getNumElements()},
                        x.getNumElements() * (1 + llvm::Log2_64_Ceil(size))))
    return false;
  return dispatchKind(x.getKind(), [&](auto t) {
    using T = decltype(t);
    using C = ComputeType<T>;
    if constexpr (std::is_same_v<T, bool>) {
      return false;
    } else {
      SmallVector<int64_t> order(valid);
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t n = 0; n < inner; ++n) {
          auto at = [&](int64_t j) {
            return widen(x.get<T>((o * size + j) * inner + n));
          };
          for (int64_t j = 0; j < valid; ++j)
            order[j] = j;
          std::stable_sort(order.begin(), order.end(),
                           [&](int64_t a, int64_t b) {
                             return ranksBefore<C>(at(a), at(b), smallest);
                           });
          for (int64_t j = 0; j < k; ++j) {
            int64_t position = (o * kBound + j) * inner + n;
            values.set<T>(position,
                          x.get<T>((o * size + order[j]) * inner + n));
            indices.set<int64_t>(position, order[j]);
          }
        }
      return true;
    }
  });
}

LogicalResult TopKOp::fold(FoldAdaptor adaptor,
                           SmallVectorImpl<OpFoldResult> &results) {
  auto valuesType = dyn_cast<RankedTensorType>(getValues().getType());
  auto indicesType = dyn_cast<RankedTensorType>(getIndices().getType());
  std::optional<TypedTensor> x = readTypedTensor(adaptor.getX());
  if (!valuesType || !indicesType || !x || failed(verify()))
    return failure();
  int64_t axis = normalizedAxis(getAxis(), x->getShape().size());
  TypedTensor values = TypedTensor::zeros(valuesType);
  TypedTensor indices = TypedTensor::zeros(indicesType);
  if (!foldTopK(*x, axis, getSmallest(), x->getShape()[axis], getK(), getK(),
                values, indices))
    return failure();
  results.push_back(values.toAttr());
  results.push_back(indices.toAttr());
  return success();
}

//===----------------------------------------------------------------------===//
// graph.top_k_prefix
//===----------------------------------------------------------------------===//

LogicalResult TopKPrefixOp::verify() {
  if (failed(verifyTopKOperands(*this, getX(), getValues(), getIndices(),
                                getAxis())))
    return failure();
  for (auto [value, what] : {std::pair(getValid(), "operand 'valid'"),
                             std::pair(getK(), "operand 'k'"),
                             std::pair(getCount(), "result 'count'")}) {
    auto type = cast<RankedTensorType>(value.getType());
    if (type.getRank() != 0 || !type.getElementType().isSignlessInteger(64))
      return emitOpError() << what
                           << " must be a tensor<i64> of rank 0, but got "
                           << type;
  }
  ArrayRef<int64_t> in = getDims(getX());
  if (getDims(getValues()) != in || getDims(getIndices()) != in)
    return emitOpError() << "results must have shape " << formatDims(in);
  return success();
}

LogicalResult TopKPrefixOp::fold(FoldAdaptor adaptor,
                                 SmallVectorImpl<OpFoldResult> &results) {
  auto valuesType = dyn_cast<RankedTensorType>(getValues().getType());
  auto indicesType = dyn_cast<RankedTensorType>(getIndices().getType());
  auto countType = dyn_cast<RankedTensorType>(getCount().getType());
  std::optional<TypedTensor> x = readTypedTensor(adaptor.getX());
  auto valid = dyn_cast_or_null<DenseIntElementsAttr>(adaptor.getValid());
  auto k = dyn_cast_or_null<DenseIntElementsAttr>(adaptor.getK());
  if (!valuesType || !indicesType || !countType || !x || !valid || !k ||
      failed(verify()))
    return failure();
  int64_t axis = normalizedAxis(getAxis(), x->getShape().size());
  int64_t size = x->getShape()[axis];
  int64_t prefix = std::clamp<int64_t>(
      (*valid.getValues<APInt>().begin()).getSExtValue(), 0, size);
  int64_t count = std::clamp<int64_t>(
      (*k.getValues<APInt>().begin()).getSExtValue(), 0, prefix);
  TypedTensor values = TypedTensor::zeros(valuesType);
  TypedTensor indices = TypedTensor::zeros(indicesType);
  if (!foldTopK(*x, axis, getSmallest(), prefix, count, size, values, indices))
    return failure();
  results.push_back(values.toAttr());
  results.push_back(indices.toAttr());
  results.push_back(DenseElementsAttr::get(countType, count));
  return success();
}

//===----------------------------------------------------------------------===//
// DetOp
//===----------------------------------------------------------------------===//

LogicalResult DetOp::verify() {
  if (failed(checkTensorOf(*this, getX(), "operand 'x'", TypeClass::Float)) ||
      failed(checkSameElementType(*this, getX(), "operand 'x'", getOutput(),
                                  "result 'output'")))
    return failure();
  ArrayRef<int64_t> in = getDims(getX());
  if (in.size() < 2 || in[in.size() - 1] != in[in.size() - 2])
    return emitOpError() << "operand 'x' must hold square matrices in its "
                            "last two dimensions, but its shape is ["
                         << in << "]";
  return checkResultDims(*this, in.drop_back(2));
}

/// The determinant of the n x n matrix `a` (row-major, overwritten): LU
/// factorization with partial pivoting, as DetOp's lowering computes it.
static double determinant(MutableArrayRef<double> a, int64_t n) {
  double det = 1;
  for (int64_t k = 0; k < n; ++k) {
    int64_t pivot = k;
    double best = std::fabs(a[k * n + k]);
    for (int64_t i = k + 1; i < n; ++i)
      if (std::fabs(a[i * n + k]) > best) {
        best = std::fabs(a[i * n + k]);
        pivot = i;
      }
    double p = a[pivot * n + k];
    if (p == 0)
      return 0;
    if (pivot != k) {
      for (int64_t j = 0; j < n; ++j)
        std::swap(a[k * n + j], a[pivot * n + j]);
      det = -det;
    }
    det *= p;
    for (int64_t i = k + 1; i < n; ++i) {
      double f = a[i * n + k] / p;
      for (int64_t j = k + 1; j < n; ++j)
        a[i * n + j] -= f * a[k * n + j];
    }
  }
  return det;
}

OpFoldResult DetOp::fold(FoldAdaptor adaptor) {
  auto type = dyn_cast<RankedTensorType>(getType());
  std::optional<TypedTensor> x = readTypedTensor(adaptor.getX());
  if (!type || !x || failed(verify()))
    return {};
  ElementKind kind = x->getKind();
  if (kind != ElementKind::F32 && kind != ElementKind::F64)
    return {};
  int64_t n = x->getShape().back();
  int64_t count = type.getNumElements();
  // n^3 / 3 steps per matrix.
  if (n > 4096 || !withinFoldLimits({count}, count * n * n * n / 3))
    return {};
  TypedTensor out = TypedTensor::zeros(type);
  SmallVector<double> matrix(n * n);
  for (int64_t b = 0; b < count; ++b) {
    for (int64_t e = 0; e < n * n; ++e)
      matrix[e] = x->getDouble(b * n * n + e);
    double det = determinant(matrix, n);
    if (kind == ElementKind::F32)
      out.set<float>(b, float(det));
    else
      out.set<double>(b, det);
  }
  return out.toAttr();
}
