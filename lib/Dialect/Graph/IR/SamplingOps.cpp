//===- SamplingOps.cpp - grid_sample and roi_align --------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Verifiers and fold hooks of the ops of GraphShapeOps.td that read their
// input at computed, fractional positions and interpolate: grid_sample and
// roi_align. Each fold takes the steps of its lowering
// (GridSampleToLinalg.cpp, RoiAlignToLinalg.cpp) one for one.
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

//===----------------------------------------------------------------------===//
// graph.roi_align
//===----------------------------------------------------------------------===//

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
