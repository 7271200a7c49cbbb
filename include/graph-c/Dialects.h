/*===-- graph-c/Dialects.h - C API of the graph dialect -----------*- C -*-===*\
|*                                                                            *|
|* Part of the graph compiler, under the Apache License v2.0 with LLVM        *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|* The graph dialect and its passes for stacks that drive MLIR through its C  *|
|* API (the Python bindings, say), as mlir/examples/standalone exposes its    *|
|* dialect: a dialect handle to register or load it in a context, and one     *|
|* call that registers every graph pass and pipeline (graph-optimize,         *|
|* graph-lower-to-llvm, ...) for textual pass pipelines.                      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GRAPH_C_DIALECTS_H
#define GRAPH_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Graph, graph);

/// Registers the graph passes, the lowering passes and the graph-optimize
/// and graph-lower-to-llvm pipelines in the global pass registry.
MLIR_CAPI_EXPORTED void mlirRegisterGraphPasses(void);

#ifdef __cplusplus
}
#endif

#endif /* GRAPH_C_DIALECTS_H */
