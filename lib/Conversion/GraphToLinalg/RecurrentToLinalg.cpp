//===- RecurrentToLinalg.cpp - graph.rnn, graph.gru, graph.lstm -*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A recurrent layer becomes one loop over the time steps, not one copy of
// the step per time step: compile time does not grow with the sequence.
// The input's products with `w` do not depend on the state, so they are one
// matmul per direction over all the steps before the loop; each iteration
// then adds the state's products with `r` (a matmul per direction, by r
// transposed so that each state element meets a contiguous row of weights)
// and applies the gates in one elementwise op. Both weights are transposed
// at compile time when constant. Rows that ran out of steps
// (`sequence_lens`) keep their state and write zeros. The order of the sums
// is RecurrentOps.cpp's fold.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/Recurrent.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::graph;

namespace {

/// Builds the scalar ops of one recurrent op's lowering.
class RecurrentBuilder {
public:
  RecurrentBuilder(OpBuilder &b, Location loc, const RecurrentLayer &layer,
                   Type graphType)
      : b(b), loc(loc), layer(layer), graphType(graphType),
        type(getComputeElementType(graphType)) {}

  Value constant(OpBuilder &nb, double value) const {
    return createScalarConstant(nb, loc, type, value);
  }

  /// `a`'s function on `x`, RecurrentOps.cpp's applyActivation.
  Value activation(OpBuilder &nb, const Activation &a, Value x) const {
    return buildRecurrentActivation(nb, loc, type, a, x);
  }

  /// A gate's function on its input, clipped first when the op says so.
  Value gate(OpBuilder &nb, const Activation &a, Value x) const {
    if (layer.clip) {
      Value bound = constant(nb, *layer.clip);
      Value low = arith::NegFOp::create(nb, loc, bound);
      x = arith::MinimumFOp::create(
          nb, loc, arith::MaximumFOp::create(nb, loc, x, low), bound);
    }
    return activation(nb, a, x);
  }

  /// The activation `i` of direction `d` (an index), chosen at run time
  /// when the two directions differ.
  Value gateOfDirection(OpBuilder &nb, Value d, int64_t i, Value x) const {
    const Activation &forward = layer.getActivation(0, i);
    Value first = gate(nb, forward, x);
    if (layer.directions == 1)
      return first;
    const Activation &backward = layer.getActivation(1, i);
    if (backward.kind == forward.kind && backward.alpha == forward.alpha &&
        backward.beta == forward.beta)
      return first;
    Value second = gate(nb, backward, x);
    Value isSecond =
        arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::eq, d,
                              arith::ConstantIndexOp::create(nb, loc, 1));
    return arith::SelectOp::create(nb, loc, isSecond, second, first);
  }

  /// The number of steps of row `row` (an index).
  Value lengthOf(OpBuilder &nb, Value lens, Value row) const {
    if (!lens)
      return arith::ConstantIndexOp::create(nb, loc, layer.steps);
    Value length = tensor::ExtractOp::create(nb, loc, lens, ValueRange{row});
    return arith::IndexCastOp::create(nb, loc, nb.getIndexType(), length);
  }

