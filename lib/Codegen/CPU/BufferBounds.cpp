//===- BufferBounds.cpp - The largest size of a buffer -------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Upper bounds of the dynamic sizes of buffers (a tile at the edge of a
// loop is smaller than the others): interval arithmetic over the index
// computations that define them (constants, affine.apply/min/max, the
// induction variables of scf.for and OpenMP loop nests), then
// ValueBoundsConstraintSet where that finds nothing.
//
//===----------------------------------------------------------------------===//

#include "BufferBounds.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::graph;

namespace {
/// The values an index may take, where known: [lower, upper], both closed.
struct IndexRange {
  std::optional<int64_t> lower, upper;
};
} // namespace

static IndexRange getIndexRange(Value value, unsigned depth);

/// The range of `expr` over operands in `operands` (dimensions, then
/// symbols), by interval arithmetic on sums, constant multiples and
/// divisions by positive constants.
static IndexRange getExprRange(AffineExpr expr, ArrayRef<IndexRange> operands,
                               unsigned numDims) {
  auto add = [](std::optional<int64_t> a,
                std::optional<int64_t> b) -> std::optional<int64_t> {
    int64_t sum;
    if (!a || !b || llvm::AddOverflow(*a, *b, sum))
      return std::nullopt;
    return sum;
  };
  auto scale = [](std::optional<int64_t> a,
                  int64_t c) -> std::optional<int64_t> {
    int64_t product;
    if (!a || llvm::MulOverflow(*a, c, product))
      return std::nullopt;
    return product;
  };
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return {constant.getValue(), constant.getValue()};
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return operands[dim.getPosition()];
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return operands[numDims + symbol.getPosition()];
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return {};
  IndexRange lhs = getExprRange(binary.getLHS(), operands, numDims);
  auto rhsConstant = dyn_cast<AffineConstantExpr>(binary.getRHS());
  switch (expr.getKind()) {
  case AffineExprKind::Add: {
    IndexRange rhs = getExprRange(binary.getRHS(), operands, numDims);
    return {add(lhs.lower, rhs.lower), add(lhs.upper, rhs.upper)};
  }
  case AffineExprKind::Mul: {
    if (!rhsConstant)
      return {};
    int64_t c = rhsConstant.getValue();
    if (c >= 0)
      return {scale(lhs.lower, c), scale(lhs.upper, c)};
    return {scale(lhs.upper, c), scale(lhs.lower, c)};
  }
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv: {
    if (!rhsConstant || rhsConstant.getValue() <= 0)
      return {};
    int64_t c = rhsConstant.getValue();
    bool floor = expr.getKind() == AffineExprKind::FloorDiv;
    auto divide = [&](std::optional<int64_t> a) -> std::optional<int64_t> {
      if (!a)
        return std::nullopt;
      return floor ? llvm::divideFloorSigned(*a, c)
                   : llvm::divideCeilSigned(*a, c);
    };
    return {divide(lhs.lower), divide(lhs.upper)};
  }
  case AffineExprKind::Mod:
    if (!rhsConstant || rhsConstant.getValue() <= 0)
      return {};
    return {0, rhsConstant.getValue() - 1};
  default:
    return {};
  }
}

