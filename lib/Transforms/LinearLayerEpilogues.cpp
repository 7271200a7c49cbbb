//===- LinearLayerEpilogues.cpp - Linear layers before fusion ---*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A transformer's linear layer is a batch_matmul of a [batch..., M, K]
// activation by a constant K x N weight, then a bias add, an activation or a
// residual add. It runs as one matrix product over the flattened rows
// (graph-pack-weights would flatten it anyway), and the reshape back to the
// batch shape moves below the elementwise ops that follow, so that they
// become the product's epilogue: computed on its tile while it is still in
// registers, where a separate kernel would read and write the whole
// [M, N] result again (BERT's bias + GELU after its 128 x 3072 product).
//
//===----------------------------------------------------------------------===//

#include "FusionPatterns.h"

#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Transforms/Liveness.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::graph;

/// How many trailing dimensions `from` and `to` have in common: a value
/// broadcast over no more than those broadcasts the same way over either.
static int64_t countCommonTrailingDims(ArrayRef<int64_t> from,
                                       ArrayRef<int64_t> to) {
  int64_t common = 0;
  while (common < int64_t(from.size()) && common < int64_t(to.size()) &&
         from[from.size() - 1 - common] == to[to.size() - 1 - common])
    ++common;
  return common;
}

/// Whether `operand` of an elementwise op can follow the op from the
/// reshaped shape `to` to the reshape's source shape `from`: a value of the
/// reshaped shape is reshaped back (a view), one broadcast over no more than
/// the common trailing dimensions stays as it is.
static bool canFollowReshape(Value operand, ArrayRef<int64_t> from,
                             ArrayRef<int64_t> to) {
  auto type = dyn_cast<RankedTensorType>(operand.getType());
  return type && type.hasStaticShape() &&
         (type.getShape() == to ||
          type.getRank() <= countCommonTrailingDims(from, to));
}

/// `operand` (canFollowReshape) for the op at the source shape `from`.
static Value getOperandBeforeReshape(PatternRewriter &rewriter, Value operand,
                                     ArrayRef<int64_t> from,
                                     ArrayRef<int64_t> to) {
  auto type = cast<RankedTensorType>(operand.getType());
  if (type.getShape() != to)
    return operand;
  if (auto reshape = operand.getDefiningOp<ReshapeOp>())
    if (cast<RankedTensorType>(reshape.getX().getType()).getShape() == from)
      return reshape.getX();
  auto sourceType = RankedTensorType::get(from, type.getElementType());
  return ReshapeOp::create(rewriter, operand.getLoc(), sourceType, operand,
                           rewriter.getDenseI64ArrayAttr(from));
}

/// Moves `reshape` below the elementwise ops that follow it, one at a time,
/// while each is the only live user of the value before it: `op(reshape(x),
/// y)` becomes `reshape(op(x, y'))`. Returns whether it moved.
static bool sinkReshape(PatternRewriter &rewriter, ReshapeOp reshape,
                        const LiveOps &live) {
  for (bool moved = false;; moved = true) {
    Value reshaped = reshape.getResult();
    Operation *user = live.getSoleLiveUser(reshaped);
    if (!user || user->getBlock() != reshape->getBlock() ||
        !isElementwise(user) || isa<BatchNormOp>(user) ||
        user->getNumResults() != 1 || user->getNumRegions() != 0 ||
        !isMemoryEffectFree(user) ||
        llvm::count(user->getOperands(), reshaped) != 1)
      return moved;
    auto resultType = dyn_cast<RankedTensorType>(user->getResult(0).getType());
    auto sourceType = cast<RankedTensorType>(reshape.getX().getType());
    auto reshapedType = cast<RankedTensorType>(reshaped.getType());
    if (!resultType || resultType.getShape() != reshapedType.getShape() ||
        resultType.getElementType() != reshapedType.getElementType())
      return moved;
    ArrayRef<int64_t> from = sourceType.getShape(),
                      to = reshapedType.getShape();
    if (!llvm::all_of(user->getOperands(), [&](Value operand) {
          return operand == reshaped || canFollowReshape(operand, from, to);
        }))
      return moved;

    rewriter.setInsertionPoint(user);
    SmallVector<Value> operands =
        llvm::map_to_vector(user->getOperands(), [&](Value operand) -> Value {
          return operand == reshaped
                     ? reshape.getX()
                     : getOperandBeforeReshape(rewriter, operand, from, to);
        });
    OperationState state(user->getLoc(), user->getName());
    state.addOperands(operands);
    state.addAttributes(user->getAttrs());
    state.addTypes(RankedTensorType::get(from, resultType.getElementType()));
    Operation *above = rewriter.create(state);
    auto below = ReshapeOp::create(rewriter, reshape.getLoc(), resultType,
                                   above->getResult(0),
                                   rewriter.getDenseI64ArrayAttr(to));
    rewriter.replaceOp(user, below.getResult());
    if (reshape->use_empty())
      rewriter.eraseOp(reshape);
    reshape = below;
  }
}

namespace {
/// A batch_matmul by a constant matrix becomes a matmul over its rows, and
/// the reshape back moves below its epilogue.
struct FlattenLinearLayer : public OpRewritePattern<BatchMatMulOp> {
  FlattenLinearLayer(MLIRContext *context, const LiveOps &live)
      : OpRewritePattern<BatchMatMulOp>(context), live(live) {}

  LogicalResult matchAndRewrite(BatchMatMulOp batch,
                                PatternRewriter &rewriter) const override {
    if (batch->getParentOfType<FusedOp>() || live.isDead(batch))
      return rewriter.notifyMatchFailure(batch, "inside a group or dead");
    MatMulOp matmul = flattenBatchMatMul(rewriter, batch);
    if (!matmul)
      return rewriter.notifyMatchFailure(batch, "not by a constant matrix");
    if (auto reshape =
            dyn_cast<ReshapeOp>(*matmul.getResult().getUsers().begin()))
      (void)sinkReshape(rewriter, reshape, live);
    return success();
  }

  const LiveOps &live;
};

/// The same for a matmul whose result is only reshaped (a linear layer
/// written with its reshapes).
struct SinkMatMulReshape : public OpRewritePattern<MatMulOp> {
  SinkMatMulReshape(MLIRContext *context, const LiveOps &live)
      : OpRewritePattern<MatMulOp>(context), live(live) {}

  LogicalResult matchAndRewrite(MatMulOp matmul,
                                PatternRewriter &rewriter) const override {
    if (matmul->getParentOfType<FusedOp>() || live.isDead(matmul))
      return rewriter.notifyMatchFailure(matmul, "inside a group or dead");
    auto reshape =
        dyn_cast_or_null<ReshapeOp>(live.getSoleLiveUser(matmul.getResult()));
    if (!reshape)
      return rewriter.notifyMatchFailure(matmul, "not reshaped");
    return success(sinkReshape(rewriter, reshape, live));
  }

  const LiveOps &live;
};
} // namespace

void mlir::graph::populateLinearLayerEpiloguePatterns(
    RewritePatternSet &patterns, const LiveOps &live) {
  patterns.add<FlattenLinearLayer, SinkMatMulReshape>(patterns.getContext(),
                                                      live);
}
