//===- ShapeOps.cpp - Data movement ops of any type -------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Verifiers and fold hooks of GraphShapeOps.td (the gathers and scatters:
// IndexingOps.cpp; grid_sample and roi_align: SamplingOps.cpp). The data
// movement folds compute, for every output element, the position of the input
// element it copies, and gather those bytes: exact for every element type.
//
//===----------------------------------------------------------------------===//

#include "ScalarKernels.h"
#include "TypedFolds.h"
#include "VerifyUtils.h"

#include "graph/Dialect/Graph/IR/FoldLimits.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/ReferenceKernels.h"
#include "graph/Dialect/Graph/IR/TypedKernels.h"
#include "graph/Dialect/Graph/IR/TypedTensor.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::graph;
namespace ref = mlir::graph::reference;

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

//===----------------------------------------------------------------------===//
// graph.slice
//===----------------------------------------------------------------------===//

LogicalResult SliceOp::verify() {
  if (failed(checkDataAndResult(*this, getX(), "x", TypeClass::Any)))
    return failure();
  ArrayRef<int64_t> in = getDims(getX()), out = getDims(getOutput());
  ArrayRef<int64_t> starts = getStarts(), steps = getSteps();
  if (out.size() != in.size())
    return emitOpError() << "result rank " << out.size()
                         << " differs from operand 'x' rank " << in.size();
  if (failed(checkArrayAttr(*this, "starts", starts, in.size(), 0)) ||
      failed(checkArrayAttr(*this, "steps", steps, in.size(),
                            std::numeric_limits<int64_t>::min())))
    return failure();
  for (size_t d = 0; d < in.size(); ++d) {
    if (steps[d] == 0)
      return emitOpError() << "attribute 'steps' must be non-zero, but got "
                           << formatDims(steps);
    if (out[d] == 0)
      continue;
    // Overflow-free: out[d] - 1 <= in[d] is checked before multiplying.
    bool fits = starts[d] < in[d] && out[d] <= in[d];
    if (fits) {
      int64_t last = starts[d] + (out[d] - 1) * steps[d];
      fits = last >= 0 && last < in[d];
    }
    if (!fits)
      return emitOpError() << "dimension " << d << " reads " << out[d]
                           << " elements from " << starts[d] << " by step "
                           << steps[d] << ", outside operand 'x' of size "
                           << in[d];
  }
  return success();
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  RankedTensorType type = getTypedResult(*this);
  std::optional<TypedTensor> x = readTypedTensor(adaptor.getX());
  if (!type || !x || x->getType().getElementType() != type.getElementType() ||
      failed(verify()))
    return {};
  if (x->isSplat())
    return x->gather(type, {}).toAttr();
  if (!withinFoldLimits(type.getNumElements()))
    return {};
  SmallVector<int64_t> strides = ref::rowMajorStrides(x->getShape());
  ArrayRef<int64_t> starts = getStarts(), steps = getSteps();
  SmallVector<int64_t> indices;
  ref::forEachIndex(type.getShape(), [&](ArrayRef<int64_t> index) {
    int64_t position = 0;
    for (size_t d = 0; d < index.size(); ++d)
      position += (starts[d] + index[d] * steps[d]) * strides[d];
    indices.push_back(position);
  });
  return x->gather(type, indices).toAttr();
}

//===----------------------------------------------------------------------===//
// graph.broadcast
//===----------------------------------------------------------------------===//

LogicalResult BroadcastOp::verify() {
  if (failed(checkDataAndResult(*this, getX(), "x", TypeClass::Any)))
    return failure();
  if (!ref::broadcastsTo(getDims(getX()), getDims(getOutput())))
    return emitOpError() << "operand 'x' of shape "
                         << formatDims(getDims(getX()))
                         << " does not broadcast to the result shape "
                         << formatDims(getDims(getOutput()));
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getX().getType() == getType())
    return getX();
  RankedTensorType type = getTypedResult(*this);
  std::optional<TypedTensor> x = readTypedTensor(adaptor.getX());
  if (!type || !x || !ref::broadcastsTo(x->getShape(), type.getShape()))
    return {};
  if (x->isSplat())
    return x->gather(type, {}).toAttr();
  if (!withinFoldLimits(type.getNumElements()))
    return {};
  return x->gather(type, broadcastSourceIndices(x->getShape(), type.getShape()))
      .toAttr();
}

