//===- RunTimeSizeOps.cpp - Ops whose result size the data decides --------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Verifiers and fold hooks of the ops at the end of GraphShapeOps.td: a
// result of its bound's static shape, zeros past the extent, and the extent
// as a tensor<i64> beside it. The folds are what the lowering computes
// (RunTimeSizeToLoops.cpp), in the same order.
//
//===----------------------------------------------------------------------===//

#include "VerifyUtils.h"

#include "graph/Dialect/Graph/IR/FoldLimits.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/TypedTensor.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <optional>

using namespace mlir;
using namespace mlir::graph;

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

/// Checks that `count` is a tensor<i64> of rank 0.
static LogicalResult checkExtent(Operation *op, Value count) {
  auto type = cast<RankedTensorType>(count.getType());
  if (type.getRank() != 0 || !type.getElementType().isSignlessInteger(64))
    return op->emitOpError()
           << "result 'count' must be a tensor<i64> of rank 0, but got "
           << type;
  return success();
}

//===----------------------------------------------------------------------===//
// graph.nonzero
//===----------------------------------------------------------------------===//

LogicalResult NonZeroOp::verify() {
  if (failed(checkTensorOf(*this, getX(), "operand 'x'", TypeClass::Any)) ||
      failed(checkExtent(*this, getCount())))
    return failure();
  ArrayRef<int64_t> in = getDims(getX());
  if (in.empty())
    return emitOpError() << "operand 'x' must have rank >= 1";
  auto indicesType = cast<RankedTensorType>(getIndices().getType());
  SmallVector<int64_t> shape = {int64_t(in.size()), llvm::product_of(in)};
  if (!indicesType.getElementType().isSignlessInteger(64) ||
      indicesType.getShape() != ArrayRef<int64_t>(shape))
    return emitOpError() << "result 'indices' must be a tensor<" << shape[0]
                         << "x" << shape[1] << "xi64>, but got " << indicesType;
  return success();
}

LogicalResult NonZeroOp::fold(FoldAdaptor adaptor,
                              SmallVectorImpl<OpFoldResult> &results) {
  auto indicesType = dyn_cast<RankedTensorType>(getIndices().getType());
  auto countType = dyn_cast<RankedTensorType>(getCount().getType());
  std::optional<TypedTensor> x = readTypedTensor(adaptor.getX());
  if (!indicesType || !countType || !x || failed(verify()) ||
      !withinFoldLimits({indicesType.getNumElements()},
                        indicesType.getNumElements()))
    return failure();
  ArrayRef<int64_t> shape = x->getShape();
  int64_t rank = shape.size(), bound = x->getNumElements();
  TypedTensor indices = TypedTensor::zeros(indicesType);
  int64_t count = 0;
  dispatchKind(x->getKind(), [&](auto t) {
    using T = decltype(t);
    for (int64_t i = 0; i < bound; ++i) {
      if (!(widen(x->get<T>(i)) != 0))
        continue;
      for (int64_t d = rank - 1, rest = i; d >= 0; --d) {
        indices.set<int64_t>(d * bound + count, rest % shape[d]);
        rest /= shape[d];
      }
      ++count;
    }
  });
  results.push_back(indices.toAttr());
  results.push_back(DenseElementsAttr::get(countType, count));
  return success();
}

//===----------------------------------------------------------------------===//
// graph.unique
//===----------------------------------------------------------------------===//

LogicalResult UniqueOp::verify() {
  if (failed(checkTensorOf(*this, getX(), "operand 'x'", TypeClass::Any)) ||
      failed(checkExtent(*this, getCount())))
    return failure();
  ArrayRef<int64_t> in = getDims(getX());
  if (in.size() != 2)
    return emitOpError() << "operand 'x' must be a matrix of rows, but its "
                            "shape is ["
                         << in << "]";
  if (getValues().getType() != getX().getType())
    return emitOpError() << "result 'values' must have the type of 'x', "
                         << getX().getType() << ", but it is "
                         << getValues().getType();
  auto rowsType =
      RankedTensorType::get({in[0]}, IntegerType::get(getContext(), 64));
  for (auto [name, value] :
       {std::pair<StringRef, Value>{"indices", getIndices()},
        {"inverse", getInverse()},
        {"counts", getCounts()}})
    if (value.getType() != rowsType)
      return emitOpError() << "result '" << name << "' must be " << rowsType
                           << ", but it is " << value.getType();
  return success();
}

