//===- GridSampleToLinalg.cpp - graph.grid_sample ---------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One linalg.generic over the output whose body reads its position from the
// grid and the pixels it needs from the image with tensor.extract: the
// steps of GridSampleOp::fold (SamplingOps.cpp, GridSampler), one for one.
// Pixel coordinates stay floats until they index, clamped to the image
// first, so that no position (NaN, huge) reads outside it.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::graph;

namespace {

/// The scalar ops of one output element.
class SamplerBuilder : public FloatScalarBuilder {
public:
  SamplerBuilder(OpBuilder &b, Location loc, Type type, int64_t height,
                 int64_t width, bool alignCorners, SamplePadding padding)
      : FloatScalarBuilder(b, loc, type), height(height), width(width),
        alignCorners(alignCorners), padding(padding) {}

  Value low() { return constant(alignCorners ? 0.0 : -0.5); }
  Value high(int64_t size) {
    return alignCorners ? constant(double(size - 1))
                        : sub(constant(double(size)), constant(0.5));
  }
  Value denormalize(Value n, int64_t size) {
    Value one = constant(1.0), two = constant(2.0);
    if (alignCorners)
      return mul(div(add(n, one), two), constant(double(size - 1)));
    return div(sub(mul(add(n, one), constant(double(size))), one), two);
  }
  Value reflect(Value v, Value lo, Value hi) {
    Value range = sub(hi, lo);
    Value below = cmp(arith::CmpFPredicate::OLT, v, lo);
    Value above = cmp(arith::CmpFPredicate::OGT, v, hi);
    Value distance = select(below, sub(lo, v), sub(v, hi));
    Value turns = math::TruncOp::create(b, loc, div(distance, range));
    Value rest = sub(distance, mul(turns, range));
    Value two = constant(2.0);
    Value even =
        cmp(arith::CmpFPredicate::OEQ,
            sub(turns, mul(two, floor(div(turns, two)))), constant(0.0));
    Value fromLow = add(lo, rest), fromHigh = sub(hi, rest);
    Value reflected = select(below, select(even, fromLow, fromHigh),
                             select(above, select(even, fromHigh, fromLow), v));
    return select(cmp(arith::CmpFPredicate::OEQ, range, constant(0.0)), lo,
                  reflected);
  }
  void place(Value &x, Value &y) {
    if (padding == SamplePadding::zeros)
      return;
    auto orI = [&](Value p, Value q) {
      return arith::OrIOp::create(b, loc, p, q).getResult();
    };
    Value outside = orI(orI(cmp(arith::CmpFPredicate::OLT, x, low()),
                            cmp(arith::CmpFPredicate::OGT, x, high(width))),
                        orI(cmp(arith::CmpFPredicate::OLT, y, low()),
                            cmp(arith::CmpFPredicate::OGT, y, high(height))));
    Value nx, ny;
    if (padding == SamplePadding::border) {
      nx = clamp(x, constant(0.0), constant(double(width - 1)));
      ny = clamp(y, constant(0.0), constant(double(height - 1)));
    } else {
      nx = reflect(x, low(), high(width));
      ny = reflect(y, low(), high(height));
    }
    x = select(outside, nx, x);
    y = select(outside, ny, y);
  }
  /// Pixel (r, c) of `image` (the storage tensor, read at n, channel), or
  /// what the padding reads there.
  Value pixel(Value image, Value n, Value channel, Value r, Value c,
              Type graphType) {
    auto index = [&](Value v, int64_t size, Value &inside) {
      Value last = constant(double(size - 1));
      inside = arith::AndIOp::create(
          b, loc, cmp(arith::CmpFPredicate::OGE, v, constant(0.0)),
          cmp(arith::CmpFPredicate::OLE, v, last));
      if (padding == SamplePadding::reflection)
        v = reflect(v, low(), high(size));
      Value clamped = clamp(v, constant(0.0), last);
      Value integer = arith::FPToSIOp::create(b, loc, b.getI64Type(), clamped);
      return arith::IndexCastOp::create(b, loc, b.getIndexType(), integer)
          .getResult();
    };
    Value insideRow, insideColumn;
    Value row = index(r, height, insideRow);
    Value column = index(c, width, insideColumn);
    Value value =
        loadScalar(b, loc,
                   tensor::ExtractOp::create(
                       b, loc, image, ValueRange{n, channel, row, column}),
                   graphType);
    if (padding != SamplePadding::zeros)
      return value;
    return select(arith::AndIOp::create(b, loc, insideRow, insideColumn), value,
                  constant(0.0));
  }
  /// Keys' weights of the four taps at distance t from the second.
  SmallVector<Value, 4> cubicWeights(Value t) {
    Value a = constant(-0.75), one = constant(1.0), two = constant(2.0);
    Value three = constant(3.0), four = constant(4.0), five = constant(5.0);
    Value eight = constant(8.0);
    t = math::AbsFOp::create(b, loc, t);
    Value t1 = add(t, one), u = sub(one, t), u1 = sub(two, t);
    auto outer = [&](Value s) {
      return sub(
          mul(add(mul(sub(mul(a, s), mul(five, a)), s), mul(eight, a)), s),
          mul(four, a));
    };
    auto inner = [&](Value s) {
      return add(mul(mul(sub(mul(add(a, two), s), add(a, three)), s), s), one);
    };
    return {outer(t1), inner(t), inner(u), outer(u1)};
  }

private:
  int64_t height, width;
  bool alignCorners;
  SamplePadding padding;
};

struct GridSampleToLinalg : OpConversionPattern<GridSampleOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GridSampleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getOutput().getType());
    ArrayRef<int64_t> in =
        cast<RankedTensorType>(op.getX().getType()).getShape();
    Type graphType = resultType.getElementType();
    Type computeType = getComputeElementType(graphType);
    Value image = adaptor.getX(), grid = adaptor.getGrid();
    SampleMode mode = op.getMode();
    RankedTensorType storageType = getStorageTensorType(resultType);
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{storageType}, ValueRange{},
            ValueRange{createEmptyTensor(rewriter, loc, storageType)},
            ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(4)},
            SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
            [&](OpBuilder &b, Location, ValueRange) {
              SamplerBuilder s(b, loc, computeType, in[2], in[3],
                               op.getAlignCorners(), op.getPadding());
              Value n = linalg::IndexOp::create(b, loc, 0);
              Value channel = linalg::IndexOp::create(b, loc, 1);
              Value oy = linalg::IndexOp::create(b, loc, 2);
              Value ox = linalg::IndexOp::create(b, loc, 3);
              auto gridAt = [&](int64_t i) {
                Value at = arith::ConstantIndexOp::create(b, loc, i);
                return loadScalar(b, loc,
                                  tensor::ExtractOp::create(
                                      b, loc, grid, ValueRange{n, oy, ox, at}),
                                  graphType);
              };
              Value x = s.denormalize(gridAt(0), in[3]);
              Value y = s.denormalize(gridAt(1), in[2]);
              if (mode == SampleMode::nearest) {
                x = math::RoundEvenOp::create(b, loc, x);
                y = math::RoundEvenOp::create(b, loc, y);
              }
              s.place(x, y);
              auto pixel = [&](Value r, Value c) {
                return s.pixel(image, n, channel, r, c, graphType);
              };
              Value value;
              if (mode == SampleMode::nearest) {
                value = pixel(y, x);
              } else {
                Value x0 = s.floor(x), y0 = s.floor(y);
                if (mode == SampleMode::linear) {
                  Value one = s.constant(1.0);
                  Value x1 = s.add(x0, one), y1 = s.add(y0, one);
                  Value dx1 = s.sub(x, x0), dx2 = s.sub(x1, x);
                  Value dy1 = s.sub(y, y0), dy2 = s.sub(y1, y);
                  value = s.add(s.mul(dy2, s.add(s.mul(dx2, pixel(y0, x0)),
                                                 s.mul(dx1, pixel(y0, x1)))),
                                s.mul(dy1, s.add(s.mul(dx2, pixel(y1, x0)),
                                                 s.mul(dx1, pixel(y1, x1)))));
                } else {
                  SmallVector<Value, 4> wx = s.cubicWeights(s.sub(x, x0));
                  SmallVector<Value, 4> wy = s.cubicWeights(s.sub(y, y0));
                  value = s.constant(0.0);
                  for (int h = 0; h < 4; ++h) {
                    Value row = s.constant(0.0);
                    Value r = s.add(y0, s.constant(h - 1));
                    for (int w = 0; w < 4; ++w)
                      row = s.add(
                          row,
                          s.mul(wx[w], pixel(r, s.add(x0, s.constant(w - 1)))));
                    value = s.add(value, s.mul(wy[h], row));
                  }
                }
              }
              linalg::YieldOp::create(b, loc,
                                      storeScalar(b, loc, value, graphType));
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::graph::populateGridSampleToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<GridSampleToLinalg>(converter, patterns.getContext());
}
