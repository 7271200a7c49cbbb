//===- GraphToLinalg.cpp - graph ops to linalg on tensors -------*- C++ -*-===//
//
// The convert-graph-to-linalg pass: a partial dialect conversion in which
// every graph op except graph.fused and graph.yield is illegal, so that an op
// left unconverted (inside graph.fused bodies too) fails the pass with a
// diagnostic that names it. The patterns live in one file per op family.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"

#include "graph/Conversion/Passes.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_CONVERTGRAPHTOLINALG
#include "graph/Conversion/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

void mlir::graph::populateGraphToLinalgConversionPatterns(
    RewritePatternSet &patterns) {
  populateElementwiseToLinalgPatterns(patterns);
  populateConvToLinalgPatterns(patterns);
  populatePoolingToLinalgPatterns(patterns);
  populateLinalgOpsToLinalgPatterns(patterns);
  populateShapeOpsToLinalgPatterns(patterns);
  populateSoftmaxToLinalgPatterns(patterns);
}

/// Whether `op` draws random numbers, which the CPU lowering cannot do.
static bool isRandom(Operation *op) {
  if (isa<RandomUniformOp>(op))
    return true;
  auto dropout = dyn_cast<DropoutOp>(op);
  return dropout && dropout.getTraining();
}

namespace {
struct ConvertGraphToLinalgPass
    : public graph::impl::ConvertGraphToLinalgBase<ConvertGraphToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();

    // Refuse every random op up front, so that all of them are reported.
    bool refused = false;
    root->walk([&](Operation *op) {
      if (!isRandom(op))
        return;
      op->emitOpError("cannot be lowered: it draws random numbers, which the "
                      "CPU lowering does not support");
      refused = true;
    });
    if (refused)
      return signalPassFailure();

    // A partial conversion rather than a greedy rewrite: the driver checks
    // that no graph op is left, nested bodies included, and reports the
    // first one that is.
    MLIRContext *context = &getContext();
    ConversionTarget target(*context);
    target.addIllegalDialect<GraphDialect>();
    target.addLegalOp<FusedOp, YieldOp>();
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, tensor::TensorDialect>();
    RewritePatternSet patterns(context);
    populateGraphToLinalgConversionPatterns(patterns);
    if (failed(applyPartialConversion(root, target, std::move(patterns))))
      return signalPassFailure();

    // Constant weights transposed at compile time leave their originals
    // unused; drop those rather than carry both through bufferization.
    root->walk([](arith::ConstantOp constant) {
      if (constant->use_empty())
        constant->erase();
    });
  }
};
} // namespace
