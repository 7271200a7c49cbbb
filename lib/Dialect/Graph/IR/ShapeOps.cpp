//===- ShapeOps.cpp - Data movement ops of any type -------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Verifiers and fold hooks of GraphShapeOps.td (the gathers and scatters:
// IndexingOps.cpp). The data movement folds compute, for every output
// element, the position of the input element it copies, and gather those
// bytes: exact for every element type.
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
#include <cmath>
#include <limits>

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

//===----------------------------------------------------------------------===//
// graph.grid_sample
//===----------------------------------------------------------------------===//

LogicalResult GridSampleOp::verify() {
  if (failed(checkDataAndResult(*this, getX(), "x", TypeClass::Float)) ||
      failed(checkTensorOf(*this, getGrid(), "operand 'grid'",
                           TypeClass::Float)) ||
      failed(checkSameElementType(*this, getX(), "operand 'x'", getGrid(),
                                  "operand 'grid'")))
    return failure();
  ArrayRef<int64_t> x = getDims(getX()), grid = getDims(getGrid());
  if (x.size() != 4)
    return emitOpError() << "operand 'x' must be [N, C, H, W], but has shape "
                         << formatDims(x);
  if (grid.size() != 4 || grid[0] != x[0] || grid[3] != 2)
    return emitOpError() << "operand 'grid' must be [" << x[0]
                         << ", Ho, Wo, 2], but has shape " << formatDims(grid);
  return checkResultDims(*this, {x[0], x[1], grid[1], grid[2]});
}

LogicalResult RoiAlignOp::verify() {
  if (failed(checkDataAndResult(*this, getX(), "x", TypeClass::Float)) ||
      failed(checkTensorOf(*this, getRois(), "operand 'rois'",
                           TypeClass::Float)) ||
      failed(checkSameElementType(*this, getX(), "operand 'x'", getRois(),
                                  "operand 'rois'")) ||
      failed(checkTensorOf(*this, getBatchIndices(), "operand 'batch_indices'",
                           TypeClass::Index)))
    return failure();
  ArrayRef<int64_t> x = getDims(getX()), rois = getDims(getRois());
  ArrayRef<int64_t> batchIndices = getDims(getBatchIndices());
  if (x.size() != 4)
    return emitOpError() << "operand 'x' must be [N, C, H, W], but has shape "
                         << formatDims(x);
  if (rois.size() != 2 || rois[1] != 4)
    return emitOpError() << "operand 'rois' must be [R, 4], but has shape "
                         << formatDims(rois);
  if (batchIndices.size() != 1 || batchIndices[0] != rois[0])
    return emitOpError() << "operand 'batch_indices' must be [" << rois[0]
                         << "], but has shape " << formatDims(batchIndices);
  if (getOutputHeight() < 1 || getOutputWidth() < 1)
    return emitOpError() << "output_height and output_width must be >= 1, "
                            "but are "
                         << getOutputHeight() << " and " << getOutputWidth();
  if (getSamplingRatio() < 0)
    return emitOpError() << "sampling_ratio must be >= 0, but is "
                         << getSamplingRatio();
  return checkResultDims(*this,
                         {rois[0], x[1], getOutputHeight(), getOutputWidth()});
}

