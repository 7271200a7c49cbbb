//===- KernelConfig.cpp - Tiles and packings chosen per kernel ------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every size follows from the target description (CPUTarget): vector lanes,
// the register file, the caches.
//
//===----------------------------------------------------------------------===//

#include "graph/Target/CPU/KernelConfig.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

#define DEBUG_TYPE "graph-kernel-config"

using namespace mlir::graph;

int64_t mlir::graph::powerOfTwoTile(int64_t size, int64_t limit) {
  int64_t tile = 1;
  while (tile * 2 <= limit && size % (tile * 2) == 0)
    tile *= 2;
  return tile;
}

/// Lane tiles for `channels`: a power of two of whole vectors that divides
/// it, widest first (measured better than a fraction of a vector: 144
/// channels tile as 16 lanes on AVX-512, not 24), else the largest power of
/// two that divides it within one vector (12 channels on AVX2: 4 lanes).
static llvm::SmallVector<int64_t>
laneTileCandidates(int64_t channels, int64_t f32Lanes, int64_t maxVectors) {
  llvm::SmallVector<int64_t> candidates;
  for (int64_t v = maxVectors; v >= 1; v /= 2)
    if (channels % (v * f32Lanes) == 0)
      candidates.push_back(v * f32Lanes);
  if (candidates.empty())
    candidates.push_back(powerOfTwoTile(channels, f32Lanes));
  return candidates;
}

/// A tile is legal when its accumulators and the registers the kernel needs
/// besides them fit in the register file. Among legal tiles, the one with the
/// most FMAs per load wins (rows * columns / (rows + columns) for
/// broadcast-FMA kernels), then the one with the most accumulators: enough
/// independent accumulators hide the FMA latency (4 cycles on two ports: 8
/// in flight). This is a heuristic fitted to x86 cores with two FMA ports
/// (Zen 3/4, Skylake and later) and to Neoverse cores; where no tile reaches
/// 8 accumulators the dimensions do not allow one.
RegisterTile mlir::graph::chooseRegisterTile(const CPUTarget &target,
                                             int64_t rowExtent,
                                             int64_t channels,
                                             const KernelShape &shape,
                                             bool exactRows) {
  int64_t f32Lanes = target.getF32Lanes();
  int64_t registers = target.numVectorRegisters;
  RegisterTile best;
  double bestScore = -1;
  int64_t bestAccumulators = 0;
  for (int64_t lanes :
       laneTileCandidates(channels, f32Lanes, /*maxVectors=*/8)) {
    int64_t columns = llvm::divideCeil(lanes, f32Lanes);
    for (int64_t rows = std::min<int64_t>(rowExtent, 32); rows >= 1; --rows) {
      if (exactRows && rowExtent % rows != 0)
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
  LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] register tile for " << rowExtent
                          << " rows x " << channels << " channels on "
                          << target.getISAName() << ": " << best.rows << " x "
                          << best.lanes << "\n");
  return best;
}

RegisterTile mlir::graph::chooseDepthwiseTile(const CPUTarget &target,
                                              int64_t rowExtent,
                                              int64_t channels) {
  int64_t f32Lanes = target.getF32Lanes();
  // Half the register file for accumulators: the rest holds a step's weight
  // and input vectors, several steps in flight.
  int64_t budget = target.numVectorRegisters / 2;
  RegisterTile best;
  int64_t bestAccumulators = 0;
  for (int64_t lanes :
       laneTileCandidates(channels, f32Lanes, /*maxVectors=*/4)) {
    int64_t columns = llvm::divideCeil(lanes, f32Lanes);
    for (int64_t rows = std::min<int64_t>(rowExtent, 32); rows >= 1; --rows) {
      int64_t accumulators = rows * columns;
      if (rowExtent % rows != 0 || accumulators > budget)
        continue;
      // Most accumulators; among equals, more rows (more input vectors
      // shared along KW).
      if (accumulators > bestAccumulators ||
          (accumulators == bestAccumulators && rows > best.rows)) {
        best = {rows, lanes};
        bestAccumulators = accumulators;
      }
    }
  }
  LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] depthwise tile for " << rowExtent
                          << " pixels x " << channels << " channels on "
                          << target.getISAName() << ": " << best.rows << " x "
                          << best.lanes << "\n");
  return best;
}

/// Independent accumulators a kernel wants in flight: an FMA's latency (4
/// cycles) times the FMA ports (2) of the cores the tiles are fitted to.
static constexpr int64_t kAccumulatorsInFlight = 8;

