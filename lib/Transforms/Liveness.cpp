//===- Liveness.cpp - Whether an op's results still matter ------*- C++ -*-===//
//
// Liveness is reachability: an op is live when a live root can be reached
// from it by following uses forward. A depth-first search with a visited set
// answers this in time linear in the users it meets, cycles included.
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

/// Post-order over uses: every user of `op` lands in `ops` before `op`.
static void collectUsersFirst(Operation *op, llvm::SetVector<Operation *> &ops,
                              llvm::DenseSet<Operation *> &visited) {
  if (!visited.insert(op).second)
    return;
  for (Operation *user : op->getUsers())
    collectUsersFirst(user, ops, visited);
  ops.insert(op);
}

void mlir::graph::collectDeadUsers(Value value,
                                   llvm::SetVector<Operation *> &ops) {
  llvm::DenseSet<Operation *> visited(ops.begin(), ops.end());
  for (Operation *user : value.getUsers())
    if (!visited.contains(user) && isOpDead(user))
      collectUsersFirst(user, ops, visited);
}
