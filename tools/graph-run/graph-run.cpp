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

#include "graph/Codegen/CPU/Passes.h"
#include "graph/Compiler/CompiledModel.h"
#include "graph/Compiler/ModelLoader.h"
#include "graph/Conversion/Passes.h"
#include "graph/Runtime/Errors.h"
#include "graph/Runtime/Npy.h"
#include "graph/Runtime/Profiler.h"
#include "graph/Runtime/Session.h"
#include "graph/Runtime/SharedLibraryModel.h"
#include "graph/Runtime/TensorFiles.h"
#include "graph/Runtime/Threads.h"
#include "graph/Target/ONNX/ImportONNX.h"
#include "graph/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/Timing.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <optional>
#include <random>

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
// Inputs
//===----------------------------------------------------------------------===//

/// The file given for each input (positionally, or with --input), if any.
static mlir::FailureOr<std::vector<std::optional<std::string>>>
resolveInputFiles(llvm::ArrayRef<TensorSpec> specs) {
  llvm::Expected<std::vector<std::optional<std::string>>> files =
      assignInputFiles(specs, positionalInputs, inputs, entry);
  if (!files) {
    printError(files.takeError(), "graph-run");
    return mlir::failure();
  }
  return std::move(*files);
}

/// For an ONNX model whose inputs have symbolic dimensions: their sizes,
/// read from the input files, as --input-shape entries for the loader (the
/// arrays read are kept in `arrays` for the run).
static mlir::FailureOr<std::vector<std::string>>
bindShapesFromFiles(const DeclaredSignature &declared,
                    std::vector<std::optional<NpyArray>> &arrays) {
  llvm::SmallVector<TensorSpec> specs;
  for (const DeclaredTensor &input : declared.inputs)
    specs.emplace_back().name = input.name;
  mlir::FailureOr<std::vector<std::optional<std::string>>> files =
      resolveInputFiles(specs);
  if (failed(files))
    return mlir::failure();
  auto describeDeclared = [&](const DeclaredTensor &input) {
    llvm::SmallVector<std::string> dims;
    for (auto [dim, symbol] : llvm::zip_equal(input.shape, input.symbols))
      dims.push_back(dim == kSymbolicDim ? symbol : std::to_string(dim));
    return "(" + llvm::join(dims, ", ") + (dims.size() == 1 ? ",)" : ")");
  };
  if (llvm::none_of(*files, [](auto &file) { return bool(file); })) {
    for (const DeclaredTensor &input : declared.inputs) {
      if (input.ranked && !llvm::is_contained(input.shape, kSymbolicDim))
        continue;
      llvm::SmallVector<std::string> example;
      for (int64_t dim : input.shape)
        example.push_back(std::to_string(dim == kSymbolicDim ? 1 : dim));
      error() << "input '" << input.name << "' has symbolic dimensions "
              << (input.ranked ? describeDeclared(input) : "(unranked)")
              << ": give the inputs as .npy files, whose shapes fix them, "
                 "or fix them with --input-shape "
              << input.name << "="
              << (input.ranked ? llvm::join(example, "x") : "AxBx...") << "\n";
      return mlir::failure();
    }
  }
  arrays.clear();
  arrays.resize(declared.inputs.size());
  InputShapes shapes;
  for (auto [i, input] : llvm::enumerate(declared.inputs)) {
    if (!(*files)[i]) {
      error() << "missing input '" << input.name << "' (argument " << i
              << ") of shape "
              << (input.ranked ? describeDeclared(input) : "(unranked)")
              << "\n";
      return mlir::failure();
    }
    llvm::Expected<NpyArray> array = readNpy(*(*files)[i]);
    if (!array) {
      error() << "input '" << input.name << "' (argument " << i << "): '"
              << *(*files)[i] << "': " << llvm::toString(array.takeError())
              << "\n";
      return mlir::failure();
    }
    shapes.emplace_back(array->shape.begin(), array->shape.end());
    arrays[i] = std::move(*array);
  }
  llvm::Expected<std::vector<std::string>> bound =
      bindInputShapes(declared, shapes);
  if (!bound) {
    printError(bound.takeError(), "graph-run");
    return mlir::failure();
  }
  return *bound;
}

