//===- Report.h - What graph-run prints -------------------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph-run's printed reports: a model's outputs, the figures of `--bench`
// and `--compare` (Speedup, MemSave, break-even N), and where the compile
// cache took the model from.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_RUN_REPORT_H
#define GRAPH_RUN_REPORT_H

#include "Bench.h"

#include "graph/Runtime/Profiler.h"
#include "graph/Runtime/Session.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace graph_run {

/// Prints an output as `name: shape`, then its values, one innermost row per
/// line, floats with 9 significant digits (17 for f64: enough to tell any two
/// apart), integers and booleans (0, 1) as integers.
void printOutput(const TensorSpec &spec, const TensorBuffer &buffer);

/// `--bench`: compile time, latency, buffer bytes.
void printMeasurement(const Measurement &m, unsigned runs);

/// `--compare`: both levels' figures, Speedup, MemSave and break-even N.
void printComparison(const Measurement &base, const Measurement &opt,
                     const std::string &baseName, const std::string &optName,
                     unsigned runs);

/// For --timing, on stderr: where the model came from.
void printCacheReport(llvm::StringRef file, const LoadReport &report);

/// For --bench: the cold and warm compile times the cache knows.
void printCacheSummary(const LoadReport &report);

/// For --compare: the break-even N when both compilations are cache hits.
void printWarmBreakEven(const LoadReport &baseReport, const Measurement &base,
                        const LoadReport &report, const Measurement &opt,
                        llvm::StringRef baseName, llvm::StringRef optName);

/// Writes the profiler's Chrome trace to `path`, through a temporary file
/// renamed into place; false after printing an error.
bool writeProfileTrace(const Profiler &profiler, llvm::StringRef path);

/// A note on stderr when `model` is a library built for fewer threads than
/// the process runs (its fused tile loops have per-thread scratch for the
/// threads it was built for, and run on no more).
void noteLibraryThreads(const Executable &model, llvm::StringRef file);

/// `-O<level>`: the level given, or the one a shared library was compiled
/// at.
std::string getLevelName(const Executable &model, unsigned level);

} // namespace graph_run

#endif // GRAPH_RUN_REPORT_H
