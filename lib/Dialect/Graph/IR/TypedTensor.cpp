//===- TypedTensor.cpp - Constants of every element type --------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Reading and writing the attributes of TypedTensor. Dense attributes keep
// every type but i1 as packed little-endian bytes (i1 is bit-packed, so bools
// go through getValues<bool>); dense_resource blobs hold the same bytes, a
// byte per bool.
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/TypedTensor.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace mlir::graph;

//===----------------------------------------------------------------------===//
// Element kinds
//===----------------------------------------------------------------------===//

std::optional<ElementKind> mlir::graph::getElementKind(Type type) {
  if (type.isF32())
    return ElementKind::F32;
  if (type.isF64())
    return ElementKind::F64;
  if (type.isF16())
    return ElementKind::F16;
  if (type.isBF16())
    return ElementKind::BF16;
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer)
    return std::nullopt;
  unsigned width = integer.getWidth();
  if (width == 1)
    return integer.isSignless() ? std::optional(ElementKind::Bool)
                                : std::nullopt;
  bool isUnsigned = integer.isUnsigned();
  switch (width) {
  case 8:
    return isUnsigned ? ElementKind::U8 : ElementKind::I8;
  case 16:
    return isUnsigned ? ElementKind::U16 : ElementKind::I16;
  case 32:
    return isUnsigned ? ElementKind::U32 : ElementKind::I32;
  case 64:
    return isUnsigned ? ElementKind::U64 : ElementKind::I64;
  default:
    return std::nullopt;
  }
}

Type mlir::graph::getElementType(MLIRContext *context, ElementKind kind) {
  Builder b(context);
  switch (kind) {
  case ElementKind::Bool:
    return b.getI1Type();
  case ElementKind::I8:
    return b.getI8Type();
  case ElementKind::I16:
    return b.getI16Type();
  case ElementKind::I32:
    return b.getI32Type();
  case ElementKind::I64:
    return b.getI64Type();
  case ElementKind::U8:
    return IntegerType::get(context, 8, IntegerType::Unsigned);
  case ElementKind::U16:
    return IntegerType::get(context, 16, IntegerType::Unsigned);
  case ElementKind::U32:
    return IntegerType::get(context, 32, IntegerType::Unsigned);
  case ElementKind::U64:
    return IntegerType::get(context, 64, IntegerType::Unsigned);
  case ElementKind::F16:
    return b.getF16Type();
  case ElementKind::BF16:
    return b.getBF16Type();
  case ElementKind::F32:
    return b.getF32Type();
  case ElementKind::F64:
    return b.getF64Type();
  }
  return b.getF32Type();
}

unsigned mlir::graph::getElementBytes(ElementKind kind) {
  return dispatchKind(kind, [](auto t) -> unsigned { return sizeof(t); });
}

bool mlir::graph::isFloatKind(ElementKind kind) {
  return kind == ElementKind::F16 || kind == ElementKind::BF16 ||
         kind == ElementKind::F32 || kind == ElementKind::F64;
}

bool mlir::graph::isIntegerKind(ElementKind kind) {
  return !isFloatKind(kind) && kind != ElementKind::Bool;
}

bool mlir::graph::isUnsignedKind(ElementKind kind) {
  return kind == ElementKind::U8 || kind == ElementKind::U16 ||
         kind == ElementKind::U32 || kind == ElementKind::U64;
}

//===----------------------------------------------------------------------===//
// 16-bit floats
//===----------------------------------------------------------------------===//

template <typename From>
static uint16_t roundTo16(From value, const llvm::fltSemantics &semantics) {
  llvm::APFloat f(value);
  bool lost;
  f.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &lost);
  return static_cast<uint16_t>(f.bitcastToAPInt().getZExtValue());
}

float mlir::graph::toFloat(Half value) {
  llvm::APFloat f(llvm::APFloat::IEEEhalf(), llvm::APInt(16, value.bits));
  return f.convertToFloat();
}

float mlir::graph::toFloat(BFloat16 value) {
  // bf16 is the upper half of an f32.
  uint32_t bits = uint32_t(value.bits) << 16;
  float result;
  std::memcpy(&result, &bits, 4);
  return result;
}

Half mlir::graph::toHalf(float value) {
  return Half{roundTo16(value, llvm::APFloat::IEEEhalf())};
}
Half mlir::graph::toHalf(double value) {
  return Half{roundTo16(value, llvm::APFloat::IEEEhalf())};
}
BFloat16 mlir::graph::toBFloat16(float value) {
  return BFloat16{roundTo16(value, llvm::APFloat::BFloat())};
}
BFloat16 mlir::graph::toBFloat16(double value) {
  return BFloat16{roundTo16(value, llvm::APFloat::BFloat())};
}

//===----------------------------------------------------------------------===//
// TypedTensor
//===----------------------------------------------------------------------===//

TypedTensor TypedTensor::zeros(RankedTensorType type) {
  ElementKind kind = *getElementKind(type.getElementType());
  std::vector<char> bytes(type.getNumElements() * graph::getElementBytes(kind),
                          0);
  return TypedTensor(type, kind, /*splat=*/false, std::move(bytes));
}

