//===- RunTimeSizeToLoops.cpp - Ops whose result size the data decides ----===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph.nonzero: a loop nest over `x` in row-major order that carries the
// count found so far and writes each nonzero element's index into the
// column of that count; the result starts as zeros, which the columns past
// the final count keep. graph.non_max_suppression: loops over batches and
// classes that carry the rows selected so far (below).
// graph.concat_prefixes: a loop per input that copies its valid slices.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

#include <functional>
#include <optional>

using namespace mlir;
using namespace mlir::graph;

namespace {

/// Whether the compute scalar `v` is nonzero (NaN is).
static Value isNonZero(OpBuilder &b, Location loc, Value v) {
  Type type = v.getType();
  if (type.isInteger(1))
    return v;
  Value zero = createScalarConstant(b, loc, type, 0);
  if (isa<FloatType>(type))
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v, zero);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, zero);
}

struct NonZeroToLoops : OpConversionPattern<NonZeroOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(NonZeroOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto xType = cast<RankedTensorType>(op.getX().getType());
    ArrayRef<int64_t> shape = xType.getShape();
    Type graphType = xType.getElementType();
    auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
    Value x = adaptor.getX();

    Value zeroI64 =
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI64Type(), 0);
    Value indices = createFilledTensorWith(rewriter, loc, indicesType, zeroI64);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<Value> ivs(shape.size(), zero);

    // The element at `ivs`: its index into column `count` when nonzero.
    auto visit = [&](OpBuilder &b, Location l, Value result,
                     Value count) -> std::pair<Value, Value> {
      Value v =
          loadScalar(b, l, tensor::ExtractOp::create(b, l, x, ivs), graphType);
      auto branch = scf::IfOp::create(
          b, l, isNonZero(b, l, v),
          [&](OpBuilder &b, Location l) {
            Value written = result;
            for (auto [d, iv] : llvm::enumerate(ivs)) {
              Value row = arith::ConstantIndexOp::create(b, l, d);
              Value index =
                  arith::IndexCastOp::create(b, l, b.getI64Type(), iv);
              written = tensor::InsertOp::create(b, l, index, written,
                                                 ValueRange{row, count});
            }
            Value next = arith::AddIOp::create(b, l, count, one);
            scf::YieldOp::create(b, l, ValueRange{written, next});
          },
          [&](OpBuilder &b, Location l) {
            scf::YieldOp::create(b, l, ValueRange{result, count});
          });
      return {branch.getResult(0), branch.getResult(1)};
    };
    // One loop per dimension, outermost first.
    std::function<std::pair<Value, Value>(OpBuilder &, Location, size_t, Value,
                                          Value)>
        nest = [&](OpBuilder &b, Location l, size_t d, Value result,
                   Value count) -> std::pair<Value, Value> {
      if (d == shape.size())
        return visit(b, l, result, count);
      Value upper = arith::ConstantIndexOp::create(b, l, shape[d]);
      auto loop = scf::ForOp::create(
          b, l, zero, upper, one, ValueRange{result, count},
          [&](OpBuilder &nested, Location nl, Value iv, ValueRange args) {
            ivs[d] = iv;
            auto [nextResult, nextCount] =
                nest(nested, nl, d + 1, args[0], args[1]);
            ivs[d] = zero;
            scf::YieldOp::create(nested, nl, ValueRange{nextResult, nextCount});
          });
      return {loop.getResult(0), loop.getResult(1)};
    };
    auto [result, count] = nest(rewriter, loc, 0, indices, zero);
    replaceWithExtent(rewriter, op, {result}, count);
    return success();
  }
};

