//===- Tensors.cpp - ONNX tensors as compile-time constants ---------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Reads ONNX TensorProtos (raw bytes, typed fields or external data files)
// into compile-time tensors, and turns the float ones into `graph.constant`s
// when an op reads them: `dense` when small, `dense_resource` blobs when
// large, so that big models print, parse and copy quickly.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/TypedTensor.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstring>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::onnx_import;

/// Constants with at most this many elements are stored inline as `dense`;
/// larger ones as `dense_resource` blobs, which print, parse and copy fast.
static constexpr int64_t kMaxInlineElements = 16;

//===----------------------------------------------------------------------===//
// ConstantTensor
//===----------------------------------------------------------------------===//

size_t mlir::graph::onnx_import::getElementSize(int32_t elementType) {
  switch (elementType) {
  case onnx::TensorProto::FLOAT:
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::UINT32:
    return 4;
  case onnx::TensorProto::DOUBLE:
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::UINT64:
    return 8;
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16:
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::UINT16:
    return 2;
  case onnx::TensorProto::BOOL:
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8:
    return 1;
  default:
    return 0;
  }
}

Type mlir::graph::onnx_import::getMLIRElementType(MLIRContext *context,
                                                  int32_t onnxType) {
  Builder b(context);
  auto unsignedType = [&](unsigned width) {
    return IntegerType::get(context, width, IntegerType::Unsigned);
  };
  switch (onnxType) {
  case onnx::TensorProto::FLOAT:
    return b.getF32Type();
  case onnx::TensorProto::DOUBLE:
    return b.getF64Type();
  case onnx::TensorProto::FLOAT16:
    return b.getF16Type();
  case onnx::TensorProto::BFLOAT16:
    return b.getBF16Type();
  case onnx::TensorProto::INT8:
    return b.getI8Type();
  case onnx::TensorProto::INT16:
    return b.getI16Type();
  case onnx::TensorProto::INT32:
    return b.getI32Type();
  case onnx::TensorProto::INT64:
    return b.getI64Type();
  case onnx::TensorProto::UINT8:
    return unsignedType(8);
  case onnx::TensorProto::UINT16:
    return unsignedType(16);
  case onnx::TensorProto::UINT32:
    return unsignedType(32);
  case onnx::TensorProto::UINT64:
    return unsignedType(64);
  case onnx::TensorProto::BOOL:
    return b.getI1Type();
  default:
    return {};
  }
}

int32_t mlir::graph::onnx_import::getONNXElementType(Type type) {
  if (type.isF32())
    return onnx::TensorProto::FLOAT;
  if (type.isF64())
    return onnx::TensorProto::DOUBLE;
  if (type.isF16())
    return onnx::TensorProto::FLOAT16;
  if (type.isBF16())
    return onnx::TensorProto::BFLOAT16;
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer)
    return onnx::TensorProto::UNDEFINED;
  bool isUnsigned = integer.isUnsigned();
  switch (integer.getWidth()) {
  case 1:
    return onnx::TensorProto::BOOL;
  case 8:
    return isUnsigned ? onnx::TensorProto::UINT8 : onnx::TensorProto::INT8;
  case 16:
    return isUnsigned ? onnx::TensorProto::UINT16 : onnx::TensorProto::INT16;
  case 32:
    return isUnsigned ? onnx::TensorProto::UINT32 : onnx::TensorProto::INT32;
  case 64:
    return isUnsigned ? onnx::TensorProto::UINT64 : onnx::TensorProto::INT64;
  default:
    return onnx::TensorProto::UNDEFINED;
  }
}

StringRef mlir::graph::onnx_import::getElementTypeName(int32_t elementType) {
  if (onnx::TensorProto::DataType_IsValid(elementType))
    return onnx::TensorProto::DataType_Name(
        static_cast<onnx::TensorProto::DataType>(elementType));
  return "UNKNOWN";
}

std::string mlir::graph::onnx_import::formatShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  return llvm::join(
      llvm::map_range(shape, [](int64_t dim) { return std::to_string(dim); }),
      "x");
}

