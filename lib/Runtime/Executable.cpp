//===- Executable.cpp - A compiled model ready to run ---------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Runtime/Executable.h"

#include "graph/Runtime/Errors.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir::graph::runtime;

Executable::~Executable() = default;

llvm::Expected<std::vector<TensorBuffer>> Executable::allocateOutputs() const {
  std::vector<TensorBuffer> buffers;
  for (const TensorSpec &spec : signature.outputs) {
    TensorBuffer &buffer = buffers.emplace_back(spec);
    if (!buffer.isAllocated())
      return makeError("cannot allocate " + llvm::Twine(spec.getByteSize()) +
                       " bytes for output '" + spec.name + "'");
  }
  return buffers;
}

void Executable::run(llvm::ArrayRef<const TensorBuffer *> inputs,
                     llvm::ArrayRef<TensorBuffer *> outputs) {
  assert(inputs.size() == signature.inputs.size() &&
         outputs.size() == signature.outputs.size() && "signature mismatch");
  llvm::SmallVector<const void *, 16> inputData;
  llvm::SmallVector<void *, 16> outputData;
  for (const TensorBuffer *buffer : inputs)
    inputData.push_back(buffer->data());
  for (TensorBuffer *buffer : outputs)
    outputData.push_back(buffer->data());
  run(inputData.data(), outputData.data());
}

std::optional<size_t>
mlir::graph::runtime::findTensor(llvm::ArrayRef<TensorSpec> specs,
                                 llvm::StringRef name, llvm::StringRef prefix) {
  for (auto [i, spec] : llvm::enumerate(specs))
    if (spec.name == name)
      return i;
  llvm::StringRef digits = name;
  digits.consume_front(prefix);
  size_t index;
  if (!digits.empty() && llvm::all_of(digits, llvm::isDigit) &&
      !digits.getAsInteger(10, index) && index < specs.size())
    return index;
  return std::nullopt;
}
