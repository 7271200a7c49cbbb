//===- ShapeInference.cpp - Result shapes of ONNX operators ---------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Implements the shape formulas of ShapeInference.h.
//
//===----------------------------------------------------------------------===//

#include "ShapeInference.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

using namespace mlir;
using namespace mlir::graph::onnx_import;

int64_t mlir::graph::onnx_import::getEffectiveKernel(int64_t kernel,
                                                     int64_t dilation) {
  return dilation * (kernel - 1) + 1;
}

/// Floor and ceiling divisions that are right for negative numerators too.
static int64_t floorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}
static int64_t ceilDiv(int64_t a, int64_t b) { return -floorDiv(-a, b); }

int64_t mlir::graph::onnx_import::getWindowOutputSize(
    int64_t in, int64_t effectiveKernel, int64_t stride, int64_t padBegin,
    int64_t padEnd, bool ceilMode) {
  int64_t span = in + padBegin + padEnd - effectiveKernel;
  return (ceilMode ? ceilDiv(span, stride) : floorDiv(span, stride)) + 1;
}

std::pair<int64_t, int64_t>
mlir::graph::onnx_import::getSamePadding(int64_t in, int64_t effectiveKernel,
                                         int64_t stride, bool lower) {
  int64_t out = ceilDiv(in, stride);
  int64_t total =
      std::max<int64_t>((out - 1) * stride + effectiveKernel - in, 0);
  int64_t small = total / 2, large = total - small;
  return lower ? std::make_pair(large, small) : std::make_pair(small, large);
}

bool mlir::graph::onnx_import::isValidShape(ArrayRef<int64_t> shape,
                                            bool allowEmpty) {
  constexpr int64_t kMaxDim = int64_t(1) << 31;
  constexpr int64_t kMaxElements = int64_t(1) << 40;
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < (allowEmpty ? 0 : 1) || dim >= kMaxDim)
      return false;
    if (dim > 0 && count > kMaxElements / dim)
      return false;
    count *= dim;
  }
  return true;
}

int64_t mlir::graph::onnx_import::getNumElements(ArrayRef<int64_t> shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t(1),
                         std::multiplies<int64_t>());
}

std::optional<SmallVector<int64_t>>
mlir::graph::onnx_import::resolveReshape(ArrayRef<int64_t> inputShape,
                                         ArrayRef<int64_t> target,
                                         bool allowZero, std::string &error) {
  SmallVector<int64_t> result;
  std::optional<size_t> inferred;
  for (auto [i, dim] : llvm::enumerate(target)) {
    if (dim == -1) {
      if (inferred) {
        error = "the target shape has more than one -1";
        return std::nullopt;
      }
      inferred = i;
      result.push_back(1);
    } else if (dim == 0 && !allowZero) {
      if (i >= inputShape.size()) {
        error = "the target shape has a 0 at index " + std::to_string(i) +
                " beyond the input's rank " + std::to_string(inputShape.size());
        return std::nullopt;
      }
      result.push_back(inputShape[i]);
    } else if (dim < 0 || dim >= (int64_t(1) << 31)) {
      error =
          "the target shape has an invalid dimension " + std::to_string(dim);
      return std::nullopt;
    } else {
      result.push_back(dim);
    }
  }
  // The dimensions are below 2^31 each, but there may be many of them.
  int64_t total = getNumElements(inputShape);
  int64_t known = 1;
  for (int64_t dim : result) {
    if (llvm::MulOverflow(known, dim, known)) {
      error = "the target shape has more elements than int64 can count";
      return std::nullopt;
    }
  }
  if (inferred) {
    if (known == 0 || total % known != 0) {
      error =
          "cannot infer the -1 of the target shape: " + std::to_string(total) +
          " elements are not a multiple of " + std::to_string(known);
      return std::nullopt;
    }
    result[*inferred] = total / known;
  } else if (known != total) {
    error = "the target shape has " + std::to_string(known) +
            " elements, the input " + std::to_string(total);
    return std::nullopt;
  }
  return result;
}

std::optional<int64_t> mlir::graph::onnx_import::truncateToInt64(double value) {
  // 2^63 is exact in a double; every double below it in magnitude truncates
  // to an int64.
  constexpr double kLimit = 9223372036854775808.0;
  if (!std::isfinite(value) || value >= kLimit || value < -kLimit)
    return std::nullopt;
  return int64_t(value);
}
