//===- Vectorize.cpp - Register tiles and vectors for the target -*- C++
//-*-===//
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
//  - elementwise ops, fills and broadcasts: a few vectors per innermost row;
//  - transposes of the innermost dimension (NCHW <-> NHWC around each
//    convolution): square blocks of one vector's lanes, by shuffles;
//  - tensor.pad: a filled buffer that the padded value is inserted into.
// Tiles have static shapes (tile sizes divide the dimensions), which the
// vectorizer needs. Every size follows from the target description
// (CPUTarget): vector lanes and the register file.
//
//===----------------------------------------------------------------------===//

#include "Parallelism.h"

#include "graph/Conversion/PackedMatmul.h"
#include "graph/Conversion/Passes.h"
#include "graph/Target/CPU/CPUTarget.h"
#include "graph/Target/CPU/KernelConfig.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
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

// Every tile size that becomes the innermost dimension of a vector is a
// power of two (powerOfTwoTile): LLVM's handling of odd vector types
// (<6 x float>, <24 x float>) is where its bugs live. One was found here:
// 6-wide transposes of a grouped, padded convolution, optimized for Sandy
// Bridge (AVX without FMA), gave wrong values once `infer-alignment` had run
// (test/Integration/targets/avx.test). Power-of-two vectors are also the
// ones that map onto whole registers.

/// Vectors per row of an elementwise kernel: four loads in flight.
static constexpr int64_t kElementwiseVectors = 4;

/// Tile sizes for a transpose that moves the innermost dimension (the layout
/// changes around convolutions): square blocks of one vector's lanes over
/// the output's innermost dimension and the one read contiguously from the
/// input, 1 elsewhere, transposed in registers by shuffles. Only those two
/// dimensions need static sizes.
static std::optional<SmallVector<int64_t>>
chooseTransposeTileSizes(const CPUTarget &target, linalg::TransposeOp op) {
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
  int64_t block = target.getF32Lanes();
  SmallVector<int64_t> sizes(rank, 1);
  sizes[inner] = powerOfTwoTile(ranges[inner], block);
  sizes.back() = powerOfTwoTile(ranges.back(), block);
  return sizes;
}

static bool hasStaticTensorSemantics(linalg::LinalgOp op) {
  return op.hasPureTensorSemantics() &&
         llvm::all_of(op.getStaticLoopRanges(),
                      [](int64_t s) { return !ShapedType::isDynamic(s); });
}

