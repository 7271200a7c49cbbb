//===- NNToLinalg.cpp - N-d convolution, pooling, contractions --*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//  - batch_matmul: a linalg.matmul on the collapsed rows when `b` has no
//    batch (the Linear layers of transformers: the vectorized fast path),
//    else both operands broadcast to the batch shape, collapsed to one batch
//    dimension, and a linalg.batch_matmul;
//  - einsum: one linalg.generic, the output letters parallel and the summed
//    ones reductions;
//  - conv: the zero-padded input and the weight read through affine maps by
//    one linalg.generic (groups through floordiv), accumulating from the
//    bias;
//  - conv_transpose: a linalg.generic that gathers, for each output
//    position, the input positions that scatter to it;
//  - conv_integer / matmul_integer: both operands centered on their zero
//    points in i32, then conv's or batch_matmul's contraction in i32;
//  - max_pool / avg_pool: a linalg.generic over the padded input (-inf or
//    the lowest integer for max, zeros for average) with a window operand
//    that carries the kernel's extent; the average divides by a
//    compile-time table of window counts.
// The loops are in the order of the folds' sums (NNOps.cpp).
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"

#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/TypedKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

#include <limits>

using namespace mlir;
using namespace mlir::graph;

/// An accumulator of `storageType` filled with zero.
static Value createZeros(OpBuilder &b, Location loc,
                         RankedTensorType storageType) {
  return createFilledTensorWith(
      b, loc, storageType,
      createScalarConstant(b, loc, storageType.getElementType(), 0));
}

/// acc + a * b in compute types, stored back.
static Value multiplyAdd(OpBuilder &b, Location loc, Value acc, Value x,
                         Value y, Type graphType) {
  Value a = loadScalar(b, loc, acc, graphType);
  Value u = loadScalar(b, loc, x, graphType);
  Value v = loadScalar(b, loc, y, graphType);
  Value sum;
  if (isa<FloatType>(a.getType())) {
    Value prod = arith::MulFOp::create(b, loc, u, v);
    sum = arith::AddFOp::create(b, loc, a, prod);
  } else {
    Value prod = arith::MulIOp::create(b, loc, u, v);
    sum = arith::AddIOp::create(b, loc, a, prod);
  }
  return storeScalar(b, loc, sum, graphType);
}

/// `value` padded with `padValue` by `low` and `high` on each dimension.
static Value padWith(OpBuilder &b, Location loc, Value value,
                     ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                     Value padValue) {
  auto isZero = [](int64_t v) { return v == 0; };
  if (llvm::all_of(low, isZero) && llvm::all_of(high, isZero))
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  for (size_t d = 0; d < shape.size(); ++d)
    shape[d] += low[d] + high[d];
  MLIRContext *context = b.getContext();
  return tensor::PadOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), value,
      getAsIndexOpFoldResult(context, low),
      getAsIndexOpFoldResult(context, high), padValue);
}

