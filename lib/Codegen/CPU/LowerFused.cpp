//===- LowerFused.cpp - graph.fused to one tiled kernel ---------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each graph.fused body, already lowered to linalg on tensors, becomes one
// kernel. The body is inlined in place of the op first; the group is
// remembered as the set of ops that came from the body, and only those are
// fused, so that the lowering fuses nothing that graph-fuse did not group:
//  - the group's elementwise linalg.generics are merged into one generic per
//    tree (one loop nest, no intermediate at all), in one step for the whole
//    tree rather than pair by pair, whose bodies would be cloned again at
//    every step (quadratic in the length of a chain: MergeElementwise.cpp);
//  - then the op that produces a yielded value is tiled, and every producer
//    left in the group (a convolution and what it reads) is fused into the
//    tile loops, so that the group's intermediates only ever exist as tiles.
// Padded inputs and results at the group's edges are written in place by
// their producers (PaddedGroups.cpp).
//
//===----------------------------------------------------------------------===//

#include "FusedGroup.h"
#include "PaddedBuffer.h"
#include "Parallelism.h"

#include "graph/Codegen/CPU/Passes.h"
#include "graph/Conversion/PackedContraction.h"
#include "graph/Dialect/Graph/IR/ConstantTensor.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/ReferenceKernels.h"
#include "graph/Target/CPU/PassTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHLOWERFUSED
#include "graph/Codegen/CPU/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

/// Bytes of the root's result tile: large enough to amortize the loop and the
/// recomputed halo of fused convolutions, small enough that the tile and the
/// tiles of its producers (up to three in a conv -> batch_norm -> relu -> add
/// group, plus the halo rows) stay in the core's L2. An eighth of the L2 is
/// fitted to ResNet-18 and MobileNetV2 on Zen 4 (1 MiB L2: 128 KiB tiles);
/// Zen 3 and Skylake-client cores (512 and 256 KiB) get 64 and 32 KiB.
static int64_t getTileBytes(const CPUTarget &target) {
  return std::clamp<int64_t>(target.l2Bytes / 8, 16 * 1024, 512 * 1024);
}

/// The largest divisor of `size` that is at most `limit` (at least 1). A
/// divisor keeps every tile the same static shape, which vectorizes.
static int64_t largestDivisorAtMost(int64_t size, int64_t limit) {
  for (int64_t t = std::min(size, std::max<int64_t>(limit, 1)); t > 1; --t)
    if (size % t == 0)
      return t;
  return 1;
}

/// A divisor of `size` at most `limit` whose count of tiles is a multiple of
/// 4, else of 2, else the largest (largestDivisorAtMost); always more than
/// half the largest, since every tile reads the whole of the other operand.
/// The tiles are shared among the threads: 3 tiles on 2 threads leave one
/// idle for a third of the time.
static int64_t chooseEvenDivisor(int64_t size, int64_t limit) {
  int64_t largest = largestDivisorAtMost(size, limit);
  for (int64_t multiple : {4, 2})
    for (int64_t t = largest; 2 * t > largest; --t)
      if (size % t == 0 && (size / t) % multiple == 0)
        return t;
  return largest;
}

