//===- RecurrentOps.cpp - graph.rnn, graph.gru, graph.lstm ------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The verifiers and fold hooks of the recurrent ops, on one reading of their
// shapes and options (RecurrentLayer) and one evaluation of a layer.
//
//===----------------------------------------------------------------------===//

#include "VerifyUtils.h"
#include "graph/Dialect/Graph/IR/FoldLimits.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/Recurrent.h"
#include "graph/Dialect/Graph/IR/TypedTensor.h"
#include "llvm/ADT/StringSwitch.h"

#include <vector>

using namespace mlir;
using namespace mlir::graph;

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

static constexpr std::pair<ActivationKind, llvm::StringLiteral>
    kActivationNames[] = {
        {ActivationKind::Sigmoid, "sigmoid"},
        {ActivationKind::Tanh, "tanh"},
        {ActivationKind::Relu, "relu"},
        {ActivationKind::Affine, "affine"},
        {ActivationKind::LeakyRelu, "leaky_relu"},
        {ActivationKind::ThresholdedRelu, "thresholded_relu"},
        {ActivationKind::ScaledTanh, "scaled_tanh"},
        {ActivationKind::HardSigmoid, "hard_sigmoid"},
        {ActivationKind::Elu, "elu"},
        {ActivationKind::Softsign, "softsign"},
        {ActivationKind::Softplus, "softplus"},
};

std::optional<ActivationKind> mlir::graph::parseActivationKind(StringRef name) {
  for (auto [kind, spelling] : kActivationNames)
    if (spelling == name)
      return kind;
  return std::nullopt;
}

StringRef mlir::graph::getActivationName(ActivationKind kind) {
  for (auto [known, spelling] : kActivationNames)
    if (known == kind)
      return spelling;
  return "";
}

bool mlir::graph::usesAlpha(ActivationKind kind) {
  switch (kind) {
  case ActivationKind::Affine:
  case ActivationKind::LeakyRelu:
  case ActivationKind::ThresholdedRelu:
  case ActivationKind::ScaledTanh:
  case ActivationKind::HardSigmoid:
  case ActivationKind::Elu:
    return true;
  default:
    return false;
  }
}

bool mlir::graph::usesBeta(ActivationKind kind) {
  return kind == ActivationKind::Affine || kind == ActivationKind::ScaledTanh ||
         kind == ActivationKind::HardSigmoid;
}

Activation mlir::graph::getDefaultActivation(ActivationKind kind) {
  switch (kind) {
  case ActivationKind::Affine:
  case ActivationKind::ScaledTanh:
    return {kind, 1.0f, 0.0f};
  case ActivationKind::LeakyRelu:
    return {kind, 0.01f, 0.0f};
  case ActivationKind::ThresholdedRelu:
  case ActivationKind::Elu:
    return {kind, 1.0f, 0.0f};
  case ActivationKind::HardSigmoid:
    return {kind, 0.2f, 0.5f};
  default:
    return {kind, 0.0f, 0.0f};
  }
}

//===----------------------------------------------------------------------===//
// Shapes and options
//===----------------------------------------------------------------------===//

namespace {
/// The operands of a recurrent op by role; absent optional ones null.
struct RecurrentOperands {
  Value x, w, r, b, sequenceLens, initialH, initialC, peepholes;
};
} // namespace

template <typename OpTy> static RecurrentOperands getOperandsOf(OpTy op) {
  RecurrentOperands operands{
      op.getX(),        op.getW(), op.getR(), op.getB(), op.getSequenceLens(),
      op.getInitialH(), {},        {}};
  if constexpr (std::is_same_v<OpTy, LSTMOp>) {
    operands.initialC = op.getInitialC();
    operands.peepholes = op.getPeepholes();
  }
  return operands;
}

