//===- Tensor.h - Typed tensors that models read and write ------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The element types a compiled model exchanges with its caller, the
// description of one input or output (name, shape, element type) and an
// aligned buffer holding one. Compiled code takes each tensor as a dense,
// C-order block of elements; booleans are one byte each (0 or 1), as LLVM
// stores i1 and NumPy stores bool.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_RUNTIME_TENSOR_H
#define GRAPH_RUNTIME_TENSOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace mlir {
namespace graph {
namespace runtime {

/// An element type of a model's inputs and outputs.
enum class ElementType : uint8_t {
  F16,
  F32,
  F64,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  Bool,
  /// bfloat16, the upper half of an f32. NumPy has no such type: a .npy
  /// file holds it as float32 (or, read, as uint16 bits).
  BF16,
};

/// Bytes per element.
unsigned getByteSize(ElementType type);

/// NumPy's name: `float32`, `int64`, `bool`, ...
llvm::StringRef getName(ElementType type);

/// NumPy's little-endian type string: `<f4`, `<i8`, `|b1`, ...; bfloat16
/// has none (empty).
llvm::StringRef getNpyDescr(ElementType type);

/// A bfloat16's bits, `value` rounded to the nearest (ties to even; NaN
/// stays NaN), and the float they are.
uint16_t toBFloat16Bits(float value);
float fromBFloat16Bits(uint16_t bits);

/// The element type of a NumPy type string (`<f4`, `|u1`, `<i8`, ...), if it
/// is one of ours and little-endian (or byte-sized).
std::optional<ElementType> parseNpyDescr(llvm::StringRef descr);

/// Formats a shape the way NumPy prints it: `()`, `(3,)`, `(2, 3)`.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// Adds the shapes of `spec` (`NAME=AxBxC[,NAME=...]`, as --input-shape
/// takes them) to `shapes`, or returns false with a message in `error`.
bool parseInputShapes(llvm::StringRef spec,
                      llvm::StringMap<llvm::SmallVector<int64_t>> &shapes,
                      std::string &error);

/// An input or output of a model: a static-shaped tensor.
struct TensorSpec {
  /// `graph.name` when the function gives one, else `argN` / `resultN`.
  std::string name;
  llvm::SmallVector<int64_t> shape;
  ElementType elementType = ElementType::F32;
  int64_t numElements = 1;
  /// For an output of run-time size (ModelMetadata.h): for each dimension,
  /// the index of the output that holds its extent after a run, or -1 for a
  /// dimension of fixed size; `shape` is then the bound. Empty for a tensor
  /// of static shape.
  llvm::SmallVector<int64_t> extentOutputs;
  /// Whether this output holds another output's extent (an i64 of rank 0)
  /// rather than being one of the model's outputs.
  bool isExtent = false;

  bool hasRunTimeShape() const { return !extentOutputs.empty(); }

  int64_t getByteSize() const {
    return numElements * runtime::getByteSize(elementType);
  }
};

/// A tensor's elements, dense and in C order, aligned to a cache line (which
/// vector code may rely on). Never empty: a tensor of no elements still gets
/// a (minimal) block, so that its pointer is valid.
class TensorBuffer {
public:
  TensorBuffer() = default;
  /// Fails (returns an empty buffer, `isAllocated()` false) only when the
  /// memory cannot be had.
  TensorBuffer(ElementType elementType, int64_t numElements);
  explicit TensorBuffer(const TensorSpec &spec)
      : TensorBuffer(spec.elementType, spec.numElements) {}

  bool isAllocated() const { return bool(storage); }
  ElementType getElementType() const { return elementType; }
  int64_t size() const { return numElements; }
  int64_t getByteSize() const {
    return numElements * runtime::getByteSize(elementType);
  }

  void *data() { return storage.get(); }
  const void *data() const { return storage.get(); }
  llvm::MutableArrayRef<char> bytes() {
    return {static_cast<char *>(data()), size_t(getByteSize())};
  }
  llvm::ArrayRef<char> bytes() const {
    return {static_cast<const char *>(data()), size_t(getByteSize())};
  }

  /// The elements as `T`, which must match the element type's size.
  template <typename T> llvm::MutableArrayRef<T> values() {
    return {static_cast<T *>(data()), size_t(size())};
  }
  template <typename T> llvm::ArrayRef<T> values() const {
    return {static_cast<const T *>(data()), size_t(size())};
  }

  /// Element `i` converted to double (bool as 0 or 1), for printing and
  /// comparing outputs of any type.
  double getAsDouble(int64_t i) const;

private:
  struct Free {
    void operator()(void *ptr) const;
  };
  std::unique_ptr<void, Free> storage;
  ElementType elementType = ElementType::F32;
  int64_t numElements = 0;
};

} // namespace runtime
} // namespace graph
} // namespace mlir

#endif // GRAPH_RUNTIME_TENSOR_H
