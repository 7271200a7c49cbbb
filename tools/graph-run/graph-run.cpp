//===- graph-run.cpp - Compile a graph model and run it on the CPU --------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph-run FILE.mlir|FILE.onnx|FILE.so|FILE.o [INPUT.npy...] [-O0..-O3]
//           [--input NAME=FILE.npy] [--seed N] [--output [NAME=]FILE.npy]
//           [--bench N] [--compare [--compare-to FILE]]
//           [--input-shape NAME=AxBxC] [--target-cpu NAME]
//           [--target-features +f,-g] [--cache-dir DIR] [--no-cache]
//           [--timing] [--profile[=FILE.json]]
//
// Gets the model ready through the runtime (ModelLoader.h): a library made
// by graph-compile is loaded; a model is compiled with graph-optimize at the
// chosen opt-level and the graph-lower-to-llvm lowering, through the compile
// cache (or the JIT, --no-cache). Then it runs the model and prints or saves
// its outputs. `--bench` and `--compare` time it and count the bytes of the
// buffers it allocates.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"
#include "Compare.h"
#include "Report.h"

#include "graph/Codegen/CPU/Passes.h"
#include "graph/Compiler/CompiledModel.h"
#include "graph/Compiler/InputFiles.h"
#include "graph/Compiler/ModelLoader.h"
#include "graph/Conversion/Passes.h"
#include "graph/Runtime/Errors.h"
#include "graph/Runtime/Profiler.h"
#include "graph/Runtime/SharedLibraryModel.h"
#include "graph/Runtime/TensorFiles.h"
#include "graph/Runtime/Threads.h"
#include "graph/Transforms/Passes.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/Timing.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace graph_run;
using namespace mlir::graph::runtime;
using namespace mlir::graph::compiler;
namespace cl = llvm::cl;

static cl::OptionCategory category("graph-run options");

static cl::opt<std::string> modelFile(cl::Positional, cl::Required,
                                      cl::desc("<model.mlir>"),
                                      cl::cat(category));

static cl::list<std::string> positionalInputs(cl::Positional,
                                              cl::desc("[input.npy...]"),
                                              cl::cat(category));

static cl::opt<unsigned>
    optLevel("O",
             cl::desc("graph-optimize opt-level: -O0, -O1, -O2 or -O3 "
                      "(default -O3); the lowering and LLVM's O3 code "
                      "generation are the same at every level"),
             cl::Prefix, cl::value_desc("0|1|2|3"), cl::init(3),
             cl::cat(category));

static cl::list<std::string>
    inputs("input",
           cl::desc("An input: NAME=FILE.npy, where NAME is the argument's "
                    "graph.name, argN or N (its position); C order, of the "
                    "input's element type"),
           cl::value_desc("NAME=FILE.npy"), cl::cat(category));

static cl::opt<unsigned>
    seed("seed",
         cl::desc("With no inputs given, every input is random, uniform in "
                  "[-1, 1): std::mt19937 seeded with N, each value "
                  "(x >> 8) * 2^-23 - 1 for the next 32-bit draw x, the "
                  "arguments in order, each in C order (default 0)"),
         cl::value_desc("N"), cl::init(0), cl::cat(category));

static cl::list<std::string>
    outputs("output",
            cl::desc("Save an output as .npy: FILE.npy (the n-th such "
                     "option is the n-th result), or NAME=FILE.npy with NAME "
                     "the result's graph.name, resultN or N"),
            cl::value_desc("[NAME=]FILE.npy"), cl::cat(category));

static cl::opt<unsigned>
    bench("bench",
          cl::desc("Time N runs after a warm-up run: compile time, min and "
                   "median latency, peak bytes of the buffers allocated"),
          cl::value_desc("N"), cl::init(0), cl::cat(category));

static cl::opt<bool>
    compare("compare",
            cl::desc("Compile at -O0 and at the chosen level, check that "
                     "their outputs agree, and print both measurements, the "
                     "speedup, the memory saving and the break-even number "
                     "of runs (--bench N runs each, default 20)"),
            cl::init(false), cl::cat(category));

static cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("For an .onnx model: the shape of an input, NAME=AxBxC "
             "(repeatable, or comma-separated), e.g. to fix a symbolic "
             "batch dimension"),
    cl::value_desc("NAME=AxBxC"), cl::cat(category));

static cl::opt<std::string> entry("entry",
                                  cl::desc("The function to run (default "
                                           "main)"),
                                  cl::value_desc("NAME"), cl::init("main"),
                                  cl::cat(category));

static cl::opt<std::string> targetCpu(
    "target-cpu",
    cl::desc("The CPU to generate code for, an LLVM CPU name such as "
             "haswell, znver3 or skylake-avx512 (default: this machine's)"),
    cl::value_desc("NAME"), cl::init(""), cl::cat(category));

