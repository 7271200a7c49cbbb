//===- Npy.h - Read and write NumPy .npy files ------------------*- C++ -*-===//
//
// The .npy format (format versions 1.0, 2.0 and 3.0), restricted to what
// graph-run exchanges: little-endian float32 (`<f4`) arrays in C order.
// Everything else is refused with an error that says what the file holds.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_RUN_NPY_H
#define GRAPH_RUN_NPY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace graph_run {

/// A float32 array in C order.
struct NpyArray {
  llvm::SmallVector<int64_t> shape;
  std::vector<float> data;
};

/// Parses the contents of a .npy file. Errors name the problem: bad magic,
/// an unsupported version or dtype, Fortran order, a malformed header, or
/// data shorter or longer than the shape says.
llvm::Expected<NpyArray> parseNpy(llvm::StringRef contents);

/// Reads and parses the .npy file at `path`.
llvm::Expected<NpyArray> readNpy(llvm::StringRef path);

/// Serializes a float32 C-order array as a .npy file (version 1.0; 2.0 only
/// for a header too long for 1.0).
std::string serializeNpy(llvm::ArrayRef<int64_t> shape,
                         llvm::ArrayRef<float> data);

/// Formats a shape the way NumPy prints it: `()`, `(3,)`, `(2, 3)`.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

} // namespace graph_run

#endif // GRAPH_RUN_NPY_H
