//===- EliminateDeadCode.cpp - Dead code elimination ------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph-eliminate-dead-code: the greedy pattern driver with graph.fused's
// canonicalization patterns. The driver erases, transitively, every op without
// side effects whose results are unused (graph.fused with a pure body and
// graph.constant included); the patterns trim the interface of graph.fused.
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/GraphDialect.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHELIMINATEDEADCODE
#include "graph/Transforms/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

namespace {
struct GraphEliminateDeadCodePass
    : public graph::impl::GraphEliminateDeadCodeBase<
          GraphEliminateDeadCodePass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet owningPatterns(context);
    // Only the patterns that trim graph.fused: the other canonicalizations
    // (moving layout changes) are not dead code elimination.
    FusedOp::getCanonicalizationPatterns(owningPatterns, context);
    patterns =
        std::make_shared<FrozenRewritePatternSet>(std::move(owningPatterns));
    return success();
  }

  void runOnOperation() override {
    GreedyRewriteConfig config;
    // Folding evaluates constants: that is graph-fold-constants' job, and
    // DCE must not do it behind its back. Constant CSE would merge constants,
    // and region simplification could drop block arguments, changing
    // function signatures.
    config.enableFolding(false)
        .enableConstantCSE(false)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    // Not converging within the iteration limit leaves valid IR with some
    // dead code left; that is no reason to fail the pipeline.
    (void)applyPatternsGreedily(getOperation(), *patterns, config);
  }

private:
  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};
} // namespace
