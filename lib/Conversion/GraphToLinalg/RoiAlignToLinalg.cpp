//===- RoiAlignToLinalg.cpp - graph.roi_align -------------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One linalg.generic over the output [R, C, Ho, Wo] whose body reads its
// region and image index, then pools its bin's samples in two scf.for loops:
// their counts come from the region's values when sampling_ratio is 0. The
// arithmetic is ONNX Runtime's RoiAlign (roialign.cc) step for step, in the
// same order, so that results agree to the rounding. Every pixel index is
// clamped onto the image before it reads, so that no region (NaN, huge, out
// of the image) and no batch index reads outside `x`.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

#include <limits>

using namespace mlir;
using namespace mlir::graph;

namespace {

/// The most samples along a side of a bin when sampling_ratio is 0, which
/// bounds the work a huge region makes; an infinite one (all its samples off
/// the image, so 0 whatever their count) takes none.
constexpr double kMaxSamplesPerSide = 1024.0;

/// The scalar ops of one output element, in the compute type `type`.
class RoiAlignBuilder : public FloatScalarBuilder {
public:
  using FloatScalarBuilder::FloatScalarBuilder;

  Value orI(Value p, Value q) { return arith::OrIOp::create(b, loc, p, q); }
  /// max as std::max(p, q) where neither is NaN, NaN if either is.
  Value max(Value p, Value q) {
    return arith::MaximumFOp::create(b, loc, p, q);
  }
  /// Clamped to [lo, hi], a NaN to lo.
  Value clamp(Value v, double lo, double hi) {
    return FloatScalarBuilder::clamp(v, constant(lo), constant(hi));
  }
  /// A non-negative float that is integral (or clamped) as an index.
  Value toIndex(Value v) {
    Value integer = arith::FPToSIOp::create(b, loc, b.getI64Type(), v);
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), integer);
  }
  /// An index as a float of the compute type.
  Value toFloat(Value index) {
    Value integer =
        arith::IndexCastOp::create(b, loc, b.getI64Type(), index).getResult();
    return arith::SIToFPOp::create(b, loc, type, integer);
  }

  /// The low and high pixel index along a side of `size` pixels of the
  /// sample coordinate `v` (already >= 0), and `v` moved to the last pixel
  /// when it is at or past it.
  void neighbours(Value &v, int64_t size, Value &low, Value &high) {
    Value last = constant(double(size - 1));
    Value floor = FloatScalarBuilder::floor(v);
    Value atEnd = cmp(arith::CmpFPredicate::OGE, floor, last);
    Value lowF = select(atEnd, last, floor);
    v = select(atEnd, last, v);
    low = lowF;
    high = select(atEnd, last, add(lowF, constant(1.0)));
  }
};

