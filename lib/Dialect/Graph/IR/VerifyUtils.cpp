//===- VerifyUtils.cpp - Shared checks of the op verifiers ------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "VerifyUtils.h"
#include "graph/Dialect/Graph/IR/FoldLimits.h"
#include "graph/Dialect/Graph/IR/ReferenceKernels.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::graph;

bool mlir::graph::isInClass(ElementKind kind, TypeClass cls) {
  switch (cls) {
  case TypeClass::F32:
    return kind == ElementKind::F32;
  case TypeClass::Float:
    return isFloatKind(kind);
  case TypeClass::Numeric:
    return kind != ElementKind::Bool;
  case TypeClass::SignedNumeric:
    return kind != ElementKind::Bool && !isUnsignedKind(kind);
  case TypeClass::Integer:
    return isIntegerKind(kind);
  case TypeClass::Unsigned:
    return isUnsignedKind(kind);
  case TypeClass::Index:
    return kind == ElementKind::I32 || kind == ElementKind::I64;
  case TypeClass::Bool:
    return kind == ElementKind::Bool;
  case TypeClass::Any:
    return true;
  }
  return false;
}

static StringRef describeClass(TypeClass cls) {
  switch (cls) {
  case TypeClass::F32:
    return "f32";
  case TypeClass::Float:
    return "floats (f16, bf16, f32 or f64)";
  case TypeClass::Numeric:
    return "numbers (integers or floats, not i1)";
  case TypeClass::SignedNumeric:
    return "signed numbers (signless integers or floats)";
  case TypeClass::Integer:
    return "integers (i8..i64 or ui8..ui64)";
  case TypeClass::Unsigned:
    return "unsigned integers (ui8..ui64)";
  case TypeClass::Index:
    return "indices (i32 or i64)";
  case TypeClass::Bool:
    return "i1";
  case TypeClass::Any:
    return "bool, integers or floats";
  }
  return "";
}

LogicalResult mlir::graph::checkTensorSize(Operation *op, RankedTensorType type,
                                           const Twine &what) {
  std::optional<int64_t> count = getCheckedNumElements(type.getShape());
  int64_t elementBytes =
      std::max<int64_t>(llvm::divideCeil(type.getElementTypeBitWidth(), 8), 1);
  if (count && llvm::checkedMul(*count, elementBytes))
    return success();
  return op->emitOpError() << what << " of type " << type
                           << " is too large: its size in bytes does not fit "
                              "in int64";
}

LogicalResult mlir::graph::checkTensorOf(Operation *op, Value value,
                                         const Twine &what, TypeClass cls) {
  auto shaped = dyn_cast<ShapedType>(value.getType());
  std::optional<ElementKind> kind =
      shaped ? getElementKind(shaped.getElementType()) : std::nullopt;
  bool accepted = kind && isInClass(*kind, cls);
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (accepted && type && type.hasStaticShape())
    return checkTensorSize(op, type, what);
  // An accepted element type in a dynamic shape: the message names that
  // type (for f32, the core ops' message word for word).
  InFlightDiagnostic diag =
      op->emitOpError() << what << " must be a statically shaped tensor of ";
  if (accepted) {
    std::string name;
    llvm::raw_string_ostream os(name);
    os << shaped.getElementType();
    diag << name;
  } else {
    diag << describeClass(cls);
  }
  return diag << ", but got " << value.getType();
}

LogicalResult mlir::graph::checkSameElementType(Operation *op, Value value,
                                                const Twine &what, Value other,
                                                const Twine &otherWhat) {
  Type a = cast<ShapedType>(value.getType()).getElementType();
  Type b = cast<ShapedType>(other.getType()).getElementType();
  if (a == b)
    return success();
  return op->emitOpError() << otherWhat << " has element type " << b << ", but "
                           << what << " has " << a;
}

