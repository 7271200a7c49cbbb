//===- Report.cpp - What graph-run prints ---------------------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Report.h"

#include "Compare.h"

#include "graph/Runtime/SharedLibraryModel.h"
#include "graph/Runtime/Threads.h"

#include "llvm/Support/WithColor.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace graph_run;

void graph_run::printOutput(const TensorSpec &spec,
                            const TensorBuffer &buffer) {
  llvm::outs() << spec.name << ": " << formatShape(spec.shape) << "\n";
  int64_t rowLength = spec.shape.empty() ? 1 : spec.shape.back();
  if (rowLength == 0)
    return;
  bool isInteger = spec.elementType != ElementType::F16 &&
                   spec.elementType != ElementType::BF16 &&
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

void graph_run::printMeasurement(const Measurement &m, unsigned runs) {
  llvm::outs() << llvm::format("compile time: %.3f ms\n", m.compileMillis);
  llvm::outs() << llvm::format(
      "latency: min %.6f ms, median %.6f ms (%u runs)\n", m.minMillis,
      m.medianMillis, runs);
  llvm::outs() << "peak buffer bytes: " << m.peakBytes << "\n";
  llvm::outs() << "arena bytes: " << m.arenaBytes
               << " (allocated once; the rest by each run)\n";
  llvm::outs() << "live buffer bytes after each run: " << m.leakedBytes << "\n";
}

void graph_run::printComparison(const Measurement &base, const Measurement &opt,
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

void graph_run::printCacheReport(llvm::StringRef file,
                                 const LoadReport &report) {
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

void graph_run::printCacheSummary(const LoadReport &report) {
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

void graph_run::printWarmBreakEven(const LoadReport &baseReport,
                                   const Measurement &base,
                                   const LoadReport &report,
                                   const Measurement &opt,
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

std::string graph_run::getLevelName(const Executable &model, unsigned level) {
  if (auto *library = dynamic_cast<const SharedLibraryModel *>(&model))
    level = library->getMetadata().optLevel;
  return "-O" + std::to_string(level);
}

bool graph_run::writeProfileTrace(const Profiler &profiler,
                                  llvm::StringRef path) {
  llvm::Error written =
      llvm::writeToOutput(path, [&](llvm::raw_ostream &os) -> llvm::Error {
        profiler.writeChromeTrace(os);
        return llvm::Error::success();
      });
  if (!written)
    return true;
  llvm::WithColor::error(llvm::errs(), "graph-run")
      << "cannot write the profile to '" << path
      << "': " << llvm::toString(std::move(written)) << "\n";
  return false;
}

void graph_run::noteLibraryThreads(const Executable &model,
                                   llvm::StringRef file) {
  auto *library = dynamic_cast<const SharedLibraryModel *>(&model);
  if (!library)
    return;
  unsigned maxThreads = library->getMetadata().maxThreads;
  if (maxThreads > 0 && unsigned(getNumThreads()) > maxThreads)
    llvm::errs() << "graph-run: note: " << file << " was built for at most "
                 << maxThreads
                 << " threads (graph-compile --max-threads): its parallel "
                    "tile loops run on "
                 << maxThreads << "\n";
}