int64_t ConstantTensor::getNumElements() const {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

bool ConstantTensor::isInteger() const {
  switch (elementType) {
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::UINT8:
  case onnx::TensorProto::UINT16:
  case onnx::TensorProto::UINT32:
  case onnx::TensorProto::UINT64:
    return true;
  default:
    return false;
  }
}

/// Element `i` of `bytes` read as T.
template <typename T> static T readElement(ArrayRef<char> bytes, int64_t i) {
  T value;
  std::memcpy(&value, bytes.data() + sizeof(T) * i, sizeof(T));
  return value;
}

SmallVector<int64_t> ConstantTensor::getInts() const {
  SmallVector<int64_t> result;
  int64_t count = getNumElements();
  result.reserve(count);
  for (int64_t i = 0; i < count; ++i) {
    switch (elementType) {
    case onnx::TensorProto::INT64:
      result.push_back(readElement<int64_t>(bytes, i));
      break;
    case onnx::TensorProto::UINT64:
      result.push_back(int64_t(readElement<uint64_t>(bytes, i)));
      break;
    case onnx::TensorProto::INT32:
      result.push_back(readElement<int32_t>(bytes, i));
      break;
    case onnx::TensorProto::UINT32:
      result.push_back(readElement<uint32_t>(bytes, i));
      break;
    case onnx::TensorProto::INT16:
      result.push_back(readElement<int16_t>(bytes, i));
      break;
    case onnx::TensorProto::UINT16:
      result.push_back(readElement<uint16_t>(bytes, i));
      break;
    case onnx::TensorProto::INT8:
      result.push_back(readElement<int8_t>(bytes, i));
      break;
    case onnx::TensorProto::UINT8:
      result.push_back(readElement<uint8_t>(bytes, i));
      break;
    case onnx::TensorProto::BOOL:
      result.push_back(bytes[i] != 0);
      break;
    default:
      break;
    }
  }
  return result;
}

SmallVector<float> ConstantTensor::getFloats() const {
  SmallVector<float> result(getNumElements());
  if (!result.empty())
    std::memcpy(result.data(), bytes.data(), result.size() * sizeof(float));
  return result;
}

SmallVector<double> ConstantTensor::getDoubles() const {
  int64_t count = getNumElements();
  SmallVector<double> result;
  result.reserve(count);
  if (elementType == onnx::TensorProto::FLOAT) {
    for (int64_t i = 0; i < count; ++i)
      result.push_back(readElement<float>(bytes, i));
  } else if (elementType == onnx::TensorProto::DOUBLE) {
    for (int64_t i = 0; i < count; ++i)
      result.push_back(readElement<double>(bytes, i));
  } else if (elementType == onnx::TensorProto::FLOAT16) {
    for (int64_t i = 0; i < count; ++i)
      result.push_back(toFloat(Half{readElement<uint16_t>(bytes, i)}));
  } else if (elementType == onnx::TensorProto::BFLOAT16) {
    for (int64_t i = 0; i < count; ++i)
      result.push_back(toFloat(BFloat16{readElement<uint16_t>(bytes, i)}));
  } else {
    for (int64_t v : getInts())
      result.push_back(elementType == onnx::TensorProto::UINT64
                           ? double(uint64_t(v))
                           : double(v));
  }
  return result;
}

/// A resource key made of the characters that print as a bare identifier.
static std::string getResourceKey(StringRef name) {
  std::string key = "onnx.";
  for (char c : name)
    key += llvm::isAlnum(c) || c == '_' || c == '.' ? c : '_';
  return key;
}

Value Importer::materialize(Entry &entry) {
  const ConstantTensor &tensor = *entry.constant;
  Type elementType = getMLIRElementType(context, tensor.elementType);
  RankedTensorType type = getTensorType(tensor.shape, elementType);
  int64_t count = tensor.getNumElements();
  size_t width = getElementSize(tensor.elementType);
  ArrayRef<char> bytes = tensor.bytes;

  ElementsAttr attr;
  bool splat = count > 1;
  for (int64_t i = 1; splat && i < count; ++i)
    splat = std::memcmp(bytes.data(), bytes.data() + width * i, width) == 0;
  if (count <= kMaxInlineElements || splat ||
      tensor.elementType == onnx::TensorProto::BOOL) {
    // Dense; a splat when every element has the same bits.
    TypedTensor value(type, *getElementKind(elementType), /*splat=*/false,
                      std::vector<char>(bytes.begin(), bytes.end()));
    attr = value.toAttr();
  } else {
    attr = DenseResourceElementsAttr::get(
        type, getResourceKey(tensor.name),
        HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, width));
  }
  Location loc = NameLoc::get(builder.getStringAttr(tensor.name), fileLoc);
  entry.value = ConstantOp::create(builder, loc, type, attr);
  return entry.value;
}

