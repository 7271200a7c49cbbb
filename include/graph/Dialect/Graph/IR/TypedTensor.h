//===- TypedTensor.h - Constants of every element type ----------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The value of a constant of any element type that graph ops compute on
// (bool, signed and unsigned integers, f16, bf16, f32, f64), however it is
// stored (dense, splat, dense_resource), as packed little-endian bytes. The
// fold hooks of the ops that take more than f32 read and build constants
// through it; ConstantTensor.h stays the f32 fast path.
//
// Kernels are written once as templates over the C++ type of an element and
// instantiated by `dispatchKind`. f16 and bf16 compute in float and round
// back after every operation, as the lowering does (it extends to f32 and
// truncates), so that folding and running agree bit for bit.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_DIALECT_GRAPH_IR_TYPEDTENSOR_H
#define GRAPH_DIALECT_GRAPH_IR_TYPEDTENSOR_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>
#include <vector>

namespace mlir {
namespace graph {

/// The element types of graph tensors. `Bool` is `i1`; the unsigned kinds
/// are `ui8`..`ui64`; the signed ones the signless `i8`..`i64`.
enum class ElementKind : uint8_t {
  Bool,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  F16,
  BF16,
  F32,
  F64
};

/// The kind of `type`, or nullopt for an element type graph ops do not take.
std::optional<ElementKind> getElementKind(Type type);
/// The MLIR element type of `kind`.
Type getElementType(MLIRContext *context, ElementKind kind);
/// Bytes of one element in memory; a bool takes a byte.
unsigned getElementBytes(ElementKind kind);
bool isFloatKind(ElementKind kind);
/// Signed or unsigned integers, not bool.
bool isIntegerKind(ElementKind kind);
bool isUnsignedKind(ElementKind kind);

/// An f16 element: its bits. Arithmetic goes through float.
struct Half {
  uint16_t bits;
};
/// A bf16 element: its bits. Arithmetic goes through float.
struct BFloat16 {
  uint16_t bits;
};
float toFloat(Half value);
float toFloat(BFloat16 value);
/// Rounds to the nearest f16 (ties to even), as `arith.truncf` does.
Half toHalf(float value);
/// Rounds to the nearest bf16 (ties to even), as `arith.truncf` does.
BFloat16 toBFloat16(float value);
/// Rounds a double to the nearest f16 once (not through float).
Half toHalf(double value);
BFloat16 toBFloat16(double value);

/// The type that computes on elements stored as T: float for the 16-bit
/// floats, T itself otherwise.
template <typename T> struct ComputeTypeOf { using type = T; };
template <> struct ComputeTypeOf<Half> { using type = float; };
template <> struct ComputeTypeOf<BFloat16> { using type = float; };
template <typename T> using ComputeType = typename ComputeTypeOf<T>::type;

/// Widens a stored element to its compute type.
template <typename T> ComputeType<T> widen(T value) {
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>)
    return toFloat(value);
  else
    return value;
}
/// Rounds a computed value back to storage.
template <typename T> T narrow(ComputeType<T> value) {
  if constexpr (std::is_same_v<T, Half>)
    return toHalf(value);
  else if constexpr (std::is_same_v<T, BFloat16>)
    return toBFloat16(value);
  else
    return value;
}

template <typename T>
constexpr bool isFloatStorage =
    std::is_floating_point_v<T> || std::is_same_v<T, Half> ||
    std::is_same_v<T, BFloat16>;

/// Calls `fn(T())` with T the C++ type that stores an element of `kind`:
/// bool, int8_t..int64_t, uint8_t..uint64_t, Half, BFloat16, float, double.
template <typename Fn> decltype(auto) dispatchKind(ElementKind kind, Fn &&fn) {
  switch (kind) {
  case ElementKind::Bool:
    return fn(bool());
  case ElementKind::I8:
    return fn(int8_t());
  case ElementKind::I16:
    return fn(int16_t());
  case ElementKind::I32:
    return fn(int32_t());
  case ElementKind::I64:
    return fn(int64_t());
  case ElementKind::U8:
    return fn(uint8_t());
  case ElementKind::U16:
    return fn(uint16_t());
  case ElementKind::U32:
    return fn(uint32_t());
  case ElementKind::U64:
    return fn(uint64_t());
  case ElementKind::F16:
    return fn(Half());
  case ElementKind::BF16:
    return fn(BFloat16());
  case ElementKind::F32:
    return fn(float());
  case ElementKind::F64:
    return fn(double());
  }
  return fn(float());
}

/// A static tensor constant of any kind, as packed bytes: one element when
/// it is a splat, every element in row-major order otherwise.
class TypedTensor {
public:
  TypedTensor(RankedTensorType type, ElementKind kind, bool splat,
              std::vector<char> bytes)
      : type(type), kind(kind), splat(splat), bytes(std::move(bytes)) {}

