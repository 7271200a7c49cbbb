//===- RecognizeNormalizations.cpp - layer_norm, rms_norm ------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The first pattern set of graph-fuse: a layer norm or an RMS norm spelled
// out in elementwise ops and reductions, as PyTorch exports `nn.LayerNorm`
// before opset 17 and LLaMA's or T5's RMSNorm at any opset, becomes one
// graph.layer_norm or graph.rms_norm, which the lowering runs as one kernel
// over each row (where the decomposition made about five).
//
//   layer norm: mean = reduce_mean(x), d = x - mean,
//               var = reduce_mean(d * d), s = sqrt(var + eps),
//               y = d / s [* scale] [+ bias]
//   RMS norm:   s = sqrt(reduce_mean(x * x) + eps), y = x / s [* scale]
//
// where the reductions keep the trailing dimensions from some axis on (the
// row), `eps` is a constant splat, `d / s` may also be `d * reciprocal(s)`
// or `d * (1 / s)` (torch's rsqrt), and the scale and bias have the row's
// shape (after leading ones). The intermediates must have no live user
// outside the pattern. Anything else (epsilon added after the square root,
// a reduction over other axes, a scale that varies between rows) is left as
// it is.
//
//===----------------------------------------------------------------------===//

#include "FusionPatterns.h"

#include "graph/Dialect/Graph/IR/ConstantTensor.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Transforms/Liveness.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::graph;