static cl::opt<std::string> targetFeatures(
    "target-features",
    cl::desc("Target features to add or remove on top of the CPU's, e.g. "
             "-avx512f or +avx2,+fma (default: none)"),
    cl::value_desc("+f,-g"), cl::init(""), cl::cat(category));

static cl::opt<std::string> loweringPipeline(
    "lowering-pipeline",
    cl::desc("Debugging aid: a textual pass pipeline that replaces "
             "graph-lower-to-llvm"),
    cl::Hidden, cl::init(""), cl::cat(category));

static cl::opt<std::string>
    compareTo("compare-to",
              cl::desc("With --compare: the baseline, a model compiled at "
                       "-O0 or a shared library made by graph-compile "
                       "(default: this model at -O0)"),
              cl::value_desc("FILE"), cl::cat(category));

static cl::opt<bool>
    noCache("no-cache",
            cl::desc("Compile with the JIT, without the compile cache"),
            cl::init(false), cl::cat(category));

static cl::opt<std::string> cacheDir(
    "cache-dir",
    cl::desc("The compile cache's directory (default: $XDG_CACHE_HOME/graph, "
             "else ~/.cache/graph)"),
    cl::value_desc("DIR"), cl::cat(category));

static cl::opt<uint64_t> cacheSizeLimitMB(
    "cache-size-limit",
    cl::desc("The compile cache's size limit in MiB: the least recently "
             "used entries beyond it are removed (default 2048)"),
    cl::value_desc("MiB"), cl::init(kDefaultCacheSizeLimit >> 20),
    cl::cat(category));

static cl::opt<bool>
    timing("timing",
           cl::desc("Print where the compile time goes (import, "
                    "graph-optimize, each lowering pass, LLVM optimization, "
                    "code generation, the cache) to stderr"),
           cl::init(false), cl::cat(category));

static cl::opt<std::string> profile(
    "profile",
    cl::desc("Time each kernel (each graph.fused group and each op outside "
             "one) over the runs (--bench N, default 1) and print a table, "
             "one row per kernel call site; =FILE.json also writes a Chrome "
             "trace (chrome://tracing, Perfetto). The model is compiled with "
             "the profiler's hooks, by the JIT"),
    cl::ValueOptional, cl::value_desc("FILE.json"), cl::init(""),
    cl::cat(category));

static cl::opt<std::string> dumpObject(
    "dump-object",
    cl::desc("Debugging aid: write the object code the JIT made to FILE"),
    cl::value_desc("FILE"), cl::Hidden, cl::init(""), cl::cat(category));

static constexpr unsigned kDefaultCompareRuns = 20;

static llvm::raw_ostream &error() {
  return llvm::WithColor::error(llvm::errs(), "graph-run");
}

//===----------------------------------------------------------------------===//
// main
//===----------------------------------------------------------------------===//