/// Register tile sizes for `op`, one per loop, or nothing when it is not one
/// of the ops this pass vectorizes.
static std::optional<SmallVector<int64_t>>
chooseTileSizes(const CPUTarget &target, linalg::LinalgOp op) {
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op.getOperation()))
    return chooseTransposeTileSizes(target, transpose);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (isa<linalg::Conv2DNhwcHwcfOp>(op)) {
    // Loops: n, oh, ow, f, kh, kw, c.
    RegisterTile tile =
        chooseRegisterTile(target, ranges[2], ranges[3], kBroadcastFMA);
    return SmallVector<int64_t>{1,
                                1,
                                tile.rows,
                                tile.lanes,
                                1,
                                1,
                                powerOfTwoTile(ranges[6], kReductionTile)};
  }
  if (isa<linalg::DepthwiseConv2DNhwcHwcOp>(op)) {
    // Loops: n, oh, ow, c, kh, kw.
    RegisterTile tile =
        chooseRegisterTile(target, ranges[2], ranges[3], kDepthwise);
    return SmallVector<int64_t>{1, 1, tile.rows, tile.lanes, 1, 1};
  }
  if (isPackedMatmul(op)) {
    // Loops: m, panel, column, k. The packing chose n0 for this target;
    // weights packed for another one get the rows that suit their n0.
    int64_t m = ranges[0], panels = ranges[1], n0 = ranges[2];
    MatmulConfig config = chooseMatmulConfig(target, m, panels * n0, ranges[3]);
    if (config.panelColumns != n0) {
      config.rows = chooseRegisterTile(target, m, n0, kBroadcastFMA,
                                       /*exactRows=*/false)
                        .rows;
      config.panels = 1;
    }
    return SmallVector<int64_t>{config.rows, config.panels, n0, config.kTile};
  }
  if (isa<linalg::MatmulOp>(op)) {
    // Loops: m, n, k.
    RegisterTile tile =
        chooseRegisterTile(target, ranges[0], ranges[1], kBroadcastFMA);
    return SmallVector<int64_t>{tile.rows, tile.lanes,
                                powerOfTwoTile(ranges[2], kReductionTile)};
  }
  if (isa<linalg::BatchMatmulOp>(op)) {
    // Loops: batch, m, n, k: one matrix of the batch per tile, the register
    // tile of a matmul (attention's Q.K^T and P.V, both operands computed).
    RegisterTile tile =
        chooseRegisterTile(target, ranges[1], ranges[2], kBroadcastFMA);
    // Columns that no vector divides (197 keys) would make scalar tiles
    // whose contraction is a reduction per element: slower than the loops
    // LLVM makes of the untiled op.
    if (tile.lanes < target.getF32Lanes())
      return std::nullopt;
    return SmallVector<int64_t>{1, tile.rows, tile.lanes,
                                powerOfTwoTile(ranges[3], kReductionTile)};
  }
  // Elementwise: every loop parallel, every operand read through a
  // permutation or broadcast of the loops.
  if (isa<linalg::GenericOp, linalg::FillOp, linalg::BroadcastOp>(op) &&
      op.getNumLoops() > 0 && op.getNumParallelLoops() == op.getNumLoops() &&
      llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
        return map.isProjectedPermutation();
      })) {
    SmallVector<int64_t> sizes(ranges.size(), 1);
    sizes.back() = powerOfTwoTile(ranges.back(),
                                  kElementwiseVectors * target.getF32Lanes());
    return sizes;
  }
  return std::nullopt;
}

namespace {
struct GraphVectorizePass
    : public graph::impl::GraphVectorizeBase<GraphVectorizePass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    llvm::Expected<CPUTarget> described =
        CPUTarget::get(targetCpu, targetFeatures);
    if (!described)
      return emitError(UnknownLoc::get(context))
             << "graph-vectorize: " << llvm::toString(described.takeError());
    target = std::move(*described);
    return success();
  }

  void runOnOperation() override;

private:
  CPUTarget target;
  /// Whether tileToRegisters peeled a loop, whose tiles then need their
  /// static shapes inferred before vectorization.
  bool peeled = false;

  LogicalResult decomposePads();
  LogicalResult inferStaticTiles();
  LogicalResult distributeOverThreads(RewriterBase &rewriter);
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

/// The order of the register tiles' loops, when not the op's own: the loop
/// over the weights' output channels (panels) outermost where the weights
/// outgrow the core's L2 and are the larger operand, so that one block of
/// weights stays in the caches while every tile of activations streams past
/// it, rather than all weights streaming once per row of output (ResNet-18's
/// last stage: 9.4 MB of weights for a 7 x 7 x 512 output, seven times).
/// Weights packed into panels are streamed that way whatever their size.
static std::optional<SmallVector<int64_t>>
chooseInterchange(const CPUTarget &target, linalg::LinalgOp op) {
  // Loops: m, panel, column, k.
  if (isPackedMatmul(op))
    return SmallVector<int64_t>{1, 0, 2, 3};
  if (!isa<linalg::Conv2DNhwcHwcfOp>(op))
    return std::nullopt;
  auto bytes = [](Value value) {
    auto type = cast<RankedTensorType>(value.getType());
    return type.getNumElements() * type.getElementTypeBitWidth() / 8;
  };
  // Loops: n, oh, ow, f, kh, kw, c.
  int64_t weightBytes = bytes(op.getDpsInputOperand(1)->get());
  if (weightBytes <= bytes(op.getDpsInputOperand(0)->get()) ||
      weightBytes <= target.l2Bytes / 2)
    return std::nullopt;
  return SmallVector<int64_t>{3, 0, 1, 2, 4, 5, 6};
}

