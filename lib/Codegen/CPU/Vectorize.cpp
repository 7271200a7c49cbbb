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
// (CPUTarget): vector lanes and the register file.
//
//===----------------------------------------------------------------------===//

#include "PaddedBuffer.h"
#include "Parallelism.h"

#include "graph/Codegen/CPU/Passes.h"
#include "graph/Conversion/PackedContraction.h"
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
#include "graph/Codegen/CPU/Passes.h.inc"
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

/// Vectors per tile of a row reduction: a row of 128 (attention's keys) in
/// one tile on AVX-512, longer rows in tiles of 256 floats.
static constexpr int64_t kRowReductionVectors = 16;

/// The tile of an innermost loop of `row` iterations: the most vectors, a
/// power of two up to `maxVectors`, that divide the row or leave less than a
/// vector over (the last, partial tile is peeled and stays scalar:
/// attention's 197 keys are 3 tiles of 64 and 5 more); 0 below one vector.
static int64_t chooseVectorTile(const CPUTarget &target, int64_t row,
                                int64_t maxVectors) {
  int64_t lanes = target.getF32Lanes();
  for (int64_t tile = maxVectors * lanes; tile >= lanes; tile /= 2)
    if (tile <= row && row % tile < lanes)
      return tile;
  return 0;
}

/// Whether `op` reduces the innermost loop, the only reduction, of operands
/// read contiguously along it (and values of the row) into one result per
/// row: softmax's max and sum, a reduce_mean over the last axis, a layer
/// norm's sums.
static bool isRowReduction(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  unsigned loops = op.getNumLoops();
  if (!generic || loops == 0 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 1 ||
      op.getIteratorTypesArray().back() != utils::IteratorType::reduction)
    return false;
  // Each input is read along the row, or is one value per row (a layer
  // norm's mean, broadcast into its variance).
  AffineExpr innermost = getAffineDimExpr(loops - 1, op.getContext());
  bool readsRow = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!map.isProjectedPermutation())
      return false;
    if (map.getNumResults() > 0 && map.getResults().back() == innermost)
      readsRow = true;
    else if (map.isFunctionOfDim(loops - 1))
      return false;
  }
  if (!readsRow)
    return false;
  AffineMap result = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  return result.isProjectedPermutation() && !result.isFunctionOfDim(loops - 1);
}

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

