//===- LowerFused.cpp - graph.fused to one tiled kernel ---------*- C++ -*-===//
//
// Each graph.fused body, already lowered to linalg on tensors, becomes one
// kernel: the op that produces a yielded value is tiled, and every producer
// in the body is fused into the tile loops, so that the group's intermediates
// only ever exist as tiles. The body is inlined in place of the op first;
// the group is remembered as the set of ops that came from the body, and only
// those are fused.
//
//===----------------------------------------------------------------------===//

#include "Parallelism.h"

#include "graph/Conversion/Passes.h"
#include "graph/Dialect/Graph/IR/ConstantTensor.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/ReferenceKernels.h"

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
#include "graph/Conversion/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

/// Bytes of the root's result tile: large enough to amortize the loop and the
/// recomputed halo of fused convolutions, small enough that the tile and the
/// tiles of its producers stay in L2.
static constexpr int64_t kTileBytes = 128 * 1024;

/// The largest divisor of `size` that is at most `limit` (at least 1). A
/// divisor keeps every tile the same static shape, which vectorizes.
static int64_t largestDivisorAtMost(int64_t size, int64_t limit) {
  for (int64_t t = std::min(size, std::max<int64_t>(limit, 1)); t > 1; --t)
    if (size % t == 0)
      return t;
  return 1;
}

/// Tile sizes for the root of a group, 0 meaning untiled. An NCHW result is
/// tiled by rows only, [1, C, rows, W]: a convolution in the group then
/// computes every output channel of its tile and reads each input row (plus
/// the halo) once. Other results are tiled along their leading dimensions so
/// that the trailing ones stay whole. There are always at least two tiles
/// when the shape allows it, so that no intermediate exists whole.
static SmallVector<int64_t> chooseTileSizes(TilingInterface root) {
  auto type = dyn_cast<RankedTensorType>(root->getResult(0).getType());
  SmallVector<int64_t> sizes(root.getLoopIteratorTypes().size(), 0);
  if (!type || !type.hasStaticShape() ||
      type.getRank() != static_cast<int64_t>(sizes.size()))
    return sizes;
  ArrayRef<int64_t> shape = type.getShape();
  int64_t elemBytes = std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
  int64_t budget = std::max<int64_t>(kTileBytes / elemBytes, 1);

  // The order in which dimensions are split: rows first for NCHW.
  SmallVector<int64_t> order =
      llvm::to_vector(llvm::seq<int64_t>(shape.size()));
  if (shape.size() == 4) {
    order = {0, 2, 1, 3};
    sizes[0] = 1;
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
  if (tileElements() == type.getNumElements()) {
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

/// Tiles the op producing `root` and fuses into its loops every producer of
/// the group.
static void tileAndFuseGroup(RewriterBase &rewriter, Value root,
                             llvm::SetVector<Operation *> &group) {
  auto rootOp = root.getDefiningOp<TilingInterface>();
  if (!rootOp || !group.contains(rootOp))
    return;
  SmallVector<int64_t> tileSizes = chooseTileSizes(rootOp);
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

  void runOnOperation() override {
    SmallVector<FusedOp> fusedOps;
    getOperation()->walk([&](FusedOp op) { fusedOps.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (FusedOp fused : fusedOps) {
      SmallVector<Operation *> bodyOps;
      for (Operation &op : fused.getBody().front().without_terminator())
        bodyOps.push_back(&op);
      llvm::SetVector<Operation *> group(llvm::from_range, bodyOps);
      SmallVector<Value> roots = inlineFusedBody(rewriter, fused);
      foldConstantTransposes(rewriter, bodyOps, group, roots);
      for (Value root : roots)
        tileAndFuseGroup(rewriter, root, group);
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
};
} // namespace
