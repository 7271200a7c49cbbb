//===- InputFiles.h - A model loaded for inputs given as files --*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What a host that takes a model's inputs as .npy files (graph-run) does to
// load a model whose shapes its inputs decide: an ONNX model's symbolic
// dimensions take the sizes of the arrays in the files, and the values of
// inputs that decide shapes (a Reshape's `shape` given as an input) are read
// from their files when the import names them. The arrays read are kept for
// the run. Errors name the input, the file and what the model declares.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_COMPILER_INPUTFILES_H
#define GRAPH_COMPILER_INPUTFILES_H

#include "graph/Compiler/ModelLoader.h"
#include "graph/Runtime/Npy.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace graph {
namespace compiler {

/// The input files as a command line gives them (TensorFiles.h's
/// assignInputFiles).
struct InputFileArguments {
  /// Files in input order.
  std::vector<std::string> positional;
  /// `NAME=FILE` each: a name, `argN`, or a position.
  std::vector<std::string> named;
  /// The model's function, named in errors.
  std::string entry;
};

/// loadModel for inputs given as `files`: with `options.inputShapes`
/// extended by the shapes of the files for a model with symbolic input
/// dimensions, and `options.inputValues` by the values of the inputs whose
/// values the import needs. The arrays read go to `arrays` (one per input,
/// or none), for readInputFiles. Each attempt to load is timed under
/// `timing`; the diagnostics of the last go to `diagnostics`.
llvm::Expected<std::unique_ptr<Executable>>
loadModelForInputFiles(MLIRContext &context, llvm::StringRef path,
                       LoadOptions options, const InputFileArguments &files,
                       TimingScope &timing, LoadReport &report,
                       std::vector<std::optional<runtime::NpyArray>> &arrays,
                       llvm::raw_ostream &diagnostics = llvm::errs());

} // namespace compiler
} // namespace graph
} // namespace mlir

#endif // GRAPH_COMPILER_INPUTFILES_H
