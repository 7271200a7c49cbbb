//===- ConstantTensor.h - Reading and writing f32 constants -----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One way to read the value of a constant, however it is stored (dense,
// splat, dense_resource), and to build a folded result. Used by the fold hooks
// and by the transforms that rewrite constant weights.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_DIALECT_GRAPH_IR_CONSTANTTENSOR_H
#define GRAPH_DIALECT_GRAPH_IR_CONSTANTTENSOR_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir {
namespace graph {

/// The value of a static f32 tensor constant.
struct ConstantTensor {
  RankedTensorType type;
  /// Set when every element is `splatValue`; `values` is then empty.
  bool isSplat = false;
  float splatValue = 0.0f;
  /// The elements in row-major order, unless `isSplat`.
  SmallVector<float> values;

  int64_t getNumElements() const { return type.getNumElements(); }
  ArrayRef<int64_t> getShape() const { return type.getShape(); }
  /// Element `i` in row-major order, whichever way it is stored.
  float operator[](int64_t i) const { return isSplat ? splatValue : values[i]; }
  /// All elements, expanding a splat.
  SmallVector<float> expand() const;
};

/// Reads `attr` as a static f32 tensor: a DenseElementsAttr (splat or not) or
/// a DenseResourceElementsAttr. Returns nullopt for anything else, including
/// a null attribute (an operand that is not constant).
std::optional<ConstantTensor> readConstantTensor(Attribute attr);

/// Builds the attribute for a folded result; splat when every value is the
/// same bit pattern.
DenseElementsAttr makeConstantTensor(RankedTensorType type,
                                     ArrayRef<float> values);

/// Builds a splat attribute.
DenseElementsAttr makeSplatTensor(RankedTensorType type, float value);

} // namespace graph
} // namespace mlir

#endif // GRAPH_DIALECT_GRAPH_IR_CONSTANTTENSOR_H
