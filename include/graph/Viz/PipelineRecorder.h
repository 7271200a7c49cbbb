//===- PipelineRecorder.h - The graph around each pass ----------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A pass instrumentation that takes the picture of the graph before the
// first pass and after each pass, and marks on each picture what the next
// pass changes (what it folds, fuses and erases) and on the next one what it
// made. A pass that serves some models only (graph-qdq-to-integer: quantized
// ones) is a step where it changes the graph, so that a float model's steps
// are the passes that act on it. Needs the context single-threaded: it looks at
// the whole module around each pass.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_VIZ_PIPELINERECORDER_H
#define GRAPH_VIZ_PIPELINERECORDER_H

#include "graph/Viz/Snapshot.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassInstrumentation.h"

#include <functional>
#include <optional>
#include <vector>

namespace mlir {
namespace graph {
namespace viz {

class PipelineRecorder : public PassInstrumentation {
public:
  /// Called with each step whose marks a pass just completed (the step
  /// before it) and with the new step after it, whose marks the next pass,
  /// if any, will complete: a step may be reported twice.
  using StepCallback = std::function<void(const Step &step, size_t index)>;

  explicit PipelineRecorder(StepCallback onStep = nullptr)
      : onStep(std::move(onStep)) {}

  /// The input and the state after each pass so far. Without any pass, call
  /// recordInput first to have the input.
  const std::vector<Step> &getSteps() const { return steps; }

  /// Takes the picture of the input if no pass has run yet.
  void recordInput(Operation *root);

  void runBeforePass(Pass *pass, Operation *op) override;
  void runAfterPass(Pass *pass, Operation *op) override;
  void runAfterPassFailed(Pass *pass, Operation *op) override;

private:
  std::vector<Step> steps;
  StepCallback onStep;
  /// The IR before a pass that is a step only where it changes something.
  std::optional<OperationFingerPrint> beforeOptionalStep;
};

} // namespace viz
} // namespace graph
} // namespace mlir

#endif // GRAPH_VIZ_PIPELINERECORDER_H
