//===- QDQToInteger.cpp - Quantized products computed on integers -------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The graph-qdq-to-integer pass (TVM's FakeQuantizationToInteger, ONNX
// Runtime's QDQ selectors): a quantized model in the QDQ form computes a
// matrix product in float on dequantized 8-bit operands,
//
//   matmul(dequantize(aq, sa, za), dequantize(bq, sb, zb))
//
// and with one scale for `a` and one per column of `b`, the same product is
//
//   dequantize(matmul_integer(aq, bq, za, zb), sa * sb, 0)
//
// and likewise a convolution of one group with one scale per filter.
// an exact sum of integer products, scaled once: what the target's integer
// dot-product kernels (graph-lower-integer-matmul) compute from weights
// packed at compile time, reading a quarter of the bytes. The rewrite runs
// before constant folding, which would turn the dequantized weights into
// float constants. It is taken only where those kernels serve: constant
// weights whose centered values fit the target's integer dot product.
//
// A quantization that no integer op reads and that is dequantized again
// becomes graph.fake_quantize, one elementwise op of floats, so that it
// fuses into the epilogue of the op before it (every target).
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/TypedTensor.h"
#include "graph/Target/CPU/PassTarget.h"
#include "graph/Transforms/Passes.h"

#include "mlir/Dialect/Traits.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHQDQTOINTEGER
#include "graph/Transforms/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

namespace {

/// The dequantization of an 8-bit integer tensor to f32, or nothing.
static DequantizeOp getInt8Dequantize(Value value) {
  auto op = value.getDefiningOp<DequantizeOp>();
  if (!op || !getElementTypeOrSelf(op.getX().getType()).isInteger(8) ||
      !getElementTypeOrSelf(op.getType()).isF32())
    return {};
  return op;
}

/// Whether `operand` (a scale or zero point, broadcast to `shape`) has one
/// value along every dimension of `shape` but `axis` (none with axis -1).
static bool variesOnlyAlong(Value operand, ArrayRef<int64_t> shape,
                            int64_t axis) {
  auto type = cast<RankedTensorType>(operand.getType());
  int64_t offset = int64_t(shape.size()) - type.getRank();
  for (auto [d, size] : llvm::enumerate(type.getShape()))
    if (size != 1 && int64_t(d) + offset != axis)
      return false;
  return type.hasStaticShape();
}

/// The values of a constant, looking through reshapes (which keep their
/// order), or nothing.
static std::optional<TypedTensor> readConstant(Value value) {
  while (auto reshape = value.getDefiningOp<ReshapeOp>())
    value = reshape.getX();
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  return readTypedTensor(attr);
}

/// Whether the constant 8-bit values `dequantize` reads, minus their zero
/// point (one, or one per group that `groupOf` gives an element's index),
/// fit in `bits` signed bits: what the target's integer dot product
/// multiplies.
static bool centeredValuesFit(DequantizeOp dequantize, unsigned bits,
                              function_ref<int64_t(int64_t)> groupOf) {
  std::optional<TypedTensor> values = readConstant(dequantize.getX());
  std::optional<TypedTensor> zero = readConstant(dequantize.getZeroPoint());
  if (!values || !zero)
    return false;
  int64_t lowest = -(int64_t(1) << (bits - 1)), highest = -lowest - 1;
  for (int64_t i = 0, e = values->getNumElements(); i < e; ++i) {
    int64_t centered =
        values->getInt(i) -
        zero->getInt(zero->getNumElements() == 1 ? 0 : groupOf(i));
    if (centered < lowest || centered > highest)
      return false;
  }
  return true;
}

/// An 8-bit weight matrix dequantized with one scale and zero point per
/// column (of the product: per row of a transposed matrix) or one in all.
struct QuantizedWeights {
  DequantizeOp dequantize;
  /// The matrix is N x K (gemm's trans_b).
  bool transposed;
};

/// `weights` as QuantizedWeights whose centered values `b - zero_point` fit
/// in `bits` signed bits, or nothing.
static std::optional<QuantizedWeights>
matchWeights(Value weights, bool transposed, unsigned bits) {
  DequantizeOp dequantize = getInt8Dequantize(weights);
  if (!dequantize)
    return std::nullopt;
  ArrayRef<int64_t> shape =
      cast<RankedTensorType>(dequantize.getType()).getShape();
  int64_t columnAxis = transposed ? 0 : 1;
  if (shape.size() != 2 ||
      !variesOnlyAlong(dequantize.getScale(), shape, columnAxis) ||
      !variesOnlyAlong(dequantize.getZeroPoint(), shape, columnAxis))
    return std::nullopt;
  if (!centeredValuesFit(dequantize, bits, [&](int64_t i) {
        return transposed ? i / shape[1] : i % shape[1];
      }))
    return std::nullopt;
  return QuantizedWeights{dequantize, transposed};
}

/// Convolution filters (F x C x KH x KW) dequantized with one scale and zero
/// point per filter or one in all, whose centered values fit in `bits`
/// signed bits, or nothing.
static DequantizeOp matchFilters(Value weight, unsigned bits) {
  DequantizeOp dequantize = getInt8Dequantize(weight);
  if (!dequantize)
    return {};
  ArrayRef<int64_t> shape =
      cast<RankedTensorType>(dequantize.getType()).getShape();
  if (shape.size() != 4 || !variesOnlyAlong(dequantize.getScale(), shape, 0) ||
      !variesOnlyAlong(dequantize.getZeroPoint(), shape, 0))
    return {};
  int64_t perFilter = shape[1] * shape[2] * shape[3];
  if (!centeredValuesFit(dequantize, bits,
                         [&](int64_t i) { return i / perFilter; }))
    return {};
  return dequantize;
}

/// The activation: dequantized 8-bit values with one scale and zero point.
static DequantizeOp matchActivation(Value a) {
  DequantizeOp dequantize = getInt8Dequantize(a);
  if (!dequantize)
    return {};
  ArrayRef<int64_t> shape =
      cast<RankedTensorType>(dequantize.getType()).getShape();
  if (!variesOnlyAlong(dequantize.getScale(), shape, -1) ||
      !variesOnlyAlong(dequantize.getZeroPoint(), shape, -1))
    return {};
  return dequantize;
}

/// `value` ([N, 1] or one element) as a vector of N, or unchanged.
static Value toColumnVector(PatternRewriter &rewriter, Location loc,
                            Value value, int64_t n) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getNumElements() == 1)
    return value;
  return ReshapeOp::create(rewriter, loc, type.clone({n}), value,
                           rewriter.getDenseI64ArrayAttr({n}));
}