/// The dimension of `op` whose slices the threads share, and the slice size:
/// the outermost parallel dimension with more than one register tile (output
/// rows of a convolution, rows of a matmul), or the weights' output channels
/// where those come first (chooseInterchange: each thread then streams only
/// its own part of the weights, where slices of rows would each stream all
/// of them), cut into at most kParallelSlices slices of whole register tiles.
static std::optional<std::pair<unsigned, int64_t>>
chooseParallelDimension(const CPUTarget &target, linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> tiles =
      chooseTileSizes(target, op).value_or(SmallVector<int64_t>());
  SmallVector<unsigned> order =
      llvm::to_vector(llvm::seq<unsigned>(0, ranges.size()));
  if (std::optional<SmallVector<int64_t>> interchange =
          chooseInterchange(target, op))
    order.insert(order.begin(), unsigned((*interchange)[0]));
  for (unsigned dim : order) {
    int64_t range = ranges[dim];
    if (iterators[dim] != utils::IteratorType::parallel || range < 2)
      continue;
    // Slices of whole register tiles: the largest divisor of the tile count
    // that is at most kParallelSlices.
    int64_t tile =
        dim < tiles.size() && tiles[dim] > 0 && range % tiles[dim] == 0
            ? tiles[dim]
            : 1;
    int64_t count = range / tile;
    int64_t slices = 1;
    for (int64_t n = std::min(count, kParallelSlices); n > 1; --n)
      if (count % n == 0) {
        slices = n;
        break;
      }
    if (slices < 2)
      continue;
    return std::make_pair(unsigned(dim), range / slices);
  }
  return std::nullopt;
}

/// Kernels outside any tile loop (an op that is a kernel of its own) with
/// enough work run on several threads: their outermost parallel dimension
/// is tiled into an scf.forall of independent slices, each of which the
/// register tiling below then tiles as it would the whole op.
LogicalResult
GraphVectorizePass::distributeOverThreads(RewriterBase &rewriter) {
  SmallVector<linalg::LinalgOp> targets;
  getOperation()->walk([&](linalg::LinalgOp op) {
    if (!hasStaticTensorSemantics(op) || !chooseTileSizes(target, op) ||
        op->getParentOfType<LoopLikeOpInterface>() ||
        getStaticWork(op) < kMinParallelWork)
      return;
    targets.push_back(op);
  });
  for (linalg::LinalgOp op : targets) {
    std::optional<std::pair<unsigned, int64_t>> parallel =
        chooseParallelDimension(target, op);
    if (!parallel)
      continue;
    SmallVector<int64_t> sizes(op.getNumLoops(), 0);
    sizes[parallel->first] = parallel->second;
    scf::SCFTilingOptions options;
    options.setTileSizes(getAsIndexOpFoldResult(&getContext(), sizes));
    options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled))
      return op.emitOpError("could not be distributed over threads");
    rewriter.replaceOp(op, tiled->replacements);
  }
  return success();
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
    if (tileable && chooseTileSizes(target, op))
      targets.push_back(op);
  });
  for (linalg::LinalgOp op : targets) {
    SmallVector<int64_t> sizes = *chooseTileSizes(target, op);
    if (sizes == op.getStaticLoopRanges())
      continue;
    scf::SCFTilingOptions options;
    options.setTileSizes(getAsIndexOpFoldResult(&getContext(), sizes));
    if (std::optional<SmallVector<int64_t>> interchange =
            chooseInterchange(target, op))
      options.setInterchange(*interchange);
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled))
      return op.emitOpError("could not be tiled to registers");
    // Rows that the row tile does not divide: the loop over row tiles is
    // peeled, so that every full tile keeps its static shape and the last,
    // partial one gets a static shape of its own.
    int64_t rows = op.getStaticLoopRanges()[0];
    bool peelRows = isPackedMatmul(op) && sizes[0] != 0 && rows % sizes[0];
    rewriter.replaceOp(op, tiled->replacements);
    if (peelRows) {
      for (LoopLikeOpInterface loop : tiled->loops) {
        auto forOp = dyn_cast<scf::ForOp>(loop.getOperation());
        if (!forOp || forOp.getInductionVar().use_empty())
          continue;
        // The row loop: the one whose step is the row tile and whose upper
        // bound is M (the panel loop's is the panel count).
        std::optional<int64_t> step = getConstantIntValue(forOp.getStep());
        std::optional<int64_t> upper =
            getConstantIntValue(forOp.getUpperBound());
        if (step != sizes[0] || upper != rows)
          continue;
        scf::ForOp partial;
        rewriter.setInsertionPoint(forOp);
        if (succeeded(
                scf::peelForLoopAndSimplifyBounds(rewriter, forOp, partial)))
          peeled = true;
        break;
      }
    }
  }
  return success();
}