/// ONNX Runtime's NonMaxSuppression for each batch and class: the
/// candidates sorted into rank order (decreasing score, equal scores by
/// index) and each tested against the boxes selected for its class before
/// it is appended. O(N log N + N * selected) per class, as ONNX Runtime's
/// priority queue; the order and arithmetic are the fold's.
struct NonMaxSuppressionToLoops : OpConversionPattern<NonMaxSuppressionOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(NonMaxSuppressionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ArrayRef<int64_t> scoresShape =
        cast<RankedTensorType>(op.getScores().getType()).getShape();
    int64_t maxBoxes = op.getMaxOutputBoxesPerClass();
    bool centerPoint = op.getCenterPointBox();
    std::optional<double> scoreThreshold;
    if (auto threshold = op.getScoreThresholdAttr())
      scoreThreshold = threshold.getValueAsDouble();
    Value boxes = adaptor.getBoxes(), scores = adaptor.getScores();
    auto selectedType = cast<RankedTensorType>(op.getSelected().getType());

    OpBuilder::InsertionGuard guard(rewriter);
    auto index = [&](OpBuilder &b, Location l, int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, l, v);
    };
    Value zero = index(rewriter, loc, 0), one = index(rewriter, loc, 1);
    Value numBoxes = index(rewriter, loc, scoresShape[2]);
    Value zeroI64 =
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI64Type(), 0);
    Value selected =
        createFilledTensorWith(rewriter, loc, selectedType, zeroI64);
    Type f32 = rewriter.getF32Type();
    Value falseValue =
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI1Type(), 0);
    auto fconst = [&](OpBuilder &b, Location l, double v) -> Value {
      return arith::ConstantFloatOp::create(b, l, cast<FloatType>(f32),
                                            APFloat(float(v)));
    };
    auto cmpf = [](OpBuilder &b, Location l, arith::CmpFPredicate p, Value x,
                   Value y) -> Value {
      return arith::CmpFOp::create(b, l, p, x, y);
    };
    auto cmpi = [](OpBuilder &b, Location l, arith::CmpIPredicate p, Value x,
                   Value y) -> Value {
      return arith::CmpIOp::create(b, l, p, x, y);
    };
    auto andi = [](OpBuilder &b, Location l, Value x, Value y) -> Value {
      return arith::AndIOp::create(b, l, x, y);
    };
    auto ori = [](OpBuilder &b, Location l, Value x, Value y) -> Value {
      return arith::OrIOp::create(b, l, x, y);
    };
    auto notb = [&](OpBuilder &b, Location l, Value x) -> Value {
      return arith::XOrIOp::create(
          b, l, x, arith::ConstantIntOp::create(b, l, b.getI1Type(), 1));
    };

    // ONNX Runtime's SuppressByIOU for boxes k and j of batch `bi`.
    auto suppresses = [&](OpBuilder &b, Location l, Value bi, Value k,
                          Value j) -> Value {
      auto coord = [&](Value box, int64_t i) -> Value {
        return tensor::ExtractOp::create(b, l, boxes,
                                         ValueRange{bi, box, index(b, l, i)});
      };
      // std::max/std::min as ONNX Runtime calls them: max(a, b) is
      // (a < b) ? b : a, min(a, b) is (b < a) ? b : a.
      auto stdMax = [&](Value x, Value y) -> Value {
        return arith::SelectOp::create(
            b, l, cmpf(b, l, arith::CmpFPredicate::OLT, x, y), y, x);
      };
      auto stdMin = [&](Value x, Value y) -> Value {
        return arith::SelectOp::create(
            b, l, cmpf(b, l, arith::CmpFPredicate::OLT, y, x), y, x);
      };
      // [min, max] of box `box` along x (axis 0) or y (axis 1).
      auto extent = [&](Value box, int axis) -> std::pair<Value, Value> {
        if (!centerPoint) {
          Value p = coord(box, axis == 0 ? 1 : 0),
                q = coord(box, axis == 0 ? 3 : 2);
          return {stdMin(p, q), stdMax(p, q)};
        }
        Value centre = coord(box, axis), size = coord(box, axis + 2);
        Value half = arith::DivFOp::create(b, l, size, fconst(b, l, 2.0));
        return {arith::SubFOp::create(b, l, centre, half),
                arith::AddFOp::create(b, l, centre, half)};
      };
      auto [kMinX, kMaxX] = extent(k, 0);
      auto [jMinX, jMaxX] = extent(j, 0);
      auto [kMinY, kMaxY] = extent(k, 1);
      auto [jMinY, jMaxY] = extent(j, 1);
      Value minX = stdMax(kMinX, jMinX), maxX = stdMin(kMaxX, jMaxX);
      Value minY = stdMax(kMinY, jMinY), maxY = stdMin(kMaxY, jMaxY);
      // Each `<= ... return false` of the reference is a condition that
      // must fail: written as `!(a <= b)` so that NaN behaves the same.
      Value overlapX =
          notb(b, l, cmpf(b, l, arith::CmpFPredicate::OLE, maxX, minX));
      Value overlapY =
          notb(b, l, cmpf(b, l, arith::CmpFPredicate::OLE, maxY, minY));
      Value intersection =
          arith::MulFOp::create(b, l, arith::SubFOp::create(b, l, maxX, minX),
                                arith::SubFOp::create(b, l, maxY, minY));
      Value areaK =
          arith::MulFOp::create(b, l, arith::SubFOp::create(b, l, kMaxX, kMinX),
                                arith::SubFOp::create(b, l, kMaxY, kMinY));
      Value areaJ =
          arith::MulFOp::create(b, l, arith::SubFOp::create(b, l, jMaxX, jMinX),
                                arith::SubFOp::create(b, l, jMaxY, jMinY));
      Value unionArea = arith::SubFOp::create(
          b, l, arith::AddFOp::create(b, l, areaK, areaJ), intersection);
      Value zeroF = fconst(b, l, 0.0);
      auto positive = [&](Value v) {
        return notb(b, l, cmpf(b, l, arith::CmpFPredicate::OLE, v, zeroF));
      };
      Value iou = arith::DivFOp::create(b, l, intersection, unionArea);
      Value above = cmpf(b, l, arith::CmpFPredicate::OGT, iou,
                         fconst(b, l, op.getIouThreshold().convertToFloat()));
      Value valid =
          andi(b, l, andi(b, l, overlapX, overlapY),
               andi(b, l, positive(intersection),
                    andi(b, l, positive(areaK),
                         andi(b, l, positive(areaJ), positive(unionArea)))));
      return andi(b, l, valid, above);
    };

    // One class: its candidates (scores that are numbers, above the
    // threshold) in index order, put in rank order by a stable merge sort on
    // decreasing score (equal scores stay in index order); then each, in
    // that order, appended unless a box selected for the class suppresses
    // it, until the class has max_output_boxes_per_class boxes.
    int64_t bound = scoresShape[2];
    auto orderType = RankedTensorType::get({bound}, rewriter.getI64Type());
    // The sort's passes merge runs of 1, 2, 4, ... elements, in pairs (into
    // the scratch and back), until one run holds them all.
    int64_t passes = 0;
    while (passes < 63 && (int64_t(1) << passes) < bound)
      ++passes;
    int64_t pairs = (passes + 1) / 2;
    auto toIndex = [](OpBuilder &b, Location l, Value v) -> Value {
      return arith::IndexCastOp::create(b, l, b.getIndexType(), v);
    };
    auto toI64 = [](OpBuilder &b, Location l, Value v) -> Value {
      return arith::IndexCastOp::create(b, l, b.getI64Type(), v);
    };
    auto select = [](OpBuilder &b, Location l, Value c, Value x, Value y) {
      return arith::SelectOp::create(b, l, c, x, y).getResult();
    };
    auto selectClass = [&](OpBuilder &b, Location l, Value bi, Value ci,
                           Value result,
                           Value count) -> std::pair<Value, Value> {
      Value classStart = count;
      auto score = [&](OpBuilder &b, Location l, Value j) -> Value {
        return tensor::ExtractOp::create(b, l, scores, ValueRange{bi, ci, j});
      };
      auto newOrder = [&](OpBuilder &b, Location l) -> Value {
        return tensor::EmptyOp::create(b, l, orderType.getShape(),
                                       orderType.getElementType());
      };
      auto gather = scf::ForOp::create(
          b, l, zero, numBoxes, one, ValueRange{newOrder(b, l), zero},
          [&](OpBuilder &b, Location l, Value j, ValueRange state) {
            Value s = score(b, l, j);
            Value candidate = cmpf(b, l, arith::CmpFPredicate::ORD, s, s);
            if (scoreThreshold)
              candidate = andi(b, l, candidate,
                               cmpf(b, l, arith::CmpFPredicate::OGT, s,
                                    fconst(b, l, *scoreThreshold)));
            auto add = scf::IfOp::create(
                b, l, candidate,
                [&](OpBuilder &b, Location l) {
                  Value order = tensor::InsertOp::create(
                      b, l, toI64(b, l, j), state[0], ValueRange{state[1]});
                  scf::YieldOp::create(
                      b, l,
                      ValueRange{order,
                                 arith::AddIOp::create(b, l, state[1], one)});
                },
                [&](OpBuilder &b, Location l) {
                  scf::YieldOp::create(b, l, state);
                });
            scf::YieldOp::create(b, l, add.getResults());
          });
      Value n = gather.getResult(1);

      // One pass: the runs of `width` candidates of `from`, in pairs,
      // merged into `into`; of equal scores the left run's come first.
      auto mergePass = [&](OpBuilder &b, Location l, Value from, Value into,
                           Value width) -> Value {
        Value twice = arith::AddIOp::create(b, l, width, width);
        auto runs = scf::ForOp::create(
            b, l, zero, n, twice, ValueRange{into},
            [&](OpBuilder &b, Location l, Value lo, ValueRange written) {
              Value mid = arith::MinUIOp::create(
                  b, l, arith::AddIOp::create(b, l, lo, width), n);
              Value hi = arith::MinUIOp::create(
                  b, l, arith::AddIOp::create(b, l, lo, twice), n);
              auto merge = scf::ForOp::create(
                  b, l, lo, hi, one, ValueRange{written[0], lo, mid},
                  [&](OpBuilder &b, Location l, Value k, ValueRange m) {
                    Value i = m[1], j = m[2];
                    Value leftLeft =
                        cmpi(b, l, arith::CmpIPredicate::ult, i, mid);
                    Value rightLeft =
                        cmpi(b, l, arith::CmpIPredicate::ult, j, hi);
                    // Read in bounds whatever is left (`lo` is).
                    Value left = tensor::ExtractOp::create(
                        b, l, from, ValueRange{select(b, l, leftLeft, i, lo)});
                    Value right = tensor::ExtractOp::create(
                        b, l, from, ValueRange{select(b, l, rightLeft, j, lo)});
                    Value better = cmpf(b, l, arith::CmpFPredicate::OGT,
                                        score(b, l, toIndex(b, l, right)),
                                        score(b, l, toIndex(b, l, left)));
                    Value takeRight =
                        andi(b, l, rightLeft,
                             ori(b, l, notb(b, l, leftLeft), better));
                    Value out = tensor::InsertOp::create(
                        b, l, select(b, l, takeRight, right, left), m[0],
                        ValueRange{k});
                    Value nextI = arith::AddIOp::create(b, l, i, one);
                    Value nextJ = arith::AddIOp::create(b, l, j, one);
                    scf::YieldOp::create(
                        b, l,
                        ValueRange{out, select(b, l, takeRight, i, nextI),
                                   select(b, l, takeRight, nextJ, j)});
                  });
              scf::YieldOp::create(b, l, merge.getResult(0));
            });
        return runs.getResult(0);
      };
      auto sort = scf::ForOp::create(
          b, l, zero, index(b, l, pairs), one,
          ValueRange{gather.getResult(0), newOrder(b, l)},
          [&](OpBuilder &b, Location l, Value p, ValueRange state) {
            Value width = arith::ShLIOp::create(
                b, l, one, arith::AddIOp::create(b, l, p, p));
            Value merged = mergePass(b, l, state[0], state[1], width);
            Value back = mergePass(b, l, merged, state[0],
                                   arith::AddIOp::create(b, l, width, width));
            scf::YieldOp::create(b, l, ValueRange{back, merged});
          });
      Value sorted = sort.getResult(0);

      auto steps = scf::ForOp::create(
          b, l, zero, n, one, ValueRange{result, count},
          [&](OpBuilder &b, Location l, Value t, ValueRange state) {
            Value full = cmpi(b, l, arith::CmpIPredicate::uge,
                              arith::SubIOp::create(b, l, state[1], classStart),
                              index(b, l, maxBoxes));
            auto append = scf::IfOp::create(
                b, l, notb(b, l, full),
                [&](OpBuilder &b, Location l) {
                  Value pick =
                      toIndex(b, l, tensor::ExtractOp::create(b, l, sorted, t));
                  auto check = scf::ForOp::create(
                      b, l, classStart, state[1], one, ValueRange{falseValue},
                      [&](OpBuilder &b, Location l, Value s, ValueRange acc) {
                        Value kept = toIndex(
                            b, l,
                            tensor::ExtractOp::create(
                                b, l, state[0], ValueRange{s, index(b, l, 2)}));
                        scf::YieldOp::create(
                            b, l,
                            ori(b, l, acc[0],
                                suppresses(b, l, bi, kept, pick)));
                      });
                  Value keep = notb(b, l, check.getResult(0));
                  auto write = scf::IfOp::create(
                      b, l, keep,
                      [&](OpBuilder &b, Location l) {
                        Value written = state[0];
                        SmallVector<Value, 3> row = {bi, ci, pick};
                        for (auto [column, v] : llvm::enumerate(row))
                          written = tensor::InsertOp::create(
                              b, l, toI64(b, l, v), written,
                              ValueRange{state[1], index(b, l, column)});
                        scf::YieldOp::create(
                            b, l,
                            ValueRange{written, arith::AddIOp::create(
                                                    b, l, state[1], one)});
                      },
                      [&](OpBuilder &b, Location l) {
                        scf::YieldOp::create(b, l, state);
                      });
                  scf::YieldOp::create(b, l, write.getResults());
                },
                [&](OpBuilder &b, Location l) {
                  scf::YieldOp::create(b, l, state);
                });
            scf::YieldOp::create(b, l, append.getResults());
          });
      return {steps.getResult(0), steps.getResult(1)};
    };

    Value count = zero;
    if (maxBoxes > 0) {
      auto batches = scf::ForOp::create(
          rewriter, loc, zero, index(rewriter, loc, scoresShape[0]), one,
          ValueRange{selected, zero},
          [&](OpBuilder &b, Location l, Value bi, ValueRange outer) {
            auto classes = scf::ForOp::create(
                b, l, zero, index(b, l, scoresShape[1]), one,
                ValueRange{outer[0], outer[1]},
                [&](OpBuilder &b, Location l, Value ci, ValueRange inner) {
                  auto [r, c] = selectClass(b, l, bi, ci, inner[0], inner[1]);
                  scf::YieldOp::create(b, l, ValueRange{r, c});
                });
            scf::YieldOp::create(b, l, classes.getResults());
          });
      selected = batches.getResult(0);
      count = batches.getResult(1);
    }
    replaceWithExtent(rewriter, op, {selected}, count);
    return success();
  }
};

