//===- GraphToLinalg.cpp - graph ops to linalg on tensors -------*- C++ -*-===//

#include "graph/Conversion/Passes.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_CONVERTGRAPHTOLINALG
#include "graph/Conversion/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

void mlir::graph::populateGraphToLinalgConversionPatterns(
    RewritePatternSet &patterns) {}

namespace {
struct ConvertGraphToLinalgPass
    : public graph::impl::ConvertGraphToLinalgBase<ConvertGraphToLinalgPass> {
  using Base::Base;
  void runOnOperation() override {}
};
} // namespace
