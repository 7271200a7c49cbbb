//===- LowerToLLVMPipeline.cpp - The graph-lower-to-llvm pipeline -*- C++
//-*-===//

#include "graph/Conversion/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::graph;

void mlir::graph::buildGraphLowerToLLVMPipeline(OpPassManager &pm) {
  pm.addPass(createConvertGraphToLinalg());
}

void mlir::graph::registerGraphLowerToLLVMPipeline() {
  PassPipelineRegistration<>(
      "graph-lower-to-llvm",
      "Lower graph ops to the LLVM dialect, runnable by mlir-runner and "
      "graph-run",
      buildGraphLowerToLLVMPipeline);
}
