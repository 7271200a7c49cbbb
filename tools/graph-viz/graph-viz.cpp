//===- graph-viz.cpp - Step through the graph optimizations in a page -----===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph-viz FILE.mlir|FILE.onnx -o steps.html [-O0..-O3] [--pipeline P]
//           [--input-shape NAME=AxBxC]
//
// Runs graph-optimize (or the given pipeline) on the model and writes one
// self-contained HTML page that steps through the graph before the first
// pass and after each pass, laid out by Graphviz. The work is
// driver::writeStepsPage (graph/Driver/Driver.h), which Python calls too.
//
//===----------------------------------------------------------------------===//

#include "graph/Driver/Driver.h"
#include "graph/Runtime/Errors.h"
#include "graph/Transforms/Passes.h"

#include "mlir/InitAllPasses.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

static cl::OptionCategory category("graph-viz options");

static cl::opt<std::string> modelFile(cl::Positional, cl::Required,
                                      cl::desc("<model.mlir|model.onnx>"),
                                      cl::cat(category));

static cl::opt<std::string> outputFile("o", cl::Required,
                                       cl::desc("The page to write"),
                                       cl::value_desc("steps.html"),
                                       cl::cat(category));

static cl::opt<unsigned>
    optLevel("O",
             cl::desc("graph-optimize opt-level: -O0 (the input alone), -O1, "
                      "-O2 or -O3 (default)"),
             cl::Prefix, cl::value_desc("0|1|2|3"), cl::init(3),
             cl::cat(category));

static cl::opt<std::string> pipeline(
    "pipeline",
    cl::desc("A pass pipeline to run instead of graph-optimize, e.g. "
             "'graph-fold-constants,graph-eliminate-dead-code' or "
             "'builtin.module(graph-optimize{opt-level=2})'; one step per "
             "pass"),
    cl::value_desc("PIPELINE"), cl::init(""), cl::cat(category));

static cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("For an .onnx model: the shape of an input, NAME=AxBxC "
             "(repeatable, or comma-separated)"),
    cl::value_desc("NAME=AxBxC"), cl::cat(category));

static cl::opt<unsigned>
    jobs("j", cl::desc("Graphviz processes at once (default: one per core)"),
         cl::init(0), cl::cat(category));

static int runTool() {
  mlir::graph::driver::StepsPageOptions options;
  if (optLevel.getNumOccurrences())
    options.optLevel = optLevel;
  options.pipeline = pipeline;
  options.inputShapes.assign(inputShapes.begin(), inputShapes.end());
  options.jobs = jobs;
  llvm::Expected<std::vector<mlir::graph::driver::StepSummary>> steps =
      mlir::graph::driver::writeStepsPage(modelFile, outputFile, options);
  if (!steps) {
    mlir::graph::runtime::printError(steps.takeError(), "graph-viz");
    return 1;
  }
  if (outputFile != "-") {
    llvm::outs() << "graph-viz: wrote " << outputFile << ":";
    for (const mlir::graph::driver::StepSummary &step : *steps)
      llvm::outs() << " " << step.title << " (" << step.stats.getNumOps()
                   << " ops)";
    llvm::outs() << "\n";
  }
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::registerAllPasses();
  mlir::graph::registerAllGraphPasses();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "graph-viz: a self-contained HTML page stepping through the graph "
      "before and after each pass of graph-optimize\n");
  return runTool();
}
