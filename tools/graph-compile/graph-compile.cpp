//===- graph-compile.cpp - Compile a graph model ahead of time ------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph-compile FILE.mlir|FILE.onnx -o model.so|model.o [--header model.h]
//               [-O0..-O3] [--target-cpu NAME] [--target-features +f,-g]
//               [--input-shape NAME=AxBxC]... [--entry NAME] [--timing]
//
// Compiles the model as graph-run does (the same passes, target machine and
// LLVM pipeline, lib/Runtime/Compile.cpp) and writes the machine code as a
// shared library that depends on nothing but the C library and libm, or as
// an object file, with the C entry point of ModelABI.h. `--header` writes a
// C header declaring it and describing every input and output. The work is
// driver::compileModelToFile (graph/Driver/Driver.h), which Python calls too.
//
//===----------------------------------------------------------------------===//

#include "graph/Codegen/CPU/Passes.h"
#include "graph/Conversion/Passes.h"
#include "graph/Driver/Driver.h"
#include "graph/Runtime/Errors.h"

#include "mlir/Support/Timing.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::graph::runtime;
using namespace mlir::graph::compiler;
namespace cl = llvm::cl;

static cl::OptionCategory category("graph-compile options");

static cl::opt<std::string> modelFile(cl::Positional, cl::Required,
                                      cl::desc("<model.mlir|model.onnx>"),
                                      cl::cat(category));

static cl::opt<std::string>
    outputFile("o", cl::Required,
               cl::desc("The output: a shared library (.so) or an object "
                        "file (.o)"),
               cl::value_desc("model.so|model.o"), cl::cat(category));

static cl::opt<std::string>
    headerFile("header",
               cl::desc("Also write a C header declaring the entry point "
                        "and describing the inputs and outputs"),
               cl::value_desc("model.h"), cl::cat(category));

static cl::opt<unsigned>
    optLevel("O",
             cl::desc("graph-optimize opt-level: -O0, -O1, -O2 or -O3 "
                      "(default -O3)"),
             cl::Prefix, cl::value_desc("0|1|2|3"), cl::init(3),
             cl::cat(category));

static cl::opt<std::string>
    targetCpu("target-cpu",
              cl::desc("The CPU to generate code for, an LLVM CPU name "
                       "(default: this host's)"),
              cl::value_desc("NAME"), cl::cat(category));

static cl::opt<std::string> targetFeatures(
    "target-features",
    cl::desc("CPU features to add or remove, LLVM's names: +avx2,-avx512f"),
    cl::value_desc("+f,-g"), cl::cat(category));

static cl::opt<int> maxThreads(
    "max-threads",
    cl::desc("The most threads the library's fused tile loops run on: each "
             "gets a slot of per-thread scratch (default 8)"),
    cl::value_desc("N"), cl::init(0), cl::cat(category));

static cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("For an .onnx model: the shape of an input, NAME=AxBxC "
             "(repeatable, or comma-separated); an input named again starts "
             "another set of shapes, and the library holds a "
             "specialization per set"),
    cl::value_desc("NAME=AxBxC"), cl::cat(category));

static cl::opt<std::string> entry("entry",
                                  cl::desc("The function to compile (default "
                                           "main)"),
                                  cl::value_desc("NAME"), cl::init("main"),
                                  cl::cat(category));

static cl::opt<bool> timing("timing",
                            cl::desc("Print where the compile time goes"),
                            cl::init(false), cl::cat(category));

static cl::opt<std::string> loweringPipeline(
    "lowering-pipeline",
    cl::desc("Debugging aid: a textual pass pipeline that replaces "
             "graph-lower-to-llvm"),
    cl::Hidden, cl::init(""), cl::cat(category));

static llvm::raw_ostream &error() {
  return llvm::WithColor::error(llvm::errs(), "graph-compile");
}

static int compileTool() {
  if (optLevel > 3) {
    error() << "unknown opt-level -O" << optLevel
            << ": use -O0, -O1, -O2 or -O3\n";
    return 1;
  }
  if (maxThreads.getNumOccurrences() && maxThreads < 1) {
    error() << "--max-threads must be a count of at least 1, got " << maxThreads
            << "\n";
    return 1;
  }

  mlir::DefaultTimingManager timingManager;
  timingManager.setEnabled(timing);
  mlir::TimingScope rootTimer = timingManager.getRootScope();

  if (!loweringPipeline.empty())
    mlir::graph::registerAllGraphConversionPasses();
  mlir::graph::registerAllGraphCPUCodegenPasses();

  mlir::graph::driver::AheadOfTimeOptions options;
  options.compile.entry = entry;
  options.compile.optLevel = optLevel;
  options.compile.loweringPipeline = loweringPipeline;
  options.compile.targetCpu = targetCpu;
  options.compile.targetFeatures = targetFeatures;
  options.compile.maxThreads = maxThreads;
  options.inputShapes.assign(inputShapes.begin(), inputShapes.end());
  options.headerPath = headerFile;
  if (llvm::Error error = mlir::graph::driver::compileModelToFile(
          modelFile, outputFile, options, rootTimer)) {
    printError(std::move(error), "graph-compile");
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "graph-compile: compile a graph model ahead of time into a shared "
      "library or an object file with a C entry point\n\n"
      "  int graph_model_run(const void *const *inputs, void *const "
      "*outputs);\n\n"
      "The code is the code graph-run would run (the same passes and LLVM "
      "pipeline) for the target CPU (default: this host's). Exit code 0 on "
      "success, 1 on any error.\n");
  return compileTool();
}