//===----------------------------------------------------------------------===//
// graph.pad
//===----------------------------------------------------------------------===//

/// Where output position `o` of a padded dimension reads: an input position,
/// or -1 for the constant.
static int64_t padSource(int64_t o, int64_t begin, int64_t size,
                         StringRef mode) {
  int64_t i = o - begin;
  if (i >= 0 && i < size)
    return i;
  if (mode == "edge")
    return i < 0 ? 0 : size - 1;
  if (mode == "reflect") {
    int64_t period = 2 * (size - 1);
    i = ((i % period) + period) % period;
    return i < size ? i : period - i;
  }
  return -1;
}

LogicalResult PadOp::verify() {
  if (failed(checkDataAndResult(*this, getX(), "x", TypeClass::Any)))
    return failure();
  ArrayRef<int64_t> in = getDims(getX());
  ArrayRef<int64_t> pads = getPads();
  size_t rank = in.size();
  if (pads.size() != 2 * rank)
    return emitOpError() << "attribute 'pads' must have " << 2 * rank
                         << " elements (begin and end of each dimension), "
                            "but got "
                         << pads.size();
  StringRef mode = getMode();
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    return emitOpError() << "attribute 'mode' must be constant, edge or "
                            "reflect, but got '"
                         << mode << "'";
  if (Value value = getValue()) {
    if (mode != "constant")
      return emitOpError() << "operand 'value' is only for mode constant";
    if (failed(
            checkTensorOf(*this, value, "operand 'value'", TypeClass::Any)) ||
        failed(checkSameElementType(*this, getX(), "operand 'x'", value,
                                    "operand 'value'")))
      return failure();
    if (!getDims(value).empty())
      return emitOpError() << "operand 'value' must have rank 0, but got "
                           << value.getType();
  }
  SmallVector<int64_t> shape;
  for (size_t d = 0; d < rank; ++d) {
    int64_t begin = pads[d], end = pads[rank + d];
    int64_t limit = int64_t(1) << 40;
    if (std::abs(begin) > limit || std::abs(end) > limit)
      return emitOpError() << "attribute 'pads' " << formatDims(pads)
                           << " is too large";
    int64_t size = in[d] + begin + end;
    if (size < 0)
      return emitOpError() << "attribute 'pads' removes more than dimension "
                           << d << " holds";
    bool padded = begin > 0 || end > 0;
    if (padded && mode == "edge" && in[d] < 1)
      return emitOpError() << "mode edge pads dimension " << d
                           << ", which is empty";
    if (padded && mode == "reflect" && in[d] < 2)
      return emitOpError() << "mode reflect pads dimension " << d << " of size "
                           << in[d] << "; it needs at least 2";
    shape.push_back(size);
  }
  return checkResultDims(*this, shape);
}

OpFoldResult PadOp::fold(FoldAdaptor adaptor) {
  RankedTensorType type = getTypedResult(*this);
  std::optional<TypedTensor> x = readTypedTensor(adaptor.getX());
  if (!type || !x || failed(verify()))
    return {};
  if (!withinFoldLimits(type.getNumElements()))
    return {};
  std::optional<TypedTensor> value;
  if (getValue()) {
    value = readTypedTensor(adaptor.getValue());
    if (!value)
      return {};
  }
  if (getX().getType() == getType() &&
      llvm::all_of(getPads(), [](int64_t p) { return p == 0; }))
    return getX();
  ArrayRef<int64_t> in = x->getShape(), pads = getPads();
  size_t rank = in.size();
  SmallVector<int64_t> strides = ref::rowMajorStrides(in);
  unsigned width = x->getElementBytes();
  std::vector<char> bytes(type.getNumElements() * width, 0);
  std::vector<char> fill(width, 0);
  if (value)
    std::memcpy(fill.data(), value->getBytes().data(), width);
  ArrayRef<char> source = x->getBytes();
  int64_t i = 0;
  ref::forEachIndex(type.getShape(), [&](ArrayRef<int64_t> index) {
    int64_t position = 0;
    bool constant = false;
    for (size_t d = 0; d < rank && !constant; ++d) {
      int64_t s = padSource(index[d], pads[d], in[d], getMode());
      constant = s < 0;
      position += s * strides[d];
    }
    const char *src = constant       ? fill.data()
                      : x->isSplat() ? source.data()
                                     : source.data() + position * width;
    std::memcpy(bytes.data() + i * width, src, width);
    ++i;
  });
  return TypedTensor(type, x->getKind(), false, std::move(bytes)).toAttr();
}

