//===- graph-viz.cpp - Step through the graph optimizations in a page -----===//
//
// graph-viz FILE.mlir|FILE.onnx -o steps.html [-O0..-O3] [--pipeline P]
//           [--input-shape NAME=AxBxC]
//
// Runs graph-optimize (or the given pipeline) on the model and writes one
// self-contained HTML page that steps through the graph before the first
// pass and after each pass, laid out by Graphviz.
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/GraphDialect.h"
#include "graph/Target/ONNX/ImportONNX.h"
#include "graph/Transforms/Passes.h"
#include "graph/Viz/HtmlPage.h"
#include "graph/Viz/PipelineRecorder.h"
#include "graph/Viz/SourceNames.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
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

static llvm::raw_ostream &error() {
  return llvm::WithColor::error(llvm::errs(), "graph-viz");
}

/// Reads the model: an ONNX file through the importer, anything else as
/// MLIR with its ops named after their SSA values.
static mlir::OwningOpRef<mlir::ModuleOp> loadModel(mlir::MLIRContext &context,
                                                   llvm::SourceMgr &sourceMgr) {
  bool isONNX = llvm::StringRef(modelFile).ends_with_insensitive(".onnx");
  if (isONNX) {
    mlir::graph::ONNXImportOptions options;
    for (const std::string &spec : inputShapes) {
      std::string message;
      if (failed(mlir::graph::parseONNXInputShapes(spec, options, message))) {
        error() << message << "\n";
        return nullptr;
      }
    }
    mlir::graph::ONNXDiagnosticHandler diagnostics(&context);
    return mlir::graph::importONNXFile(modelFile, &context, options);
  }
  if (!inputShapes.empty()) {
    error() << "--input-shape applies to .onnx models only\n";
    return nullptr;
  }
  auto file = llvm::MemoryBuffer::getFileOrSTDIN(modelFile);
  if (!file) {
    error() << "cannot read '" << modelFile
            << "': " << file.getError().message() << "\n";
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  return mlir::graph::viz::parseSourceWithValueNames(sourceMgr, &context);
}

/// Fills `pm` with the pipeline to show; returns its text, or nothing after
/// reporting an error.
static std::optional<std::string> buildPipeline(mlir::PassManager &pm) {
  if (!pipeline.empty()) {
    if (optLevel.getNumOccurrences()) {
      error() << "give either --pipeline or -O, not both\n";
      return std::nullopt;
    }
    // The page's passes run on the module: accept the pass list with or
    // without the `builtin.module(...)` around it.
    llvm::StringRef text = llvm::StringRef(pipeline).trim();
    if (text.consume_front("builtin.module(") && !text.consume_back(")")) {
      error() << "unbalanced parentheses in --pipeline '" << pipeline << "'\n";
      return std::nullopt;
    }
    std::string message;
    llvm::raw_string_ostream os(message);
    if (failed(mlir::parsePassPipeline(text, pm, os))) {
      error() << "bad --pipeline '" << pipeline << "': " << message << "\n";
      return std::nullopt;
    }
    return pipeline.getValue();
  }
  if (optLevel > 3) {
    error() << "unknown opt-level -O" << optLevel
            << ": use -O0, -O1, -O2 or -O3\n";
    return std::nullopt;
  }
  mlir::graph::GraphOptimizeOptions options;
  options.optLevel = optLevel;
  (void)mlir::graph::buildGraphOptimizePipeline(pm, options);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "graph-optimize{opt-level=" << optLevel << "}";
  llvm::StringRef separator = ": ";
  for (mlir::Pass &pass : pm.getPasses()) {
    os << separator;
    pass.printAsTextualPipeline(os);
    separator = ", ";
  }
  return text;
}

static int runTool() {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  registry.insert<mlir::graph::GraphDialect>();
  mlir::MLIRContext context(registry);
  // The recorder looks at the whole module around each pass.
  context.disableMultithreading();
  context.printOpOnDiagnostic(false);

  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module = loadModel(context, sourceMgr);
  if (!module)
    return 1;
  bool hasFunction = false;
  module->walk([&](mlir::func::FuncOp) { hasFunction = true; });
  if (!hasFunction) {
    error() << "'" << modelFile << "' has no function to draw\n";
    return 1;
  }

  mlir::PassManager pm(&context);
  std::optional<std::string> pipelineText = buildPipeline(pm);
  if (!pipelineText)
    return 1;
  auto recorder = std::make_unique<mlir::graph::viz::PipelineRecorder>();
  mlir::graph::viz::PipelineRecorder &steps = *recorder;
  steps.recordInput(*module);
  pm.addInstrumentation(std::move(recorder));
  if (failed(pm.run(*module))) {
    error() << "the pipeline failed on '" << modelFile << "'\n";
    return 1;
  }

  mlir::graph::viz::PageInfo info;
  info.model = modelFile;
  info.pipeline = *pipelineText;
  if (llvm::Error err = mlir::graph::viz::writeHtmlPage(steps.getSteps(), info,
                                                        outputFile, jobs)) {
    error() << "cannot write '" << outputFile
            << "': " << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  if (outputFile != "-") {
    llvm::outs() << "graph-viz: wrote " << outputFile << ":";
    for (const mlir::graph::viz::Step &step : steps.getSteps())
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
