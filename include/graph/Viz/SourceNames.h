//===- SourceNames.h - Name ops after their SSA values ----------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A picture of a .mlir model reads better with `mul` and `dead` on the boxes
// than with line numbers: the parser's record of the source gives each op
// the name of its first result, as a NameLoc around its location.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_VIZ_SOURCENAMES_H
#define GRAPH_VIZ_SOURCENAMES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir {
namespace graph {
namespace viz {

/// Parses the main buffer of `sourceMgr` (text or bytecode) into a module,
/// like parseSourceFile. Ops of a text file whose location is not already a
/// NameLoc get `NameLoc(name, location)`, the name being their first
/// result's in the source without the `%` (kept for numbers: `%0`).
/// Returns null after reporting an error to the context's handlers.
OwningOpRef<ModuleOp> parseSourceWithValueNames(llvm::SourceMgr &sourceMgr,
                                                MLIRContext *context);

} // namespace viz
} // namespace graph
} // namespace mlir

#endif // GRAPH_VIZ_SOURCENAMES_H
