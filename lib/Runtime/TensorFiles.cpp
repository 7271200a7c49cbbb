//===- TensorFiles.cpp - A model's inputs and outputs as files ------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Runtime/TensorFiles.h"

#include "graph/Runtime/Errors.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <random>

using namespace mlir::graph::runtime;

static std::string listNames(llvm::ArrayRef<TensorSpec> specs) {
  llvm::SmallVector<std::string> names;
  for (const TensorSpec &spec : specs)
    names.push_back("'" + spec.name + "'");
  return names.empty() ? "none" : llvm::join(names, ", ");
}

static std::string describeInput(llvm::ArrayRef<TensorSpec> specs,
                                 size_t index) {
  return "input '" + specs[index].name + "' (argument " +
         std::to_string(index) + ")";
}

llvm::Expected<std::vector<std::optional<std::string>>>
mlir::graph::runtime::assignInputFiles(llvm::ArrayRef<TensorSpec> specs,
                                       llvm::ArrayRef<std::string> positional,
                                       llvm::ArrayRef<std::string> named,
                                       llvm::StringRef entry) {
  size_t numInputs = specs.size();
  std::vector<std::optional<std::string>> files(numInputs);
  if (positional.size() > numInputs)
    return makeError(llvm::Twine(positional.size()) +
                     " input files given, but @" + entry + " takes " +
                     llvm::Twine(numInputs) +
                     (numInputs == 1 ? " input" : " inputs"));
  for (auto [i, file] : llvm::enumerate(positional))
    files[i] = file;
  for (const std::string &option : named) {
    auto [name, file] = llvm::StringRef(option).split('=');
    if (!llvm::StringRef(option).contains('=') || name.empty() || file.empty())
      return makeError("--input expects NAME=FILE.npy, got '" + option +
                       "' (give inputs in argument order as files after the "
                       "model)");
    std::optional<size_t> index = findTensor(specs, name, "arg");
    if (!index)
      return makeError("unknown input '" + name + "': @" + entry +
                       " has inputs " + listNames(specs));
    if (files[*index])
      return makeError("input '" + specs[*index].name + "' (argument " +
                       llvm::Twine(*index) + ") is given twice");
    files[*index] = file.str();
  }
  return files;
}

llvm::Expected<std::vector<std::optional<std::string>>>
mlir::graph::runtime::assignOutputFiles(llvm::ArrayRef<TensorSpec> specs,
                                        llvm::ArrayRef<std::string> options,
                                        llvm::StringRef entry) {
  std::vector<std::optional<std::string>> files(specs.size());
  // The n-th --output without a name is the n-th of the model's outputs,
  // which come before the extents of those of run-time size.
  size_t numPositional = llvm::count_if(
      specs, [](const TensorSpec &spec) { return !spec.isExtent; });
  size_t nextPositional = 0;
  for (const std::string &option : options) {
    auto [name, file] = llvm::StringRef(option).split('=');
    std::optional<size_t> index;
    if (llvm::StringRef(option).contains('=')) {
      if (name.empty() || file.empty())
        return makeError("--output expects FILE.npy or NAME=FILE.npy, got '" +
                         option + "'");
      index = findTensor(specs, name, "result");
      if (!index)
        return makeError("unknown output '" + name + "': @" + entry +
                         " has outputs " + listNames(specs));
    } else {
      // The n-th --output without a name is the n-th result.
      file = option;
      if (nextPositional == numPositional)
        return makeError("more --output files than the " +
                         llvm::Twine(numPositional) + " outputs of @" + entry);
      index = nextPositional++;
    }
    if (files[*index])
      return makeError("output '" + specs[*index].name +
                       "' is given two files");
    files[*index] = file.str();
  }
  return files;
}

llvm::Expected<std::vector<TensorBuffer>> mlir::graph::runtime::readInputFiles(
    const ModelSignature &signature,
    llvm::ArrayRef<std::optional<std::string>> files,
    std::vector<std::optional<NpyArray>> &preloaded) {
  llvm::ArrayRef<TensorSpec> specs = signature.inputs;
  std::vector<TensorBuffer> buffers;
  for (auto [i, spec] : llvm::enumerate(specs)) {
    if (i >= files.size() || !files[i])
      return makeError("missing " + describeInput(specs, i) + " of shape " +
                       formatShape(spec.shape));
    llvm::Expected<NpyArray> array = i < preloaded.size() && preloaded[i]
                                         ? std::move(*preloaded[i])
                                         : readNpy(*files[i]);
    if (!array)
      return makeError(describeInput(specs, i) + ": '" + *files[i] +
                       "': " + llvm::toString(array.takeError()));
    ElementType type = array->buffer.getElementType();
    // NumPy has no bfloat16: float32 values, rounded, or uint16 bits.
    if (spec.elementType == ElementType::BF16 &&
        (type == ElementType::F32 || type == ElementType::U16)) {
      TensorBuffer bits(ElementType::BF16, array->buffer.size());
      if (!bits.isAllocated())
        return makeError("cannot allocate " +
                         llvm::Twine(2 * array->buffer.size()) + " bytes for " +
                         describeInput(specs, i));
      for (int64_t e = 0; e < bits.size(); ++e)
        bits.values<uint16_t>()[e] =
            type == ElementType::U16
                ? array->buffer.values<uint16_t>()[e]
                : toBFloat16Bits(array->buffer.values<float>()[e]);
      array->buffer = std::move(bits);
      type = ElementType::BF16;
    }
    if (type != spec.elementType && spec.elementType == ElementType::BF16)
      return makeError(describeInput(specs, i) + ": '" + *files[i] +
                       "' holds " + getName(type) + " ('" + getNpyDescr(type) +
                       "'), expected bfloat16 (float32 values, '<f4', or "
                       "their bits, uint16 '<u2')");
    if (type != spec.elementType)
      return makeError(describeInput(specs, i) + ": '" + *files[i] +
                       "' holds " + getName(type) + " ('" + getNpyDescr(type) +
                       "'), expected " + getName(spec.elementType) + " ('" +
                       getNpyDescr(spec.elementType) + "')");
    if (llvm::ArrayRef<int64_t>(array->shape) !=
        llvm::ArrayRef<int64_t>(spec.shape))
      return makeError(describeInput(specs, i) + ": '" + *files[i] +
                       "' has shape " + formatShape(array->shape) +
                       ", expected " + formatShape(spec.shape));
    buffers.push_back(std::move(array->buffer));
  }
  return buffers;
}

