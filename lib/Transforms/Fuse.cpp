//===- Fuse.cpp - Operator fusion into graph.fused --------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The graph-fuse pass, where every fusion of the compiler is decided:
//  - layer norms and RMS norms written out in elementwise ops and reductions
//    become graph.layer_norm and graph.rms_norm (RecognizeNormalizations.cpp),
//    attention graph.attention (RecognizeAttention.cpp);
//  - each linear layer (a batch_matmul by a constant matrix) becomes a
//    matmul over its rows whose reshape back moves below the elementwise ops
//    that follow, so that they become its epilogue
//    (LinearLayerEpilogues.cpp);
//  - an anchor (conv2d, matmul, gemm, and the integer conv_integer and
//    matmul_integer) and the longest chain of elementwise
//    epilogue ops after it become one graph.fused, so that the lowering
//    computes the epilogue on the anchor's output while it is still in
//    registers (TVM's "out-elemwise-fusable" anchors);
//  - what elementwise ops remain form chains and trees without an anchor
//    (TVM's injective fusion: add -> relu, mul -> add -> sigmoid, ...), each
//    one graph.fused computed as a single loop nest.
// Both follow the same legality rules: an intermediate has no other live
// user (it never exists in memory) and keeps the element type of the group.
// A batch_norm with constant parameters is first folded into the weights of
// the conv before it, which then fuses with what follows the batch_norm.
//
// Liveness is computed once per run (LiveOps) and each pattern set is
// applied in one walk, so that the pass takes time linear in the graph.
//
//===----------------------------------------------------------------------===//

#include "FusionPatterns.h"

#include "graph/Dialect/Graph/IR/FoldLimits.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Transforms/Liveness.h"
#include "graph/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Rewrite/PatternApplicator.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHFUSE
#include "graph/Transforms/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

/// Whether `op` is an elementwise op that a group may hold: one result, no
/// region, no side effect.
static bool isFusableElementwise(Operation *op) {
  return isElementwise(op) && op->getNumResults() == 1 &&
         op->getNumRegions() == 0 && isMemoryEffectFree(op);
}

/// Whether `op` is one of the element type changes an integer anchor's
/// epilogue may hold: the dequantization of the i32 sums, or the
/// quantization of a float to 8 bits, which ends the chain (the kernel then
/// writes bytes, the requantization epilogue).
static bool isIntegerEpilogueConversion(Operation *op, Value chainValue) {
  Type from = getElementTypeOrSelf(chainValue.getType());
  Type to = getElementTypeOrSelf(op->getResult(0).getType());
  if (auto dequantize = dyn_cast<DequantizeOp>(op))
    return dequantize.getX() == chainValue && from.isSignlessInteger(32) &&
           to.isF32();
  if (auto quantize = dyn_cast<QuantizeOp>(op))
    return quantize.getX() == chainValue && from.isF32() && to.isInteger(8);
  return false;
}

/// Whether `op` can extend a chain whose current value is `chainValue`, the
/// chain's ops being `chain`. The chain value must enter `op` exactly once,
/// as its data input (not as a per-channel parameter of batch_norm); every
/// other operand comes from outside the chain, so that the group stays a
/// single path from the anchor to its result.
static bool isEpilogueOf(Operation *op, Value chainValue,
                         const llvm::SmallPtrSetImpl<Operation *> &chain) {
  if (!isFusableElementwise(op))
    return false;
  if (llvm::count(op->getOperands(), chainValue) != 1)
    return false;
  if (auto bn = dyn_cast<BatchNormOp>(op); bn && bn.getInput() != chainValue)
    return false;
  for (Value operand : op->getOperands()) {
    if (operand == chainValue)
      continue;
    if (Operation *def = operand.getDefiningOp(); def && chain.contains(def))
      return false;
  }
  // A change of element type would need a conversion inside the kernel;
  // the integer kernels make two: the dequantization of their i32 sums and
  // the quantization of the result (isIntegerEpilogueConversion).
  return getElementTypeOrSelf(op->getResult(0).getType()) ==
             getElementTypeOrSelf(chainValue.getType()) ||
         isIntegerEpilogueConversion(op, chainValue);
}