namespace {
/// The scalar steps of graph.grid_sample in the compute type `C`, the
/// lowering's (GridSampleToLinalg.cpp) one for one. Pixel coordinates stay
/// floats until they index, clamped first (a NaN position reads pixel 0).
template <typename C> struct GridSampler {
  int64_t height, width;
  bool alignCorners;
  SamplePadding padding;

  /// The bounds of the coordinates that need no padding.
  C low() const { return alignCorners ? C(0) : C(-0.5); }
  C high(int64_t size) const {
    return alignCorners ? C(size - 1) : C(size) - C(0.5);
  }
  C denormalize(C n, int64_t size) const {
    return alignCorners ? (n + C(1)) / C(2) * C(size - 1)
                        : ((n + C(1)) * C(size) - C(1)) / C(2);
  }
  /// `v` reflected about `lo` and `hi` until within them.
  static C reflect(C v, C lo, C hi) {
    C range = hi - lo;
    bool below = v<lo, above = v> hi;
    C distance = below ? lo - v : v - hi;
    C turns = std::trunc(distance / range);
    C rest = distance - turns * range;
    bool even = turns - C(2) * std::floor(turns / C(2)) == C(0);
    C reflected = below ? (even ? lo + rest : hi - rest)
                        : (above ? (even ? hi - rest : lo + rest) : v);
    return range == C(0) ? lo : reflected;
  }
  /// The position of the (already rounded, for nearest) coordinates, moved
  /// inside the bounds by border or reflection padding when either is
  /// outside them.
  void place(C &x, C &y) const {
    bool outside =
        x < low() || x > high(width) || y < low() || y > high(height);
    if (!outside || padding == SamplePadding::zeros)
      return;
    if (padding == SamplePadding::border) {
      x = std::fmin(std::fmax(x, C(0)), C(width - 1));
      y = std::fmin(std::fmax(y, C(0)), C(height - 1));
      return;
    }
    x = reflect(x, low(), high(width));
    y = reflect(y, low(), high(height));
  }
  /// Pixel (r, c) of `image` (a function of two indices), or what the
  /// padding reads there.
  template <typename Fn> C pixel(const Fn &image, C r, C c) const {
    auto index = [&](C v, int64_t size, bool &inside) {
      inside = v >= C(0) && v <= C(size - 1);
      if (padding == SamplePadding::reflection)
        v = reflect(v, low(), high(size));
      return int64_t(std::fmin(std::fmax(v, C(0)), C(size - 1)));
    };
    bool insideRow, insideColumn;
    int64_t row = index(r, height, insideRow);
    int64_t column = index(c, width, insideColumn);
    C value = image(row, column);
    if (padding == SamplePadding::zeros && !(insideRow && insideColumn))
      return C(0);
    return value;
  }
  /// Keys' cubic convolution weights of the four taps at distance t from
  /// the second.
  static void cubicWeights(C t, C (&w)[4]) {
    const C a = C(-0.75);
    t = std::abs(t);
    C t1 = t + C(1), u = C(1) - t, u1 = C(2) - t;
    w[0] = ((a * t1 - C(5) * a) * t1 + C(8) * a) * t1 - C(4) * a;
    w[1] = ((a + C(2)) * t - (a + C(3))) * t * t + C(1);
    w[2] = ((a + C(2)) * u - (a + C(3))) * u * u + C(1);
    w[3] = ((a * u1 - C(5) * a) * u1 + C(8) * a) * u1 - C(4) * a;
  }
  template <typename Fn>
  C sample(const Fn &image, SampleMode mode, C nx, C ny) const {
    C x = denormalize(nx, width), y = denormalize(ny, height);
    if (mode == SampleMode::nearest) {
      x = std::nearbyint(x);
      y = std::nearbyint(y);
    }
    place(x, y);
    if (mode == SampleMode::nearest)
      return pixel(image, y, x);
    C x0 = std::floor(x), y0 = std::floor(y);
    if (mode == SampleMode::linear) {
      C x1 = x0 + C(1), y1 = y0 + C(1);
      C dx1 = x - x0, dx2 = x1 - x, dy1 = y - y0, dy2 = y1 - y;
      return dy2 * (dx2 * pixel(image, y0, x0) + dx1 * pixel(image, y0, x1)) +
             dy1 * (dx2 * pixel(image, y1, x0) + dx1 * pixel(image, y1, x1));
    }
    C wx[4], wy[4];
    cubicWeights(x - x0, wx);
    cubicWeights(y - y0, wy);
    C result = C(0);
    for (int h = 0; h < 4; ++h) {
      C row = C(0);
      for (int w = 0; w < 4; ++w)
        row += wx[w] * pixel(image, y0 + C(h - 1), x0 + C(w - 1));
      result += wy[h] * row;
    }
    return result;
  }
};
} // namespace