template <typename OpTy>
static FailureOr<RecurrentLayer> readLayer(OpTy op, RecurrentLayer::Cell cell,
                                           int64_t gates,
                                           ArrayRef<ActivationKind> defaults) {
  RecurrentOperands in = getOperandsOf(op);
  RecurrentLayer layer;
  layer.cell = cell;
  layer.gates = gates;
  layer.reverseOnly = op.getDirection() == Direction::reverse;
  layer.directions = op.getDirection() == Direction::bidirectional ? 2 : 1;
  int64_t dirs = layer.directions;

  auto checkFloat = [&](Value value, StringRef name) {
    return value ? checkTensorOf(op, value, "operand '" + name + "'",
                                 TypeClass::Float)
                 : success();
  };
  for (auto [value, name] : {std::pair{in.x, "x"},
                             {in.w, "w"},
                             {in.r, "r"},
                             {in.b, "b"},
                             {in.initialH, "initial_h"},
                             {in.initialC, "initial_c"},
                             {in.peepholes, "peepholes"}})
    if (failed(checkFloat(value, name)) ||
        (value &&
         failed(checkSameElementType(op, in.x, "operand 'x'", value,
                                     "operand '" + Twine(name) + "'"))))
      return failure();
  for (auto [index, result] : llvm::enumerate(op->getResults()))
    if (failed(checkTensorOf(op, result, "result " + Twine(index),
                             TypeClass::Float)) ||
        failed(checkSameElementType(op, in.x, "operand 'x'", result,
                                    "result " + Twine(index))))
      return failure();
  if (in.sequenceLens &&
      failed(checkTensorOf(op, in.sequenceLens, "operand 'sequence_lens'",
                           TypeClass::Index)))
    return failure();

  ArrayRef<int64_t> x = getDims(in.x), r = getDims(in.r);
  if (x.size() != 3)
    return op.emitOpError() << "operand 'x' must be [steps, batch, input], "
                               "but has shape "
                            << formatDims(x);
  if (r.size() != 3 || r[0] != dirs || r[1] != gates * r[2] || r[2] < 1)
    return op.emitOpError()
           << "operand 'r' must be [" << dirs << ", " << gates
           << " x hidden, hidden] for " << stringifyDirection(op.getDirection())
           << ", but has shape " << formatDims(r);
  layer.steps = x[0];
  layer.batch = x[1];
  layer.inputSize = x[2];
  layer.hidden = r[2];
  int64_t hidden = layer.hidden, batch = layer.batch;
  auto expect = [&](Value value, StringRef name,
                    ArrayRef<int64_t> shape) -> LogicalResult {
    if (!value || getDims(value) == shape)
      return success();
    return op.emitOpError()
           << "operand '" << name << "' must have shape " << formatDims(shape)
           << ", but has shape " << formatDims(getDims(value));
  };
  if (failed(expect(in.w, "w", {dirs, gates * hidden, layer.inputSize})) ||
      failed(expect(in.b, "b", {dirs, 2 * gates * hidden})) ||
      failed(expect(in.sequenceLens, "sequence_lens", {batch})) ||
      failed(expect(in.initialH, "initial_h", {dirs, batch, hidden})) ||
      failed(expect(in.initialC, "initial_c", {dirs, batch, hidden})) ||
      failed(expect(in.peepholes, "peepholes", {dirs, 3 * hidden})))
    return failure();
  SmallVector<int64_t> y = {layer.steps, dirs, batch, hidden};
  SmallVector<int64_t> state = {dirs, batch, hidden};
  for (auto [index, result] : llvm::enumerate(op->getResults())) {
    ArrayRef<int64_t> want = index == 0 ? ArrayRef<int64_t>(y) : state;
    if (getDims(result) != want)
      return op.emitOpError()
             << "result " << index << " must have shape " << formatDims(want)
             << ", but has shape " << formatDims(getDims(result));
  }

  layer.functionsPerDirection = defaults.size();
  if (std::optional<ArrayAttr> names = op.getActivations()) {
    if (int64_t(names->size()) != dirs * int64_t(defaults.size()))
      return op.emitOpError()
             << "attribute 'activations' must name " << defaults.size()
             << " functions per direction (" << dirs * defaults.size()
             << "), but names " << names->size();
    for (Attribute name : *names) {
      StringRef spelling = cast<StringAttr>(name).getValue();
      std::optional<ActivationKind> kind = parseActivationKind(spelling);
      if (!kind)
        return op.emitOpError() << "unknown activation '" << spelling << "'";
      layer.activations.push_back(getDefaultActivation(*kind));
    }
  } else {
    for (int64_t d = 0; d < dirs; ++d)
      for (ActivationKind kind : defaults)
        layer.activations.push_back(getDefaultActivation(kind));
  }
  for (auto [name, values, useAlpha] :
       {std::tuple{"activation_alpha", op.getActivationAlpha(), true},
        {"activation_beta", op.getActivationBeta(), false}}) {
    if (!values)
      continue;
    if (values->size() != layer.activations.size())
      return op.emitOpError()
             << "attribute '" << name
             << "' must hold one value per activation ("
             << layer.activations.size() << "), but holds " << values->size();
    for (auto [activation, value] : llvm::zip(layer.activations, *values))
      (useAlpha ? activation.alpha : activation.beta) = value;
  }
  if (std::optional<APFloat> clip = op.getClip()) {
    float value = clip->convertToFloat();
    if (!(value >= 0.0f))
      return op.emitOpError()
             << "attribute 'clip' must be >= 0, but is " << value;
    layer.clip = value;
  }
  return layer;
}