/// The values of the inputs `names`, which decide shapes, read from their
/// files (kept in `arrays` for the run) as LoadOptions::inputValues.
static mlir::FailureOr<std::vector<std::string>>
valuesFromFiles(const DeclaredSignature &declared,
                llvm::ArrayRef<std::string> names,
                std::vector<std::optional<NpyArray>> &arrays) {
  llvm::SmallVector<TensorSpec> specs;
  for (const DeclaredTensor &input : declared.inputs)
    specs.emplace_back().name = input.name;
  mlir::FailureOr<std::vector<std::optional<std::string>>> files =
      resolveInputFiles(specs);
  if (failed(files))
    return mlir::failure();
  arrays.resize(declared.inputs.size());
  std::vector<std::string> values;
  for (auto [i, input] : llvm::enumerate(declared.inputs)) {
    if (!llvm::is_contained(names, input.name))
      continue;
    if (!(*files)[i]) {
      error() << "input '" << input.name
              << "' decides shapes (an op needs its values when the model "
                 "is compiled): give it as a .npy file\n";
      return mlir::failure();
    }
    if (!arrays[i]) {
      llvm::Expected<NpyArray> array = readNpy(*(*files)[i]);
      if (!array) {
        error() << "input '" << input.name << "' (argument " << i << "): '"
                << *(*files)[i] << "': " << llvm::toString(array.takeError())
                << "\n";
        return mlir::failure();
      }
      arrays[i] = std::move(*array);
    }
    ElementType type = arrays[i]->buffer.getElementType();
    if (input.elementType && type != *input.elementType) {
      error() << "input '" << input.name << "' (argument " << i << "): '"
              << *(*files)[i] << "' holds " << getName(type) << ", expected "
              << getName(*input.elementType) << "\n";
      return mlir::failure();
    }
    llvm::Expected<std::string> text =
        formatInputValues(input, arrays[i]->shape, arrays[i]->buffer.data());
    if (!text) {
      printError(text.takeError(), "graph-run");
      return mlir::failure();
    }
    values.push_back(std::move(*text));
  }
  return values;
}

/// Loads the inputs named on the command line (or read already, in
/// `preloaded`), or makes random ones when none is given.
static mlir::FailureOr<std::vector<TensorBuffer>>
loadInputs(const ModelSignature &signature,
           std::vector<std::optional<NpyArray>> &preloaded) {
  mlir::FailureOr<std::vector<std::optional<std::string>>> files =
      resolveInputFiles(signature.inputs);
  if (failed(files))
    return mlir::failure();
  bool anyGiven = llvm::any_of(*files, [](auto &file) { return bool(file); });
  llvm::Expected<std::vector<TensorBuffer>> buffers =
      anyGiven ? readInputFiles(signature, *files, preloaded)
               : makeRandomInputs(signature, seed);
  if (!buffers) {
    printError(buffers.takeError(), "graph-run");
    return mlir::failure();
  }
  return std::move(*buffers);
}

//===----------------------------------------------------------------------===//
// Outputs
//===----------------------------------------------------------------------===//

/// Writes the profiler's Chrome trace to `path`, through a temporary file
/// renamed into place.
static mlir::LogicalResult writeTrace(const Profiler &profiler,
                                      llvm::StringRef path) {
  llvm::Error written =
      llvm::writeToOutput(path, [&](llvm::raw_ostream &os) -> llvm::Error {
        profiler.writeChromeTrace(os);
        return llvm::Error::success();
      });
  if (written) {
    error() << "cannot write the profile to '" << path
            << "': " << llvm::toString(std::move(written)) << "\n";
    return mlir::failure();
  }
  return mlir::success();
}

/// Prints an output as `name: shape`, then its values, one innermost row per
/// line, floats with 9 significant digits (17 for f64: enough to tell any two
/// apart), integers and booleans (0, 1) as integers.
static void printOutput(const TensorSpec &spec, const TensorBuffer &buffer) {
  llvm::outs() << spec.name << ": " << formatShape(spec.shape) << "\n";
  int64_t rowLength = spec.shape.empty() ? 1 : spec.shape.back();
  if (rowLength == 0)
    return;
  bool isInteger = spec.elementType != ElementType::F16 &&
                   spec.elementType != ElementType::F32 &&
                   spec.elementType != ElementType::F64;
  for (int64_t i = 0; i < spec.numElements; ++i) {
    double value = buffer.getAsDouble(i);
    if (isInteger && spec.elementType == ElementType::U64)
      llvm::outs() << buffer.values<uint64_t>()[i];
    else if (isInteger && spec.elementType == ElementType::I64)
      llvm::outs() << buffer.values<int64_t>()[i];
    else if (isInteger)
      llvm::outs() << int64_t(value);
    else
      llvm::outs() << llvm::format(
          spec.elementType == ElementType::F64 ? "%.17g" : "%.9g", value);
    llvm::outs() << ((i + 1) % rowLength == 0 ? "\n" : " ");
  }
}

