//===- TypedFolds.h - Folds of the core ops beyond f32 ----------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Private to lib/Dialect/Graph/IR: the fold hooks of GraphFolds.cpp handle
// f32 themselves and hand every other element type to these.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_DIALECT_GRAPH_IR_TYPEDFOLDS_H
#define LIB_DIALECT_GRAPH_IR_TYPEDFOLDS_H

#include "graph/Dialect/Graph/IR/ReferenceKernels.h"
#include "graph/Dialect/Graph/IR/TypedTensor.h"

#include "mlir/IR/OpDefinition.h"

namespace mlir {
namespace graph {

/// The static result type of `op`, when it has a kind.
inline RankedTensorType getTypedResult(Operation *op) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape() || !getElementKind(type.getElementType()))
    return {};
  return type;
}

/// The static result type of `op` and its element kind, when it has one.
inline std::optional<std::pair<RankedTensorType, ElementKind>>
getTypedResultKind(Operation *op) {
  RankedTensorType type = getTypedResult(op);
  if (!type)
    return std::nullopt;
  return std::make_pair(type, *getElementKind(type.getElementType()));
}

/// add, sub, mul, div of a non-f32 result type (integers wrap; integer
/// division truncates, by 0 gives 0).
OpFoldResult foldTypedArithmetic(reference::BinaryKind kind, Attribute lhs,
                                 Attribute rhs, Type resultType);

/// transpose of a non-f32 constant.
OpFoldResult foldTypedTranspose(Attribute x, ArrayRef<int64_t> perm,
                                Type resultType);

/// `x` transposed by `perm`, or nothing past the fold limits.
std::optional<TypedTensor> permuteTypedTensor(const TypedTensor &x,
                                              ArrayRef<int64_t> perm);

/// concat of non-f32 constants along a normalized `axis`.
OpFoldResult foldTypedConcat(ArrayRef<Attribute> inputs, int64_t axis,
                             Type resultType);

} // namespace graph
} // namespace mlir

#endif // LIB_DIALECT_GRAPH_IR_TYPEDFOLDS_H
