//===- ConvertLayout.cpp - Convolutions and pooling in NHWC -----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph-convert-layout: the layout is a graph decision (TVM's ConvertLayout,
// ONNX Runtime's NCHWc transformer), not the code generator's. Every NCHW
// conv2d becomes an NHWC one between two transposes, its constant weight
// permuted at compile time; then the transposes move toward each other and
// cancel (graph.transpose's canonicalization patterns and the pooling and
// concat ones below), so that activations stay NHWC from the first
// convolution to the last and the code generator needs no transpose.
//
// NHWC rather than a channel-blocked NCHWc: the code generator's
// convolution kernels (Vectorize.cpp) are NHWC, with output channels in the
// vector lanes, so NHWC is what it runs without any layout change, and it
// needs no new op for the blocked layout.
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Transforms/Liveness.h"
#include "graph/Transforms/Passes.h"
#include "graph/Transforms/RewriteDriver.h"

#include "mlir/IR/Iterators.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/EquivalenceClasses.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHCONVERTLAYOUT
#include "graph/Transforms/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

/// Permutations between the layouts: dim i of the result is dim perm[i] of
/// the operand.
static constexpr int64_t kToNHWC[] = {0, 2, 3, 1};
static constexpr int64_t kToNCHW[] = {0, 3, 1, 2};
static constexpr int64_t kFCHWToHWCF[] = {2, 3, 1, 0};

static RankedTensorType permuteType(Type type, ArrayRef<int64_t> perm) {
  auto ranked = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape;
  for (int64_t d : perm)
    shape.push_back(ranked.getDimSize(d));
  return RankedTensorType::get(shape, ranked.getElementType());
}

/// Whether the only live user of `op`'s result is `user` (once or more).
/// Dead users do not count: the decision must not change when
/// graph-eliminate-dead-code has run before (graph-optimize is idempotent).
static bool hasSingleLiveUser(Operation *op, Operation *user,
                              const LiveOps &live) {
  SmallVector<Operation *> users = live.getLiveUsers(op->getResult(0));
  return users.size() == 1 && users.front() == user;
}

namespace {
/// The NHWC form of NCHW values, made once per value right after its
/// definition, so that every convolution reading the value shares it.
class NHWCValues {
public:
  Value get(RewriterBase &rewriter, Value value) {
    // A value that comes from NHWC is read there directly.
    if (auto transpose = value.getDefiningOp<TransposeOp>())
      if (transpose.getPerm() == ArrayRef<int64_t>(kToNCHW))
        return transpose.getX();
    Value &nhwc = cache[value];
    if (!nhwc) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointAfterValue(value);
      // A constant is permuted at compile time, as graph-fold-constants
      // (which ran before) would have.
      nhwc = rewriter.createOrFold<TransposeOp>(
          value.getLoc(), permuteType(value.getType(), kToNHWC), value,
          kToNHWC);
    }
    return nhwc;
  }

private:
  llvm::DenseMap<Value, Value> cache;
};
} // namespace

/// Replaces an NCHW conv2d by the NHWC one between transposes; a constant
/// weight is permuted to HWCF by the transpose's fold hook.
static void convertConv(RewriterBase &rewriter, Conv2DOp conv,
                        NHWCValues &nhwcValues) {
  Location loc = conv.getLoc();
  Value input = nhwcValues.get(rewriter, conv.getInput());
  rewriter.setInsertionPoint(conv);
  Value weight = rewriter.createOrFold<TransposeOp>(
      conv.getWeight().getLoc(),
      permuteType(conv.getWeight().getType(), kFCHWToHWCF), conv.getWeight(),
      kFCHWToHWCF);
  auto nhwc = Conv2DOp::create(
      rewriter, loc, permuteType(conv.getType(), kToNHWC), input, weight,
      conv.getBias(), conv.getStridesAttr(), conv.getPaddingAttr(),
      conv.getDilationsAttr(), conv.getGroupsAttr(),
      LayoutAttr::get(rewriter.getContext(), Layout::NHWC));
  nhwc->setDiscardableAttrs(conv->getDiscardableAttrDictionary());
  rewriter.replaceOpWithNewOp<TransposeOp>(conv, conv.getType(), nhwc, kToNCHW);
}

/// The same for a 2-D conv_integer: its filters and a per-filter zero point
/// (F x 1 x 1 x 1, permuted with them to 1 x 1 x 1 x F) are constants, so the
/// transposes fold.
static void convertConvInteger(RewriterBase &rewriter, ConvIntegerOp conv,
                               NHWCValues &nhwcValues) {
  Location loc = conv.getLoc();
  Value input = nhwcValues.get(rewriter, conv.getInput());
  rewriter.setInsertionPoint(conv);
  auto toHWCF = [&](Value value) -> Value {
    if (cast<RankedTensorType>(value.getType()).getRank() != 4)
      return value;
    return rewriter.createOrFold<TransposeOp>(
        value.getLoc(), permuteType(value.getType(), kFCHWToHWCF), value,
        kFCHWToHWCF);
  };
  Value weight = toHWCF(conv.getWeight());
  Value weightZero = toHWCF(conv.getWeightZeroPoint());
  auto nhwc = ConvIntegerOp::create(
      rewriter, loc, permuteType(conv.getType(), kToNHWC), input, weight,
      conv.getInputZeroPoint(), weightZero, conv.getStridesAttr(),
      conv.getPaddingAttr(), conv.getDilationsAttr(), conv.getGroupsAttr(),
      LayoutAttr::get(rewriter.getContext(), Layout::NHWC));
  nhwc->setDiscardableAttrs(conv->getDiscardableAttrDictionary());
  rewriter.replaceOpWithNewOp<TransposeOp>(conv, conv.getType(), nhwc, kToNCHW);
}

