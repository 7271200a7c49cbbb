//===- FoldConstants.cpp - Compile-time evaluation of graph ops -*- C++ -*-===//
//
// Replaces every graph op whose operands are constants by the constant its
// fold hook computes, and applies the identity folds, to a fixed point. The
// greedy driver's own folding is disabled so that this pattern alone decides
// what folds: it leaves large non-splat results unfolded (`max-elements`)
// and never touches ops with side effects.
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/FoldLimits.h"
#include "graph/Dialect/Graph/IR/GraphDialect.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHFOLDCONSTANTS
#include "graph/Transforms/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

/// The number of elements of a shaped type, or nullopt when it is not static.
static std::optional<int64_t> getNumElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return std::nullopt;
  return shaped.getNumElements();
}

namespace {

/// Folds any side-effect-free graph op through its fold hook.
struct FoldGraphOp : public RewritePattern {
  FoldGraphOp(MLIRContext *context, int64_t maxElements)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context),
        maxElements(maxElements) {}

  /// Whether a result of this type may be held by a new constant.
  bool fitsLimit(Type type) const {
    std::optional<int64_t> n = getNumElements(type);
    return n && *n <= maxElements;
  }

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa_and_present<GraphDialect>(op->getDialect()) ||
        op->hasTrait<OpTrait::ConstantLike>() || !isMemoryEffectFree(op))
      return failure();

    SmallVector<Attribute> operands;
    bool anyNonSplat = false;
    for (Value operand : op->getOperands()) {
      Attribute attr;
      if (matchPattern(operand, m_Constant(&attr))) {
        auto elements = dyn_cast<ElementsAttr>(attr);
        anyNonSplat |= !elements || !elements.isSplat();
      }
      operands.push_back(attr);
    }
    // Only splat operands can give a splat result cheaply; do not evaluate a
    // result that would be dropped for its size anyway.
    if (anyNonSplat && !llvm::all_of(op->getResultTypes(), [&](Type type) {
          return fitsLimit(type);
        }))
      return failure();

    SmallVector<OpFoldResult> folded;
    if (failed(op->fold(operands, folded)) || folded.empty())
      return failure();
    if (folded.size() != op->getNumResults())
      return failure();

    // Check every result before creating anything, so that a rejected fold
    // leaves the IR untouched.
    for (auto [result, foldResult] : llvm::zip(op->getResults(), folded)) {
      if (auto value = dyn_cast<Value>(foldResult)) {
        if (value.getType() != result.getType())
          return failure();
        continue;
      }
      auto elements = dyn_cast<ElementsAttr>(cast<Attribute>(foldResult));
      if (!elements || elements.getType() != result.getType())
        return failure();
      if (!elements.isSplat() && !fitsLimit(result.getType()))
        return failure();
    }

    SmallVector<Value> replacements;
    for (auto [result, foldResult] : llvm::zip(op->getResults(), folded)) {
      if (auto value = dyn_cast<Value>(foldResult)) {
        replacements.push_back(value);
        continue;
      }
      Operation *constant = op->getDialect()->materializeConstant(
          rewriter, cast<Attribute>(foldResult), result.getType(),
          op->getLoc());
      // Checked above: the graph dialect materializes any ElementsAttr of the
      // result's type.
      assert(constant && "graph dialect failed to materialize a constant");
      replacements.push_back(constant->getResult(0));
    }
    rewriter.replaceOp(op, replacements);
    return success();
  }

  int64_t maxElements;
};

struct GraphFoldConstantsPass
    : public graph::impl::GraphFoldConstantsBase<GraphFoldConstantsPass> {
  using Base::Base;

  void runOnOperation() override {
    // The fold hooks check these before they evaluate anything.
    ScopedFoldLimits limits({maxElements, maxWork});
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldGraphOp>(&getContext(), maxElements);

    GreedyRewriteConfig config;
    config.enableFolding(false)
        .enableConstantCSE(false)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled)
        .setMaxIterations(GreedyRewriteConfig::kNoLimit);
    // Every rewrite removes a non-constant op, so the driver always reaches
    // the fixed point; its convergence result carries no error to report.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
  }
};

} // namespace
