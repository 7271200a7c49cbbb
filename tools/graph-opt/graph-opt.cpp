//===- graph-opt.cpp - The graph optimizer driver ---------------*- C++ -*-===//
//
// An mlir-opt-style driver: the graph dialect with its passes and pipelines,
// plus the upstream dialects and passes, so that every stage of the lowering
// can be run and inspected by hand.
//
//===----------------------------------------------------------------------===//

#include "graph/Conversion/Passes.h"
#include "graph/Dialect/Graph/IR/GraphDialect.h"
#include "graph/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::graph::registerAllGraphPasses();
  mlir::graph::registerAllGraphConversionPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::graph::GraphDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Graph optimizer driver\n", registry));
}
