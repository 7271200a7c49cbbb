//===- Profiler.h - Time each kernel of a compiled model --------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Code compiled with profiling (`graph-lower-to-llvm profile=true`,
// graph-run --profile) calls graph_profile_enter(id) and
// graph_profile_exit(id) around each kernel call, `id` numbering the call
// sites; the compilation describes each (ProfiledKernel). A Profiler times
// the runs it brackets with beginRun/endRun, and prints a table per call
// site or writes a Chrome trace.
//
// Kernel calls come from the thread that runs the model (the parallel loops
// are inside the kernels), one run at a time: the active profiler is one
// per process, and the hooks do nothing when there is none.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_RUNTIME_PROFILER_H
#define GRAPH_RUNTIME_PROFILER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
namespace graph {
namespace runtime {

/// One kernel call site, as the compilation described it.
struct ProfiledKernel {
  /// Its location: ONNX node names, else file:line, else the kernel.
  std::string name;
  /// The kernel function and what it computes (`conv2d_relu`).
  std::string kernel;
  std::string kind;
  /// FLOPs of its convolutions and matrix products (0: none), and the bytes
  /// of its operands and results, per call.
  uint64_t flops = 0;
  uint64_t bytes = 0;
};

class Profiler {
public:
  explicit Profiler(std::vector<ProfiledKernel> kernels);
  ~Profiler();

  /// Brackets one run of the model: the profiler is active in between.
  void beginRun();
  void endRun();

  /// The hooks' work.
  void enter(int64_t id);
  void exit(int64_t id);

  unsigned getNumRuns() const { return runs.size(); }

  /// One row per call site, the most time first: calls, total and mean
  /// time, share of the runs' time, GFLOP/s, bytes and GB/s.
  void printTable(llvm::raw_ostream &os) const;

  /// The Chrome trace ("traceEvents", complete events in microseconds): one
  /// event per run, the kernel events inside it.
  void writeChromeTrace(llvm::raw_ostream &os) const;

private:
  struct Event {
    int64_t id;
    uint64_t start, end;
  };
  struct Run {
    uint64_t start, end;
  };

  std::vector<ProfiledKernel> kernels;
  std::vector<uint64_t> openedAt;
  std::vector<Event> events;
  std::vector<Run> runs;
  /// Calls with an id the table lacks, or an exit without its enter.
  uint64_t strayCalls = 0;
};

/// The names the compiled code calls, for the JIT's symbol map and for a
/// check that a model defines none of its own.
llvm::ArrayRef<llvm::StringRef> getProfilerSymbolNames();

} // namespace runtime
} // namespace graph
} // namespace mlir

extern "C" {
/// The hooks the compiled code calls around the kernel call site `id`.
void graph_profile_enter(int64_t id);
void graph_profile_exit(int64_t id);
}

#endif // GRAPH_RUNTIME_PROFILER_H