/// Whether `op` slides a window over an NHWC input channel by channel, the
/// whole window in each register tile (emitWindowKernel): a depthwise
/// convolution, a max or a sum pooling.
static bool isChannelWindowOp(Operation *op) {
  return isa<linalg::DepthwiseConv2DNhwcHwcOp, linalg::PoolingNhwcMaxOp,
             linalg::PoolingNhwcSumOp>(op);
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
  if (isChannelWindowOp(op)) {
    // Loops: n, oh, ow, c, kh, kw; the window whole in the tile
    // (emitWindowKernel).
    RegisterTile tile = chooseDepthwiseTile(target, ranges[2], ranges[3]);
    return SmallVector<int64_t>{1,          1,         tile.rows,
                                tile.lanes, ranges[4], ranges[5]};
  }
  if (isPackedConv(op)) {
    // Loops: n, oh, ow, panel, column, kh, kw, c. The packing chose f0 for
    // this target (or another: the tile suits the f0 it has).
    int64_t f0 = ranges[4];
    ConvConfig config = chooseConvConfig(target, ranges[1], ranges[2],
                                         ranges[3] * f0, ranges[7], f0);
    return SmallVector<int64_t>{
        1, config.tileHeight, config.tileWidth, 1, f0, 1, 1, config.kTile};
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
  if (isRowReduction(op)) {
    // One row per tile, reduced in vectors.
    int64_t rowTile =
        chooseVectorTile(target, ranges.back(), kRowReductionVectors);
    if (rowTile == 0)
      return std::nullopt;
    SmallVector<int64_t> sizes(ranges.size(), 1);
    sizes.back() = rowTile;
    return sizes;
  }
  // Elementwise: every loop parallel, every operand read through a
  // permutation or broadcast of the loops.
  if (isa<linalg::GenericOp, linalg::FillOp, linalg::BroadcastOp>(op) &&
      op.getNumLoops() > 0 && op.getNumParallelLoops() == op.getNumLoops() &&
      llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
        return map.isProjectedPermutation();
      })) {
    // Rows that no vector divides (and that graph-vectorize could not
    // collapse with the loops outside: a softmax's exp reads its row's max)
    // get whole vectors and a peeled remainder.
    SmallVector<int64_t> sizes(ranges.size(), 1);
    sizes.back() = powerOfTwoTile(ranges.back(),
                                  kElementwiseVectors * target.getF32Lanes());
    if (sizes.back() < target.getF32Lanes())
      if (int64_t tile =
              chooseVectorTile(target, ranges.back(), kElementwiseVectors))
        sizes.back() = tile;
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

/// The order of the register tiles' loops, when not the op's own: the loop
/// over the weights' output channels (panels) outermost where the weights
/// outgrow the core's L2 and are the larger operand, so that one block of
/// weights stays in the caches while every tile of activations streams past
/// it, rather than all weights streaming once per row of output (ResNet-18's
/// last stage: 9.4 MB of weights for a 7 x 7 x 512 output, seven times).
/// Weights packed into panels for a matrix product are streamed that way
/// whatever their size; a convolution's only when they outgrow half the L2:
/// below, the panels are the innermost tile loop, so that each tile of
/// input is read from L1 for every panel while the weights stay in L2.
static std::optional<SmallVector<int64_t>>
chooseInterchange(const CPUTarget &target, linalg::LinalgOp op) {
  auto bytes = [](Value value) {
    auto type = cast<RankedTensorType>(value.getType());
    return type.getNumElements() * type.getElementTypeBitWidth() / 8;
  };
  // Loops: m, panel, column, k.
  if (isPackedMatmul(op))
    return SmallVector<int64_t>{1, 0, 2, 3};
  // Loops: n, oh, ow, panel, column, kh, kw, c.
  if (isPackedConv(op)) {
    if (bytes(op.getDpsInputOperand(1)->get()) <= target.l2Bytes / 2)
      return std::nullopt;
    return SmallVector<int64_t>{3, 0, 1, 2, 4, 5, 6, 7};
  }
  if (!isa<linalg::Conv2DNhwcHwcfOp>(op))
    return std::nullopt;
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
        chooseTileSizes(target, contraction);
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
        chooseTileSizes(target, op))
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

/// The micro-kernel of a register tile of a contraction by packed weights
/// (isPackedContraction): every accumulator of the tile, one vector of n0
/// columns per row and panel, over a few reduction steps. Per step, each
/// panel's n0 weights are one load from consecutive addresses, each row's
/// input one broadcast, and every accumulator one FMA. The loops are
/// classified from the indexing maps, so that one emitter serves both
/// kinds: the column loop indexes the output's innermost dimension, the
/// other parallel loops the weights read are panels, the rest rows (m; n,
/// oh, ow). Every index is a constant of the tile: the maps are evaluated
/// at each point. Written out rather than left to the vectorizer, whose
/// lowering of a contraction with two parallel dimensions on the weights'
/// side is not an outer product (and which gave wrong values for NCHW
/// convolutions). The accumulators are read and written once per tile;
/// hoistAccumulators then carries them across the reduction loops.
static void emitPackedContractionKernel(RewriterBase &rewriter,
                                        linalg::GenericOp op) {
  Location loc = op.getLoc();
  OpOperand *lhsOperand = op.getDpsInputOperand(0);
  OpOperand *packedOperand = op.getDpsInputOperand(1);
  OpOperand *accOperand = op.getDpsInitOperand(0);
  AffineMap lhsMap = op.getMatchingIndexingMap(lhsOperand);
  AffineMap packedMap = op.getMatchingIndexingMap(packedOperand);
  AffineMap accMap = op.getMatchingIndexingMap(accOperand);
  Value lhs = lhsOperand->get(), packed = packedOperand->get();
  Value acc = accOperand->get();
  auto accType = cast<RankedTensorType>(acc.getType());
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned columnLoop =
      cast<AffineDimExpr>(accMap.getResults().back()).getPosition();
  int64_t n0 = ranges[columnLoop];
  SmallVector<unsigned> rowLoops, panelLoops, reductionLoops;
  for (unsigned loop = 0; loop < ranges.size(); ++loop) {
    if (loop == columnLoop)
      continue;
    if (iterators[loop] == utils::IteratorType::reduction)
      reductionLoops.push_back(loop);
    else if (packedMap.isFunctionOfDim(loop))
      panelLoops.push_back(loop);
    else
      rowLoops.push_back(loop);
  }
  // Every point of the given loops, the first loop outermost, as a full
  // iteration vector with the other loops at 0.
  auto pointsOf = [&](ArrayRef<unsigned> loops) {
    SmallVector<SmallVector<int64_t>> points = {
        SmallVector<int64_t>(ranges.size(), 0)};
    for (unsigned loop : loops) {
      SmallVector<SmallVector<int64_t>> next;
      for (const SmallVector<int64_t> &point : points)
        for (int64_t i = 0; i < ranges[loop]; ++i) {
          next.push_back(point);
          next.back()[loop] = i;
        }
      points = std::move(next);
    }
    return points;
  };
  SmallVector<SmallVector<int64_t>> rows = pointsOf(rowLoops);
  SmallVector<SmallVector<int64_t>> panels = pointsOf(panelLoops);
  SmallVector<SmallVector<int64_t>> steps = pointsOf(reductionLoops);
  auto combine = [](ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
    SmallVector<int64_t> point(a);
    for (auto [x, y] : llvm::zip(point, b))
      x += y;
    return point;
  };

  Type f32 = accType.getElementType();
  auto vectorType = VectorType::get({n0}, f32);
  auto tileType = VectorType::get(accType.getShape(), f32);
  auto indices = [&](AffineMap map, ArrayRef<int64_t> point) {
    SmallVector<Value> values;
    for (int64_t i : map.compose(point))
      values.push_back(arith::ConstantIndexOp::create(rewriter, loc, i));
    return values;
  };
  Value padding =
      arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(f32));
  // The accumulator tile is one full-rank transfer each way, as the
  // vectorizer writes them: hoistAccumulators moves such pairs out of the
  // reduction loops.
  SmallVector<Value> origin(accType.getRank(),
                            arith::ConstantIndexOp::create(rewriter, loc, 0));
  SmallVector<bool> inBounds(accType.getRank(), true);
  Value tile = vector::TransferReadOp::create(
      rewriter, loc, tileType, acc, origin, padding, ArrayRef<bool>(inBounds));
  // The position of each (row, panel) accumulator in the tile: the output
  // map at that point, without the column.
  auto positionOf = [&](ArrayRef<int64_t> row, ArrayRef<int64_t> panel) {
    return llvm::to_vector(
        ArrayRef<int64_t>(accMap.compose(combine(row, panel))).drop_back());
  };
  SmallVector<Value> sums;
  for (const SmallVector<int64_t> &row : rows)
    for (const SmallVector<int64_t> &panel : panels)
      sums.push_back(vector::ExtractOp::create(rewriter, loc, tile,
                                               positionOf(row, panel)));
  SmallVector<bool> rowInBounds = {true};
  for (const SmallVector<int64_t> &step : steps) {
    SmallVector<Value> weights;
    for (const SmallVector<int64_t> &panel : panels)
      weights.push_back(vector::TransferReadOp::create(
          rewriter, loc, vectorType, packed,
          indices(packedMap, combine(panel, step)), padding,
          ArrayRef<bool>(rowInBounds)));
    for (auto [r, row] : llvm::enumerate(rows)) {
      Value x = tensor::ExtractOp::create(rewriter, loc, lhs,
                                          indices(lhsMap, combine(row, step)));
      Value broadcast =
          vector::BroadcastOp::create(rewriter, loc, vectorType, x);
      for (auto [p, weight] : llvm::enumerate(weights)) {
        Value &sum = sums[r * panels.size() + p];
        sum = vector::FMAOp::create(rewriter, loc, broadcast, weight, sum);
      }
    }
  }
  for (auto [r, row] : llvm::enumerate(rows))
    for (auto [p, panel] : llvm::enumerate(panels))
      tile =
          vector::InsertOp::create(rewriter, loc, sums[r * panels.size() + p],
                                   tile, positionOf(row, panel));
  Value result = vector::TransferWriteOp::create(
                     rewriter, loc, tile, acc, origin, ArrayRef<bool>(inBounds))
                     .getResult();
  rewriter.replaceOp(op, result);
}