  /// Whether step `s` of row `row` runs, and the position of its input
  /// (0 when it does not run): s, or length - 1 - s in reverse.
  std::pair<Value, Value> stepPosition(OpBuilder &nb, Value lens, Value d,
                                       Value row, Value s) const {
    Value length = lengthOf(nb, lens, row);
    Value active =
        arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::slt, s, length);
    Value position = s;
    if (layer.reverseOnly || layer.directions == 2) {
      Value one = arith::ConstantIndexOp::create(nb, loc, 1);
      Value reversed = arith::SubIOp::create(
          nb, loc, arith::SubIOp::create(nb, loc, length, one), s);
      Value reverse =
          layer.reverseOnly
              ? Value(arith::ConstantIntOp::create(nb, loc, nb.getI1Type(), 1))
              : Value(arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::eq,
                                            d, one));
      position = arith::SelectOp::create(nb, loc, reverse, reversed, s);
    }
    Value zero = arith::ConstantIndexOp::create(nb, loc, 0);
    return {active, arith::SelectOp::create(nb, loc, active, position, zero)};
  }

  RankedTensorType computeTensor(ArrayRef<int64_t> shape) const {
    return RankedTensorType::get(shape, type);
  }

  Value filled(ArrayRef<int64_t> shape, double value) const {
    return createFilledTensorWith(b, loc, computeTensor(shape),
                                  constant(b, value));
  }

  /// `value` (a storage tensor of the graph type) in the compute type.
  Value toCompute(Value value) const {
    auto storage = cast<RankedTensorType>(value.getType());
    if (storage.getElementType() == type)
      return value;
    return createMap(computeTensor(storage.getShape()), value,
                     [&](OpBuilder &nb, Value v) {
                       return loadScalar(nb, loc, v, graphType);
                     });
  }

  /// `value` (a compute tensor) in the storage type of `graphResultType`.
  Value toStorage(Value value, RankedTensorType graphResultType) const {
    RankedTensorType storage = getStorageTensorType(graphResultType);
    if (storage.getElementType() == type)
      return value;
    return createMap(storage, value, [&](OpBuilder &nb, Value v) {
      return storeScalar(nb, loc, v, graphType);
    });
  }

  /// An elementwise generic of one input of the result's shape.
  Value createMap(RankedTensorType resultType, Value input,
                  function_ref<Value(OpBuilder &, Value)> body) const {
    int64_t rank = resultType.getRank();
    AffineMap identity = b.getMultiDimIdentityMap(rank);
    return linalg::GenericOp::create(
               b, loc, TypeRange{resultType}, ValueRange{input},
               ValueRange{createEmptyTensor(b, loc, resultType)},
               ArrayRef<AffineMap>{identity, identity},
               SmallVector<utils::IteratorType>(rank,
                                                utils::IteratorType::parallel),
               [&](OpBuilder &nb, Location, ValueRange args) {
                 linalg::YieldOp::create(nb, loc, body(nb, args[0]));
               })
        .getResult(0);
  }

  /// `init[d, row, n] + sum_k state[d, row, k] * rT[d, k, first + n]`, k
  /// in order: the state's products with r (transposed: [D, H, G x H]), for
  /// gates `first` to `first + count`, one matmul per direction (rows x H
  /// by H x count, the register tiles of graph-vectorize: at batch 1 a
  /// matrix-vector product that streams each row of rT in vectors).
  Value addStateProducts(OpBuilder &nb, Value init, Value state, Value rT,
                         int64_t first, int64_t count) const {
    int64_t B = layer.batch, H = layer.hidden;
    Value result = init;
    for (int64_t d = 0; d < layer.directions; ++d) {
      Value h = slice(nb, state, {d, 0, 0}, {B, H});
      Value r = slice(nb, rT, {d, 0, first}, {H, count});
      Value acc = slice(nb, result, {d, 0, 0}, {B, count});
      Value product =
          linalg::MatmulOp::create(nb, loc, TypeRange{acc.getType()},
                                   ValueRange{h, r}, ValueRange{acc})
              .getResult(0);
      result = insert(nb, product, result, {d, 0, 0});
    }
    return result;
  }

  /// The 2-D slice of the 3-D `value` at `offsets` of `sizes` (its first
  /// dimension dropped).
  Value slice(OpBuilder &nb, Value value, ArrayRef<int64_t> offsets,
              ArrayRef<int64_t> sizes) const {
    auto type = cast<RankedTensorType>(value.getType());
    SmallVector<int64_t> full = {1};
    full.append(sizes.begin(), sizes.end());
    return tensor::ExtractSliceOp::create(
        nb, loc, RankedTensorType::get(sizes, type.getElementType()), value,
        getAsIndexOpFoldResult(nb.getContext(), offsets),
        getAsIndexOpFoldResult(nb.getContext(), full),
        getAsIndexOpFoldResult(nb.getContext(), SmallVector<int64_t>(3, 1)));
  }

  /// `part` (2-D) into the 3-D `into` at `offsets`.
  Value insert(OpBuilder &nb, Value part, Value into,
               ArrayRef<int64_t> offsets) const {
    auto type = cast<RankedTensorType>(part.getType());
    SmallVector<int64_t> full = {1};
    full.append(type.getShape().begin(), type.getShape().end());
    return tensor::InsertSliceOp::create(
        nb, loc, part, into, getAsIndexOpFoldResult(nb.getContext(), offsets),
        getAsIndexOpFoldResult(nb.getContext(), full),
        getAsIndexOpFoldResult(nb.getContext(), SmallVector<int64_t>(3, 1)));
  }

  /// Rows `first` to `first + count` of the last dimension of `value`.
  Value lastSlice(OpBuilder &nb, Value value, int64_t first,
                  int64_t count) const {
    auto valueType = cast<RankedTensorType>(value.getType());
    SmallVector<int64_t> offsets(valueType.getRank(), 0),
        sizes(valueType.getShape());
    offsets.back() = first;
    sizes.back() = count;
    return tensor::ExtractSliceOp::create(
        nb, loc, RankedTensorType::get(sizes, valueType.getElementType()),
        value, ValueRange{}, ValueRange{}, ValueRange{},
        nb.getDenseI64ArrayAttr(offsets), nb.getDenseI64ArrayAttr(sizes),
        nb.getDenseI64ArrayAttr(SmallVector<int64_t>(sizes.size(), 1)));
  }

