//===- Vectorize.cpp - Register tiles and vectors for the host --*- C++ -*-===//
//
// Tiles the compute-heavy linalg ops to register-sized tiles and vectorizes
// them, on tensors, before bufferization:
//  - conv_2d_nhwc_hwcf: output tiles [1, 1, OW-tile, F-tile] with KH, KW tiled
//    to 1 and C tiled, decomposed into 1-D convolutions and vectorized; the
//    contraction over C becomes outer products, i.e. broadcast-FMAs into
//    OW-tile x F-tile accumulators that stay in registers across the
//    reduction loops;
//  - depthwise_conv_2d_nhwc_hwc: likewise, with channel tiles;
//  - matmul: M x N x K tiles, the same outer-product micro-kernel;
//  - elementwise ops, fills and broadcasts: one vector per innermost row;
//  - transposes of the innermost dimension (NCHW <-> NHWC around each
//    convolution): blocks of up to 16 x 16, transposed by shuffles;
//  - tensor.pad: a filled buffer that the padded value is inserted into.
// Tiles have static shapes (tile sizes divide the dimensions), which the
// vectorizer needs.
//
//===----------------------------------------------------------------------===//

#include "graph/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHVECTORIZE
#include "graph/Conversion/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

// Register tiles for AVX-512: 16 f32 lanes, 32 vector registers. An 8 x 32
// accumulator tile is 16 registers, leaving room for the weight rows and the
// broadcast inputs.
static constexpr int64_t kRowTile = 8;
static constexpr int64_t kLaneTile = 32;
static constexpr int64_t kReductionTile = 8;
/// f32 lanes of an AVX-512 register.
static constexpr int64_t kVectorLanes = 16;
/// The innermost vector of elementwise ops.
static constexpr int64_t kElementwiseTile = 64;
/// The largest tile of a transpose that swaps the innermost dimension: a
/// 16 x 16 f32 block, transposed by shuffles of whole AVX-512 vectors.
static constexpr int64_t kTransposeTile = 16;

/// The largest divisor of `size` that is at most `limit` (at least 1): tiles
/// that divide their dimension all have the same static shape.
static int64_t divisorTile(int64_t size, int64_t limit) {
  for (int64_t t = std::min(size, std::max<int64_t>(limit, 1)); t > 1; --t)
    if (size % t == 0)
      return t;
  return 1;
}

/// Tile sizes for a transpose that moves the innermost dimension (the layout
/// changes around convolutions): blocks of up to 16 x 16 over the output's
/// innermost dimension and the one read contiguously from the input, 1
/// elsewhere, transposed in registers by shuffles. Only those two dimensions
/// need static sizes.
static std::optional<SmallVector<int64_t>>
chooseTransposeTileSizes(linalg::TransposeOp op) {
  ArrayRef<int64_t> perm = op.getPermutation();
  int64_t rank = perm.size();
  if (rank < 2 || perm.back() == rank - 1)
    return std::nullopt;
  // The output dimension that is innermost in the input.
  int64_t inner = llvm::find(perm, rank - 1) - perm.begin();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ShapedType::isDynamic(ranges[inner]) ||
      ShapedType::isDynamic(ranges.back()))
    return std::nullopt;
  SmallVector<int64_t> sizes(rank, 1);
  sizes[inner] = divisorTile(ranges[inner], kTransposeTile);
  sizes.back() = divisorTile(ranges.back(), kTransposeTile);
  return sizes;
}

/// The lane tile of a channel dimension: whole 16-lane vectors whenever 16
/// divides it (144 channels: 16 lanes, one vector, rather than 24, one and a
/// half; measured faster than 48), else the largest divisor.
static int64_t laneTile(int64_t size) {
  for (int64_t t = kLaneTile; t >= kVectorLanes; t -= kVectorLanes)
    if (size % t == 0)
      return t;
  return divisorTile(size, kLaneTile);
}

static bool hasStaticTensorSemantics(linalg::LinalgOp op) {
  return op.hasPureTensorSemantics() &&
         llvm::all_of(op.getStaticLoopRanges(),
                      [](int64_t s) { return !ShapedType::isDynamic(s); });
}