/// Whether `op` is a register tile of a contraction by packed weights: a
/// full tile, or the partial one that peeling left (fewer rows), small
/// enough to be written out.
static bool isPackedContractionTile(linalg::LinalgOp op) {
  if (!isPackedContraction(op) || !op->getParentOfType<LoopLikeOpInterface>())
    return false;
  int64_t points = 1;
  for (int64_t range : op.getStaticLoopRanges())
    points *= range;
  // At most 32 rows x 8 panels of accumulators over kReductionTile steps,
  // 128 lanes each.
  return points <= 32 * 8 * kReductionTile * 128;
}

/// The micro-kernel of a register tile of a depthwise convolution or a
/// pooling (NHWC input; KH x KW x C weights or a KH x KW window shape; the
/// whole window in the tile): per step of the window, each vector of
/// channels' weights is one load shared by the tile's pixels, each pixel's
/// input one load (the same one for neighbouring pixels along KW at stride
/// 1, which CSE shares), each accumulator one FMA (one max or add for a
/// pooling). Written out rather than decomposed into 1-D convolutions, whose
/// vectorized form reads a strided input through shuffles (stride 2 ran at
/// 2-4 GFLOP/s); a pooling the vectorizer leaves scalar.
static void emitWindowKernel(RewriterBase &rewriter, linalg::LinalgOp op,
                             int64_t f32Lanes) {
  Location loc = op.getLoc();
  bool depthwise = isa<linalg::DepthwiseConv2DNhwcHwcOp>(op.getOperation());
  bool max = isa<linalg::PoolingNhwcMaxOp>(op.getOperation());
  Value input = op.getDpsInputOperand(0)->get();
  Value filter = op.getDpsInputOperand(1)->get();
  Value acc = op.getDpsInitOperand(0)->get();
  auto accType = cast<RankedTensorType>(acc.getType());
  ArrayRef<int64_t> out = accType.getShape();
  ArrayRef<int64_t> window =
      cast<RankedTensorType>(filter.getType()).getShape();
  auto getValues = [&](StringRef name) {
    return SmallVector<int64_t>(
        op->getAttrOfType<DenseIntElementsAttr>(name).getValues<int64_t>());
  };
  SmallVector<int64_t> strides = getValues("strides");
  SmallVector<int64_t> dilations = getValues("dilations");
  int64_t width = powerOfTwoTile(out[3], f32Lanes);
  Type f32 = accType.getElementType();
  auto vectorType = VectorType::get({width}, f32);
  auto index = [&](int64_t i) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, i);
  };
  Value padding =
      arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(f32));
  SmallVector<bool> inBounds = {true};
  auto read = [&](Value source, ArrayRef<int64_t> at) -> Value {
    SmallVector<Value> indices = llvm::map_to_vector(at, index);
    return vector::TransferReadOp::create(rewriter, loc, vectorType, source,
                                          indices, padding,
                                          ArrayRef<bool>(inBounds));
  };
  // Accumulators in (n, oh, ow, column) order.
  SmallVector<SmallVector<int64_t>> positions;
  for (int64_t n = 0; n < out[0]; ++n)
    for (int64_t h = 0; h < out[1]; ++h)
      for (int64_t w = 0; w < out[2]; ++w)
        for (int64_t c = 0; c < out[3]; c += width)
          positions.push_back({n, h, w, c});
  SmallVector<Value> sums = llvm::map_to_vector(
      positions, [&](ArrayRef<int64_t> at) { return read(acc, at); });
  for (int64_t kh = 0; kh < window[0]; ++kh) {
    for (int64_t kw = 0; kw < window[1]; ++kw) {
      llvm::SmallDenseMap<int64_t, Value> weights;
      for (auto [position, sum] : llvm::zip(positions, sums)) {
        auto [n, h, w, c] =
            std::make_tuple(position[0], position[1], position[2], position[3]);
        Value x = read(input, {n, h * strides[0] + kh * dilations[0],
                               w * strides[1] + kw * dilations[1], c});
        if (!depthwise) {
          // The pooling ops' own scalar bodies: maximumf, addf.
          sum =
              max ? arith::MaximumFOp::create(rewriter, loc, sum, x).getResult()
                  : arith::AddFOp::create(rewriter, loc, sum, x).getResult();
          continue;
        }
        Value &weight = weights[c];
        if (!weight)
          weight = read(filter, {kh, kw, c});
        sum = vector::FMAOp::create(rewriter, loc, x, weight, sum);
      }
    }
  }
  Value result = acc;
  for (auto [position, sum] : llvm::zip(positions, sums))
    result = vector::TransferWriteOp::create(
                 rewriter, loc, sum, result,
                 llvm::map_to_vector(position, index), ArrayRef<bool>(inBounds))
                 .getResult();
  rewriter.replaceOp(op, result);
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
    std::optional<SmallVector<int64_t>> sizes = chooseTileSizes(target, op);
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
