//===- TypedKernels.cpp - Compile-time tables of the N-d ops ----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The resize taps follow ONNX's reference implementation
// (onnx/backend/test/case/node/resize.py): the source coordinate of each
// output position, the ratio in (0, 1] to the neighbour on its left, the n
// nearest positions of the edge-padded input, and the mode's coefficients.
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/TypedKernels.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::reference;

SmallVector<int64_t>
mlir::graph::reference::rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    strides[d - 1] = strides[d] * shape[d];
  return strides;
}

/// The source coordinate of output position `x`, or nullopt for an unknown
/// mode.
static std::optional<double> sourceCoordinate(int64_t x, int64_t in,
                                              double scale,
                                              StringRef coordinateMode) {
  double outWidth = scale * double(in);
  if (coordinateMode == "half_pixel")
    return (double(x) + 0.5) / scale - 0.5;
  if (coordinateMode == "pytorch_half_pixel")
    return outWidth == 1 ? -0.5 : (double(x) + 0.5) / scale - 0.5;
  if (coordinateMode == "align_corners")
    return outWidth == 1 ? 0.0 : double(x) * double(in - 1) / (outWidth - 1);
  if (coordinateMode == "asymmetric")
    return double(x) / scale;
  // TensorFlow 1's nearest-neighbour resize: the centers, unshifted.
  if (coordinateMode == "tf_half_pixel_for_nn")
    return (double(x) + 0.5) / scale;
  if (coordinateMode == "half_pixel_symmetric") {
    double adjustment = double(std::floor(outWidth)) / outWidth;
    double center = double(in) / 2;
    double offset = center * (1 - adjustment);
    return offset + (double(x) + 0.5) / scale - 0.5;
  }
  return std::nullopt;
}

std::optional<SmallVector<SmallVector<ResizeTap, 4>>>
mlir::graph::reference::computeResizeTaps(int64_t in, int64_t out, double scale,
                                          StringRef mode,
                                          StringRef coordinateMode,
                                          StringRef nearestMode,
                                          float cubicCoeffA,
                                          bool excludeOutside) {
  int64_t n = mode == "cubic" ? 4 : 2;
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return std::nullopt;
  if (in < 1)
    return std::nullopt;
  SmallVector<SmallVector<ResizeTap, 4>> taps;
  for (int64_t x = 0; x < out; ++x) {
    std::optional<double> coordinate =
        sourceCoordinate(x, in, scale, coordinateMode);
    if (!coordinate)
      return std::nullopt;
    double xOri = *coordinate;
    double floorOri = std::floor(xOri);
    // The neighbour on the left at ratio in (0, 1]: an integer coordinate
    // is ratio 1 from the position before it.
    bool isInteger = xOri == floorOri;
    double ratio = isInteger ? 1.0 : xOri - floorOri;
    int64_t left = int64_t(floorOri) - (isInteger ? 1 : 0);

    SmallVector<double, 4> coeffs;
    if (mode == "nearest") {
      if (isInteger)
        coeffs = {0, 1};
      else if (nearestMode == "round_prefer_floor")
        coeffs = {double(ratio <= 0.5), double(ratio > 0.5)};
      else if (nearestMode == "round_prefer_ceil")
        coeffs = {double(ratio < 0.5), double(ratio >= 0.5)};
      else if (nearestMode == "floor")
        coeffs = {1, 0};
      else if (nearestMode == "ceil")
        coeffs = {0, 1};
      else
        return std::nullopt;
    } else if (mode == "linear") {
      coeffs = {1 - ratio, ratio};
    } else {
      double a = cubicCoeffA, r = ratio;
      coeffs = {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
                ((a + 2) * r - (a + 3)) * r * r + 1,
                ((a + 2) * (1 - r) - (a + 3)) * (1 - r) * (1 - r) + 1,
                ((a * ((1 - r) + 1) - 5 * a) * ((1 - r) + 1) + 8 * a) *
                        ((1 - r) + 1) -
                    4 * a};
    }

    // The n positions nearest the coordinate in the input padded by
    // ceil(n / 2) edge copies on each side: a window that starts at the
    // left neighbour (minus one for cubic), kept inside the padded input.
    int64_t pad = (n + 1) / 2;
    int64_t start = left - (n == 4 ? 1 : 0) + pad;
    start = std::clamp<int64_t>(start, 0, in + 2 * pad - n);
    SmallVector<int64_t, 4> positions;
    for (int64_t i = 0; i < n; ++i)
      positions.push_back(start + i - pad);

    if (excludeOutside) {
      double sum = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (positions[i] < 0 || positions[i] >= in)
          coeffs[i] = 0;
        sum += coeffs[i];
      }
      if (sum != 0)
        for (double &c : coeffs)
          c /= sum;
    }
    SmallVector<ResizeTap, 4> row;
    for (int64_t i = 0; i < n; ++i)
      if (coeffs[i] != 0)
        row.push_back(
            {std::clamp<int64_t>(positions[i], 0, in - 1), coeffs[i]});
    taps.push_back(std::move(row));
  }
  return taps;
}

bool mlir::graph::reference::isIdentityResize(
    ArrayRef<SmallVector<ResizeTap, 4>> taps, int64_t in) {
  if (int64_t(taps.size()) != in)
    return false;
  for (auto [i, row] : llvm::enumerate(taps))
    if (row.size() != 1 || row[0].index != int64_t(i) || row[0].weight != 1)
      return false;
  return true;
}

std::optional<EinsumEquation>
mlir::graph::reference::parseEinsum(StringRef equation) {
  EinsumEquation result;
  std::string text;
  for (char c : equation)
    if (c != ' ')
      text += c;
  size_t arrow = text.find("->");
  if (arrow == std::string::npos)
    return std::nullopt;
  StringRef lhs = StringRef(text).take_front(arrow);
  StringRef rhs = StringRef(text).drop_front(arrow + 2);
  SmallVector<StringRef> parts;
  lhs.split(parts, ',');
  auto isLetter = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  };
  for (StringRef part : parts) {
    if (!llvm::all_of(part, isLetter))
      return std::nullopt;
    result.inputs.push_back(part.str());
    for (char c : part)
      if (result.letters.find(c) == std::string::npos)
        result.letters += c;
  }
  if (!llvm::all_of(rhs, isLetter))
    return std::nullopt;
  result.output = rhs.str();
  for (char c : rhs) {
    if (result.letters.find(c) == std::string::npos)
      return std::nullopt;
    if (llvm::count(rhs, c) != 1)
      return std::nullopt;
  }
  return result;
}