/// dequantize(sums, sa * sb, 0) of type `resultType`: the real value of
/// integer sums of products scaled by sa (one value) and sb.
static Value dequantizeSums(PatternRewriter &rewriter, Location loc,
                            RankedTensorType resultType, Value sums,
                            Value aScale, Value bScale) {
  auto aScaleType = cast<RankedTensorType>(aScale.getType());
  auto bScaleType = cast<RankedTensorType>(bScale.getType());
  // sa holds one value (matchActivation): it broadcasts with any shape.
  SmallVector<int64_t> scaleShape;
  (void)OpTrait::util::getBroadcastedShape(aScaleType.getShape(),
                                           bScaleType.getShape(), scaleShape);
  Value scale = MulOp::create(rewriter, loc, bScaleType.clone(scaleShape),
                              aScale, bScale);
  auto zeroType = RankedTensorType::get({}, rewriter.getI32Type());
  Value zero = ConstantOp::create(
      rewriter, loc, zeroType,
      DenseElementsAttr::get(zeroType, rewriter.getI32IntegerAttr(0)));
  return DequantizeOp::create(rewriter, loc, resultType, sums, scale, zero);
}

/// Builds dequantize(matmul_integer(a, b, za, zb), sa * sb, 0) of type
/// `resultType`, with `b` transposed to K x N first when it is N x K.
static Value buildIntegerProduct(PatternRewriter &rewriter, Location loc,
                                 RankedTensorType resultType,
                                 DequantizeOp activation,
                                 const QuantizedWeights &weights) {
  DequantizeOp bDequantize = weights.dequantize;
  Value b = bDequantize.getX();
  Value bScale = bDequantize.getScale();
  Value bZero = bDequantize.getZeroPoint();
  if (weights.transposed) {
    auto type = cast<RankedTensorType>(b.getType());
    int64_t n = type.getDimSize(0);
    b = TransposeOp::create(rewriter, loc, type.clone({type.getDimSize(1), n}),
                            b, rewriter.getDenseI64ArrayAttr({1, 0}));
    bScale = toColumnVector(rewriter, loc, bScale, n);
    bZero = toColumnVector(rewriter, loc, bZero, n);
  }
  Value sums = MatMulIntegerOp::create(
      rewriter, loc, resultType.clone(rewriter.getI32Type()), activation.getX(),
      b, activation.getZeroPoint(), bZero);
  return dequantizeSums(rewriter, loc, resultType, sums, activation.getScale(),
                        bScale);
}