LogicalResult UniqueOp::fold(FoldAdaptor adaptor,
                             SmallVectorImpl<OpFoldResult> &results) {
  std::optional<TypedTensor> x = readTypedTensor(adaptor.getX());
  if (!x || failed(verify()))
    return failure();
  int64_t n = x->getShape()[0], m = x->getShape()[1];
  // Each row compared with the ones before it.
  if (n > (int64_t(1) << 20) ||
      !withinFoldLimits({x->getNumElements(), n, n, n}, n * n * m))
    return failure();
  SmallVector<int64_t> first(n), rank(n, 0);
  SmallVector<int64_t> indices(n, 0), inverse(n), counts(n, 0);
  int64_t count = 0;
  TypedTensor values = TypedTensor::zeros(cast<RankedTensorType>(getType(0)));
  dispatchKind(x->getKind(), [&](auto t) {
    using T = decltype(t);
    auto at = [&](int64_t i, int64_t j) { return widen(x->get<T>(i * m + j)); };
    auto equal = [&](int64_t a, int64_t b) {
      for (int64_t j = 0; j < m; ++j)
        if (!(at(a, j) == at(b, j)))
          return false;
      return true;
    };
    auto less = [&](int64_t a, int64_t b) {
      for (int64_t j = 0; j < m; ++j) {
        if (at(a, j) < at(b, j))
          return true;
        if (at(b, j) < at(a, j))
          return false;
      }
      return false;
    };
    for (int64_t i = 0; i < n; ++i) {
      first[i] = i;
      for (int64_t j = 0; j < i; ++j)
        if (equal(j, i)) {
          first[i] = j;
          break;
        }
    }
    for (int64_t r = 0; r < n; ++r) {
      if (first[r] != r)
        continue;
      ++count;
      for (int64_t q = 0; q < n; ++q)
        if (first[q] == q && (getSorted() ? less(q, r) : q < r))
          ++rank[r];
    }
    for (int64_t i = 0; i < n; ++i) {
      int64_t k = rank[first[i]];
      inverse[i] = k;
      ++counts[k];
      if (first[i] != i)
        continue;
      indices[k] = i;
      for (int64_t j = 0; j < m; ++j)
        values.set<T>(k * m + j, x->get<T>(i * m + j));
    }
  });
  auto rowsType = cast<RankedTensorType>(getIndices().getType());
  results.push_back(values.toAttr());
  results.push_back(DenseElementsAttr::get(rowsType, ArrayRef(indices)));
  results.push_back(DenseElementsAttr::get(rowsType, ArrayRef(inverse)));
  results.push_back(DenseElementsAttr::get(rowsType, ArrayRef(counts)));
  results.push_back(DenseElementsAttr::get(
      cast<RankedTensorType>(getCount().getType()), count));
  return success();
}

//===----------------------------------------------------------------------===//
// graph.non_max_suppression
//===----------------------------------------------------------------------===//

LogicalResult NonMaxSuppressionOp::verify() {
  if (failed(checkTensorOf(*this, getBoxes(), "operand 'boxes'",
                           TypeClass::F32)) ||
      failed(checkTensorOf(*this, getScores(), "operand 'scores'",
                           TypeClass::F32)) ||
      failed(checkExtent(*this, getCount())))
    return failure();
  ArrayRef<int64_t> boxes = getDims(getBoxes()), scores = getDims(getScores());
  if (boxes.size() != 3 || boxes[2] != 4)
    return emitOpError() << "operand 'boxes' must be [B, N, 4], but has shape "
                         << formatDims(boxes);
  if (scores.size() != 3 || scores[0] != boxes[0] || scores[2] != boxes[1])
    return emitOpError() << "operand 'scores' must be [" << boxes[0] << ", C, "
                         << boxes[1] << "], but has shape "
                         << formatDims(scores);
  int64_t maxBoxes = getMaxOutputBoxesPerClass();
  if (maxBoxes < 0 || maxBoxes > boxes[1])
    return emitOpError() << "attribute 'max_output_boxes_per_class' ("
                         << maxBoxes << ") must be in [0, " << boxes[1]
                         << "], the number of boxes";
  auto selectedType = cast<RankedTensorType>(getSelected().getType());
  SmallVector<int64_t> shape = {boxes[0] * scores[1] * maxBoxes, 3};
  if (!selectedType.getElementType().isSignlessInteger(64) ||
      selectedType.getShape() != ArrayRef<int64_t>(shape))
    return emitOpError() << "result 'selected' must be a tensor<" << shape[0]
                         << "x3xi64>, but got " << selectedType;
  return success();
}

