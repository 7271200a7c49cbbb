//===- Pipelines.cpp - The graph-optimize pipeline --------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// fold -> (layout) -> fuse -> pack weights -> DCE, the order of TVM Relay's
// FoldConstant, ConvertLayout (opt_level 3), FuseOps and EliminateDeadCode:
// folding first hands the others a smaller, cleaner graph, the layout is chosen
// before fusion so that groups form around the NHWC ops, and DCE last sweeps up
// what the others left behind.
//
//===----------------------------------------------------------------------===//

#include "graph/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::graph;

LogicalResult
mlir::graph::buildGraphOptimizePipeline(OpPassManager &pm,
                                        const GraphOptimizeOptions &options) {
  int64_t level = options.optLevel;
  if (level < 0 || level > 3)
    return failure();
  if (level == 0)
    return success();
  // Before folding, which would dequantize constant int8 weights to floats.
  if (level >= 2) {
    GraphQDQToIntegerOptions integerOptions;
    integerOptions.targetCpu = options.targetCpu;
    integerOptions.targetFeatures = options.targetFeatures;
    pm.addPass(createGraphQDQToInteger(integerOptions));
  }
  GraphFoldConstantsOptions foldOptions;
  foldOptions.maxElements = options.maxElements;
  foldOptions.maxWork = options.maxWork;
  pm.addPass(createGraphFoldConstants(foldOptions));
  if (level >= 3)
    pm.addPass(createGraphConvertLayout());
  if (level >= 2) {
    GraphFuseOptions fuseOptions;
    fuseOptions.foldBatchNorm = level >= 3;
    fuseOptions.maxElements = options.maxElements;
    pm.addPass(createGraphFuse(fuseOptions));
    // After fusion: batch_norm folds into weights first, and the groups
    // are formed around the ops the packing changes.
    GraphPackWeightsOptions packOptions;
    packOptions.targetCpu = options.targetCpu;
    packOptions.targetFeatures = options.targetFeatures;
    pm.addPass(createGraphPackWeights(packOptions));
  }
  pm.addPass(createGraphEliminateDeadCode());
  return success();
}

void mlir::graph::registerGraphOptimizePipeline() {
  registerPassPipeline(
      "graph-optimize",
      "Constant folding, layout conversion (opt-level 3), operator fusion, "
      "then dead code elimination",
      [](OpPassManager &pm, StringRef optionsString,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        GraphOptimizeOptions options;
        if (failed(options.parseFromString(optionsString)))
          return failure();
        if (failed(buildGraphOptimizePipeline(pm, options)))
          return errorHandler("graph-optimize: opt-level must be 0, 1, 2 or "
                              "3, got " +
                              Twine(int64_t(options.optLevel)));
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(GraphOptimizeOptions());
      });
}