//===----------------------------------------------------------------------===//
// Benchmark reports
//===----------------------------------------------------------------------===//

static void printMeasurement(const Measurement &m, unsigned runs) {
  llvm::outs() << llvm::format("compile time: %.3f ms\n", m.compileMillis);
  llvm::outs() << llvm::format(
      "latency: min %.6f ms, median %.6f ms (%u runs)\n", m.minMillis,
      m.medianMillis, runs);
  llvm::outs() << "peak buffer bytes: " << m.peakBytes << "\n";
  llvm::outs() << "arena bytes: " << m.arenaBytes
               << " (allocated once; the rest by each run)\n";
  llvm::outs() << "live buffer bytes after each run: " << m.leakedBytes << "\n";
}

static void printComparison(const Measurement &base, const Measurement &opt,
                            const std::string &baseName,
                            const std::string &optName, unsigned runs) {
  llvm::outs() << llvm::format("%-6s %14s %14s %14s %16s\n", "level",
                               "compile (ms)", "min (ms)", "median (ms)",
                               "peak bytes");
  auto row = [&](const char *name, const Measurement &m) {
    llvm::outs() << llvm::format("%-6s %14.3f %14.6f %14.6f %16llu\n", name,
                                 m.compileMillis, m.minMillis, m.medianMillis,
                                 (unsigned long long)m.peakBytes);
  };
  row(baseName.c_str(), base);
  row(optName.c_str(), opt);
  llvm::outs() << "(" << runs << " timed runs each, median latencies below)\n";

  if (opt.medianMillis > 0)
    llvm::outs() << llvm::format("Speedup = L_base / L_opt = %.3f\n",
                                 base.medianMillis / opt.medianMillis);
  else
    llvm::outs() << "Speedup = L_base / L_opt = inf\n";
  if (base.peakBytes > 0)
    llvm::outs() << llvm::format(
        "MemSave = (M_base - M_opt) / M_base = %.1f%%\n",
        100.0 * (double(base.peakBytes) - double(opt.peakBytes)) /
            double(base.peakBytes));
  else
    llvm::outs() << "MemSave = (M_base - M_opt) / M_base = n/a (M_base = 0)\n";
  std::optional<uint64_t> breakEven =
      breakEvenRuns(base.compileMillis, base.medianMillis, opt.compileMillis,
                    opt.medianMillis);
  llvm::outs() << "break-even N = ";
  if (breakEven)
    llvm::outs() << *breakEven;
  else
    llvm::outs() << "never";
  llvm::outs() << " (t_compile + N * L at " << optName << " below " << baseName
               << ")\n";
}

//===----------------------------------------------------------------------===//
// The compile cache
//===----------------------------------------------------------------------===//

/// For --timing, on stderr: where the model came from.
static void printCacheReport(llvm::StringRef file, const LoadReport &report) {
  llvm::raw_ostream &os = llvm::errs();
  os << "graph-run: " << file << ": ";
  switch (report.source) {
  case LoadReport::Source::SharedLibrary:
    os << "shared library, no compilation\n";
    return;
  case LoadReport::Source::CacheHit:
    os << "compile cache hit: " << report.cacheEntry << "\n";
    return;
  case LoadReport::Source::CacheMiss:
    os << "compile cache miss: "
       << (report.cacheProblem.empty() ? "compiled into "
                                       : "compiled, not cached: ")
       << (report.cacheProblem.empty() ? report.cacheEntry
                                       : report.cacheProblem)
       << "\n";
    return;
  case LoadReport::Source::JIT:
    os << "compiled by the JIT, "
       << (report.cacheProblem.empty()
               ? "no compile cache (--no-cache)"
               : "no compile cache: " + report.cacheProblem)
       << "\n";
    return;
  }
}