/// Replaces `op` by `result` and erases the dequantizations it read that
/// nothing else reads.
static void replaceProduct(PatternRewriter &rewriter, Operation *op,
                           Value result, DequantizeOp activation,
                           DequantizeOp weights) {
  rewriter.replaceOp(op, result);
  for (DequantizeOp dequantize : {activation, weights})
    if (dequantize->use_empty())
      rewriter.eraseOp(dequantize);
}

/// matmul and batch_matmul by a K x N weight matrix.
template <typename OpTy>
struct ProductOnIntegers : public OpRewritePattern<OpTy> {
  ProductOnIntegers(MLIRContext *context, unsigned weightBits)
      : OpRewritePattern<OpTy>(context), weightBits(weightBits) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if constexpr (std::is_same_v<OpTy, MatMulOp>)
      if (op.getPackedB())
        return rewriter.notifyMatchFailure(op, "weights already packed");
    DequantizeOp activation = matchActivation(op.getA());
    std::optional<QuantizedWeights> weights =
        matchWeights(op.getB(), /*transposed=*/false, weightBits);
    if (!activation || !weights)
      return rewriter.notifyMatchFailure(op, "not a quantized product");
    Value result = buildIntegerProduct(rewriter, op.getLoc(),
                                       cast<RankedTensorType>(op.getType()),
                                       activation, *weights);
    replaceProduct(rewriter, op, result, activation, weights->dequantize);
    return success();
  }

  unsigned weightBits;
};

/// gemm with alpha = beta = 1 (or no c) and a not transposed: the product,
/// then c added in float.
struct GemmOnIntegers : public OpRewritePattern<GemmOp> {
  GemmOnIntegers(MLIRContext *context, unsigned weightBits)
      : OpRewritePattern<GemmOp>(context), weightBits(weightBits) {}

  LogicalResult matchAndRewrite(GemmOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getTransA() || op.getPackedB() ||
        op.getAlpha().convertToFloat() != 1.0f ||
        (op.getC() && op.getBeta().convertToFloat() != 1.0f))
      return rewriter.notifyMatchFailure(op, "scaled or transposed a");
    DequantizeOp activation = matchActivation(op.getA());
    std::optional<QuantizedWeights> weights =
        matchWeights(op.getB(), op.getTransB(), weightBits);
    if (!activation || !weights)
      return rewriter.notifyMatchFailure(op, "not a quantized product");
    auto resultType = cast<RankedTensorType>(op.getType());
    Value result = buildIntegerProduct(rewriter, op.getLoc(), resultType,
                                       activation, *weights);
    if (Value c = op.getC())
      result = AddOp::create(rewriter, op.getLoc(), resultType, result, c);
    replaceProduct(rewriter, op, result, activation, weights->dequantize);
    return success();
  }

  unsigned weightBits;
};

/// `value` with one element, or with its size along `axis` and ones
/// elsewhere, as a tensor of shape `shape` (that size at the place of a
/// result dimension, ones elsewhere) to broadcast with the result; a value
/// of one element is left as it is.
static Value alignPerChannel(PatternRewriter &rewriter, Location loc,
                             Value value, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getNumElements() == 1 || type.getShape() == shape)
    return value;
  return ReshapeOp::create(rewriter, loc, type.clone(shape), value,
                           rewriter.getDenseI64ArrayAttr(shape));
}

/// conv2d (NCHW, one group) of dequantized 8-bit activations by dequantized
/// constant int8 filters (a scale per filter):
///
///   dequantize(conv_integer(xq, wq, xz, wz), sx * sw, 0) + bias
///
/// graph-convert-layout makes the integer convolution NHWC with the float
/// ones, and graph-lower-integer-matmul runs it on the integer kernels.
/// Grouped and depthwise convolutions stay float: one integer dot product
/// would add only a group's few channels.
struct ConvOnIntegers : public OpRewritePattern<Conv2DOp> {
  ConvOnIntegers(MLIRContext *context, unsigned weightBits)
      : OpRewritePattern<Conv2DOp>(context), weightBits(weightBits) {}

  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getLayout() != Layout::NCHW || op.getPackedWeight() ||
        op.getGroups() != 1)
      return rewriter.notifyMatchFailure(op, "not an NCHW conv of one group");
    DequantizeOp activation = matchActivation(op.getInput());
    DequantizeOp filters = matchFilters(op.getWeight(), weightBits);
    if (!activation || !filters)
      return rewriter.notifyMatchFailure(op, "not a quantized convolution");
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t f = resultType.getDimSize(1);
    Value sums = ConvIntegerOp::create(
        rewriter, loc, resultType.clone(rewriter.getI32Type()),
        activation.getX(), filters.getX(), activation.getZeroPoint(),
        filters.getZeroPoint(), op.getStridesAttr(), op.getPaddingAttr(),
        op.getDilationsAttr(), op.getGroupsAttr(),
        LayoutAttr::get(rewriter.getContext(), Layout::NCHW));
    // Per filter: F x 1 x 1, along the result's channels.
    SmallVector<int64_t> channelShape = {f, 1, 1};
    Value filterScale =
        alignPerChannel(rewriter, loc, filters.getScale(), channelShape);
    Value result = dequantizeSums(rewriter, loc, resultType, sums,
                                  activation.getScale(), filterScale);
    if (Value bias = op.getBias())
      result =
          AddOp::create(rewriter, loc, resultType, result,
                        alignPerChannel(rewriter, loc, bias, channelShape));
    replaceProduct(rewriter, op, result, activation, filters);
    return success();
  }

  unsigned weightBits;
};

