//===- Optimize.cpp - graph-optimize and graph-report on a model ----------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What `graph-opt --graph-optimize` and `--graph-report` do, for a model
// file (.mlir, or .onnx through the importer) or MLIR text: the module is
// read, graph-optimize runs at the opt-level asked for, and the result is
// printed as graph-opt prints it or counted as graph-report counts it.
//
//===----------------------------------------------------------------------===//

#include "graph/Driver/Driver.h"
#include "graph/Runtime/Errors.h"
#include "graph/Support/NestingDepth.h"
#include "graph/Target/ONNX/ImportONNX.h"
#include "graph/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::runtime;
using namespace mlir::graph::compiler;

namespace {
/// A model read into a context of its own, with its diagnostics going to a
/// stream. Keeps the source buffer alive for the diagnostics' locations.
struct LoadedModel {
  explicit LoadedModel(llvm::raw_ostream &diagnostics)
      : context(createRegistry()), diagnostics(diagnostics) {
    context.printOpOnDiagnostic(false);
    // What the source manager reports itself (input nested too deeply)
    // goes to the same stream.
    sourceMgr.setDiagHandler(driver::printSourceDiagnostic, &diagnostics);
  }

  static DialectRegistry createRegistry() {
    DialectRegistry registry;
    registerCompilerDialects(registry);
    return registry;
  }

  /// Reads `input`; an error that names the problem, or a ReportedError.
  llvm::Error load(const driver::ModelInput &input,
                   llvm::ArrayRef<std::string> inputShapes) {
    if (input.text) {
      if (!inputShapes.empty())
        return makeError("--input-shape applies to .onnx models only");
      unsigned id = sourceMgr.AddNewSourceBuffer(
          llvm::MemoryBuffer::getMemBufferCopy(*input.text, input.path),
          llvm::SMLoc());
      if (failed(checkNestingDepth(sourceMgr, *sourceMgr.getMemoryBuffer(id))))
        return makeReportedError();
    } else if (llvm::Error error = loadModelFile(input.path, inputShapes,
                                                 sourceMgr, diagnostics)) {
      return error;
    }
    sourceDiagnostics.emplace(sourceMgr, &context, diagnostics);
    if (!input.text &&
        llvm::StringRef(input.path).ends_with_insensitive(".onnx"))
      onnxDiagnostics.emplace(&context, diagnostics);
    // Noted after the handlers that print: a failure that printed nothing
    // still gets a message.
    context.getDiagEngine().registerHandler([this](Diagnostic &diagnostic) {
      if (diagnostic.getSeverity() == DiagnosticSeverity::Error)
        sawError = true;
      return failure();
    });
    module = parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
    if (!module)
      return makeReportedError();
    return llvm::Error::success();
  }

  /// Runs graph-optimize as `options` asks.
  llvm::Error optimize(const driver::OptimizeOptions &options,
                       llvm::StringRef name) {
    if (options.optLevel < 0 || options.optLevel > 3)
      return makeError("unknown opt-level -O" + llvm::Twine(options.optLevel) +
                       ": use -O0, -O1, -O2 or -O3");
    GraphOptimizeOptions pipelineOptions;
    pipelineOptions.optLevel = options.optLevel;
    pipelineOptions.targetCpu = options.targetCpu;
    pipelineOptions.targetFeatures = options.targetFeatures;
    PassManager pm(&context);
    (void)buildGraphOptimizePipeline(pm, pipelineOptions);
    if (succeeded(pm.run(*module)))
      return llvm::Error::success();
    if (sawError)
      return makeReportedError();
    return makeError("graph-optimize failed on '" + name + "'");
  }

  MLIRContext context;
  llvm::raw_ostream &diagnostics;
  llvm::SourceMgr sourceMgr;
  std::optional<SourceMgrDiagnosticHandler> sourceDiagnostics;
  std::optional<ONNXDiagnosticHandler> onnxDiagnostics;
  bool sawError = false;
  OwningOpRef<ModuleOp> module;
};
} // namespace

llvm::Expected<std::string>
mlir::graph::driver::optimizeModel(const ModelInput &input,
                                   const OptimizeOptions &options,
                                   llvm::raw_ostream &diagnostics) {
  LoadedModel model(diagnostics);
  if (llvm::Error error = model.load(input, options.inputShapes))
    return std::move(error);
  if (llvm::Error error = model.optimize(options, input.path))
    return std::move(error);
  std::string text;
  llvm::raw_string_ostream os(text);
  model.module->print(os);
  os << "\n";
  return text;
}

llvm::Expected<GraphStatistics>
mlir::graph::driver::reportModel(const ModelInput &input,
                                 const OptimizeOptions &options,
                                 llvm::raw_ostream &diagnostics) {
  LoadedModel model(diagnostics);
  if (llvm::Error error = model.load(input, options.inputShapes))
    return std::move(error);
  if (llvm::Error error = model.optimize(options, input.path))
    return std::move(error);
  return collectGraphStatistics(*model.module);
}