/// Register tile sizes for `op`, one per loop, or nothing when it is not one
/// of the ops this pass vectorizes.
static std::optional<SmallVector<int64_t>>
chooseTileSizes(linalg::LinalgOp op) {
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op.getOperation()))
    return chooseTransposeTileSizes(transpose);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (isa<linalg::Conv2DNhwcHwcfOp>(op)) {
    // Loops: n, oh, ow, f, kh, kw, c.
    return SmallVector<int64_t>{
        1, 1, divisorTile(ranges[2], kRowTile),      laneTile(ranges[3]),
        1, 1, divisorTile(ranges[6], kReductionTile)};
  }
  if (isa<linalg::DepthwiseConv2DNhwcHwcOp>(op)) {
    // Loops: n, oh, ow, c, kh, kw.
    return SmallVector<int64_t>{
        1, 1, divisorTile(ranges[2], kRowTile), laneTile(ranges[3]), 1, 1};
  }
  if (isa<linalg::MatmulOp>(op)) {
    // Loops: m, n, k.
    return SmallVector<int64_t>{divisorTile(ranges[0], kRowTile),
                                divisorTile(ranges[1], kLaneTile),
                                divisorTile(ranges[2], kReductionTile)};
  }
  // Elementwise: every loop parallel, every operand read through a
  // permutation or broadcast of the loops.
  if (isa<linalg::GenericOp, linalg::FillOp, linalg::BroadcastOp>(op) &&
      op.getNumLoops() > 0 && op.getNumParallelLoops() == op.getNumLoops() &&
      llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
        return map.isProjectedPermutation();
      })) {
    SmallVector<int64_t> sizes(ranges.size(), 1);
    sizes.back() = divisorTile(ranges.back(), kElementwiseTile);
    return sizes;
  }
  return std::nullopt;
}

namespace {
struct GraphVectorizePass
    : public graph::impl::GraphVectorizeBase<GraphVectorizePass> {
  using Base::Base;

  void runOnOperation() override;

private:
  LogicalResult decomposePads();
  LogicalResult tileToRegisters(RewriterBase &rewriter);
  LogicalResult decomposeConvolutions();
  void vectorizeTiles(RewriterBase &rewriter);
  LogicalResult applyCleanups();
  void hoistAccumulators(RewriterBase &rewriter);
  LogicalResult lowerVectorOps();
};
} // namespace

/// A padded tensor becomes a filled buffer into which the source is inserted:
/// the op producing the source then writes straight into the interior of the
/// padded buffer, with no copy, and the fill vectorizes.
LogicalResult GraphVectorizePass::decomposePads() {
  RewritePatternSet patterns(&getContext());
  linalg::populateDecomposePadPatterns(patterns);
  return applyPatternsGreedily(getOperation(), std::move(patterns));
}

/// Tiles every op with register tile sizes into scf.for loops. Ops whose
/// tiles would be the whole op are left as they are.
LogicalResult GraphVectorizePass::tileToRegisters(RewriterBase &rewriter) {
  SmallVector<linalg::LinalgOp> targets;
  getOperation()->walk([&](linalg::LinalgOp op) {
    // A transpose tile may sit in a halo slice of dynamic height: tiling that
    // dimension by 1 gives static tiles all the same.
    bool tileable = isa<linalg::TransposeOp>(op.getOperation())
                        ? op.hasPureTensorSemantics()
                        : hasStaticTensorSemantics(op);
    if (tileable && chooseTileSizes(op))
      targets.push_back(op);
  });
  for (linalg::LinalgOp op : targets) {
    SmallVector<int64_t> sizes = *chooseTileSizes(op);
    if (sizes == op.getStaticLoopRanges())
      continue;
    scf::SCFTilingOptions options;
    options.setTileSizes(getAsIndexOpFoldResult(&getContext(), sizes));
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled))
      return op.emitOpError("could not be tiled to registers");
    rewriter.replaceOp(op, tiled->replacements);
  }
  return success();
}