int64_t TypedTensor::getInt(int64_t i) const {
  return dispatchKind(kind, [&](auto t) -> int64_t {
    using T = decltype(t);
    if constexpr (isFloatStorage<T>) {
      double value = double(widen(get<T>(i)));
      // Out of range or NaN: a defined value rather than UB.
      if (!(value > -9.2e18 && value < 9.2e18))
        return 0;
      return static_cast<int64_t>(value);
    } else {
      return static_cast<int64_t>(get<T>(i));
    }
  });
}

double TypedTensor::getDouble(int64_t i) const {
  return dispatchKind(kind, [&](auto t) -> double {
    using T = decltype(t);
    return static_cast<double>(widen(get<T>(i)));
  });
}

SmallVector<int64_t> TypedTensor::getInts() const {
  SmallVector<int64_t> values;
  for (int64_t i = 0, e = getNumElements(); i < e; ++i)
    values.push_back(getInt(i));
  return values;
}

TypedTensor TypedTensor::gather(RankedTensorType resultType,
                                ArrayRef<int64_t> indices) const {
  unsigned width = getElementBytes();
  if (splat)
    return TypedTensor(resultType, kind, true, bytes);
  std::vector<char> out(indices.size() * width);
  for (size_t i = 0; i < indices.size(); ++i)
    std::memcpy(out.data() + i * width, bytes.data() + indices[i] * width,
                width);
  return TypedTensor(resultType, kind, false, std::move(out));
}

TypedTensor TypedTensor::reshaped(RankedTensorType resultType) const {
  return TypedTensor(resultType, kind, splat, bytes);
}

TypedTensor TypedTensor::expanded() const {
  if (!splat)
    return *this;
  unsigned width = getElementBytes();
  std::vector<char> out(getNumElements() * width);
  for (int64_t i = 0, e = getNumElements(); i < e; ++i)
    std::memcpy(out.data() + i * width, bytes.data(), width);
  return TypedTensor(type, kind, false, std::move(out));
}

DenseElementsAttr TypedTensor::toAttr() const {
  unsigned width = getElementBytes();
  int64_t stored = splat ? 1 : getNumElements();
  // A splat when every element has the same bits (-0.0 and +0.0 differ).
  bool same = stored > 0;
  for (int64_t i = 1; same && i < stored; ++i)
    same = std::memcmp(bytes.data(), bytes.data() + i * width, width) == 0;
  if (kind == ElementKind::Bool) {
    if (same)
      return DenseElementsAttr::get(type, bytes[0] != 0);
    SmallVector<bool> values;
    for (int64_t i = 0; i < stored; ++i)
      values.push_back(bytes[i] != 0);
    return DenseElementsAttr::get(type, values);
  }
  if (stored == 0)
    return DenseElementsAttr::getFromRawBuffer(type, {});
  ArrayRef<char> raw(bytes.data(), same ? width : stored * width);
  return DenseElementsAttr::getFromRawBuffer(type, raw);
}

std::optional<TypedTensor> mlir::graph::readTypedTensor(Attribute attr) {
  auto typed = dyn_cast_if_present<TypedAttr>(attr);
  if (!typed)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(typed.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  std::optional<ElementKind> kind = getElementKind(type.getElementType());
  if (!kind)
    return std::nullopt;
  unsigned width = getElementBytes(*kind);
  int64_t count = type.getNumElements();

  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (*kind == ElementKind::Bool) {
      if (dense.isSplat())
        return TypedTensor(type, *kind, true,
                           {char(dense.getSplatValue<bool>())});
      std::vector<char> bytes;
      bytes.reserve(count);
      for (bool value : dense.getValues<bool>())
        bytes.push_back(value);
      return TypedTensor(type, *kind, false, std::move(bytes));
    }
    ArrayRef<char> raw = dense.getRawData();
    if (dense.isSplat()) {
      if (raw.size() < width)
        return std::nullopt;
      return TypedTensor(type, *kind, true,
                         std::vector<char>(raw.begin(), raw.begin() + width));
    }
    if (int64_t(raw.size()) != count * width)
      return std::nullopt;
    return TypedTensor(type, *kind, false,
                       std::vector<char>(raw.begin(), raw.end()));
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    const AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    ArrayRef<char> raw = blob->getData();
    if (int64_t(raw.size()) != count * width)
      return std::nullopt;
    return TypedTensor(type, *kind, false,
                       std::vector<char>(raw.begin(), raw.end()));
  }
  return std::nullopt;
}

SmallVector<int64_t>
mlir::graph::broadcastSourceIndices(ArrayRef<int64_t> shape,
                                    ArrayRef<int64_t> outShape) {
  size_t rank = outShape.size(), offset = rank - shape.size();
  SmallVector<int64_t> strides(rank, 0);
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[offset + i] = shape[i] == 1 ? 0 : stride;
    stride *= shape[i];
  }
  int64_t total = 1;
  for (int64_t d : outShape)
    total *= d;
  SmallVector<int64_t> indices;
  indices.reserve(total);
  SmallVector<int64_t> counter(rank, 0);
  int64_t index = 0;
  for (int64_t i = 0; i < total; ++i) {
    indices.push_back(index);
    for (size_t d = rank; d-- > 0;) {
      ++counter[d];
      index += strides[d];
      if (counter[d] < outShape[d])
        break;
      index -= strides[d] * counter[d];
      counter[d] = 0;
    }
  }
  return indices;
}