/// After peeling, the bounds of the full and the partial tiles are
/// constants: canonicalization gives their slices, and the ops on them,
/// static shapes (and inlines the partial tile's one-iteration loop).
LogicalResult GraphVectorizePass::inferStaticTiles() {
  if (!peeled)
    return success();
  MLIRContext *context = &getContext();
  RewritePatternSet patterns(context);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, context);
  return applyPatternsGreedily(getOperation(), std::move(patterns));
}

/// 2-D convolutions with one output row and one kernel row become 1-D ones,
/// which the vectorizer handles.
LogicalResult GraphVectorizePass::decomposeConvolutions() {
  RewritePatternSet patterns(&getContext());
  linalg::populateDecomposeConvolutionPatterns(patterns);
  return applyPatternsGreedily(getOperation(), std::move(patterns));
}

/// The micro-kernel of a register tile of a product by packed panels
/// (isPackedMatmul), rows x panels x n0 accumulators over a few steps of K:
/// per step, each panel's n0 weights are one load from consecutive
/// addresses, each row's input one broadcast, and every accumulator one FMA.
/// Written out rather than left to the vectorizer, whose lowering of a
/// contraction with two parallel dimensions on the weights' side is not an
/// outer product. The accumulators are read and written once per tile;
/// hoistAccumulators then carries them across the loop over K.
static void emitPackedMatmulKernel(RewriterBase &rewriter,
                                   linalg::GenericOp op) {
  Location loc = op.getLoc();
  Value lhs = op.getDpsInputOperand(0)->get();
  Value packed = op.getDpsInputOperand(1)->get();
  Value acc = op.getDpsInitOperand(0)->get();
  auto accType = cast<RankedTensorType>(acc.getType());
  int64_t rows = accType.getDimSize(0), panels = accType.getDimSize(1);
  int64_t n0 = accType.getDimSize(2);
  int64_t steps = cast<RankedTensorType>(lhs.getType()).getDimSize(1);
  Type f32 = accType.getElementType();
  auto vectorType = VectorType::get({n0}, f32);
  auto tileType = VectorType::get(accType.getShape(), f32);
  auto index = [&](int64_t i) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, i);
  };
  Value padding =
      arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(f32));
  Value zero = index(0);
  // The accumulator tile is one full-rank transfer each way, as the
  // vectorizer writes them: hoistAccumulators moves such pairs out of the
  // loop over K.
  SmallVector<bool> inBounds(3, true);
  Value tile = vector::TransferReadOp::create(
      rewriter, loc, tileType, acc, ValueRange{zero, zero, zero}, padding,
      ArrayRef<bool>(inBounds));
  SmallVector<Value> sums;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t p = 0; p < panels; ++p)
      sums.push_back(vector::ExtractOp::create(rewriter, loc, tile,
                                               ArrayRef<int64_t>{r, p}));
  SmallVector<bool> rowInBounds = {true};
  for (int64_t k = 0; k < steps; ++k) {
    SmallVector<Value> weights;
    for (int64_t p = 0; p < panels; ++p)
      weights.push_back(
          vector::TransferReadOp::create(rewriter, loc, vectorType, packed,
                                         ValueRange{index(p), index(k), zero},
                                         padding, ArrayRef<bool>(rowInBounds)));
    for (int64_t r = 0; r < rows; ++r) {
      Value x = tensor::ExtractOp::create(rewriter, loc, lhs,
                                          ValueRange{index(r), index(k)});
      Value broadcast =
          vector::BroadcastOp::create(rewriter, loc, vectorType, x);
      for (int64_t p = 0; p < panels; ++p) {
        Value &sum = sums[r * panels + p];
        sum = vector::FMAOp::create(rewriter, loc, broadcast, weights[p], sum);
      }
    }
  }
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t p = 0; p < panels; ++p)
      tile = vector::InsertOp::create(rewriter, loc, sums[r * panels + p], tile,
                                      ArrayRef<int64_t>{r, p});
  Value result = vector::TransferWriteOp::create(rewriter, loc, tile, acc,
                                                 ValueRange{zero, zero, zero},
                                                 ArrayRef<bool>(inBounds))
                     .getResult();
  rewriter.replaceOp(op, result);
}