/// A reshape, flatten or transpose of values dequantized with one scale and
/// zero point moves them as integers, dequantized after: a product reached
/// through them (a classifier's flatten before its gemm) sees the integers.
template <typename OpTy>
struct MoveBeforeDequantize : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    DequantizeOp dequantize = matchActivation(op.getX());
    if (!dequantize)
      return rewriter.notifyMatchFailure(op, "not of dequantized values");
    Location loc = op.getLoc();
    auto toScalar = [&](Value value) -> Value {
      auto type = cast<RankedTensorType>(value.getType());
      if (type.getRank() == 0)
        return value;
      return ReshapeOp::create(rewriter, loc, type.clone(ArrayRef<int64_t>{}),
                               value, rewriter.getDenseI64ArrayAttr({}));
    };
    auto resultType = cast<RankedTensorType>(op.getType());
    IRMapping mapping;
    mapping.map(op.getX(), dequantize.getX());
    Operation *moved = rewriter.clone(*op, mapping);
    moved->getResult(0).setType(
        resultType.clone(getElementTypeOrSelf(dequantize.getX().getType())));
    rewriter.replaceOpWithNewOp<DequantizeOp>(
        op, resultType, moved->getResult(0), toScalar(dequantize.getScale()),
        toScalar(dequantize.getZeroPoint()));
    if (dequantize->use_empty())
      rewriter.eraseOp(dequantize);
    return success();
  }
};

/// A quantization dequantized again with the same scale and zero point,
/// read by no integer op, is one elementwise op of floats: the epilogue of
/// the op that produced its input, where the pair would be two kernels
/// around an integer tensor.
struct FakeQuantizeInFloat : public OpRewritePattern<DequantizeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DequantizeOp op,
                                PatternRewriter &rewriter) const override {
    auto quantize = op.getX().getDefiningOp<QuantizeOp>();
    if (!quantize || quantize.getScale() != op.getScale() ||
        quantize.getZeroPoint() != op.getZeroPoint() ||
        quantize.getX().getType() != op.getType())
      return rewriter.notifyMatchFailure(op, "not a quantization undone");
    rewriter.replaceOpWithNewOp<FakeQuantizeOp>(
        op, op.getType(), quantize.getX(), op.getScale(), op.getZeroPoint());
    if (quantize->use_empty())
      rewriter.eraseOp(quantize);
    return success();
  }
};

struct GraphQDQToIntegerPass
    : public graph::impl::GraphQDQToIntegerBase<GraphQDQToIntegerPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    FailureOr<CPUTarget> target =
        getPassTarget(context, getArgument(), targetCpu, targetFeatures);
    if (failed(target))
      return failure();
    weightBits = target->getIntegerDotWeightBits();
    return success();
  }

  void runOnOperation() override {
    // One walk in program order (a reshape moves before the product that
    // reads it is seen), and no folding: it would turn the dequantized
    // weights into floats. Products only where the target has the kernels.
    if (weightBits != 0) {
      RewritePatternSet patterns(&getContext());
      patterns
          .add<ProductOnIntegers<MatMulOp>, ProductOnIntegers<BatchMatMulOp>,
               GemmOnIntegers, ConvOnIntegers>(&getContext(), weightBits);
      patterns
          .add<MoveBeforeDequantize<ReshapeOp>, MoveBeforeDequantize<FlattenOp>,
               MoveBeforeDequantize<TransposeOp>>(&getContext());
      walkAndApplyPatterns(getOperation(), std::move(patterns));
    }
    // Then, on every target, the quantizations that only go back to float.
    RewritePatternSet pairs(&getContext());
    pairs.add<FakeQuantizeInFloat>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(pairs));
  }

  unsigned weightBits = 0;
};

} // namespace
