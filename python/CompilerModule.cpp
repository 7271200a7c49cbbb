//===- CompilerModule.cpp - The compiler side of graph_compiler -----------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph_compiler._graph._compiler: what graph-compile, graph-viz and
// `graph-opt --graph-optimize` / graph-report do, through the library
// functions the tools call (graph/Driver/Driver.h). The Python side
// (graph_compiler/compiler.py) checks the arguments and documents them.
// A submodule of the runtime's extension, not an extension of its own: two
// extensions would each hold a copy of the dialect and the compiler, and
// the one loaded first would interpose its definitions on the other's
// calls (an op made in one copy's context printed by the other's code).
//
// Diagnostics are collected rather than printed: a failure raises
// graph_compiler.Error (the runtime extension's) with the text the tool
// would have printed. The GIL is released while the compiler works.
//
//===----------------------------------------------------------------------===//

#include "CompilerModule.h"

#include "graph/Driver/Driver.h"
#include "graph/Runtime/Errors.h"
#include "graph/Transforms/Passes.h"

#include "mlir/InitAllPasses.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/TargetSelect.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;
namespace driver = mlir::graph::driver;

namespace {

/// graph_compiler.Error.
py::object errorType;

/// The targets and pass registrations the compiler needs, made on the first
/// call rather than when the runtime is imported.
void initializeCompiler() {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // visualize(pipeline=...) parses pass names, as graph-viz does.
    mlir::registerAllPasses();
    mlir::graph::registerAllGraphPasses();
    return true;
  }();
  (void)initialized;
}

[[noreturn]] void raise(const std::string &message) {
  PyErr_SetString(errorType.ptr(), message.c_str());
  throw py::error_already_set();
}

/// Raises `error` with the diagnostics printed on the way: those alone when
/// they are the error (a ReportedError), else before the error's message.
[[noreturn]] void raise(llvm::Error error, llvm::StringRef diagnostics) {
  std::string message = llvm::StringRef(diagnostics).rtrim().str();
  llvm::handleAllErrors(
      std::move(error),
      [&](const mlir::graph::runtime::ReportedError &) {
        if (message.empty())
          message = "the compiler failed without a diagnostic";
      },
      [&](const llvm::ErrorInfoBase &info) {
        message += (message.empty() ? "" : "\n") + info.message();
      });
  raise(llvm::StringRef(message).rtrim().str());
}

driver::ModelInput getInput(const std::optional<std::string> &path,
                            const std::optional<std::string> &text) {
  driver::ModelInput input;
  if (text) {
    input.path = path.value_or("<text>");
    input.text = *text;
  } else {
    input.path = path.value_or("");
  }
  return input;
}

void compile(const std::string &model, const std::string &output,
             const std::optional<std::string> &header, int optLevel,
             const std::string &targetCpu, const std::string &targetFeatures,
             const std::vector<std::string> &inputShapes,
             const std::string &entry, int maxThreads) {
  initializeCompiler();
  driver::AheadOfTimeOptions options;
  options.compile.entry = entry;
  options.compile.optLevel = optLevel;
  options.compile.targetCpu = targetCpu;
  options.compile.targetFeatures = targetFeatures;
  options.compile.maxThreads = maxThreads;
  options.inputShapes = inputShapes;
  options.headerPath = header.value_or("");
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  llvm::Error error = [&] {
    py::gil_scoped_release release;
    mlir::TimingScope noTiming;
    return driver::compileModelToFile(model, output, options, noTiming, os);
  }();
  if (error)
    raise(std::move(error), diagnostics);
}

driver::OptimizeOptions getOptimizeOptions(int optLevel,
                                           const std::string &targetCpu,
                                           const std::string &targetFeatures,
                                           std::vector<std::string> shapes) {
  driver::OptimizeOptions options;
  options.optLevel = optLevel;
  options.targetCpu = targetCpu;
  options.targetFeatures = targetFeatures;
  options.inputShapes = std::move(shapes);
  return options;
}

