//===- Profiler.cpp - Time each kernel of a compiled model ----------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Runtime/Profiler.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <atomic>
#include <chrono>

using namespace mlir::graph::runtime;

/// The profiler between beginRun and endRun.
static std::atomic<Profiler *> activeProfiler{nullptr};

static uint64_t nowNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void graph_profile_enter(int64_t id) {
  if (Profiler *profiler = activeProfiler.load(std::memory_order_relaxed))
    profiler->enter(id);
}

void graph_profile_exit(int64_t id) {
  if (Profiler *profiler = activeProfiler.load(std::memory_order_relaxed))
    profiler->exit(id);
}

llvm::ArrayRef<llvm::StringRef> mlir::graph::runtime::getProfilerSymbolNames() {
  static const llvm::StringRef names[] = {"graph_profile_enter",
                                          "graph_profile_exit"};
  return names;
}

Profiler::Profiler(std::vector<ProfiledKernel> kernels)
    : kernels(std::move(kernels)), openedAt(this->kernels.size(), 0) {}

Profiler::~Profiler() {
  Profiler *self = this;
  activeProfiler.compare_exchange_strong(self, nullptr);
}

void Profiler::beginRun() {
  runs.push_back({nowNanos(), 0});
  activeProfiler.store(this);
}

void Profiler::endRun() {
  activeProfiler.store(nullptr);
  runs.back().end = nowNanos();
}

void Profiler::enter(int64_t id) {
  if (id < 0 || uint64_t(id) >= kernels.size()) {
    ++strayCalls;
    return;
  }
  openedAt[id] = nowNanos();
}

void Profiler::exit(int64_t id) {
  uint64_t end = nowNanos();
  if (id < 0 || uint64_t(id) >= kernels.size() || !openedAt[id]) {
    ++strayCalls;
    return;
  }
  events.push_back({id, openedAt[id], end});
  openedAt[id] = 0;
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

/// A name cut to `width` characters: a fused group's first name and how
/// many follow (`/layer1/conv/Conv +2`), its end replaced by `...` if need
/// be. The trace has the whole name.
static std::string fit(llvm::StringRef name, size_t width) {
  if (name.size() <= width)
    return name.str();
  std::string shown = name.str();
  if (size_t more = name.count('+')) {
    shown = name.split('+').first.str() + " +" + std::to_string(more);
    if (shown.size() <= width)
      return shown;
  }
  return llvm::StringRef(shown).take_front(width - 3).str() + "...";
}

void Profiler::printTable(llvm::raw_ostream &os) const {
  struct Row {
    size_t id;
    uint64_t calls = 0;
    uint64_t nanos = 0;
  };
  std::vector<Row> rows(kernels.size());
  for (size_t i = 0; i < rows.size(); ++i)
    rows[i].id = i;
  for (const Event &event : events) {
    ++rows[event.id].calls;
    rows[event.id].nanos += event.end - event.start;
  }
  uint64_t runNanos = 0, kernelNanos = 0;
  for (const Run &run : runs)
    runNanos += run.end - run.start;
  for (const Row &row : rows)
    kernelNanos += row.nanos;
  // The most time first; ties (kernels never called) in program order.
  std::stable_sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
    return a.nanos > b.nanos;
  });

  size_t nameWidth = 6, kindWidth = 4;
  for (const ProfiledKernel &kernel : kernels) {
    nameWidth = std::max(nameWidth, std::min<size_t>(kernel.name.size(), 40));
    kindWidth = std::max(kindWidth, std::min<size_t>(kernel.kind.size(), 32));
  }
  os << llvm::format("%-*s  %-*s %6s %11s %11s %6s %9s %11s %8s\n",
                     int(nameWidth), "kernel", int(kindWidth), "kind", "calls",
                     "total ms", "mean ms", "share", "GFLOP/s", "bytes",
                     "GB/s");
  for (const Row &row : rows) {
    const ProfiledKernel &kernel = kernels[row.id];
    double seconds = double(row.nanos) * 1e-9;
    double totalMillis = double(row.nanos) * 1e-6;
    double meanMillis = row.calls ? totalMillis / double(row.calls) : 0;
    double share = runNanos ? 100.0 * double(row.nanos) / double(runNanos) : 0;
    os << llvm::format("%-*s  %-*s %6llu %11.4f %11.5f %5.1f%% ",
                       int(nameWidth), fit(kernel.name, nameWidth).c_str(),
                       int(kindWidth), fit(kernel.kind, kindWidth).c_str(),
                       (unsigned long long)row.calls, totalMillis, meanMillis,
                       share);
    if (kernel.flops && seconds > 0)
      os << llvm::format("%9.2f ", double(kernel.flops) * double(row.calls) /
                                       seconds * 1e-9);
    else
      os << llvm::format("%9s ", "-");
    os << llvm::format("%11llu ", (unsigned long long)kernel.bytes);
    if (kernel.bytes && seconds > 0)
      os << llvm::format("%8.2f\n", double(kernel.bytes) * double(row.calls) /
                                        seconds * 1e-9);
    else
      os << llvm::format("%8s\n", "-");
  }
  double meanRun = runs.empty() ? 0 : double(runNanos) * 1e-6 / runs.size();
  os << llvm::format(
      "%zu kernel call sites, %zu run%s, mean run %.4f ms; "
      "the kernels take %.1f%% of it\n",
      kernels.size(), runs.size(), runs.size() == 1 ? "" : "s", meanRun,
      runNanos ? 100.0 * double(kernelNanos) / double(runNanos) : 0.0);
  if (strayCalls)
    os << "warning: " << strayCalls
       << " profiler calls named no known call site or exited one that was "
          "not entered\n";
}

