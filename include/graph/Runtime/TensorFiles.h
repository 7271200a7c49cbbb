//===- TensorFiles.h - A model's inputs and outputs as files ----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What a host that runs a model from the command line does with its tensors,
// shared so that every host does it the same way (graph-run is one): which
// .npy file is which input or output (in order, or `NAME=FILE` by name), the
// inputs read and checked against the signature, random inputs when none is
// given, and the outputs written so that a failure leaves no file behind.
// Errors name the tensor, the file and what the model expects.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_RUNTIME_TENSORFILES_H
#define GRAPH_RUNTIME_TENSORFILES_H

#include "graph/Runtime/Executable.h"
#include "graph/Runtime/Npy.h"
#include "graph/Runtime/Tensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace graph {
namespace runtime {

/// The file given for each input of `specs`, if any: `positional` in input
/// order, then each of `named` (`NAME=FILE`: a name, `argN`, or a position)
/// in its place. `entry` names the model's function in errors (too many
/// files, bad syntax, an unknown name, an input given twice).
llvm::Expected<std::vector<std::optional<std::string>>>
assignInputFiles(llvm::ArrayRef<TensorSpec> specs,
                 llvm::ArrayRef<std::string> positional,
                 llvm::ArrayRef<std::string> named, llvm::StringRef entry);

/// The file for each output of `specs`, if any: each of `files` is
/// `FILE` (the next output in order) or `NAME=FILE` (a name, `resultN`, or
/// a position).
llvm::Expected<std::vector<std::optional<std::string>>>
assignOutputFiles(llvm::ArrayRef<TensorSpec> specs,
                  llvm::ArrayRef<std::string> files, llvm::StringRef entry);

/// The inputs of `signature` read from `files` (one per input; arrays read
/// already may be given in `preloaded`, which is consumed), each checked for
/// its element type and shape.
llvm::Expected<std::vector<TensorBuffer>>
readInputFiles(const ModelSignature &signature,
               llvm::ArrayRef<std::optional<std::string>> files,
               std::vector<std::optional<NpyArray>> &preloaded);

/// Inputs for `signature` filled with the documented random values of
/// `seed`: floats uniform in [-1, 1) from the generator's 32-bit draws
/// ((x >> 8) * 2^-23 - 1, the same everywhere), f16 multiples of 1/8 in
/// [0, 1.125], integers 0 to 9, booleans 0 or 1.
llvm::Expected<std::vector<TensorBuffer>>
makeRandomInputs(const ModelSignature &signature, unsigned seed);

/// The inputs of `signature` read from `files` (readInputFiles), or, when
/// no file is given at all, random ones of `seed` (makeRandomInputs).
llvm::Expected<std::vector<TensorBuffer>>
readOrMakeInputs(const ModelSignature &signature,
                 llvm::ArrayRef<std::optional<std::string>> files,
                 unsigned seed,
                 std::vector<std::optional<NpyArray>> &preloaded);

/// Writes `buffers[i]` to `files[i]` where one is given, as .npy of the
/// shape of `specs[i]`: each to a temporary file first, renamed into place
/// only when all are written, so that an error leaves no file behind.
llvm::Error writeOutputFiles(llvm::ArrayRef<TensorSpec> specs,
                             llvm::ArrayRef<std::optional<std::string>> files,
                             llvm::ArrayRef<TensorBuffer> buffers);

/// The IEEE half-precision bits of `value`, which f16 represents exactly (a
/// normal number or zero).
uint16_t toHalfBits(float value);

} // namespace runtime
} // namespace graph
} // namespace mlir

#endif // GRAPH_RUNTIME_TENSORFILES_H
