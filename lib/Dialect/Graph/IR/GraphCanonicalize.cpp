//===- GraphCanonicalize.cpp - Canonicalization patterns --------*- C++ -*-===//
//
// Canonicalization patterns of the graph ops, collected by
// graph-eliminate-dead-code. The driver itself erases unused ops without side
// effects; the patterns here shrink a `graph.fused` whose interface carries
// dead weight (unused results, unused or repeated operands), so that the
// values behind them can die too. None of them changes `kind`.
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/BitVector.h"

using namespace mlir;
using namespace mlir::graph;

namespace {

/// Drops the results of a `graph.fused` that have no uses: the op is rebuilt
/// with fewer results and its body yields fewer values. The body ops that only
/// fed a dropped result are then trivially dead and the driver erases them.
struct DropUnusedFusedResults : public OpRewritePattern<FusedOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(FusedOp op,
                                PatternRewriter &rewriter) const override {
    // A fused op without any used result is erased whole by the driver when
    // its body is pure; with side effects it must stay, results and all, so
    // there is nothing to gain from rebuilding it.
    if (op->use_empty())
      return failure();

    SmallVector<unsigned> kept;
    for (OpResult result : op->getResults())
      if (!result.use_empty())
        kept.push_back(result.getResultNumber());
    if (kept.size() == op->getNumResults())
      return failure();

    YieldOp yield = op.getYield();
    SmallVector<Type> resultTypes;
    SmallVector<Value> yielded;
    for (unsigned index : kept) {
      resultTypes.push_back(op->getResult(index).getType());
      yielded.push_back(yield.getValues()[index]);
    }

    auto newOp = FusedOp::create(rewriter, op.getLoc(), resultTypes,
                                 op.getInputs(), op->getAttrs());
    rewriter.inlineRegionBefore(op.getBody(), newOp.getBody(),
                                newOp.getBody().end());
    rewriter.modifyOpInPlace(yield, [&] { yield->setOperands(yielded); });

    // Unused results get no replacement value: nothing refers to them.
    SmallVector<Value> replacements(op->getNumResults(), Value());
    for (auto [newIndex, oldIndex] : llvm::enumerate(kept))
      replacements[oldIndex] = newOp->getResult(newIndex);
    rewriter.replaceOp(op, replacements);
    return success();
  }
};

/// Erases the operands of a `graph.fused` listed in `dead` together with
/// their block arguments, which must have no uses left.
static void eraseFusedOperands(PatternRewriter &rewriter, FusedOp op,
                               const llvm::BitVector &dead) {
  Block &body = op.getBody().front();
  rewriter.modifyOpInPlace(op, [&] {
    op->eraseOperands(dead);
    body.eraseArguments(dead);
  });
}

/// Drops the operands of a `graph.fused` whose block argument the body never
/// reads, so that the value passed in may die.
struct DropUnusedFusedOperands : public OpRewritePattern<FusedOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(FusedOp op,
                                PatternRewriter &rewriter) const override {
    Block &body = op.getBody().front();
    llvm::BitVector dead(body.getNumArguments());
    for (BlockArgument arg : body.getArguments())
      if (arg.use_empty())
        dead.set(arg.getArgNumber());
    if (dead.none())
      return failure();
    eraseFusedOperands(rewriter, op, dead);
    return success();
  }
};

/// Merges the operands of a `graph.fused` that pass the same value more than
/// once: the body reads the first block argument for that value instead.
struct DeduplicateFusedOperands : public OpRewritePattern<FusedOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(FusedOp op,
                                PatternRewriter &rewriter) const override {
    Block &body = op.getBody().front();
    llvm::SmallDenseMap<Value, unsigned> firstIndex;
    llvm::BitVector duplicate(op->getNumOperands());
    for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
      auto [it, inserted] = firstIndex.try_emplace(operand, index);
      if (inserted)
        continue;
      rewriter.replaceAllUsesWith(body.getArgument(index),
                                  body.getArgument(it->second));
      duplicate.set(index);
    }
    if (duplicate.none())
      return failure();
    eraseFusedOperands(rewriter, op, duplicate);
    return success();
  }
};

} // namespace

void FusedOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<DropUnusedFusedResults, DropUnusedFusedOperands,
              DeduplicateFusedOperands>(context);
}
