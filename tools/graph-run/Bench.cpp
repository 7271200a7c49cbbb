//===- Bench.cpp - Time a compiled model and count its buffers ------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include "graph/Runtime/AllocationCounter.h"
#include "graph/Runtime/Errors.h"

#include "llvm/Support/WithColor.h"

#include <algorithm>
#include <chrono>
#include <cstring>

using namespace graph_run;

Measurement graph_run::measure(Executable &model,
                               llvm::ArrayRef<const TensorBuffer *> inputs,
                               llvm::ArrayRef<TensorBuffer *> outputs,
                               unsigned runs, Profiler *profiler) {
  Measurement result;
  result.compileMillis = model.getCompileMillis();
  result.arenaBytes = model.getArenaBytes();
  std::vector<TensorBuffer> copies;
  llvm::SmallVector<const TensorBuffer *> copyPtrs;
  for (const TensorBuffer *input : inputs)
    copies.emplace_back(input->getElementType(), input->size());
  for (const TensorBuffer &copy : copies)
    copyPtrs.push_back(&copy);
  auto runOnce = [&](Profiler *runProfiler) {
    for (auto [input, copy] : llvm::zip_equal(inputs, copies))
      llvm::copy(input->bytes(), copy.bytes().begin());
    resetAllocationStats();
    if (runProfiler)
      runProfiler->beginRun();
    auto start = std::chrono::steady_clock::now();
    model.run(copyPtrs, outputs);
    std::chrono::duration<double, std::milli> elapsed =
        std::chrono::steady_clock::now() - start;
    if (runProfiler)
      runProfiler->endRun();
    AllocationStats stats = getAllocationStats();
    result.peakBytes =
        std::max(result.peakBytes, result.arenaBytes + stats.peakBytes);
    result.leakedBytes = std::max(result.leakedBytes, stats.liveBytes);
    result.leakedBuffers = std::max(result.leakedBuffers, stats.liveBuffers);
    return elapsed.count();
  };

  // The warm-up run pages in the code and the buffers; it is not timed.
  runOnce(nullptr);
  for (auto [index, input, copy] : llvm::enumerate(inputs, copies))
    // Bitwise, so that a NaN input compares equal to itself.
    if (std::memcmp(input->data(), copy.data(), input->getByteSize()) != 0)
      result.modifiedInputs.push_back(index);
  for (unsigned i = 0; i < runs; ++i)
    result.latencies.push_back(runOnce(profiler));
  resetAllocationStats();

  if (!result.latencies.empty()) {
    std::vector<double> sorted = result.latencies;
    std::sort(sorted.begin(), sorted.end());
    result.minMillis = sorted.front();
    size_t middle = sorted.size() / 2;
    result.medianMillis = sorted.size() % 2
                              ? sorted[middle]
                              : (sorted[middle - 1] + sorted[middle]) / 2;
  }
  return result;
}

void graph_run::warnAboutProblems(const Measurement &measurement,
                                  const ModelSignature &signature,
                                  llvm::StringRef what) {
  if (measurement.leakedBytes != 0 || measurement.leakedBuffers != 0)
    llvm::WithColor::warning(llvm::errs(), "graph-run")
        << what << ": " << measurement.leakedBytes << " bytes in "
        << measurement.leakedBuffers
        << " buffers still allocated after a run: the compiled code does not "
           "free every buffer\n";
  for (unsigned index : measurement.modifiedInputs)
    llvm::WithColor::warning(llvm::errs(), "graph-run")
        << what << ": the compiled code wrote to input '"
        << signature.inputs[index].name << "' (argument " << index
        << "), which it must only read\n";
}

bool graph_run::allocateOutputBuffers(
    Executable &model, std::vector<TensorBuffer> &buffers,
    llvm::SmallVectorImpl<TensorBuffer *> &pointers) {
  llvm::Expected<std::vector<TensorBuffer>> allocated = model.allocateOutputs();
  if (!allocated) {
    printError(allocated.takeError(), "graph-run");
    return false;
  }
  buffers = std::move(*allocated);
  for (TensorBuffer &buffer : buffers)
    pointers.push_back(&buffer);
  return true;
}
