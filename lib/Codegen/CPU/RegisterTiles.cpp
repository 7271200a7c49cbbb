//===- RegisterTiles.cpp - The tiles graph-vectorize makes ----------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// See RegisterTiles.h. Every size follows from the target description.
//
//===----------------------------------------------------------------------===//

#include "RegisterTiles.h"
#include "Parallelism.h"

#include "graph/Conversion/PackedContraction.h"
#include "graph/Target/CPU/KernelConfig.h"

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

bool mlir::graph::hasStaticTensorSemantics(linalg::LinalgOp op) {
  return op.hasPureTensorSemantics() &&
         llvm::all_of(op.getStaticLoopRanges(),
                      [](int64_t s) { return !ShapedType::isDynamic(s); });
}

bool mlir::graph::isChannelWindowOp(Operation *op) {
  return isa<linalg::DepthwiseConv2DNhwcHwcOp, linalg::PoolingNhwcMaxOp,
             linalg::PoolingNhwcSumOp>(op);
}

std::optional<SmallVector<int64_t>>
mlir::graph::chooseRegisterTileSizes(const CPUTarget &target,
                                     linalg::LinalgOp op) {
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

std::optional<SmallVector<int64_t>>
mlir::graph::chooseInterchange(const CPUTarget &target, linalg::LinalgOp op) {
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

std::optional<std::pair<unsigned, int64_t>>
mlir::graph::chooseParallelDimension(const CPUTarget &target,
                                     linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> tiles =
      chooseRegisterTileSizes(target, op).value_or(SmallVector<int64_t>());
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
