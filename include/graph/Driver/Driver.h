//===- Driver.h - What the compiler's tools do, as functions ----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The work of graph-compile (a model to a shared library or object file and
// its C header), of graph-viz (the page stepping through the pipeline) and
// of `graph-opt --graph-optimize` / `graph-report` on a model file, as
// library functions: the tools are command lines over them, and the Python
// package (graph_compiler.compiler) calls the same code.
//
// Like the runtime (graph/Runtime/Errors.h), nothing here prints on its own
// or exits: diagnostics at a place in the model go to the `diagnostics`
// stream given, the error returned is then a runtime::ReportedError, and any
// other failure is returned as an error whose message says what is wrong.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_DRIVER_DRIVER_H
#define GRAPH_DRIVER_DRIVER_H

#include "graph/Compiler/CompiledModel.h"
#include "graph/Transforms/Report.h"

#include "mlir/Support/Timing.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace graph {
namespace driver {

/// A model to read: the file at `path` (`.onnx` imported, anything else
/// MLIR text or bytecode), or, when `text` is set, that MLIR text, named
/// `path` in diagnostics.
struct ModelInput {
  std::string path;
  std::optional<std::string> text;
};

/// A llvm::SourceMgr diagnostic handler that prints to the raw_ostream
/// `stream` points to, for the messages a source manager prints itself.
void printSourceDiagnostic(const llvm::SMDiagnostic &diagnostic, void *stream);

//===----------------------------------------------------------------------===//
// graph-compile
//===----------------------------------------------------------------------===//

struct AheadOfTimeOptions {
  /// The passes, target and entry, as for the JIT.
  compiler::CompileOptions compile;
  /// For an .onnx model: `NAME=AxBxC` each (or several joined by commas).
  /// An input named a second time starts another set of shapes: the
  /// library then holds one specialization per set (ModelABI.h), and the
  /// runtime runs the one for the shapes it is given.
  std::vector<std::string> inputShapes;
  /// Where to write the C header too; empty for none.
  std::string headerPath;
};

/// Compiles the model at `modelPath` and writes `outputPath`: a shared
/// library (`.so`, depending on nothing but libc and libm) or an object file
/// (`.o`), with the entry point of ModelABI.h; each file is written through
/// a temporary one renamed into place, and on failure none is left.
/// `timing` gets a timer per step.
llvm::Error compileModelToFile(llvm::StringRef modelPath,
                               llvm::StringRef outputPath,
                               const AheadOfTimeOptions &options,
                               TimingScope &timing,
                               llvm::raw_ostream &diagnostics = llvm::errs());

//===----------------------------------------------------------------------===//
// graph-optimize and graph-report on a model
//===----------------------------------------------------------------------===//

struct OptimizeOptions {
  /// graph-optimize's opt-level, 0 (nothing) to 3.
  int optLevel = 3;
  /// The target whose micro-kernels graph-pack-weights packs for; empty
  /// for the host's.
  std::string targetCpu;
  std::string targetFeatures;
  /// For an .onnx model: `NAME=AxBxC` each.
  std::vector<std::string> inputShapes;
};

/// The model after graph-optimize, printed as `graph-opt --graph-optimize`
/// prints it.
llvm::Expected<std::string>
optimizeModel(const ModelInput &input, const OptimizeOptions &options,
              llvm::raw_ostream &diagnostics = llvm::errs());

/// graph-report's figures of the model after graph-optimize (at opt-level
/// 0, of the model as it is).
llvm::Expected<GraphStatistics>
reportModel(const ModelInput &input, const OptimizeOptions &options,
            llvm::raw_ostream &diagnostics = llvm::errs());

//===----------------------------------------------------------------------===//
// graph-viz
//===----------------------------------------------------------------------===//

struct StepsPageOptions {
  /// graph-optimize's opt-level (3 when neither it nor `pipeline` is set).
  std::optional<unsigned> optLevel;
  /// A pass pipeline to show instead of graph-optimize, with or without
  /// `builtin.module(...)` around it; its passes must be registered.
  std::string pipeline;
  /// For an .onnx model: `NAME=AxBxC` each.
  std::vector<std::string> inputShapes;
  /// Graphviz processes at once (0: one per core).
  unsigned jobs = 0;
};

/// A step of the page: the graph before the first pass (`input`) or after
/// a pass, and its graph-report figures.
struct StepSummary {
  std::string title;
  GraphStatistics stats;
};

/// Runs the pipeline on the model at `modelPath` and writes the
/// self-contained page stepping through it to `outputPath` (`-` for
/// stdout); on failure an existing page is left as it was. Returns the
/// steps shown.
llvm::Expected<std::vector<StepSummary>>
writeStepsPage(llvm::StringRef modelPath, llvm::StringRef outputPath,
               const StepsPageOptions &options,
               llvm::raw_ostream &diagnostics = llvm::errs());

} // namespace driver
} // namespace graph
} // namespace mlir

#endif // GRAPH_DRIVER_DRIVER_H