//===----------------------------------------------------------------------===//
// Importer: tensors
//===----------------------------------------------------------------------===//

const ConstantTensor *Importer::addConstant(ConstantTensor tensor,
                                            std::vector<char> storage) {
  ownedStorage.push_back(std::move(storage));
  tensor.bytes = ownedStorage.back();
  constants.push_back(std::move(tensor));
  return &constants.back();
}

const ConstantTensor *Importer::addConstant(StringRef name, Attribute attr) {
  std::optional<TypedTensor> value = readTypedTensor(attr);
  if (!value)
    return nullptr;
  int32_t onnxType = getONNXElementType(value->getType().getElementType());
  if (onnxType == onnx::TensorProto::UNDEFINED)
    return nullptr;
  ConstantTensor tensor;
  tensor.name = name.str();
  tensor.elementType = onnxType;
  tensor.shape.assign(value->getShape().begin(), value->getShape().end());
  TypedTensor expanded = value->expanded();
  std::vector<char> storage(expanded.getBytes().begin(),
                            expanded.getBytes().end());
  return addConstant(std::move(tensor), std::move(storage));
}

FailureOr<ArrayRef<char>>
Importer::readExternalData(const onnx::TensorProto &tensor, size_t numBytes,
                           Location loc) {
  std::string location;
  uint64_t offset = 0;
  std::optional<uint64_t> length;
  for (const onnx::StringStringEntryProto &entry : tensor.external_data()) {
    StringRef key = entry.key(), value = entry.value();
    if (key == "location") {
      location = entry.value();
    } else if (key == "offset" || key == "length") {
      uint64_t number;
      if (value.getAsInteger(10, number)) {
        mlir::emitError(loc)
            << "tensor '" << tensor.name() << "': external data " << key << " '"
            << value << "' is not a number";
        return failure();
      }
      if (key == "offset")
        offset = number;
      else
        length = number;
    }
  }
  if (location.empty()) {
    mlir::emitError(loc) << "tensor '" << tensor.name()
                         << "': external data without a location";
    return failure();
  }
  // The ONNX checker's rule: the file lies inside the model's directory.
  if (llvm::sys::path::is_absolute(location) ||
      llvm::is_contained(llvm::make_range(llvm::sys::path::begin(location),
                                          llvm::sys::path::end(location)),
                         "..")) {
    mlir::emitError(loc) << "tensor '" << tensor.name()
                         << "': external data location '" << location
                         << "' is not a relative path inside the model's "
                            "directory";
    return failure();
  }
  SmallString<256> file(directory);
  llvm::sys::path::append(file, location);
  uint64_t fileSize;
  if (std::error_code ec = llvm::sys::fs::file_size(file, fileSize)) {
    mlir::emitError(loc) << "tensor '" << tensor.name()
                         << "': cannot read its external data file '"
                         << location << "' ('" << file
                         << "'): " << ec.message();
    return failure();
  }
  if (length && *length != numBytes) {
    mlir::emitError(loc) << "tensor '" << tensor.name()
                         << "': external data length " << *length
                         << " does not match its shape and type (" << numBytes
                         << " bytes)";
    return failure();
  }
  if (offset > fileSize || fileSize - offset < numBytes) {
    mlir::emitError(loc) << "tensor '" << tensor.name()
                         << "': external data file '" << location << "' has "
                         << fileSize << " bytes, too few for " << numBytes
                         << " bytes at offset " << offset;
    return failure();
  }
  if (numBytes == 0)
    return ArrayRef<char>();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFileSlice(file, numBytes, offset);
  if (!buffer) {
    mlir::emitError(loc) << "tensor '" << tensor.name()
                         << "': cannot read its external data file '"
                         << location << "' ('" << file
                         << "'): " << buffer.getError().message();
    return failure();
  }
  externalFiles.push_back(std::move(*buffer));
  StringRef data = externalFiles.back()->getBuffer();
  return ArrayRef<char>(data.data(), data.size());
}

