//===- PoolingToLinalg.cpp - Pooling graph ops to linalg --------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// max_pool2d and avg_pool2d become the NCHW or NHWC pooling named ops (as
// their `layout` says) on a padded input; global_avg_pool a reduction over H
// and W. The divisions by the window counts follow the summation, as in the
// fold hooks.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"

#include "graph/Dialect/Graph/IR/ConstantTensor.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::graph;

/// The pooling named op `PoolOpTy` (NCHW or NHWC, as `op`'s layout) over
/// `x` padded with `padValue` on H and W, into an accumulator filled with
/// `initValue`.
template <typename PoolOpTy, typename OpTy>
static Value createPooling(OpTy op, Value x, float padValue, float initValue,
                           OpBuilder &b) {
  Location loc = op.getLoc();
  auto resultType = cast<RankedTensorType>(op.getType());
  auto inputType = cast<RankedTensorType>(x.getType());
  ArrayRef<int64_t> kernel = op.getKernel(), strides = op.getStrides();
  SmallVector<int64_t> padding(op.getPadding());
  // H and W: dimensions 2 and 3 in NCHW, 1 and 2 in NHWC.
  int64_t firstSpatial = op.getLayout() == Layout::NHWC ? 1 : 2;
  // The named op gets exactly the rows and columns its windows read: with a
  // stride larger than the window, the trailing ones are never read, and
  // upstream's decomposition of a size-one window with one output row or
  // column assumes an input of the window's size there. The end padding
  // goes first, then the input's trailing cells.
  SmallVector<int64_t> inputSizes(inputType.getShape());
  for (int axis : {0, 1}) {
    int64_t dim = firstSpatial + axis;
    int64_t read =
        (resultType.getDimSize(dim) - 1) * strides[axis] + kernel[axis];
    int64_t excess = inputSizes[dim] + padding[axis] + padding[2 + axis] - read;
    int64_t fromPad = std::clamp<int64_t>(excess, 0, padding[2 + axis]);
    padding[2 + axis] -= fromPad;
    inputSizes[dim] -= std::max<int64_t>(excess - fromPad, 0);
  }
  if (ArrayRef<int64_t>(inputSizes) != inputType.getShape())
    x = tensor::ExtractSliceOp::create(
        b, loc, x, getAsIndexOpFoldResult(b.getContext(), {0, 0, 0, 0}),
        getAsIndexOpFoldResult(b.getContext(), inputSizes),
        getAsIndexOpFoldResult(b.getContext(), {1, 1, 1, 1}));
  SmallVector<int64_t> low(4, 0), high(4, 0);
  for (int axis : {0, 1}) {
    low[firstSpatial + axis] = padding[axis];
    high[firstSpatial + axis] = padding[2 + axis];
  }
  Value padded = createPad(b, loc, x, low, high, padValue);
  Value init = createFilledTensor(b, loc, resultType, initValue);
  // The window operand only carries the kernel shape.
  Value window = tensor::EmptyOp::create(b, loc, op.getKernel(),
                                         resultType.getElementType());
  return PoolOpTy::create(b, loc, TypeRange{resultType},
                          ValueRange{padded, window}, ValueRange{init},
                          b.getI64VectorAttr(op.getStrides()),
                          b.getI64VectorAttr({1, 1}))
      .getResult(0);
}

/// The number of real (unpadded) input cells in each of the `outSize`
/// windows along one dimension.
static SmallVector<int64_t> countRealCells(int64_t inSize, int64_t outSize,
                                           int64_t kernel, int64_t stride,
                                           int64_t padBefore) {
  SmallVector<int64_t> counts;
  for (int64_t o = 0; o < outSize; ++o) {
    int64_t start = o * stride - padBefore;
    int64_t first = std::max<int64_t>(start, 0);
    int64_t last = std::min<int64_t>(start + kernel, inSize);
    counts.push_back(std::max<int64_t>(last - first, 0));
  }
  return counts;
}

