//===- ShapeInference.h - Result shapes of ONNX operators -------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The shape formulas that the importer uses to give every value a static
// type: broadcasting, convolution and pooling windows (with ONNX's auto_pad),
// and Reshape's 0 and -1. The same formulas as ../shared/SPEC.md, so that
// what the importer computes is what the graph ops' verifiers expect.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_TARGET_ONNX_SHAPEINFERENCE_H
#define LIB_TARGET_ONNX_SHAPEINFERENCE_H

#include "mlir/Support/LLVM.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <utility>

#include "graph/Dialect/Graph/IR/ReferenceKernels.h"

namespace mlir {
namespace graph {
namespace onnx_import {

/// NumPy broadcasting of two shapes: the dialect's own rule.
using reference::broadcastShapes;

/// The extent of a dilated window: dilation * (kernel - 1) + 1.
int64_t getEffectiveKernel(int64_t kernel, int64_t dilation);

/// The number of window positions along one dimension, rounding down
/// (floor((in + begin + end - effectiveKernel) / stride) + 1), or with
/// `ceilMode` up. May be < 1 for a window larger than the padded input.
int64_t getWindowOutputSize(int64_t in, int64_t effectiveKernel, int64_t stride,
                            int64_t padBegin, int64_t padEnd,
                            bool ceilMode = false);

/// The padding [begin, end] of ONNX's auto_pad SAME_UPPER (`lower` false:
/// an odd total puts the extra cell at the end) or SAME_LOWER (at the
/// beginning), for which the output size is ceil(in / stride).
std::pair<int64_t, int64_t> getSamePadding(int64_t in, int64_t effectiveKernel,
                                           int64_t stride, bool lower);

/// Resolves ONNX Reshape's target: a 0 copies the input dimension at the same
/// index (unless `allowZero`), one -1 takes the remaining elements. Returns
/// nullopt and sets `error` when the target is invalid.
std::optional<SmallVector<int64_t>> resolveReshape(ArrayRef<int64_t> inputShape,
                                                   ArrayRef<int64_t> target,
                                                   bool allowZero,
                                                   std::string &error);

/// Whether every dimension is in [1, 2^31) (or [0, 2^31) with `allowEmpty`)
/// and there are at most 2^40 elements: a bound that keeps the shape
/// arithmetic from overflowing.
bool isValidShape(ArrayRef<int64_t> shape, bool allowEmpty = false);

/// `value` rounded toward zero when the result is an int64, nullopt when
/// `value` is not finite or out of range: a float from the file must never be
/// converted blindly (that is undefined behaviour).
std::optional<int64_t> truncateToInt64(double value);

/// The number of elements of a static shape.
int64_t getNumElements(ArrayRef<int64_t> shape);

} // namespace onnx_import
} // namespace graph
} // namespace mlir

#endif // LIB_TARGET_ONNX_SHAPEINFERENCE_H