FailureOr<RecurrentLayer> mlir::graph::getRecurrentLayer(Operation *op) {
  using K = ActivationKind;
  if (auto rnn = dyn_cast<RNNOp>(op))
    return readLayer(rnn, RecurrentLayer::RNN, 1, {K::Tanh});
  if (auto gru = dyn_cast<GRUOp>(op)) {
    FailureOr<RecurrentLayer> layer =
        readLayer(gru, RecurrentLayer::GRU, 3, {K::Sigmoid, K::Tanh});
    if (succeeded(layer))
      layer->linearBeforeReset = gru.getLinearBeforeReset();
    return layer;
  }
  auto lstm = cast<LSTMOp>(op);
  FailureOr<RecurrentLayer> layer =
      readLayer(lstm, RecurrentLayer::LSTM, 4, {K::Sigmoid, K::Tanh, K::Tanh});
  if (succeeded(layer))
    layer->inputForget = lstm.getInputForget();
  return layer;
}

LogicalResult RNNOp::verify() { return getRecurrentLayer(*this); }
LogicalResult GRUOp::verify() { return getRecurrentLayer(*this); }
LogicalResult LSTMOp::verify() { return getRecurrentLayer(*this); }

//===----------------------------------------------------------------------===//
// Folding
//===----------------------------------------------------------------------===//

namespace {
/// A constant operand as values of the compute type; empty when absent.
template <typename C> struct Values {
  std::vector<C> data;
  C operator[](int64_t i) const { return data.empty() ? C(0) : data[i]; }
};
} // namespace

template <typename C>
static Values<C> readValues(const std::optional<TypedTensor> &tensor) {
  Values<C> values;
  if (!tensor)
    return values;
  values.data.resize(tensor->getNumElements());
  for (int64_t i = 0, e = tensor->getNumElements(); i < e; ++i)
    values.data[i] = C(tensor->getDouble(i));
  return values;
}