struct RoiAlignToLinalg : OpConversionPattern<RoiAlignOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RoiAlignOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getOutput().getType());
    ArrayRef<int64_t> in =
        cast<RankedTensorType>(op.getX().getType()).getShape();
    int64_t batch = in[0], height = in[2], width = in[3];
    Type graphType = resultType.getElementType();
    Type computeType = getComputeElementType(graphType);
    Value image = adaptor.getX(), rois = adaptor.getRois();
    Value batchIndices = adaptor.getBatchIndices();
    bool average = op.getMode() == RoiAlignMode::avg;
    bool halfPixel = op.getHalfPixel();
    int64_t pooledHeight = op.getOutputHeight();
    int64_t pooledWidth = op.getOutputWidth();
    int64_t samplingRatio = op.getSamplingRatio();
    double spatialScale = op.getSpatialScale().convertToDouble();
    RankedTensorType storageType = getStorageTensorType(resultType);

    auto body = [&](OpBuilder &b, Location, ValueRange) {
      RoiAlignBuilder s(b, loc, computeType);
      Value r = linalg::IndexOp::create(b, loc, 0);
      Value channel = linalg::IndexOp::create(b, loc, 1);
      Value ph = linalg::IndexOp::create(b, loc, 2);
      Value pw = linalg::IndexOp::create(b, loc, 3);
      auto indexConstant = [&](int64_t value) -> Value {
        return arith::ConstantIndexOp::create(b, loc, value);
      };

      // The region's image, clamped into [0, N).
      Value storedIndex = tensor::ExtractOp::create(b, loc, batchIndices, r);
      Value n =
          arith::IndexCastOp::create(b, loc, b.getIndexType(), storedIndex);
      n = arith::MinSIOp::create(
          b, loc, arith::MaxSIOp::create(b, loc, n, indexConstant(0)),
          indexConstant(batch - 1));

      // The region in pixels and its bins.
      auto corner = [&](int64_t i) {
        Value value =
            loadScalar(b, loc,
                       tensor::ExtractOp::create(
                           b, loc, rois, ValueRange{r, indexConstant(i)}),
                       graphType);
        return s.sub(s.mul(value, s.constant(spatialScale)),
                     s.constant(halfPixel ? 0.5 : 0.0));
      };
      Value startW = corner(0), startH = corner(1);
      Value roiWidth = s.sub(corner(2), startW);
      Value roiHeight = s.sub(corner(3), startH);
      if (!halfPixel) {
        roiWidth = s.max(roiWidth, s.constant(1.0));
        roiHeight = s.max(roiHeight, s.constant(1.0));
      }
      Value binHeight = s.div(roiHeight, s.constant(double(pooledHeight)));
      Value binWidth = s.div(roiWidth, s.constant(double(pooledWidth)));
      auto samplesAlong = [&](Value bin) -> Value {
        if (samplingRatio > 0)
          return indexConstant(samplingRatio);
        Value ceil = math::CeilOp::create(b, loc, bin);
        Value infinite =
            s.cmp(arith::CmpFPredicate::OEQ, ceil,
                  s.constant(std::numeric_limits<double>::infinity()));
        ceil = s.select(infinite, s.constant(0.0), ceil);
        return s.toIndex(s.clamp(ceil, 0.0, kMaxSamplesPerSide));
      };
      Value gridH = samplesAlong(binHeight), gridW = samplesAlong(binWidth);
      Value gridHF = s.toFloat(gridH), gridWF = s.toFloat(gridW);
      Value binY = s.add(startH, s.mul(s.toFloat(ph), binHeight));
      Value binX = s.add(startW, s.mul(s.toFloat(pw), binWidth));

      // One sample: its four weighted pixels, 0 when it is off the image.
      auto sample = [&](Value iy, Value ix) {
        Value half = s.constant(0.5);
        Value y = s.add(
            binY, s.div(s.mul(s.add(s.toFloat(iy), half), binHeight), gridHF));
        Value x = s.add(
            binX, s.div(s.mul(s.add(s.toFloat(ix), half), binWidth), gridWF));
        Value off =
            s.orI(s.orI(s.cmp(arith::CmpFPredicate::OLT, y, s.constant(-1.0)),
                        s.cmp(arith::CmpFPredicate::OGT, y,
                              s.constant(double(height)))),
                  s.orI(s.cmp(arith::CmpFPredicate::OLT, x, s.constant(-1.0)),
                        s.cmp(arith::CmpFPredicate::OGT, x,
                              s.constant(double(width)))));
        // Clamped onto the image (a NaN to 0): what is off it reads pixel 0
        // and counts 0.
        y = s.clamp(y, 0.0, double(height));
        x = s.clamp(x, 0.0, double(width));
        Value yLow, yHigh, xLow, xHigh;
        s.neighbours(y, height, yLow, yHigh);
        s.neighbours(x, width, xLow, xHigh);
        Value ly = s.sub(y, yLow), lx = s.sub(x, xLow);
        Value hy = s.sub(s.constant(1.0), ly), hx = s.sub(s.constant(1.0), lx);
        auto pixel = [&](Value row, Value column) {
          return loadScalar(
              b, loc,
              tensor::ExtractOp::create(
                  b, loc, image,
                  ValueRange{n, channel, s.toIndex(row), s.toIndex(column)}),
              graphType);
        };
        Value p1 = s.mul(s.mul(hy, hx), pixel(yLow, xLow));
        Value p2 = s.mul(s.mul(hy, lx), pixel(yLow, xHigh));
        Value p3 = s.mul(s.mul(ly, hx), pixel(yHigh, xLow));
        Value p4 = s.mul(s.mul(ly, lx), pixel(yHigh, xHigh));
        Value value = average ? s.add(s.add(s.add(p1, p2), p3), p4)
                              : s.max(s.max(s.max(p1, p2), p3), p4);
        return s.select(off, s.constant(0.0), value);
      };

      // The bin: the sum or the maximum over its grid of samples.
      Value zero = indexConstant(0), one = indexConstant(1);
      Value initial =
          average ? s.constant(0.0)
                  : s.constant(-std::numeric_limits<double>::infinity());
      auto rows = scf::ForOp::create(
          b, loc, zero, gridH, one, ValueRange{initial},
          [&](OpBuilder &rowBuilder, Location, Value iy, ValueRange rowAcc) {
            auto columns = scf::ForOp::create(
                rowBuilder, loc, zero, gridW, one, rowAcc,
                [&](OpBuilder &columnBuilder, Location, Value ix,
                    ValueRange acc) {
                  OpBuilder::InsertionGuard guard(b);
                  b.setInsertionPoint(columnBuilder.getInsertionBlock(),
                                      columnBuilder.getInsertionPoint());
                  Value value = sample(iy, ix);
                  Value next =
                      average ? s.add(acc[0], value) : s.max(acc[0], value);
                  scf::YieldOp::create(b, loc, next);
                });
            scf::YieldOp::create(rowBuilder, loc, columns.getResult(0));
          });
      Value pooled = rows.getResult(0);
      Value count = arith::MulIOp::create(b, loc, gridH, gridW);
      if (average) {
        // Divided by the count of samples, at least one.
        Value divisor = s.toFloat(arith::MaxSIOp::create(b, loc, count, one));
        pooled = s.div(pooled, divisor);
      } else {
        Value none = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           count, zero);
        pooled = s.select(none, s.constant(0.0), pooled);
      }
      linalg::YieldOp::create(b, loc, storeScalar(b, loc, pooled, graphType));
    };

    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{storageType}, ValueRange{},
            ValueRange{createEmptyTensor(rewriter, loc, storageType)},
            ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(4)},
            SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
            body)
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::graph::populateRoiAlignToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<RoiAlignToLinalg>(converter, patterns.getContext());
}
