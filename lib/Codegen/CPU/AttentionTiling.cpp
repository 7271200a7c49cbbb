//===- AttentionTiling.cpp - How graph-lower-attention cuts the work -----===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "AttentionTiling.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <algorithm>
#include <cstdlib>

using namespace mlir;
using namespace mlir::graph;

/// Query rows per block: each row of kT and of v read from L1 serves this
/// many rows' FMAs.
static constexpr int64_t kBlockRows = 4;

AttentionTiling mlir::graph::chooseAttentionTiling(const CPUTarget &target,
                                                   int64_t dv) {
  AttentionTiling tiling;
  tiling.lanes = target.getF32Lanes();
  tiling.chunks = (dv + tiling.lanes - 1) / tiling.lanes;
  tiling.keyVectors = 2;
  // Live across the product by v: each row's accumulators and broadcast
  // probability, one vector of a row of v, and the scores of the next
  // block as it starts.
  int64_t registers = target.numVectorRegisters;
  tiling.rows = std::clamp<int64_t>(
      (registers - 1) / (tiling.chunks + tiling.keyVectors + 1), 1, kBlockRows);
  if (tiling.rows < kBlockRows) {
    // Too few rows (AVX2's 16 registers, a head of 64: one row, whose step
    // loads as many vectors as it has FMAs): the accumulators go to memory,
    // read and written once per block of keys. Live in the product by v: a
    // group of each row's accumulators, the rows' broadcast probabilities,
    // one vector of v.
    tiling.rows = kBlockRows;
    tiling.chunkGroup = std::clamp<int64_t>(
        (registers - tiling.rows - 1) / (tiling.rows + 1), 1, tiling.chunks);
  }
  // Enough independent FMA chains for the scores (two FMA units of latency
  // four), as registers allow beside the accumulators.
  int64_t chains = tiling.rows * tiling.keyVectors;
  int64_t accumulators = tiling.chunkGroup ? 0 : tiling.rows * tiling.chunks;
  int64_t free = registers - accumulators - tiling.keyVectors;
  tiling.splits = 1;
  while (chains * tiling.splits < 8 && chains * tiling.splits * 2 <= free)
    tiling.splits *= 2;
  return tiling;
}

/// Whether the mask hides the key from every score: -inf, or a finite value
/// so negative (HuggingFace's finfo.min) that the exponential of any score
/// it is added to, less the row's maximum over visible keys, is 0.
static bool hidesKey(float value) { return value <= -1e30f; }

std::optional<SmallVector<int32_t>> mlir::graph::computeKeyBlockRanges(
    ArrayRef<float> values, int64_t maskBatches, int64_t maskRows, int64_t keys,
    int64_t blockKeys, int64_t first, int64_t blocks, int64_t rows) {
  int64_t keyBlocks = (keys + blockKeys - 1) / blockKeys;
  SmallVector<int32_t> ranges;
  bool skips = false;
  for (int64_t mb = 0; mb < maskBatches; ++mb) {
    for (int64_t block = 0; block < blocks; ++block) {
      int64_t lo = keys, hi = -1;
      bool blind = false;
      for (int64_t i = 0; i < rows; ++i) {
        int64_t row = maskRows > 1 ? first + block * rows + i : 0;
        const float *maskRow = values.data() + (mb * maskRows + row) * keys;
        int64_t firstSeen = 0, lastSeen = keys - 1;
        while (firstSeen < keys && hidesKey(maskRow[firstSeen]))
          ++firstSeen;
        while (lastSeen >= 0 && hidesKey(maskRow[lastSeen]))
          --lastSeen;
        if (firstSeen == keys) {
          blind = true;
          break;
        }
        lo = std::min(lo, firstSeen);
        hi = std::max(hi, lastSeen);
      }
      int64_t firstBlock = blind ? 0 : lo / blockKeys;
      int64_t lastBlock = blind ? keyBlocks : hi / blockKeys + 1;
      skips |= firstBlock != 0 || lastBlock != keyBlocks;
      ranges.push_back(firstBlock);
      ranges.push_back(lastBlock);
    }
  }
  if (!skips)
    return std::nullopt;
  return ranges;
}

Value mlir::graph::reshapeBatch(OpBuilder &b, Location loc, Value value,
                                RankedTensorType type) {
  int64_t from = cast<RankedTensorType>(value.getType()).getRank();
  int64_t to = type.getRank();
  if (from == to)
    return value;
  // The higher rank's leading dimensions group into the lower's first.
  int64_t group = std::abs(from - to) + 1;
  SmallVector<ReassociationIndices> reassociation(1);
  for (int64_t d = 0; d < group; ++d)
    reassociation[0].push_back(d);
  for (int64_t d = group; d < std::max(from, to); ++d)
    reassociation.push_back({d});
  if (from > to)
    return tensor::CollapseShapeOp::create(b, loc, type, value, reassociation);
  return tensor::ExpandShapeOp::create(b, loc, type, value, reassociation);
}

Value mlir::graph::toRank3(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t batch = 1;
  for (int64_t d : shape.drop_back(2))
    batch *= d;
  int64_t rank = shape.size();
  return reshapeBatch(
      b, loc, value,
      RankedTensorType::get({batch, shape[rank - 2], shape[rank - 1]},
                            type.getElementType()));
}
