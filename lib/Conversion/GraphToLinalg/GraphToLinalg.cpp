//===- GraphToLinalg.cpp - graph ops to linalg on tensors -------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The convert-graph-to-linalg pass: a partial dialect conversion in which
// every graph op except graph.fused and its graph.yield is illegal (graph.if
// becomes scf.if and graph.loop scf.while, their regions converted in
// place), so that an op
// left unconverted (inside graph.fused bodies too) fails the pass with a
// diagnostic that names it. The patterns live in one file per op family.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"

#include "graph/Conversion/Passes.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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

/// The discardable attribute with which LoopToSCF tells the yield of the
/// scf.while it builds how many carried values the loop has.
static constexpr llvm::StringLiteral kNumCarriedAttr = "graph.num_carried";

/// The element of a tensor of one element.
static Value extractScalar(OpBuilder &builder, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<Value> origin(type.getRank(),
                            arith::ConstantIndexOp::create(builder, loc, 0));
  return tensor::ExtractOp::create(builder, loc, tensor, origin);
}

/// The i1 of a bool in storage types (a byte).
static Value toI1(OpBuilder &builder, Location loc, Value element) {
  if (element.getType().isInteger(1))
    return element;
  Value zero = arith::ConstantOp::create(
      builder, loc, builder.getZeroAttr(element.getType()));
  return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, element,
                               zero);
}

/// A tensor of `type` (one element) holding `element`, widened from i1 to
/// the type's element type when that is a byte.
static Value toTensor(OpBuilder &builder, Location loc, Type type,
                      Value element) {
  Type elementType = cast<RankedTensorType>(type).getElementType();
  if (element.getType() != elementType)
    element = arith::ExtUIOp::create(builder, loc, elementType, element);
  return tensor::FromElementsOp::create(builder, loc, type, element);
}

/// The end of an iteration of what was a graph.loop (an scf.while's `after`
/// block with the iteration number, the condition, the carried values and
/// the scan outputs): the next iteration number and condition, the carried
/// values, and each scan value inserted as row `i` of its output.
static void buildLoopYield(ConversionPatternRewriter &rewriter, YieldOp op,
                           scf::WhileOp loop, ValueRange values) {
  Location loc = op.getLoc();
  Block *after = op->getBlock();
  int64_t numCarried =
      cast<IntegerAttr>(loop->getAttr(kNumCarriedAttr)).getInt();
  Value iteration = after->getArgument(0);
  SmallVector<Value> next{
      arith::AddIOp::create(
          rewriter, loc, iteration,
          arith::ConstantIntOp::create(rewriter, loc, iteration.getType(), 1)),
      toI1(rewriter, loc, extractScalar(rewriter, loc, values[0]))};
  llvm::append_range(next, values.slice(1, numCarried));
  Value row = arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                         iteration);
  for (auto [k, value] : llvm::enumerate(values.drop_front(1 + numCarried))) {
    Value stacked = after->getArgument(2 + numCarried + k);
    auto rowType = cast<RankedTensorType>(value.getType());
    SmallVector<OpFoldResult> offsets(rowType.getRank() + 1,
                                      rewriter.getIndexAttr(0));
    offsets[0] = row;
    SmallVector<OpFoldResult> sizes{rewriter.getIndexAttr(1)};
    for (int64_t size : rowType.getShape())
      sizes.push_back(rewriter.getIndexAttr(size));
    SmallVector<OpFoldResult> strides(rowType.getRank() + 1,
                                      rewriter.getIndexAttr(1));
    next.push_back(tensor::InsertSliceOp::create(rewriter, loc, value, stacked,
                                                 offsets, sizes, strides));
  }
  rewriter.replaceOpWithNewOp<scf::YieldOp>(op, next);
}

/// A graph.yield ends a graph.fused body (storage types), one of the
/// regions of what was a graph.if (scf.yield), or an iteration of what was
/// a graph.loop.
struct YieldToStorageTypes : OpConversionPattern<YieldOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Operation *parent = op->getParentOp();
    if (auto loop = dyn_cast<scf::WhileOp>(parent))
      buildLoopYield(rewriter, op, loop, adaptor.getValues());
    else if (isa<scf::IfOp>(parent))
      rewriter.replaceOpWithNewOp<scf::YieldOp>(op, adaptor.getValues());
    else
      rewriter.replaceOpWithNewOp<YieldOp>(op, adaptor.getValues());
    return success();
  }
};