/// Whether `op` is a 2-D NCHW convolution, float or integer.
static bool isNCHWConv(Operation *op) {
  if (auto conv = dyn_cast<Conv2DOp>(op))
    return conv.getLayout() == Layout::NCHW;
  if (auto conv = dyn_cast<ConvIntegerOp>(op))
    return conv.getLayout() == Layout::NCHW &&
           cast<RankedTensorType>(conv.getType()).getRank() == 4;
  return false;
}

namespace {
/// pool(transpose(x, NHWC to NCHW)) -> transpose(pool in NHWC (x)) for the
/// pool that is the transpose's only user.
template <typename PoolOp>
struct SinkTransposeThroughPool : public OpRewritePattern<TransposeOp> {
  SinkTransposeThroughPool(MLIRContext *context, const LiveOps &live)
      : OpRewritePattern<TransposeOp>(context), live(live) {}
  const LiveOps &live;

  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getPerm() != ArrayRef<int64_t>(kToNCHW))
      return failure();
    SmallVector<Operation *> users = live.getLiveUsers(op.getResult());
    auto pool = users.empty() ? PoolOp() : dyn_cast<PoolOp>(users.front());
    if (!pool || !hasSingleLiveUser(op, pool, live) ||
        pool.getLayout() != Layout::NCHW)
      return failure();
    rewriter.setInsertionPoint(pool);
    OperationState state(pool.getLoc(), pool->getName(), ValueRange{op.getX()},
                         {permuteType(pool.getType(), kToNHWC)},
                         pool->getAttrs());
    state.attributes.set(pool.getLayoutAttrName(),
                         LayoutAttr::get(rewriter.getContext(), Layout::NHWC));
    Operation *nhwc = rewriter.create(state);
    rewriter.replaceOpWithNewOp<TransposeOp>(pool, pool.getType(),
                                             nhwc->getResult(0), kToNCHW);
    return success();
  }
};

/// concat(transpose(x1, p), ..., transpose(xn, p), axis) ->
/// transpose(concat(x1, ..., xn, p[axis]), p), when the concat is the only
/// user of each transpose: n layout changes become one.
struct SinkTransposesThroughConcat : public OpRewritePattern<ConcatOp> {
  SinkTransposesThroughConcat(MLIRContext *context, const LiveOps &live)
      : OpRewritePattern<ConcatOp>(context), live(live) {}
  const LiveOps &live;

  LogicalResult matchAndRewrite(ConcatOp concat,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> inputs;
    std::optional<ArrayRef<int64_t>> perm;
    for (Value input : concat.getInputs()) {
      auto transpose = input.getDefiningOp<TransposeOp>();
      if (!transpose || !hasSingleLiveUser(transpose, concat, live) ||
          (perm && transpose.getPerm() != *perm))
        return failure();
      perm = transpose.getPerm();
      inputs.push_back(transpose.getX());
    }
    int64_t rank = perm->size();
    // An I64Attr reads as unsigned: a negative axis as 2^64 - n.
    int64_t axis = concat.getAxis();
    if (axis < 0)
      axis += rank;
    if (axis < 0 || axis >= rank)
      return failure();
    SmallVector<int64_t> inverse(rank);
    for (auto [i, p] : llvm::enumerate(*perm))
      inverse[p] = i;
    auto moved = ConcatOp::create(
        rewriter, concat.getLoc(), permuteType(concat.getType(), inverse),
        inputs, rewriter.getI64IntegerAttr((*perm)[axis]));
    rewriter.replaceOpWithNewOp<TransposeOp>(concat, concat.getType(), moved,
                                             *perm);
    return success();
  }
};

/// Whether `op` runs in NHWC as well as in NCHW: convs and pools have a
/// layout attribute, concats and elementwise ops let layout changes through.
static bool isLayoutFlexible(Operation *op) {
  return isa<Conv2DOp, MaxPool2DOp, AvgPool2DOp, GlobalAvgPoolOp, ConcatOp>(
             op) ||
         isNCHWConv(op) || isElementwise(op);
}

