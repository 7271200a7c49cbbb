//===- Liveness.cpp - Whether an op's results still matter ------*- C++ -*-===//
//
// Liveness is reachability: an op is live when a live root can be reached
// from it by following uses forward. For one op, a depth-first search with a
// visited set answers this in time linear in the users it meets, cycles
// included; for all ops at once (LiveOps), one sweep backwards from the roots
// does, in time linear in the IR.
//
//===----------------------------------------------------------------------===//

#include "graph/Transforms/Liveness.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
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
/// explicit stack, so that a long chain of dead ops cannot overflow the
/// native one.
static void collectUsersFirst(Operation *op, llvm::SetVector<Operation *> &ops,
                              llvm::DenseSet<Operation *> &visited) {
  if (!visited.insert(op).second)
    return;
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
    if (visited.insert(user).second)
      stack.emplace_back(user, llvm::to_vector(user->getUsers()));
  }
}

void mlir::graph::collectDeadUsers(Value value,
                                   llvm::SetVector<Operation *> &ops) {
  llvm::DenseSet<Operation *> visited(ops.begin(), ops.end());
  for (Operation *user : value.getUsers())
    if (!visited.contains(user) && isOpDead(user))
      collectUsersFirst(user, ops, visited);
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
  llvm::DenseSet<Operation *> visited(ops.begin(), ops.end());
  for (Operation *user : value.getUsers())
    if (!visited.contains(user) && isDead(user))
      collectUsersFirst(user, ops, visited);
}