OpFoldResult GridSampleOp::fold(FoldAdaptor adaptor) {
  RankedTensorType type = getTypedResult(*this);
  std::optional<TypedTensor> x = readTypedTensor(adaptor.getX());
  std::optional<TypedTensor> grid = readTypedTensor(adaptor.getGrid());
  if (!type || !x || !grid || failed(verify()))
    return {};
  if (!withinFoldLimits({type.getNumElements()}, 16 * type.getNumElements()))
    return {};
  ArrayRef<int64_t> in = x->getShape(), out = type.getShape();
  TypedTensor result = TypedTensor::zeros(type);
  bool ok = dispatchKind(x->getKind(), [&](auto t) {
    using T = decltype(t);
    using C = ComputeType<T>;
    if constexpr (!std::is_floating_point_v<C>) {
      return false;
    } else {
      GridSampler<C> sampler{in[2], in[3], getAlignCorners(), getPadding()};
      int64_t i = 0;
      for (int64_t n = 0; n < out[0]; ++n)
        for (int64_t c = 0; c < out[1]; ++c) {
          int64_t plane = (n * in[1] + c) * in[2] * in[3];
          auto image = [&](int64_t r, int64_t col) {
            return widen(x->get<T>(plane + r * in[3] + col));
          };
          for (int64_t oy = 0; oy < out[2]; ++oy)
            for (int64_t ox = 0; ox < out[3]; ++ox) {
              int64_t at = ((n * out[2] + oy) * out[3] + ox) * 2;
              C value =
                  sampler.sample(image, getMode(), widen(grid->get<T>(at)),
                                 widen(grid->get<T>(at + 1)));
              result.set<T>(i++, narrow<T>(value));
            }
        }
      return true;
    }
  });
  if (!ok)
    return {};
  return result.toAttr();
}

/// The steps of RoiAlignToLinalg.cpp (ONNX Runtime's roialign.cc), one for
/// one, in the compute type `C`.
template <typename T, typename C>
static void foldRoiAlign(RoiAlignOp op, const TypedTensor &x,
                         const TypedTensor &rois, const TypedTensor &batch,
                         TypedTensor &result) {
  ArrayRef<int64_t> in = x.getShape();
  int64_t channels = in[1], height = in[2], width = in[3];
  int64_t pooledHeight = op.getOutputHeight();
  int64_t pooledWidth = op.getOutputWidth();
  int64_t ratio = op.getSamplingRatio();
  bool halfPixel = op.getHalfPixel();
  bool average = op.getMode() == RoiAlignMode::avg;
  C scale = C(op.getSpatialScale().convertToDouble());
  auto maximum = [](C p, C q) {
    return std::isnan(p) || std::isnan(q) ? std::numeric_limits<C>::quiet_NaN()
                                          : std::max(p, q);
  };
  auto clamp = [](C v, C lo, C hi) { return std::fmin(std::fmax(v, lo), hi); };
  int64_t i = 0;
  for (int64_t r = 0, e = rois.getShape()[0]; r < e; ++r) {
    int64_t n = std::clamp<int64_t>(batch.getInt(r), 0, in[0] - 1);
    auto corner = [&](int64_t k) {
      return widen(rois.get<T>(r * 4 + k)) * scale - C(halfPixel ? 0.5 : 0.0);
    };
    C startW = corner(0), startH = corner(1);
    C roiWidth = corner(2) - startW, roiHeight = corner(3) - startH;
    if (!halfPixel) {
      roiWidth = maximum(roiWidth, C(1));
      roiHeight = maximum(roiHeight, C(1));
    }
    C binHeight = roiHeight / C(pooledHeight);
    C binWidth = roiWidth / C(pooledWidth);
    auto samplesAlong = [&](C bin) {
      C ceil = std::ceil(bin);
      if (std::isinf(ceil) && ceil > C(0))
        ceil = C(0);
      return ratio > 0 ? ratio : int64_t(clamp(ceil, C(0), C(1024)));
    };
    int64_t gridH = samplesAlong(binHeight), gridW = samplesAlong(binWidth);
    for (int64_t c = 0; c < channels; ++c) {
      int64_t plane = (n * channels + c) * height * width;
      auto pixel = [&](C row, C column) {
        return widen(x.get<T>(plane + int64_t(row) * width + int64_t(column)));
      };
      auto neighbours = [](C &v, int64_t size, C &low, C &high) {
        C last = C(size - 1), floor = std::floor(v);
        bool atEnd = floor >= last;
        low = atEnd ? last : floor;
        high = atEnd ? last : floor + C(1);
        v = atEnd ? last : v;
      };
      for (int64_t ph = 0; ph < pooledHeight; ++ph)
        for (int64_t pw = 0; pw < pooledWidth; ++pw) {
          C binY = startH + C(ph) * binHeight;
          C binX = startW + C(pw) * binWidth;
          C pooled = average ? C(0) : -std::numeric_limits<C>::infinity();
          for (int64_t iy = 0; iy < gridH; ++iy)
            for (int64_t ix = 0; ix < gridW; ++ix) {
              C y = binY + (C(iy) + C(0.5)) * binHeight / C(gridH);
              C xx = binX + (C(ix) + C(0.5)) * binWidth / C(gridW);
              bool off =
                  y < C(-1) || y > C(height) || xx < C(-1) || xx > C(width);
              y = clamp(y, C(0), C(height));
              xx = clamp(xx, C(0), C(width));
              C yLow, yHigh, xLow, xHigh;
              neighbours(y, height, yLow, yHigh);
              neighbours(xx, width, xLow, xHigh);
              C ly = y - yLow, lx = xx - xLow;
              C hy = C(1) - ly, hx = C(1) - lx;
              C p1 = hy * hx * pixel(yLow, xLow);
              C p2 = hy * lx * pixel(yLow, xHigh);
              C p3 = ly * hx * pixel(yHigh, xLow);
              C p4 = ly * lx * pixel(yHigh, xHigh);
              C value = average ? p1 + p2 + p3 + p4
                                : maximum(maximum(maximum(p1, p2), p3), p4);
              value = off ? C(0) : value;
              pooled = average ? pooled + value : maximum(pooled, value);
            }
          if (average)
            pooled = pooled / C(std::max<int64_t>(gridH * gridW, 1));
          else if (gridH * gridW == 0)
            pooled = C(0);
          result.set<T>(i++, narrow<T>(pooled));
        }
    }
  }
}