MatmulConfig mlir::graph::chooseMatmulConfig(const CPUTarget &target, int64_t m,
                                             int64_t n, int64_t k) {
  MatmulConfig config;
  RegisterTile tile = chooseRegisterTile(target, m, n, kBroadcastFMA,
                                         /*exactRows=*/false);
  config.rows = tile.rows;
  config.panelColumns = tile.lanes;
  config.kTile = powerOfTwoTile(k, kReductionTile);
  // One row (a matrix-vector product, or a tall product whose M has no
  // useful divisor): each weight is used once per row, so the kernel is
  // bound by streaming the panels; several panels side by side give the
  // accumulators that a single panel narrower than the register file lacks.
  int64_t columns = llvm::divideCeil(tile.lanes, target.getF32Lanes());
  int64_t panelCount = n / config.panelColumns;
  if (config.rows == 1) {
    for (int64_t panels = kAccumulatorsInFlight / columns; panels > 1;
         --panels) {
      if (panelCount % panels == 0 &&
          panels * columns * 2 + 1 <= target.numVectorRegisters) {
        config.panels = panels;
        break;
      }
    }
  }
  LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] matmul " << m << " x " << k
                          << " x " << n << " on " << target.getISAName() << ": "
                          << config.describe() << "\n");
  return config;
}

std::string MatmulConfig::describe() const {
  std::string result;
  llvm::raw_string_ostream os(result);
  os << "n0=" << panelColumns << " tile=" << rows << "x" << panels << "x"
     << panelColumns << " k=" << kTile;
  return result;
}

ConvConfig mlir::graph::chooseConvConfig(const CPUTarget &target,
                                         int64_t outputHeight,
                                         int64_t outputWidth, int64_t filters,
                                         int64_t channels,
                                         int64_t panelColumns) {
  int64_t f32Lanes = target.getF32Lanes();
  llvm::SmallVector<int64_t> candidates =
      panelColumns > 0 ? llvm::SmallVector<int64_t>{panelColumns}
                       : laneTileCandidates(filters, f32Lanes,
                                            /*maxVectors=*/8);
  // The scoring of chooseRegisterTile over 2-D blocks of pixels, a weight
  // vector wider than the target's full-rate load counting as several
  // loads; among equals, the widest block (one output row reads one input
  // row).
  double weightLoadCost = std::max<double>(
      1.0, double(target.vectorBytes) / double(target.fullRateLoadBytes));
  ConvConfig best;
  double bestScore = -1;
  int64_t bestAccumulators = 0;
  bool bestDivides = false;
  for (int64_t lanes : candidates) {
    int64_t columns = llvm::divideCeil(lanes, f32Lanes);
    for (int64_t width = std::min<int64_t>(outputWidth, 32); width >= 1;
         --width) {
      if (outputWidth % width != 0)
        continue;
      for (int64_t height = 1; height * width <= 32; ++height) {
        if (height > outputHeight)
          break;
        // Whole rows of a map whose height no good tile divides (ResNet's
        // 7 x 7) may leave a last, shorter tile (graph-vectorize peels it):
        // scored over all the map's tiles.
        int64_t remainder = outputHeight % height;
        if (remainder != 0 && width != outputWidth)
          continue;
        int64_t rows = height * width;
        int64_t accumulators = rows * columns;
        if (accumulators + columns * kBroadcastFMA.registersPerColumn +
                kBroadcastFMA.fixedRegisters >
            target.numVectorRegisters)
          continue;
        int64_t fullTiles = outputHeight / height;
        int64_t remainderRows = remainder * width;
        double score =
            double((fullTiles * rows + remainderRows) * columns) /
            double(fullTiles * (rows + weightLoadCost * columns) +
                   (remainder ? remainderRows + weightLoadCost * columns : 0));
        // Among equals, tiles that divide the map (no peeled tile), then
        // the most accumulators.
        if (score > bestScore ||
            (score == bestScore &&
             std::make_pair(remainder == 0, accumulators) >
                 std::make_pair(bestDivides, bestAccumulators))) {
          best.panelColumns = lanes;
          best.tileHeight = height;
          best.tileWidth = width;
          bestScore = score;
          bestAccumulators = accumulators;
          bestDivides = remainder == 0;
        }
      }
    }
  }
  best.kTile = powerOfTwoTile(channels, kReductionTile);
  LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] conv " << outputHeight << " x "
                          << outputWidth << " x " << filters << " from "
                          << channels << " channels on " << target.getISAName()
                          << ": " << best.describe() << "\n");
  return best;
}

std::string ConvConfig::describe() const {
  std::string result;
  llvm::raw_string_ostream os(result);
  os << "f0=" << panelColumns << " tile=" << tileHeight << "x" << tileWidth
     << "x" << panelColumns << " k=" << kTile;
  return result;
}
