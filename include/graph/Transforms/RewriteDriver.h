//===- RewriteDriver.h - Patterns applied, dead ops kept --------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The graph passes that rewrite with patterns use this driver rather than
// applyPatternsGreedily, which also folds and erases every trivially dead op
// it meets: in a pipeline of fold -> fuse -> DCE, dead code is the last
// pass's to erase, and each pass should show only its own effect.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_TRANSFORMS_REWRITEDRIVER_H
#define GRAPH_TRANSFORMS_REWRITEDRIVER_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"

namespace mlir {
namespace graph {

/// Applies `patterns` to the ops nested in `root`, first in order, then to
/// the ops that a rewrite creates, modifies or feeds and the producers of
/// the ops it erases, until none applies. `listener`, if given, hears of
/// every change too.
/// Neither folds nor erases an op that no pattern erases. Fails when more
/// than `maxRewritesPerOp` rewrites per op of `root` happen (a pattern set
/// that does not converge).
LogicalResult applyPatternsKeepingDeadOps(
    Operation *root, const FrozenRewritePatternSet &patterns,
    int64_t maxRewritesPerOp = 10, RewriterBase::Listener *listener = nullptr);

} // namespace graph
} // namespace mlir

#endif // GRAPH_TRANSFORMS_REWRITEDRIVER_H
