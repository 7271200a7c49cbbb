//===- Executable.cpp - A compiled model ready to run ---------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Runtime/Executable.h"

#include "graph/Runtime/Errors.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cstring>

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

/// The extents a run wrote for `spec` (an output of run-time size), each
/// within its bound.
static llvm::SmallVector<int64_t> readExtents(const TensorSpec &spec,
                                              const void *const *outputs) {
  llvm::SmallVector<int64_t> shape(spec.shape);
  for (auto [dim, extentOutput] : llvm::enumerate(spec.extentOutputs)) {
    if (extentOutput < 0)
      continue;
    int64_t extent;
    std::memcpy(&extent, outputs[extentOutput], sizeof(extent));
    // The code writes no more than the bound; clamped all the same, so that
    // no caller reads past its buffer.
    shape[dim] = std::clamp<int64_t>(extent, 0, spec.shape[dim]);
  }
  return shape;
}

/// Moves the elements of the block `shape` of a C-order tensor of shape
/// `bound` to the front of its buffer, in the C order of `shape`. Each
/// element moves to a position no later than its own, in increasing order,
/// so that nothing is overwritten before it moves.
static void compact(char *data, llvm::ArrayRef<int64_t> bound,
                    llvm::ArrayRef<int64_t> shape, size_t elementSize) {
  if (bound == shape || llvm::is_contained(shape, 0))
    return;
  size_t rank = shape.size();
  // The innermost dimensions that are whole rows move as one block.
  size_t rowBytes = shape[rank - 1] * elementSize;
  llvm::SmallVector<int64_t> index(rank, 0);
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < rank; ++d)
    rows *= shape[d];
  for (int64_t row = 0; row < rows; ++row) {
    int64_t from = 0;
    for (size_t d = 0; d + 1 < rank; ++d)
      from = from * bound[d] + index[d];
    from *= bound[rank - 1];
    std::memmove(data + row * rowBytes, data + from * elementSize, rowBytes);
    for (size_t d = rank - 1; d-- > 0;) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

void Executable::run(const void *const *inputs, void *const *outputs) {
  invoke(inputs, outputs);
  for (auto [i, spec] : llvm::enumerate(signature.outputs))
    if (spec.hasRunTimeShape())
      compact(static_cast<char *>(outputs[i]), spec.shape,
              readExtents(spec, outputs),
              runtime::getByteSize(spec.elementType));
}

std::vector<TensorSpec>
Executable::getOutputSpecs(const void *const *outputs) const {
  std::vector<TensorSpec> specs(signature.outputs.begin(),
                                signature.outputs.end());
  for (TensorSpec &spec : specs) {
    if (!spec.hasRunTimeShape())
      continue;
    spec.shape = readExtents(spec, outputs);
    spec.numElements = 1;
    for (int64_t dim : spec.shape)
      spec.numElements *= dim;
  }
  return specs;
}

std::vector<TensorSpec>
Executable::getOutputSpecs(llvm::ArrayRef<TensorBuffer> outputs) const {
  llvm::SmallVector<const void *, 16> data;
  for (const TensorBuffer &buffer : outputs)
    data.push_back(buffer.data());
  return getOutputSpecs(data.data());
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
