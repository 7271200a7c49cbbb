//===- GraphToLinalg.cpp - graph ops to linalg on tensors -------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The convert-graph-to-linalg pass: a partial dialect conversion in which
// every graph op except graph.fused and its graph.yield is illegal (graph.if
// becomes scf.if, its regions converted in place), so that an op
// left unconverted (inside graph.fused bodies too) fails the pass with a
// diagnostic that names it. The patterns live in one file per op family.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"

#include "graph/Conversion/Passes.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_CONVERTGRAPHTOLINALG
#include "graph/Conversion/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

void mlir::graph::populateGraphToLinalgConversionPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  populateElementwiseToLinalgPatterns(converter, patterns);
  populateConvToLinalgPatterns(patterns);
  populatePoolingToLinalgPatterns(patterns);
  populateLinalgOpsToLinalgPatterns(patterns);
  populateShapeOpsToLinalgPatterns(converter, patterns);
  populateSoftmaxToLinalgPatterns(patterns);
  populateNormalizationToLinalgPatterns(patterns);
  populateTypedElementwiseToLinalgPatterns(converter, patterns);
  populateDataMovementToLinalgPatterns(converter, patterns);
  populateReductionToLinalgPatterns(converter, patterns);
  populateNNToLinalgPatterns(converter, patterns);
  populateRecurrentToLinalgPatterns(converter, patterns);
  populateGridSampleToLinalgPatterns(converter, patterns);
  populateRoiAlignToLinalgPatterns(converter, patterns);
  populateRunTimeSizeToLoopsPatterns(converter, patterns);
}

namespace {
/// Gives graph.fused the storage types: results, body arguments and the
/// yield's operands (the body's ops are converted by their own patterns).
struct FusedToStorageTypes : OpConversionPattern<FusedOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(FusedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), types)))
      return failure();
    auto fused = FusedOp::create(rewriter, op.getLoc(), types,
                                 adaptor.getInputs(), op.getKind());
    rewriter.inlineRegionBefore(op.getBody(), fused.getBody(),
                                fused.getBody().end());
    if (failed(
            rewriter.convertRegionTypes(&fused.getBody(), *getTypeConverter())))
      return failure();
    rewriter.replaceOp(op, fused.getResults());
    return success();
  }
};

/// A graph.yield ends a graph.fused body (storage types) or one of the
/// regions of what was a graph.if (scf.yield).
struct YieldToStorageTypes : OpConversionPattern<YieldOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isa<scf::IfOp>(op->getParentOp()))
      rewriter.replaceOpWithNewOp<scf::YieldOp>(op, adaptor.getValues());
    else
      rewriter.replaceOpWithNewOp<YieldOp>(op, adaptor.getValues());
    return success();
  }
};

/// graph.if is scf.if on the element of its condition (a byte in storage
/// types); the regions move over whole, their ops converted by their own
/// patterns.
struct IfToSCF : OpConversionPattern<IfOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(IfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), types)))
      return failure();
    Location loc = op.getLoc();
    Value cond = adaptor.getCond();
    auto condType = cast<RankedTensorType>(cond.getType());
    SmallVector<Value> origin(condType.getRank(),
                              arith::ConstantIndexOp::create(rewriter, loc, 0));
    Value element = tensor::ExtractOp::create(rewriter, loc, cond, origin);
    if (!element.getType().isInteger(1)) {
      Value zero = arith::ConstantOp::create(
          rewriter, loc, rewriter.getZeroAttr(element.getType()));
      element = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                      element, zero);
    }
    auto branch = scf::IfOp::create(rewriter, loc, types, element,
                                    /*addThenBlock=*/false,
                                    /*addElseBlock=*/false);
    rewriter.inlineRegionBefore(op.getThenRegion(), branch.getThenRegion(),
                                branch.getThenRegion().end());
    rewriter.inlineRegionBefore(op.getElseRegion(), branch.getElseRegion(),
                                branch.getElseRegion().end());
    rewriter.replaceOp(op, branch.getResults());
    return success();
  }
};
} // namespace

/// Whether `op` draws random numbers, which the CPU lowering cannot do.
static bool isRandom(Operation *op) {
  if (isa<RandomUniformOp>(op))
    return true;
  auto dropout = dyn_cast<DropoutOp>(op);
  return dropout && dropout.getTraining();
}

namespace {
struct ConvertGraphToLinalgPass
    : public graph::impl::ConvertGraphToLinalgBase<ConvertGraphToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();

    // Refuse every random op up front, so that all of them are reported.
    bool refused = false;
    root->walk([&](Operation *op) {
      if (!isRandom(op))
        return;
      op->emitOpError("cannot be lowered: it draws random numbers, which the "
                      "CPU lowering does not support");
      refused = true;
    });
    if (refused)
      return signalPassFailure();

    // A partial conversion rather than a greedy rewrite: the driver checks
    // that no graph op is left, nested bodies included, and reports the
    // first one that is.
    // Bools become bytes and unsigned integers signless (storage types):
    // function signatures and graph.fused included.
    MLIRContext *context = &getContext();
    GraphStorageTypeConverter converter;
    ConversionTarget target(*context);
    target.addIllegalDialect<GraphDialect>();
    // graph-lower-attention's, which knows the target.
    target.addLegalOp<AttentionOp>();
    target.addDynamicallyLegalOp<FusedOp>(
        [&](Operation *op) { return converter.isLegal(op); });
    target.addDynamicallyLegalOp<YieldOp>([&](Operation *op) {
      return isa<FusedOp>(op->getParentOp()) && converter.isLegal(op);
    });
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp func) {
      return converter.isSignatureLegal(func.getFunctionType()) &&
             converter.isLegal(&func.getBody());
    });
    target.addDynamicallyLegalOp<func::ReturnOp, func::CallOp>(
        [&](Operation *op) { return converter.isLegal(op); });
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, scf::SCFDialect,
                           tensor::TensorDialect>();
    RewritePatternSet patterns(context);
    populateGraphToLinalgConversionPatterns(converter, patterns);
    patterns.add<FusedToStorageTypes, YieldToStorageTypes, IfToSCF>(converter,
                                                                    context);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    if (failed(applyPartialConversion(root, target, std::move(patterns))))
      return signalPassFailure();

    // Constant weights transposed at compile time leave their originals
    // unused; drop those rather than carry both through bufferization.
    root->walk([](arith::ConstantOp constant) {
      if (constant->use_empty())
        constant->erase();
    });
  }
};
} // namespace
