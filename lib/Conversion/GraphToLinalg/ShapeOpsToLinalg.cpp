//===- ShapeOpsToLinalg.cpp - Data movement graph ops to tensor -*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// reshape and flatten become tensor reshapes, transpose a linalg.transpose,
// concat insert_slices into an empty tensor; constants become
// arith.constant and inference dropout its input.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"

#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::graph;

namespace {

/// graph.constant -> arith.constant with the same attribute, dense or
/// dense_resource.
struct ConstantToArith : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto storageType =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, convertConstantAttr(op.getValue(), storageType));
    return success();
  }
};

/// Inference dropout is the identity. Training dropout is refused by the
/// pass before the conversion runs.
struct DropoutToIdentity : OpConversionPattern<DropoutOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DropoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getTraining())
      return rewriter.notifyMatchFailure(op, "training dropout is random");
    rewriter.replaceOp(op, adaptor.getX());
    return success();
  }
};

/// reshape and flatten: the same elements in row-major order.
template <typename OpTy> struct ReshapeToTensor : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getStorageTensorType(cast<RankedTensorType>(op.getType()));
    rewriter.replaceOp(
        op, createReshape(rewriter, op.getLoc(), adaptor.getX(), resultType));
    return success();
  }
};

struct TransposeToLinalg : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getStorageTensorType(cast<RankedTensorType>(op.getType()));
    // The identity permutation (rank 0 included, where upstream's
    // linalg.transpose has no indexing maps to verify) moves nothing.
    if (llvm::equal(op.getPerm(), llvm::seq<int64_t>(resultType.getRank()))) {
      rewriter.replaceOp(op, adaptor.getX());
      return success();
    }
    Value init = createEmptyTensor(rewriter, op.getLoc(), resultType);
    rewriter.replaceOp(op, linalg::TransposeOp::create(rewriter, op.getLoc(),
                                                       adaptor.getX(), init,
                                                       op.getPerm())
                               .getResult()[0]);
    return success();
  }
};

/// Each input is inserted at its offset along the axis of an empty tensor,
/// which bufferizes into one allocation and a copy per input.
struct ConcatToTensor : OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType =
        getStorageTensorType(cast<RankedTensorType>(op.getType()));
    ValueRange inputs = adaptor.getInputs();
    if (inputs.size() == 1) {
      rewriter.replaceOp(op, inputs.front());
      return success();
    }
    int64_t rank = resultType.getRank();
    int64_t axis = op.getAxis();
    if (axis < 0)
      axis += rank;

    MLIRContext *context = rewriter.getContext();
    Value result = createEmptyTensor(rewriter, loc, resultType);
    SmallVector<int64_t> offsets(rank, 0), strides(rank, 1);
    for (Value input : inputs) {
      auto inputType = cast<RankedTensorType>(input.getType());
      // An empty input adds nothing, and its slice would start one past the
      // end of the result, which insert_slice's verifier rejects.
      if (inputType.getNumElements() == 0)
        continue;
      ArrayRef<int64_t> sizes = inputType.getShape();
      result = tensor::InsertSliceOp::create(
          rewriter, loc, input, result,
          getAsIndexOpFoldResult(context, offsets),
          getAsIndexOpFoldResult(context, sizes),
          getAsIndexOpFoldResult(context, strides));
      offsets[axis] += sizes[axis];
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::graph::populateShapeOpsToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ConstantToArith, DropoutToIdentity, ReshapeToTensor<ReshapeOp>,
               ReshapeToTensor<FlattenOp>, TransposeToLinalg, ConcatToTensor>(
      converter, patterns.getContext());
}
