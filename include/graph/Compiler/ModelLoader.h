//===- ModelLoader.h - Get a runnable model from a file ---------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What graph-run and the C API do with a model file: a shared library made
// by graph-compile is loaded; a .mlir or .onnx model is looked up in the
// compile cache and, on a miss, compiled ahead of time into a new entry and
// loaded from there; without the cache it is compiled by the JIT.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_COMPILER_MODELLOADER_H
#define GRAPH_COMPILER_MODELLOADER_H

#include "graph/Compiler/Cache.h"
#include "graph/Compiler/CompiledModel.h"
#include "graph/Runtime/Executable.h"
#include "graph/Runtime/Session.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/Timing.h"

#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace graph {
namespace compiler {

using runtime::Executable;
using runtime::LoadReport;

struct LoadOptions {
  CompileOptions compile;
  /// For .onnx models: `NAME=AxBxC` each.
  std::vector<std::string> inputShapes;
  /// For .onnx models: the values of inputs that decide shapes,
  /// `NAME=v0,v1,...` each (see InputValuesNeeded).
  std::vector<std::string> inputValues;
  bool useCache = true;
  /// Empty for getDefaultCacheDirectory().
  std::string cacheDirectory;
  uint64_t cacheSizeLimit = kDefaultCacheSizeLimit;
};

/// A context for loadModel: the dialects of registerCompilerDialects, and
/// diagnostics without the op they are about (a dump of a lowered function
/// would drown the source location).
std::shared_ptr<MLIRContext> createLoaderContext();

/// Loads or compiles the model at `path` into `context` (which must have
/// the dialects of registerCompilerDialects). Diagnostics about the model
/// are printed to `diagnostics`; errors to report are returned.
llvm::Expected<std::unique_ptr<Executable>>
loadModel(MLIRContext &context, llvm::StringRef path,
          const LoadOptions &options, TimingScope &timing, LoadReport &report,
          llvm::raw_ostream &diagnostics = llvm::errs());

/// The signature of the model file at `path` as it declares it: read from
/// the file for an .onnx model (with `options.inputShapes` applied) and for
/// a library of several specializations, None for other files, whose
/// signature is static (load them to know it). Diagnostics about the model
/// go to `diagnostics`.
llvm::Expected<std::optional<runtime::DeclaredSignature>>
readDeclaredSignature(MLIRContext &context, llvm::StringRef path,
                      const LoadOptions &options,
                      llvm::raw_ostream &diagnostics);

/// A session over the model at `path` (runtime/Session.h): a library made by
/// graph-compile, or a model compiled through loadModel with `options`.
llvm::Expected<std::unique_ptr<runtime::Session>> openSession(
    llvm::StringRef path, const LoadOptions &options,
    unsigned maxSpecializations = runtime::Session::kDefaultMaxSpecializations);

} // namespace compiler
} // namespace graph
} // namespace mlir

#endif // GRAPH_COMPILER_MODELLOADER_H