//===----------------------------------------------------------------------===//
// graph.resize
//===----------------------------------------------------------------------===//

LogicalResult ResizeOp::verify() {
  if (failed(checkDataAndResult(*this, getX(), "x", TypeClass::Float)))
    return failure();
  ArrayRef<int64_t> in = getDims(getX()), out = getDims(getOutput());
  ArrayRef<double> scales = getScales();
  if (out.size() != in.size())
    return emitOpError() << "result rank " << out.size()
                         << " differs from operand 'x' rank " << in.size();
  if (scales.size() != in.size())
    return emitOpError() << "attribute 'scales' must have " << in.size()
                         << " elements, but got " << scales.size();
  for (double s : scales)
    if (!(s > 0) || std::isinf(s))
      return emitOpError() << "attribute 'scales' must be positive and "
                              "finite";
  for (size_t d = 0; d < in.size(); ++d) {
    if (in[d] == 0 && out[d] != 0)
      return emitOpError() << "dimension " << d << " resizes an empty input";
    if (in[d] == 0)
      continue;
    // Computing the taps checks the mode names.
    if (!ref::computeResizeTaps(
            in[d], std::min<int64_t>(out[d], 1), scales[d], getMode(),
            getCoordinateTransformationMode(), getNearestMode(),
            getCubicCoeffA().convertToFloat(), getExcludeOutside()))
      return emitOpError() << "unknown mode '" << getMode()
                           << "', coordinate_transformation_mode '"
                           << getCoordinateTransformationMode()
                           << "' or nearest_mode '" << getNearestMode() << "'";
  }
  return success();
}

/// One interpolation pass along `dim`: out[..., o, ...] = sum over the taps
/// of weight * in[..., tap, ...], accumulated in the compute type in tap
/// order, as the lowering does.
template <typename T>
static TypedTensor resizeDim(const TypedTensor &x, int64_t dim,
                             ArrayRef<SmallVector<ref::ResizeTap, 4>> taps) {
  using C = ComputeType<T>;
  SmallVector<int64_t> shape(x.getShape());
  shape[dim] = taps.size();
  auto type = RankedTensorType::get(shape, x.getType().getElementType());
  TypedTensor out = TypedTensor::zeros(type);
  SmallVector<int64_t> strides = ref::rowMajorStrides(x.getShape());
  int64_t i = 0;
  ref::forEachIndex(shape, [&](ArrayRef<int64_t> index) {
    int64_t base = 0;
    for (size_t d = 0; d < index.size(); ++d)
      if (int64_t(d) != dim)
        base += index[d] * strides[d];
    C acc = 0;
    for (const ref::ResizeTap &tap : taps[index[dim]]) {
      C term = C(tap.weight) * widen(x.get<T>(base + tap.index * strides[dim]));
      // Rounded as stored after each tap, as the lowering's accumulator.
      acc = widen(narrow<T>(acc + term));
    }
    out.set<T>(i++, narrow<T>(acc));
  });
  return out;
}

OpFoldResult ResizeOp::fold(FoldAdaptor adaptor) {
  RankedTensorType type = getTypedResult(*this);
  std::optional<TypedTensor> x = readTypedTensor(adaptor.getX());
  if (!type || !x || failed(verify()))
    return {};
  if (!withinFoldLimits(type.getNumElements()))
    return {};
  TypedTensor current = *x;
  for (size_t d = 0; d < type.getShape().size(); ++d) {
    int64_t in = x->getShape()[d], out = type.getDimSize(d);
    if (in == 0)
      continue;
    auto taps = ref::computeResizeTaps(
        in, out, getScales()[d], getMode(), getCoordinateTransformationMode(),
        getNearestMode(), getCubicCoeffA().convertToFloat(),
        getExcludeOutside());
    if (!taps)
      return {};
    if (ref::isIdentityResize(*taps, in))
      continue;
    std::optional<TypedTensor> next =
        dispatchKind(x->getKind(), [&](auto t) -> std::optional<TypedTensor> {
          using T = decltype(t);
          if constexpr (isFloatStorage<T>)
            return resizeDim<T>(current.expanded(), d, *taps);
          else
            return std::nullopt;
        });
    if (!next)
      return {};
    current = std::move(*next);
  }
  return current.reshaped(type).toAttr();
}

