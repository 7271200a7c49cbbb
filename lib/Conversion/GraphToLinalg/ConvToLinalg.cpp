//===- ConvToLinalg.cpp - graph.conv2d to linalg convolutions ---*- C++ -*-===//
//
// The convolution is computed in NHWC/HWCF: that layout tiles, decomposes
// and vectorizes correctly and fast in LLVM 22 (the vectorized NCHW
// decomposition gave wrong values). An NHWC conv2d (graph-convert-layout's)
// maps onto it directly. An NCHW one has its input transposed to NHWC, its
// weight to HWCF (at compile time when it is a constant) and its result
// back to NCHW. The input is zero-padded, the output initialised with the
// bias.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"

#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::graph;

namespace {

struct Conv2DToLinalg : OpConversionPattern<Conv2DOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(Conv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool nchw = op.getLayout() != "NHWC";
    // NCHW -> NHWC, unless the op is NHWC already, then zero padding on H
    // and W; FCHW -> HWCF likewise.
    Value input = adaptor.getInput(), weight = adaptor.getWeight();
    if (nchw)
      input = createTranspose(rewriter, loc, input, {0, 2, 3, 1});
    auto inputType = cast<RankedTensorType>(input.getType());
    ArrayRef<int64_t> padding = op.getPadding();
    input = createPad(rewriter, loc, input, {0, padding[0], padding[1], 0},
                      {0, padding[2], padding[3], 0}, 0.0f);
    auto resultType = cast<RankedTensorType>(op.getType());
    Type elementType = resultType.getElementType();
    int64_t n = inputType.getDimSize(0), c = inputType.getDimSize(3);
    int64_t f = resultType.getDimSize(nchw ? 1 : 3);
    int64_t oh = resultType.getDimSize(nchw ? 2 : 1);
    int64_t ow = resultType.getDimSize(nchw ? 3 : 2);
    int64_t groups = op.getGroups();

    // The accumulator starts as the bias broadcast over N, OH, OW, or zero.
    auto outType = RankedTensorType::get({n, oh, ow, f}, elementType);
    Value init;
    if (Value bias = adaptor.getBias()) {
      Value empty = createEmptyTensor(rewriter, loc, outType);
      init = linalg::BroadcastOp::create(rewriter, loc, bias, empty,
                                         ArrayRef<int64_t>{0, 1, 2})
                 .getResult()[0];
    } else {
      init = createFilledTensor(rewriter, loc, outType, 0.0f);
    }

    if (nchw)
      weight = createTranspose(rewriter, loc, weight, {2, 3, 1, 0});
    auto weightType = cast<RankedTensorType>(weight.getType());
    int64_t kh = weightType.getDimSize(0), kw = weightType.getDimSize(1);
    int64_t cg = weightType.getDimSize(2);

    Attribute strides = rewriter.getI64VectorAttr(op.getStrides());
    Attribute dilations = rewriter.getI64VectorAttr(op.getDilations());
    Value output;
    if (groups == 1) {
      Value filter = weight;
      output = linalg::Conv2DNhwcHwcfOp::create(
                   rewriter, loc, TypeRange{outType}, ValueRange{input, filter},
                   ValueRange{init}, strides, dilations)
                   .getResult(0);
    } else if (groups == c && groups == f) {
      // Depthwise: KH x KW x 1 x F -> KH x KW x F.
      Value filter =
          createReshape(rewriter, loc, weight,
                        RankedTensorType::get({kh, kw, f}, elementType));
      output = linalg::DepthwiseConv2DNhwcHwcOp::create(
                   rewriter, loc, TypeRange{outType}, ValueRange{input, filter},
                   ValueRange{init}, strides, dilations)
                   .getResult(0);
    } else {
      // One convolution per group on channel slices, inserted into the
      // accumulator.
      Value filter = weight;
      auto paddedType = cast<RankedTensorType>(input.getType());
      int64_t fg = f / groups;
      output = init;
      auto slice = [&](Value source, ArrayRef<int64_t> sizes, int64_t offset) {
        SmallVector<int64_t> offsets(sizes.size(), 0);
        offsets.back() = offset;
        SmallVector<int64_t> ones(sizes.size(), 1);
        return tensor::ExtractSliceOp::create(
            rewriter, loc, source,
            getAsIndexOpFoldResult(getContext(), offsets),
            getAsIndexOpFoldResult(getContext(), sizes),
            getAsIndexOpFoldResult(getContext(), ones));
      };
      SmallVector<int64_t> inSizes(paddedType.getShape());
      inSizes.back() = cg;
      SmallVector<int64_t> filterSizes = {kh, kw, cg, fg};
      SmallVector<int64_t> outSizes = {n, oh, ow, fg};
      auto groupType = RankedTensorType::get(outSizes, elementType);
      for (int64_t g = 0; g < groups; ++g) {
        Value inSlice = slice(input, inSizes, g * cg);
        Value filterSlice = slice(filter, filterSizes, g * fg);
        auto outSlice = slice(init, outSizes, g * fg);
        Value conv = linalg::Conv2DNhwcHwcfOp::create(
                         rewriter, loc, TypeRange{groupType},
                         ValueRange{inSlice, filterSlice}, ValueRange{outSlice},
                         strides, dilations)
                         .getResult(0);
        output = tensor::InsertSliceOp::create(
            rewriter, loc, conv, output, outSlice.getMixedOffsets(),
            outSlice.getMixedSizes(), outSlice.getMixedStrides());
      }
    }

    // NHWC -> NCHW.
    if (nchw)
      output = createTranspose(rewriter, loc, output, {0, 3, 1, 2});
    rewriter.replaceOp(op, output);
    return success();
  }
};

} // namespace

void mlir::graph::populateConvToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<Conv2DToLinalg>(patterns.getContext());
}
