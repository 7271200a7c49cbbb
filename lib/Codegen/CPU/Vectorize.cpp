//===- Vectorize.cpp - Register tiles and vectors for the target ---------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Tiles the compute-heavy linalg ops to register-sized tiles and vectorizes
// them, on tensors, before bufferization:
//  - conv_2d_nhwc_hwcf: output tiles [1, 1, OW-tile, F-tile] with KH, KW tiled
//    to 1 and C tiled, decomposed into 1-D convolutions and vectorized; the
//    contraction over C becomes outer products, i.e. broadcast-FMAs into
//    OW-tile x F-tile accumulators that stay in registers across the
//    reduction loops;
//  - depthwise_conv_2d_nhwc_hwc, pooling_nhwc_max and pooling_nhwc_sum:
//    output tiles [1, 1, OW-tile, C-tile] with the whole window, written out
//    as vector FMAs, maximums or sums (emitWindowKernel);
//  - matmul: M x N x K tiles, the same outer-product micro-kernel;
//  - contractions by packed weights with their accumulators' initializer
//    and their elementwise consumers fused into the register tiles
//    (fuseIntoContractionTiles);
//  - elementwise ops, fills and broadcasts: a few vectors per innermost row;
//  - reductions of the innermost dimension (softmax, LayerNorm's means): a
//    row per tile, reduced by vector.reduction;
//  - transposes of the innermost dimension (NCHW <-> NHWC around each
//    convolution): square blocks of one vector's lanes, by shuffles;
//  - tensor.pad: a filled buffer that the padded value is inserted into.
// Tiles have static shapes (tile sizes divide the dimensions), which the
// vectorizer needs. Every size follows from the target description
// (CPUTarget): vector lanes and the register file. The sizes, loop orders
// and thread slices are chosen in RegisterTiles.h; the micro-kernels this
// pass writes out itself are in VectorKernels.h.
//
//===----------------------------------------------------------------------===//

#include "PaddedBuffer.h"
#include "Parallelism.h"
#include "RegisterTiles.h"
#include "VectorKernels.h"

#include "graph/Codegen/CPU/Passes.h"
#include "graph/Conversion/PackedContraction.h"
#include "graph/Target/CPU/KernelConfig.h"
#include "graph/Target/CPU/PassTarget.h"

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
#include "graph/Codegen/CPU/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

namespace {
struct GraphVectorizePass
    : public graph::impl::GraphVectorizeBase<GraphVectorizePass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    FailureOr<CPUTarget> described =
        getPassTarget(context, getArgument(), targetCpu, targetFeatures);
    if (failed(described))
      return failure();
    target = std::move(*described);
    return success();
  }

  void runOnOperation() override;

private:
  CPUTarget target;
  /// Whether tileToRegisters peeled a loop, whose tiles then need their
  /// static shapes inferred before vectorization.
  bool peeled = false;

  LogicalResult padBatchMatmulColumns(RewriterBase &rewriter);
  void collapseElementwiseLoops(RewriterBase &rewriter);
  LogicalResult decomposePads();
  LogicalResult inferStaticTiles();
  LogicalResult distributeOverThreads(RewriterBase &rewriter);
  LogicalResult fuseIntoContractionTiles(RewriterBase &rewriter);
  LogicalResult tileToRegisters(RewriterBase &rewriter);
  LogicalResult decomposeConvolutions();
  void vectorizeTiles(RewriterBase &rewriter);
  LogicalResult applyCleanups();
  void hoistAccumulators(RewriterBase &rewriter);
  LogicalResult lowerVectorOps();
};
} // namespace