//===----------------------------------------------------------------------===//
// transpose and concat beyond f32 (called by GraphFolds.cpp)
//===----------------------------------------------------------------------===//

std::optional<TypedTensor>
mlir::graph::permuteTypedTensor(const TypedTensor &x, ArrayRef<int64_t> perm) {
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(x.getShape()[p]);
  auto attr = dyn_cast_or_null<Attribute>(
      foldTypedTranspose(x.toAttr(), perm, x.getType().clone(shape)));
  if (!attr)
    return std::nullopt;
  return readTypedTensor(attr);
}

OpFoldResult mlir::graph::foldTypedTranspose(Attribute attr,
                                             ArrayRef<int64_t> perm,
                                             Type resultType) {
  auto type = dyn_cast<RankedTensorType>(resultType);
  std::optional<TypedTensor> x = readTypedTensor(attr);
  if (!type || !type.hasStaticShape() || !x ||
      x->getType().getElementType() != type.getElementType() ||
      perm.size() != x->getShape().size())
    return {};
  SmallVector<int64_t> strides = ref::rowMajorStrides(x->getShape());
  SmallVector<int64_t> shape;
  SmallVector<bool> seen(perm.size(), false);
  for (int64_t p : perm) {
    if (p < 0 || p >= int64_t(perm.size()) || seen[p])
      return {};
    seen[p] = true;
    shape.push_back(x->getShape()[p]);
  }
  if (type.getShape() != ArrayRef<int64_t>(shape))
    return {};
  if (x->isSplat())
    return x->gather(type, {}).toAttr();
  if (!withinFoldLimits(type.getNumElements()))
    return {};
  SmallVector<int64_t> positions;
  ref::forEachIndex(shape, [&](ArrayRef<int64_t> index) {
    int64_t position = 0;
    for (size_t d = 0; d < index.size(); ++d)
      position += index[d] * strides[perm[d]];
    positions.push_back(position);
  });
  return x->gather(type, positions).toAttr();
}

OpFoldResult mlir::graph::foldTypedConcat(ArrayRef<Attribute> attrs,
                                          int64_t axis, Type resultType) {
  auto type = dyn_cast<RankedTensorType>(resultType);
  if (!type || !type.hasStaticShape() || attrs.empty() || axis < 0 ||
      axis >= type.getRank())
    return {};
  if (!withinFoldLimits(type.getNumElements()))
    return {};
  SmallVector<TypedTensor> inputs;
  int64_t joined = 0;
  for (Attribute attr : attrs) {
    std::optional<TypedTensor> input = readTypedTensor(attr);
    if (!input || input->getType().getElementType() != type.getElementType() ||
        input->getShape().size() != size_t(type.getRank()))
      return {};
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (d != axis && input->getShape()[d] != type.getDimSize(d))
        return {};
    joined += input->getShape()[axis];
    inputs.push_back(input->expanded());
  }
  if (joined != type.getDimSize(axis))
    return {};
  unsigned width = inputs[0].getElementBytes();
  int64_t outer = llvm::product_of(type.getShape().take_front(axis));
  std::vector<char> bytes;
  bytes.reserve(type.getNumElements() * width);
  for (int64_t o = 0; o < outer; ++o)
    for (const TypedTensor &input : inputs) {
      int64_t chunk = input.getNumElements() / std::max<int64_t>(outer, 1);
      ArrayRef<char> data = input.getBytes();
      const char *begin = data.data() + o * chunk * width;
      bytes.insert(bytes.end(), begin, begin + chunk * width);
    }
  return TypedTensor(type, inputs[0].getKind(), false, std::move(bytes))
      .toAttr();
}