//===----------------------------------------------------------------------===//
// The Chrome trace
//===----------------------------------------------------------------------===//

/// Nanoseconds since `origin` as exact microseconds (`12.345`), so that the
/// events nest exactly as they were measured.
static void writeMicros(llvm::json::OStream &json, uint64_t nanos) {
  json.rawValue([&](llvm::raw_ostream &os) {
    os << nanos / 1000 << "."
       << llvm::format("%03llu", (unsigned long long)(nanos % 1000));
  });
}

void Profiler::writeChromeTrace(llvm::raw_ostream &os) const {
  uint64_t origin = runs.empty() ? 0 : runs.front().start;
  llvm::json::OStream json(os);
  auto event = [&](llvm::StringRef name, llvm::StringRef category,
                   uint64_t start, uint64_t end, auto writeArgs) {
    json.object([&] {
      json.attribute("name", name);
      json.attribute("cat", category);
      json.attribute("ph", "X");
      json.attributeBegin("ts");
      writeMicros(json, start - origin);
      json.attributeEnd();
      json.attributeBegin("dur");
      writeMicros(json, end - start);
      json.attributeEnd();
      json.attribute("pid", 1);
      json.attribute("tid", 1);
      json.attributeObject("args", writeArgs);
    });
  };
  json.object([&] {
    json.attributeArray("traceEvents", [&] {
      size_t next = 0;
      for (auto [index, run] : llvm::enumerate(runs)) {
        event("run " + std::to_string(index), "run", run.start, run.end,
              [&, index = index] { json.attribute("run", int64_t(index)); });
        // Each run's kernels, which started and ended inside it.
        for (; next < events.size() && events[next].start < run.end; ++next) {
          const Event &kernelEvent = events[next];
          const ProfiledKernel &kernel = kernels[kernelEvent.id];
          event(kernel.name, "kernel", kernelEvent.start, kernelEvent.end, [&] {
            json.attribute("kernel", kernel.kernel);
            json.attribute("kind", kernel.kind);
            json.attribute("call_site", kernelEvent.id);
            json.attribute("flops", int64_t(kernel.flops));
            json.attribute("bytes", int64_t(kernel.bytes));
          });
        }
      }
    });
    json.attribute("displayTimeUnit", "ms");
  });
  os << "\n";
}
