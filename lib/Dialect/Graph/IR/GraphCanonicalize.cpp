//===- GraphCanonicalize.cpp - Canonicalization patterns --------*- C++ -*-===//

#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::graph;

void FusedOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {}
