//===- NpyFuzzer.cpp - Fuzz the runtime's .npy reader ---------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each input is the bytes of a .npy file. The reader either refuses them
// with an error or returns an array whose buffer matches its shape; what it
// accepts must serialize and read back the same.
//
//===----------------------------------------------------------------------===//

#include "graph/Runtime/Npy.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

using namespace mlir::graph::runtime;

[[noreturn]] static void bug(const char *what) {
  llvm::errs() << "graph-fuzz-npy: " << what << "\n";
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef contents(reinterpret_cast<const char *>(data), size);
  llvm::Expected<NpyArray> array = parseNpy(contents);
  if (!array) {
    llvm::consumeError(array.takeError());
    return 0;
  }
  int64_t count = 1;
  for (int64_t dim : array->shape) {
    if (dim < 0)
      bug("a negative dimension was accepted");
    count *= dim;
  }
  const TensorBuffer &buffer = array->buffer;
  if (!buffer.isAllocated() || buffer.size() != count)
    bug("the buffer does not match the shape");
  llvm::Expected<NpyArray> again = parseNpy(serializeNpy(array->shape, buffer));
  if (!again) {
    llvm::consumeError(again.takeError());
    bug("a serialized array does not read back");
  }
  if (again->shape != array->shape ||
      again->buffer.getElementType() != buffer.getElementType() ||
      again->buffer.bytes() != buffer.bytes())
    bug("a serialized array reads back different");
  return 0;
}