/// Replaces `ops` by one graph.fused. `ops` are in an order where every op
/// comes after the ops of the group that it uses; the last one gives the
/// group's result and every other one is used only inside the group (and by
/// dead ops, which are erased with it). Values the group reads from outside,
/// constants included, become operands in order of first use.
static void createFusedGroup(PatternRewriter &rewriter,
                             ArrayRef<Operation *> ops, const LiveOps &live) {
  llvm::SmallPtrSet<Operation *, 8> inGroup(llvm::from_range, ops);

  // The dead users of the intermediates go away with them.
  llvm::SetVector<Operation *> deadUsers;
  for (Operation *op : ops.drop_back())
    live.collectDeadUsers(op->getResult(0), deadUsers);

  llvm::SetVector<Value> inputs;
  SmallVector<Location> locs;
  SmallVector<std::string> names;
  for (Operation *op : ops) {
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || !inGroup.contains(def))
        inputs.insert(operand);
    }
    locs.push_back(op->getLoc());
    names.push_back(op->getName().stripDialect().str());
  }

  // The dead users of the intermediates go first, then the group's ops move
  // into the body (rather than being cloned and erased: fewer ops made and
  // destroyed), reading block arguments where they read the inputs.
  for (Operation *dead : deadUsers)
    rewriter.eraseOp(dead);

  Operation *last = ops.back();
  Location loc = rewriter.getFusedLoc(locs);
  rewriter.setInsertionPoint(last);
  auto fused = FusedOp::create(rewriter, loc, last->getResultTypes(),
                               inputs.getArrayRef(), llvm::join(names, "_"));
  rewriter.replaceAllUsesWith(last->getResult(0), fused->getResult(0));
  SmallVector<Location> argLocs =
      llvm::map_to_vector(inputs, [](Value v) { return v.getLoc(); });
  Block *body = rewriter.createBlock(&fused.getBody(), {},
                                     TypeRange(inputs.getArrayRef()), argLocs);
  llvm::DenseMap<Value, Value> args;
  for (auto [input, arg] : llvm::zip(inputs, body->getArguments()))
    args[input] = arg;
  for (Operation *op : ops) {
    rewriter.moveOpBefore(op, body, body->end());
    rewriter.modifyOpInPlace(op, [&] {
      for (OpOperand &operand : op->getOpOperands())
        if (Value arg = args.lookup(operand.get()))
          operand.set(arg);
    });
  }
  rewriter.setInsertionPointToEnd(body);
  YieldOp::create(rewriter, loc, last->getResult(0));
}

namespace {
/// Wraps `AnchorOp` and its longest epilogue chain into one graph.fused.
template <typename AnchorOp>
struct FuseEpilogueChain : public OpRewritePattern<AnchorOp> {
  FuseEpilogueChain(MLIRContext *context, const LiveOps &live)
      : OpRewritePattern<AnchorOp>(context), live(live) {}