std::string optimize(const std::optional<std::string> &path,
                     const std::optional<std::string> &text, int optLevel,
                     const std::string &targetCpu,
                     const std::string &targetFeatures,
                     const std::vector<std::string> &inputShapes) {
  initializeCompiler();
  driver::OptimizeOptions options =
      getOptimizeOptions(optLevel, targetCpu, targetFeatures, inputShapes);
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  llvm::Expected<std::string> result = [&] {
    py::gil_scoped_release release;
    return driver::optimizeModel(getInput(path, text), options, os);
  }();
  if (!result)
    raise(result.takeError(), diagnostics);
  return std::move(*result);
}

/// graph-report's JSON.
std::string report(const std::optional<std::string> &path,
                   const std::optional<std::string> &text, int optLevel,
                   const std::string &targetCpu,
                   const std::string &targetFeatures,
                   const std::vector<std::string> &inputShapes) {
  initializeCompiler();
  driver::OptimizeOptions options =
      getOptimizeOptions(optLevel, targetCpu, targetFeatures, inputShapes);
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  llvm::Expected<mlir::graph::GraphStatistics> result = [&] {
    py::gil_scoped_release release;
    return driver::reportModel(getInput(path, text), options, os);
  }();
  if (!result)
    raise(result.takeError(), diagnostics);
  std::string json;
  llvm::raw_string_ostream jsonStream(json);
  mlir::graph::printGraphStatisticsJson(*result, jsonStream);
  return json;
}

/// The steps shown, as (title, number of ops, graph-report's JSON).
py::list visualize(const std::string &model, const std::string &output,
                   std::optional<unsigned> optLevel,
                   const std::string &pipeline,
                   const std::vector<std::string> &inputShapes, unsigned jobs) {
  initializeCompiler();
  driver::StepsPageOptions options;
  options.optLevel = optLevel;
  options.pipeline = pipeline;
  options.inputShapes = inputShapes;
  options.jobs = jobs;
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  llvm::Expected<std::vector<driver::StepSummary>> result = [&] {
    py::gil_scoped_release release;
    return driver::writeStepsPage(model, output, options, os);
  }();
  if (!result)
    raise(result.takeError(), diagnostics);
  py::list steps;
  for (const driver::StepSummary &step : *result) {
    std::string json;
    llvm::raw_string_ostream jsonStream(json);
    mlir::graph::printGraphStatisticsJson(step.stats, jsonStream);
    steps.append(py::make_tuple(step.title, step.stats.getNumOps(), json));
  }
  return steps;
}

} // namespace

void graph_python::defineCompilerModule(py::module_ &m, py::object error) {
  m.doc() = "The graph compiler's tools as functions: compile a model ahead "
            "of time, optimize it, report on it, draw its pipeline";
  errorType = std::move(error);
  m.def("compile", &compile, py::arg("model"), py::arg("output"),
        py::arg("header"), py::arg("opt_level"), py::arg("target_cpu"),
        py::arg("target_features"), py::arg("input_shapes"), py::arg("entry"),
        py::arg("max_threads"),
        "graph-compile: the model to a shared library (.so) or object (.o)");
  m.def("optimize", &optimize, py::arg("path"), py::arg("text"),
        py::arg("opt_level"), py::arg("target_cpu"), py::arg("target_features"),
        py::arg("input_shapes"),
        "The model after graph-optimize, as MLIR text");
  m.def("report", &report, py::arg("path"), py::arg("text"),
        py::arg("opt_level"), py::arg("target_cpu"), py::arg("target_features"),
        py::arg("input_shapes"),
        "graph-report's JSON of the model after graph-optimize");
  m.def("visualize", &visualize, py::arg("model"), py::arg("output"),
        py::arg("opt_level"), py::arg("pipeline"), py::arg("input_shapes"),
        py::arg("jobs"),
        "graph-viz: the page stepping through the pipeline; returns the "
        "steps as (title, ops, report JSON)");
}
