//===- Passes.h - Graph-level optimization passes ---------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The graph optimization passes and the `graph-optimize` pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_TRANSFORMS_PASSES_H
#define GRAPH_TRANSFORMS_PASSES_H

#include "graph/Dialect/Graph/IR/GraphDialect.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace graph {

#define GEN_PASS_DECL
#include "graph/Transforms/Passes.h.inc"

/// Options of the `graph-optimize` pipeline.
struct GraphOptimizeOptions : public PassPipelineOptions<GraphOptimizeOptions> {
  PassOptions::Option<int64_t> optLevel{
      *this, "opt-level",
      llvm::cl::desc("0: nothing; 1: fold and DCE; 2: also fuse, without "
                     "folding batch_norm into weights; 3: all, and "
                     "convolutions and pooling in NHWC"),
      llvm::cl::init(3)};
  PassOptions::Option<int64_t> maxElements{
      *this, "max-elements",
      llvm::cl::desc("graph-fold-constants and graph-fuse: leave unfolded an "
                     "op whose fold would materialize a non-splat tensor "
                     "with more elements than this"),
      llvm::cl::init(16777216)};
  PassOptions::Option<int64_t> maxWork{
      *this, "max-work",
      llvm::cl::desc("graph-fold-constants: leave unfolded an op whose fold "
                     "would take more scalar operations than this"),
      llvm::cl::init(1073741824)};
  PassOptions::Option<std::string> targetCpu{
      *this, "target-cpu",
      llvm::cl::desc("graph-qdq-to-integer and graph-pack-weights: the CPU "
                     "whose kernels the weights are chosen and packed for "
                     "(empty or host: this machine's)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> targetFeatures{
      *this, "target-features",
      llvm::cl::desc("graph-qdq-to-integer and graph-pack-weights: features "
                     "added or removed on top of the CPU's"),
      llvm::cl::init("")};
};

/// Adds fold -> layout -> fuse -> DCE to `pm` as `opt-level` asks. Fails on an
/// opt-level outside 0..3.
LogicalResult buildGraphOptimizePipeline(OpPassManager &pm,
                                         const GraphOptimizeOptions &options);

/// Registers `graph-optimize`.
void registerGraphOptimizePipeline();

#define GEN_PASS_REGISTRATION
#include "graph/Transforms/Passes.h.inc"

/// Registers every graph pass and pipeline.
inline void registerAllGraphPasses() {
  registerGraphPasses();
  registerGraphOptimizePipeline();
}

} // namespace graph
} // namespace mlir

#endif // GRAPH_TRANSFORMS_PASSES_H