/// Tile sizes for the root of a group, 0 meaning untiled. A 4-D result is
/// tiled by rows only, [1, C, rows, W] in NCHW and [1, rows, W, C] in NHWC
/// (`channelsLast`): a convolution in the group then computes every output
/// channel of its tile, along whole rows that its register tiles cover, and
/// reads each input row (plus the halo) once. Other results are tiled along
/// their leading dimensions so that the trailing ones stay whole. There are
/// always at least two tiles when the shape allows it, so that no
/// intermediate exists whole.
static SmallVector<int64_t> chooseTileSizes(ArrayRef<int64_t> shape,
                                            int64_t elemBytes,
                                            bool channelsLast,
                                            int64_t tileBytes) {
  SmallVector<int64_t> sizes(shape.size(), 0);
  int64_t budget = std::max<int64_t>(tileBytes / elemBytes, 1);
  int64_t numElements = 1;
  for (int64_t dim : shape)
    numElements *= dim;

  // The order in which dimensions are split: rows first.
  SmallVector<int64_t> order =
      llvm::to_vector(llvm::seq<int64_t>(shape.size()));
  if (shape.size() == 4) {
    if (!channelsLast)
      order = {0, 2, 1, 3};
    sizes[0] = 1;
  }
  // Channels-last results with few rows (ResNet-18's last stage: 7 x 7 x
  // 512) are split along the channels rather than into 1-row tiles: a
  // convolution's tile then reads only its channels' weights, where each
  // row tile would stream all of them (9.4 MB there) once more, and covers
  // the whole map, which its register tiles (2 x 7 pixels) need. From 256
  // channels on, a 3 x 3 convolution's weights (2.4 MB) outgrow the L2.
  // The channels go in runs of 32 (whole panels on every target), at least
  // two tiles, as many as the budget needs.
  if (channelsLast && shape.size() == 4 &&
      largestDivisorAtMost(shape[1], shape[1] / 2) < 4 && shape[3] >= 256 &&
      shape[3] % 32 == 0) {
    int64_t runs = shape[3] / 32;
    int64_t mapElements = shape[1] * shape[2] * 32;
    sizes[3] = 32 * largestDivisorAtMost(
                        runs, std::min(runs / 2, budget / mapElements));
    if (shape[0] == 1)
      sizes[0] = 0;
    return sizes;
  }

  auto tileOf = [&](int64_t d) { return sizes[d] ? sizes[d] : shape[d]; };
  auto tileElements = [&]() {
    int64_t n = 1;
    for (int64_t d : order)
      n *= tileOf(d);
    return n;
  };

  // Split the dimensions in order until the tile fits the budget.
  for (int64_t d : order) {
    if (tileElements() <= budget)
      break;
    int64_t rest = tileElements() / tileOf(d);
    sizes[d] =
        largestDivisorAtMost(shape[d], budget / std::max<int64_t>(rest, 1));
  }
  // A tile as large as the result would leave the intermediates whole.
  if (tileElements() == numElements) {
    for (int64_t d : order) {
      if (shape[d] > 1) {
        sizes[d] = largestDivisorAtMost(shape[d], shape[d] / 2);
        break;
      }
    }
  }
  // A whole dimension needs no loop.
  for (auto [size, dim] : llvm::zip(sizes, shape))
    if (size == dim)
      size = 0;
  return sizes;
}

/// chooseTileSizes for the result of `root`; no tiles (all 0) where its
/// shape is dynamic or its loops are not its result's dimensions.
static SmallVector<int64_t>
chooseTileSizes(TilingInterface root, bool channelsLast, int64_t tileBytes) {
  auto type = dyn_cast<RankedTensorType>(root->getResult(0).getType());
  size_t numLoops = root.getLoopIteratorTypes().size();
  if (!type || !type.hasStaticShape() ||
      type.getRank() != static_cast<int64_t>(numLoops))
    return SmallVector<int64_t>(numLoops, 0);
  return chooseTileSizes(
      type.getShape(), std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1),
      channelsLast, tileBytes);
}

/// Permutes `linalg.transpose` of a constant at compile time: in a fused body
/// the weights are block arguments, so the conversion to linalg could not.
/// A folded transpose that produced one of the `roots` is replaced there too.
static void foldConstantTransposes(RewriterBase &rewriter,
                                   ArrayRef<Operation *> ops,
                                   llvm::SetVector<Operation *> &group,
                                   MutableArrayRef<Value> roots) {
  for (Operation *op : ops) {
    auto transpose = dyn_cast<linalg::TransposeOp>(op);
    if (!transpose || !transpose.hasPureTensorSemantics())
      continue;
    Attribute attr;
    if (!matchPattern(transpose.getInput(), m_Constant(&attr)))
      continue;
    std::optional<ConstantTensor> constant = readConstantTensor(attr);
    auto resultType =
        cast<RankedTensorType>(transpose.getResult()[0].getType());
    if (!constant || !resultType.getElementType().isF32())
      continue;
    DenseElementsAttr permuted;
    if (constant->isSplat) {
      permuted = makeSplatTensor(resultType, constant->splatValue);
    } else {
      SmallVector<float> values(constant->getNumElements());
      reference::transpose(constant->values,
                           transpose.getInput().getType().getShape(),
                           transpose.getPermutation(), values);
      permuted = makeConstantTensor(resultType, values);
    }
    rewriter.setInsertionPoint(transpose);
    auto folded =
        arith::ConstantOp::create(rewriter, transpose.getLoc(), permuted);
    for (Value &root : roots)
      if (root == transpose.getResult()[0])
        root = folded.getResult();
    rewriter.replaceOp(transpose, folded);
    group.remove(transpose);
  }
}