uint16_t mlir::graph::runtime::toHalfBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if ((bits & 0x7fffffff) == 0)
    return uint16_t(bits >> 16);
  uint32_t sign = (bits >> 16) & 0x8000;
  int32_t exponent = int32_t((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = (bits >> 13) & 0x3ff;
  return uint16_t(sign | (uint32_t(exponent) << 10) | mantissa);
}

static void fillRandom(TensorBuffer &buffer, std::mt19937 &generator) {
  switch (buffer.getElementType()) {
  case ElementType::F32:
    // The mapping from the generator's 32-bit draws to floats is written
    // out, not std::uniform_real_distribution, whose algorithm the C++
    // standard leaves to the library: the same seed gives the same inputs
    // everywhere. (x >> 8) * 2^-23 is a multiple of 2^-23 in [0, 2), so
    // subtracting 1 is exact.
    for (float &value : buffer.values<float>())
      value = float(generator() >> 8) * 0x1p-23f - 1.0f;
    return;
  case ElementType::F64:
    for (double &value : buffer.values<double>())
      value = double(generator() >> 8) * 0x1p-23 - 1.0;
    return;
  case ElementType::BF16:
    // The f32 draws, rounded.
    for (uint16_t &value : buffer.values<uint16_t>())
      value = toBFloat16Bits(float(generator() >> 8) * 0x1p-23f - 1.0f);
    return;
  case ElementType::Bool:
    for (char &value : buffer.bytes())
      value = char(generator() >> 31);
    return;
  default: {
    // Integers (and f16, as its bits would make no sense): small values
    // that every element type holds, as little-endian bytes.
    unsigned size = getByteSize(buffer.getElementType());
    llvm::MutableArrayRef<char> bytes = buffer.bytes();
    bool isHalf = buffer.getElementType() == ElementType::F16;
    for (int64_t i = 0; i < buffer.size(); ++i) {
      uint32_t draw = generator() % 10;
      // f16: draw / 8 as a half, exact (multiples of 1/8 below 2).
      uint64_t bits = isHalf ? toHalfBits(float(draw) / 8) : uint64_t(draw);
      for (unsigned b = 0; b < size; ++b)
        bytes[i * size + b] = char((bits >> (8 * b)) & 0xff);
    }
    return;
  }
  }
}

llvm::Expected<std::vector<TensorBuffer>>
mlir::graph::runtime::makeRandomInputs(const ModelSignature &signature,
                                       unsigned seed) {
  std::mt19937 generator(seed);
  std::vector<TensorBuffer> buffers;
  for (auto [i, spec] : llvm::enumerate(signature.inputs)) {
    TensorBuffer &buffer = buffers.emplace_back(spec);
    if (!buffer.isAllocated())
      return makeError("cannot allocate " + llvm::Twine(spec.getByteSize()) +
                       " bytes for " + describeInput(signature.inputs, i));
    fillRandom(buffer, generator);
  }
  return buffers;
}

llvm::Error mlir::graph::runtime::writeOutputFiles(
    llvm::ArrayRef<TensorSpec> specs,
    llvm::ArrayRef<std::optional<std::string>> files,
    llvm::ArrayRef<TensorBuffer> buffers) {
  // Each output goes to a temporary file beside its destination first.
  llvm::SmallVector<std::pair<std::string, std::string>> written;
  auto fail = [&](llvm::Error error) {
    for (auto &[temporary, final] : written)
      llvm::sys::fs::remove(temporary);
    return error;
  };
  for (auto [spec, file, buffer] : llvm::zip_equal(specs, files, buffers)) {
    if (!file)
      continue;
    llvm::SmallString<256> temporary;
    int fd;
    if (std::error_code ec = llvm::sys::fs::createUniqueFile(
            *file + ".tmp-%%%%%%", fd, temporary))
      return fail(makeError("cannot write output '" + spec.name + "' to '" +
                            *file + "': " + ec.message()));
    written.emplace_back(temporary.str().str(), *file);
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << serializeNpy(spec.shape, buffer);
    os.close();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      return fail(makeError("cannot write output '" + spec.name + "' to '" +
                            *file + "': " + ec.message()));
    }
  }
  for (auto &[temporary, final] : written)
    if (std::error_code ec = llvm::sys::fs::rename(temporary, final))
      return fail(makeError("cannot write '" + final + "': " + ec.message()));
  return llvm::Error::success();
}

llvm::Expected<std::vector<TensorBuffer>>
mlir::graph::runtime::readOrMakeInputs(
    const ModelSignature &signature,
    llvm::ArrayRef<std::optional<std::string>> files, unsigned seed,
    std::vector<std::optional<NpyArray>> &preloaded) {
  if (llvm::any_of(files, [](const auto &file) { return bool(file); }))
    return readInputFiles(signature, files, preloaded);
  return makeRandomInputs(signature, seed);
}
