//===- PipelineRecorder.cpp - The graph before and after each pass --------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Before a pass: tag the ops it will see. After it: take the picture, follow
// the tags to tell what the pass did, then remove the tags, so that the IR
// (and its printed form) is left as the pass made it.
//
//===----------------------------------------------------------------------===//

#include "graph/Viz/PipelineRecorder.h"

#include "mlir/Pass/Pass.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::viz;

/// Pass adaptors (the nesting in `builtin.module(func.func(...))`) have no
/// argument: only the passes they run are steps.
static bool isStep(Pass *pass) { return !pass->getArgument().empty(); }

/// Passes that only some models meet (quantized ones): steps where they
/// change the graph, left out where they do nothing.
static bool isOptionalStep(Pass *pass) {
  return pass->getArgument() == "graph-qdq-to-integer";
}

/// The top of the IR that `op` belongs to: the whole module is drawn, even
/// when a pass runs on one function.
static Operation *getRoot(Operation *op) {
  while (Operation *parent = op->getParentOp())
    op = parent;
  return op;
}

void PipelineRecorder::recordInput(Operation *root) {
  if (!steps.empty())
    return;
  Step input = takeSnapshot(root);
  input.title = "input";
  input.summary = "The graph as read, before any pass";
  steps.push_back(std::move(input));
}

void PipelineRecorder::runBeforePass(Pass *pass, Operation *op) {
  if (!isStep(pass))
    return;
  recordInput(getRoot(op));
  std::vector<Operation *> tagged = tagOps(op);
  llvm::DenseMap<Operation *, int64_t> tagOfOp;
  for (auto [tag, taggedOp] : llvm::enumerate(tagged))
    tagOfOp[taggedOp] = tag;
  // The last picture was taken after the previous pass (or is the input):
  // its ops are the ones just tagged.
  for (Node &node : steps.back().nodes) {
    auto it = node.op ? tagOfOp.find(node.op) : tagOfOp.end();
    node.tag = it == tagOfOp.end() ? -1 : it->second;
  }
  beforeOptionalStep.reset();
  if (isOptionalStep(pass))
    beforeOptionalStep.emplace(op);
}

void PipelineRecorder::runAfterPass(Pass *pass, Operation *op) {
  if (!isStep(pass))
    return;
  if (beforeOptionalStep && *beforeOptionalStep == OperationFingerPrint(op)) {
    // Nothing changed: the last picture stays the one the next pass marks.
    untagOps(op);
    return;
  }
  Step after = takeSnapshot(getRoot(op));
  after.title = pass->getArgument().str();
  llvm::raw_string_ostream os(after.passText);
  pass->printAsTextualPipeline(os);
  after.summary = pass->getDescription().str();

  Step &before = steps.back();
  before.nextPass = after.title;
  markChanges(before, after);
  untagOps(op);

  // The ops of `before` may be gone; those of `after` get new tags before
  // the next pass.
  for (Node &node : before.nodes) {
    node.op = nullptr;
    node.tag = -1;
  }
  for (Node &node : after.nodes) {
    node.tag = -1;
    node.origins.clear();
  }
  steps.push_back(std::move(after));
  if (onStep) {
    onStep(steps[steps.size() - 2], steps.size() - 2);
    onStep(steps.back(), steps.size() - 1);
  }
}

void PipelineRecorder::runAfterPassFailed(Pass *pass, Operation *op) {
  if (isStep(pass))
    untagOps(op);
}