/// Each input's valid slices (its count, clamped into [0, bound]) copied
/// one by one after those of the inputs before it; the rest stays zeros.
struct ConcatPrefixesToLoops : OpConversionPattern<ConcatPrefixesOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConcatPrefixesOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto outputType = dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op.getOutput().getType()));
    if (!outputType)
      return failure();
    int64_t axis = op.getAxis(), rank = outputType.getRank();
    Value zeroElement =
        createScalarConstant(rewriter, loc, outputType.getElementType(), 0);
    Value output =
        createFilledTensorWith(rewriter, loc, outputType, zeroElement);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value offset = zero;
    for (auto [input, count] :
         llvm::zip_equal(adaptor.getInputs(), adaptor.getCounts())) {
      ArrayRef<int64_t> shape =
          cast<RankedTensorType>(input.getType()).getShape();
      Value extent = tensor::ExtractOp::create(rewriter, loc, count);
      Value valid = arith::IndexCastOp::create(rewriter, loc,
                                               rewriter.getIndexType(), extent);
      valid = arith::MaxSIOp::create(rewriter, loc, valid, zero);
      valid = arith::MinSIOp::create(
          rewriter, loc, valid,
          arith::ConstantIndexOp::create(rewriter, loc, shape[axis]));
      SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
      for (int64_t d = 0; d < rank; ++d)
        sizes.push_back(rewriter.getIndexAttr(d == axis ? 1 : shape[d]));
      Value base = offset;
      auto loop = scf::ForOp::create(
          rewriter, loc, zero, valid, one, ValueRange{output},
          [&](OpBuilder &b, Location l, Value row, ValueRange args) {
            SmallVector<OpFoldResult> from(rank, b.getIndexAttr(0)),
                to(rank, b.getIndexAttr(0));
            from[axis] = row;
            to[axis] = arith::AddIOp::create(b, l, base, row).getResult();
            Value slice = tensor::ExtractSliceOp::create(b, l, input, from,
                                                         sizes, strides);
            Value written = tensor::InsertSliceOp::create(b, l, slice, args[0],
                                                          to, sizes, strides);
            scf::YieldOp::create(b, l, written);
          });
      output = loop.getResult(0);
      offset = arith::AddIOp::create(rewriter, loc, offset, valid);
    }
    replaceWithExtent(rewriter, op, {output}, offset);
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// graph.unique
//===----------------------------------------------------------------------===//

