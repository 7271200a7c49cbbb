//===- Npy.cpp - Read and write NumPy .npy files --------------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The header is a Python dict literal; a small recursive-descent reader takes
// it apart rather than a few `find`s, so that keys in any order, either quote
// style, a trailing comma or an old `3L` dimension all parse, and anything
// else gets an error that says where it stopped making sense.
//
//===----------------------------------------------------------------------===//

#include "graph/Runtime/Npy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>
#include <optional>

using namespace mlir::graph::runtime;
using llvm::StringRef;

static constexpr char kMagic[] = "\x93NUMPY";
static constexpr size_t kMagicSize = 6;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Names a NumPy type string for an error message: `'<f8' (float64)`.
static std::string describeDtype(StringRef descr) {
  std::string quoted = "'" + descr.str() + "'";
  if (descr.size() < 3)
    return quoted;
  char order = descr[0];
  StringRef kindAndSize = descr.drop_front();
  StringRef name;
  if (kindAndSize == "f2")
    name = "float16";
  else if (kindAndSize == "f4")
    name = "float32";
  else if (kindAndSize == "f8")
    name = "float64";
  else if (kindAndSize == "i1")
    name = "int8";
  else if (kindAndSize == "i2")
    name = "int16";
  else if (kindAndSize == "i4")
    name = "int32";
  else if (kindAndSize == "i8")
    name = "int64";
  else if (kindAndSize == "u1")
    name = "uint8";
  else if (kindAndSize == "u2")
    name = "uint16";
  else if (kindAndSize == "u4")
    name = "uint32";
  else if (kindAndSize == "u8")
    name = "uint64";
  else if (kindAndSize == "b1")
    name = "bool";
  if (name.empty())
    return quoted;
  std::string result = quoted + " (";
  if (order == '>')
    result += "big-endian ";
  return result + name.str() + ")";
}

namespace {
/// Reads the header dict: {'descr': '<f4', 'fortran_order': False,
/// 'shape': (2, 3), }.
class HeaderParser {
public:
  explicit HeaderParser(StringRef text) : text(text) {}

  llvm::Error parse() {
    skipSpace();
    if (!consume('{'))
      return fail("expected '{'");
    while (true) {
      skipSpace();
      if (consume('}'))
        break;
      std::optional<std::string> key = parseString();
      if (!key)
        return fail("expected a quoted key");
      skipSpace();
      if (!consume(':'))
        return fail("expected ':' after '" + *key + "'");
      skipSpace();
      if (llvm::Error error = parseValue(*key))
        return error;
      skipSpace();
      if (consume(','))
        continue;
      skipSpace();
      if (consume('}'))
        break;
      return fail("expected ',' or '}'");
    }
    skipSpace();
    if (pos != text.size())
      return fail("unexpected text after the closing '}'");
    if (!descr)
      return makeError("header has no 'descr' key");
    if (!fortranOrder)
      return makeError("header has no 'fortran_order' key");
    if (!shape)
      return makeError("header has no 'shape' key");
    return llvm::Error::success();
  }

  std::optional<std::string> descr;
  std::optional<bool> fortranOrder;
  std::optional<llvm::SmallVector<int64_t>> shape;

private:
  llvm::Error fail(const llvm::Twine &message) {
    return makeError("malformed header at offset " + llvm::Twine(pos) + ": " +
                     message + " in \"" + text.trim() + "\"");
  }

  void skipSpace() {
    while (pos < text.size() && llvm::isSpace(text[pos]))
      ++pos;
  }

  bool consume(char c) {
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }

  bool consumeWord(StringRef word) {
    if (!text.substr(pos).starts_with(word))
      return false;
    pos += word.size();
    return true;
  }

  std::optional<std::string> parseString() {
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
      return std::nullopt;
    char quote = text[pos++];
    size_t end = text.find(quote, pos);
    if (end == StringRef::npos)
      return std::nullopt;
    std::string result = text.slice(pos, end).str();
    pos = end + 1;
    return result;
  }