LogicalResult mlir::graph::checkOperandsOf(Operation *op,
                                           ArrayRef<StringRef> names,
                                           TypeClass cls) {
  assert(op->getNumOperands() <= names.size() && "an operand has no name");
  for (auto [operand, name] : llvm::zip(op->getOperands(), names))
    if (failed(checkTensorOf(op, operand, "operand '" + name + "'", cls)))
      return failure();
  if (failed(checkTensorOf(op, op->getResult(0), "result 'output'", cls)))
    return failure();
  for (auto [operand, name] : llvm::zip(op->getOperands(), names))
    if (failed(checkSameElementType(op, op->getResult(0), "result 'output'",
                                    operand, "operand '" + name + "'")))
      return failure();
  return success();
}

FailureOr<SmallVector<int64_t>>
mlir::graph::broadcastOperands(Operation *op, ArrayRef<StringRef> names) {
  SmallVector<int64_t> shape(getDims(op->getOperand(0)));
  for (unsigned i = 1; i < op->getNumOperands(); ++i) {
    std::optional<SmallVector<int64_t>> joined =
        reference::broadcastShapes(shape, getDims(op->getOperand(i)));
    if (!joined) {
      InFlightDiagnostic diag = op->emitOpError() << "operands";
      for (unsigned j = 0; j <= i; ++j)
        diag << (j ? (j == i ? " and '" : ", '") : " '") << names[j]
             << "' of shape " << formatDims(getDims(op->getOperand(j)));
      return diag << " do not broadcast";
    }
    shape = std::move(*joined);
  }
  return shape;
}

LogicalResult mlir::graph::checkBroadcastsOnto(Operation *op, Value value,
                                               const Twine &what,
                                               ArrayRef<int64_t> shape) {
  ArrayRef<int64_t> dims = getDims(value);
  std::optional<SmallVector<int64_t>> broadcast =
      reference::broadcastShapes(dims, shape);
  if (broadcast && ArrayRef<int64_t>(*broadcast) == shape)
    return success();
  return op->emitOpError() << what << " " << formatDims(dims)
                           << " must broadcast to " << formatDims(shape)
                           << " without changing it";
}

std::string mlir::graph::formatDims(ArrayRef<int64_t> shape) {
  std::string str;
  llvm::raw_string_ostream os(str);
  os << '[';
  llvm::interleaveComma(shape, os);
  os << ']';
  return str;
}

ArrayRef<int64_t> mlir::graph::getDims(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

LogicalResult mlir::graph::checkResultDims(Operation *op,
                                           ArrayRef<int64_t> expected) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  if (type.getShape() == expected)
    return success();
  return op->emitOpError() << "result type " << type << " does not match "
                           << "the expected "
                           << RankedTensorType::get(expected,
                                                    type.getElementType());
}

FailureOr<int64_t> mlir::graph::checkAxisIn(Operation *op, StringRef name,
                                            int64_t axis, int64_t rank,
                                            int64_t extra) {
  if (axis >= -rank && axis < rank + extra)
    return axis < 0 ? axis + rank : axis;
  return op->emitOpError() << "attribute '" << name << "' must be in [" << -rank
                           << ", " << rank + extra - 1 << "], but got " << axis;
}

LogicalResult mlir::graph::checkArrayAttr(Operation *op, StringRef name,
                                          ArrayRef<int64_t> values, size_t size,
                                          int64_t min) {
  if (values.size() != size)
    return op->emitOpError() << "attribute '" << name << "' must have " << size
                             << " elements, but got " << values.size();
  if (llvm::any_of(values, [&](int64_t v) { return v < min; }))
    return op->emitOpError()
           << "attribute '" << name << "' must have elements >= " << min
           << ", but got " << formatDims(values);
  return success();
}

LogicalResult mlir::graph::checkDataAndResult(Operation *op, Value data,
                                              StringRef name, TypeClass cls) {
  std::string what = ("operand '" + name + "'").str();
  return failure(
      failed(checkTensorOf(op, data, what, cls)) ||
      failed(checkTensorOf(op, op->getResult(0), "result 'output'", cls)) ||
      failed(checkSameElementType(op, data, what, op->getResult(0),
                                  "result 'output'")));
}
