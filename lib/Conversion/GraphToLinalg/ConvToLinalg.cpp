//===- ConvToLinalg.cpp - graph.conv2d to linalg convolutions ---*- C++ -*-===//
//
// The graph is NCHW/FCHW but the convolution is computed in NHWC/HWCF: that
// layout tiles, decomposes and vectorizes correctly and fast in LLVM 22
// (the vectorized NCHW decomposition gave wrong values). The input is
// transposed to NHWC and zero-padded, the weight transposed to HWCF (at
// compile time when it is a constant), the output initialised with the bias,
// and the result transposed back to NCHW.
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
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    auto weightType = cast<RankedTensorType>(adaptor.getWeight().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    Type elementType = resultType.getElementType();
    int64_t n = inputType.getDimSize(0), c = inputType.getDimSize(1);
    int64_t f = weightType.getDimSize(0), cg = weightType.getDimSize(1);
    int64_t kh = weightType.getDimSize(2), kw = weightType.getDimSize(3);
    int64_t oh = resultType.getDimSize(2), ow = resultType.getDimSize(3);
    int64_t groups = op.getGroups();
    ArrayRef<int64_t> padding = op.getPadding();

    // NCHW -> NHWC, then zero padding on H and W.
    Value input =
        createTranspose(rewriter, loc, adaptor.getInput(), {0, 2, 3, 1});
    input = createPad(rewriter, loc, input, {0, padding[0], padding[1], 0},
                      {0, padding[2], padding[3], 0}, 0.0f);

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

    Attribute strides = rewriter.getI64VectorAttr(op.getStrides());
    Attribute dilations = rewriter.getI64VectorAttr(op.getDilations());
    Value output;
    if (groups == 1) {
      Value filter =
          createTranspose(rewriter, loc, adaptor.getWeight(), {2, 3, 1, 0});
      output = linalg::Conv2DNhwcHwcfOp::create(
                   rewriter, loc, TypeRange{outType}, ValueRange{input, filter},
                   ValueRange{init}, strides, dilations)
                   .getResult(0);
    } else if (groups == c && groups == f) {
      // Depthwise: F x 1 x KH x KW -> KH x KW x 1 x F -> KH x KW x F.
      Value filter =
          createTranspose(rewriter, loc, adaptor.getWeight(), {2, 3, 1, 0});
      filter = createReshape(rewriter, loc, filter,
                             RankedTensorType::get({kh, kw, f}, elementType));
      output = linalg::DepthwiseConv2DNhwcHwcOp::create(
                   rewriter, loc, TypeRange{outType}, ValueRange{input, filter},
                   ValueRange{init}, strides, dilations)
                   .getResult(0);
    } else {
      // One convolution per group on channel slices, inserted into the
      // accumulator.
      Value filter =
          createTranspose(rewriter, loc, adaptor.getWeight(), {2, 3, 1, 0});
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
    rewriter.replaceOp(op,
                       createTranspose(rewriter, loc, output, {0, 3, 1, 2}));
    return success();
  }
};

} // namespace

void mlir::graph::populateConvToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<Conv2DToLinalg>(patterns.getContext());
}
