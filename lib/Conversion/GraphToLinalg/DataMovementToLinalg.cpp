//===- DataMovementToLinalg.cpp - Slices, gathers, pads, resize -*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The data movement ops of GraphShapeOps.td on storage tensors:
//  - slice: tensor.extract_slice when every step is positive, else a
//    gathering linalg.generic;
//  - gather, gather_elements: a linalg.generic over the output reading the
//    index tensor, normalizing and clamping the index, then tensor.extract;
//  - scatter_elements: scf.for loops inserting into a copy of the data;
//  - broadcast: an elementwise copy through broadcast maps;
//  - pad: tensor.pad (after an extract_slice for negative pads) in constant
//    mode, a gather with clamped or mirrored indices otherwise;
//  - resize: one pass per interpolated dimension, a linalg.generic that sums
//    its taps (compile-time index and weight tables) in order.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"

#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/TypedKernels.h"
#include "graph/Dialect/Graph/IR/TypedTensor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::graph;

/// `index` (an i32/i64 scalar) as an index in [0, size): negative counts from
/// the end, out of range clamps.
static Value normalizeIndex(OpBuilder &b, Location loc, Value index,
                            int64_t size) {
  Value i = arith::IndexCastOp::create(b, loc, b.getIndexType(), index);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value dim = arith::ConstantIndexOp::create(b, loc, size);
  Value isNegative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, zero);
  Value wrapped = arith::AddIOp::create(b, loc, i, dim);
  i = arith::SelectOp::create(b, loc, isNegative, wrapped, i);
  i = arith::MaxSIOp::create(b, loc, i, zero);
  Value last =
      arith::ConstantIndexOp::create(b, loc, std::max<int64_t>(size - 1, 0));
  return arith::MinSIOp::create(b, loc, i, last);
}