/// For --bench: the cold and warm compile times the cache knows.
static void printCacheSummary(const LoadReport &report) {
  if (report.source != LoadReport::Source::CacheHit &&
      report.source != LoadReport::Source::CacheMiss)
    return;
  llvm::outs() << "compile cache: "
               << (report.source == LoadReport::Source::CacheHit ? "hit"
                                                                 : "miss");
  if (report.coldMillis)
    llvm::outs() << llvm::format(", cold compile %.3f ms", *report.coldMillis);
  if (report.warmMillis)
    llvm::outs() << llvm::format(", warm load %.3f ms", *report.warmMillis);
  llvm::outs() << "\n";
}

/// For --compare: the break-even N when both compilations are cache hits.
static void printWarmBreakEven(const LoadReport &baseReport,
                               const Measurement &base,
                               const LoadReport &report, const Measurement &opt,
                               llvm::StringRef baseName,
                               llvm::StringRef optName) {
  if (!baseReport.warmMillis || !report.warmMillis)
    return;
  std::optional<uint64_t> breakEven =
      breakEvenRuns(*baseReport.warmMillis, base.medianMillis,
                    *report.warmMillis, opt.medianMillis);
  llvm::outs() << "break-even N (warm, compile cache hits) = ";
  if (breakEven)
    llvm::outs() << *breakEven;
  else
    llvm::outs() << "never";
  llvm::outs() << llvm::format(" (t_compile %.3f ms at ", *report.warmMillis)
               << optName
               << llvm::format(", %.3f ms at ", *baseReport.warmMillis)
               << baseName << ")\n";
}

static bool sameSignature(const ModelSignature &a, const ModelSignature &b) {
  auto same = [](llvm::ArrayRef<TensorSpec> x, llvm::ArrayRef<TensorSpec> y) {
    return x.size() == y.size() &&
           llvm::all_of(llvm::zip_equal(x, y), [](auto pair) {
             auto &[p, q] = pair;
             return p.elementType == q.elementType &&
                    llvm::ArrayRef<int64_t>(p.shape) ==
                        llvm::ArrayRef<int64_t>(q.shape);
           });
  };
  return same(a.inputs, b.inputs) && same(a.outputs, b.outputs);
}