/// Runs the layer on constants in the lowering's order of operations (see
/// RecurrentToLinalg.cpp): each gate's input from its biases, then its x
/// products, then its h products, k in order (the compiled products are
/// fused multiply-adds where the vectorizer makes them: within rounding).
template <typename C>
static void evaluateLayer(const RecurrentLayer &layer,
                          ArrayRef<std::optional<TypedTensor>> in,
                          SmallVectorImpl<std::vector<C>> &out) {
  const int64_t S = layer.steps, B = layer.batch, I = layer.inputSize,
                H = layer.hidden, G = layer.gates, D = layer.directions;
  Values<C> x = readValues<C>(in[0]), w = readValues<C>(in[1]),
            r = readValues<C>(in[2]), b = readValues<C>(in[3]),
            h0 = readValues<C>(in[5]), c0 = readValues<C>(in[6]),
            p = readValues<C>(in[7]);
  bool gru = layer.cell == RecurrentLayer::GRU;
  bool lstm = layer.cell == RecurrentLayer::LSTM;
  auto clip = [&](C v) {
    if (!layer.clip)
      return v;
    C bound = *layer.clip;
    return std::min(std::max(v, -bound), bound);
  };
  std::vector<C> &y = out[0], &yh = out[1];
  y.assign(S * D * B * H, C(0));
  yh.assign(D * B * H, C(0));
  if (lstm)
    out[2].assign(D * B * H, C(0));
  std::vector<C> gates(G * H), reset(H), hidden(H), cell(H), nextCell(H);
  for (int64_t d = 0; d < D; ++d) {
    // The biases that start a gate's input: b_w + b_r, but b_w alone for
    // linear_before_reset's h gate, whose b_r goes with h·r_hᵀ.
    std::vector<C> start(G * H);
    for (int64_t n = 0; n < G * H; ++n) {
      C bw = b[d * 2 * G * H + n], br = b[d * 2 * G * H + G * H + n];
      start[n] = gru && layer.linearBeforeReset && n >= 2 * H ? bw : bw + br;
    }
    for (int64_t row = 0; row < B; ++row) {
      int64_t length = in[4] ? in[4]->getInt(row) : S;
      for (int64_t j = 0; j < H; ++j) {
        hidden[j] = h0[(d * B + row) * H + j];
        cell[j] = c0[(d * B + row) * H + j];
      }
      for (int64_t s = 0; s < length; ++s) {
        int64_t t = layer.isReverse(d) ? length - 1 - s : s;
        const C *xt = &x.data[(t * B + row) * I];
        auto dotR = [&](int64_t n, C acc, const std::vector<C> &v) {
          for (int64_t k = 0; k < H; ++k)
            acc += v[k] * r[(d * G * H + n) * H + k];
          return acc;
        };
        for (int64_t n = 0; n < G * H; ++n) {
          C acc = start[n];
          for (int64_t k = 0; k < I; ++k)
            acc += xt[k] * w[(d * G * H + n) * I + k];
          gates[n] = acc;
        }
        const Activation &f = layer.getActivation(d, 0);
        std::vector<C> next(H);
        if (layer.cell == RecurrentLayer::RNN) {
          for (int64_t j = 0; j < H; ++j)
            next[j] = applyActivation(f, clip(dotR(j, gates[j], hidden)));
        } else if (gru) {
          const Activation &g = layer.getActivation(d, 1);
          std::vector<C> z(H), rg(H);
          for (int64_t j = 0; j < H; ++j) {
            z[j] = applyActivation(f, clip(dotR(j, gates[j], hidden)));
            rg[j] = applyActivation(f, clip(dotR(H + j, gates[H + j], hidden)));
          }
          if (!layer.linearBeforeReset)
            for (int64_t k = 0; k < H; ++k)
              reset[k] = rg[k] * hidden[k];
          for (int64_t j = 0; j < H; ++j) {
            C candidate;
            if (layer.linearBeforeReset) {
              C recurrent =
                  dotR(2 * H + j, b[d * 2 * G * H + G * H + 2 * H + j], hidden);
              candidate = gates[2 * H + j] + rg[j] * recurrent;
            } else {
              candidate = dotR(2 * H + j, gates[2 * H + j], reset);
            }
            C hc = applyActivation(g, clip(candidate));
            next[j] = (C(1) - z[j]) * hc + z[j] * hidden[j];
          }
        } else {
          const Activation &g = layer.getActivation(d, 1);
          const Activation &h = layer.getActivation(d, 2);
          for (int64_t j = 0; j < H; ++j) {
            C pi = p[d * 3 * H + j], po = p[d * 3 * H + H + j],
              pf = p[d * 3 * H + 2 * H + j];
            C i = applyActivation(
                f, clip(dotR(j, gates[j], hidden) + pi * cell[j]));
            C forget =
                layer.inputForget
                    ? C(1) - i
                    : applyActivation(
                          f, clip(dotR(2 * H + j, gates[2 * H + j], hidden) +
                                  pf * cell[j]));
            C candidate = applyActivation(
                g, clip(dotR(3 * H + j, gates[3 * H + j], hidden)));
            C c = forget * cell[j] + i * candidate;
            C o = applyActivation(
                f, clip(dotR(H + j, gates[H + j], hidden) + po * c));
            next[j] = o * applyActivation(h, c);
            nextCell[j] = c;
          }
          cell = nextCell;
        }
        hidden = next;
        for (int64_t j = 0; j < H; ++j)
          y[((t * D + d) * B + row) * H + j] = hidden[j];
      }
      for (int64_t j = 0; j < H; ++j) {
        yh[(d * B + row) * H + j] = hidden[j];
        if (lstm)
          out[2][(d * B + row) * H + j] = cell[j];
      }
    }
  }
}