namespace {
/// A statically shaped pad by a constant: a buffer whose border is filled
/// (fillBorder), the source inserted into its interior.
struct DecomposeStaticPad : OpRewritePattern<tensor::PadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::PadOp pad,
                                PatternRewriter &rewriter) const override {
    Value padValue = pad.getConstantPaddingValue();
    if (!padValue || !pad.getResultType().hasStaticShape() ||
        !pad.getSourceType().hasStaticShape())
      return rewriter.notifyMatchFailure(pad, "not static, or not constant");
    SmallVector<int64_t> low;
    for (OpFoldResult v : pad.getMixedLowPad()) {
      std::optional<int64_t> constant = getConstantIntValue(v);
      if (!constant)
        return rewriter.notifyMatchFailure(pad, "dynamic low padding");
      low.push_back(*constant);
    }
    Location loc = pad.getLoc();
    RankedTensorType type = pad.getResultType();
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                          type.getElementType());
    Value buffer = fillBorder(rewriter, loc, empty, padValue, low,
                              pad.getSourceType().getShape());
    int64_t rank = type.getRank();
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        pad, pad.getSource(), buffer,
        getAsIndexOpFoldResult(rewriter.getContext(), low),
        getAsIndexOpFoldResult(rewriter.getContext(),
                               pad.getSourceType().getShape()),
        getAsIndexOpFoldResult(rewriter.getContext(),
                               SmallVector<int64_t>(rank, 1)));
    return success();
  }
};
} // namespace

/// A batched product whose columns no vector divides (attention's Q.K^T
/// over 197 tokens) gets its operands and its accumulator padded with zeros:
/// columns up to a multiple of two vectors, rows up to a multiple of
/// kPaddedRows, and the result sliced back. Its register tiles then
/// vectorize, several rows tall, like any other (the padding, a few percent
/// of the work, holds zeros that nothing reads), where the unpadded product
/// would run as scalar loops, or as one-row tiles for a prime M.
static constexpr int64_t kPaddedRows = 8;

LogicalResult
GraphVectorizePass::padBatchMatmulColumns(RewriterBase &rewriter) {
  int64_t lanes = target.getF32Lanes();
  SmallVector<linalg::BatchMatmulOp> targets;
  getOperation()->walk([&](linalg::BatchMatmulOp op) {
    auto type = dyn_cast<RankedTensorType>(op.getResult(0).getType());
    if (op.hasPureTensorSemantics() && type && type.hasStaticShape() &&
        type.getElementType().isF32() && !op.hasUserDefinedMaps() &&
        type.getShape().back() > lanes && type.getShape().back() % lanes &&
        llvm::all_of(op->getOperandTypes(), [](Type t) {
          return cast<RankedTensorType>(t).hasStaticShape();
        }))
      targets.push_back(op);
  });
  for (linalg::BatchMatmulOp op : targets) {
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    auto type = cast<RankedTensorType>(op.getResult(0).getType());
    int64_t m = type.getDimSize(1), n = type.getDimSize(2);
    int64_t extraRows = llvm::alignTo(m, kPaddedRows) - m;
    int64_t extraColumns = llvm::alignTo(n, 2 * lanes) - n;
    Value zero = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(rewriter.getF32Type()));
    // Pads dimensions 1 and 2 (batch, rows, columns) by `rows`, `columns`.
    auto pad = [&](Value value, int64_t rows, int64_t columns) -> Value {
      if (rows == 0 && columns == 0)
        return value;
      auto valueType = cast<RankedTensorType>(value.getType());
      SmallVector<int64_t> shape(valueType.getShape());
      shape[1] += rows;
      shape[2] += columns;
      SmallVector<int64_t> low(3, 0), high = {0, rows, columns};
      return tensor::PadOp::create(
          rewriter, loc,
          RankedTensorType::get(shape, valueType.getElementType()), value,
          getAsIndexOpFoldResult(rewriter.getContext(), low),
          getAsIndexOpFoldResult(rewriter.getContext(), high), zero);
    };
    Value a = pad(op.getDpsInputOperand(0)->get(), extraRows, 0);
    Value b = pad(op.getDpsInputOperand(1)->get(), 0, extraColumns);
    Value init = pad(op.getDpsInitOperand(0)->get(), extraRows, extraColumns);
    auto padded =
        linalg::BatchMatmulOp::create(rewriter, loc, TypeRange{init.getType()},
                                      ValueRange{a, b}, ValueRange{init});
    SmallVector<int64_t> zeros(3, 0), ones(3, 1);
    auto slice = tensor::ExtractSliceOp::create(
        rewriter, loc, type, padded.getResult(0),
        getAsIndexOpFoldResult(rewriter.getContext(), zeros),
        getAsIndexOpFoldResult(rewriter.getContext(), type.getShape()),
        getAsIndexOpFoldResult(rewriter.getContext(), ones));
    rewriter.replaceOp(op, slice.getResult());
  }
  return success();
}