/// Replaces `fused` by its body: block arguments by the operands, the results
/// by the yielded values. Returns the yielded values.
static SmallVector<Value> inlineFusedBody(RewriterBase &rewriter,
                                          FusedOp fused) {
  YieldOp yield = fused.getYield();
  Block &body = fused.getBody().front();
  // A yielded block argument dies with the block: it stands for its operand.
  SmallVector<Value> results;
  for (Value value : yield.getValues()) {
    auto arg = dyn_cast<BlockArgument>(value);
    results.push_back(arg && arg.getOwner() == &body
                          ? fused.getInputs()[arg.getArgNumber()]
                          : value);
  }
  rewriter.eraseOp(yield);
  rewriter.inlineBlockBefore(&body, fused, fused.getInputs());
  rewriter.replaceOp(fused, results);
  return results;
}

/// Whether `slice` extracts the whole of a statically shaped tensor.
static bool isWholeSlice(tensor::ExtractSliceOp slice) {
  RankedTensorType sourceType = slice.getSourceType();
  return sourceType.hasStaticShape() &&
         llvm::all_of(slice.getMixedOffsets(),
                      [](OpFoldResult ofr) { return isZeroInteger(ofr); }) &&
         slice.getStaticSizes() == sourceType.getShape() &&
         slice.hasUnitStride();
}

/// Whether the group computes in NHWC, channels innermost, all through: an
/// NHWC conv2d or pool (graph-convert-layout's) lowers to a linalg NHWC op
/// and no transpose; an NCHW one to the same linalg op between transposes.
static bool isChannelsLastGroup(const llvm::SetVector<Operation *> &group) {
  bool nhwcOp = false;
  for (Operation *op : group) {
    if (isa<linalg::TransposeOp>(op))
      return false;
    nhwcOp |= isa<linalg::Conv2DNhwcHwcfOp, linalg::DepthwiseConv2DNhwcHwcOp,
                  linalg::PoolingNhwcMaxOp, linalg::PoolingNhwcSumOp>(op) ||
              isPackedConv(op);
  }
  return nhwcOp;
}

/// The dimension of a view of panels (N/n0 x n0 collapsed into N) where
/// the panels are: the only reassociation group of two.
static std::optional<int64_t> getPanelDim(tensor::CollapseShapeOp view) {
  std::optional<int64_t> dim;
  for (auto [i, indices] : llvm::enumerate(view.getReassociationIndices())) {
    if (indices.size() == 1)
      continue;
    if (indices.size() != 2 || dim)
      return std::nullopt;
    dim = indices.front();
  }
  return dim;
}

/// Whether `view` is the view without panels of a contraction by packed
/// weights (isPackedContraction): of its result, or of that result
/// transposed (an NCHW convolution's, N x F/f0 x f0 x OH x OW).
static bool isPanelView(tensor::CollapseShapeOp view) {
  Operation *source = view.getSrc().getDefiningOp();
  if (auto transpose = dyn_cast_or_null<linalg::TransposeOp>(source))
    source = transpose.getInput().getDefiningOp();
  return isPackedContraction(source) && getPanelDim(view);
}