/// 2-D convolutions with one output row and one kernel row become 1-D ones,
/// which the vectorizer handles.
LogicalResult GraphVectorizePass::decomposeConvolutions() {
  RewritePatternSet patterns(&getContext());
  linalg::populateDecomposeConvolutionPatterns(patterns);
  return applyPatternsGreedily(getOperation(), std::move(patterns));
}

/// Vectorizes the register tiles: the ops with static shapes small enough to
/// live in registers.
void GraphVectorizePass::vectorizeTiles(RewriterBase &rewriter) {
  SmallVector<linalg::LinalgOp> targets;
  getOperation()->walk([&](linalg::LinalgOp op) {
    if (!hasStaticTensorSemantics(op))
      return;
    if (isa<linalg::Conv1DNwcWcfOp, linalg::DepthwiseConv1DNwcWcOp>(op)) {
      targets.push_back(op);
      return;
    }
    std::optional<SmallVector<int64_t>> sizes = chooseTileSizes(op);
    if (sizes && *sizes == op.getStaticLoopRanges())
      targets.push_back(op);
  });
  for (linalg::LinalgOp op : targets) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::VectorizationResult> result = linalg::vectorize(
        rewriter, op, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
        /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
        /*assumeDynamicDimsMatchVecSizes=*/false,
        /*createNamedContraction=*/isa<linalg::MatmulOp>(op));
    // An op the vectorizer does not handle stays scalar: slower, as correct.
    if (failed(result))
      continue;
    rewriter.replaceOp(op, result->replacements);
  }
}

/// Folds the slices into the vector transfers and the transfers into each
/// other, so that the reads and writes of an accumulator tile face each
/// other across the reduction loops.
LogicalResult GraphVectorizePass::applyCleanups() {
  MLIRContext *context = &getContext();
  RewritePatternSet patterns(context);
  tensor::populateFoldTensorSubsetOpPatterns(patterns);
  vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
  vector::populateVectorReductionToContractPatterns(patterns);
  vector::populateSinkVectorOpsPatterns(patterns);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, context);
  return applyPatternsGreedily(getOperation(), std::move(patterns));
}

/// Moves the read and write of each accumulator out of the reduction loops,
/// innermost loop first, so that it is carried in registers.
void GraphVectorizePass::hoistAccumulators(RewriterBase &rewriter) {
  SmallVector<scf::ForOp> loops;
  getOperation()->walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops)
    (void)hoistLoopInvariantSubsets(rewriter, loop);
}

/// Lowers contractions to outer products and those to FMAs, the form LLVM
/// maps onto broadcast-FMA instructions. convert-vector-to-llvm lowers the
/// rest (broadcasts, shape casts; lowering broadcasts here would fight the
/// unit-dimension folding).
LogicalResult GraphVectorizePass::lowerVectorOps() {
  MLIRContext *context = &getContext();
  RewritePatternSet patterns(context);
  vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
  vector::populateVectorContractLoweringPatterns(
      patterns, vector::VectorContractLowering::OuterProduct);
  vector::populateVectorOuterProductLoweringPatterns(patterns);
  vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
  // 16 x 16 f32 transposes (the transpose tiles) by shuffles of whole
  // vectors, other 2-D ones by one flat shuffle.
  vector::populateVectorTransposeLoweringPatterns(
      patterns, vector::VectorTransposeLowering::Shuffle16x16);
  vector::populateVectorMultiReductionLoweringPatterns(
      patterns, vector::VectorMultiReductionLowering::InnerParallel);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, context);
  return applyPatternsGreedily(getOperation(), std::move(patterns));
}

void GraphVectorizePass::runOnOperation() {
  IRRewriter rewriter(&getContext());
  if (failed(decomposePads()) || failed(tileToRegisters(rewriter)) ||
      failed(decomposeConvolutions()))
    return signalPassFailure();
  vectorizeTiles(rewriter);
  if (failed(applyCleanups()))
    return signalPassFailure();
  hoistAccumulators(rewriter);
  if (failed(lowerVectorOps()))
    return signalPassFailure();
}
