//===- downstream-optimize.cpp - A user of the installed package -*- C++
//-*-===//
//
// Parses a graph model, runs graph-optimize through the C++ API and prints it.
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/GraphDialect.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: downstream-optimize FILE.mlir\n";
    return 1;
  }
  mlir::MLIRContext context;
  context.loadDialect<mlir::graph::GraphDialect, mlir::func::FuncDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
  if (!module)
    return 1;

  mlir::PassManager pm(&context);
  mlir::graph::GraphOptimizeOptions options;
  if (mlir::failed(mlir::graph::buildGraphOptimizePipeline(pm, options)) ||
      mlir::failed(pm.run(*module)))
    return 1;

  int fused = 0;
  module->walk([&](mlir::graph::FusedOp op) { ++fused; });
  module->print(llvm::outs());
  llvm::outs() << "\nfused groups: " << fused << "\n";
  return 0;
}
