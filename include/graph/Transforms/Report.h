//===- Report.h - Op counts, constants and fusion savings -------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The figures graph-report prints, as a value: graph-viz shows them beside
// each step of the pipeline, computed by the same code as the pass.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_TRANSFORMS_REPORT_H
#define GRAPH_TRANSFORMS_REPORT_H

#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <string>

namespace mlir {
namespace graph {

/// What graph-report counts in a module.
struct GraphStatistics {
  /// Op counts by full name (`graph.conv2d`, `func.return`); ops inside a
  /// fused body count as their group. Sorted by name.
  std::map<std::string, int64_t> ops;
  /// Fused groups by kind, sorted.
  std::map<std::string, int64_t> fused;
  int64_t constants = 0;
  int64_t constantBytes = 0;
  /// Sum of |T_k| over the intermediate tensors of fused bodies.
  int64_t intermediateBytes = 0;
  /// Layout changes: graph.transpose ops, each moving a whole tensor to
  /// another layout (inside fused bodies too).
  int64_t layoutChanges = 0;
  /// Weights read packed for the micro-kernels (graph-pack-weights), and
  /// their bytes.
  int64_t packedWeights = 0;
  int64_t packedWeightBytes = 0;

  /// The seed's Saving = 2 * sum |T_k|: each intermediate would be written
  /// once and read back once.
  int64_t getSavingBytes() const { return 2 * intermediateBytes; }
  /// The number of ops of all kinds.
  int64_t getNumOps() const;
};

/// Counts the ops nested in `root` (not `root` itself, nor modules and
/// functions).
GraphStatistics collectGraphStatistics(Operation *root);

/// graph-report's text form.
void printGraphStatistics(const GraphStatistics &stats, raw_ostream &os);

/// graph-report's JSON form: keys `ops`, `constants`, `fused`,
/// `intermediate_bytes`, `saving_bytes`, `layout_changes` and
/// `packed_weights` (`count`, `bytes`).
void printGraphStatisticsJson(const GraphStatistics &stats, raw_ostream &os);

} // namespace graph
} // namespace mlir

#endif // GRAPH_TRANSFORMS_REPORT_H