static int runTool() {
  if (optLevel > 3) {
    error() << "unknown opt-level -O" << optLevel
            << ": use -O0, -O1, -O2 or -O3\n";
    return 1;
  }
  // Multithreaded: the lowering runs its function passes on the kernels in
  // parallel. The dialects are loaded here rather than on first use inside
  // the timed compilation, so that the first compilation is not charged.
  std::shared_ptr<mlir::MLIRContext> contextOwner = createLoaderContext();
  mlir::MLIRContext &context = *contextOwner;
  context.loadAllAvailableDialects();

  if (!loweringPipeline.empty()) {
    mlir::registerAllPasses();
    mlir::graph::registerAllGraphPasses();
    mlir::graph::registerAllGraphConversionPasses();
    mlir::graph::registerAllGraphCPUCodegenPasses();
  }

  mlir::DefaultTimingManager timingManager;
  timingManager.setEnabled(timing);
  mlir::TimingScope rootTimer = timingManager.getRootScope();

  bool profiling = profile.getNumOccurrences() > 0;
  if (profiling && compare) {
    error() << "--profile and --compare cannot be combined: profile one "
               "opt-level at a time\n";
    return 1;
  }

  LoadOptions options;
  options.compile.entry = entry;
  options.compile.profile = profiling;
  options.compile.optLevel = optLevel;
  options.compile.loweringPipeline = loweringPipeline;
  options.compile.targetCpu = targetCpu;
  options.compile.targetFeatures = targetFeatures;
  // Scratch for as many threads as the code will run on, no more.
  options.compile.maxThreads = getNumThreads();
  options.compile.objectDumpPath = dumpObject;
  options.inputShapes = inputShapes;
  // The object dump is the JIT's.
  options.useCache = !noCache && dumpObject.empty();
  options.cacheDirectory = cacheDir;
  options.cacheSizeLimit = cacheSizeLimitMB * (uint64_t(1) << 20);
  // Only timed compilations need the process warmed up first.
  if (bench || compare)
    CompiledModel::warmUp(context, options.compile);
  // Symbolic input dimensions take the sizes of the input files, inputs
  // that decide shapes their values.
  std::vector<std::optional<NpyArray>> preloaded;
  LoadReport report;
  llvm::Expected<std::unique_ptr<Executable>> model = loadModelForInputFiles(
      context, modelFile, options, {positionalInputs, inputs, entry}, rootTimer,
      report, preloaded);
  if (!model) {
    printError(model.takeError(), "graph-run");
    return 1;
  }
  if (timing)
    printCacheReport(modelFile, report);
  const ModelSignature &signature = (*model)->getSignature();

  // The inputs named on the command line, or random ones when none is.
  llvm::Expected<std::vector<std::optional<std::string>>> inputFiles =
      assignInputFiles(signature.inputs, positionalInputs, inputs, entry);
  if (!inputFiles) {
    printError(inputFiles.takeError(), "graph-run");
    return 1;
  }
  llvm::Expected<std::vector<TensorBuffer>> inputBuffers =
      readOrMakeInputs(signature, *inputFiles, seed, preloaded);
  if (!inputBuffers) {
    printError(inputBuffers.takeError(), "graph-run");
    return 1;
  }
  llvm::Expected<std::vector<std::optional<std::string>>> outputFiles =
      assignOutputFiles(signature.outputs, outputs, entry);
  if (!outputFiles) {
    printError(outputFiles.takeError(), "graph-run");
    return 1;
  }

  llvm::SmallVector<const TensorBuffer *> inputPtrs;
  for (const TensorBuffer &buffer : *inputBuffers)
    inputPtrs.push_back(&buffer);
  std::vector<TensorBuffer> outputBuffers;
  llvm::SmallVector<TensorBuffer *> outputPtrs;
  if (!allocateOutputBuffers(**model, outputBuffers, outputPtrs))
    return 1;
  std::string levelName = getLevelName(**model, optLevel);
  std::unique_ptr<Profiler> profiler;
  if (profiling)
    profiler = std::make_unique<Profiler>((*model)->getProfiledKernels());
  if (bench || compare)
    llvm::outs() << "target: " << (*model)->getTargetDescription() << ", "
                 << getNumThreads()
                 << (getNumThreads() == 1 ? " thread\n" : " threads\n");
  noteLibraryThreads(**model, modelFile);

  if (compare) {
    // The baseline: --compare-to's file (a model at -O0, or a shared
    // library), else this model at -O0.
    if (compareTo.empty() &&
        (isSharedLibrary(modelFile) || isObjectFile(modelFile))) {
      error() << "a compiled model has no -O0 to compare with: name the "
                 "baseline with --compare-to FILE\n";
      return 1;
    }
    unsigned runs = bench ? unsigned(bench) : kDefaultCompareRuns;
    Comparison comparison{
        context,       compareTo.empty() ? modelFile : compareTo,
        options,       rootTimer,
        timing,        modelFile,
        **model,       report,
        levelName,     inputPtrs,
        outputBuffers, outputPtrs,
        runs};
    comparison.baseOptions.compile.optLevel = 0;
    if (!compareWithBaseline(comparison))
      return 1;
  } else if (bench) {
    Measurement measurement =
        measure(**model, inputPtrs, outputPtrs, bench, profiler.get());
    printCacheSummary(report);
    warnAboutProblems(measurement, signature, levelName);
    printMeasurement(measurement, bench);
  } else {
    // Profiled: one run after the warm-up.
    Measurement measurement = measure(**model, inputPtrs, outputPtrs,
                                      profiler ? 1 : 0, profiler.get());
    warnAboutProblems(measurement, signature, levelName);
    if (outputs.empty())
      for (auto [spec, buffer] : llvm::zip_equal(
               (*model)->getOutputSpecs(outputBuffers), outputBuffers))
        if (!spec.isExtent)
          printOutput(spec, buffer);
  }

  if (profiler) {
    profiler->printTable(llvm::outs());
    // Written before the outputs: a trace that cannot be written fails the
    // command with no output file left behind.
    if (!profile.empty() && !writeProfileTrace(*profiler, profile))
      return 1;
  }

  if (llvm::Error error =
          writeOutputFiles((*model)->getOutputSpecs(outputBuffers),
                           *outputFiles, outputBuffers)) {
    printError(std::move(error), "graph-run");
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::Expected<int> threads = takeThreadsArgument(argc, argv);
  if (!threads) {
    printError(threads.takeError(), "graph-run");
    return 1;
  }
  setNumThreads(*threads ? *threads : getAvailableCores());
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "graph-run: compile a graph model with graph-optimize at -O0..-O3, "
      "JIT-compile it for this CPU and run it\n\n"
      "--threads N: threads for the compiled kernels' parallel loops "
      "(default: every core this process may use; 1: serial); the outputs "
      "are the same bits at any count.\n\n"
      "Inputs come from .npy files (C order, of each input's element type) "
      "given in argument "
      "order after the model or by name with --input; with none, every "
      "input is random (--seed). Without --output, the outputs are printed. "
      "Exit code 0 on success, 1 on any error.\n");
  return runTool();
}