/// A padded tensor becomes a buffer into which the source is inserted, its
/// border filled (only the border: the interior is the source's): the op
/// producing the source then writes straight into the interior of the
/// padded buffer, with no copy, and the fills vectorize.
LogicalResult GraphVectorizePass::decomposePads() {
  RewritePatternSet patterns(&getContext());
  patterns.add<DecomposeStaticPad>(&getContext(), /*benefit=*/2);
  linalg::populateDecomposePadPatterns(patterns);
  return applyPatternsGreedily(getOperation(), std::move(patterns));
}

/// An elementwise kernel of its own whose innermost loop no vector divides
/// (NCHW maps of 14 x 14, 7 x 7) has its innermost loops collapsed into one
/// where every operand reads them contiguously: 196 or 49 x C elements in
/// a row, which vectors of the target's width then cover, rather than
/// vectors of 2 or 1 along rows of 14 or 7 (EfficientNet's SiLU at 14 x 14
/// ran at 3 GB/s).
void GraphVectorizePass::collapseElementwiseLoops(RewriterBase &rewriter) {
  int64_t lanes = target.getF32Lanes();
  SmallVector<std::pair<linalg::GenericOp, ReassociationIndices>> targets;
  getOperation()->walk([&](linalg::GenericOp op) {
    if (!hasStaticTensorSemantics(op) ||
        op->getParentOfType<LoopLikeOpInterface>() || op.getNumLoops() < 2 ||
        op.getNumParallelLoops() != op.getNumLoops() ||
        !llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
          return map.isProjectedPermutation();
        }))
      return;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (ranges.back() % lanes == 0)
      return;
    // The longest run of innermost loops that every operand reads
    // contiguously.
    int64_t loops = ranges.size();
    ReassociationIndices innermost;
    for (int64_t first = loops - 2; first >= 0; --first) {
      ReassociationIndices run =
          llvm::to_vector(llvm::seq<int64_t>(first, loops));
      if (!linalg::areDimSequencesPreserved(op.getIndexingMapsArray(), run))
        break;
      innermost = std::move(run);
    }
    if (!innermost.empty())
      targets.emplace_back(op, std::move(innermost));
  });
  for (auto &[op, innermost] : targets) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::CollapseResult> collapsed =
        linalg::collapseOpIterationDims(op, {innermost}, rewriter);
    if (succeeded(collapsed))
      rewriter.replaceOp(op, collapsed->results);
  }
}

