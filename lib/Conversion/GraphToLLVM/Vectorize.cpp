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

#include "graph/Conversion/Passes.h"
#include "graph/Target/CPU/CPUTarget.h"

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

/// The largest power of two that divides `size` and is at most `limit`.
///
/// Every tile size that becomes the innermost dimension of a vector is one:
/// LLVM's handling of odd vector types (<6 x float>, <24 x float>) is where
/// its bugs live. One was found here: 6-wide transposes of a grouped,
/// padded convolution, optimized for Sandy Bridge (AVX without FMA), gave
/// wrong values once `infer-alignment` had run (test/Integration/targets/
/// avx.test). Power-of-two vectors are also the ones that map onto whole
/// registers.
static int64_t powerOfTwoTile(int64_t size, int64_t limit) {
  int64_t tile = 1;
  while (tile * 2 <= limit && size % (tile * 2) == 0)
    tile *= 2;
  return tile;
}

namespace {
/// A register tile of a contraction micro-kernel: `rows` output rows (output
/// pixels of a convolution, rows of a matmul) by `lanes` output channels, the
/// accumulators held in rows x ceil(lanes / f32 lanes) vector registers.
struct RegisterTile {
  int64_t rows = 1;
  int64_t lanes = 1;
};

/// What a micro-kernel keeps in registers besides its accumulators, per
/// reduction step.
struct KernelShape {
  /// Vector registers per accumulator column: the weight row of a
  /// broadcast-FMA kernel (1), or the weight and input vectors of a
  /// depthwise one (2).
  int64_t registersPerColumn;
  /// Registers for the whole tile: the broadcast input of a broadcast-FMA
  /// kernel (1).
  int64_t fixedRegisters;
  /// Whether inputs are broadcast scalars (one load per row and step) or
  /// vectors loaded per accumulator (depthwise): only the former gains from
  /// taller tiles.
  bool broadcastsRows;
};
} // namespace

/// Lane tiles for `channels`: a power of two of whole vectors that divides
/// it, widest first (measured better than a fraction of a vector: 144
/// channels tile as 16 lanes on AVX-512, not 24), else the largest power of
/// two that divides it within one vector (12 channels on AVX2: 4 lanes).
static SmallVector<int64_t>
laneTileCandidates(int64_t channels, int64_t f32Lanes, int64_t maxVectors) {
  SmallVector<int64_t> candidates;
  for (int64_t v = maxVectors; v >= 1; v /= 2)
    if (channels % (v * f32Lanes) == 0)
      candidates.push_back(v * f32Lanes);
  if (candidates.empty())
    candidates.push_back(powerOfTwoTile(channels, f32Lanes));
  return candidates;
}

/// The register tile for a contraction over `rowExtent` output rows and
/// `channels` output channels, both divided exactly by the tile.
///
/// A tile is legal when its accumulators and the registers the kernel needs
/// besides them fit in the register file. Among legal tiles, the one with the
/// most FMAs per load wins (rows * columns / (rows + columns) for
/// broadcast-FMA kernels), then the one with the most accumulators: enough
/// independent accumulators hide the FMA latency (4 cycles on two ports: 8
/// in flight). This is a heuristic fitted to x86 cores with two FMA ports
/// (Zen 3/4, Skylake and later) and to Neoverse cores; where no tile reaches
/// 8 accumulators the dimensions do not allow one.
static RegisterTile chooseRegisterTile(const CPUTarget &target,
                                       int64_t rowExtent, int64_t channels,
                                       const KernelShape &shape) {
  int64_t f32Lanes = target.getF32Lanes();
  int64_t registers = target.numVectorRegisters;
  RegisterTile best;
  double bestScore = -1;
  int64_t bestAccumulators = 0;
  for (int64_t lanes :
       laneTileCandidates(channels, f32Lanes, /*maxVectors=*/8)) {
    int64_t columns = llvm::divideCeil(lanes, f32Lanes);
    for (int64_t rows = std::min<int64_t>(rowExtent, 32); rows >= 1; --rows) {
      if (rowExtent % rows != 0)
        continue;
      int64_t accumulators = rows * columns;
      if (accumulators + columns * shape.registersPerColumn +
              shape.fixedRegisters >
          registers)
        continue;
      double score = shape.broadcastsRows
                         ? double(accumulators) / double(rows + columns)
                         : 0.0;
      if (score > bestScore ||
          (score == bestScore && accumulators > bestAccumulators)) {
        best = {rows, lanes};
        bestScore = score;
        bestAccumulators = accumulators;
      }
    }
  }
  return best;
}

/// Broadcast-FMA kernels (convolution, matmul): a weight vector per column,
/// one broadcast input.
static constexpr KernelShape kBroadcastFMA = {1, 1, true};
/// Depthwise kernels: per column a weight vector and an input vector.
static constexpr KernelShape kDepthwise = {2, 0, false};

/// The reduction steps of a contraction kernel unrolled in its body (input
/// channels of a convolution, K of a matmul): enough independent FMAs per
/// iteration to fill the pipeline, few enough to keep the body small. A
/// power of two: the inputs are read as vectors of this many elements.
static constexpr int64_t kReductionTile = 8;

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
  if (isa<linalg::MatmulOp>(op)) {
    // Loops: m, n, k.
    RegisterTile tile =
        chooseRegisterTile(target, ranges[0], ranges[1], kBroadcastFMA);
    return SmallVector<int64_t>{tile.rows, tile.lanes,
                                powerOfTwoTile(ranges[2], kReductionTile)};
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
    if (tileable && chooseTileSizes(target, op))
      targets.push_back(op);
  });
  for (linalg::LinalgOp op : targets) {
    SmallVector<int64_t> sizes = *chooseTileSizes(target, op);
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
    std::optional<SmallVector<int64_t>> sizes = chooseTileSizes(target, op);
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
