//===- LowerFused.cpp ---------------------------------------------------*- C++
//-*-===//

#include "graph/Conversion/Passes.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHLOWERFUSED
#include "graph/Conversion/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

namespace {
struct GraphLowerFusedPass
    : public graph::impl::GraphLowerFusedBase<GraphLowerFusedPass> {
  using Base::Base;
  void runOnOperation() override {}
};
} // namespace