/// Runs the elementwise epilogue of a contraction by packed weights
/// (isPackedContraction) over its panels, so that the contraction fuses
/// into the epilogue's tiles: the view of the contraction without panels
/// (a tensor.collapse_shape of M x N/n0 x n0 to M x N, or of N x OH x OW x
/// F/f0 x f0 to N x OH x OW x F, which tiling cannot fuse through) is read
/// by an elementwise generic of the group, whose loop over N (F) becomes
/// two, (panel, column), and whose operands indexed by it are viewed N/n0 x
/// n0. Its result is collapsed for the group's users instead.
static void expandPanelEpilogues(RewriterBase &rewriter,
                                 llvm::SetVector<Operation *> &group) {
  SmallVector<std::pair<tensor::CollapseShapeOp, linalg::GenericOp>> uses;
  for (Operation *op : group) {
    auto collapse = dyn_cast<tensor::CollapseShapeOp>(op);
    if (!collapse || !isPanelView(collapse) || !collapse->hasOneUse())
      continue;
    auto epilogue = dyn_cast<linalg::GenericOp>(*collapse->user_begin());
    if (!epilogue || !group.contains(epilogue) ||
        !isMergeableElementwise(epilogue) ||
        epilogue.getNumLoops() != collapse.getResultType().getRank() ||
        !epilogue.getMatchingIndexingMap(epilogue.getDpsInitOperand(0))
             .isIdentity())
      continue;
    // One expansion per epilogue: one that reads two products by packed
    // panels (possible in a hand-written group) is expanded for the first.
    if (llvm::any_of(uses,
                     [&](const auto &use) { return use.second == epilogue; }))
      continue;
    uses.emplace_back(collapse, epilogue);
  }
  for (auto [collapse, epilogue] : uses) {
    auto panelType = cast<RankedTensorType>(collapse.getSrcType());
    int64_t rank = panelType.getRank(), split = *getPanelDim(collapse);
    int64_t panels = panelType.getDimSize(split);
    int64_t n0 = panelType.getDimSize(split + 1);
    MLIRContext *context = rewriter.getContext();
    Location loc = epilogue.getLoc();
    rewriter.setInsertionPoint(epilogue);
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    bool expandable = true;
    for (OpOperand *operand : epilogue.getDpsInputOperands()) {
      AffineMap map = epilogue.getMatchingIndexingMap(operand);
      if (operand->get() == collapse.getResult()) {
        if (!map.isIdentity()) {
          expandable = false;
          break;
        }
        inputs.push_back(collapse.getSrc());
        maps.push_back(AffineMap::getMultiDimIdentityMap(rank, context));
        continue;
      }
      auto type = cast<RankedTensorType>(operand->get().getType());
      SmallVector<AffineExpr> exprs;
      SmallVector<int64_t> shape;
      SmallVector<ReassociationIndices> reassociation;
      for (auto [i, expr] : llvm::enumerate(map.getResults())) {
        auto dim = dyn_cast<AffineDimExpr>(expr);
        int64_t first = shape.size();
        if (dim && dim.getPosition() == split) {
          exprs.append({getAffineDimExpr(split, context),
                        getAffineDimExpr(split + 1, context)});
          shape.append({panels, n0});
          reassociation.push_back({first, first + 1});
          continue;
        }
        if (dim)
          exprs.push_back(getAffineDimExpr(
              dim.getPosition() + (dim.getPosition() > split), context));
        else if (isa<AffineConstantExpr>(expr))
          exprs.push_back(expr);
        else
          expandable = false;
        shape.push_back(type.getDimSize(i));
        reassociation.push_back({first});
      }
      if (!expandable)
        break;
      Value input = operand->get();
      if (shape.size() != static_cast<size_t>(type.getRank()))
        input = tensor::ExpandShapeOp::create(
            rewriter, loc, RankedTensorType::get(shape, type.getElementType()),
            input, reassociation);
      inputs.push_back(input);
      maps.push_back(AffineMap::get(rank, 0, exprs, context));
    }
    if (!expandable)
      continue;
    maps.push_back(AffineMap::getMultiDimIdentityMap(rank, context));
    auto resultType = RankedTensorType::get(
        panelType.getShape(),
        cast<RankedTensorType>(epilogue.getResult(0).getType())
            .getElementType());
    Value init = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                         resultType.getElementType());
    auto expanded = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps,
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel));
    rewriter.inlineRegionBefore(epilogue.getRegion(), expanded.getRegion(),
                                expanded.getRegion().begin());
    auto view = tensor::CollapseShapeOp::create(
        rewriter, loc, epilogue.getResult(0).getType(), expanded.getResult(0),
        collapse.getReassociationIndices());
    rewriter.replaceOp(epilogue, view.getResult());
    group.remove(epilogue);
    group.insert(expanded);
    group.insert(view);
  }
}