/// Whether box `a` and box `b` (4 floats each) overlap by more than
/// `threshold`: ONNX Runtime's SuppressByIOU, step for step.
static bool suppressByIOU(const float *a, const float *b, bool centerPoint,
                          float threshold) {
  float aMinX, aMaxX, bMinX, bMaxX, aMinY, aMaxY, bMinY, bMaxY;
  if (!centerPoint) {
    aMinX = std::min(a[1], a[3]), aMaxX = std::max(a[1], a[3]);
    bMinX = std::min(b[1], b[3]), bMaxX = std::max(b[1], b[3]);
  } else {
    float aHalf = a[2] / 2, bHalf = b[2] / 2;
    aMinX = a[0] - aHalf, aMaxX = a[0] + aHalf;
    bMinX = b[0] - bHalf, bMaxX = b[0] + bHalf;
  }
  float minX = std::max(aMinX, bMinX), maxX = std::min(aMaxX, bMaxX);
  if (maxX <= minX)
    return false;
  if (!centerPoint) {
    aMinY = std::min(a[0], a[2]), aMaxY = std::max(a[0], a[2]);
    bMinY = std::min(b[0], b[2]), bMaxY = std::max(b[0], b[2]);
  } else {
    float aHalf = a[3] / 2, bHalf = b[3] / 2;
    aMinY = a[1] - aHalf, aMaxY = a[1] + aHalf;
    bMinY = b[1] - bHalf, bMaxY = b[1] + bHalf;
  }
  float minY = std::max(aMinY, bMinY), maxY = std::min(aMaxY, bMaxY);
  if (maxY <= minY)
    return false;
  float intersection = (maxX - minX) * (maxY - minY);
  if (intersection <= 0.0f)
    return false;
  float areaA = (aMaxX - aMinX) * (aMaxY - aMinY);
  float areaB = (bMaxX - bMinX) * (bMaxY - bMinY);
  float unionArea = areaA + areaB - intersection;
  if (areaA <= 0.0f || areaB <= 0.0f || unionArea <= 0.0f)
    return false;
  return intersection / unionArea > threshold;
}

LogicalResult
NonMaxSuppressionOp::fold(FoldAdaptor adaptor,
                          SmallVectorImpl<OpFoldResult> &results) {
  auto selectedType = dyn_cast<RankedTensorType>(getSelected().getType());
  auto countType = dyn_cast<RankedTensorType>(getCount().getType());
  auto boxesAttr = dyn_cast_or_null<DenseElementsAttr>(adaptor.getBoxes());
  auto scoresAttr = dyn_cast_or_null<DenseElementsAttr>(adaptor.getScores());
  if (!selectedType || !countType || !boxesAttr || !scoresAttr ||
      failed(verify()))
    return failure();
  ArrayRef<int64_t> scoresShape = getDims(getScores());
  int64_t numBatches = scoresShape[0], numClasses = scoresShape[1],
          numBoxes = scoresShape[2];
  int64_t maxBoxes = getMaxOutputBoxesPerClass();
  // A scan of the boxes per candidate taken, and an overlap test against
  // each box selected.
  int64_t work = numBatches * numClasses * numBoxes * (numBoxes + maxBoxes);
  if (!withinFoldLimits({selectedType.getNumElements()}, work))
    return failure();
  SmallVector<float> boxes(boxesAttr.getValues<float>());
  SmallVector<float> scores(scoresAttr.getValues<float>());
  std::optional<float> scoreThreshold;
  if (auto threshold = getScoreThresholdAttr())
    scoreThreshold = threshold.getValueAsDouble();
  float iouThreshold = getIouThreshold().convertToFloat();
  bool centerPoint = getCenterPointBox();
  SmallVector<int64_t> selected(selectedType.getNumElements(), 0);
  int64_t count = 0;
  for (int64_t b = 0; b < numBatches; ++b)
    for (int64_t c = 0; c < numClasses; ++c) {
      const float *classScores = &scores[(b * numClasses + c) * numBoxes];
      const float *batchBoxes = &boxes[b * numBoxes * 4];
      SmallVector<int64_t> order;
      for (int64_t i = 0; i < numBoxes; ++i)
        if (!std::isnan(classScores[i]) &&
            (!scoreThreshold || classScores[i] > *scoreThreshold))
          order.push_back(i);
      std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) {
        return classScores[i] > classScores[j];
      });
      int64_t classStart = count;
      for (int64_t candidate : order) {
        if (count - classStart == maxBoxes)
          break;
        bool keep = true;
        for (int64_t s = classStart; keep && s < count; ++s)
          keep = !suppressByIOU(&batchBoxes[selected[s * 3 + 2] * 4],
                                &batchBoxes[candidate * 4], centerPoint,
                                iouThreshold);
        if (!keep)
          continue;
        selected[count * 3] = b;
        selected[count * 3 + 1] = c;
        selected[count * 3 + 2] = candidate;
        ++count;
      }
    }
  results.push_back(
      DenseElementsAttr::get(selectedType, ArrayRef<int64_t>(selected)));
  results.push_back(DenseElementsAttr::get(countType, count));
  return success();
}

