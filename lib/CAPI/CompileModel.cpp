//===- CompileModel.cpp - graphModelLoad with the compiler ----------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// libGraphCAPI's models: libraries made by graph-compile, and .mlir and
// .onnx models compiled through the compile cache (or the JIT).
//
//===----------------------------------------------------------------------===//

#include "OpenModel.h"

#include "graph/Compiler/ModelLoader.h"

#include "llvm/Support/TargetSelect.h"

#include <mutex>

using namespace mlir::graph;
using namespace mlir::graph::runtime;

llvm::Expected<std::unique_ptr<Session>>
capi::openModel(const char *path, const GraphCompileOptions &options,
                unsigned maxSpecializations) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  compiler::LoadOptions loadOptions;
  loadOptions.compile.optLevel = options.optLevel;
  if (options.entry)
    loadOptions.compile.entry = options.entry;
  if (options.targetCpu)
    loadOptions.compile.targetCpu = options.targetCpu;
  if (options.targetFeatures)
    loadOptions.compile.targetFeatures = options.targetFeatures;
  if (options.inputShapes && *options.inputShapes)
    loadOptions.inputShapes.push_back(options.inputShapes);
  loadOptions.useCache = options.useCache;
  if (options.cacheDirectory)
    loadOptions.cacheDirectory = options.cacheDirectory;
  loadOptions.compile.maxThreads = options.maxThreads;
  return compiler::openSession(path, loadOptions, maxSpecializations);
}
