//===- Liveness.h - Whether an op's results still matter --------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A use-driven notion of liveness shared by the transforms: an op is live
// when it has side effects, is a terminator, or one of its results reaches
// such an op through uses. Fusion asks it whether an intermediate has another
// user that matters, and erases the users that do not.
//
// The free functions answer for one op by walking its uses forward; a pass
// that asks many times computes `LiveOps` once instead, so that its cost
// stays linear in the size of the graph.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_TRANSFORMS_LIVENESS_H
#define GRAPH_TRANSFORMS_LIVENESS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
namespace graph {

/// True when `op` must be kept whatever uses its results: it has (or may
/// have) side effects, or it is a terminator (func.return, graph.yield).
bool isLivenessRoot(Operation *op);

/// True when `op` is a root or some chain of uses leads from its results to
/// a root.
bool isOpLive(Operation *op);

/// True when erasing `op`, together with every op that uses its results
/// transitively, cannot change what the program computes.
inline bool isOpDead(Operation *op) { return !isOpLive(op); }

/// The distinct live ops that use `value`, in use-list order.
SmallVector<Operation *> getLiveUsers(Value value);

/// Adds to `ops` every dead user of `value` and, transitively, every user of
/// their results, each after all of its own users: erasing `ops` in order
/// never leaves a dangling use. Requires that the users are acyclic, which
/// holds in SSACFG regions.
void collectDeadUsers(Value value, llvm::SetVector<Operation *> &ops);

/// The liveness of every op nested in a root op, computed once by one sweep
/// backwards from the liveness roots over operand definitions: time linear in
/// the number of ops and operands.
///
/// Rewrites keep it valid as long as they only create ops that stand for
/// live ones (a fused group replacing its ops, new constants and weights):
/// ops the sweep never saw count as live. Erased ops must be forgotten,
/// since a new op may reuse their address: install `getListener()` on the
/// rewriter (or the greedy driver's config), or call `forget`.
class LiveOps {
public:
  explicit LiveOps(Operation *root);
  // The listener refers to this object.
  LiveOps(const LiveOps &) = delete;
  LiveOps &operator=(const LiveOps &) = delete;

  bool isLive(Operation *op) const { return !dead.contains(op); }
  bool isDead(Operation *op) const { return dead.contains(op); }

  /// As the free function `getLiveUsers`, from the precomputed liveness.
  SmallVector<Operation *> getLiveUsers(Value value) const;

  /// The one live op that uses `value` (perhaps more than once), or null.
  Operation *getSoleLiveUser(Value value) const;

  /// As the free function `collectDeadUsers`, from the precomputed liveness.
  void collectDeadUsers(Value value, llvm::SetVector<Operation *> &ops) const;

  /// Drops `op` from the analysis, before it is erased.
  void forget(Operation *op) { dead.erase(op); }

  /// A rewriter listener that forgets every op the rewriter erases.
  RewriterBase::Listener *getListener() { return &listener; }

private:
  struct ForgetErasedOps : public RewriterBase::Listener {
    explicit ForgetErasedOps(LiveOps &liveOps) : liveOps(liveOps) {}
    void notifyOperationErased(Operation *op) override { liveOps.forget(op); }
    LiveOps &liveOps;
  };

  llvm::DenseSet<Operation *> dead;
  ForgetErasedOps listener{*this};
};

/// Trims what the live graph.fused ops nested in `root` carry for nothing:
/// the results no live op uses (erasing the dead users they have), the body
/// ops that only fed those, and the operands the body no longer reads, as
/// graph-eliminate-dead-code would. A pass whose decisions count users runs
/// it first, so that it decides the same with or without dead code elimination
/// before it: a value whose only other use was such an operand would
/// otherwise fuse (or change layout) on a second run of the pipeline, not on
/// the first. Other dead ops stay.
void trimFusedInterfaces(Operation *root);

} // namespace graph
} // namespace mlir

#endif // GRAPH_TRANSFORMS_LIVENESS_H
