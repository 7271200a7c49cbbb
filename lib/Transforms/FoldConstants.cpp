//===- FoldConstants.cpp ---------------------------------------------------*- C++ -*-===//

#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Transforms/Passes.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHFOLDCONSTANTS
#include "graph/Transforms/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

namespace {
struct GraphFoldConstantsPass : public graph::impl::GraphFoldConstantsBase<GraphFoldConstantsPass> {
  using Base::Base;
  void runOnOperation() override {}
};
} // namespace
