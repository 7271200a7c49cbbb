//===- Dialects.cpp - C API of the graph dialect --------------------------===//

#include "graph-c/Dialects.h"

#include "graph/Conversion/Passes.h"
#include "graph/Dialect/Graph/IR/GraphDialect.h"
#include "graph/Transforms/Passes.h"

#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Graph, graph, mlir::graph::GraphDialect)

void mlirRegisterGraphPasses(void) {
  mlir::graph::registerAllGraphPasses();
  mlir::graph::registerAllGraphConversionPasses();
}