FailureOr<const ConstantTensor *>
Importer::readTensor(const onnx::TensorProto &proto, Location loc,
                     StringRef name) {
  ConstantTensor tensor;
  tensor.name = name.empty() ? proto.name() : name.str();
  tensor.elementType = proto.data_type();
  // Bounds the element count, so that a corrupt shape cannot overflow it.
  constexpr int64_t kMaxElements = int64_t(1) << 40;
  int64_t count = 1;
  for (int64_t dim : proto.dims()) {
    if (dim < 0 || (dim > 0 && count > kMaxElements / dim)) {
      mlir::emitError(loc) << "tensor '" << proto.name()
                           << "' has an invalid shape";
      return failure();
    }
    count *= dim;
    tensor.shape.push_back(dim);
  }
  if (proto.has_segment()) {
    mlir::emitError(loc) << "tensor '" << proto.name()
                         << "' is segmented, which is not supported";
    return failure();
  }

  size_t elementSize = getElementSize(tensor.elementType);
  if (elementSize == 0) {
    // Kept without its data: an error names it if an operator reads it.
    constants.push_back(std::move(tensor));
    return &constants.back();
  }
  size_t numBytes = size_t(count) * elementSize;

  auto sizeMismatch = [&](size_t given, StringRef unit) {
    mlir::emitError(loc) << "tensor '" << proto.name() << "' of shape "
                         << formatShape(tensor.shape) << " and type "
                         << getElementTypeName(tensor.elementType) << " has "
                         << given << " " << unit << " of data, expected "
                         << (unit == "bytes" ? numBytes : size_t(count));
    return failure();
  };

  if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
    FailureOr<ArrayRef<char>> data = readExternalData(proto, numBytes, loc);
    if (failed(data))
      return failure();
    tensor.bytes = *data;
  } else if (!proto.raw_data().empty()) {
    if (proto.raw_data().size() != numBytes)
      return sizeMismatch(proto.raw_data().size(), "bytes");
    tensor.bytes = ArrayRef<char>(proto.raw_data().data(), numBytes);
  } else if (tensor.elementType == onnx::TensorProto::FLOAT) {
    if (size_t(proto.float_data_size()) != size_t(count))
      return sizeMismatch(proto.float_data_size(), "values");
    tensor.bytes = ArrayRef<char>(
        reinterpret_cast<const char *>(proto.float_data().data()), numBytes);
  } else if (tensor.elementType == onnx::TensorProto::DOUBLE) {
    if (size_t(proto.double_data_size()) != size_t(count))
      return sizeMismatch(proto.double_data_size(), "values");
    tensor.bytes = ArrayRef<char>(
        reinterpret_cast<const char *>(proto.double_data().data()), numBytes);
  } else if (tensor.elementType == onnx::TensorProto::INT64) {
    if (size_t(proto.int64_data_size()) != size_t(count))
      return sizeMismatch(proto.int64_data_size(), "values");
    tensor.bytes = ArrayRef<char>(
        reinterpret_cast<const char *>(proto.int64_data().data()), numBytes);
  } else if (tensor.elementType == onnx::TensorProto::UINT32 ||
             tensor.elementType == onnx::TensorProto::UINT64) {
    // Both live in uint64_data.
    if (size_t(proto.uint64_data_size()) != size_t(count))
      return sizeMismatch(proto.uint64_data_size(), "values");
    std::vector<char> storage(numBytes);
    for (int64_t i = 0; i < count; ++i) {
      uint64_t value = proto.uint64_data(i);
      std::memcpy(storage.data() + elementSize * i, &value, elementSize);
    }
    return addConstant(std::move(tensor), std::move(storage));
  } else {
    // INT32, and the types of 1 and 2 bytes (BOOL, INT8, UINT8, INT16,
    // UINT16, and the bits of FLOAT16 and BFLOAT16) live in int32_data.
    if (size_t(proto.int32_data_size()) != size_t(count))
      return sizeMismatch(proto.int32_data_size(), "values");
    std::vector<char> storage(numBytes);
    for (int64_t i = 0; i < count; ++i) {
      int32_t value = proto.int32_data(i);
      if (tensor.elementType == onnx::TensorProto::BOOL)
        value = value != 0;
      // Little-endian: the low bytes.
      std::memcpy(storage.data() + elementSize * i, &value, elementSize);
    }
    return addConstant(std::move(tensor), std::move(storage));
  }
  constants.push_back(std::move(tensor));
  return &constants.back();
}
