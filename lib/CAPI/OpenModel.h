//===- OpenModel.h - Where graphModelLoad's models come from ----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Defined twice, one per library: libGraphRuntime's (OpenLibrary.cpp) opens
// libraries made by graph-compile and nothing else; libGraphCAPI's
// (CompileModel.cpp) compiles .mlir and .onnx models too.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_CAPI_OPENMODEL_H
#define GRAPH_CAPI_OPENMODEL_H

#include "graph-c/Runtime.h"
#include "graph/Runtime/Session.h"

#include "llvm/Support/Error.h"

#include <memory>

namespace mlir {
namespace graph {
namespace capi {

/// A session over the model at `path`, loaded with `options` (checked).
llvm::Expected<std::unique_ptr<runtime::Session>>
openModel(const char *path, const GraphCompileOptions &options,
          unsigned maxSpecializations);

} // namespace capi
} // namespace graph
} // namespace mlir

#endif // GRAPH_CAPI_OPENMODEL_H