namespace {

/// Padded cells are -inf and the accumulator starts at -inf, so they never
/// win over the real cell every window holds. The named op combines with
/// arith.maximumf, so NaN propagates as in the fold.
struct MaxPool2DToLinalg : OpConversionPattern<MaxPool2DOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MaxPool2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    float lowest = -std::numeric_limits<float>::infinity();
    Value result = op.getLayout() == Layout::NHWC
                       ? createPooling<linalg::PoolingNhwcMaxOp>(
                             op, adaptor.getX(), lowest, lowest, rewriter)
                       : createPooling<linalg::PoolingNchwMaxOp>(
                             op, adaptor.getX(), lowest, lowest, rewriter);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Sums over zero-padded windows, then divides by the window size with
/// count_include_pad, else by the number of real cells of each window: a
/// compile-time OH x OW constant broadcast over N and C.
struct AvgPool2DToLinalg : OpConversionPattern<AvgPool2DOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AvgPool2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(adaptor.getX().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    ArrayRef<int64_t> kernel = op.getKernel(), strides = op.getStrides(),
                      padding = op.getPadding();
    // The dimensions of H and W.
    bool nhwc = op.getLayout() == Layout::NHWC;
    int64_t hDim = nhwc ? 1 : 2, wDim = hDim + 1;
    int64_t oh = resultType.getDimSize(hDim), ow = resultType.getDimSize(wDim);
    Value sum = nhwc ? createPooling<linalg::PoolingNhwcSumOp>(
                           op, adaptor.getX(), 0.0f, 0.0f, rewriter)
                     : createPooling<linalg::PoolingNchwSumOp>(
                           op, adaptor.getX(), 0.0f, 0.0f, rewriter);

    SmallVector<float> counts;
    if (op.getCountIncludePad()) {
      counts.push_back(static_cast<float>(kernel[0] * kernel[1]));
    } else {
      SmallVector<int64_t> rows = countRealCells(
          inputType.getDimSize(hDim), oh, kernel[0], strides[0], padding[0]);
      SmallVector<int64_t> cols = countRealCells(
          inputType.getDimSize(wDim), ow, kernel[1], strides[1], padding[1]);
      for (int64_t r : rows)
        for (int64_t c : cols)
          counts.push_back(static_cast<float>(r * c));
      // Without padding every window is full: one scalar divisor.
      if (llvm::all_equal(counts))
        counts.resize(1);
    }

    SmallVector<Value> inputs = {sum};
    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineMap> maps = {
        AffineMap::getMultiDimIdentityMap(4, context)};
    if (counts.size() > 1) {
      auto countType =
          RankedTensorType::get({oh, ow}, resultType.getElementType());
      inputs.push_back(arith::ConstantOp::create(
          rewriter, loc, makeConstantTensor(countType, counts)));
      maps.push_back(AffineMap::get(
          4, 0,
          {getAffineDimExpr(hDim, context), getAffineDimExpr(wDim, context)},
          context));
    }
    float divisor = counts.front();
    Value result = createElementwise(
        rewriter, loc, resultType, inputs, maps,
        [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          Value count = args.size() > 1
                            ? args[1]
                            : createF32Constant(b, bodyLoc, divisor);
          return arith::DivFOp::create(b, bodyLoc, args[0], count).getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Sums each N x C plane in row-major order into an N x C accumulator, then
/// divides by H * W while expanding to N x C x 1 x 1 (N x 1 x 1 x C in NHWC,
/// whose planes are strided: the sum still runs over H, then W).
struct GlobalAvgPoolToLinalg : OpConversionPattern<GlobalAvgPoolOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GlobalAvgPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(adaptor.getX().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    MLIRContext *context = rewriter.getContext();
    bool nhwc = op.getLayout() == Layout::NHWC;
    int64_t cDim = nhwc ? 3 : 1, hDim = nhwc ? 1 : 2;
    int64_t n = inputType.getDimSize(0), c = inputType.getDimSize(cDim);
    int64_t spatial =
        inputType.getDimSize(hDim) * inputType.getDimSize(hDim + 1);

    auto planeType = RankedTensorType::get({n, c}, resultType.getElementType());
    Value init = createFilledTensor(rewriter, loc, planeType, 0.0f);
    AffineMap planeMap = AffineMap::get(
        4, 0, {getAffineDimExpr(0, context), getAffineDimExpr(cDim, context)},
        context);
    utils::IteratorType parallel = utils::IteratorType::parallel;
    utils::IteratorType reduction = utils::IteratorType::reduction;
    SmallVector<utils::IteratorType> iterators = {parallel, parallel, reduction,
                                                  reduction};
    if (nhwc)
      iterators = {parallel, reduction, reduction, parallel};
    Value sum = linalg::GenericOp::create(
                    rewriter, loc, TypeRange{planeType},
                    ValueRange{adaptor.getX()}, ValueRange{init},
                    {AffineMap::getMultiDimIdentityMap(4, context), planeMap},
                    iterators,
                    [](OpBuilder &b, Location bodyLoc, ValueRange args) {
                      Value acc =
                          arith::AddFOp::create(b, bodyLoc, args[1], args[0]);
                      linalg::YieldOp::create(b, bodyLoc, acc);
                    })
                    .getResult(0);

    float divisor = static_cast<float>(spatial);
    Value result = createElementwise(
        rewriter, loc, resultType, ValueRange{sum}, {planeMap},
        [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          Value count = createF32Constant(b, bodyLoc, divisor);
          return arith::DivFOp::create(b, bodyLoc, args[0], count).getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::graph::populatePoolingToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<MaxPool2DToLinalg, AvgPool2DToLinalg, GlobalAvgPoolToLinalg>(
      patterns.getContext());
}
