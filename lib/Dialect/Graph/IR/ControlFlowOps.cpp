//===- ControlFlowOps.cpp - graph.if and graph.loop -------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph.if: two single-block regions, the one a bool selects runs. Its
// verifier, the region a constant condition decides, and the
// canonicalization that puts that region in the op's place.
// graph.loop: a region run while a count and a condition allow. Its
// verifier and the canonicalization of a loop that never runs.
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

//===----------------------------------------------------------------------===//
// LoopOp
//===----------------------------------------------------------------------===//

/// Whether `type` is a tensor of one element of `elementType`.
static bool isScalarOf(Type type, Type elementType) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.getElementType() == elementType &&
         shaped.hasStaticShape() && shaped.getNumElements() == 1;
}

YieldOp LoopOp::getBodyYield() {
  return cast<YieldOp>(getBody().front().getTerminator());
}

std::optional<int64_t> LoopOp::getBound() {
  ResultRange scans = getScanOutputs();
  if (scans.empty())
    return std::nullopt;
  return cast<ShapedType>(scans.front().getType()).getDimSize(0);
}

LogicalResult LoopOp::verify() {
  Builder b(getContext());
  if (!isScalarOf(getMaxTripCount().getType(), b.getI64Type()))
    return emitOpError() << "operand 'maxTripCount' must be an i64 tensor of "
                            "one element, but it is "
                         << getMaxTripCount().getType();
  if (!isScalarOf(getCond().getType(), b.getI1Type()))
    return emitOpError() << "operand 'cond' must be a bool tensor of one "
                            "element, but it is "
                         << getCond().getType();
  size_t numCarried = getInitValues().size();
  if (getNumResults() < numCarried + 1)
    return emitOpError() << "has " << getNumResults() << " results, but "
                         << numCarried
                         << " carried values and the iteration count need "
                         << numCarried + 1;
  auto countType = dyn_cast<RankedTensorType>(getIterationCount().getType());
  if (!countType || countType.getRank() != 0 ||
      !countType.getElementType().isInteger(64))
    return emitOpError() << "the last result, the iteration count, must be "
                            "tensor<i64>, but it is "
                         << getIterationCount().getType();
  for (auto [i, init, result] :
       llvm::enumerate(getInitValues(), getFinalValues()))
    if (init.getType() != result.getType())
      return emitOpError() << "result " << i << " is " << result.getType()
                           << ", but the value it carries starts as "
                           << init.getType();

  Block &body = getBody().front();
  SmallVector<Type> argTypes{getMaxTripCount().getType(), getCond().getType()};
  llvm::append_range(argTypes, getInitValues().getTypes());
  if (TypeRange(body.getArgumentTypes()) != TypeRange(argTypes))
    return emitOpError() << "the body takes (" << body.getArgumentTypes()
                         << "), but must take the iteration number, the "
                            "condition and the carried values: ("
                         << argTypes << ")";
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (!yield)
    return emitOpError() << "the body must end in 'graph.yield'";
  ValueRange yielded = yield.getValues();
  ResultRange scans = getScanOutputs();
  if (yielded.size() != 1 + numCarried + scans.size())
    return emitOpError() << "the body yields " << yielded.size()
                         << " values, but must yield the condition, "
                         << numCarried << " carried values and " << scans.size()
                         << " scan values";
  if (!isScalarOf(yielded[0].getType(), b.getI1Type()))
    return emitOpError() << "the body yields " << yielded[0].getType()
                         << " as its condition; it must be a bool tensor of "
                            "one element";
  for (auto [i, init] : llvm::enumerate(getInitValues()))
    if (yielded[1 + i].getType() != init.getType())
      return emitOpError() << "the body yields " << yielded[1 + i].getType()
                           << " as carried value " << i << ", which is "
                           << init.getType();
  std::optional<int64_t> bound = getBound();
  for (auto [k, scan] : llvm::enumerate(scans)) {
    auto row = cast<RankedTensorType>(yielded[1 + numCarried + k].getType());
    auto stacked = dyn_cast<RankedTensorType>(scan.getType());
    SmallVector<int64_t> expected{*bound};
    llvm::append_range(expected, row.getShape());
    if (!stacked || stacked.getShape() != ArrayRef<int64_t>(expected) ||
        stacked.getElementType() != row.getElementType() || *bound < 0)
      return emitOpError() << "scan output " << k << " is " << scan.getType()
                           << ", but stacks " << *bound << " rows of " << row;
  }
  return success();
}

bool LoopOp::neverRuns() {
  DenseElementsAttr count, cond;
  return (matchPattern(getMaxTripCount(), m_Constant(&count)) &&
          count.getValues<int64_t>()[0] <= 0) ||
         (matchPattern(getCond(), m_Constant(&cond)) &&
          !cond.getValues<bool>()[0]);
}

void LoopOp::replaceByInitialValues(RewriterBase &rewriter) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(getOperation());
  SmallVector<Value> results(getInitValues());
  for (Value scan : getScanOutputs()) {
    auto type = cast<ShapedType>(scan.getType());
    results.push_back(ConstantOp::create(
        rewriter, getLoc(), type,
        DenseElementsAttr::get(type,
                               rewriter.getZeroAttr(type.getElementType()))));
  }
  auto countType = cast<ShapedType>(getIterationCount().getType());
  results.push_back(ConstantOp::create(
      rewriter, getLoc(), countType,
      DenseElementsAttr::get(countType, rewriter.getI64IntegerAttr(0))));
  rewriter.replaceOp(getOperation(), results);
}

namespace {
/// A graph.loop that runs no iteration is its initial values.
struct SkipLoopThatNeverRuns : OpRewritePattern<LoopOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LoopOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.neverRuns())
      return failure();
    op.replaceByInitialValues(rewriter);
    return success();
  }
};
} // namespace

void LoopOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                         MLIRContext *context) {
  patterns.add<SkipLoopThatNeverRuns>(context);
}
