//===- ElementwiseToLinalg.cpp - Elementwise graph ops ----------*- C++ -*-===//
//
// Activations, broadcasting arithmetic and batch normalization become one
// parallel linalg.generic each. The scalar bodies are the operations of the
// fold hooks (ReferenceKernels.cpp) in the same order, without fast-math
// flags, so that compile-time and run-time results agree bit for bit.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"

#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::graph;

namespace {

/// Rewrites a unary or binary op into an elementwise linalg.generic whose
/// body is `ScalarFn::build(op, builder, loc, scalars)`.
template <typename OpTy, typename ScalarFn>
struct ElementwiseToGeneric : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    Value result = createElementwise(
        rewriter, op.getLoc(), resultType, adaptor.getOperands(), {},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return ScalarFn::build(op, b, loc, args);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// maximumf(x, +0): relu(-0) = +0 and NaN stays NaN, as the fold.
struct ReluFn {
  static Value build(ReluOp, OpBuilder &b, Location loc, ValueRange args) {
    Value zero = createF32Constant(b, loc, 0.0f);
    return arith::MaximumFOp::create(b, loc, args[0], zero);
  }
};

struct ClipFn {
  static Value build(ClipOp op, OpBuilder &b, Location loc, ValueRange args) {
    Value lo = createF32Constant(b, loc, op.getMin().convertToFloat());
    Value hi = createF32Constant(b, loc, op.getMax().convertToFloat());
    Value raised = arith::MaximumFOp::create(b, loc, args[0], lo);
    return arith::MinimumFOp::create(b, loc, raised, hi);
  }
};

/// 1 / (1 + exp(-x)).
struct SigmoidFn {
  static Value build(SigmoidOp, OpBuilder &b, Location loc, ValueRange args) {
    Value one = createF32Constant(b, loc, 1.0f);
    Value negated = arith::NegFOp::create(b, loc, args[0]);
    Value exp = math::ExpOp::create(b, loc, negated);
    Value denominator = arith::AddFOp::create(b, loc, one, exp);
    return arith::DivFOp::create(b, loc, one, denominator);
  }
};

struct TanhFn {
  static Value build(TanhOp, OpBuilder &b, Location loc, ValueRange args) {
    return math::TanhOp::create(b, loc, args[0]);
  }
};

template <typename OpTy, typename ArithOpTy> struct BinaryFn {
  static Value build(OpTy, OpBuilder &b, Location loc, ValueRange args) {
    return ArithOpTy::create(b, loc, args[0], args[1]);
  }
};

/// ((x - mean) / sqrt(var + eps)) * scale + bias, the parameters read along
/// the channel dimension (1, or 3 in NHWC).
struct BatchNormToGeneric : OpConversionPattern<BatchNormOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BatchNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    MLIRContext *context = rewriter.getContext();
    unsigned rank = resultType.getRank();
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
    unsigned channelDim = op.getLayout() == "NHWC" ? 3 : 1;
    AffineMap channel =
        AffineMap::get(rank, 0, getAffineDimExpr(channelDim, context), context);
    float epsilon = op.getEpsilon().convertToFloat();
    Value result = createElementwise(
        rewriter, op.getLoc(), resultType,
        ValueRange{adaptor.getInput(), adaptor.getScale(), adaptor.getBias(),
                   adaptor.getMean(), adaptor.getVariance()},
        {identity, channel, channel, channel, channel},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value x = args[0], scale = args[1], bias = args[2], mean = args[3],
                var = args[4];
          Value eps = createF32Constant(b, loc, epsilon);
          Value centered = arith::SubFOp::create(b, loc, x, mean);
          Value shifted = arith::AddFOp::create(b, loc, var, eps);
          Value stddev = math::SqrtOp::create(b, loc, shifted);
          Value normalized = arith::DivFOp::create(b, loc, centered, stddev);
          Value scaled = arith::MulFOp::create(b, loc, normalized, scale);
          return arith::AddFOp::create(b, loc, scaled, bias);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::graph::populateElementwiseToLinalgPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ElementwiseToGeneric<ReluOp, ReluFn>,
               ElementwiseToGeneric<ClipOp, ClipFn>,
               ElementwiseToGeneric<SigmoidOp, SigmoidFn>,
               ElementwiseToGeneric<TanhOp, TanhFn>,
               ElementwiseToGeneric<AddOp, BinaryFn<AddOp, arith::AddFOp>>,
               ElementwiseToGeneric<SubOp, BinaryFn<SubOp, arith::SubFOp>>,
               ElementwiseToGeneric<MulOp, BinaryFn<MulOp, arith::MulFOp>>,
               ElementwiseToGeneric<DivOp, BinaryFn<DivOp, arith::DivFOp>>,
               BatchNormToGeneric>(context);
}