OpFoldResult RoiAlignOp::fold(FoldAdaptor adaptor) {
  RankedTensorType type = getTypedResult(*this);
  std::optional<TypedTensor> x = readTypedTensor(adaptor.getX());
  std::optional<TypedTensor> rois = readTypedTensor(adaptor.getRois());
  std::optional<TypedTensor> batch = readTypedTensor(adaptor.getBatchIndices());
  if (!type || !x || !rois || !batch || failed(verify()))
    return {};
  // The samples per bin follow from the regions: bound the whole work.
  int64_t samples = 0;
  for (int64_t r = 0, e = rois->getShape()[0]; r < e; ++r) {
    if (getSamplingRatio() > 0) {
      samples += getSamplingRatio() * getSamplingRatio();
      continue;
    }
    auto side = [&](int64_t k, int64_t bins) {
      double extent =
          (rois->getDouble(r * 4 + k + 2) - rois->getDouble(r * 4 + k)) *
          getSpatialScale().convertToDouble() / double(bins);
      return std::isfinite(extent)
                 ? std::clamp(std::ceil(std::fabs(extent)) + 1.0, 1.0, 1025.0)
                 : 1.0;
    };
    samples += int64_t(side(1, getOutputHeight()) * side(0, getOutputWidth()));
  }
  int64_t perRegion =
      type.getNumElements() / std::max<int64_t>(rois->getShape()[0], 1);
  if (!withinFoldLimits({type.getNumElements()},
                        samples * perRegion * 16 + type.getNumElements()))
    return {};
  TypedTensor result = TypedTensor::zeros(type);
  bool ok = dispatchKind(x->getKind(), [&](auto t) {
    using T = decltype(t);
    using C = ComputeType<T>;
    if constexpr (!std::is_floating_point_v<C>) {
      return false;
    } else {
      foldRoiAlign<T, C>(*this, *x, *rois, *batch, result);
      return true;
    }
  });
  if (!ok)
    return {};
  return result.toAttr();
}
