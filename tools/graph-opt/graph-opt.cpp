//===- graph-opt.cpp - The graph optimizer driver ---------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// An mlir-opt-style driver: the graph dialect with its passes and pipelines,
// plus the upstream dialects and passes, so that every stage of the lowering
// can be run and inspected by hand. `--graph-dump-dot=DIR` also writes the
// graph before the first pass and after each pass as Graphviz DOT files.
// Unlike mlir-opt, it refuses text nested too deeply for the recursive
// parser before parsing it (NestingDepth.h).
//
//===----------------------------------------------------------------------===//

#include "graph/Codegen/CPU/Passes.h"
#include "graph/Conversion/Passes.h"
#include "graph/Dialect/Graph/IR/GraphDialect.h"
#include "graph/Support/NestingDepth.h"
#include "graph/Transforms/Passes.h"
#include "graph/Viz/Dot.h"
#include "graph/Viz/PipelineRecorder.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

static llvm::cl::opt<std::string> dumpDotDir(
    "graph-dump-dot",
    llvm::cl::desc("Write the graph before the first pass and after each "
                   "pass as Graphviz DOT files DIR/NN-PASS.dot, with what "
                   "the next pass changes marked"),
    llvm::cl::value_desc("DIR"), llvm::cl::init(""));

/// Writes step `index` into the dump directory.
static void writeDotFile(const mlir::graph::viz::Step &step, size_t index) {
  llvm::SmallString<128> path(dumpDotDir);
  llvm::sys::path::append(path,
                          llvm::formatv("{0:d2}-{1}.dot", index, step.title));
  if (llvm::Error err = llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
        mlir::graph::viz::printDot(step, {}, os);
        return llvm::Error::success();
      }))
    llvm::errs() << "graph-opt: cannot write '" << path
                 << "': " << llvm::toString(std::move(err)) << "\n";
}

/// MlirOptMain on the input read once (it may be stdin), checked for
/// nesting first; with --graph-dump-dot, a recorder added to the pass
/// manager that the command line sets up.
static mlir::LogicalResult run(llvm::StringRef inputFilename,
                               llvm::StringRef outputFilename,
                               mlir::DialectRegistry &registry) {
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  if (!dumpDotDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(dumpDotDir)) {
      llvm::errs() << "graph-opt: cannot create '" << dumpDotDir
                   << "': " << ec.message() << "\n";
      return mlir::failure();
    }
    auto fromCommandLine = std::make_shared<mlir::MlirOptMainConfig>(config);
    config.setPassPipelineSetupFn([fromCommandLine](mlir::PassManager &pm) {
      if (mlir::failed(fromCommandLine->setupPassPipeline(pm)))
        return mlir::failure();
      // The recorder looks at the whole module around each pass.
      pm.getContext()->disableMultithreading();
      pm.addInstrumentation(
          std::make_unique<mlir::graph::viz::PipelineRecorder>(writeDotFile));
      return mlir::success();
    });
  }

  std::string errorMessage;
  auto file = mlir::openInputFile(inputFilename, &errorMessage);
  if (!file) {
    llvm::errs() << errorMessage << "\n";
    return mlir::failure();
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(file->getMemBufferRef(),
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  if (mlir::failed(mlir::graph::checkNestingDepth(
          sourceMgr, *sourceMgr.getMemoryBuffer(1))))
    return mlir::failure();
  auto output = mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return mlir::failure();
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(file), registry, config)))
    return mlir::failure();
  output->keep();
  return mlir::success();
}

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::graph::registerAllGraphPasses();
  mlir::graph::registerAllGraphConversionPasses();
  mlir::graph::registerAllGraphCPUCodegenPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::graph::GraphDialect>();

  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "Graph optimizer driver\n", registry);
  // Listing dialects or passes reads no input: upstream's driver does it.
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  llvm::InitLLVM init(argc, argv);
  return mlir::asMainReturnCode(run(inputFilename, outputFilename, registry));
}
