//===- Bench.h - Time a compiled model and count its buffers ----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The figures of `--bench` and `--compare`: latency over N timed runs after a
// warm-up run, and the bytes of the buffers the compiled code allocates, with
// a check that it frees every one of them by the end of each run.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_RUN_BENCH_H
#define GRAPH_RUN_BENCH_H

#include "graph/Compiler/CompiledModel.h"

#include <cstdint>
#include <vector>

namespace graph_run {

using namespace mlir::graph::runtime;
using namespace mlir::graph::compiler;

struct Measurement {
  double compileMillis = 0;
  /// Latency of each timed run, in milliseconds.
  std::vector<double> latencies;
  double minMillis = 0;
  double medianMillis = 0;
  /// The highest number of buffer bytes in use at once during any run: the
  /// model's arena and the most bytes a run allocated on top of it.
  uint64_t peakBytes = 0;
  uint64_t arenaBytes = 0;
  /// The most bytes (and buffers) still allocated at the end of a run: not
  /// zero means the compiled code does not free every buffer.
  uint64_t leakedBytes = 0;
  uint64_t leakedBuffers = 0;
  /// The inputs that the compiled code wrote to, which it must not do.
  llvm::SmallVector<unsigned> modifiedInputs;
};

/// Runs `model` once to warm up, then `runs` timed times (none when `runs`
/// is 0), each on a fresh copy of `inputs` (so that code that wrongly writes
/// to its inputs still sees the same ones every time); `outputs` hold the
/// last run's results. `profiler`, when given, profiles the timed runs.
Measurement measure(Executable &model,
                    llvm::ArrayRef<const TensorBuffer *> inputs,
                    llvm::ArrayRef<TensorBuffer *> outputs, unsigned runs,
                    Profiler *profiler = nullptr);

/// The output buffers of `model` in `buffers`, and pointers to them in
/// `pointers`; false after printing an error.
bool allocateOutputBuffers(Executable &model,
                           std::vector<TensorBuffer> &buffers,
                           llvm::SmallVectorImpl<TensorBuffer *> &pointers);

/// Prints a warning to stderr when some run left buffers allocated or wrote
/// to an input. `what` names the compilation (e.g. "-O3").
void warnAboutProblems(const Measurement &measurement,
                       const ModelSignature &signature, llvm::StringRef what);

} // namespace graph_run

#endif // GRAPH_RUN_BENCH_H
