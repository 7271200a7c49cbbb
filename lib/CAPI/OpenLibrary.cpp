//===- OpenLibrary.cpp - graphModelLoad without the compiler --------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// libGraphRuntime's models: libraries made by graph-compile. The options
// that say how to compile are not used; the input shapes choose among a
// library's specializations.
//
//===----------------------------------------------------------------------===//

#include "OpenModel.h"

#include "graph/Runtime/LibraryLoader.h"

using namespace mlir::graph;
using namespace mlir::graph::runtime;

llvm::Expected<std::unique_ptr<Session>>
capi::openModel(const char *path, const GraphCompileOptions &options,
                unsigned maxSpecializations) {
  std::vector<std::string> inputShapes;
  if (options.inputShapes && *options.inputShapes)
    inputShapes.push_back(options.inputShapes);
  return Session::open(createLibrarySource(path), std::move(inputShapes),
                       maxSpecializations);
}