/// The batched product of the storage tensors `a` ([..., M, K], graph shape
/// `aShape`) and `b` ([..., K, N]) as the storage type of `resultType`: a
/// linalg.matmul on the collapsed rows when `b` has no batch, else both
/// broadcast to the batch shape, collapsed to one batch dimension, and a
/// linalg.batch_matmul.
static Value createBatchMatmul(OpBuilder &rewriter, Location loc,
                               RankedTensorType resultType, Value a,
                               ArrayRef<int64_t> aShape, Value b,
                               ArrayRef<int64_t> bShape) {
  auto storageType = getStorageTensorType(resultType);
  Type element = storageType.getElementType();
  ArrayRef<int64_t> out = resultType.getShape();
  int64_t m = out[out.size() - 2], n = out.back(), k = aShape.back();
  auto isOne = [](int64_t d) { return d == 1; };

  // b without batch: one matmul over all the rows of a.
  if (llvm::all_of(bShape.drop_back(2), isOne)) {
    int64_t rows = resultType.getNumElements() / std::max<int64_t>(n, 1);
    a = createReshape(rewriter, loc, a,
                      RankedTensorType::get({rows, k}, element));
    b = createReshape(rewriter, loc, b, RankedTensorType::get({k, n}, element));
    auto flatType = RankedTensorType::get({rows, n}, element);
    Value init = createZeros(rewriter, loc, flatType);
    Value product = linalg::MatmulOp::create(rewriter, loc, TypeRange{flatType},
                                             ValueRange{a, b}, ValueRange{init})
                        .getResult(0);
    return createReshape(rewriter, loc, product, storageType);
  }

  // Broadcast both to the batch shape, collapse it, batch_matmul.
  SmallVector<int64_t> batch(out.drop_back(2));
  int64_t batchSize = 1;
  for (int64_t d : batch)
    batchSize *= d;
  auto broadcastTo = [&](Value v, ArrayRef<int64_t> shape, int64_t rows,
                         int64_t cols) {
    SmallVector<int64_t> full(batch);
    full.push_back(rows);
    full.push_back(cols);
    if (ArrayRef<int64_t>(full) != shape)
      v = createElementwise(
          rewriter, loc, RankedTensorType::get(full, element), v, {},
          [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    return createReshape(
        rewriter, loc, v,
        RankedTensorType::get({batchSize, rows, cols}, element));
  };
  a = broadcastTo(a, aShape, m, k);
  b = broadcastTo(b, bShape, k, n);
  auto flatType = RankedTensorType::get({batchSize, m, n}, element);
  Value init = createZeros(rewriter, loc, flatType);
  Value product =
      linalg::BatchMatmulOp::create(rewriter, loc, TypeRange{flatType},
                                    ValueRange{a, b}, ValueRange{init})
          .getResult(0);
  return createReshape(rewriter, loc, product, storageType);
}

namespace {

//===----------------------------------------------------------------------===//
// graph.batch_matmul
//===----------------------------------------------------------------------===//

struct BatchMatMulToLinalg : OpConversionPattern<BatchMatMulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BatchMatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, createBatchMatmul(
                rewriter, op.getLoc(), cast<RankedTensorType>(op.getType()),
                adaptor.getA(),
                cast<RankedTensorType>(op.getA().getType()).getShape(),
                adaptor.getB(),
                cast<RankedTensorType>(op.getB().getType()).getShape()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// graph.einsum
//===----------------------------------------------------------------------===//

struct EinsumToLinalg : OpConversionPattern<EinsumOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(EinsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type graphType = resultType.getElementType();
    std::optional<reference::EinsumEquation> equation =
        reference::parseEinsum(op.getEquation());
    if (!equation)
      return rewriter.notifyMatchFailure(op, "bad equation");
    std::string loops = equation->output;
    for (char c : equation->letters)
      if (loops.find(c) == std::string::npos)
        loops += c;
    auto mapOf = [&](StringRef letters) {
      SmallVector<AffineExpr> exprs;
      for (char c : letters)
        exprs.push_back(getAffineDimExpr(loops.find(c), context));
      return AffineMap::get(loops.size(), 0, exprs, context);
    };
    SmallVector<AffineMap> maps;
    for (const std::string &input : equation->inputs)
      maps.push_back(mapOf(input));
    maps.push_back(mapOf(equation->output));
    SmallVector<utils::IteratorType> iterators;
    for (size_t l = 0; l < loops.size(); ++l)
      iterators.push_back(l < equation->output.size()
                              ? utils::IteratorType::parallel
                              : utils::IteratorType::reduction);
    auto storageType = getStorageTensorType(resultType);
    Value init = createZeros(rewriter, loc, storageType);
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{storageType}, adaptor.getInputs(),
            ValueRange{init}, maps, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value prod = loadScalar(b, l, args[0], graphType);
              bool isFloat = isa<FloatType>(prod.getType());
              for (Value arg : args.drop_front().drop_back()) {
                Value v = loadScalar(b, l, arg, graphType);
                prod = isFloat ? Value(arith::MulFOp::create(b, l, prod, v))
                               : Value(arith::MulIOp::create(b, l, prod, v));
              }
              Value acc = loadScalar(b, l, args.back(), graphType);
              Value sum = isFloat
                              ? Value(arith::AddFOp::create(b, l, acc, prod))
                              : Value(arith::AddIOp::create(b, l, acc, prod));
              linalg::YieldOp::create(b, l, storeScalar(b, l, sum, graphType));
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// graph.conv
//===----------------------------------------------------------------------===//

/// The accumulator of a convolution: the bias broadcast over every output
/// position, or zeros.
static Value createConvInit(OpBuilder &b, Location loc,
                            RankedTensorType storageType, Value bias) {
  if (!bias)
    return createZeros(b, loc, storageType);
  MLIRContext *context = b.getContext();
  AffineMap map = AffineMap::get(storageType.getRank(), 0,
                                 getAffineDimExpr(1, context), context);
  return createElementwise(
      b, loc, storageType, bias, {map},
      [](OpBuilder &, Location, ValueRange args) { return args[0]; });
}

/// The N-d convolution of the storage tensors `input` and `weight` (graph
/// shape `w`) as the storage type of `resultType`: the input padded with
/// zeros and the weight read through affine maps by one linalg.generic
/// (groups through floordiv), accumulating from `bias` or zero.
static Value createDirectConv(OpBuilder &rewriter, Location loc,
                              RankedTensorType resultType, Value input,
                              Value weight, Value bias, ArrayRef<int64_t> w,
                              ArrayRef<int64_t> padding,
                              ArrayRef<int64_t> strides,
                              ArrayRef<int64_t> dilations, int64_t groups) {
  MLIRContext *context = rewriter.getContext();
  Type graphType = resultType.getElementType();
  auto storageType = getStorageTensorType(resultType);
  int64_t k = resultType.getRank() - 2;
  int64_t cg = w[1], fg = w[0] / groups;

  SmallVector<int64_t> low = {0, 0}, high = {0, 0};
  for (int64_t d = 0; d < k; ++d) {
    low.push_back(padding[d]);
    high.push_back(padding[k + d]);
  }
  Value padded = padWith(
      rewriter, loc, input, low, high,
      createScalarConstant(rewriter, loc, storageType.getElementType(), 0));
  Value init = createConvInit(rewriter, loc, storageType, bias);

  // Loops: n, f, o_1..o_k (parallel), c, kk_1..kk_k (reduction).
  int64_t numLoops = 2 + 2 * k + 1;
  auto dim = [&](int64_t i) { return getAffineDimExpr(i, context); };
  AffineExpr n = dim(0), f = dim(1), c = dim(2 + k);
  AffineExpr channel = groups == 1 ? c : f.floorDiv(fg) * cg + c;
  SmallVector<AffineExpr> inExprs = {n, channel}, wExprs = {f, c},
                          outExprs = {n, f};
  for (int64_t d = 0; d < k; ++d) {
    AffineExpr o = dim(2 + d), kk = dim(3 + k + d);
    inExprs.push_back(o * strides[d] + kk * dilations[d]);
    wExprs.push_back(kk);
    outExprs.push_back(o);
  }
  SmallVector<AffineMap> maps = {
      AffineMap::get(numLoops, 0, inExprs, context),
      AffineMap::get(numLoops, 0, wExprs, context),
      AffineMap::get(numLoops, 0, outExprs, context)};
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::parallel);
  for (int64_t i = 2 + k; i < numLoops; ++i)
    iterators[i] = utils::IteratorType::reduction;
  return linalg::GenericOp::create(
             rewriter, loc, TypeRange{storageType}, ValueRange{padded, weight},
             ValueRange{init}, maps, iterators,
             [&](OpBuilder &b, Location l, ValueRange args) {
               linalg::YieldOp::create(
                   b, l,
                   multiplyAdd(b, l, args[2], args[0], args[1], graphType));
             })
      .getResult(0);
}

struct ConvToLinalg : OpConversionPattern<ConvOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, createDirectConv(
                rewriter, op.getLoc(), cast<RankedTensorType>(op.getType()),
                adaptor.getInput(), adaptor.getWeight(), adaptor.getBias(),
                cast<RankedTensorType>(op.getWeight().getType()).getShape(),
                op.getPadding(), op.getStrides(), op.getDilations(),
                op.getGroups()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// graph.conv_transpose
//===----------------------------------------------------------------------===//

struct ConvTransposeToLinalg : OpConversionPattern<ConvTransposeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConvTransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type graphType = resultType.getElementType();
    auto storageType = getStorageTensorType(resultType);
    ArrayRef<int64_t> in =
        cast<RankedTensorType>(op.getInput().getType()).getShape();
    ArrayRef<int64_t> w =
        cast<RankedTensorType>(op.getWeight().getType()).getShape();
    int64_t k = resultType.getRank() - 2;
    ArrayRef<int64_t> padding = op.getPadding(), strides = op.getStrides(),
                      dilations = op.getDilations();
    int64_t fg = w[1], cg = in[1] / op.getGroups();
    Value init = createConvInit(rewriter, loc, storageType, adaptor.getBias());

    // The reduction loops (c, kernel) take their extent from a window
    // operand; the input and the weight are read by index.
    SmallVector<int64_t> windowShape = {cg};
    windowShape.append(w.begin() + 2, w.end());
    Value window =
        createZeros(rewriter, loc,
                    RankedTensorType::get(windowShape, rewriter.getI8Type()));
    int64_t numLoops = 2 + 2 * k + 1;
    SmallVector<AffineExpr> windowExprs, outExprs;
    for (int64_t i = 2 + k; i < numLoops; ++i)
      windowExprs.push_back(getAffineDimExpr(i, context));
    for (int64_t i = 0; i < 2 + k; ++i)
      outExprs.push_back(getAffineDimExpr(i, context));
    SmallVector<AffineMap> maps = {
        AffineMap::get(numLoops, 0, windowExprs, context),
        AffineMap::get(numLoops, 0, outExprs, context)};
    SmallVector<utils::IteratorType> iterators(numLoops,
                                               utils::IteratorType::parallel);
    for (int64_t i = 2 + k; i < numLoops; ++i)
      iterators[i] = utils::IteratorType::reduction;
    Value x = adaptor.getInput(), weight = adaptor.getWeight();
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{storageType}, ValueRange{window},
            ValueRange{init}, maps, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              auto index = [&](int64_t i) {
                return linalg::IndexOp::create(b, l, i).getResult();
              };
              auto cst = [&](int64_t v) {
                return arith::ConstantIndexOp::create(b, l, v).getResult();
              };
              Value nIdx = index(0), f = index(1), c = index(2 + k);
              Value g = arith::DivUIOp::create(b, l, f, cst(fg));
              Value fIn = arith::RemUIOp::create(b, l, f, cst(fg));
              Value channel = arith::AddIOp::create(
                  b, l, arith::MulIOp::create(b, l, g, cst(cg)), c);
              Value valid = arith::ConstantIntOp::create(b, l, 1, 1);
              SmallVector<Value> xIndices = {nIdx, channel};
              SmallVector<Value> wIndices = {channel, fIn};
              for (int64_t d = 0; d < k; ++d) {
                Value o = index(2 + d), kk = index(3 + k + d);
                // numerator = o + pad - kk * dilation; it must be a
                // non-negative multiple of the stride below the input size.
                Value numerator = arith::SubIOp::create(
                    b, l, arith::AddIOp::create(b, l, o, cst(padding[d])),
                    arith::MulIOp::create(b, l, kk, cst(dilations[d])));
                Value nonNegative = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::sge, numerator, cst(0));
                Value safe = arith::MaxSIOp::create(b, l, numerator, cst(0));
                Value i = arith::DivUIOp::create(b, l, safe, cst(strides[d]));
                Value exact = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::eq,
                    arith::RemUIOp::create(b, l, safe, cst(strides[d])),
                    cst(0));
                Value inside = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::slt, i, cst(in[2 + d]));
                valid = arith::AndIOp::create(
                    b, l, valid,
                    arith::AndIOp::create(
                        b, l, nonNegative,
                        arith::AndIOp::create(b, l, exact, inside)));
                xIndices.push_back(
                    arith::MinSIOp::create(b, l, i, cst(in[2 + d] - 1)));
                wIndices.push_back(kk);
              }
              Value xv = tensor::ExtractOp::create(b, l, x, xIndices);
              Value wv = tensor::ExtractOp::create(b, l, weight, wIndices);
              Value next = multiplyAdd(b, l, args[1], xv, wv, graphType);
              linalg::YieldOp::create(
                  b, l,
                  arith::SelectOp::create(b, l, valid, next, args[1])
                      .getResult());
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// graph.max_pool, graph.avg_pool
//===----------------------------------------------------------------------===//

template <typename OpTy> struct PoolToLinalg : OpConversionPattern<OpTy> {
  PoolToLinalg(const TypeConverter &converter, MLIRContext *context, bool isMax)
      : OpConversionPattern<OpTy>(converter, context), isMax(isMax) {}
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type graphType = resultType.getElementType();
    auto storageType = getStorageTensorType(resultType);
    Type element = storageType.getElementType();
    ArrayRef<int64_t> in =
        cast<RankedTensorType>(op.getX().getType()).getShape();
    int64_t k = resultType.getRank() - 2;
    ArrayRef<int64_t> kernel = op.getKernel(), padding = op.getPadding(),
                      strides = op.getStrides(), dilations = op.getDilations();

    // Padded cells never win a max and add nothing to a sum.
    Value padValue, initValue;
    if (!isMax) {
      padValue = initValue = createScalarConstant(rewriter, loc, element, 0);
    } else if (auto floatType = dyn_cast<FloatType>(element)) {
      padValue = initValue = arith::ConstantOp::create(
          rewriter, loc,
          rewriter.getFloatAttr(floatType,
                                -std::numeric_limits<double>::infinity()));
    } else {
      unsigned width = element.getIntOrFloatBitWidth();
      APInt lowest = isUnsignedGraphType(graphType)
                         ? APInt::getMinValue(width)
                         : APInt::getSignedMinValue(width);
      padValue = initValue = arith::ConstantOp::create(
          rewriter, loc, rewriter.getIntegerAttr(element, lowest));
    }
    SmallVector<int64_t> low = {0, 0}, high = {0, 0};
    for (int64_t d = 0; d < k; ++d) {
      low.push_back(padding[d]);
      high.push_back(padding[k + d]);
    }
    Value x = padWith(rewriter, loc, adaptor.getX(), low, high, padValue);
    Value init = createFilledTensorWith(rewriter, loc, storageType, initValue);
    Value window = createZeros(
        rewriter, loc, RankedTensorType::get(kernel, rewriter.getI8Type()));

    int64_t numLoops = 2 + 2 * k;
    auto dim = [&](int64_t i) { return getAffineDimExpr(i, context); };
    SmallVector<AffineExpr> inExprs = {dim(0), dim(1)}, windowExprs,
                            outExprs = {dim(0), dim(1)};
    for (int64_t d = 0; d < k; ++d) {
      inExprs.push_back(dim(2 + d) * strides[d] +
                        dim(2 + k + d) * dilations[d]);
      windowExprs.push_back(dim(2 + k + d));
      outExprs.push_back(dim(2 + d));
    }
    SmallVector<AffineMap> maps = {
        AffineMap::get(numLoops, 0, inExprs, context),
        AffineMap::get(numLoops, 0, windowExprs, context),
        AffineMap::get(numLoops, 0, outExprs, context)};
    SmallVector<utils::IteratorType> iterators(numLoops,
                                               utils::IteratorType::parallel);
    for (int64_t i = 2 + k; i < numLoops; ++i)
      iterators[i] = utils::IteratorType::reduction;
    bool isUnsigned = isUnsignedGraphType(graphType);
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{storageType}, ValueRange{x, window},
            ValueRange{init}, maps, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value v = loadScalar(b, l, args[0], graphType);
              Value acc = loadScalar(b, l, args[2], graphType);
              Value next;
              if (isa<FloatType>(v.getType()))
                next = isMax ? Value(arith::MaximumFOp::create(b, l, acc, v))
                             : Value(arith::AddFOp::create(b, l, acc, v));
              else
                next = isUnsigned ? Value(arith::MaxUIOp::create(b, l, acc, v))
                                  : Value(arith::MaxSIOp::create(b, l, acc, v));
              linalg::YieldOp::create(b, l, storeScalar(b, l, next, graphType));
            })
            .getResult(0);

    if (!isMax) {
      // Divide by the real cells of each window (or the whole window).
      SmallVector<int64_t> outSpatial(resultType.getShape().drop_front(2));
      SmallVector<double> counts;
      bool includePad = false;
      if (auto avg = dyn_cast<AvgPoolOp>(op.getOperation()))
        includePad = avg.getCountIncludePad();
      reference::forEachIndex(outSpatial, [&](ArrayRef<int64_t> o) {
        double count = 1;
        for (int64_t d = 0; d < k; ++d) {
          int64_t real = 0;
          for (int64_t j = 0; j < kernel[d]; ++j) {
            int64_t i = o[d] * strides[d] - padding[d] + j * dilations[d];
            real += (includePad || (i >= 0 && i < in[2 + d])) ? 1 : 0;
          }
          count *= real;
        }
        counts.push_back(count);
      });
      Type computeType = getComputeElementType(graphType);
      SmallVector<Attribute> countAttrs;
      for (double count : counts)
        countAttrs.push_back(rewriter.getFloatAttr(computeType, count));
      Value countTable = arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(RankedTensorType::get(outSpatial, computeType),
                                 countAttrs));
      SmallVector<AffineExpr> countExprs;
      for (int64_t d = 0; d < k; ++d)
        countExprs.push_back(dim(2 + d));
      int64_t rank = resultType.getRank();
      result = createTypedElementwise(
          rewriter, loc, resultType, ValueRange{result, countTable},
          {graphType, computeType},
          {AffineMap::getMultiDimIdentityMap(rank, context),
           AffineMap::get(rank, 0, countExprs, context)},
          [](OpBuilder &b, Location l, ValueRange args) {
            return arith::DivFOp::create(b, l, args[0], args[1]).getResult();
          });
    }
    rewriter.replaceOp(op, result);
    return success();
  }

  bool isMax;
};

