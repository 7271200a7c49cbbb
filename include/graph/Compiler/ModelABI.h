//===- ModelABI.h - The model ABI added to a lowered module -----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The compiler's side of the ABI of graph/Runtime/ModelMetadata.h: the
// entry function, metadata and allocation hooks added to a module lowered to
// the LLVM dialect, and a C header for the code that links it.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_COMPILER_MODELABI_H
#define GRAPH_COMPILER_MODELABI_H

#include "graph/Runtime/ModelMetadata.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
namespace graph {
namespace compiler {

/// Checks that the lowered `@entry` (an llvm.func) takes one memref per
/// tensor of `signature`, inputs then outputs, and returns nothing, then
/// adds the ABI above to `module`: graph_model_run calling it, the metadata,
/// the allocation hooks, and internal linkage for everything else. Errors at
/// an op go through the context's diagnostic handlers (a ReportedError).
llvm::Error addModelABI(ModuleOp module, llvm::StringRef entry,
                        const runtime::ModelMetadata &metadata);

/// A C header for code that links a compiled model: the declarations of the
/// ABI and, for every input and output, macros with its index, name, element
/// type, rank, shape and size. `source` names the model in a comment. For a
/// library of several specializations (`specializations` in order), also
/// their run functions and shapes, and graph_model_run_shaped, which runs
/// the one for the shapes it is given.
std::string
generateCHeader(llvm::ArrayRef<runtime::ModelMetadata> specializations,
                llvm::StringRef source);

} // namespace compiler
} // namespace graph
} // namespace mlir

#endif // GRAPH_COMPILER_MODELABI_H
