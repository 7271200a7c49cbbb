//===- Dialects.cpp - C API of the graph dialect --------------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph-c/Dialects.h"

#include "graph/Codegen/CPU/Passes.h"
#include "graph/Conversion/Passes.h"
#include "graph/Dialect/Graph/IR/GraphDialect.h"
#include "graph/Transforms/Passes.h"

#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Graph, graph, mlir::graph::GraphDialect)

void mlirRegisterGraphPasses(void) {
  mlir::graph::registerAllGraphPasses();
  mlir::graph::registerAllGraphConversionPasses();
  mlir::graph::registerAllGraphCPUCodegenPasses();
}
