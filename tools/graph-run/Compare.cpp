//===- Compare.cpp - Compare a level against -O0 --------------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Compare.h"

#include "Report.h"

#include "graph/Runtime/Errors.h"

#include "llvm/Support/WithColor.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace graph_run;

/// The multi-index of element `flat` in C order.
static llvm::SmallVector<int64_t> unflatten(int64_t flat,
                                            llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t> index(shape.size());
  for (int64_t i = int64_t(shape.size()) - 1; i >= 0; --i) {
    index[i] = flat % shape[i];
    flat /= shape[i];
  }
  return index;
}

Agreement graph_run::compareOutputs(llvm::ArrayRef<TensorSpec> specs,
                                    llvm::ArrayRef<TensorBuffer> base,
                                    llvm::ArrayRef<TensorBuffer> opt,
                                    llvm::StringRef baseName,
                                    llvm::StringRef optName) {
  Agreement result;
  for (auto [spec, a, b] : llvm::zip_equal(specs, base, opt)) {
    for (int64_t i = 0; i < spec.numElements; ++i) {
      double x = a.getAsDouble(i), y = b.getAsDouble(i);
      bool close;
      if (std::isnan(x) || std::isnan(y)) {
        close = std::isnan(x) && std::isnan(y);
      } else if (std::isinf(x) || std::isinf(y)) {
        close = x == y;
      } else {
        double diff = std::fabs(x - y);
        result.maxAbsDiff = std::max(result.maxAbsDiff, diff);
        // Relative to values above the absolute tolerance only: next to
        // zero the ratio says nothing.
        if (std::fabs(x) > kCompareAtol)
          result.maxRelDiff = std::max(result.maxRelDiff, diff / std::fabs(x));
        close = diff <= kCompareAtol + kCompareRtol * std::fabs(x);
      }
      if (close || !result.agree)
        continue;
      result.agree = false;
      llvm::raw_string_ostream os(result.mismatch);
      os << "output '" << spec.name << "' at index "
         << formatShape(unflatten(i, spec.shape)) << ": " << baseName
         << " gives " << llvm::format("%.9g", x) << ", " << optName << " gives "
         << llvm::format("%.9g", y);
    }
  }
  return result;
}

std::optional<uint64_t> graph_run::breakEvenRuns(double tcBase, double lBase,
                                                 double tcOpt, double lOpt) {
  double compileExtra = tcOpt - tcBase;
  double gainPerRun = lBase - lOpt;
  if (gainPerRun <= 0) {
    // Equal latencies: the cheaper compile wins from the first run, forever.
    if (gainPerRun == 0 && compileExtra < 0)
      return 1;
    return std::nullopt;
  }
  if (compileExtra < 0)
    return 1;
  // The smallest N with N * gainPerRun > compileExtra.
  double n = std::floor(compileExtra / gainPerRun) + 1;
  if (!(n < 1e18))
    return std::nullopt;
  return std::max<uint64_t>(1, uint64_t(n));
}

static llvm::raw_ostream &error() {
  return llvm::WithColor::error(llvm::errs(), "graph-run");
}

/// Whether both take and return tensors of the same types and shapes.
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

bool graph_run::compareWithBaseline(const Comparison &c) {
  const ModelSignature &signature = c.model.getSignature();
  const std::string &levelName = c.levelName;
  LoadReport baseReport;
  llvm::Expected<std::unique_ptr<Executable>> baseModel = [&] {
    mlir::TimingScope baseTimer = c.timing.nest(c.baseFile + " (baseline)");
    return loadModel(c.context, c.baseFile, c.baseOptions, baseTimer,
                     baseReport);
  }();
  if (!baseModel) {
    printError(baseModel.takeError(), "graph-run");
    return false;
  }
  if (c.reportLoads)
    printCacheReport(c.baseFile + " (baseline)", baseReport);
  if (!sameSignature((*baseModel)->getSignature(), signature)) {
    error() << "the baseline '" << c.baseFile
            << "' does not take and return the same tensors as '" << c.modelFile
            << "'\n";
    return false;
  }
  std::vector<TensorBuffer> baseBuffers;
  llvm::SmallVector<TensorBuffer *> basePtrs;
  if (!allocateOutputBuffers(**baseModel, baseBuffers, basePtrs))
    return false;
  unsigned runs = c.runs;
  Measurement baseMeasurement = measure(**baseModel, c.inputs, basePtrs, runs);
  Measurement optMeasurement = measure(c.model, c.inputs, c.outputPtrs, runs);
  std::string baseName = getLevelName(**baseModel, 0);
  if (baseName == levelName)
    baseName = "base";
  warnAboutProblems(baseMeasurement, signature, baseName);
  warnAboutProblems(optMeasurement, signature, levelName);

  // Outputs of run-time size: their true elements (the extents are outputs
  // too, compared as such).
  Agreement agreement =
      compareOutputs(c.model.getOutputSpecs(c.outputs), baseBuffers, c.outputs,
                     baseName, levelName);
  if (!agreement.agree) {
    error() << "outputs differ between " << baseName << " and " << levelName
            << ": " << agreement.mismatch << " (rtol " << kCompareRtol
            << ", atol " << kCompareAtol << ")\n";
    return false;
  }
  llvm::outs() << llvm::format(
      "outputs agree: max abs diff %.3g, max rel diff %.3g (rtol %g, atol "
      "%g)\n",
      agreement.maxAbsDiff, agreement.maxRelDiff, kCompareRtol, kCompareAtol);
  // The break-even N of the table: from the cold compile times (what a
  // cache hit saved, when there was one), then from the warm ones.
  if (baseReport.coldMillis)
    baseMeasurement.compileMillis = *baseReport.coldMillis;
  if (c.report.coldMillis)
    optMeasurement.compileMillis = *c.report.coldMillis;
  printComparison(baseMeasurement, optMeasurement, baseName, levelName, runs);
  printWarmBreakEven(baseReport, baseMeasurement, c.report, optMeasurement,
                     baseName, levelName);
  return true;
}
