//===- IndexingOps.cpp - Gathers and scatters -----------------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Verifiers and fold hooks of graph.gather, graph.gather_elements and
// graph.scatter_elements (GraphShapeOps.td): indices are checked against
// their axis where they are constants, and the folds copy the bytes of the
// positions they name, exact for every element type.
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
// graph.gather and graph.gather_elements
//===----------------------------------------------------------------------===//

/// A gathered index: negative counts from the end, out of range clamps.
static int64_t normalizeIndex(int64_t index, int64_t size) {
  if (index < 0)
    index += size;
  return std::clamp<int64_t>(index, 0, std::max<int64_t>(size - 1, 0));
}

LogicalResult GatherOp::verify() {
  if (failed(checkDataAndResult(*this, getData(), "data", TypeClass::Any)) ||
      failed(checkTensorOf(*this, getIndices(), "operand 'indices'",
                           TypeClass::Index)))
    return failure();
  ArrayRef<int64_t> data = getDims(getData()), indices = getDims(getIndices());
  if (data.empty())
    return emitOpError() << "operand 'data' must have rank >= 1";
  FailureOr<int64_t> axis = checkAxisIn(*this, "axis", getAxis(), data.size());
  if (failed(axis))
    return failure();
  if (data[*axis] == 0 && llvm::product_of(indices) != 0)
    return emitOpError() << "gathers from an empty dimension";
  SmallVector<int64_t> shape(data.take_front(*axis));
  shape.append(indices.begin(), indices.end());
  shape.append(data.begin() + *axis + 1, data.end());
  return checkResultDims(*this, shape);
}

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  RankedTensorType type = getTypedResult(*this);
  std::optional<TypedTensor> data = readTypedTensor(adaptor.getData());
  std::optional<TypedTensor> indices = readTypedTensor(adaptor.getIndices());
  if (!type || !data || !indices || failed(verify()))
    return {};
  if (data->isSplat())
    return data->gather(type, {}).toAttr();
  if (!withinFoldLimits(type.getNumElements()))
    return {};
  int64_t axis = normalizedAxis(getAxis(), data->getShape().size());
  ArrayRef<int64_t> shape = data->getShape();
  int64_t outer = llvm::product_of(shape.take_front(axis));
  int64_t size = shape[axis];
  int64_t inner = llvm::product_of(shape.drop_front(axis + 1));
  int64_t count = indices->getNumElements();
  SmallVector<int64_t> positions;
  positions.reserve(type.getNumElements());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < count; ++i) {
      int64_t index = normalizeIndex(indices->getInt(i), size);
      for (int64_t n = 0; n < inner; ++n)
        positions.push_back((o * size + index) * inner + n);
    }
  return data->gather(type, positions).toAttr();
}

LogicalResult GatherElementsOp::verify() {
  if (failed(checkDataAndResult(*this, getData(), "data", TypeClass::Any)) ||
      failed(checkTensorOf(*this, getIndices(), "operand 'indices'",
                           TypeClass::Index)))
    return failure();
  ArrayRef<int64_t> data = getDims(getData()), indices = getDims(getIndices());
  if (data.empty() || indices.size() != data.size())
    return emitOpError() << "operand 'indices' of rank " << indices.size()
                         << " must have the rank of operand 'data' ("
                         << data.size() << ", at least 1)";
  FailureOr<int64_t> axis = checkAxisIn(*this, "axis", getAxis(), data.size());
  if (failed(axis))
    return failure();
  for (size_t d = 0; d < data.size(); ++d)
    if (int64_t(d) != *axis && indices[d] > data[d])
      return emitOpError() << "operand 'indices' dim " << d << " ("
                           << indices[d] << ") exceeds operand 'data' dim " << d
                           << " (" << data[d] << ")";
  if (data[*axis] == 0 && llvm::product_of(indices) != 0)
    return emitOpError() << "gathers from an empty dimension";
  return checkResultDims(*this, indices);
}

OpFoldResult GatherElementsOp::fold(FoldAdaptor adaptor) {
  RankedTensorType type = getTypedResult(*this);
  std::optional<TypedTensor> data = readTypedTensor(adaptor.getData());
  std::optional<TypedTensor> indices = readTypedTensor(adaptor.getIndices());
  if (!type || !data || !indices || failed(verify()))
    return {};
  if (data->isSplat())
    return data->gather(type, {}).toAttr();
  if (!withinFoldLimits(type.getNumElements()))
    return {};
  int64_t rank = data->getShape().size();
  int64_t axis = normalizedAxis(getAxis(), rank);
  SmallVector<int64_t> strides = ref::rowMajorStrides(data->getShape());
  SmallVector<int64_t> positions;
  int64_t i = 0;
  ref::forEachIndex(type.getShape(), [&](ArrayRef<int64_t> index) {
    int64_t position = 0;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t v = d == axis
                      ? normalizeIndex(indices->getInt(i), data->getShape()[d])
                      : index[d];
      position += v * strides[d];
    }
    positions.push_back(position);
    ++i;
  });
  return data->gather(type, positions).toAttr();
}