/// Tile sizes for a root that computes over panels, viewed without them by
/// `view` (an epilogue that expandPanelEpilogues expanded, or the
/// contraction itself). M x N/n0 x n0 (a matrix product): whole rows, a run
/// of panels whose tile fits the budget (at least two tiles when there are
/// two panels, and an even count where one is near: chooseEvenDivisor). A
/// product's tile then computes every row for its panels,
/// each panel of weights read once, and its register tiles cover the rows
/// whatever M is (the last row tile is peeled); tiles along rows would read
/// every weight once per row tile, and a prime M (197 tokens) would give
/// one-row tiles. A convolution's: the tiles of its 4-D view
/// (chooseTileSizes), in whole panels.
static SmallVector<int64_t> choosePanelTileSizes(TilingInterface root,
                                                 tensor::CollapseShapeOp view,
                                                 int64_t tileBytes) {
  auto type = cast<RankedTensorType>(root->getResult(0).getType());
  int64_t elemBytes = std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
  int64_t split = *getPanelDim(view);
  ArrayRef<int64_t> shape = type.getShape();
  int64_t panels = shape[split], n0 = shape[split + 1];
  if (type.getRank() == 3) {
    int64_t m = shape[0];
    if (panels < 2)
      return chooseTileSizes(root, /*channelsLast=*/false, tileBytes);
    int64_t budget = std::max<int64_t>(tileBytes / (elemBytes * m * n0), 1);
    return {0, chooseEvenDivisor(panels, std::min(budget, panels / 2)), 0};
  }
  ArrayRef<int64_t> viewShape = view.getResultType().getShape();
  SmallVector<int64_t> sizes = chooseTileSizes(
      viewShape, elemBytes, /*channelsLast=*/split == 3, tileBytes);
  // The channels' tile in whole panels; otherwise all channels.
  int64_t channels = sizes[split] ? sizes[split] : viewShape[split];
  sizes[split] =
      channels % n0 == 0 && channels != viewShape[split] ? channels / n0 : 0;
  sizes.insert(sizes.begin() + split + 1, 0);
  return sizes;
}

/// Tiles the op producing `root` and fuses into its loops every producer of
/// the group.
static void tileAndFuseGroup(RewriterBase &rewriter, int64_t tileBytes,
                             Value root, llvm::SetVector<Operation *> &group,
                             tensor::CollapseShapeOp panelView) {
  auto rootOp = root.getDefiningOp<TilingInterface>();
  if (!rootOp || !group.contains(rootOp))
    return;
  // Without a producer to fuse (a merged elementwise group), its own loops
  // are the kernel.
  if (llvm::none_of(rootOp->getOperands(), [&](Value operand) {
        Operation *def = operand.getDefiningOp();
        return def && group.contains(def) && isa<TilingInterface>(def);
      }))
    return;
  SmallVector<int64_t> tileSizes =
      panelView
          ? choosePanelTileSizes(rootOp, panelView, tileBytes)
          : chooseTileSizes(rootOp, isChannelsLastGroup(group), tileBytes);
  if (llvm::all_of(tileSizes, [](int64_t t) { return t == 0; }))
    return;

  scf::SCFTilingOptions tilingOptions;
  tilingOptions.setTileSizes(
      getAsIndexOpFoldResult(rewriter.getContext(), tileSizes));
  // The tiles are independent: with enough work in the group they are
  // computed in parallel.
  int64_t work = 0;
  for (Operation *op : group)
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      work += getStaticWork(linalgOp);
  if (work >= kMinParallelWork)
    tilingOptions.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tilingOptions);
  options.setFusionControlFn(
      [&](tensor::ExtractSliceOp slice, OpResult producer,
          bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (!group.contains(producer.getOwner()))
          return std::nullopt;
        // What every tile reads whole (weights) is computed once, before the
        // loops.
        if (isWholeSlice(slice))
          return std::nullopt;
        if (auto pad = dyn_cast<tensor::PadOp>(producer.getOwner());
            pad && isPaddedGroupInput(pad, group))
          return std::nullopt;
        return scf::SCFTileAndFuseOptions::ControlFnResult{};
      });

  rewriter.setInsertionPoint(rootOp);
  FailureOr<scf::SCFTileAndFuseResult> result =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, rootOp, options);
  // An op that cannot be tiled stays whole: slower and larger, as correct.
  if (failed(result))
    return;
  for (OpResult value : rootOp->getResults())
    rewriter.replaceAllUsesWith(value, result->replacements.lookup(value));
}