std::optional<float> mlir::graph::getConstantSplatF32(Value value) {
  Attribute attr;
  if (!value || !matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  std::optional<ConstantTensor> tensor = readConstantTensor(attr);
  if (!tensor || !tensor->isSplat)
    return std::nullopt;
  return tensor->splatValue;
}

namespace {

/// The ops of a recognized normalization, in program order, and its
/// operands.
struct Normalization {
  SmallVector<Operation *> ops;
  Value x, scale, bias;
  int64_t axis = -1;
  float epsilon = 0.0f;
};

/// The operand of the binary `op` that is not `value`, when `value` is the
/// other one exactly once.
static Value getOtherOperand(Operation *op, Value value) {
  if (op->getNumOperands() != 2 || op->getOperand(0) == op->getOperand(1))
    return {};
  if (op->getOperand(0) == value)
    return op->getOperand(1);
  if (op->getOperand(1) == value)
    return op->getOperand(0);
  return {};
}

static bool hasType(Value value, Type type) { return value.getType() == type; }

class NormalizationMatcher {
public:
  explicit NormalizationMatcher(const LiveOps &live) : live(live) {}

  /// Matches the normalization whose first reduction is `reduce`.
  std::optional<Normalization> match(ReduceMeanOp reduce, bool &rms) const {
    std::optional<Normalization> found = matchLayerNorm(reduce);
    rms = !found;
    if (!found)
      found = matchRMSNorm(reduce);
    return found;
  }

private:
  /// The first row dimension when `reduce` takes the mean over the trailing
  /// dimensions of an f32 tensor from that axis on, keeping them.
  static std::optional<int64_t> getRowAxis(ReduceMeanOp reduce) {
    auto type = dyn_cast<RankedTensorType>(reduce.getX().getType());
    if (!type || !type.getElementType().isF32() || !reduce.getKeepdims() ||
        !type.hasStaticShape())
      return std::nullopt;
    int64_t rank = type.getRank();
    SmallVector<int64_t> axes;
    for (int64_t axis : reduce.getAxes()) {
      if (axis < -rank || axis >= rank)
        return std::nullopt;
      axes.push_back(axis < 0 ? axis + rank : axis);
    }
    llvm::sort(axes);
    if (axes.empty() || axes.back() != rank - 1)
      return std::nullopt;
    for (auto [i, axis] : llvm::enumerate(axes))
      if (axis != rank - int64_t(axes.size()) + int64_t(i))
        return std::nullopt;
    return axes.front();
  }

  /// Matches `sqrt(mean + eps)` after the reduction `mean` (its sole live
  /// user chain); fills in the epsilon.
  SqrtOp matchDeviation(Value mean, Normalization &norm) const {
    auto add = dyn_cast_if_present<AddOp>(live.getSoleLiveUser(mean));
    if (!add || !hasType(add.getResult(), mean.getType()))
      return {};
    std::optional<float> eps = getConstantSplatF32(getOtherOperand(add, mean));
    if (!eps)
      return {};
    auto sqrt =
        dyn_cast_if_present<SqrtOp>(live.getSoleLiveUser(add.getResult()));
    if (!sqrt)
      return {};
    norm.epsilon = *eps;
    norm.ops.append({add, sqrt});
    return sqrt;
  }

  /// Matches `centered / s`, `centered * reciprocal(s)` or
  /// `centered * (1 / s)` for the deviation `s`; returns the normalized
  /// value and adds its ops.
  Value matchDivision(Value centered, SqrtOp sqrt, Normalization &norm) const {
    Value s = sqrt.getResult();
    Operation *user = live.getSoleLiveUser(s);
    if (!user)
      return {};
    auto type = centered.getType();
    if (auto div = dyn_cast<DivOp>(user)) {
      if (div.getLhs() == centered && div.getRhs() == s &&
          hasType(div.getResult(), type)) {
        norm.ops.push_back(div);
        return div.getResult();
      }
      // torch.rsqrt: 1 / s.
      std::optional<float> one = getConstantSplatF32(div.getLhs());
      if (div.getRhs() != s || !one || *one != 1.0f ||
          !hasType(div.getResult(), s.getType()))
        return {};
    } else if (!isa<ReciprocalOp>(user)) {
      return {};
    }
    Value inverse = user->getResult(0);
    auto mul = dyn_cast_if_present<MulOp>(live.getSoleLiveUser(inverse));
    if (!mul || getOtherOperand(mul, inverse) != centered ||
        !hasType(mul.getResult(), type))
      return {};
    norm.ops.append({user, mul});
    return mul.getResult();
  }

  /// Whether `param` holds one value per row position: its shape is the
  /// row's after leading ones.
  static bool isRowParameter(Value param, RankedTensorType type, int64_t axis) {
    auto paramType = dyn_cast<RankedTensorType>(param.getType());
    if (!paramType || paramType.getElementType() != type.getElementType())
      return false;
    return LayerNormOp::isRowShaped(paramType.getShape(), type.getShape(),
                                    axis);
  }

  /// Extends `y` by a multiplication by the scale (and, with `withBias`, an
  /// addition of the bias) where `y`'s sole live user is one.
  void matchAffine(Value y, bool withBias, Normalization &norm) const {
    auto type = cast<RankedTensorType>(norm.x.getType());
    if (auto mul = dyn_cast_if_present<MulOp>(live.getSoleLiveUser(y))) {
      Value scale = getOtherOperand(mul, y);
      if (scale && isRowParameter(scale, type, norm.axis) &&
          hasType(mul.getResult(), type)) {
        norm.scale = scale;
        norm.ops.push_back(mul);
        y = mul.getResult();
      }
    }
    if (!withBias)
      return;
    if (auto add = dyn_cast_if_present<AddOp>(live.getSoleLiveUser(y))) {
      Value bias = getOtherOperand(add, y);
      if (bias && isRowParameter(bias, type, norm.axis) &&
          hasType(add.getResult(), type)) {
        norm.bias = bias;
        norm.ops.push_back(add);
      }
    }
  }

  std::optional<Normalization> matchLayerNorm(ReduceMeanOp mean) const {
    std::optional<int64_t> axis = getRowAxis(mean);
    if (!axis)
      return std::nullopt;
    Normalization norm;
    norm.x = mean.getX();
    norm.axis = *axis;
    auto sub =
        dyn_cast_if_present<SubOp>(live.getSoleLiveUser(mean.getResult()));
    if (!sub || sub.getLhs() != norm.x || sub.getRhs() != mean.getResult() ||
        !hasType(sub.getResult(), norm.x.getType()))
      return std::nullopt;
    Value d = sub.getResult();
    // d's live users: its square and the division.
    SmallVector<Operation *> users = live.getLiveUsers(d);
    MulOp square;
    for (Operation *user : users)
      if (auto mul = dyn_cast<MulOp>(user);
          mul && mul.getLhs() == d && mul.getRhs() == d)
        square = mul;
    if (!square)
      return std::nullopt;
    auto variance = dyn_cast_if_present<ReduceMeanOp>(
        live.getSoleLiveUser(square.getResult()));
    if (!variance || getRowAxis(variance) != axis)
      return std::nullopt;
    norm.ops.append({mean, sub, square, variance});
    SqrtOp sqrt = matchDeviation(variance.getResult(), norm);
    if (!sqrt)
      return std::nullopt;
    Value normalized = matchDivision(d, sqrt, norm);
    if (!normalized)
      return std::nullopt;
    // Nothing but the square and the division reads d.
    Operation *division = normalized.getDefiningOp();
    if (llvm::any_of(users, [&](Operation *user) {
          return user != square && user != division;
        }))
      return std::nullopt;
    matchAffine(normalized, /*withBias=*/true, norm);
    return norm;
  }

  std::optional<Normalization> matchRMSNorm(ReduceMeanOp meanSquare) const {
    std::optional<int64_t> axis = getRowAxis(meanSquare);
    auto square = meanSquare.getX().getDefiningOp<MulOp>();
    if (!axis || !square || square.getLhs() != square.getRhs() ||
        live.getSoleLiveUser(square.getResult()) != meanSquare)
      return std::nullopt;
    Normalization norm;
    norm.x = square.getLhs();
    norm.axis = *axis;
    norm.ops.append({square, meanSquare});
    SqrtOp sqrt = matchDeviation(meanSquare.getResult(), norm);
    if (!sqrt)
      return std::nullopt;
    Value normalized = matchDivision(norm.x, sqrt, norm);
    if (!normalized)
      return std::nullopt;
    matchAffine(normalized, /*withBias=*/false, norm);
    return norm;
  }

  const LiveOps &live;
};

/// A row parameter reshaped to the row's shape (a constant reshape folds).
static Value toRowShape(PatternRewriter &rewriter, Value param,
                        RankedTensorType type, int64_t axis) {
  if (!param)
    return {};
  ArrayRef<int64_t> row = type.getShape().drop_front(axis);
  auto paramType = cast<RankedTensorType>(param.getType());
  if (paramType.getShape() == row)
    return param;
  return ReshapeOp::create(rewriter, param.getLoc(),
                           RankedTensorType::get(row, type.getElementType()),
                           param, rewriter.getDenseI64ArrayAttr(row));
}

struct RecognizeNormalization : public OpRewritePattern<ReduceMeanOp> {
  RecognizeNormalization(MLIRContext *context, const LiveOps &live)
      : OpRewritePattern<ReduceMeanOp>(context), live(live) {}

  LogicalResult matchAndRewrite(ReduceMeanOp reduce,
                                PatternRewriter &rewriter) const override {
    bool rms = false;
    std::optional<Normalization> norm =
        NormalizationMatcher(live).match(reduce, rms);
    if (!norm)
      return rewriter.notifyMatchFailure(reduce, "no normalization");
    Operation *last = norm->ops.back();
    auto type = cast<RankedTensorType>(norm->x.getType());
    SmallVector<Location> locs = llvm::map_to_vector(
        norm->ops, [](Operation *op) { return op->getLoc(); });
    Location loc = rewriter.getFusedLoc(locs);
    rewriter.setInsertionPoint(last);
    Value scale = toRowShape(rewriter, norm->scale, type, norm->axis);
    Value bias = toRowShape(rewriter, norm->bias, type, norm->axis);
    IntegerAttr axis = rewriter.getI64IntegerAttr(norm->axis);
    FloatAttr epsilon = rewriter.getF32FloatAttr(norm->epsilon);
    Value result = rms ? RMSNormOp::create(rewriter, loc, type, norm->x, scale,
                                           axis, epsilon)
                             .getResult()
                       : LayerNormOp::create(rewriter, loc, type, norm->x,
                                             scale, bias, axis, epsilon)
                             .getResult();
    rewriter.replaceAllUsesWith(last->getResult(0), result);

    // The intermediates' dead users go with them, as in a fused group.
    llvm::SetVector<Operation *> deadUsers;
    for (Operation *op : norm->ops)
      live.collectDeadUsers(op->getResult(0), deadUsers);
    for (Operation *dead : deadUsers)
      rewriter.eraseOp(dead);
    for (Operation *op : llvm::reverse(norm->ops))
      rewriter.eraseOp(op);
    return success();
  }

  const LiveOps &live;
};

} // namespace

void mlir::graph::populateRecognizeNormalizationPatterns(
    RewritePatternSet &patterns, const LiveOps &live) {
  patterns.add<RecognizeNormalization>(patterns.getContext(), live);
}