namespace {

//===----------------------------------------------------------------------===//
// graph.slice
//===----------------------------------------------------------------------===//

struct SliceToTensor : OpConversionPattern<SliceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto storageType =
        getStorageTensorType(cast<RankedTensorType>(op.getType()));
    ArrayRef<int64_t> starts = op.getStarts(), steps = op.getSteps();
    if (llvm::all_of(steps, [](int64_t s) { return s > 0; })) {
      MLIRContext *context = rewriter.getContext();
      Value slice = tensor::ExtractSliceOp::create(
          rewriter, loc, storageType, adaptor.getX(),
          getAsIndexOpFoldResult(context, starts),
          getAsIndexOpFoldResult(context, storageType.getShape()),
          getAsIndexOpFoldResult(context, steps));
      rewriter.replaceOp(op, slice);
      return success();
    }
    Value result = createGather(
        rewriter, loc, storageType, adaptor.getX(),
        [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
          SmallVector<Value> indices;
          for (auto [d, index] : llvm::enumerate(out)) {
            Value step = arith::ConstantIndexOp::create(b, l, steps[d]);
            Value start = arith::ConstantIndexOp::create(b, l, starts[d]);
            Value offset = arith::MulIOp::create(b, l, index, step);
            indices.push_back(arith::AddIOp::create(b, l, start, offset));
          }
          return indices;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// graph.gather, graph.gather_elements
//===----------------------------------------------------------------------===//

struct GatherToLinalg : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto storageType =
        getStorageTensorType(cast<RankedTensorType>(op.getType()));
    ArrayRef<int64_t> data =
        cast<RankedTensorType>(op.getData().getType()).getShape();
    int64_t indexRank =
        cast<RankedTensorType>(op.getIndices().getType()).getRank();
    int64_t axis = op.getAxis();
    if (axis < 0)
      axis += data.size();
    Value indices = adaptor.getIndices();
    Value result = createGather(
        rewriter, op.getLoc(), storageType, adaptor.getData(),
        [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
          ArrayRef<Value> idx = out.slice(axis, indexRank);
          Value index = tensor::ExtractOp::create(b, l, indices, idx);
          SmallVector<Value> source(out.take_front(axis));
          source.push_back(normalizeIndex(b, l, index, data[axis]));
          source.append(out.begin() + axis + indexRank, out.end());
          return source;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct GatherElementsToLinalg : OpConversionPattern<GatherElementsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GatherElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto storageType =
        getStorageTensorType(cast<RankedTensorType>(op.getType()));
    ArrayRef<int64_t> data =
        cast<RankedTensorType>(op.getData().getType()).getShape();
    int64_t axis = op.getAxis();
    if (axis < 0)
      axis += data.size();
    Value indices = adaptor.getIndices();
    Value result =
        createGather(rewriter, op.getLoc(), storageType, adaptor.getData(),
                     [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
                       Value index =
                           tensor::ExtractOp::create(b, l, indices, out);
                       SmallVector<Value> source(out);
                       source[axis] = normalizeIndex(b, l, index, data[axis]);
                       return source;
                     });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// graph.scatter_elements
//===----------------------------------------------------------------------===//

/// Combines an existing element with an update, in compute types.
static Value combineScatter(OpBuilder &b, Location loc, StringRef reduction,
                            Value old, Value update, Type graphType) {
  bool isFloat = isa<FloatType>(old.getType());
  bool isUnsigned = isUnsignedGraphType(graphType);
  if (reduction == "add")
    return isFloat ? Value(arith::AddFOp::create(b, loc, old, update))
                   : Value(arith::AddIOp::create(b, loc, old, update));
  if (reduction == "mul")
    return isFloat ? Value(arith::MulFOp::create(b, loc, old, update))
                   : Value(arith::MulIOp::create(b, loc, old, update));
  if (reduction == "max")
    return isFloat      ? Value(arith::MaximumFOp::create(b, loc, old, update))
           : isUnsigned ? Value(arith::MaxUIOp::create(b, loc, old, update))
                        : Value(arith::MaxSIOp::create(b, loc, old, update));
  if (reduction == "min")
    return isFloat      ? Value(arith::MinimumFOp::create(b, loc, old, update))
           : isUnsigned ? Value(arith::MinUIOp::create(b, loc, old, update))
                        : Value(arith::MinSIOp::create(b, loc, old, update));
  return update;
}

struct ScatterElementsToLoops : OpConversionPattern<ScatterElementsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScatterElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ArrayRef<int64_t> data =
        cast<RankedTensorType>(op.getData().getType()).getShape();
    ArrayRef<int64_t> updatesShape =
        cast<RankedTensorType>(op.getUpdates().getType()).getShape();
    int64_t axis = op.getAxis();
    if (axis < 0)
      axis += data.size();
    Type graphType = getElementTypeOf(op.getData());
    StringRef reduction = op.getReduction();
    Value indices = adaptor.getIndices(), updates = adaptor.getUpdates();

    // A copy of the data that the loops update in place, in row-major order
    // of the updates (later updates win, as in the fold).
    auto storageType =
        getStorageTensorType(cast<RankedTensorType>(op.getType()));
    Value init = createEmptyTensor(rewriter, loc, storageType);
    Value copy = linalg::CopyOp::create(rewriter, loc, adaptor.getData(), init)
                     .getResult(0);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<Value> ivs;
    std::function<Value(OpBuilder &, Location, size_t, Value)> nest =
        [&](OpBuilder &b, Location l, size_t d, Value tensor) -> Value {
      if (d == updatesShape.size()) {
        Value index = tensor::ExtractOp::create(b, l, indices, ivs);
        SmallVector<Value> target(ivs);
        target[axis] = normalizeIndex(b, l, index, data[axis]);
        Value update = tensor::ExtractOp::create(b, l, updates, ivs);
        if (reduction != "none") {
          Value old = tensor::ExtractOp::create(b, l, tensor, target);
          Value combined =
              combineScatter(b, l, reduction, loadScalar(b, l, old, graphType),
                             loadScalar(b, l, update, graphType), graphType);
          update = storeScalar(b, l, combined, graphType);
        }
        return tensor::InsertOp::create(b, l, update, tensor, target);
      }
      Value upper = arith::ConstantIndexOp::create(b, l, updatesShape[d]);
      auto loop = scf::ForOp::create(
          b, l, zero, upper, one, ValueRange{tensor},
          [&](OpBuilder &nested, Location nl, Value iv, ValueRange args) {
            ivs.push_back(iv);
            Value next = nest(nested, nl, d + 1, args[0]);
            ivs.pop_back();
            scf::YieldOp::create(nested, nl, next);
          });
      return loop.getResult(0);
    };
    rewriter.replaceOp(op, nest(rewriter, loc, 0, copy));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// graph.broadcast
//===----------------------------------------------------------------------===//

struct BroadcastToLinalg : OpConversionPattern<BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto storageType =
        getStorageTensorType(cast<RankedTensorType>(op.getType()));
    Value result = createElementwise(
        rewriter, op.getLoc(), storageType, adaptor.getX(), {},
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// graph.pad
//===----------------------------------------------------------------------===//

struct PadToTensor : OpConversionPattern<PadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto storageType =
        getStorageTensorType(cast<RankedTensorType>(op.getType()));
    ArrayRef<int64_t> in =
        cast<RankedTensorType>(op.getX().getType()).getShape();
    ArrayRef<int64_t> pads = op.getPads();
    size_t rank = in.size();
    StringRef mode = op.getMode();
    Value x = adaptor.getX();

    if (mode == "constant") {
      // Negative pads crop first.
      SmallVector<int64_t> offsets, sizes, low, high;
      bool crops = false;
      for (size_t d = 0; d < rank; ++d) {
        int64_t begin = pads[d], end = pads[rank + d];
        offsets.push_back(std::max<int64_t>(-begin, 0));
        sizes.push_back(in[d] - std::max<int64_t>(-begin, 0) -
                        std::max<int64_t>(-end, 0));
        crops |= begin < 0 || end < 0;
        low.push_back(std::max<int64_t>(begin, 0));
        high.push_back(std::max<int64_t>(end, 0));
      }
      MLIRContext *context = rewriter.getContext();
      if (crops) {
        auto croppedType =
            RankedTensorType::get(sizes, storageType.getElementType());
        x = tensor::ExtractSliceOp::create(
            rewriter, loc, croppedType, x,
            getAsIndexOpFoldResult(context, offsets),
            getAsIndexOpFoldResult(context, sizes),
            getAsIndexOpFoldResult(context, SmallVector<int64_t>(rank, 1)));
      }
      Value fill;
      if (Value value = adaptor.getValue())
        fill = tensor::ExtractOp::create(rewriter, loc, value, ValueRange{});
      else
        fill = createScalarConstant(rewriter, loc, storageType.getElementType(),
                                    0);
      if (llvm::all_of(low, [](int64_t v) { return v == 0; }) &&
          llvm::all_of(high, [](int64_t v) { return v == 0; })) {
        rewriter.replaceOp(op, x);
        return success();
      }
      Value padded = tensor::PadOp::create(
          rewriter, loc, storageType, x, getAsIndexOpFoldResult(context, low),
          getAsIndexOpFoldResult(context, high), fill);
      rewriter.replaceOp(op, padded);
      return success();
    }

    bool reflect = mode == "reflect";
    Value result = createGather(
        rewriter, loc, storageType, x,
        [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
          SmallVector<Value> indices;
          Value zero = arith::ConstantIndexOp::create(b, l, 0);
          for (size_t d = 0; d < rank; ++d) {
            Value i = arith::SubIOp::create(
                b, l, out[d], arith::ConstantIndexOp::create(b, l, pads[d]));
            Value last = arith::ConstantIndexOp::create(b, l, in[d] - 1);
            if (!reflect || in[d] < 2) {
              i = arith::MaxSIOp::create(b, l, i, zero);
              indices.push_back(arith::MinSIOp::create(b, l, i, last));
              continue;
            }
            // Mirror without repeating the border: period 2 * (D - 1).
            Value period =
                arith::ConstantIndexOp::create(b, l, 2 * (in[d] - 1));
            Value m = arith::RemSIOp::create(b, l, i, period);
            Value wrapped = arith::AddIOp::create(b, l, m, period);
            Value negative =
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, m, zero);
            m = arith::SelectOp::create(b, l, negative, wrapped, m);
            Value mirrored = arith::SubIOp::create(b, l, period, m);
            Value beyond =
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt, m, last);
            indices.push_back(
                arith::SelectOp::create(b, l, beyond, mirrored, m));
          }
          return indices;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// graph.resize
//===----------------------------------------------------------------------===//

struct ResizeToLinalg : OpConversionPattern<ResizeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ResizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type graphType = resultType.getElementType();
    Type computeType = getComputeElementType(graphType);
    Value current = adaptor.getX();
    SmallVector<int64_t> shape(
        cast<RankedTensorType>(op.getX().getType()).getShape());
    int64_t rank = shape.size();

    for (int64_t dim = 0; dim < rank; ++dim) {
      int64_t in = shape[dim], out = resultType.getDimSize(dim);
      if (in == 0)
        continue;
      auto taps = reference::computeResizeTaps(
          in, out, op.getScales()[dim], op.getMode(),
          op.getCoordinateTransformationMode(), op.getNearestMode(),
          op.getCubicCoeffA().convertToFloat(), op.getExcludeOutside());
      if (!taps)
        return rewriter.notifyMatchFailure(op, "unknown resize mode");
      if (reference::isIdentityResize(*taps, in))
        continue;

      // Index and weight tables, out x T; a missing tap has weight 0 and is
      // skipped by the body, as the fold never sees it.
      int64_t numTaps = 1;
      for (const auto &row : *taps)
        numTaps = std::max<int64_t>(numTaps, row.size());
      SmallVector<int64_t> indexTable;
      SmallVector<double> weightTable;
      for (const auto &row : *taps)
        for (int64_t t = 0; t < numTaps; ++t) {
          indexTable.push_back(t < int64_t(row.size()) ? row[t].index : 0);
          weightTable.push_back(t < int64_t(row.size()) ? row[t].weight : 0);
        }
      auto tableShape = SmallVector<int64_t>{out, numTaps};
      Value indexConst = arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(
              RankedTensorType::get(tableShape, rewriter.getI64Type()),
              ArrayRef<int64_t>(indexTable)));
      SmallVector<Attribute> weights;
      for (double w : weightTable)
        weights.push_back(rewriter.getFloatAttr(computeType, w));
      Value weightConst = arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(RankedTensorType::get(tableShape, computeType),
                                 weights));

      shape[dim] = out;
      auto passType =
          getStorageTensorType(RankedTensorType::get(shape, graphType));
      Value zero =
          createScalarConstant(rewriter, loc, passType.getElementType(), 0);
      Value init = createFilledTensorWith(rewriter, loc, passType, zero);
      // Loops: the output dimensions, then the taps (a reduction).
      SmallVector<AffineExpr> tableExprs = {getAffineDimExpr(dim, context),
                                            getAffineDimExpr(rank, context)};
      AffineMap tableMap = AffineMap::get(rank + 1, 0, tableExprs, context);
      SmallVector<AffineExpr> outExprs;
      for (int64_t d = 0; d < rank; ++d)
        outExprs.push_back(getAffineDimExpr(d, context));
      AffineMap outMap = AffineMap::get(rank + 1, 0, outExprs, context);
      SmallVector<utils::IteratorType> iterators(rank + 1,
                                                 utils::IteratorType::parallel);
      iterators.back() = utils::IteratorType::reduction;
      Value source = current;
      current =
          linalg::GenericOp::create(
              rewriter, loc, TypeRange{passType},
              ValueRange{indexConst, weightConst}, ValueRange{init},
              {tableMap, tableMap, outMap}, iterators,
              [&](OpBuilder &b, Location l, ValueRange args) {
                SmallVector<Value> indices;
                for (int64_t d = 0; d < rank; ++d)
                  indices.push_back(
                      d == dim ? Value(arith::IndexCastOp::create(
                                     b, l, b.getIndexType(), args[0]))
                               : Value(linalg::IndexOp::create(b, l, d)));
                Value v = tensor::ExtractOp::create(b, l, source, indices);
                Value x = loadScalar(b, l, v, graphType);
                Value acc = loadScalar(b, l, args[2], graphType);
                Value term = arith::MulFOp::create(b, l, args[1], x);
                Value sum = arith::AddFOp::create(b, l, acc, term);
                Value isTap = arith::CmpFOp::create(
                    b, l, arith::CmpFPredicate::ONE, args[1],
                    createScalarConstant(b, l, computeType, 0));
                Value next = arith::SelectOp::create(b, l, isTap, sum, acc);
                linalg::YieldOp::create(b, l,
                                        storeScalar(b, l, next, graphType));
              })
              .getResult(0);
    }
    rewriter.replaceOp(op, current);
    return success();
  }
};

} // namespace

void mlir::graph::populateDataMovementToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<SliceToTensor, GatherToLinalg, GatherElementsToLinalg,
               ScatterElementsToLoops, BroadcastToLinalg, PadToTensor,
               ResizeToLinalg>(converter, patterns.getContext());
}