  LogicalResult matchAndRewrite(AnchorOp anchor,
                                PatternRewriter &rewriter) const override {
    if (anchor->template getParentOfType<FusedOp>())
      return rewriter.notifyMatchFailure(anchor, "already in a fused group");
    // The integer kernels apply an epilogue to NHWC convolutions, whose
    // channels are the result's last dimension (graph-lower-integer-matmul).
    if constexpr (std::is_same_v<AnchorOp, ConvIntegerOp>)
      if (anchor.getLayout() != Layout::NHWC)
        return rewriter.notifyMatchFailure(anchor, "an NCHW integer conv");

    // Walk forward while the current value has exactly one live user that
    // is an epilogue. Another live user would need the intermediate in
    // memory, which is what fusion avoids; dead users are dropped.
    SmallVector<Operation *> chain{anchor.getOperation()};
    llvm::SmallPtrSet<Operation *, 8> inChain{anchor.getOperation()};
    Value current = anchor.getOutput();
    while (true) {
      SmallVector<Operation *> liveUsers = live.getLiveUsers(current);
      if (liveUsers.size() != 1)
        break;
      Operation *user = liveUsers.front();
      if (user->getBlock() != anchor->getBlock() ||
          !isEpilogueOf(user, current, inChain))
        break;
      bool converts = getElementTypeOrSelf(user->getResult(0).getType()) !=
                      getElementTypeOrSelf(current.getType());
      bool integerAnchor = isa<ConvIntegerOp, MatMulIntegerOp>(anchor);
      if (converts && !integerAnchor)
        break;
      // An integer kernel applies its epilogue in registers: only the ops
      // it knows (a GELU, say, starts a group of its own after it).
      if (integerAnchor &&
          !isIntegerEpilogueOp(
              user, current,
              cast<RankedTensorType>(anchor->getResult(0).getType())
                  .getShape()))
        break;
      chain.push_back(user);
      inChain.insert(user);
      current = user->getResult(0);
      if (isa<QuantizeOp>(user))
        break;
    }
    if (chain.size() < 2)
      return rewriter.notifyMatchFailure(anchor, "no epilogue to fuse");
    createFusedGroup(rewriter, chain, live);
    return success();
  }

  const LiveOps &live;
};

/// Groups a tree of elementwise ops without an anchor: the op at its root
/// and, recursively, every elementwise producer whose result only that tree
/// uses. Matched at the root, so that each tree is built once, whole.
struct FuseElementwiseTree
    : public OpTraitRewritePattern<trait::ElementwiseTrait> {
  FuseElementwiseTree(MLIRContext *context, const LiveOps &live)
      : OpTraitRewritePattern(context), live(live) {}

  /// Whether `producer` can join the group of its user `consumer`: both
  /// elementwise in one block, `consumer` the only live user of the
  /// producer's result, and one element type for both results.
  bool canJoin(Operation *producer, Operation *consumer) const {
    if (!isFusableElementwise(producer) || !isFusableElementwise(consumer) ||
        producer->getBlock() != consumer->getBlock())
      return false;
    SmallVector<Operation *> users = live.getLiveUsers(producer->getResult(0));
    if (users.size() != 1 || users.front() != consumer)
      return false;
    return getElementTypeOrSelf(producer->getResult(0).getType()) ==
           getElementTypeOrSelf(consumer->getResult(0).getType());
  }

  LogicalResult matchAndRewrite(Operation *root,
                                PatternRewriter &rewriter) const override {
    if (!isFusableElementwise(root) || root->getParentOfType<FusedOp>())
      return rewriter.notifyMatchFailure(root, "not a fusable elementwise op");
    if (live.isDead(root))
      return rewriter.notifyMatchFailure(root, "dead");
    SmallVector<Operation *> users = live.getLiveUsers(root->getResult(0));
    if (users.size() == 1 && canJoin(root, users.front()))
      return rewriter.notifyMatchFailure(root, "joins the group of its user");

    // Post-order over producers (operands in order): every op after the
    // producers it uses. An explicit stack, as chains may be long.
    SmallVector<Operation *> group;
    llvm::SmallPtrSet<Operation *, 8> visited{root};
    SmallVector<std::pair<Operation *, unsigned>> stack{{root, 0}};
    while (!stack.empty()) {
      auto &[op, next] = stack.back();
      if (next == op->getNumOperands()) {
        group.push_back(op);
        stack.pop_back();
        continue;
      }
      Operation *producer = op->getOperand(next++).getDefiningOp();
      if (producer && !visited.contains(producer) && canJoin(producer, op)) {
        visited.insert(producer);
        stack.emplace_back(producer, 0);
      }
    }
    if (group.size() < 2)
      return rewriter.notifyMatchFailure(root, "no elementwise producer");
    createFusedGroup(rewriter, group, live);
    return success();
  }

  const LiveOps &live;
};
} // namespace

