//===- Compare.h - Compare a level against -O0 ------------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What `--compare` derives from two compilations of one model: whether their
// outputs agree, and the break-even number of runs.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_RUN_COMPARE_H
#define GRAPH_RUN_COMPARE_H

#include "graph/Compiler/CompiledModel.h"
#include "graph/Compiler/ModelLoader.h"

#include "mlir/Support/Timing.h"

#include <optional>
#include <string>

namespace graph_run {

using namespace mlir::graph::runtime;
using namespace mlir::graph::compiler;

/// Relative and absolute tolerance of the agreement check: folding
/// batch_norm into conv weights reassociates the arithmetic.
constexpr double kCompareRtol = 1e-4;
constexpr double kCompareAtol = 1e-5;

struct Agreement {
  bool agree = true;
  /// Over finite element pairs; the relative difference is taken against
  /// the base value, where it exceeds the absolute tolerance.
  double maxAbsDiff = 0;
  double maxRelDiff = 0;
  /// When they disagree: the first element that does, described.
  std::string mismatch;
};

/// Checks |opt - base| <= atol + rtol * |base| element by element (NaN
/// matches NaN, an infinity only itself).
Agreement compareOutputs(llvm::ArrayRef<TensorSpec> specs,
                         llvm::ArrayRef<TensorBuffer> base,
                         llvm::ArrayRef<TensorBuffer> opt,
                         llvm::StringRef baseName, llvm::StringRef optName);

/// The smallest N >= 1 from which tcOpt + n * lOpt < tcBase + n * lBase for
/// every n >= N, or nothing when there is none (lOpt > lBase, or equal
/// latencies and no cheaper compile).
std::optional<uint64_t> breakEvenRuns(double tcBase, double lBase, double tcOpt,
                                      double lOpt);

/// `--compare`: a model against its baseline, on the same inputs.
struct Comparison {
  mlir::MLIRContext &context;
  /// The baseline (the model's own file, or --compare-to's) and its load
  /// options (-O0).
  std::string baseFile;
  LoadOptions baseOptions;
  mlir::TimingScope &timing;
  /// Whether to say where each model came from (--timing).
  bool reportLoads;
  /// The model, loaded, with its outputs.
  std::string modelFile;
  Executable &model;
  const LoadReport &report;
  std::string levelName;
  llvm::ArrayRef<const TensorBuffer *> inputs;
  llvm::ArrayRef<TensorBuffer> outputs;
  llvm::ArrayRef<TensorBuffer *> outputPtrs;
  unsigned runs;
};

/// Loads the baseline, times both models `runs` times, checks that their
/// outputs agree (within kCompareRtol, kCompareAtol) and prints the
/// comparison (Report.h). Returns false after printing an error.
bool compareWithBaseline(const Comparison &comparison);

} // namespace graph_run

#endif // GRAPH_RUN_COMPARE_H