  /// Skips a value of a kind graph-run does not read (a list for a
  /// structured dtype, say) and returns its text.
  StringRef skipOtherValue() {
    size_t start = pos;
    int depth = 0;
    while (pos < text.size()) {
      char c = text[pos];
      if (c == '\'' || c == '"') {
        if (!parseString())
          break;
        continue;
      }
      if (c == '(' || c == '[' || c == '{')
        ++depth;
      else if (c == ')' || c == ']' || c == '}') {
        if (depth == 0)
          break;
        --depth;
      } else if (c == ',' && depth == 0)
        break;
      ++pos;
    }
    return text.slice(start, pos).trim();
  }

  llvm::Error parseValue(StringRef key) {
    if (key == "descr") {
      if (std::optional<std::string> value = parseString()) {
        descr = *value;
        return llvm::Error::success();
      }
      descr = skipOtherValue().str();
      return llvm::Error::success();
    }
    if (key == "fortran_order") {
      if (consumeWord("True"))
        fortranOrder = true;
      else if (consumeWord("False"))
        fortranOrder = false;
      else
        return fail("'fortran_order' must be True or False");
      return llvm::Error::success();
    }
    if (key == "shape")
      return parseShape();
    // Unknown keys are tolerated, as NumPy does.
    skipOtherValue();
    return llvm::Error::success();
  }

  llvm::Error parseShape() {
    if (!consume('('))
      return fail("'shape' must be a tuple");
    llvm::SmallVector<int64_t> dims;
    while (true) {
      skipSpace();
      if (consume(')'))
        break;
      size_t start = pos;
      while (pos < text.size() && llvm::isDigit(text[pos]))
        ++pos;
      uint64_t dim;
      if (start == pos || text.slice(start, pos).getAsInteger(10, dim) ||
          dim > uint64_t(INT64_MAX))
        return fail("'shape' must hold non-negative integers");
      dims.push_back(int64_t(dim));
      consume('L'); // Python 2 longs.
      skipSpace();
      if (consume(','))
        continue;
      skipSpace();
      if (consume(')'))
        break;
      return fail("expected ',' or ')' in 'shape'");
    }
    shape = std::move(dims);
    return llvm::Error::success();
  }

  StringRef text;
  size_t pos = 0;
};
} // namespace

