//===- RecognizeAttention.cpp - Scaled dot-product attention ----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A pattern set of graph-fuse: attention written out as models export it,
//
//   scores = batch_matmul(q, k_t)          [batch..., S, T]
//   scaled = scores * c  or  scores / c    (c a constant splat; optional)
//   masked = scaled + mask                 (optional)
//   p      = softmax(masked) along T
//   out    = batch_matmul(p, v)            [batch..., S, Dv]
//
// becomes one graph.attention, which the lowering runs without ever holding
// the S x T scores in memory. The intermediates must have no live user
// outside the pattern; q, k_t and v share their batch dimensions (no
// broadcasting), and the mask's batch dimensions are all 1 or all the
// scores' (a mask that differs per batch but not per head stays unfused).
//
//===----------------------------------------------------------------------===//

#include "FusionPatterns.h"

#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Transforms/Liveness.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::graph;

namespace {

static bool isF32Tensor(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.hasStaticShape() && type.getElementType().isF32();
}

static ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

struct RecognizeAttention : public OpRewritePattern<SoftmaxOp> {
  RecognizeAttention(MLIRContext *context, const LiveOps &live)
      : OpRewritePattern<SoftmaxOp>(context), live(live) {}

  /// Whether `value`'s only live user is `user`.
  bool usedOnlyBy(Value value, Operation *user) const {
    return live.getSoleLiveUser(value) == user;
  }

  LogicalResult matchAndRewrite(SoftmaxOp softmax,
                                PatternRewriter &rewriter) const override {
    Value x = softmax.getX();
    if (!isF32Tensor(x))
      return failure();
    ArrayRef<int64_t> scoresShape = shapeOf(x);
    int64_t rank = scoresShape.size();
    // The axis attribute reads as unsigned: -1 comes back as 2^64 - 1.
    int64_t axis = softmax.getAxis();
    if (rank < 2 || (axis != -1 && axis != rank - 1))
      return rewriter.notifyMatchFailure(softmax, "not along the last axis");
    auto pv = dyn_cast_if_present<BatchMatMulOp>(
        live.getSoleLiveUser(softmax.getResult()));
    if (!pv || pv.getA() != softmax.getResult() ||
        pv.getB() == softmax.getResult())
      return rewriter.notifyMatchFailure(softmax, "no product by v");
    // In the order they are erased, users first.
    SmallVector<Operation *> ops = {pv, softmax};

    // Backwards from the softmax: the mask, the scale, the scores.
    Value mask;
    Value chain = x;
    Operation *user = softmax;
    if (auto add = chain.getDefiningOp<AddOp>();
        add && usedOnlyBy(chain, user)) {
      for (auto [scores, other] : {std::pair(add.getLhs(), add.getRhs()),
                                   std::pair(add.getRhs(), add.getLhs())}) {
        Operation *def = scores.getDefiningOp();
        if (scores.getType() == x.getType() &&
            isa_and_present<MulOp, DivOp, BatchMatMulOp>(def) &&
            isMask(other, scoresShape)) {
          mask = other;
          chain = scores;
          user = add;
          ops.push_back(add);
          break;
        }
      }
    }
    float scale = 1.0f;
    if (Operation *def = chain.getDefiningOp();
        isa_and_present<MulOp, DivOp>(def) && usedOnlyBy(chain, user) &&
        def->getOperand(0) != def->getOperand(1)) {
      std::optional<float> c;
      Value scores;
      if (isa<DivOp>(def)) {
        c = getConstantSplatF32(def->getOperand(1));
        scores = def->getOperand(0);
        if (c)
          c = 1.0f / *c;
      } else {
        for (unsigned i : {0u, 1u})
          if ((c = getConstantSplatF32(def->getOperand(1 - i)))) {
            scores = def->getOperand(i);
            break;
          }
      }
      if (c && scores.getType() == x.getType()) {
        scale = *c;
        chain = scores;
        user = def;
        ops.push_back(def);
      }
    }
    auto qk = chain.getDefiningOp<BatchMatMulOp>();
    if (!qk || !usedOnlyBy(chain, user))
      return rewriter.notifyMatchFailure(softmax, "no product q . k_t");
    ops.push_back(qk);
    Value q = qk.getA(), kT = qk.getB(), v = pv.getB();
    for (Value operand : {q, kT, v})
      if (!isF32Tensor(operand) ||
          static_cast<int64_t>(shapeOf(operand).size()) != rank ||
          shapeOf(operand).drop_back(2) != scoresShape.drop_back(2))
        return rewriter.notifyMatchFailure(softmax, "broadcast batch");
    if (!isF32Tensor(pv.getResult()))
      return failure();

    // Replace the product by v, then erase the rest and their dead users.
    SmallVector<Location> locs = llvm::map_to_vector(
        llvm::reverse(ops), [](Operation *op) { return op->getLoc(); });
    rewriter.setInsertionPoint(pv);
    if (mask && static_cast<int64_t>(shapeOf(mask).size()) < rank) {
      SmallVector<int64_t> shape(rank - shapeOf(mask).size(), 1);
      llvm::append_range(shape, shapeOf(mask));
      mask =
          ReshapeOp::create(rewriter, mask.getLoc(),
                            RankedTensorType::get(shape, rewriter.getF32Type()),
                            mask, rewriter.getDenseI64ArrayAttr(shape));
    }
    auto attention =
        AttentionOp::create(rewriter, rewriter.getFusedLoc(locs), pv.getType(),
                            q, kT, v, mask, rewriter.getF32FloatAttr(scale));
    rewriter.replaceAllUsesWith(pv.getResult(), attention.getResult());
    llvm::SetVector<Operation *> deadUsers;
    for (Operation *op : ops)
      live.collectDeadUsers(op->getResult(0), deadUsers);
    for (Operation *dead : deadUsers)
      rewriter.eraseOp(dead);
    for (Operation *op : ops)
      rewriter.eraseOp(op);
    return success();
  }

  /// Whether `mask`, added to the scores, broadcasts as graph.attention's
  /// mask may: f32, no more dimensions than the scores, the batch ones all 1
  /// or all the scores', then S or 1, then T.
  static bool isMask(Value mask, ArrayRef<int64_t> scores) {
    if (!isF32Tensor(mask))
      return false;
    ArrayRef<int64_t> shape = shapeOf(mask);
    size_t rank = scores.size();
    if (shape.size() > rank || shape.empty() || shape.back() != scores.back())
      return false;
    SmallVector<int64_t> full(rank - shape.size(), 1);
    llvm::append_range(full, shape);
    ArrayRef<int64_t> batch = ArrayRef<int64_t>(full).drop_back(2);
    bool batchOk = batch == scores.drop_back(2) ||
                   llvm::all_of(batch, [](int64_t d) { return d == 1; });
    return batchOk &&
           (full[rank - 2] == 1 || full[rank - 2] == scores[rank - 2]);
  }

  const LiveOps &live;
};

} // namespace

void mlir::graph::populateRecognizeAttentionPatterns(
    RewritePatternSet &patterns, const LiveOps &live) {
  patterns.add<RecognizeAttention>(patterns.getContext(), live);
}