//===----------------------------------------------------------------------===//
// graph.scatter_elements
//===----------------------------------------------------------------------===//

LogicalResult ScatterElementsOp::verify() {
  if (failed(checkDataAndResult(*this, getData(), "data", TypeClass::Any)) ||
      failed(checkTensorOf(*this, getIndices(), "operand 'indices'",
                           TypeClass::Index)) ||
      failed(checkTensorOf(*this, getUpdates(), "operand 'updates'",
                           TypeClass::Any)) ||
      failed(checkSameElementType(*this, getData(), "operand 'data'",
                                  getUpdates(), "operand 'updates'")))
    return failure();
  ArrayRef<int64_t> data = getDims(getData()), indices = getDims(getIndices());
  if (getDims(getUpdates()) != indices)
    return emitOpError() << "operand 'updates' of shape "
                         << formatDims(getDims(getUpdates()))
                         << " must have the shape of operand 'indices' "
                         << formatDims(indices);
  if (data.empty() || indices.size() != data.size())
    return emitOpError() << "operand 'indices' of rank " << indices.size()
                         << " must have the rank of operand 'data' ("
                         << data.size() << ", at least 1)";
  FailureOr<int64_t> axis = checkAxisIn(*this, "axis", getAxis(), data.size());
  if (failed(axis))
    return failure();
  for (size_t d = 0; d < data.size(); ++d)
    if (int64_t(d) != *axis && indices[d] > data[d])
      return emitOpError() << "operand 'indices' dim " << d << " ("
                           << indices[d] << ") exceeds operand 'data' dim " << d
                           << " (" << data[d] << ")";
  if (data[*axis] == 0 && llvm::product_of(indices) != 0)
    return emitOpError() << "scatters into an empty dimension";
  StringRef reduction = getReduction();
  if (reduction != "none" && reduction != "add" && reduction != "mul" &&
      reduction != "max" && reduction != "min")
    return emitOpError() << "attribute 'reduction' must be none, add, mul, "
                            "max or min, but got '"
                         << reduction << "'";
  if (reduction != "none" &&
      cast<RankedTensorType>(getData().getType()).getElementType().isInteger(1))
    return emitOpError() << "attribute 'reduction' " << reduction
                         << " needs numbers, not i1";
  return checkResultDims(*this, data);
}

/// Combines an element with an update as the lowering does.
template <typename T>
static T combineScatter(StringRef reduction, T old, T update) {
  if constexpr (std::is_same_v<T, bool>) {
    return update;
  } else {
    using C = ComputeType<T>;
    C a = widen(old), b = widen(update);
    C r = b;
    if constexpr (std::is_floating_point_v<C>) {
      if (reduction == "add")
        r = a + b;
      else if (reduction == "mul")
        r = a * b;
      else if (reduction == "max")
        r = scalar::maximumF(a, b);
      else if (reduction == "min")
        r = scalar::minimumF(a, b);
    } else {
      if (reduction == "add")
        r = scalar::wrapAdd(a, b);
      else if (reduction == "mul")
        r = scalar::wrapMul(a, b);
      else if (reduction == "max")
        r = a > b ? a : b;
      else if (reduction == "min")
        r = a < b ? a : b;
    }
    return narrow<T>(r);
  }
}

OpFoldResult ScatterElementsOp::fold(FoldAdaptor adaptor) {
  RankedTensorType type = getTypedResult(*this);
  std::optional<TypedTensor> data = readTypedTensor(adaptor.getData());
  std::optional<TypedTensor> indices = readTypedTensor(adaptor.getIndices());
  std::optional<TypedTensor> updates = readTypedTensor(adaptor.getUpdates());
  if (!type || !data || !indices || !updates || failed(verify()))
    return {};
  if (!withinFoldLimits(type.getNumElements()))
    return {};
  ArrayRef<int64_t> shape = data->getShape();
  int64_t rank = shape.size();
  int64_t axis = normalizedAxis(getAxis(), rank);
  SmallVector<int64_t> strides = ref::rowMajorStrides(shape);
  // In row-major order of the updates: later ones win, as in the loops.
  TypedTensor out = data->expanded();
  StringRef reduction = getReduction();
  int64_t i = 0;
  ref::forEachIndex(updates->getShape(), [&](ArrayRef<int64_t> index) {
    int64_t position = 0;
    for (int64_t d = 0; d < rank; ++d)
      position += (d == axis ? normalizeIndex(indices->getInt(i), shape[d])
                             : index[d]) *
                  strides[d];
    dispatchKind(out.getKind(), [&](auto t) {
      using T = decltype(t);
      out.set<T>(position, combineScatter<T>(reduction, out.get<T>(position),
                                             updates->get<T>(i)));
    });
    ++i;
  });
  return out.toAttr();
}
