//===- LinalgOpsToLinalg.cpp - matmul and gemm to linalg.matmul -*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph.matmul is a linalg.matmul on a zero-filled accumulator, or with a
// packed weight (`packed_b`) a contraction over its panels. graph.gemm
// transposes its operands as asked (constants at compile time), multiplies,
// and scales in an elementwise epilogue in the fold's order:
// (alpha * acc) + (beta * c).
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"

#include "graph/Conversion/PackedContraction.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::graph;

/// `a` times `b` into a fresh zero-filled tensor of `type`.
static Value createMatmul(OpBuilder &b, Location loc, RankedTensorType type,
                          Value lhs, Value rhs) {
  Value init = createFilledTensor(b, loc, type, 0.0f);
  return linalg::MatmulOp::create(b, loc, TypeRange{type}, ValueRange{lhs, rhs},
                                  ValueRange{init})
      .getResult(0);
}

/// `a` times the matrix packed in `packed` (N/n0 x K x n0, graph.matmul's
/// `packed_b`): a contraction into M x N/n0 x n0, one panel of n0 columns
/// per step of its second loop, viewed as the M x N `type`. Its loops are
/// (m, panel, column, k), the form graph-vectorize gives its micro-kernel
/// (PackedContraction.h).
static Value createPackedMatmul(OpBuilder &b, Location loc,
                                RankedTensorType type, Value lhs,
                                Value packed) {
  auto packedType = cast<RankedTensorType>(packed.getType());
  int64_t m = type.getDimSize(0);
  int64_t panels = packedType.getDimSize(0), n0 = packedType.getDimSize(2);
  auto panelType =
      RankedTensorType::get({m, panels, n0}, type.getElementType());
  Value init = createFilledTensor(b, loc, panelType, 0.0f);
  // Loops m, panel, column (parallel), k.
  Value product = createMultiplyAccumulate(
      b, loc, lhs, packed, init, getPackedMatmulIndexingMaps(b.getContext()),
      /*parallelLoops=*/3);
  return tensor::CollapseShapeOp::create(
      b, loc, type, product, ArrayRef<ReassociationIndices>{{0}, {1, 2}});
}

namespace {

struct MatMulToLinalg : OpConversionPattern<MatMulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    rewriter.replaceOp(op, op.getPackedB()
                               ? createPackedMatmul(rewriter, op.getLoc(),
                                                    resultType, adaptor.getA(),
                                                    adaptor.getB())
                               : createMatmul(rewriter, op.getLoc(), resultType,
                                              adaptor.getA(), adaptor.getB()));
    return success();
  }
};

struct GemmToLinalg : OpConversionPattern<GemmOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GemmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Value a = adaptor.getA(), b = adaptor.getB(), c = adaptor.getC();
    if (op.getTransA())
      a = createTranspose(rewriter, loc, a, {1, 0});
    if (op.getTransB())
      b = createTranspose(rewriter, loc, b, {1, 0});
    Value product = op.getPackedB()
                        ? createPackedMatmul(rewriter, loc, resultType, a, b)
                        : createMatmul(rewriter, loc, resultType, a, b);

    // Multiplying by 1 and adding nothing are exact identities: skip the
    // epilogue when it would compute nothing else.
    float alpha = op.getAlpha().convertToFloat();
    float beta = op.getBeta().convertToFloat();
    if (!c && alpha == 1.0f) {
      rewriter.replaceOp(op, product);
      return success();
    }

    SmallVector<Value> inputs = {product};
    if (c)
      inputs.push_back(c);
    Value result = createElementwise(
        rewriter, loc, resultType, inputs, {},
        [&](OpBuilder &builder, Location bodyLoc, ValueRange args) {
          Value acc = args[0];
          if (alpha != 1.0f) {
            Value alphaValue = createF32Constant(builder, bodyLoc, alpha);
            acc = arith::MulFOp::create(builder, bodyLoc, alphaValue, acc);
          }
          if (args.size() == 1)
            return acc;
          Value addend = args[1];
          if (beta != 1.0f) {
            Value betaValue = createF32Constant(builder, bodyLoc, beta);
            addend = arith::MulFOp::create(builder, bodyLoc, betaValue, addend);
          }
          return arith::AddFOp::create(builder, bodyLoc, acc, addend)
              .getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::graph::populateLinalgOpsToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<MatMulToLinalg, GemmToLinalg>(patterns.getContext());
}