/// The fold hook of the three ops: `operands` by role (x, w, r, b,
/// sequence_lens, initial_h, initial_c, peepholes), each the operand and its
/// constant value; a null operand is absent.
static LogicalResult
foldRecurrent(Operation *op, ArrayRef<std::pair<Value, Attribute>> operands,
              SmallVectorImpl<OpFoldResult> &results) {
  SmallVector<std::optional<TypedTensor>> in;
  for (auto [value, attr] : operands) {
    in.push_back(std::nullopt);
    if (value && !(in.back() = readTypedTensor(attr)))
      return failure();
  }
  in.resize(8);
  FailureOr<RecurrentLayer> layer = getRecurrentLayer(op);
  if (failed(layer))
    return failure();
  int64_t products = layer->steps * layer->directions * layer->batch *
                     layer->gates * layer->hidden *
                     (layer->inputSize + layer->hidden);
  SmallVector<std::optional<int64_t>> elements;
  for (Value result : op->getResults())
    elements.push_back(
        cast<RankedTensorType>(result.getType()).getNumElements());
  if (!withinFoldLimits(elements, products))
    return failure();
  bool ok = dispatchKind(in[0]->getKind(), [&](auto t) {
    using T = decltype(t);
    if constexpr (!std::is_floating_point_v<ComputeType<T>>) {
      return false;
    } else {
      using C = ComputeType<T>;
      SmallVector<std::vector<C>> out(op->getNumResults());
      evaluateLayer<C>(*layer, in, out);
      for (auto [result, values] : llvm::zip(op->getResults(), out)) {
        TypedTensor tensor =
            TypedTensor::zeros(cast<RankedTensorType>(result.getType()));
        for (auto [i, v] : llvm::enumerate(values))
          tensor.set<T>(i, narrow<T>(v));
        results.push_back(tensor.toAttr());
      }
      return true;
    }
  });
  return success(ok);
}

/// foldRecurrent on `op`'s operands by role, each with its constant among
/// `constants` (the fold adaptor's, in operand order).
template <typename OpTy>
static LogicalResult foldLayer(OpTy op, ArrayRef<Attribute> constants,
                               SmallVectorImpl<OpFoldResult> &results) {
  RecurrentOperands in = getOperandsOf(op);
  SmallVector<std::pair<Value, Attribute>> byRole;
  for (Value value : {in.x, in.w, in.r, in.b, in.sequenceLens, in.initialH,
                      in.initialC, in.peepholes}) {
    Attribute constant;
    for (OpOperand &operand : op->getOpOperands())
      if (value && operand.get() == value)
        constant = constants[operand.getOperandNumber()];
    byRole.push_back({value, constant});
  }
  return foldRecurrent(op, byRole, results);
}

LogicalResult RNNOp::fold(FoldAdaptor adaptor,
                          SmallVectorImpl<OpFoldResult> &results) {
  return foldLayer(*this, adaptor.getOperands(), results);
}

LogicalResult GRUOp::fold(FoldAdaptor adaptor,
                          SmallVectorImpl<OpFoldResult> &results) {
  return foldLayer(*this, adaptor.getOperands(), results);
}

LogicalResult LSTMOp::fold(FoldAdaptor adaptor,
                           SmallVectorImpl<OpFoldResult> &results) {
  return foldLayer(*this, adaptor.getOperands(), results);
}
