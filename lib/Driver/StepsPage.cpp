//===- StepsPage.cpp - The page stepping through the pipeline -------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph-viz's work: the model read (ONNX through the importer, MLIR with
// its ops named after their SSA values), the pipeline run with a recorder
// that snapshots the graph before the first pass and after each one, and
// the page written from the snapshots.
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/GraphDialect.h"
#include "graph/Driver/Driver.h"
#include "graph/Runtime/Errors.h"
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
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::runtime;
using namespace mlir::graph::compiler;

/// Reads the model: an ONNX file through the importer, anything else as
/// MLIR with its ops named after their SSA values.
static llvm::Expected<OwningOpRef<ModuleOp>>
loadModel(MLIRContext &context, llvm::SourceMgr &sourceMgr,
          llvm::StringRef modelPath, llvm::ArrayRef<std::string> inputShapes,
          llvm::raw_ostream &diagnostics) {
  if (modelPath.ends_with_insensitive(".onnx")) {
    ONNXImportOptions options;
    for (const std::string &spec : inputShapes) {
      std::string message;
      if (failed(parseONNXInputShapes(spec, options, message)))
        return makeError(message);
    }
    ONNXDiagnosticHandler onnxDiagnostics(&context, diagnostics);
    OwningOpRef<ModuleOp> module = importONNXFile(modelPath, &context, options);
    if (!module)
      return makeReportedError();
    return std::move(module);
  }
  if (!inputShapes.empty())
    return makeError("--input-shape applies to .onnx models only");
  auto file = llvm::MemoryBuffer::getFileOrSTDIN(modelPath);
  if (!file)
    return makeError("cannot read '" + modelPath +
                     "': " + file.getError().message());
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      viz::parseSourceWithValueNames(sourceMgr, &context);
  if (!module)
    return makeReportedError();
  return std::move(module);
}

/// Fills `pm` with the pipeline to show; returns its text.
static llvm::Expected<std::string>
buildPipeline(PassManager &pm, const driver::StepsPageOptions &options) {
  if (!options.pipeline.empty()) {
    if (options.optLevel)
      return makeError("give either --pipeline or -O, not both");
    // The page's passes run on the module: accept the pass list with or
    // without the `builtin.module(...)` around it.
    llvm::StringRef text = llvm::StringRef(options.pipeline).trim();
    if (text.consume_front("builtin.module(") && !text.consume_back(")"))
      return makeError("unbalanced parentheses in --pipeline '" +
                       options.pipeline + "'");
    std::string message;
    llvm::raw_string_ostream os(message);
    if (failed(parsePassPipeline(text, pm, os)))
      return makeError("bad --pipeline '" + options.pipeline + "': " + message);
    return options.pipeline;
  }
  unsigned optLevel = options.optLevel.value_or(3);
  if (optLevel > 3)
    return makeError("unknown opt-level -O" + llvm::Twine(optLevel) +
                     ": use -O0, -O1, -O2 or -O3");
  GraphOptimizeOptions pipelineOptions;
  pipelineOptions.optLevel = optLevel;
  (void)buildGraphOptimizePipeline(pm, pipelineOptions);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "graph-optimize{opt-level=" << optLevel << "}";
  llvm::StringRef separator = ": ";
  for (Pass &pass : pm.getPasses()) {
    os << separator;
    pass.printAsTextualPipeline(os);
    separator = ", ";
  }
  return text;
}

llvm::Expected<std::vector<driver::StepSummary>>
mlir::graph::driver::writeStepsPage(llvm::StringRef modelPath,
                                    llvm::StringRef outputPath,
                                    const StepsPageOptions &options,
                                    llvm::raw_ostream &diagnostics) {
  DialectRegistry registry;
  registerAllDialects(registry);
  registry.insert<GraphDialect>();
  MLIRContext context(registry);
  // The recorder looks at the whole module around each pass.
  context.disableMultithreading();
  context.printOpOnDiagnostic(false);

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler sourceDiagnostics(sourceMgr, &context,
                                               diagnostics);
  llvm::Expected<OwningOpRef<ModuleOp>> loaded = loadModel(
      context, sourceMgr, modelPath, options.inputShapes, diagnostics);
  if (!loaded)
    return loaded.takeError();
  OwningOpRef<ModuleOp> module = std::move(*loaded);
  bool hasFunction = false;
  module->walk([&](func::FuncOp) { hasFunction = true; });
  if (!hasFunction)
    return makeError("'" + modelPath + "' has no function to draw");

  PassManager pm(&context);
  llvm::Expected<std::string> pipelineText = buildPipeline(pm, options);
  if (!pipelineText)
    return pipelineText.takeError();
  auto recorder = std::make_unique<viz::PipelineRecorder>();
  viz::PipelineRecorder &steps = *recorder;
  steps.recordInput(*module);
  pm.addInstrumentation(std::move(recorder));
  if (failed(pm.run(*module)))
    return makeError("the pipeline failed on '" + modelPath + "'");

  viz::PageInfo info;
  info.model = modelPath.str();
  info.pipeline = *pipelineText;
  if (llvm::Error err =
          viz::writeHtmlPage(steps.getSteps(), info, outputPath, options.jobs))
    return makeError("cannot write '" + outputPath +
                     "': " + llvm::toString(std::move(err)));
  std::vector<StepSummary> summaries;
  for (const viz::Step &step : steps.getSteps())
    summaries.push_back({step.title, step.stats});
  return summaries;
}