/// The NCHW convs worth converting: those connected, through ops that run
/// in either layout, to another conv or a pool. A conv alone in such a
/// region keeps both its layout changes whatever the pass does, and in
/// NCHW its lowering transposes tile by tile inside the fused kernel
/// rather than whole tensors outside it (a conv_bn_relu block).
static SmallVector<Operation *> getConvsToConvert(Operation *root,
                                                  const LiveOps &live) {
  llvm::EquivalenceClasses<Operation *> regions;
  SmallVector<Operation *> windowOps;
  root->walk([&](Operation *op) {
    // Dead ops connect nothing: DCE before must not change the regions.
    if (!isLayoutFlexible(op) || op->getParentOfType<FusedOp>() ||
        live.isDead(op))
      return;
    regions.insert(op);
    if (isa<Conv2DOp, ConvIntegerOp, MaxPool2DOp, AvgPool2DOp, GlobalAvgPoolOp>(
            op))
      windowOps.push_back(op);
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp();
          def && def->getBlock() == op->getBlock() && isLayoutFlexible(def) &&
          live.isLive(def))
        regions.unionSets(op, def);
  });
  llvm::DenseMap<Operation *, int64_t> windowOpsPerRegion;
  for (Operation *op : windowOps)
    ++windowOpsPerRegion[regions.getLeaderValue(op)];
  SmallVector<Operation *> convs;
  for (Operation *op : windowOps)
    if (isNCHWConv(op) && windowOpsPerRegion[regions.getLeaderValue(op)] > 1)
      convs.push_back(op);
  return convs;
}

/// Remembers the ops a rewriter creates and has not erased since, and keeps
/// the liveness analysis from taking a new op at an erased one's address for
/// dead.
struct CreatedOps : public RewriterBase::Listener {
  explicit CreatedOps(LiveOps &live) : live(live) {}

  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint previous) override {
    ops.insert(op);
  }
  void notifyOperationErased(Operation *op) override {
    ops.erase(op);
    live.forget(op);
  }

  /// Erases those left unused: a reverse walk sees users before producers.
  void eraseDeadOnes(Operation *root) {
    IRRewriter rewriter(root->getContext());
    root->walk<WalkOrder::PostOrder, ReverseIterator>([&](Operation *op) {
      if (ops.contains(op) && isOpTriviallyDead(op))
        rewriter.eraseOp(op);
    });
  }

  llvm::DenseSet<Operation *> ops;
  LiveOps &live;
};

/// Merges the transposes the pass made of one value by one permutation, in
/// one block, into the first: copies made for users that could not take them
/// after all (populateTransposeSplittingPatterns). Equal transposes the input
/// already had are left as they were.
static void mergeEqualTransposes(Operation *root, const CreatedOps &created) {
  llvm::DenseMap<std::tuple<Value, ArrayRef<int64_t>, Block *>, TransposeOp>
      first;
  root->walk([&](TransposeOp op) {
    auto [it, inserted] =
        first.try_emplace({op.getX(), op.getPerm(), op->getBlock()}, op);
    if (!inserted && created.ops.contains(op))
      op.replaceAllUsesWith(it->second.getResult());
  });
}

struct GraphConvertLayoutPass
    : public graph::impl::GraphConvertLayoutBase<GraphConvertLayoutPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    trimFusedInterfaces(getOperation());
    LiveOps live(getOperation());
    SmallVector<Operation *> convs = getConvsToConvert(getOperation(), live);
    CreatedOps created(live);
    IRRewriter rewriter(context, &created);
    NHWCValues nhwcValues;
    for (Operation *conv : convs) {
      if (auto integer = dyn_cast<ConvIntegerOp>(conv))
        convertConvInteger(rewriter, integer, nhwcValues);
      else
        convertConv(rewriter, cast<Conv2DOp>(conv), nhwcValues);
    }

    // Every pattern moves or removes a transpose: without one, done.
    if (!getOperation()
             ->walk([](TransposeOp) { return WalkResult::interrupt(); })
             .wasInterrupted())
      return;

    RewritePatternSet patterns(context);
    // Dead users do not count as users: the pass does the same with or
    // without graph-eliminate-dead-code before it.
    auto isLive = [&live](Operation *user) { return live.isLive(user); };
    populateTransposeSinkingPatterns(patterns, isLive);
    populateTransposeSplittingPatterns(patterns, isLive);
    patterns.add<SinkTransposeThroughPool<MaxPool2DOp>,
                 SinkTransposeThroughPool<AvgPool2DOp>,
                 SinkTransposeThroughPool<GlobalAvgPoolOp>,
                 SinkTransposesThroughConcat>(context, live);
    // The patterns make the constants they need; nothing else is folded, and
    // ops that were dead already stay for graph-eliminate-dead-code (each
    // pass shows its own effect). What the pass made and no longer needs
    // (layout changes that cancelled) goes.
    if (failed(applyPatternsKeepingDeadOps(
            getOperation(), FrozenRewritePatternSet(std::move(patterns)),
            /*maxRewritesPerOp=*/10, &created)))
      return signalPassFailure();
    mergeEqualTransposes(getOperation(), created);
    created.eraseDeadOnes(getOperation());
  }
};
} // namespace