void mlir::graph::populateFuseEpiloguePatterns(RewritePatternSet &patterns,
                                               const LiveOps &live) {
  patterns.add<FuseEpilogueChain<Conv2DOp>, FuseEpilogueChain<MatMulOp>,
               FuseEpilogueChain<GemmOp>, FuseEpilogueChain<ConvIntegerOp>,
               FuseEpilogueChain<MatMulIntegerOp>>(patterns.getContext(), live);
}

void mlir::graph::populateFuseElementwisePatterns(RewritePatternSet &patterns,
                                                  const LiveOps &live) {
  patterns.add<FuseElementwiseTree>(patterns.getContext(), live);
}

namespace {
/// Forgets erased ops: in the liveness analysis, and in the set of ops the
/// driver has still to visit.
struct FuseListener : public RewriterBase::Listener {
  FuseListener(LiveOps &live, llvm::DenseSet<Operation *> &pending)
      : live(live), pending(pending) {}
  void notifyOperationErased(Operation *op) override {
    live.forget(op);
    pending.erase(op);
  }
  LiveOps &live;
  llvm::DenseSet<Operation *> &pending;
};
} // namespace

/// Applies `patterns` once to each op nested in `root`, in program order,
/// skipping the ops erased before their turn; ops created meanwhile are not
/// visited. The fusion patterns need no fixed point: a chain or a tree is
/// built whole from the op it is matched at, and a batch_norm after a conv
/// that an earlier one was folded into comes later in program order. So one
/// walk, where the greedy driver would walk the graph again until nothing
/// changes.
static void applyOnce(Operation *root, const FrozenRewritePatternSet &patterns,
                      LiveOps &live) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (op != root)
      ops.push_back(op);
  });
  llvm::DenseSet<Operation *> pending(llvm::from_range, ops);
  FuseListener listener(live, pending);
  PatternRewriter rewriter(root->getContext());
  rewriter.setListener(&listener);
  PatternApplicator applicator(patterns);
  applicator.applyDefaultCostModel();
  for (Operation *op : ops) {
    if (!pending.erase(op))
      continue;
    rewriter.setInsertionPoint(op);
    (void)applicator.matchAndRewrite(op, rewriter);
  }
}

namespace {
struct GraphFusePass : public graph::impl::GraphFuseBase<GraphFusePass> {
  using Base::Base;

  void runOnOperation() override {
    // Folding batch_norm into weights checks them before it computes.
    ScopedFoldLimits limits({maxElements, FoldLimits::kDefaultMaxWork});
    MLIRContext *context = &getContext();
    trimFusedInterfaces(getOperation());
    LiveOps live(getOperation());

    // Normalizations written out become one op first, so that their
    // elementwise ops do not form groups of their own. Folding batch_norm
    // first lets conv -> batch_norm -> relu with constant
    // parameters fuse as conv2d_relu, one op less per element. Anchors take
    // their epilogues before the elementwise ops group among themselves.
    // Fusion only regroups ops: no folding, and no erasing of ops that were
    // dead already (graph-eliminate-dead-code's job); the patterns erase only
    // the ops of a group and the dead users of its intermediates.
    auto apply = [&](auto populate) {
      RewritePatternSet patterns(context);
      populate(patterns, live);
      applyOnce(getOperation(), FrozenRewritePatternSet(std::move(patterns)),
                live);
    };
    apply(populateRecognizeNormalizationPatterns);
    if (attention)
      apply(populateRecognizeAttentionPatterns);
    if (foldBatchNorm)
      apply(populateFoldBatchNormPatterns);
    apply(populateLinearLayerEpiloguePatterns);
    apply(populateFuseEpiloguePatterns);
    apply(populateFuseElementwisePatterns);
  }
};
} // namespace