/// Whether `op` is a register tile of a product by packed panels: a full
/// tile, or the partial one that peeling left (fewer rows).
static bool isPackedMatmulTile(linalg::LinalgOp op) {
  if (!isPackedMatmul(op) || !op->getParentOfType<LoopLikeOpInterface>())
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  return ranges[0] <= 32 && ranges[1] <= 8 && ranges[3] <= kReductionTile;
}

/// Vectorizes the register tiles: the ops with static shapes small enough to
/// live in registers.
void GraphVectorizePass::vectorizeTiles(RewriterBase &rewriter) {
  SmallVector<linalg::LinalgOp> targets;
  getOperation()->walk([&](linalg::LinalgOp op) {
    if (!hasStaticTensorSemantics(op))
      return;
    if (isa<linalg::Conv1DNwcWcfOp, linalg::DepthwiseConv1DNwcWcOp>(op) ||
        isPackedMatmulTile(op)) {
      targets.push_back(op);
      return;
    }
    std::optional<SmallVector<int64_t>> sizes = chooseTileSizes(target, op);
    if (sizes && *sizes == op.getStaticLoopRanges())
      targets.push_back(op);
  });
  for (linalg::LinalgOp op : targets) {
    rewriter.setInsertionPoint(op);
    if (isPackedMatmul(op)) {
      emitPackedMatmulKernel(rewriter, cast<linalg::GenericOp>(op));
      continue;
    }
    FailureOr<linalg::VectorizationResult> result = linalg::vectorize(
        rewriter, op, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
        /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
        /*assumeDynamicDimsMatchVecSizes=*/false,
        /*createNamedContraction=*/
        isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op));
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
  // Transpose tiles are one vector's lanes square: 16 x 16 (AVX-512) by the
  // shuffles of whole vectors that suit that width, smaller ones by 1-D
  // shuffles that LLVM's x86 and AArch64 back ends match to their own.
  vector::populateVectorTransposeLoweringPatterns(
      patterns, target.getF32Lanes() == 16
                    ? vector::VectorTransposeLowering::Shuffle16x16
                    : vector::VectorTransposeLowering::Shuffle1D);
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
  if (failed(decomposePads()) || failed(distributeOverThreads(rewriter)) ||
      failed(tileToRegisters(rewriter)) || failed(inferStaticTiles()) ||
      failed(decomposeConvolutions()))
    return signalPassFailure();
  vectorizeTiles(rewriter);
  if (failed(applyCleanups()))
    return signalPassFailure();
  hoistAccumulators(rewriter);
  if (failed(lowerVectorOps()))
    return signalPassFailure();
}