  /// A non-splat tensor of `type` whose every element is zero.
  static TypedTensor zeros(RankedTensorType type);

  RankedTensorType getType() const { return type; }
  ElementKind getKind() const { return kind; }
  bool isSplat() const { return splat; }
  int64_t getNumElements() const { return type.getNumElements(); }
  ArrayRef<int64_t> getShape() const { return type.getShape(); }
  unsigned getElementBytes() const { return graph::getElementBytes(kind); }
  ArrayRef<char> getBytes() const { return bytes; }

  /// Element `i` in row-major order, stored as T (the kind's storage type).
  template <typename T> T get(int64_t i) const {
    T value;
    std::memcpy(&value, bytes.data() + (splat ? 0 : i) * sizeof(T), sizeof(T));
    return value;
  }
  /// Sets element `i` of a non-splat tensor.
  template <typename T> void set(int64_t i, T value) {
    std::memcpy(bytes.data() + i * sizeof(T), &value, sizeof(T));
  }

  /// Element `i` of an integer or bool tensor as int64 (unsigned 64-bit
  /// values wrap); of a float tensor, truncated toward zero.
  int64_t getInt(int64_t i) const;
  /// Element `i` converted to double.
  double getDouble(int64_t i) const;
  /// Every element through getInt.
  SmallVector<int64_t> getInts() const;

  /// The elements `indices` (row-major positions in this tensor), in that
  /// order, as a tensor of `resultType` (the same element type).
  TypedTensor gather(RankedTensorType resultType,
                     ArrayRef<int64_t> indices) const;
  /// The same elements under another shape.
  TypedTensor reshaped(RankedTensorType resultType) const;
  /// A copy that stores every element (a splat expanded).
  TypedTensor expanded() const;

  /// The attribute holding this value: a splat when every element has the
  /// same bits.
  DenseElementsAttr toAttr() const;

private:
  RankedTensorType type;
  ElementKind kind;
  bool splat;
  std::vector<char> bytes;
};

/// Reads `attr` (DenseElementsAttr or DenseResourceElementsAttr of a static
/// tensor type with an element type that graph ops take). Returns nullopt for
/// anything else, including a null attribute.
std::optional<TypedTensor> readTypedTensor(Attribute attr);

/// For each element of `outShape` (row-major), the row-major position of the
/// element of a tensor of `shape` that NumPy broadcasting reads there.
SmallVector<int64_t> broadcastSourceIndices(ArrayRef<int64_t> shape,
                                            ArrayRef<int64_t> outShape);

/// Elementwise `fn` over a tensor stored as In, giving a tensor of
/// `resultType` stored as Out; a splat stays a splat.
template <typename In, typename Out, typename Fn>
TypedTensor mapElements(const TypedTensor &x, RankedTensorType resultType,
                        ElementKind resultKind, Fn fn) {
  int64_t count = x.isSplat() ? 1 : x.getNumElements();
  std::vector<char> bytes(count * sizeof(Out));
  for (int64_t i = 0; i < count; ++i) {
    Out value = fn(x.get<In>(i));
    std::memcpy(bytes.data() + i * sizeof(Out), &value, sizeof(Out));
  }
  return TypedTensor(resultType, resultKind, x.isSplat(), std::move(bytes));
}

/// `fn(lhs, rhs)` with NumPy broadcasting to `resultType`; two splats give a
/// splat.
template <typename A, typename B, typename Out, typename Fn>
TypedTensor broadcastElements(const TypedTensor &lhs, const TypedTensor &rhs,
                              RankedTensorType resultType,
                              ElementKind resultKind, Fn fn) {
  if (lhs.isSplat() && rhs.isSplat()) {
    Out value = fn(lhs.get<A>(0), rhs.get<B>(0));
    std::vector<char> bytes(sizeof(Out));
    std::memcpy(bytes.data(), &value, sizeof(Out));
    return TypedTensor(resultType, resultKind, true, std::move(bytes));
  }
  ArrayRef<int64_t> outShape = resultType.getShape();
  SmallVector<int64_t> li = broadcastSourceIndices(lhs.getShape(), outShape);
  SmallVector<int64_t> ri = broadcastSourceIndices(rhs.getShape(), outShape);
  std::vector<char> bytes(li.size() * sizeof(Out));
  for (size_t i = 0; i < li.size(); ++i) {
    Out value = fn(lhs.get<A>(li[i]), rhs.get<B>(ri[i]));
    std::memcpy(bytes.data() + i * sizeof(Out), &value, sizeof(Out));
  }
  return TypedTensor(resultType, resultKind, false, std::move(bytes));
}

} // namespace graph
} // namespace mlir

#endif // GRAPH_DIALECT_GRAPH_IR_TYPEDTENSOR_H