//===----------------------------------------------------------------------===//
// graph.conv_integer, graph.matmul_integer
//===----------------------------------------------------------------------===//

/// `x - zeroPoint` as an i32 tensor (the storage tensors of one i8 or ui8
/// graph type): the exact operand of an integer contraction.
static Value centerOnZeroPoint(OpBuilder &b, Location loc, Value x,
                               Value zeroPoint, Type graphType,
                               ArrayRef<int64_t> shape) {
  Type i32 = b.getI32Type();
  bool isUnsigned = isUnsignedGraphType(graphType);
  return createTypedElementwise(
      b, loc, RankedTensorType::get(shape, i32), {x, zeroPoint},
      {graphType, graphType}, {},
      [&](OpBuilder &b, Location l, ValueRange args) {
        auto widen = [&](Value v) -> Value {
          if (isUnsigned)
            return arith::ExtUIOp::create(b, l, i32, v);
          return arith::ExtSIOp::create(b, l, i32, v);
        };
        // One statement each: the order of the ops does not depend on the
        // compiler's order of evaluating arguments.
        Value value = widen(args[0]);
        Value zeroPoint = widen(args[1]);
        return arith::SubIOp::create(b, l, value, zeroPoint);
      });
}

/// `value` transposed by `perm`.
static Value transposeTensor(OpBuilder &b, Location loc, Value value,
                             ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  return linalg::TransposeOp::create(b, loc, value, init, perm).getResult()[0];
}