/// graph.loop is an scf.while over (iteration number, condition, carried
/// values, scan outputs): `before` tests the count, the bound and the
/// condition; `after` is the body, its arguments made tensors again, ended
/// by buildLoopYield. The scan outputs start as zeros.
struct LoopToSCF : OpConversionPattern<LoopOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LoopOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter &converter = *getTypeConverter();
    SmallVector<Type> resultTypes;
    if (failed(converter.convertTypes(op.getResultTypes(), resultTypes)))
      return failure();
    Location loc = op.getLoc();
    size_t numCarried = op.getInitValues().size();
    size_t numScans = op.getScanOutputs().size();
    Type i64 = rewriter.getI64Type();

    Value maxTrips = extractScalar(rewriter, loc, adaptor.getMaxTripCount());
    if (std::optional<int64_t> bound = op.getBound())
      maxTrips = arith::MinSIOp::create(
          rewriter, loc, maxTrips,
          arith::ConstantIntOp::create(rewriter, loc, i64, *bound));
    SmallVector<Value> inits{
        arith::ConstantIntOp::create(rewriter, loc, i64, 0),
        toI1(rewriter, loc, extractScalar(rewriter, loc, adaptor.getCond()))};
    llvm::append_range(inits, adaptor.getInitValues());
    for (Type type : ArrayRef<Type>(resultTypes).slice(numCarried, numScans)) {
      auto tensorType = cast<RankedTensorType>(type);
      Value empty = tensor::EmptyOp::create(
          rewriter, loc, tensorType.getShape(), tensorType.getElementType());
      Value zero = arith::ConstantOp::create(
          rewriter, loc, rewriter.getZeroAttr(tensorType.getElementType()));
      inits.push_back(
          linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0));
    }
    TypeRange types = ValueRange(inits).getTypes();
    SmallVector<Location> locs(inits.size(), loc);

    auto loop = scf::WhileOp::create(rewriter, loc, types, inits);
    loop->setAttr(kNumCarriedAttr, rewriter.getI64IntegerAttr(numCarried));
    Block *before = rewriter.createBlock(&loop.getBefore(), {}, types, locs);
    Value more = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                       before->getArgument(0), maxTrips);
    Value proceed =
        arith::AndIOp::create(rewriter, loc, more, before->getArgument(1));
    scf::ConditionOp::create(rewriter, loc, proceed, before->getArguments());

    Block *after = rewriter.createBlock(&loop.getAfter(), {}, types, locs);
    std::optional<TypeConverter::SignatureConversion> signature =
        converter.convertBlockSignature(&op.getBody().front());
    if (!signature)
      return failure();
    Block *body = rewriter.applySignatureConversion(&op.getBody().front(),
                                                    *signature, &converter);
    SmallVector<Value> arguments{
        toTensor(rewriter, loc, body->getArgument(0).getType(),
                 after->getArgument(0)),
        toTensor(rewriter, loc, body->getArgument(1).getType(),
                 after->getArgument(1))};
    llvm::append_range(arguments, after->getArguments().slice(2, numCarried));
    rewriter.mergeBlocks(body, after, arguments);

    rewriter.setInsertionPointAfter(loop);
    SmallVector<Value> results(
        loop.getResults().slice(2, numCarried + numScans));
    results.push_back(
        toTensor(rewriter, loc, resultTypes.back(), loop.getResult(0)));
    rewriter.replaceOp(op, results);
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
    Value element =
        toI1(rewriter, loc, extractScalar(rewriter, loc, adaptor.getCond()));
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
    patterns.add<FusedToStorageTypes, YieldToStorageTypes, IfToSCF, LoopToSCF>(
        converter, context);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    if (failed(applyPartialConversion(root, target, std::move(patterns))))
      return signalPassFailure();

    root->walk([](scf::WhileOp loop) { loop->removeAttr(kNumCarriedAttr); });

    // Constant weights transposed at compile time leave their originals
    // unused; drop those rather than carry both through bufferization.
    root->walk([](arith::ConstantOp constant) {
      if (constant->use_empty())
        constant->erase();
    });
  }
};
} // namespace
