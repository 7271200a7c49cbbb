//===- RewriteDriver.cpp - Patterns to a fixed point, dead ops kept -------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A worklist of ops in program order; a listener on the rewriter queues what
// each rewrite creates, modifies or feeds, and the producers of what it
// erases, and forgets what it erases.
//
//===----------------------------------------------------------------------===//

#include "graph/Transforms/RewriteDriver.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/PatternApplicator.h"
#include "llvm/ADT/DenseSet.h"

#include <deque>

using namespace mlir;
using namespace mlir::graph;

namespace {
/// The ops still to visit, each once, in the order they were queued. Every
/// notification goes on to the caller's listener, if any.
class Worklist : public RewriterBase::ForwardingListener {
public:
  explicit Worklist(RewriterBase::Listener *listener)
      : ForwardingListener(listener) {}

  void push(Operation *op) {
    if (pending.insert(op).second)
      queue.push_back(op);
  }

  /// The next op to visit, or null when done.
  Operation *pop() {
    while (!queue.empty()) {
      Operation *op = queue.front();
      queue.pop_front();
      // An erased op left its address in the queue; `pending` says whether
      // the address stands for a live op (possibly a new one reusing it).
      if (pending.erase(op))
        return op;
    }
    return nullptr;
  }

private:
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint previous) override {
    ForwardingListener::notifyOperationInserted(op, previous);
    push(op);
  }
  void notifyOperationModified(Operation *op) override {
    ForwardingListener::notifyOperationModified(op);
    push(op);
  }
  void notifyOperationReplaced(Operation *op, Operation *newOp) override {
    notifyOperationReplaced(op, newOp->getResults());
  }
  void notifyOperationReplaced(Operation *op, ValueRange replacement) override {
    ForwardingListener::notifyOperationReplaced(op, replacement);
    for (Operation *user : op->getUsers())
      push(user);
  }
  void notifyOperationErased(Operation *op) override {
    ForwardingListener::notifyOperationErased(op);
    pending.erase(op);
    // The producers of its operands lost a user: a pattern that wants a
    // single user may apply now.
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        push(def);
  }

  std::deque<Operation *> queue;
  llvm::DenseSet<Operation *> pending;
};
} // namespace

LogicalResult mlir::graph::applyPatternsKeepingDeadOps(
    Operation *root, const FrozenRewritePatternSet &patterns,
    int64_t maxRewritesPerOp, RewriterBase::Listener *listener) {
  Worklist worklist(listener);
  int64_t numOps = 0;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == root)
      return;
    worklist.push(op);
    ++numOps;
  });

  PatternApplicator applicator(patterns);
  applicator.applyDefaultCostModel();
  PatternRewriter rewriter(root->getContext());
  rewriter.setListener(&worklist);
  int64_t maxRewrites = maxRewritesPerOp * (numOps + 1);
  int64_t numRewrites = 0;
  while (Operation *op = worklist.pop()) {
    rewriter.setInsertionPoint(op);
    if (succeeded(applicator.matchAndRewrite(op, rewriter)) &&
        ++numRewrites > maxRewrites)
      return failure();
  }
  return success();
}