namespace {
/// graph.unique in three passes over the rows, as its fold computes it:
/// the first row equal to each row; the rank of each first occurrence
/// among the others (by order, or by lexicographic order with `sorted`);
/// then each row's distinct row, its count, and the first occurrences
/// copied to their places. O(N^2 M) comparisons.
struct UniqueToLoops : OpConversionPattern<UniqueOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(UniqueOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    auto xType = cast<RankedTensorType>(op.getX().getType());
    Type graphType = xType.getElementType();
    bool isUnsigned = isUnsignedGraphType(graphType);
    int64_t n = xType.getDimSize(0), m = xType.getDimSize(1);
    auto rowsType = cast<RankedTensorType>(op.getIndices().getType());
    Type i64 = rewriter.getI64Type(), i1 = rewriter.getI1Type();

    auto index = [&](OpBuilder &b, int64_t v) {
      return Value(arith::ConstantIndexOp::create(b, loc, v));
    };
    Value zero = index(rewriter, 0), one = index(rewriter, 1);
    Value rows = index(rewriter, n), columns = index(rewriter, m);
    auto boolean = [&](OpBuilder &b, bool v) {
      return Value(arith::ConstantIntOp::create(b, loc, i1, v));
    };
    auto loop =
        [&](OpBuilder &b, Value from, Value to, ValueRange state,
            function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)>
                body) {
          return buildCountedLoop(b, loc, from, to, state, body);
        };
    auto element = [&](OpBuilder &b, Value i, Value j) {
      return loadScalar(b, loc,
                        tensor::ExtractOp::create(b, loc, x, ValueRange{i, j}),
                        graphType);
    };
    auto compare = [&](OpBuilder &b, bool less, Value p, Value q) {
      if (isa<FloatType>(p.getType()))
        return Value(arith::CmpFOp::create(b, loc,
                                           less ? arith::CmpFPredicate::OLT
                                                : arith::CmpFPredicate::OEQ,
                                           p, q));
      arith::CmpIPredicate predicate =
          !less ? arith::CmpIPredicate::eq
                : (isUnsigned || p.getType().isInteger(1)
                       ? arith::CmpIPredicate::ult
                       : arith::CmpIPredicate::slt);
      return Value(arith::CmpIOp::create(b, loc, predicate, p, q));
    };
    // Whether rows a and b are equal, and whether a is before b.
    auto rowsEqual = [&](OpBuilder &b, Value ra, Value rb) {
      return loop(
          b, zero, columns, boolean(b, true),
          [&](OpBuilder &b, Value j, ValueRange s) {
            Value eq = compare(b, false, element(b, ra, j), element(b, rb, j));
            return SmallVector<Value>{arith::AndIOp::create(b, loc, s[0], eq)};
          })[0];
    };
    auto rowBefore = [&](OpBuilder &b, Value ra, Value rb) {
      // (decided, less): the first column where they differ decides.
      return loop(
          b, zero, columns, ValueRange{boolean(b, false), boolean(b, false)},
          [&](OpBuilder &b, Value j, ValueRange s) {
            Value p = element(b, ra, j), q = element(b, rb, j);
            Value lt = compare(b, true, p, q);
            Value gt = compare(b, true, q, p);
            Value less = arith::SelectOp::create(b, loc, s[0], s[1], lt);
            Value decided = arith::OrIOp::create(
                b, loc, s[0], arith::OrIOp::create(b, loc, lt, gt));
            return SmallVector<Value>{decided, less};
          })[1];
    };
    auto toI64 = [&](OpBuilder &b, Value v) {
      return Value(arith::IndexCastOp::create(b, loc, i64, v));
    };
    auto toIndex = [&](OpBuilder &b, Value v) {
      return Value(arith::IndexCastOp::create(b, loc, b.getIndexType(), v));
    };
    auto read = [&](OpBuilder &b, Value tensor, Value i) {
      return Value(tensor::ExtractOp::create(b, loc, tensor, i));
    };
    auto write = [&](OpBuilder &b, Value v, Value tensor, Value i) {
      return Value(tensor::InsertOp::create(b, loc, v, tensor, i));
    };