private:
  OpBuilder &b;
  Location loc;
  const RecurrentLayer &layer;
  Type graphType;

public:
  Type type; // the compute element type
};

template <typename OpTy> struct RecurrentToLoops : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RecurrentLayer> maybeLayer = getRecurrentLayer(op);
    if (failed(maybeLayer))
      return failure();
    const RecurrentLayer &layer = *maybeLayer;
    Location loc = op.getLoc();
    Type graphType = getElementTypeOf(op.getX());
    RecurrentBuilder rb(rewriter, loc, layer, graphType);
    const int64_t S = layer.steps, B = layer.batch, H = layer.hidden,
                  G = layer.gates, D = layer.directions;
    const bool gru = layer.cell == RecurrentLayer::GRU;
    const bool lstm = layer.cell == RecurrentLayer::LSTM;
    MLIRContext *context = rewriter.getContext();
    Value lens = adaptor.getSequenceLens();
    // r transposed, [D, H, G x H]: each state element's products with
    // every gate contiguous (at compile time when r is a constant).
    Value r =
        rb.toCompute(createTranspose(rewriter, loc, adaptor.getR(), {0, 2, 1}));

    // The biases that start each gate's input, [D, G x H]: b_w + b_r, b_w
    // alone for linear_before_reset's h gate.
    Value start;
    if (Value bias = adaptor.getB()) {
      auto biasType = cast<RankedTensorType>(bias.getType());
      Value pairs = tensor::ExpandShapeOp::create(
          rewriter, loc,
          RankedTensorType::get({D, 2, G * H}, biasType.getElementType()), bias,
          SmallVector<ReassociationIndices>{{0}, {1, 2}});
      AffineExpr d, n;
      bindDims(context, d, n);
      auto zero = getAffineConstantExpr(0, context),
           one = getAffineConstantExpr(1, context);
      start =
          linalg::GenericOp::create(
              rewriter, loc, TypeRange{rb.computeTensor({D, G * H})},
              ValueRange{pairs, pairs},
              ValueRange{createEmptyTensor(rewriter, loc,
                                           rb.computeTensor({D, G * H}))},
              ArrayRef<AffineMap>{AffineMap::get(2, 0, {d, zero, n}, context),
                                  AffineMap::get(2, 0, {d, one, n}, context),
                                  rewriter.getMultiDimIdentityMap(2)},
              ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                            utils::IteratorType::parallel},
              [&](OpBuilder &nb, Location, ValueRange args) {
                Value bw = loadScalar(nb, loc, args[0], graphType);
                Value br = loadScalar(nb, loc, args[1], graphType);
                Value sum = arith::AddFOp::create(nb, loc, bw, br);
                if (gru && layer.linearBeforeReset) {
                  Value gateRow = linalg::IndexOp::create(nb, loc, 1);
                  Value hGate = arith::CmpIOp::create(
                      nb, loc, arith::CmpIPredicate::sge, gateRow,
                      arith::ConstantIndexOp::create(nb, loc, 2 * H));
                  sum = arith::SelectOp::create(nb, loc, hGate, bw, sum);
                }
                linalg::YieldOp::create(nb, loc, sum);
              })
              .getResult(0);
    } else {
      start = rb.filled({D, G * H}, 0.0);
    }

    // The input's products with w for every step, [D, S x B, G x H]: per
    // direction one matmul of the steps' rows (S x B by I) by wᵀ (I by
    // G x H, transposed at compile time when constant), from the biases.
    Value x = rb.toCompute(adaptor.getX());
    x = tensor::CollapseShapeOp::create(
        rewriter, loc, rb.computeTensor({S * B, layer.inputSize}), x,
        SmallVector<ReassociationIndices>{{0, 1}, {2}});
    Value wT =
        rb.toCompute(createTranspose(rewriter, loc, adaptor.getW(), {0, 2, 1}));
    Value projection =
        createEmptyTensor(rewriter, loc, rb.computeTensor({D, S * B, G * H}));
    for (int64_t d = 0; d < D; ++d) {
      RankedTensorType type = rb.computeTensor({S * B, G * H});
      AffineExpr m, n;
      bindDims(context, m, n);
      Value startOfDirection = tensor::ExtractSliceOp::create(
          rewriter, loc, rb.computeTensor({G * H}), start,
          getAsIndexOpFoldResult(context, {d, 0}),
          getAsIndexOpFoldResult(context, {1, G * H}),
          getAsIndexOpFoldResult(context, {1, 1}));
      Value init =
          linalg::GenericOp::create(
              rewriter, loc, TypeRange{type}, ValueRange{startOfDirection},
              ValueRange{createEmptyTensor(rewriter, loc, type)},
              ArrayRef<AffineMap>{AffineMap::get(2, 0, {n}, context),
                                  rewriter.getMultiDimIdentityMap(2)},
              SmallVector<utils::IteratorType>(2,
                                               utils::IteratorType::parallel),
              [&](OpBuilder &nb, Location, ValueRange args) {
                linalg::YieldOp::create(nb, loc, args[0]);
              })
              .getResult(0);
      Value product = linalg::MatmulOp::create(
                          rewriter, loc, TypeRange{type},
                          ValueRange{x, rb.slice(rewriter, wT, {d, 0, 0},
                                                 {layer.inputSize, G * H})},
                          ValueRange{init})
                          .getResult(0);
      projection = rb.insert(rewriter, product, projection, {d, 0, 0});
    }

    // linear_before_reset's b_r of the h gate, [D, B, H]: where h·r_hᵀ
    // starts.
    Value recurrentStart;
    if (gru && layer.linearBeforeReset) {
      RankedTensorType type = rb.computeTensor({D, B, H});
      if (Value bias = adaptor.getB()) {
        AffineExpr d, row, j;
        bindDims(context, d, row, j);
        recurrentStart =
            linalg::GenericOp::create(
                rewriter, loc, TypeRange{type}, ValueRange{bias},
                ValueRange{createEmptyTensor(rewriter, loc, type)},
                ArrayRef<AffineMap>{
                    AffineMap::get(3, 0, {d, j + G * H + 2 * H}, context),
                    rewriter.getMultiDimIdentityMap(3)},
                SmallVector<utils::IteratorType>(3,
                                                 utils::IteratorType::parallel),
                [&](OpBuilder &nb, Location, ValueRange args) {
                  linalg::YieldOp::create(
                      nb, loc, loadScalar(nb, loc, args[0], graphType));
                })
                .getResult(0);
      } else {
        recurrentStart = rb.filled({D, B, H}, 0.0);
      }
    }

    Value h = adaptor.getInitialH() ? rb.toCompute(adaptor.getInitialH())
                                    : rb.filled({D, B, H}, 0.0);
    Value c;
    Value peepholes;
    if constexpr (std::is_same_v<OpTy, LSTMOp>) {
      c = adaptor.getInitialC() ? rb.toCompute(adaptor.getInitialC())
                                : rb.filled({D, B, H}, 0.0);
      if (adaptor.getPeepholes())
        peepholes = rb.toCompute(adaptor.getPeepholes());
    }
    // The state after each step, at the step's index: [S, D, B, H].
    Value states =
        createEmptyTensor(rewriter, loc, rb.computeTensor({S, D, B, H}));

    Value lower = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value upper = arith::ConstantIndexOp::create(rewriter, loc, S);
    Value stepOne = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<Value> carried = {h, states};
    if (lstm)
      carried.push_back(c);
    RankedTensorType stateType = rb.computeTensor({D, B, H});
    AffineMap stateMap = rewriter.getMultiDimIdentityMap(3);
    SmallVector<utils::IteratorType> parallel3(3,
                                               utils::IteratorType::parallel);
    auto loop = scf::ForOp::create(
        rewriter, loc, lower, upper, stepOne, carried,
        [&](OpBuilder &nb, Location, Value s, ValueRange iter) {
          Value h = iter[0], states = iter[1];
          // This step's input products, [D, B, G x H].
          RankedTensorType stepType = rb.computeTensor({D, B, G * H});
          Value stepInput =
              linalg::GenericOp::create(
                  nb, loc, TypeRange{stepType}, ValueRange{},
                  ValueRange{createEmptyTensor(nb, loc, stepType)},
                  ArrayRef<AffineMap>{nb.getMultiDimIdentityMap(3)}, parallel3,
                  [&](OpBuilder &bb, Location, ValueRange) {
                    Value d = linalg::IndexOp::create(bb, loc, 0);
                    Value row = linalg::IndexOp::create(bb, loc, 1);
                    Value n = linalg::IndexOp::create(bb, loc, 2);
                    Value position =
                        rb.stepPosition(bb, lens, d, row, s).second;
                    linalg::YieldOp::create(
                        bb, loc,
                        ValueRange{tensor::ExtractOp::create(
                            bb, loc, projection,
                            ValueRange{d,
                                       arith::AddIOp::create(
                                           bb, loc,
                                           arith::MulIOp::create(
                                               bb, loc, position,
                                               arith::ConstantIndexOp::create(
                                                   bb, loc, B)),
                                           row),
                                       n})});
                  })
                  .getResult(0);

          // The gates' inputs with the state's products, viewed as
          // [D, B, n, H], and the map that reads gate g of output
          // (d, row, j) from them.
          auto splitGates = [&](Value value) -> Value {
            auto type = cast<RankedTensorType>(value.getType());
            int64_t count = type.getDimSize(type.getRank() - 1) / H;
            SmallVector<int64_t> shape(type.getShape().drop_back());
            shape.append({count, H});
            SmallVector<ReassociationIndices> groups;
            for (int64_t i = 0; i + 1 < type.getRank(); ++i)
              groups.push_back({i});
            groups.push_back({type.getRank() - 1, type.getRank()});
            return tensor::ExpandShapeOp::create(
                nb, loc, RankedTensorType::get(shape, type.getElementType()),
                value, groups);
          };
          auto gateMap = [&](int64_t g) {
            AffineExpr d, row, j;
            bindDims(context, d, row, j);
            return AffineMap::get(
                3, 0, {d, row, getAffineConstantExpr(g, context), j}, context);
          };
          SmallVector<Value> inputs;
          SmallVector<AffineMap> maps;
          // Gate inputs (by gate), then peepholes; the old states are the
          // step's outs (it updates them in place).
          std::function<Value(OpBuilder &, ValueRange, Value, Value)> update;
          if (layer.cell == RecurrentLayer::RNN) {
            Value pre = rb.addStateProducts(nb, stepInput, h, r, 0, H);
            inputs = {pre};
            maps = {stateMap};
            update = [&](OpBuilder &bb, ValueRange args, Value d, Value) {
              return rb.gateOfDirection(bb, d, 0, args[0]);
            };
          } else if (gru) {
            Value zr = splitGates(rb.addStateProducts(
                nb, rb.lastSlice(nb, stepInput, 0, 2 * H), h, r, 0, 2 * H));
            Value candidateInput = rb.lastSlice(nb, stepInput, 2 * H, H);
            if (layer.linearBeforeReset) {
              Value recurrent =
                  rb.addStateProducts(nb, recurrentStart, h, r, 2 * H, H);
              inputs = {zr, zr, candidateInput, recurrent};
              maps = {gateMap(0), gateMap(1), stateMap, stateMap};
              update = [&](OpBuilder &bb, ValueRange args, Value d,
                           Value state) {
                Value reset = rb.gateOfDirection(bb, d, 0, args[1]);
                Value candidate = rb.gateOfDirection(
                    bb, d, 1,
                    arith::AddFOp::create(
                        bb, loc, args[2],
                        arith::MulFOp::create(bb, loc, reset, args[3])));
                return blend(bb, rb.gateOfDirection(bb, d, 0, args[0]),
                             candidate, state);
              };
            } else {
              // r ⊙ h, then its products with r_h.
              Value resetState =
                  linalg::GenericOp::create(
                      nb, loc, TypeRange{stateType}, ValueRange{zr, h},
                      ValueRange{createEmptyTensor(nb, loc, stateType)},
                      ArrayRef<AffineMap>{gateMap(1), stateMap, stateMap},
                      parallel3,
                      [&](OpBuilder &bb, Location, ValueRange args) {
                        Value d = linalg::IndexOp::create(bb, loc, 0);
                        Value reset = rb.gateOfDirection(bb, d, 0, args[0]);
                        linalg::YieldOp::create(
                            bb, loc,
                            ValueRange{arith::MulFOp::create(bb, loc, reset,
                                                             args[1])});
                      })
                      .getResult(0);
              Value candidate = rb.addStateProducts(nb, candidateInput,
                                                    resetState, r, 2 * H, H);
              inputs = {zr, candidate};
              maps = {gateMap(0), stateMap};
              update = [&](OpBuilder &bb, ValueRange args, Value d,
                           Value state) {
                return blend(bb, rb.gateOfDirection(bb, d, 0, args[0]),
                             rb.gateOfDirection(bb, d, 1, args[1]), state);
              };
            }
          } else {
            Value pre =
                splitGates(rb.addStateProducts(nb, stepInput, h, r, 0, G * H));
            // i, o, f, c, then p_i, p_o, p_f.
            inputs = {pre, pre, pre, pre};
            maps = {gateMap(0), gateMap(1), gateMap(2), gateMap(3)};
            if (peepholes) {
              AffineExpr d, row, j;
              bindDims(context, d, row, j);
              Value split = splitGates(peepholes);
              for (int64_t g = 0; g < 3; ++g) {
                inputs.push_back(split);
                maps.push_back(AffineMap::get(
                    3, 0, {d, getAffineConstantExpr(g, context), j}, context));
              }
            }
          }

          // The new state and what this step writes: the state where the
          // row runs, the old state and zeros where it ran out.
          // The states are updated in place: each element is read before it
          // is written, by this op alone.
          SmallVector<Type> resultTypes(lstm ? 3 : 2, stateType);
          SmallVector<Value> outs = {h, createEmptyTensor(nb, loc, stateType)};
          if (lstm)
            outs.push_back(iter[2]);
          SmallVector<AffineMap> allMaps(maps);
          allMaps.append(resultTypes.size(), stateMap);
          auto step = linalg::GenericOp::create(
              nb, loc, resultTypes, inputs, outs, allMaps, parallel3,
              [&](OpBuilder &bb, Location, ValueRange args) {
                Value d = linalg::IndexOp::create(bb, loc, 0);
                Value row = linalg::IndexOp::create(bb, loc, 1);
                Value active = rb.stepPosition(bb, lens, d, row, s).first;
                Value zero = rb.constant(bb, 0.0);
                Value oldState = args[inputs.size()], next, nextCell, oldCell;
                if (lstm) {
                  oldCell = args[inputs.size() + 2];
                  Value pi, po, pf;
                  if (peepholes) {
                    pi = args[4];
                    po = args[5];
                    pf = args[6];
                  }
                  auto withPeephole = [&](Value pre, Value p, Value cell) {
                    return p ? Value(arith::AddFOp::create(
                                   bb, loc, pre,
                                   arith::MulFOp::create(bb, loc, p, cell)))
                             : pre;
                  };
                  Value i = rb.gateOfDirection(
                      bb, d, 0, withPeephole(args[0], pi, oldCell));
                  Value one = rb.constant(bb, 1.0);
                  Value forget =
                      layer.inputForget
                          ? Value(arith::SubFOp::create(bb, loc, one, i))
                          : rb.gateOfDirection(
                                bb, d, 0, withPeephole(args[2], pf, oldCell));
                  Value candidate = rb.gateOfDirection(bb, d, 1, args[3]);
                  nextCell = arith::AddFOp::create(
                      bb, loc, arith::MulFOp::create(bb, loc, forget, oldCell),
                      arith::MulFOp::create(bb, loc, i, candidate));
                  Value o = rb.gateOfDirection(
                      bb, d, 0, withPeephole(args[1], po, nextCell));
                  next = arith::MulFOp::create(
                      bb, loc, o, rb.gateOfDirection(bb, d, 2, nextCell));
                } else {
                  next = update(bb, args, d, oldState);
                }
                SmallVector<Value> results = {
                    arith::SelectOp::create(bb, loc, active, next, oldState),
                    arith::SelectOp::create(bb, loc, active, next, zero)};
                if (lstm)
                  results.push_back(arith::SelectOp::create(bb, loc, active,
                                                            nextCell, oldCell));
                linalg::YieldOp::create(bb, loc, results);
              });
          Value written = step.getResult(1);
          Value nextStates = tensor::InsertSliceOp::create(
              nb, loc, written, states, ValueRange{s}, ValueRange{},
              ValueRange{},
              nb.getDenseI64ArrayAttr({ShapedType::kDynamic, 0, 0, 0}),
              nb.getDenseI64ArrayAttr({1, D, B, H}),
              nb.getDenseI64ArrayAttr({1, 1, 1, 1}));
          SmallVector<Value> yielded = {step.getResult(0), nextStates};
          if (lstm)
            yielded.push_back(step.getResult(2));
          scf::YieldOp::create(nb, loc, yielded);
        });

    // y: each step's state at its input's position, zeros past a row's end.
    auto yType = cast<RankedTensorType>(op.getY().getType());
    Value statesOut = loop.getResult(1);
    Value y = createGather(
        rewriter, loc, rb.computeTensor({S, D, B, H}), statesOut,
        [&](OpBuilder &nb, Location, ArrayRef<Value> out) {
          // The step that read position t is the step at t's position.
          Value position =
              rb.stepPosition(nb, lens, out[1], out[2], out[0]).second;
          return SmallVector<Value>{position, out[1], out[2], out[3]};
        });
    // Past a row's end: zero.
    if (lens) {
      AffineMap identity = rewriter.getMultiDimIdentityMap(4);
      RankedTensorType type = rb.computeTensor({S, D, B, H});
      y = linalg::GenericOp::create(
              rewriter, loc, TypeRange{type}, ValueRange{y},
              ValueRange{createEmptyTensor(rewriter, loc, type)},
              ArrayRef<AffineMap>{identity, identity},
              SmallVector<utils::IteratorType>(4,
                                               utils::IteratorType::parallel),
              [&](OpBuilder &nb, Location, ValueRange args) {
                Value t = linalg::IndexOp::create(nb, loc, 0);
                Value row = linalg::IndexOp::create(nb, loc, 2);
                Value active =
                    arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::slt, t,
                                          rb.lengthOf(nb, lens, row));
                linalg::YieldOp::create(
                    nb, loc,
                    ValueRange{arith::SelectOp::create(nb, loc, active, args[0],
                                                       rb.constant(nb, 0.0))});
              })
              .getResult(0);
    }
    SmallVector<Value> results = {
        rb.toStorage(y, yType),
        rb.toStorage(loop.getResult(0),
                     cast<RankedTensorType>(op.getYH().getType()))};
    if constexpr (std::is_same_v<OpTy, LSTMOp>)
      results.push_back(rb.toStorage(
          loop.getResult(2), cast<RankedTensorType>(op.getYC().getType())));
    rewriter.replaceOp(op, results);
    return success();
  }

  /// GRU's new state: (1 - z) ⊙ ĥ + z ⊙ h.
  static Value blend(OpBuilder &b, Value z, Value candidate, Value state) {
    Location loc = b.getUnknownLoc();
    Value one =
        arith::ConstantOp::create(b, loc, b.getFloatAttr(z.getType(), 1.0));
    return arith::AddFOp::create(
        b, loc,
        arith::MulFOp::create(b, loc, arith::SubFOp::create(b, loc, one, z),
                              candidate),
        arith::MulFOp::create(b, loc, z, state));
  }
};

} // namespace

void mlir::graph::populateRecurrentToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<RecurrentToLoops<RNNOp>, RecurrentToLoops<GRUOp>,
               RecurrentToLoops<LSTMOp>>(converter, patterns.getContext());
}
