//===- ControlFlowOps.cpp - graph.if ----------------------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph.if: two single-block regions, the one a bool selects runs. Its
// verifier, the region a constant condition decides, and the
// canonicalization that puts that region in the op's place.
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::graph;

//===----------------------------------------------------------------------===//
// IfOp
//===----------------------------------------------------------------------===//

YieldOp IfOp::getThenYield() {
  return cast<YieldOp>(getThenRegion().front().getTerminator());
}

YieldOp IfOp::getElseYield() {
  return cast<YieldOp>(getElseRegion().front().getTerminator());
}

LogicalResult IfOp::verify() {
  auto condType = cast<ShapedType>(getCond().getType());
  if (!condType.getElementType().isInteger(1) || !condType.hasStaticShape() ||
      condType.getNumElements() != 1)
    return emitOpError() << "operand 'cond' must be a bool tensor of one "
                            "element, but it is "
                         << condType;
  for (auto [name, region] :
       {std::pair<StringRef, Region *>{"then", &getThenRegion()},
        {"else", &getElseRegion()}}) {
    Block &block = region->front();
    auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
    if (!yield)
      return emitOpError() << "region '" << name
                           << "' must end in 'graph.yield'";
    if (yield.getValues().getTypes() != getResultTypes())
      return emitOpError() << "region '" << name << "' yields ("
                           << yield.getValues().getTypes()
                           << "), but the results are (" << getResultTypes()
                           << ")";
  }
  return success();
}

Region *IfOp::getDecidedRegion() {
  DenseElementsAttr cond;
  if (!matchPattern(getCond(), m_Constant(&cond)))
    return nullptr;
  return cond.getValues<bool>()[0] ? &getThenRegion() : &getElseRegion();
}

void IfOp::replaceByRegion(RewriterBase &rewriter, Region &region) {
  assert(region.getParentOp() == getOperation() && "not a region of the op");
  Block &block = region.front();
  YieldOp yield = cast<YieldOp>(block.getTerminator());
  SmallVector<Value> results(yield.getValues());
  rewriter.eraseOp(yield);
  rewriter.inlineBlockBefore(&block, getOperation());
  rewriter.replaceOp(getOperation(), results);
}

namespace {
/// A graph.if whose condition is a constant is the region it selects.
struct InlineDecidedIf : OpRewritePattern<IfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(IfOp op,
                                PatternRewriter &rewriter) const override {
    Region *region = op.getDecidedRegion();
    if (!region)
      return failure();
    op.replaceByRegion(rewriter, *region);
    return success();
  }
};
} // namespace

void IfOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                       MLIRContext *context) {
  patterns.add<InlineDecidedIf>(context);
}
