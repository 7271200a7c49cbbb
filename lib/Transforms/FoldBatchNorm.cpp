//===- FoldBatchNorm.cpp - Fold batch_norm into conv weights ----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// In inference, batch_norm after a conv is an affine map per output channel,
// so it can be folded into the conv's constant weight and bias:
//   s[f]    = scale[f] / sqrt(variance[f] + epsilon)
//   W'[f]   = W[f] * s[f]
//   b'[f]   = (b[f] - mean[f]) * s[f] + bias[f]
// computed in f32. The result equals the original up to rounding. Both ops
// NCHW (FCHW weight, filter f outermost) or both NHWC (HWCF, innermost). A
// splat weight scaled by one factor stays a splat; any other new weight is
// materialized, and only within the fold limits (FoldLimits.h), checked
// before anything is computed.
//
//===----------------------------------------------------------------------===//

#include "FusionPatterns.h"

#include "graph/Dialect/Graph/IR/ConstantTensor.h"
#include "graph/Dialect/Graph/IR/FoldLimits.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Transforms/Liveness.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/bit.h"

#include <cmath>

using namespace mlir;
using namespace mlir::graph;

/// The f32 value of `value` when a constant op defines it.
static std::optional<ConstantTensor> getConstantTensor(Value value) {
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  return readConstantTensor(attr);
}

namespace {
/// conv2d (constant weight and bias) -> batch_norm (constant parameters)
/// becomes one conv2d with new constant weight and bias.
struct FoldBatchNormIntoConv : public OpRewritePattern<BatchNormOp> {
  FoldBatchNormIntoConv(MLIRContext *context, const LiveOps &live)
      : OpRewritePattern(context), live(live) {}

  LogicalResult matchAndRewrite(BatchNormOp bn,
                                PatternRewriter &rewriter) const override {
    if (bn->getParentOfType<FusedOp>())
      return rewriter.notifyMatchFailure(bn, "inside a fused group");
    auto conv = bn.getInput().getDefiningOp<Conv2DOp>();
    if (!conv)
      return rewriter.notifyMatchFailure(bn, "input is not a conv2d result");
    Value convOut = conv.getOutput();
    // Another live user would see the folded values instead of the conv's.
    SmallVector<Operation *> liveUsers = live.getLiveUsers(convOut);
    if (liveUsers.size() != 1 || liveUsers.front() != bn.getOperation() ||
        llvm::count(bn->getOperands(), convOut) != 1)
      return rewriter.notifyMatchFailure(bn, "conv2d has another live user");
    if (convOut.getType() != bn.getOutput().getType())
      return rewriter.notifyMatchFailure(bn, "conv2d and batch_norm types "
                                             "differ");

    // An NHWC conv has HWCF weights, filters innermost; its batch_norm must
    // read the channels where the conv writes them.
    bool nhwc = conv.getLayout() == Layout::NHWC;
    if (bn.getLayout() != conv.getLayout())
      return rewriter.notifyMatchFailure(bn, "conv2d and batch_norm layouts "
                                             "differ");
    std::optional<ConstantTensor> weight = getConstantTensor(conv.getWeight());
    if (!weight || weight->getShape().size() != 4)
      return rewriter.notifyMatchFailure(bn, "conv2d weight is not constant");
    int64_t numFilters = weight->getShape()[nhwc ? 3 : 0];
    auto isPerFilter = [&](const std::optional<ConstantTensor> &t) {
      return t && t->getShape().size() == 1 && t->getShape()[0] == numFilters;
    };
    std::optional<ConstantTensor> convBias;
    if (Value bias = conv.getBias()) {
      convBias = getConstantTensor(bias);
      if (!isPerFilter(convBias))
        return rewriter.notifyMatchFailure(bn, "conv2d bias is not constant");
    }
    std::optional<ConstantTensor> scale = getConstantTensor(bn.getScale());
    std::optional<ConstantTensor> shift = getConstantTensor(bn.getBias());
    std::optional<ConstantTensor> mean = getConstantTensor(bn.getMean());
    std::optional<ConstantTensor> variance =
        getConstantTensor(bn.getVariance());
    if (!isPerFilter(scale) || !isPerFilter(shift) || !isPerFilter(mean) ||
        !isPerFilter(variance))
      return rewriter.notifyMatchFailure(bn, "batch_norm parameters are not "
                                             "constant");

    if (!withinFoldLimits({numFilters}, numFilters))
      return rewriter.notifyMatchFailure(
          bn, "the new conv2d bias exceeds the fold limits");
    float epsilon = bn.getEpsilon().convertToFloat();
    SmallVector<float> factor(numFilters), newBias(numFilters);
    for (int64_t f = 0; f < numFilters; ++f) {
      factor[f] = (*scale)[f] / std::sqrt((*variance)[f] + epsilon);
      float b = convBias ? (*convBias)[f] : 0.0f;
      float centered = (b - (*mean)[f]) * factor[f];
      newBias[f] = centered + (*shift)[f];
    }
    // One factor for every filter keeps a splat weight a splat.
    bool oneFactor = !factor.empty() && llvm::all_of(factor, [&](float f) {
      return llvm::bit_cast<uint32_t>(f) == llvm::bit_cast<uint32_t>(factor[0]);
    });
    DenseElementsAttr newWeightAttr;
    if (weight->isSplat && oneFactor) {
      newWeightAttr =
          makeSplatTensor(weight->type, weight->splatValue * factor[0]);
    } else {
      int64_t numElements = weight->getNumElements();
      if (!withinFoldLimits({numElements}, numElements))
        return rewriter.notifyMatchFailure(
            bn, "the new conv2d weight exceeds the fold limits");
      int64_t perFilter = numElements / numFilters;
      SmallVector<float> newWeight = weight->expand();
      for (int64_t i = 0, e = newWeight.size(); i < e; ++i)
        newWeight[i] *= factor[nhwc ? i % numFilters : i / perFilter];
      newWeightAttr = makeConstantTensor(weight->type, newWeight);
    }

    RankedTensorType biasType =
        convBias ? convBias->type
                 : RankedTensorType::get({numFilters}, rewriter.getF32Type());
    // The folded values get a new, unshared constant: the old ones may have
    // other users.
    rewriter.setInsertionPoint(bn);
    Value weightCst = ConstantOp::create(rewriter, conv.getWeight().getLoc(),
                                         weight->type, newWeightAttr);
    Value biasCst = ConstantOp::create(rewriter, bn.getLoc(), biasType,
                                       makeConstantTensor(biasType, newBias));
    auto newConv = Conv2DOp::create(
        rewriter, rewriter.getFusedLoc({conv.getLoc(), bn.getLoc()}),
        bn.getOutput().getType(), conv.getInput(), weightCst, biasCst,
        conv.getStridesAttr(), conv.getPaddingAttr(), conv.getDilationsAttr(),
        conv.getGroupsAttr(), conv.getLayoutAttr());
    newConv->setDiscardableAttrs(conv->getDiscardableAttrDictionary());

    llvm::SetVector<Operation *> deadUsers;
    live.collectDeadUsers(convOut, deadUsers);
    for (Operation *dead : deadUsers)
      rewriter.eraseOp(dead);
    rewriter.replaceOp(bn, newConv.getOutput());
    rewriter.eraseOp(conv);
    return success();
  }

  const LiveOps &live;
};
} // namespace

void mlir::graph::populateFoldBatchNormPatterns(RewritePatternSet &patterns,
                                                const LiveOps &live) {
  patterns.add<FoldBatchNormIntoConv>(patterns.getContext(), live);
}