/// Kernels outside any tile loop (an op that is a kernel of its own) with
/// enough work run on several threads: their outermost parallel dimension
/// is tiled into an scf.forall of independent slices, each of which the
/// register tiling below then tiles as it would the whole op.
LogicalResult
GraphVectorizePass::distributeOverThreads(RewriterBase &rewriter) {
  SmallVector<linalg::LinalgOp> targets;
  getOperation()->walk([&](linalg::LinalgOp op) {
    if (!hasStaticTensorSemantics(op) || !chooseRegisterTileSizes(target, op) ||
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

/// Marks the ops of a register tile that fuseIntoContractionTiles made: they
/// are register-sized already, tileToRegisters leaves them as they are and
/// vectorizeTiles takes them whole.
static constexpr StringLiteral kRegisterTileAttr = "graph.register_tile";

/// The op that consumes `result` element by element, where each tile of
/// `result` gives the same tile of the consumer's result: its one user, a
/// generic of parallel loops over `result`'s shape reading it through the
/// identity (a bias, an activation, a residual add).
static linalg::GenericOp getElementwiseConsumer(Value result) {
  if (!result.hasOneUse())
    return {};
  OpOperand &use = *result.getUses().begin();
  auto consumer = dyn_cast<linalg::GenericOp>(use.getOwner());
  if (!consumer || !hasStaticTensorSemantics(consumer) ||
      consumer->getNumResults() != 1 ||
      consumer.getNumParallelLoops() != consumer.getNumLoops() ||
      !consumer.getMatchingIndexingMap(&use).isIdentity() ||
      consumer->getResult(0).getType() != result.getType())
    return {};
  if (!llvm::all_of(consumer.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return {};
  return consumer;
}

/// The tile sizes of `sizes` for the loops whose iterator is `kind`, 0 (not
/// tiled) for the others: a contraction's register tile split into its
/// parallel part, which tiles its result, and its reduction part, tiled
/// inside each of those tiles.
static SmallVector<int64_t>
sizesOfLoops(ArrayRef<int64_t> sizes, ArrayRef<utils::IteratorType> iterators,
             utils::IteratorType kind) {
  SmallVector<int64_t> kept(sizes);
  for (auto [size, iterator] : llvm::zip_equal(kept, iterators))
    if (iterator != kind)
      size = 0;
  return kept;
}

/// A contraction by packed weights computes its accumulators in registers;
/// what initializes them (a fill, the bias's broadcast) and what its result
/// goes through element by element (the group's epilogue) are separate ops
/// that, tiled on their own, would each pass over the tile in memory: for
/// convolutions with few input channels (MobileNetV2's 1x1 layers of 16-24)
/// those passes cost as much as the FMAs. Here the last of those consumers
/// is tiled by the contraction's register tile, and the contraction and its
/// initializer are fused into its tiles; the contraction's reduction is then
/// tiled inside. After vectorization every step of a tile reads what the one
/// before wrote at the same place and with the same shape, so the transfers
/// fold and the tile stays in registers from the bias to the epilogue.
LogicalResult
GraphVectorizePass::fuseIntoContractionTiles(RewriterBase &rewriter) {
  SmallVector<linalg::GenericOp> contractions;
  getOperation()->walk([&](linalg::GenericOp op) {
    if (isPackedContraction(op) && hasStaticTensorSemantics(op))
      contractions.push_back(op);
  });
  for (linalg::GenericOp contraction : contractions) {
    std::optional<SmallVector<int64_t>> sizes =
        chooseRegisterTileSizes(target, contraction);
    if (!sizes)
      continue;
    SmallVector<int64_t> ranges = contraction.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iterators =
        contraction.getIteratorTypesArray();
    // Tiles of one static shape only: a partial tile (a matmul's rows that
    // the tile does not divide) is left to tileToRegisters' peeling.
    bool divides =
        llvm::all_of(llvm::seq<size_t>(0, ranges.size()), [&](size_t loop) {
          return (*sizes)[loop] > 0 && ranges[loop] % (*sizes)[loop] == 0;
        });
    if (!divides)
      continue;
    // The initializer: a fill or a broadcast (a bias), or any elementwise op
    // the contraction alone reads.
    OpOperand *accOperand = contraction.getDpsInitOperand(0);
    auto initializer = accOperand->get().getDefiningOp<linalg::LinalgOp>();
    if (initializer &&
        (!accOperand->get().hasOneUse() ||
         initializer.getNumParallelLoops() != initializer.getNumLoops()))
      initializer = nullptr;
    llvm::SmallPtrSet<Operation *, 8> fused = {contraction};
    if (initializer)
      fused.insert(initializer);
    Operation *root = contraction;
    while (linalg::GenericOp consumer =
               getElementwiseConsumer(root->getResult(0))) {
      fused.insert(consumer);
      root = consumer;
    }
    if (root == contraction && !initializer)
      continue;

    // The root's tile sizes and loop order: the contraction's, over its
    // result's dimensions when the root is its last consumer.
    AffineMap accMap = contraction.getMatchingIndexingMap(accOperand);
    auto resultPosition = [&](unsigned loop) -> std::optional<unsigned> {
      return accMap.getResultPosition(getAffineDimExpr(loop, &getContext()));
    };
    SmallVector<int64_t> rootSizes, rootOrder;
    std::optional<SmallVector<int64_t>> interchange =
        chooseInterchange(target, contraction);
    SmallVector<int64_t> order = interchange.value_or(llvm::to_vector(
        llvm::seq<int64_t>(0, static_cast<int64_t>(ranges.size()))));
    if (root == contraction) {
      rootSizes =
          sizesOfLoops(*sizes, iterators, utils::IteratorType::parallel);
      rootOrder = order;
    } else {
      for (unsigned position = 0; position < accMap.getNumResults(); ++position)
        rootSizes.push_back((*sizes)[accMap.getDimPosition(position)]);
      for (int64_t loop : order)
        if (std::optional<unsigned> position = resultPosition(loop))
          rootOrder.push_back(*position);
    }

    scf::SCFTilingOptions tilingOptions;
    tilingOptions.setTileSizes(
        getAsIndexOpFoldResult(&getContext(), rootSizes));
    if (interchange)
      tilingOptions.setInterchange(rootOrder);
    scf::SCFTileAndFuseOptions options;
    options.setTilingOptions(tilingOptions);
    options.setFusionControlFn(
        [&](tensor::ExtractSliceOp, OpResult producer, bool)
            -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
          if (!fused.contains(producer.getOwner()))
            return std::nullopt;
          return scf::SCFTileAndFuseOptions::ControlFnResult{};
        });
    rewriter.setInsertionPoint(root);
    FailureOr<scf::SCFTileAndFuseResult> result =
        scf::tileConsumerAndFuseProducersUsingSCF(
            rewriter, cast<TilingInterface>(root), options);
    if (failed(result))
      return root->emitOpError("could not be fused into register tiles");
    rewriter.replaceAllUsesWith(
        root->getResult(0), result->replacements.lookup(root->getResult(0)));

    // The contraction's tile, its reduction tiled inside.
    for (Operation *op : result->tiledAndFusedOps) {
      if (!isPackedContraction(op)) {
        op->setAttr(kRegisterTileAttr, rewriter.getUnitAttr());
        continue;
      }
      SmallVector<int64_t> reductionSizes =
          sizesOfLoops(*sizes, iterators, utils::IteratorType::reduction);
      Operation *tile = op;
      if (llvm::any_of(reductionSizes, [](int64_t size) { return size > 0; })) {
        scf::SCFTilingOptions reductionOptions;
        reductionOptions.setTileSizes(
            getAsIndexOpFoldResult(&getContext(), reductionSizes));
        rewriter.setInsertionPoint(op);
        FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
            rewriter, cast<TilingInterface>(op), reductionOptions);
        if (failed(tiled))
          return op->emitOpError("could not be tiled to registers");
        rewriter.replaceOp(op, tiled->replacements);
        tile = tiled->tiledOps.front();
      }
      tile->setAttr(kRegisterTileAttr, rewriter.getUnitAttr());
    }
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
    if (tileable && !op->hasAttr(kRegisterTileAttr) &&
        chooseRegisterTileSizes(target, op))
      targets.push_back(op);
  });
  for (linalg::LinalgOp op : targets) {
    SmallVector<int64_t> sizes = *chooseRegisterTileSizes(target, op);
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
    // Rows that the row tile does not divide (a packed matmul's M, a packed
    // convolution's output rows, the innermost loop of a row reduction or an
    // elementwise op): that loop over
    // tiles is peeled, so that every full tile keeps its static shape and the
    // last, partial one gets a static shape of its own.
    std::optional<unsigned> peelDim;
    if (isPackedMatmul(op))
      peelDim = 0;
    else if (isPackedConv(op))
      peelDim = 1;
    else if (!isa<linalg::TransposeOp>(op.getOperation()))
      peelDim = sizes.size() - 1;
    int64_t extent = peelDim ? op.getStaticLoopRanges()[*peelDim] : 0;
    bool peel = peelDim && sizes[*peelDim] != 0 && extent % sizes[*peelDim];
    rewriter.replaceOp(op, tiled->replacements);
    if (peel) {
      for (LoopLikeOpInterface loop : tiled->loops) {
        auto forOp = dyn_cast<scf::ForOp>(loop.getOperation());
        if (!forOp || forOp.getInductionVar().use_empty())
          continue;
        // The loop whose step is the tile and whose upper bound the extent
        // (a matmul's panel loop ends at the panel count).
        std::optional<int64_t> step = getConstantIntValue(forOp.getStep());
        std::optional<int64_t> upper =
            getConstantIntValue(forOp.getUpperBound());
        if (step != sizes[*peelDim] || upper != extent)
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

/// Vectorizes the register tiles: the ops with static shapes small enough to
/// live in registers.
void GraphVectorizePass::vectorizeTiles(RewriterBase &rewriter) {
  SmallVector<linalg::LinalgOp> targets;
  getOperation()->walk([&](linalg::LinalgOp op) {
    if (!hasStaticTensorSemantics(op))
      return;
    if (isa<linalg::Conv1DNwcWcfOp, linalg::DepthwiseConv1DNwcWcOp>(op) ||
        isPackedContractionTile(op) || op->hasAttr(kRegisterTileAttr) ||
        (isChannelWindowOp(op) && op->getParentOfType<LoopLikeOpInterface>())) {
      targets.push_back(op);
      return;
    }
    std::optional<SmallVector<int64_t>> sizes =
        chooseRegisterTileSizes(target, op);
    if (sizes && *sizes == op.getStaticLoopRanges())
      targets.push_back(op);
  });
  for (linalg::LinalgOp op : targets) {
    rewriter.setInsertionPoint(op);
    if (isPackedContraction(op)) {
      emitPackedContractionKernel(rewriter, cast<linalg::GenericOp>(op));
      continue;
    }
    if (isChannelWindowOp(op)) {
      emitWindowKernel(rewriter, op, target.getF32Lanes());
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
  // Reductions of the innermost dimension (the row reductions) become one
  // vector.reduction per row; lowered as the others are, with the reduced
  // dimension outermost, each element would be extracted on its own.
  SmallVector<Operation *> rowReductions;
  getOperation()->walk([&](vector::MultiDimReductionOp reduction) {
    SmallVector<bool> mask = reduction.getReductionMask();
    if (mask.back() && llvm::count(mask, true) == 1)
      rowReductions.push_back(reduction);
  });
  if (!rowReductions.empty()) {
    RewritePatternSet rowPatterns(context);
    vector::populateVectorMultiReductionLoweringPatterns(
        rowPatterns, vector::VectorMultiReductionLowering::InnerReduction);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(applyOpPatternsGreedily(rowReductions, std::move(rowPatterns),
                                       config)))
      return failure();
  }
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
  if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
    return failure();
  // The row reductions' sums may be reassociated (summing ops, SPEC: within
  // a relative 1e-5 of the fold), which makes them a tree of vector adds
  // rather than one add per lane in order. The same tree at any thread
  // count: a row is reduced by one thread.
  getOperation()->walk([](vector::ReductionOp reduction) {
    if (isa<FloatType>(reduction.getType()) &&
        reduction.getKind() == vector::CombiningKind::ADD)
      reduction.setFastmath(arith::FastMathFlags::reassoc);
  });
  return success();
}

void GraphVectorizePass::runOnOperation() {
  IRRewriter rewriter(&getContext());
  if (failed(padBatchMatmulColumns(rewriter)))
    return signalPassFailure();
  collapseElementwiseLoops(rewriter);
  if (failed(decomposePads()) || failed(distributeOverThreads(rewriter)) ||
      (fuseEpilogues && failed(fuseIntoContractionTiles(rewriter))) ||
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