llvm::Expected<NpyArray> mlir::graph::runtime::parseNpy(StringRef contents) {
  if (contents.size() < kMagicSize ||
      std::memcmp(contents.data(), kMagic, kMagicSize) != 0)
    return makeError("not a .npy file (no \\x93NUMPY magic)");
  if (contents.size() < kMagicSize + 2)
    return makeError("truncated header");
  unsigned major = static_cast<unsigned char>(contents[kMagicSize]);
  unsigned minor = static_cast<unsigned char>(contents[kMagicSize + 1]);
  size_t lengthSize;
  if (major == 1)
    lengthSize = 2;
  else if (major == 2 || major == 3)
    lengthSize = 4;
  else
    return makeError("unsupported .npy format version " + llvm::Twine(major) +
                     "." + llvm::Twine(minor));
  size_t prefix = kMagicSize + 2 + lengthSize;
  if (contents.size() < prefix)
    return makeError("truncated header");
  const char *lengthBytes = contents.data() + kMagicSize + 2;
  uint64_t headerLength = lengthSize == 2
                              ? llvm::support::endian::read16le(lengthBytes)
                              : llvm::support::endian::read32le(lengthBytes);
  if (contents.size() - prefix < headerLength)
    return makeError("truncated header: it should be " +
                     llvm::Twine(headerLength) + " bytes, the file has " +
                     llvm::Twine(contents.size() - prefix) + " after the " +
                     "prefix");

  HeaderParser header(contents.substr(prefix, headerLength));
  if (llvm::Error error = header.parse())
    return std::move(error);
  std::optional<ElementType> elementType = parseNpyDescr(*header.descr);
  if (!elementType)
    return makeError("unsupported dtype " + describeDtype(*header.descr) +
                     ": models read little-endian float16/32/64, int8/16/32/"
                     "64, uint8/16/32/64 and bool arrays");

  NpyArray array;
  array.shape = *header.shape;
  // Fortran order differs from C order only with two or more dimensions.
  if (*header.fortranOrder && array.shape.size() > 1)
    return makeError("Fortran-order array: graph-run reads C-order arrays "
                     "only (save np.ascontiguousarray(a))");

  int64_t count = 1;
  for (int64_t dim : array.shape) {
    if (llvm::MulOverflow(count, dim, count))
      return makeError("shape " + formatShape(array.shape) + " is too large");
  }
  int64_t signedDataBytes;
  if (llvm::MulOverflow(count, int64_t(getByteSize(*elementType)),
                        signedDataBytes))
    return makeError("shape " + formatShape(array.shape) + " is too large");
  uint64_t dataBytes = signedDataBytes;
  uint64_t available = contents.size() - prefix - headerLength;
  if (available < dataBytes)
    return makeError("truncated data: shape " + formatShape(array.shape) +
                     " needs " + llvm::Twine(dataBytes) +
                     " bytes, the file has " + llvm::Twine(available));
  if (available > dataBytes)
    return makeError("the file has " + llvm::Twine(available - dataBytes) +
                     " bytes after the data of shape " +
                     formatShape(array.shape));

  array.buffer = TensorBuffer(*elementType, count);
  if (!array.buffer.isAllocated())
    return makeError("cannot allocate " + llvm::Twine(dataBytes) +
                     " bytes for the data");
  // Little-endian on disk and, on the hosts we run on, in memory.
  static_assert(llvm::endianness::native == llvm::endianness::little,
                "the .npy data is copied as little-endian bytes");
  std::memcpy(array.buffer.data(), contents.data() + prefix + headerLength,
              dataBytes);
  if (*elementType == ElementType::Bool) {
    // NumPy writes 0 and 1; anything else is not a bool it could have made.
    for (char byte : array.buffer.bytes())
      if (byte != 0 && byte != 1)
        return makeError("bool data holds a byte other than 0 or 1");
  }
  return array;
}

llvm::Expected<NpyArray> mlir::graph::runtime::readNpy(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError("cannot read: " + buffer.getError().message());
  return parseNpy((*buffer)->getBuffer());
}

std::string mlir::graph::runtime::serializeNpy(llvm::ArrayRef<int64_t> shape,
                                               const TensorBuffer &buffer) {
  // NumPy has no bfloat16: its float32 values, exactly.
  if (buffer.getElementType() == ElementType::BF16) {
    TensorBuffer wide(ElementType::F32, buffer.size());
    for (int64_t i = 0; i < buffer.size(); ++i)
      wide.values<float>()[i] = fromBFloat16Bits(buffer.values<uint16_t>()[i]);
    return serializeNpy(shape, wide);
  }
  std::string header =
      "{'descr': '" + getNpyDescr(buffer.getElementType()).str() +
      "', 'fortran_order': False, 'shape': " + formatShape(shape) + ", }";
  // Version 1.0 unless the header outgrows its 16-bit length (a rank in the
  // thousands); then 2.0, whose length has 32 bits.
  bool version2 = header.size() + 64 > UINT16_MAX;
  size_t lengthSize = version2 ? 4 : 2;
  // Pad with spaces and end with '\n' so that the data starts at a multiple
  // of 64 bytes, as NumPy writes it.
  size_t unpadded = kMagicSize + 2 + lengthSize + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';

  auto appendLittleEndian = [](std::string &out, uint32_t value, size_t bytes) {
    for (size_t i = 0; i < bytes; ++i)
      out += char((value >> (8 * i)) & 0xff);
  };
  std::string result(kMagic, kMagicSize);
  result += char(version2 ? 2 : 1);
  result += char(0);
  appendLittleEndian(result, uint32_t(header.size()), lengthSize);
  result += header;
  // The buffer may be larger: an output of run-time size is at its front.
  int64_t numElements = 1;
  for (int64_t dim : shape)
    numElements *= dim;
  llvm::ArrayRef<char> bytes = buffer.bytes().take_front(
      numElements * getByteSize(buffer.getElementType()));
  result.append(bytes.begin(), bytes.end());
  return result;
}
