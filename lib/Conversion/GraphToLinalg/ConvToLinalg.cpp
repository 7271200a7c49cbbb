//===- ConvToLinalg.cpp - graph.conv2d to linalg convolutions ---*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The convolution is computed in NHWC/HWCF: that layout tiles, decomposes
// and vectorizes correctly and fast in LLVM 22 (the vectorized NCHW
// decomposition gave wrong values). An NHWC conv2d (graph-convert-layout's)
// maps onto it directly. An NCHW one has its input transposed to NHWC, its
// weight to HWCF (at compile time when it is a constant) and its result
// back to NCHW. The input is zero-padded, the output initialised with the
// bias. Weights packed by graph-pack-weights (`packed_weight`) are read by a
// contraction over their panels instead (PackedContraction.h).
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"

#include "graph/Conversion/PackedContraction.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::graph;

/// The convolution of the padded NHWC `input` by weights packed as F/f0 x
/// KH x KW x C x f0 (graph.conv2d's `packed_weight`), accumulated onto
/// `bias` (or zero): a contraction into N x OH x OW x F/f0 x f0, one panel
/// of f0 filters per step of its fourth loop, viewed as the N x OH x OW x F
/// `type`, or with `nchw` transposed to N x F/f0 x f0 x OH x OW and viewed
/// as the N x F x OH x OW `type`. Its loops are (n, oh, ow, panel, column,
/// kh, kw, c), the form graph-vectorize gives its micro-kernel
/// (PackedContraction.h).
static Value createPackedConv(OpBuilder &b, Location loc, RankedTensorType type,
                              bool nchw, Value input, Value packed, Value bias,
                              ArrayRef<int64_t> strides,
                              ArrayRef<int64_t> dilations) {
  auto packedType = cast<RankedTensorType>(packed.getType());
  int64_t panels = packedType.getDimSize(0), f0 = packedType.getDimSize(4);
  Type elementType = type.getElementType();
  int64_t n = type.getDimSize(0), oh = type.getDimSize(nchw ? 2 : 1),
          ow = type.getDimSize(nchw ? 3 : 2);
  auto panelType = RankedTensorType::get({n, oh, ow, panels, f0}, elementType);
  Value init;
  if (bias) {
    Value panelBias = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({panels, f0}, elementType), bias,
        ArrayRef<ReassociationIndices>{{0, 1}});
    init = linalg::BroadcastOp::create(b, loc, panelBias,
                                       createEmptyTensor(b, loc, panelType),
                                       ArrayRef<int64_t>{0, 1, 2})
               .getResult()[0];
  } else {
    init = createFilledTensor(b, loc, panelType, 0.0f);
  }
  // Loops n, oh, ow, panel, column (parallel), kh, kw, c.
  Value conv = createMultiplyAccumulate(
      b, loc, input, packed, init,
      getPackedConvIndexingMaps(b.getContext(), strides, dilations),
      /*parallelLoops=*/5);
  if (nchw) {
    conv = createTranspose(b, loc, conv, {0, 3, 4, 1, 2});
    return tensor::CollapseShapeOp::create(
        b, loc, type, conv,
        ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
  }
  return tensor::CollapseShapeOp::create(
      b, loc, type, conv,
      ArrayRef<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
}

namespace {

struct Conv2DToLinalg : OpConversionPattern<Conv2DOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(Conv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool nchw = op.getLayout() != Layout::NHWC;
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
    if (op.getPackedWeight()) {
      rewriter.replaceOp(op,
                         createPackedConv(rewriter, loc, resultType, nchw,
                                          input, weight, adaptor.getBias(),
                                          op.getStrides(), op.getDilations()));
      return success();
    }

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
      // One loop over the groups, its body one convolution on the group's
      // channel slices, inserted into the accumulator: the code (and the
      // compile time) does not grow with the group count.
      Value filter = weight;
      auto paddedType = cast<RankedTensorType>(input.getType());
      int64_t fg = f / groups;
      SmallVector<int64_t> inSizes(paddedType.getShape());
      inSizes.back() = cg;
      SmallVector<int64_t> filterSizes = {kh, kw, cg, fg};
      SmallVector<int64_t> outSizes = {n, oh, ow, fg};
      auto groupType = RankedTensorType::get(outSizes, elementType);
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value count = arith::ConstantIndexOp::create(rewriter, loc, groups);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      auto loop = scf::ForOp::create(
          rewriter, loc, zero, count, one, ValueRange{init},
          [&](OpBuilder &b, Location l, Value g, ValueRange iterArgs) {
            // A slice of the channels (innermost) from channel g * size.
            auto slice = [&](Value source, ArrayRef<int64_t> sizes,
                             int64_t size) {
              SmallVector<OpFoldResult> offsets(sizes.size(),
                                                b.getIndexAttr(0));
              offsets.back() =
                  arith::MulIOp::create(
                      b, l, g, arith::ConstantIndexOp::create(b, l, size))
                      .getResult();
              SmallVector<OpFoldResult> ones(sizes.size(), b.getIndexAttr(1));
              return tensor::ExtractSliceOp::create(
                  b, l,
                  RankedTensorType::get(sizes,
                                        cast<RankedTensorType>(source.getType())
                                            .getElementType()),
                  source, offsets, getAsIndexOpFoldResult(getContext(), sizes),
                  ones);
            };
            Value inSlice = slice(input, inSizes, cg);
            Value filterSlice = slice(filter, filterSizes, fg);
            auto outSlice = slice(iterArgs[0], outSizes, fg);
            Value conv = linalg::Conv2DNhwcHwcfOp::create(
                             b, l, TypeRange{groupType},
                             ValueRange{inSlice, filterSlice},
                             ValueRange{outSlice}, strides, dilations)
                             .getResult(0);
            Value inserted = tensor::InsertSliceOp::create(
                b, l, conv, iterArgs[0], outSlice.getMixedOffsets(),
                outSlice.getMixedSizes(), outSlice.getMixedStrides());
            scf::YieldOp::create(b, l, inserted);
          });
      output = loop.getResult(0);
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
