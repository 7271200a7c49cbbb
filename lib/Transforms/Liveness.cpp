//===- Liveness.cpp - Whether an op's results still matter ------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Liveness is reachability: an op is live when a live root can be reached
// from it by following uses forward. For one op, a depth-first search with a
// visited set answers this in time linear in the users it meets, cycles
// included; for all ops at once (LiveOps), one sweep backwards from the roots
// does, in time linear in the IR.
//
//===----------------------------------------------------------------------===//

#include "graph/Transforms/Liveness.h"

#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::graph;

bool mlir::graph::isLivenessRoot(Operation *op) {
  return op->hasTrait<OpTrait::IsTerminator>() || !isMemoryEffectFree(op);
}

bool mlir::graph::isOpLive(Operation *op) {
  llvm::DenseSet<Operation *> visited;
  SmallVector<Operation *> worklist{op};
  visited.insert(op);
  while (!worklist.empty()) {
    Operation *current = worklist.pop_back_val();
    if (isLivenessRoot(current))
      return true;
    for (Operation *user : current->getUsers())
      if (visited.insert(user).second)
        worklist.push_back(user);
  }
  return false;
}

SmallVector<Operation *> mlir::graph::getLiveUsers(Value value) {
  SmallVector<Operation *> users;
  llvm::SmallPtrSet<Operation *, 4> seen;
  for (Operation *user : value.getUsers())
    if (seen.insert(user).second && isOpLive(user))
      users.push_back(user);
  return users;
}

/// Post-order over uses: every user of `op` lands in `ops` before `op`. An
/// op already in `ops` is not visited again, so collecting the dead users of
/// many values into one `ops` costs time linear in what is collected. An
/// explicit stack, so that a long chain of dead ops cannot overflow the
/// native one.
static void collectUsersFirst(Operation *op,
                              llvm::SetVector<Operation *> &ops) {
  // Ops on the stack: visited, not yet in `ops`.
  llvm::SmallPtrSet<Operation *, 8> onStack{op};
  auto isNew = [&](Operation *user) {
    return !ops.contains(user) && onStack.insert(user).second;
  };
  // Each entry: an op and the users of it still to visit.
  SmallVector<std::pair<Operation *, SmallVector<Operation *>>> stack;
  stack.emplace_back(op, llvm::to_vector(op->getUsers()));
  while (!stack.empty()) {
    auto &[current, pending] = stack.back();
    if (pending.empty()) {
      ops.insert(current);
      stack.pop_back();
      continue;
    }
    Operation *user = pending.pop_back_val();
    if (isNew(user))
      stack.emplace_back(user, llvm::to_vector(user->getUsers()));
  }
}

void mlir::graph::collectDeadUsers(Value value,
                                   llvm::SetVector<Operation *> &ops) {
  for (Operation *user : value.getUsers())
    if (!ops.contains(user) && isOpDead(user))
      collectUsersFirst(user, ops);
}

LiveOps::LiveOps(Operation *root) {
  // Every op starts dead; the sweep marks live what a root needs.
  SmallVector<Operation *> worklist;
  root->walk([&](Operation *op) {
    if (op == root)
      return;
    if (isLivenessRoot(op))
      worklist.push_back(op);
    else
      dead.insert(op);
  });
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && dead.erase(def))
        worklist.push_back(def);
    }
  }
}

SmallVector<Operation *> LiveOps::getLiveUsers(Value value) const {
  SmallVector<Operation *> users;
  llvm::SmallPtrSet<Operation *, 4> seen;
  for (Operation *user : value.getUsers())
    if (seen.insert(user).second && isLive(user))
      users.push_back(user);
  return users;
}

void LiveOps::collectDeadUsers(Value value,
                               llvm::SetVector<Operation *> &ops) const {
  for (Operation *user : value.getUsers())
    if (!ops.contains(user) && isDead(user))
      collectUsersFirst(user, ops);
}

/// One round of `trimFusedInterfaces`. Returns whether anything changed.
static bool trimFusedInterfacesOnce(Operation *root,
                                    const FrozenRewritePatternSet &patterns) {
  SmallVector<FusedOp> fusedOps;
  root->walk([&](FusedOp fused) { fusedOps.push_back(fused); });
  if (fusedOps.empty())
    return false;
  LiveOps live(root);
  llvm::SetVector<Operation *> worklist;
  llvm::SetVector<Operation *> deadUsers;
  for (FusedOp fused : fusedOps) {
    if (live.isDead(fused))
      continue;
    for (Value result : fused->getResults())
      if (live.getLiveUsers(result).empty())
        live.collectDeadUsers(result, deadUsers);
    worklist.insert(fused);
    fused.getBody().walk([&](Operation *op) { worklist.insert(op); });
  }
  // Dead users nested in a fused body are on the worklist: not after this.
  worklist.remove_if([&](Operation *op) { return deadUsers.contains(op); });
  IRRewriter rewriter(root->getContext());
  for (Operation *dead : deadUsers)
    rewriter.eraseOp(dead);

  // Only these ops and the ones the patterns create: ops outside the fused
  // bodies that die with an operand stay for graph-eliminate-dead-code.
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps)
      .enableFolding(false)
      .enableConstantCSE(false)
      .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  bool changed = false;
  (void)applyOpPatternsGreedily(worklist.getArrayRef(), patterns, config,
                                &changed);
  return changed || !deadUsers.empty();
}

void mlir::graph::trimFusedInterfaces(Operation *root) {
  MLIRContext *context = root->getContext();
  RewritePatternSet patterns(context);
  FusedOp::getCanonicalizationPatterns(patterns, context);
  FrozenRewritePatternSet frozen(std::move(patterns));
  // A round can leave a fused op whose result only a now-dead op uses; a
  // chain of such groups takes a round per link. Past a few rounds what is
  // left stays for graph-eliminate-dead-code.
  for (int round = 0; round < 8; ++round)
    if (!trimFusedInterfacesOnce(root, frozen))
      return;
}

Operation *LiveOps::getSoleLiveUser(Value value) const {
  SmallVector<Operation *> users = getLiveUsers(value);
  if (users.empty() ||
      llvm::any_of(users, [&](Operation *user) { return user != users[0]; }))
    return nullptr;
  return users[0];
}
