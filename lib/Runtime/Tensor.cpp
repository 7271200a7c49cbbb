//===- Tensor.cpp - Typed tensors that compiled models read and write -----===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Runtime/Tensor.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mlir::graph::runtime;

namespace {
struct ElementTypeInfo {
  ElementType type;
  unsigned byteSize;
  llvm::StringLiteral name;
  llvm::StringLiteral descr;
};
} // namespace

static const ElementTypeInfo kElementTypes[] = {
    {ElementType::F16, 2, "float16", "<f2"},
    {ElementType::F32, 4, "float32", "<f4"},
    {ElementType::F64, 8, "float64", "<f8"},
    {ElementType::I8, 1, "int8", "|i1"},
    {ElementType::I16, 2, "int16", "<i2"},
    {ElementType::I32, 4, "int32", "<i4"},
    {ElementType::I64, 8, "int64", "<i8"},
    {ElementType::U8, 1, "uint8", "|u1"},
    {ElementType::U16, 2, "uint16", "<u2"},
    {ElementType::U32, 4, "uint32", "<u4"},
    {ElementType::U64, 8, "uint64", "<u8"},
    {ElementType::Bool, 1, "bool", "|b1"},
    {ElementType::BF16, 2, "bfloat16", ""},
};

static const ElementTypeInfo &info(ElementType type) {
  for (const ElementTypeInfo &entry : kElementTypes)
    if (entry.type == type)
      return entry;
  llvm_unreachable("unknown element type");
}

unsigned mlir::graph::runtime::getByteSize(ElementType type) {
  return info(type).byteSize;
}

llvm::StringRef mlir::graph::runtime::getName(ElementType type) {
  return info(type).name;
}

llvm::StringRef mlir::graph::runtime::getNpyDescr(ElementType type) {
  return info(type).descr;
}

std::optional<ElementType>
mlir::graph::runtime::parseNpyDescr(llvm::StringRef descr) {
  if (descr.size() < 3)
    return std::nullopt;
  char order = descr[0];
  llvm::StringRef kindAndSize = descr.drop_front();
  for (const ElementTypeInfo &entry : kElementTypes) {
    if (entry.descr.empty() || entry.descr.drop_front() != kindAndSize)
      continue;
    // Byte-sized types have no byte order ('|'); NumPy also writes them
    // with '<' or '>' at times, which means nothing for one byte.
    if (entry.byteSize == 1 || order == '<' || order == '=')
      return entry.type;
    return std::nullopt;
  }
  return std::nullopt;
}

std::string mlir::graph::runtime::formatShape(llvm::ArrayRef<int64_t> shape) {
  std::string result = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      result += ", ";
    result += std::to_string(shape[i]);
  }
  if (shape.size() == 1)
    result += ",";
  return result + ")";
}

void TensorBuffer::Free::operator()(void *ptr) const { std::free(ptr); }

TensorBuffer::TensorBuffer(ElementType elementType, int64_t numElements)
    : elementType(elementType), numElements(numElements) {
  constexpr size_t alignment = 64;
  size_t bytes = size_t(numElements) * runtime::getByteSize(elementType);
  // aligned_alloc wants a multiple of the alignment, and a non-empty block.
  bytes = std::max(alignment, (bytes + alignment - 1) / alignment * alignment);
  storage.reset(std::aligned_alloc(alignment, bytes));
  if (!storage)
    this->numElements = 0;
}

/// IEEE half to double, for printing.
static double halfToDouble(uint16_t bits) {
  int sign = bits >> 15, exponent = (bits >> 10) & 0x1f,
      mantissa = bits & 0x3ff;
  double value;
  if (exponent == 0)
    value = std::ldexp(double(mantissa), -24);
  else if (exponent == 31)
    value = mantissa ? NAN : INFINITY;
  else
    value = std::ldexp(double(mantissa | 0x400), exponent - 25);
  return sign ? -value : value;
}

double TensorBuffer::getAsDouble(int64_t i) const {
  const char *p =
      static_cast<const char *>(data()) + i * runtime::getByteSize(elementType);
  auto load = [&](auto value) {
    std::memcpy(&value, p, sizeof(value));
    return double(value);
  };
  switch (elementType) {
  case ElementType::F16: {
    uint16_t bits;
    std::memcpy(&bits, p, 2);
    return halfToDouble(bits);
  }
  case ElementType::F32:
    return load(float());
  case ElementType::F64:
    return load(double());
  case ElementType::I8:
    return load(int8_t());
  case ElementType::I16:
    return load(int16_t());
  case ElementType::I32:
    return load(int32_t());
  case ElementType::I64:
    return load(int64_t());
  case ElementType::U8:
    return load(uint8_t());
  case ElementType::U16:
    return load(uint16_t());
  case ElementType::U32:
    return load(uint32_t());
  case ElementType::U64:
    return load(uint64_t());
  case ElementType::Bool:
    return *p ? 1.0 : 0.0;
  case ElementType::BF16: {
    uint16_t bits;
    std::memcpy(&bits, p, 2);
    return fromBFloat16Bits(bits);
  }
  }
  llvm_unreachable("unknown element type");
}

uint16_t mlir::graph::runtime::toBFloat16Bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if ((bits & 0x7fffffff) > 0x7f800000)
    return uint16_t((bits >> 16) | 0x40); // A quiet NaN.
  uint32_t roundingBias = 0x7fff + ((bits >> 16) & 1);
  return uint16_t((bits + roundingBias) >> 16);
}

float mlir::graph::runtime::fromBFloat16Bits(uint16_t bits) {
  uint32_t wide = uint32_t(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

bool mlir::graph::runtime::parseInputShapes(
    llvm::StringRef spec, llvm::StringMap<llvm::SmallVector<int64_t>> &shapes,
    std::string &error) {
  llvm::SmallVector<llvm::StringRef> items;
  spec.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef item : items) {
    auto [name, dims] = item.rsplit('=');
    if (!item.contains('=') || name.empty() || dims.empty()) {
      error = "--input-shape expects NAME=DIMS such as x=1x3x224x224, got '" +
              item.str() + "'";
      return false;
    }
    llvm::SmallVector<int64_t> shape;
    llvm::SmallVector<llvm::StringRef> parts;
    dims.split(parts, 'x');
    for (llvm::StringRef part : parts) {
      int64_t dim;
      if (part.getAsInteger(10, dim) || dim < 1) {
        error = "--input-shape " + item.str() +
                ": dimensions are positive integers joined by 'x'";
        return false;
      }
      shape.push_back(dim);
    }
    shapes[name] = std::move(shape);
  }
  return true;
}
