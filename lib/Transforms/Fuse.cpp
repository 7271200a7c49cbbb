//===- Fuse.cpp - Anchor and epilogue fusion into graph.fused ---*- C++ -*-===//
//
// The graph-fuse pass. An anchor (conv2d, matmul, gemm) and the longest chain
// of elementwise epilogue ops after it become one graph.fused, so that the
// lowering can compute the epilogue on the anchor's output while it is still
// in registers, as TVM's FuseOps does for "out-elemwise-fusable" anchors.
// A batch_norm with constant parameters is first folded into the weights of
// the conv before it, which then fuses with what follows the batch_norm.
//
//===----------------------------------------------------------------------===//

#include "FusionPatterns.h"

#include "graph/Dialect/Graph/IR/FoldLimits.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Transforms/Liveness.h"
#include "graph/Transforms/Passes.h"
#include "graph/Transforms/RewriteDriver.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHFUSE
#include "graph/Transforms/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

/// Whether `op` can extend a chain whose current value is `chainValue`, the
/// chain's ops being `chain`. The chain value must enter `op` exactly once,
/// as its data input; every other operand comes from outside the chain, so
/// that the group stays a single path from the anchor to its result.
static bool isEpilogueOf(Operation *op, Value chainValue,
                         const llvm::SmallPtrSetImpl<Operation *> &chain) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0)
    return false;
  if (llvm::count(op->getOperands(), chainValue) != 1)
    return false;
  bool isEpilogueKind =
      llvm::TypeSwitch<Operation *, bool>(op)
          .Case([&](BatchNormOp bn) { return bn.getInput() == chainValue; })
          .Case<ReluOp, ClipOp, SigmoidOp, TanhOp, AddOp, SubOp, MulOp, DivOp>(
              [](Operation *) { return true; })
          .Default([](Operation *) { return false; });
  if (!isEpilogueKind)
    return false;
  for (Value operand : op->getOperands()) {
    if (operand == chainValue)
      continue;
    if (Operation *def = operand.getDefiningOp(); def && chain.contains(def))
      return false;
  }
  // A change of element type would need a conversion inside the kernel.
  return getElementTypeOrSelf(op->getResult(0).getType()) ==
         getElementTypeOrSelf(chainValue.getType());
}

namespace {
/// Wraps `AnchorOp` and its longest epilogue chain into one graph.fused.
template <typename AnchorOp>
struct FuseEpilogueChain : public OpRewritePattern<AnchorOp> {
  using OpRewritePattern<AnchorOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(AnchorOp anchor,
                                PatternRewriter &rewriter) const override {
    if (anchor->template getParentOfType<FusedOp>())
      return rewriter.notifyMatchFailure(anchor, "already in a fused group");

    // Walk forward while the current value has exactly one live user that
    // is an epilogue. Another live user would need the intermediate in
    // memory, which is what fusion avoids; dead users are dropped.
    SmallVector<Operation *> chain{anchor.getOperation()};
    llvm::SmallPtrSet<Operation *, 8> inChain{anchor.getOperation()};
    Value current = anchor.getOutput();
    while (true) {
      SmallVector<Operation *> liveUsers = getLiveUsers(current);
      if (liveUsers.size() != 1)
        break;
      Operation *user = liveUsers.front();
      if (user->getBlock() != anchor->getBlock() ||
          !isEpilogueOf(user, current, inChain))
        break;
      chain.push_back(user);
      inChain.insert(user);
      current = user->getResult(0);
    }
    if (chain.size() < 2)
      return rewriter.notifyMatchFailure(anchor, "no epilogue to fuse");

    // The dead users of the intermediates go away with them.
    llvm::SetVector<Operation *> deadUsers;
    for (Operation *op : ArrayRef(chain).drop_back())
      collectDeadUsers(op->getResult(0), deadUsers);

    // Every value read from outside the group, constants included, becomes
    // an operand, in order of first use.
    llvm::SetVector<Value> inputs;
    SmallVector<Location> locs;
    SmallVector<std::string> names;
    for (Operation *op : chain) {
      for (Value operand : op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def || !inChain.contains(def))
          inputs.insert(operand);
      }
      locs.push_back(op->getLoc());
      names.push_back(op->getName().stripDialect().str());
    }

    Operation *last = chain.back();
    Location loc = rewriter.getFusedLoc(locs);
    rewriter.setInsertionPoint(last);
    auto fused = FusedOp::create(rewriter, loc, last->getResultTypes(),
                                 inputs.getArrayRef(), llvm::join(names, "_"));
    SmallVector<Location> argLocs =
        llvm::map_to_vector(inputs, [](Value v) { return v.getLoc(); });
    Block *body = rewriter.createBlock(
        &fused.getBody(), {}, TypeRange(inputs.getArrayRef()), argLocs);
    IRMapping mapping;
    mapping.map(inputs.getArrayRef(), body->getArguments());
    for (Operation *op : chain)
      rewriter.clone(*op, mapping);
    YieldOp::create(rewriter, loc, mapping.lookup(last->getResult(0)));

    for (Operation *dead : deadUsers)
      rewriter.eraseOp(dead);
    rewriter.replaceOp(last, fused.getResults());
    for (Operation *op : llvm::reverse(ArrayRef(chain).drop_back()))
      rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::graph::populateFuseEpiloguePatterns(RewritePatternSet &patterns) {
  patterns.add<FuseEpilogueChain<Conv2DOp>, FuseEpilogueChain<MatMulOp>,
               FuseEpilogueChain<GemmOp>>(patterns.getContext());
}

namespace {
struct GraphFusePass : public graph::impl::GraphFuseBase<GraphFusePass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet foldPatterns(context);
    populateFoldBatchNormPatterns(foldPatterns);
    foldBatchNormPatterns = std::move(foldPatterns);
    RewritePatternSet fusePatterns(context);
    populateFuseEpiloguePatterns(fusePatterns);
    fuseEpiloguePatterns = std::move(fusePatterns);
    return success();
  }

  void runOnOperation() override {
    // Folding batch_norm into weights checks them before it computes.
    ScopedFoldLimits limits({maxElements, FoldLimits::kDefaultMaxWork});
    // Fusion only regroups ops: no folding, and no erasing of ops that were
    // dead already (graph-eliminate-dead-code's job); the patterns erase
    // only the dead users of the intermediates they fuse.

    // Folding batch_norm first lets conv -> batch_norm -> relu with constant
    // parameters fuse as conv2d_relu, one op less per element.
    if (foldBatchNorm && failed(applyPatternsKeepingDeadOps(
                             getOperation(), foldBatchNormPatterns)))
      return signalPassFailure();
    if (failed(
            applyPatternsKeepingDeadOps(getOperation(), fuseEpiloguePatterns)))
      return signalPassFailure();
  }

private:
  FrozenRewritePatternSet foldBatchNormPatterns;
  FrozenRewritePatternSet fuseEpiloguePatterns;
};
} // namespace
