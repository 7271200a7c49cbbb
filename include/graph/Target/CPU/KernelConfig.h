//===- KernelConfig.h - Tiles and packings chosen per kernel ----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the code generator does with a contraction on a given CPU: the
// register tile of its micro-kernel and the packed layout of its constant
// weights. Choosing is here, applying is in the passes that ask
// (graph-pack-weights packs, graph-vectorize tiles), as IREE's
// KernelDispatch.cpp chooses and its tiling passes apply. Every choice is
// logged under `-debug-only=graph-kernel-config` (in builds with LLVM's
// debug output) and printed by `graph-print-kernel-config`.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_TARGET_CPU_KERNELCONFIG_H
#define GRAPH_TARGET_CPU_KERNELCONFIG_H

#include "graph/Target/CPU/CPUTarget.h"

#include <cstdint>
#include <string>

namespace mlir {
namespace graph {

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

/// Broadcast-FMA kernels (convolution, matmul): a weight vector per column,
/// one broadcast input.
inline constexpr KernelShape kBroadcastFMA = {1, 1, true};

/// The reduction steps of a contraction kernel unrolled in its body (input
/// channels of a convolution, K of a matmul): enough independent FMAs per
/// iteration to fill the pipeline, few enough to keep the body small. A
/// power of two: the inputs are read as vectors of this many elements.
inline constexpr int64_t kReductionTile = 8;

/// The largest power of two that divides `size` and is at most `limit`.
int64_t powerOfTwoTile(int64_t size, int64_t limit);

/// The register tile for a contraction over `rowExtent` output rows and
/// `channels` output channels. The tile's lanes divide `channels`; its rows
/// divide `rowExtent` when `exactRows` (otherwise the caller computes the
/// last, partial row tile apart).
RegisterTile chooseRegisterTile(const CPUTarget &target, int64_t rowExtent,
                                int64_t channels, const KernelShape &shape,
                                bool exactRows = true);

/// How a matrix product by a constant K x N matrix runs: the matrix packed
/// as N/n0 x K x n0 panels (graph.matmul's `packed_b`), and the micro-kernel
/// that streams them.
struct MatmulConfig {
  /// Columns per packed panel, n0: whole vectors where N allows.
  int64_t panelColumns = 1;
  /// Output rows per register tile (1 for a matrix-vector product); M need
  /// not be a multiple: the last tile is computed apart.
  int64_t rows = 1;
  /// Panels per register tile: a matrix-vector product takes several, so
  /// that enough independent accumulators hide the FMA latency.
  int64_t panels = 1;
  /// Reduction steps per iteration of the kernel's K loop.
  int64_t kTile = 1;

  /// `n0=16 tile=6x1x16 k=8` (rows x panels x n0, K steps).
  std::string describe() const;
};

/// The register tile of a depthwise convolution's micro-kernel: `rows`
/// output pixels along a row by `lanes` channels, the whole KH x KW window
/// unrolled. Each step is a vector FMA of an input vector by a weight vector
/// (no broadcast): the weights of a step are shared by the rows, the input
/// vectors of neighbouring pixels by the steps along KW.
RegisterTile chooseDepthwiseTile(const CPUTarget &target, int64_t rowExtent,
                                 int64_t channels);

/// The configuration for an M x K by K x N product.
MatmulConfig chooseMatmulConfig(const CPUTarget &target, int64_t m, int64_t n,
                                int64_t k);

/// How a convolution by constant weights runs: its KH x KW x C x F weights
/// packed as F/f0 x KH x KW x C x f0 (graph.conv2d's `packed_weight`), and
/// the micro-kernel's register tile: tileHeight x tileWidth output pixels
/// (a block of output rows and columns, so that small maps such as 7 x 7
/// and 14 x 14 still give tall tiles) by the f0 filters of one panel.
struct ConvConfig {
  /// Filters per packed panel, f0: whole vectors where F allows.
  int64_t panelColumns = 1;
  /// Output rows and columns per register tile. tileWidth divides OW;
  /// tileHeight divides OH, or the tile spans whole rows (tileWidth = OW)
  /// and the last tile is shorter.
  int64_t tileHeight = 1;
  int64_t tileWidth = 1;
  /// Input channels per iteration of the kernel's reduction loop.
  int64_t kTile = 1;

  /// `f0=32 tile=1x7x32 k=8` (rows x columns x f0, channel steps).
  std::string describe() const;
};

/// The configuration for a convolution with an OH x OW output, F filters and
/// C input channels. With `panelColumns` set (weights already packed, for
/// this target or another), the tile is chosen for that f0.
ConvConfig chooseConvConfig(const CPUTarget &target, int64_t outputHeight,
                            int64_t outputWidth, int64_t filters,
                            int64_t channels, int64_t panelColumns = 0);

} // namespace graph
} // namespace mlir

#endif // GRAPH_TARGET_CPU_KERNELCONFIG_H