/// The range of an index computed by affine.apply, affine.min and
/// affine.max from constants and the induction variables of loops with
/// constant bounds: enough to bound the size of a tile at the edge of its
/// loop, where ValueBoundsConstraintSet cannot bound an affine.max from
/// above.
static IndexRange getIndexRange(Value value, unsigned depth) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return {*constant, *constant};
  if (depth == 0)
    return {};
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    Operation *owner = argument.getOwner()->getParentOp();
    unsigned index = argument.getArgNumber();
    std::optional<int64_t> lower, upper, step;
    bool inclusive = false;
    if (auto nest = dyn_cast_or_null<omp::LoopNestOp>(owner)) {
      lower = getConstantIntValue(nest.getLoopLowerBounds()[index]);
      upper = getConstantIntValue(nest.getLoopUpperBounds()[index]);
      step = getConstantIntValue(nest.getLoopSteps()[index]);
      inclusive = nest.getLoopInclusive();
    } else if (auto loop = dyn_cast_or_null<scf::ForOp>(owner);
               loop && argument == loop.getInductionVar()) {
      lower = getConstantIntValue(loop.getLowerBound());
      upper = getConstantIntValue(loop.getUpperBound());
      step = getConstantIntValue(loop.getStep());
    }
    if (!lower || !upper || !step || *step <= 0 || *upper <= *lower)
      return {};
    return {*lower, inclusive ? *upper : *upper - 1};
  }
  Operation *def = value.getDefiningOp();
  AffineMap map;
  if (auto apply = dyn_cast_or_null<affine::AffineApplyOp>(def))
    map = apply.getAffineMap();
  else if (auto min = dyn_cast_or_null<affine::AffineMinOp>(def))
    map = min.getAffineMap();
  else if (auto max = dyn_cast_or_null<affine::AffineMaxOp>(def))
    map = max.getAffineMap();
  else
    return {};
  SmallVector<IndexRange> operands =
      llvm::map_to_vector(def->getOperands(), [&](Value operand) {
        return getIndexRange(operand, depth - 1);
      });
  SmallVector<IndexRange> results =
      llvm::map_to_vector(map.getResults(), [&](AffineExpr expr) {
        return getExprRange(expr, operands, map.getNumDims());
      });
  // A min is at most the smallest upper bound any result has, and at least
  // the smallest lower bound, which every result must have; a max the other
  // way round.
  using Bound = std::optional<int64_t>;
  auto anyOf = [](Bound a, Bound b, auto pick) -> Bound {
    return a && b ? Bound(pick(*a, *b)) : a ? a : b;
  };
  auto allOf = [](Bound a, Bound b, auto pick) -> Bound {
    return a && b ? Bound(pick(*a, *b)) : std::nullopt;
  };
  auto smaller = [](int64_t a, int64_t b) { return std::min(a, b); };
  auto larger = [](int64_t a, int64_t b) { return std::max(a, b); };
  IndexRange range = results.front();
  for (const IndexRange &result : ArrayRef(results).drop_front()) {
    if (isa<affine::AffineMinOp>(def)) {
      range.upper = anyOf(range.upper, result.upper, smaller);
      range.lower = allOf(range.lower, result.lower, smaller);
    } else {
      range.lower = anyOf(range.lower, result.lower, larger);
      range.upper = allOf(range.upper, result.upper, larger);
    }
  }
  return range;
}

std::optional<int64_t> mlir::graph::getMaxBytes(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  if (!type.getLayout().isIdentity() || type.getMemorySpace() ||
      !type.getElementType().isIntOrFloat() ||
      type.getElementTypeBitWidth() % 8 != 0)
    return std::nullopt;
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  auto dynamicSizes = alloc.getDynamicSizes().begin();
  for (int64_t size : type.getShape()) {
    if (ShapedType::isDynamic(size)) {
      Value dynamicSize = *dynamicSizes++;
      std::optional<int64_t> bound =
          getIndexRange(dynamicSize, /*depth=*/8).upper;
      if (!bound) {
        FailureOr<int64_t> computed =
            ValueBoundsConstraintSet::computeConstantBound(
                presburger::BoundType::UB,
                ValueBoundsConstraintSet::Variable(dynamicSize),
                /*stopCondition=*/nullptr, /*closedUB=*/true);
        if (succeeded(computed))
          bound = *computed;
      }
      if (!bound || *bound < 0)
        return std::nullopt;
      size = *bound;
    }
    if (size != 0 && bytes > (int64_t(1) << 62) / size)
      return std::nullopt;
    bytes *= size;
  }
  return bytes;
}