/// Both operands centered on their zero points, then the convolution of
/// graph.conv in i32 (padding with zero is padding with the zero point). The
/// NHWC form is the NCHW one between transposes: the reference path, where
/// graph-lower-integer-matmul's kernels do not serve.
struct ConvIntegerToLinalg : OpConversionPattern<ConvIntegerOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConvIntegerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    auto weightType = cast<RankedTensorType>(op.getWeight().getType());
    Value input = centerOnZeroPoint(
        rewriter, loc, adaptor.getInput(), adaptor.getInputZeroPoint(),
        inputType.getElementType(), inputType.getShape());
    Value weight = centerOnZeroPoint(
        rewriter, loc, adaptor.getWeight(), adaptor.getWeightZeroPoint(),
        weightType.getElementType(), weightType.getShape());
    auto resultType = cast<RankedTensorType>(op.getType());
    bool nhwc = op.getLayout() == Layout::NHWC;
    if (nhwc) {
      input = transposeTensor(rewriter, loc, input, {0, 3, 1, 2});
      weight = transposeTensor(rewriter, loc, weight, {3, 2, 0, 1});
      ArrayRef<int64_t> shape = resultType.getShape();
      resultType = resultType.clone({shape[0], shape[3], shape[1], shape[2]});
    }
    Value result = createDirectConv(
        rewriter, loc, resultType, input, weight, Value(),
        cast<RankedTensorType>(weight.getType()).getShape(), op.getPadding(),
        op.getStrides(), op.getDilations(), op.getGroups());
    if (nhwc)
      result = transposeTensor(rewriter, loc, result, {0, 2, 3, 1});
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Both operands centered on their zero points, then graph.batch_matmul's
/// contraction in i32.
struct MatMulIntegerToLinalg : OpConversionPattern<MatMulIntegerOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MatMulIntegerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    Value a = centerOnZeroPoint(rewriter, loc, adaptor.getA(),
                                adaptor.getAZeroPoint(), aType.getElementType(),
                                aType.getShape());
    Value b = centerOnZeroPoint(rewriter, loc, adaptor.getB(),
                                adaptor.getBZeroPoint(), bType.getElementType(),
                                bType.getShape());
    rewriter.replaceOp(
        op,
        createBatchMatmul(rewriter, loc, cast<RankedTensorType>(op.getType()),
                          a, aType.getShape(), b, bType.getShape()));
    return success();
  }
};

} // namespace

void mlir::graph::populateNNToLinalgPatterns(const TypeConverter &converter,
                                             RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns
      .add<BatchMatMulToLinalg, EinsumToLinalg, ConvToLinalg,
           ConvTransposeToLinalg, ConvIntegerToLinalg, MatMulIntegerToLinalg>(
          converter, context);
  patterns.add<PoolToLinalg<MaxPoolOp>>(converter, context, true);
  patterns.add<PoolToLinalg<AvgPoolOp>>(converter, context, false);
}