/// The values the group computes for ops outside it: its results.
static SmallVector<Value>
getGroupResults(const llvm::SetVector<Operation *> &group) {
  SmallVector<Value> results;
  for (Operation *op : group)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(),
                       [&](Operation *user) { return !group.contains(user); }))
        results.push_back(result);
  return results;
}

/// Erases the ops of the group that tiling left without users. The group is
/// in program order, so a reverse sweep sees each consumer before its
/// producers.
static void eraseDeadGroupOps(RewriterBase &rewriter,
                              llvm::SetVector<Operation *> &group) {
  SmallVector<Operation *> ops = group.takeVector();
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      rewriter.eraseOp(op);
}

namespace {
struct GraphLowerFusedPass
    : public graph::impl::GraphLowerFusedBase<GraphLowerFusedPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    FailureOr<CPUTarget> target =
        getPassTarget(context, getArgument(), targetCpu, targetFeatures);
    if (failed(target))
      return failure();
    tileBytes = getTileBytes(*target);
    return success();
  }

  void runOnOperation() override {
    SmallVector<FusedOp> fusedOps;
    getOperation()->walk([&](FusedOp op) { fusedOps.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (FusedOp fused : fusedOps) {
      SmallVector<Operation *> bodyOps;
      for (Operation &op : fused.getBody().front().without_terminator())
        bodyOps.push_back(&op);
      llvm::SetVector<Operation *> group(llvm::from_range, bodyOps);
      // The group's results are found after the merges below, so the values
      // the body yielded are not needed (a yielded block argument is no
      // result of the group; a folded transpose leaves it).
      (void)inlineFusedBody(rewriter, fused);
      foldConstantTransposes(rewriter, bodyOps, group, /*roots=*/{});
      mergeElementwiseOps(rewriter, group);
      expandPanelEpilogues(rewriter, group);
      padGroupInputsInPlace(rewriter, group);
      padGroupResultsInPlace(rewriter, group);
      for (Value root : getGroupResults(group)) {
        // A padded result: tile what goes into its interior, with the tiles
        // of its view without panels if it has one.
        if (auto view = root.getDefiningOp<tensor::CollapseShapeOp>();
            view && group.contains(view))
          if (auto inserted =
                  view.getSrc().getDefiningOp<tensor::InsertSliceOp>())
            root = inserted;
        if (auto inserted = root.getDefiningOp<tensor::InsertSliceOp>();
            inserted && group.contains(inserted) &&
            group.contains(inserted.getSource().getDefiningOp())) {
          root = inserted.getSource();
          for (Operation *user : root.getUsers())
            if (auto view = dyn_cast<tensor::CollapseShapeOp>(user);
                view && view.use_empty() && group.contains(view) &&
                getPanelDim(view) &&
                !isPackedContraction(root.getDefiningOp())) {
              tileAndFuseGroup(rewriter, tileBytes, root, group, view);
              root = Value();
              break;
            }
          if (!root)
            continue;
        }
        // The view of a computation over packed panels: tile what it views.
        tensor::CollapseShapeOp panelView;
        if (auto view = root.getDefiningOp<tensor::CollapseShapeOp>();
            view && group.contains(view) && getPanelDim(view) &&
            !isPackedContraction(view.getSrc().getDefiningOp())) {
          root = view.getSrc();
          panelView = view;
        }
        tileAndFuseGroup(rewriter, tileBytes, root, group, panelView);
      }
      eraseDeadGroupOps(rewriter, group);
    }
    // Tiling leaves slices of the untiled ops and of full-size empty tensors
    // behind: erase the former and shrink the latter to the tile, so that
    // bufferization allocates tiles only.
    RewritePatternSet patterns(&getContext());
    tensor::populateFoldTensorEmptyPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }

private:
  int64_t tileBytes = 0;
};
} // namespace
