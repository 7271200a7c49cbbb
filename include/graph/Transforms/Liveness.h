//===- Liveness.h - Whether an op's results still matter --------*- C++ -*-===//
//
// A local, use-driven notion of liveness shared by the transforms: an op is
// live when it has side effects, is a terminator, or one of its results
// reaches such an op through uses. Fusion asks it whether an intermediate has
// another user that matters, and erases the users that do not.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_TRANSFORMS_LIVENESS_H
#define GRAPH_TRANSFORMS_LIVENESS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
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

} // namespace graph
} // namespace mlir

#endif // GRAPH_TRANSFORMS_LIVENESS_H