/// `-O<level>`: the level given, or the one a shared library was compiled
/// at.
static std::string getLevelName(const Executable &model, unsigned level) {
  if (auto *library = dynamic_cast<const SharedLibraryModel *>(&model))
    level = library->getMetadata().optLevel;
  return "-O" + std::to_string(level);
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
  mlir::DialectRegistry registry;
  registerCompilerDialects(registry);
  mlir::MLIRContext context(registry);
  // Multithreaded: the lowering runs its function passes on the kernels in
  // parallel.
  // Errors point at the source line; dumping a whole lowered function after
  // them would drown it.
  context.printOpOnDiagnostic(false);
  // Loaded here rather than on first use inside the timed compilation, so
  // that the first compilation is not charged for it.
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
  // Symbolic input dimensions take the sizes of the input files.
  std::vector<std::optional<NpyArray>> preloaded;
  llvm::Expected<std::optional<DeclaredSignature>> declared =
      readDeclaredSignature(context, modelFile, options, llvm::errs());
  if (!declared) {
    printError(declared.takeError(), "graph-run");
    return 1;
  }
  if (*declared && (*declared)->isSymbolic()) {
    mlir::FailureOr<std::vector<std::string>> bound =
        bindShapesFromFiles(**declared, preloaded);
    if (failed(bound))
      return 1;
    llvm::append_range(options.inputShapes, *bound);
  }
  // Only timed compilations need the process warmed up first.
  if (bench || compare)
    CompiledModel::warmUp(context, options.compile);
  LoadReport report;
  // An import that needs the values of inputs that decide shapes is tried
  // again with those of the input files (each try names at least one more).
  std::optional<llvm::Expected<std::unique_ptr<Executable>>> attempt;
  for (;;) {
    std::string diagnostics;
    llvm::raw_string_ostream os(diagnostics);
    attempt.emplace([&] {
      mlir::TimingScope modelTimer = rootTimer.nest(std::string(modelFile));
      return loadModel(context, std::string(modelFile), options, modelTimer,
                       report, os);
    }());
    std::vector<std::string> needed;
    if (!*attempt && *declared) {
      llvm::Error error = attempt->takeError();
      if (error.isA<InputValuesNeeded>())
        llvm::handleAllErrors(
            std::move(error),
            [&](const InputValuesNeeded &missing) { needed = missing.names; });
      attempt.emplace(error ? std::move(error) : makeReportedError());
    }
    bool given = llvm::all_of(needed, [&](const std::string &name) {
      return llvm::any_of(options.inputValues, [&](const std::string &v) {
        return llvm::StringRef(v).starts_with(name + "=");
      });
    });
    if (*attempt || given) {
      llvm::errs() << diagnostics;
      break;
    }
    mlir::FailureOr<std::vector<std::string>> values =
        valuesFromFiles(**declared, needed, preloaded);
    if (failed(values))
      return 1;
    llvm::append_range(options.inputValues, *values);
  }
  llvm::Expected<std::unique_ptr<Executable>> model = std::move(*attempt);
  if (!model) {
    printError(model.takeError(), "graph-run");
    return 1;
  }
  if (timing)
    printCacheReport(modelFile, report);
  const ModelSignature &signature = (*model)->getSignature();

  mlir::FailureOr<std::vector<TensorBuffer>> inputBuffers =
      loadInputs(signature, preloaded);
  if (failed(inputBuffers))
    return 1;
  llvm::Expected<std::vector<std::optional<std::string>>> outputFiles =
      assignOutputFiles(signature.outputs, outputs, entry);
  if (!outputFiles) {
    printError(outputFiles.takeError(), "graph-run");
    return 1;
  }

  llvm::SmallVector<const TensorBuffer *> inputPtrs;
  for (const TensorBuffer &buffer : *inputBuffers)
    inputPtrs.push_back(&buffer);
  auto makeOutputs = [&](Executable &compiled,
                         std::vector<TensorBuffer> &buffers,
                         llvm::SmallVectorImpl<TensorBuffer *> &ptrs) {
    llvm::Expected<std::vector<TensorBuffer>> allocated =
        compiled.allocateOutputs();
    if (!allocated) {
      printError(allocated.takeError(), "graph-run");
      return false;
    }
    buffers = std::move(*allocated);
    for (TensorBuffer &buffer : buffers)
      ptrs.push_back(&buffer);
    return true;
  };
  std::vector<TensorBuffer> outputBuffers;
  llvm::SmallVector<TensorBuffer *> outputPtrs;
  if (!makeOutputs(**model, outputBuffers, outputPtrs))
    return 1;
  std::string levelName = getLevelName(**model, optLevel);
  std::unique_ptr<Profiler> profiler;
  if (profiling)
    profiler = std::make_unique<Profiler>((*model)->getProfiledKernels());
  if (bench || compare)
    llvm::outs() << "target: " << (*model)->getTargetDescription() << ", "
                 << getNumThreads()
                 << (getNumThreads() == 1 ? " thread\n" : " threads\n");
  // A library's fused tile loops have per-thread scratch for the threads it
  // was built for, and run on no more.
  if (auto *library = dynamic_cast<const SharedLibraryModel *>(&**model)) {
    unsigned maxThreads = library->getMetadata().maxThreads;
    if (maxThreads > 0 && unsigned(getNumThreads()) > maxThreads)
      llvm::errs() << "graph-run: note: " << modelFile
                   << " was built for at most " << maxThreads
                   << " threads (graph-compile --max-threads): its parallel "
                      "tile loops run on "
                   << maxThreads << "\n";
  }

  if (compare) {
    // The baseline: --compare-to's file (a model at -O0, or a shared
    // library), else this model at -O0.
    std::string baseFile = compareTo.empty() ? modelFile : compareTo;
    if (compareTo.empty() &&
        (isSharedLibrary(modelFile) || isObjectFile(modelFile))) {
      error() << "a compiled model has no -O0 to compare with: name the "
                 "baseline with --compare-to FILE\n";
      return 1;
    }
    LoadOptions baseOptions = options;
    baseOptions.compile.optLevel = 0;
    LoadReport baseReport;
    llvm::Expected<std::unique_ptr<Executable>> baseModel = [&] {
      mlir::TimingScope baseTimer = rootTimer.nest(baseFile + " (baseline)");
      return loadModel(context, baseFile, baseOptions, baseTimer, baseReport);
    }();
    if (!baseModel) {
      printError(baseModel.takeError(), "graph-run");
      return 1;
    }
    if (timing)
      printCacheReport(baseFile + " (baseline)", baseReport);
    if (!sameSignature((*baseModel)->getSignature(), signature)) {
      error() << "the baseline '" << baseFile
              << "' does not take and return the same tensors as '" << modelFile
              << "'\n";
      return 1;
    }
    std::vector<TensorBuffer> baseBuffers;
    llvm::SmallVector<TensorBuffer *> basePtrs;
    if (!makeOutputs(**baseModel, baseBuffers, basePtrs))
      return 1;
    unsigned runs = bench ? unsigned(bench) : kDefaultCompareRuns;
    Measurement baseMeasurement =
        measure(**baseModel, inputPtrs, basePtrs, runs);
    Measurement optMeasurement = measure(**model, inputPtrs, outputPtrs, runs);
    std::string baseName = getLevelName(**baseModel, 0);
    if (baseName == levelName)
      baseName = "base";
    warnAboutProblems(baseMeasurement, signature, baseName);
    warnAboutProblems(optMeasurement, signature, levelName);

    Agreement agreement = compareOutputs(signature.outputs, baseBuffers,
                                         outputBuffers, baseName, levelName);
    if (!agreement.agree) {
      error() << "outputs differ between " << baseName << " and " << levelName
              << ": " << agreement.mismatch << " (rtol " << kCompareRtol
              << ", atol " << kCompareAtol << ")\n";
      return 1;
    }
    llvm::outs() << llvm::format(
        "outputs agree: max abs diff %.3g, max rel diff %.3g (rtol %g, atol "
        "%g)\n",
        agreement.maxAbsDiff, agreement.maxRelDiff, kCompareRtol, kCompareAtol);
    // The break-even N of the table: from the cold compile times (what a
    // cache hit saved, when there was one), then from the warm ones.
    if (baseReport.coldMillis)
      baseMeasurement.compileMillis = *baseReport.coldMillis;
    if (report.coldMillis)
      optMeasurement.compileMillis = *report.coldMillis;
    printComparison(baseMeasurement, optMeasurement, baseName, levelName, runs);
    printWarmBreakEven(baseReport, baseMeasurement, report, optMeasurement,
                       baseName, levelName);
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
      for (auto [spec, buffer] :
           llvm::zip_equal(signature.outputs, outputBuffers))
        printOutput(spec, buffer);
  }

  if (profiler) {
    profiler->printTable(llvm::outs());
    // Written before the outputs: a trace that cannot be written fails the
    // command with no output file left behind.
    if (!profile.empty() && failed(writeTrace(*profiler, profile)))
      return 1;
  }

  if (llvm::Error error =
          writeOutputFiles(signature.outputs, *outputFiles, outputBuffers)) {
    printError(std::move(error), "graph-run");
    return 1;
  }
  return 0;
}

/// `--threads N` (or `--threads=N`, one dash or two), taken out of argv
/// before LLVM parses it: libLLVM registers an option named `threads` of
/// its own, which a second one would clash with. Returns the count, 0 when
/// not given, or -1 after printing an error.
static int takeThreadsFlag(int &argc, char **argv) {
  int count = 0;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    llvm::StringRef name = arg;
    if (!name.consume_front("--") && !name.consume_front("-")) {
      argv[out++] = argv[i];
      continue;
    }
    auto [key, value] = name.split('=');
    if (key != "threads") {
      argv[out++] = argv[i];
      continue;
    }
    if (!name.contains('=')) {
      if (i + 1 == argc) {
        error() << "--threads needs a count\n";
        return -1;
      }
      value = argv[++i];
    }
    if (value.getAsInteger(10, count) || count < 1) {
      error() << "--threads must be a count of at least 1, got '" << value
              << "'\n";
      return -1;
    }
  }
  argc = out;
  return count;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  int threads = takeThreadsFlag(argc, argv);
  if (threads < 0)
    return 1;
  setNumThreads(threads ? threads : getAvailableCores());
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