//===----------------------------------------------------------------------===//
// graph.concat_prefixes
//===----------------------------------------------------------------------===//

LogicalResult ConcatPrefixesOp::verify() {
  // SameVariadicOperandSize splits an odd operand count silently.
  if (getInputs().empty() || getNumOperands() != 2 * getInputs().size())
    return emitOpError() << "needs one count per input, and an input";
  for (Value count : getCounts())
    if (failed(checkExtent(*this, count)))
      return failure();
  if (failed(checkExtent(*this, getCount())))
    return failure();
  auto first = cast<RankedTensorType>(getInputs().front().getType());
  int64_t rank = first.getRank(), axis = getAxis();
  if (axis < 0 || axis >= rank)
    return emitOpError() << "attribute 'axis' (" << axis << ") must be in [0, "
                         << rank << ")";
  SmallVector<int64_t> shape(first.getShape());
  shape[axis] = 0;
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    auto type = cast<RankedTensorType>(input.getType());
    bool matches = type.getRank() == rank &&
                   type.getElementType() == first.getElementType();
    for (int64_t d = 0; matches && d < rank; ++d)
      matches = d == axis || type.getDimSize(d) == first.getDimSize(d);
    if (!matches)
      return emitOpError() << "input " << i << " (" << type
                           << ") must have the element type of input 0 and "
                              "its sizes but along axis "
                           << axis << " (" << first << ")";
    shape[axis] += type.getDimSize(axis);
  }
  auto outputType = cast<RankedTensorType>(getOutput().getType());
  auto expected = RankedTensorType::get(shape, first.getElementType());
  if (outputType != expected)
    return emitOpError() << "result 'output' must be " << expected
                         << ", but got " << outputType;
  return success();
}

LogicalResult ConcatPrefixesOp::fold(FoldAdaptor adaptor,
                                     SmallVectorImpl<OpFoldResult> &results) {
  auto outputType = dyn_cast<RankedTensorType>(getOutput().getType());
  auto countType = dyn_cast<RankedTensorType>(getCount().getType());
  if (!outputType || !countType || failed(verify()) ||
      !withinFoldLimits({outputType.getNumElements()},
                        outputType.getNumElements()))
    return failure();
  SmallVector<TypedTensor> inputs;
  SmallVector<int64_t> counts;
  for (auto [input, count] :
       llvm::zip_equal(adaptor.getInputs(), adaptor.getCounts())) {
    std::optional<TypedTensor> value = readTypedTensor(input);
    auto extent = dyn_cast_or_null<DenseIntElementsAttr>(count);
    if (!value || !extent)
      return failure();
    inputs.push_back(std::move(*value));
    counts.push_back((*extent.getValues<APInt>().begin()).getSExtValue());
  }
  ArrayRef<int64_t> shape = outputType.getShape();
  int64_t axis = getAxis();
  int64_t outer = llvm::product_of(shape.take_front(axis));
  int64_t inner = llvm::product_of(shape.drop_front(axis + 1));
  TypedTensor output = TypedTensor::zeros(outputType);
  int64_t total = 0;
  dispatchKind(output.getKind(), [&](auto t) {
    using T = decltype(t);
    for (auto [input, count] : llvm::zip_equal(inputs, counts)) {
      int64_t bound = input.getShape()[axis];
      int64_t valid = std::clamp<int64_t>(count, 0, bound);
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t r = 0; r < valid; ++r)
          for (int64_t i = 0; i < inner; ++i)
            output.set<T>((o * shape[axis] + total + r) * inner + i,
                          input.template get<T>((o * bound + r) * inner + i));
      total += valid;
    }
  });
  results.push_back(output.toAttr());
  results.push_back(DenseElementsAttr::get(countType, total));
  return success();
}