    Value zeroI64 = arith::ConstantIntOp::create(rewriter, loc, i64, 0);
    Value oneI64 = arith::ConstantIntOp::create(rewriter, loc, i64, 1);
    Value empty = createFilledTensorWith(rewriter, loc, rowsType, zeroI64);

    // The first row equal to each row.
    Value first = loop(
        rewriter, zero, rows, empty,
        [&](OpBuilder &b, Value i, ValueRange s) -> SmallVector<Value> {
          ValueRange found = loop(
              b, zero, i, ValueRange{boolean(b, false), i},
              [&](OpBuilder &b, Value j, ValueRange f) -> SmallVector<Value> {
                auto branch = scf::IfOp::create(
                    b, loc, f[0],
                    [&](OpBuilder &b, Location) {
                      scf::YieldOp::create(b, loc, f);
                    },
                    [&](OpBuilder &b, Location) {
                      Value eq = rowsEqual(b, j, i);
                      scf::YieldOp::create(
                          b, loc,
                          ValueRange{eq, arith::SelectOp::create(b, loc, eq, j,
                                                                 f[1])});
                    });
                return SmallVector<Value>(branch.getResults());
              });
          return {write(b, toI64(b, found[1]), s[0], i)};
        })[0];
    auto isFirst = [&](OpBuilder &b, Value i) {
      return Value(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         read(b, first, i), toI64(b, i)));
    };

    // The rank of each first occurrence, and how many there are.
    ValueRange ranked = loop(
        rewriter, zero, rows, ValueRange{empty, zeroI64},
        [&](OpBuilder &b, Value r, ValueRange s) -> SmallVector<Value> {
          auto branch = scf::IfOp::create(
              b, loc, isFirst(b, r),
              [&](OpBuilder &b, Location) {
                Value rank = loop(
                    b, zero, rows, zeroI64,
                    [&](OpBuilder &b, Value q, ValueRange c) {
                      Value before =
                          op.getSorted()
                              ? rowBefore(b, q, r)
                              : Value(arith::CmpIOp::create(
                                    b, loc, arith::CmpIPredicate::ult, q, r));
                      Value counts =
                          arith::AndIOp::create(b, loc, isFirst(b, q), before);
                      return SmallVector<Value>{arith::AddIOp::create(
                          b, loc, c[0],
                          arith::ExtUIOp::create(b, loc, i64, counts))};
                    })[0];
                scf::YieldOp::create(
                    b, loc,
                    ValueRange{write(b, rank, s[0], r),
                               arith::AddIOp::create(b, loc, s[1], oneI64)});
              },
              [&](OpBuilder &b, Location) { scf::YieldOp::create(b, loc, s); });
          return SmallVector<Value>(branch.getResults());
        });
    Value ranks = ranked[0];

    // Each row's distinct row and its count; the first occurrences copied.
    auto valuesType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getValues().getType()));
    Value zeroElement = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(valuesType.getElementType()));
    Value values =
        createFilledTensorWith(rewriter, loc, valuesType, zeroElement);
    ValueRange placed = loop(
        rewriter, zero, rows, ValueRange{values, empty, empty, empty},
        [&](OpBuilder &b, Value i, ValueRange s) -> SmallVector<Value> {
          Value k = read(b, ranks, toIndex(b, read(b, first, i)));
          Value kIndex = toIndex(b, k);
          Value inverse = write(b, k, s[2], i);
          Value counts = write(
              b, arith::AddIOp::create(b, loc, read(b, s[3], kIndex), oneI64),
              s[3], kIndex);
          auto branch = scf::IfOp::create(
              b, loc, isFirst(b, i),
              [&](OpBuilder &b, Location) {
                Value row =
                    loop(b, zero, columns, s[0],
                         [&](OpBuilder &b, Value j, ValueRange c) {
                           Value v = tensor::ExtractOp::create(
                               b, loc, x, ValueRange{i, j});
                           return SmallVector<Value>{tensor::InsertOp::create(
                               b, loc, v, c[0], ValueRange{kIndex, j})};
                         })[0];
                scf::YieldOp::create(
                    b, loc,
                    ValueRange{row, write(b, toI64(b, i), s[1], kIndex)});
              },
              [&](OpBuilder &b, Location) {
                scf::YieldOp::create(b, loc, ValueRange{s[0], s[1]});
              });
          return {branch.getResult(0), branch.getResult(1), inverse, counts};
        });
    Value count = tensor::FromElementsOp::create(
        rewriter, loc, RankedTensorType::get({}, i64), ranked[1]);
    rewriter.replaceOp(
        op, ValueRange{placed[0], placed[1], placed[2], placed[3], count});
    return success();
  }
};
} // namespace

void mlir::graph::populateRunTimeSizeToLoopsPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<NonZeroToLoops, NonMaxSuppressionToLoops, ConcatPrefixesToLoops,
               UniqueToLoops>(converter, patterns.getContext());
}
