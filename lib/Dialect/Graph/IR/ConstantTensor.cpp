//===- ConstantTensor.cpp - Reading and writing f32 constants ---*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/ConstantTensor.h"
#include "graph/Dialect/Graph/IR/FoldLimits.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace mlir::graph;

SmallVector<float> ConstantTensor::expand() const {
  if (!isSplat)
    return values;
  return SmallVector<float>(getNumElements(), splatValue);
}

std::optional<ConstantTensor> mlir::graph::readConstantTensor(Attribute attr) {
  if (!attr)
    return std::nullopt;
  auto typed = dyn_cast<TypedAttr>(attr);
  if (!typed)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(typed.getType());
  if (!type || !type.hasStaticShape() || !type.getElementType().isF32() ||
      !getCheckedNumElements(type.getShape()))
    return std::nullopt;

  ConstantTensor tensor;
  tensor.type = type;
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (dense.isSplat()) {
      tensor.isSplat = true;
      tensor.splatValue = dense.getSplatValue<float>();
      return tensor;
    }
    auto range = dense.getValues<float>();
    tensor.values.assign(range.begin(), range.end());
    return tensor;
  }
  if (auto resource = dyn_cast<DenseF32ResourceElementsAttr>(attr)) {
    std::optional<ArrayRef<float>> data = resource.tryGetAsArrayRef();
    if (!data || static_cast<int64_t>(data->size()) != type.getNumElements())
      return std::nullopt;
    tensor.values.assign(data->begin(), data->end());
    return tensor;
  }
  return std::nullopt;
}

DenseElementsAttr mlir::graph::makeConstantTensor(RankedTensorType type,
                                                  ArrayRef<float> values) {
  assert(static_cast<int64_t>(values.size()) == type.getNumElements());
  // Compare bit patterns, not values: -0.0 and +0.0 must not merge.
  bool allSame = !values.empty();
  for (float v : values)
    if (llvm::bit_cast<uint32_t>(v) != llvm::bit_cast<uint32_t>(values[0])) {
      allSame = false;
      break;
    }
  if (allSame)
    return makeSplatTensor(type, values[0]);
  return DenseElementsAttr::get(type, values);
}

DenseElementsAttr mlir::graph::makeSplatTensor(RankedTensorType type,
                                               float value) {
  return DenseElementsAttr::get(type, value);
}
