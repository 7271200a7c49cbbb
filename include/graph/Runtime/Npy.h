//===- Npy.h - Read and write NumPy .npy files ------------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The .npy format (format versions 1.0, 2.0 and 3.0), restricted to what
// compiled models exchange: C-order arrays of the element types of
// Tensor.h, little-endian. Everything else is refused with an error that
// says what the file holds.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_RUNTIME_NPY_H
#define GRAPH_RUNTIME_NPY_H

#include "graph/Runtime/Tensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
namespace graph {
namespace runtime {

/// An array in C order.
struct NpyArray {
  llvm::SmallVector<int64_t> shape;
  TensorBuffer buffer;
};

/// Parses the contents of a .npy file. Errors name the problem: bad magic,
/// an unsupported version or dtype, Fortran order, a malformed header, or
/// data shorter or longer than the shape says.
llvm::Expected<NpyArray> parseNpy(llvm::StringRef contents);

/// Reads and parses the .npy file at `path`.
llvm::Expected<NpyArray> readNpy(llvm::StringRef path);

/// Serializes a C-order array of `shape`, the first elements of `buffer`,
/// as a .npy file (version 1.0; 2.0 only for a header too long for 1.0).
std::string serializeNpy(llvm::ArrayRef<int64_t> shape,
                         const TensorBuffer &buffer);

} // namespace runtime
} // namespace graph
} // namespace mlir

#endif // GRAPH_RUNTIME_NPY_H
