//===- ImportRecurrent.cpp - ONNX RNN, GRU and LSTM -------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The three recurrent ops of ONNX become graph.rnn, graph.gru, graph.lstm,
// which take the sequence time first: `layout` 1 (batch first, opset 14)
// transposes the input and initial states in and the outputs out. The
// activation parameters become one alpha and one beta per activation.
//
//===----------------------------------------------------------------------===//

#include "ImportHelpers.h"

#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/Recurrent.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::onnx_import;

/// ONNX's activation names (matched without case, as ONNX Runtime does).
static std::optional<ActivationKind> parseOnnxActivation(StringRef name) {
  std::string lower = name.lower();
  return llvm::StringSwitch<std::optional<ActivationKind>>(lower)
      .Case("sigmoid", ActivationKind::Sigmoid)
      .Case("tanh", ActivationKind::Tanh)
      .Case("relu", ActivationKind::Relu)
      .Case("affine", ActivationKind::Affine)
      .Case("leakyrelu", ActivationKind::LeakyRelu)
      .Case("thresholdedrelu", ActivationKind::ThresholdedRelu)
      .Case("scaledtanh", ActivationKind::ScaledTanh)
      .Case("hardsigmoid", ActivationKind::HardSigmoid)
      .Case("elu", ActivationKind::Elu)
      .Case("softsign", ActivationKind::Softsign)
      .Case("softplus", ActivationKind::Softplus)
      .Default(std::nullopt);
}

LogicalResult
mlir::graph::onnx_import::importRecurrent(Importer &importer,
                                          const onnx::NodeProto &node) {
  StringRef opType = node.op_type();
  int64_t gates = opType == "LSTM" ? 4 : opType == "GRU" ? 3 : 1;
  int64_t functions = opType == "LSTM" ? 3 : opType == "GRU" ? 2 : 1;
  NodeAttributes attrs(importer, node);
  FailureOr<std::string> direction = attrs.getString("direction", "forward");
  FailureOr<int64_t> layout = attrs.getInt("layout", 0);
  FailureOr<int64_t> hiddenSize = attrs.getInt("hidden_size", -1);
  FailureOr<SmallVector<std::string>> names = attrs.getStrings("activations");
  FailureOr<SmallVector<float>> alphas =
      attrs.getFloats("activation_alpha", {});
  FailureOr<SmallVector<float>> betas = attrs.getFloats("activation_beta", {});
  FailureOr<int64_t> linearBeforeReset = attrs.getInt("linear_before_reset", 0);
  FailureOr<int64_t> inputForget = attrs.getInt("input_forget", 0);
  if (failed(direction) || failed(layout) || failed(hiddenSize) ||
      failed(names) || failed(alphas) || failed(betas) ||
      failed(linearBeforeReset) || failed(inputForget))
    return failure();
  std::optional<Direction> dir = symbolizeDirection(*direction);
  if (!dir)
    return importer.nodeError(node, "direction '" + *direction +
                                        "' is not forward, reverse or "
                                        "bidirectional");
  if (*layout != 0 && *layout != 1)
    return importer.nodeError(node,
                              "layout " + Twine(*layout) + " is not 0 or 1");
  int64_t dirs = *dir == Direction::bidirectional ? 2 : 1;

  // Inputs: X, W, R, then the optional B, sequence_lens, initial_h, and
  // LSTM's initial_c and P.
  SmallVector<Value> inputs(gates == 4 ? 8 : 6);
  for (int index = 0; index < int(inputs.size()); ++index) {
    if (!Importer::hasInput(node, index)) {
      if (index < 3)
        return importer.nodeError(node, "input " + Twine(index) +
                                            " (X, W, R) is missing");
      continue;
    }
    FailureOr<Value> input = importer.getInput(node, index);
    if (failed(input))
      return failure();
    inputs[index] = *input;
    bool isLengths = index == 4;
    if (!isLengths && failed(checkFloatType(importer, node, *input, index)))
      return failure();
  }
  for (int index : {0, 1, 2})
    if (failed(checkRank(importer, node, inputs[index], index, 3,
                         index == 0   ? "X"
                         : index == 1 ? "W"
                                      : "R")))
      return failure();
  ArrayRef<int64_t> rShape = Importer::getType(inputs[2]).getShape();
  int64_t hidden = rShape[2];
  if (*hiddenSize >= 0 && *hiddenSize != hidden)
    return importer.nodeError(node, "hidden_size " + Twine(*hiddenSize) +
                                        " is not R's last dimension (" +
                                        Twine(hidden) + ")");

  // Batch first: X [B, S, I] and the states [B, D, H] in, time first.
  if (*layout == 1) {
    inputs[0] = createTranspose(importer, node, inputs[0], {1, 0, 2});
    for (int index : {5, 6})
      if (index < int(inputs.size()) && inputs[index])
        inputs[index] =
            createTranspose(importer, node, inputs[index], {1, 0, 2});
  }

  // Activations: given for one direction or all; alpha and beta consumed in
  // order by the functions that take them, ONNX's defaults for the rest.
  MLIRContext *context = importer.getBuilder().getContext();
  OpBuilder &b = importer.getBuilder();
  ArrayAttr activationsAttr;
  DenseF32ArrayAttr alphaAttr, betaAttr;
  if (!names->empty()) {
    if (int64_t(names->size()) != functions &&
        int64_t(names->size()) != functions * dirs)
      return importer.nodeError(node,
                                "activations must name " + Twine(functions) +
                                    " functions per direction, but name " +
                                    Twine(names->size()));
    SmallVector<Activation> list;
    for (int64_t i = 0; i < functions * dirs; ++i) {
      StringRef name = (*names)[i % names->size()];
      std::optional<ActivationKind> kind = parseOnnxActivation(name);
      if (!kind)
        return importer.nodeError(node, "activation '" + name +
                                            "' is not one of ONNX's");
      list.push_back(getDefaultActivation(*kind));
    }
    size_t nextAlpha = 0, nextBeta = 0;
    for (int64_t i = 0; i < int64_t(names->size()); ++i) {
      Activation &a = list[i];
      if (usesAlpha(a.kind) && nextAlpha < alphas->size())
        a.alpha = (*alphas)[nextAlpha++];
      if (usesBeta(a.kind) && nextBeta < betas->size())
        a.beta = (*betas)[nextBeta++];
    }
    // Names given for one direction serve both, with their parameters.
    for (int64_t i = names->size(); i < int64_t(list.size()); ++i)
      list[i] = list[i - names->size()];
    SmallVector<Attribute> spelled;
    SmallVector<float> alpha, beta;
    for (const Activation &a : list) {
      spelled.push_back(StringAttr::get(context, getActivationName(a.kind)));
      alpha.push_back(a.alpha);
      beta.push_back(a.beta);
    }
    activationsAttr = ArrayAttr::get(context, spelled);
    alphaAttr = b.getDenseF32ArrayAttr(alpha);
    betaAttr = b.getDenseF32ArrayAttr(beta);
  }
  FloatAttr clipAttr;
  if (attrs.has("clip")) {
    FailureOr<float> clip = attrs.getFloat("clip", 0.0f);
    if (failed(clip))
      return failure();
    clipAttr = b.getF32FloatAttr(*clip);
  }

  RankedTensorType xType = Importer::getType(inputs[0]);
  Type element = xType.getElementType();
  int64_t steps = xType.getDimSize(0), batch = xType.getDimSize(1);
  RankedTensorType yType =
      importer.getTensorType({steps, dirs, batch, hidden}, element);
  RankedTensorType stateType =
      importer.getTensorType({dirs, batch, hidden}, element);
  Location loc = importer.getLoc(node);
  auto directionAttr = DirectionAttr::get(context, *dir);
  Operation *op;
  if (gates == 4) {
    op = LSTMOp::create(
        b, loc, yType, stateType, stateType, inputs[0], inputs[1], inputs[2],
        inputs[3], inputs[4], inputs[5], inputs[6], inputs[7],
        *inputForget ? b.getUnitAttr() : UnitAttr(), directionAttr,
        activationsAttr, alphaAttr, betaAttr, clipAttr);
  } else if (gates == 3) {
    op = GRUOp::create(
        b, loc, yType, stateType, inputs[0], inputs[1], inputs[2], inputs[3],
        inputs[4], inputs[5], *linearBeforeReset ? b.getUnitAttr() : UnitAttr(),
        directionAttr, activationsAttr, alphaAttr, betaAttr, clipAttr);
  } else {
    op =
        RNNOp::create(b, loc, yType, stateType, inputs[0], inputs[1], inputs[2],
                      inputs[3], inputs[4], inputs[5], directionAttr,
                      activationsAttr, alphaAttr, betaAttr, clipAttr);
  }
  if (failed(mlir::verify(op)))
    return failure();
  for (int index = 0; index < node.output_size(); ++index) {
    if (node.output(index).empty())
      continue;
    if (index >= int(op->getNumResults()))
      return importer.nodeError(node, "has no output " + Twine(index));
    Value result = op->getResult(index);
    // Batch first out: Y [B, S, D, H], the states [B, D, H].
    if (*layout == 1)
      result = createTranspose(importer, node, result,
                               index == 0 ? ArrayRef<int64_t>{2, 0, 1, 3}
                                          : ArrayRef<int64_t>{1, 0, 2});
    if (failed(importer.setOutput(node, index, result)))
      return failure();
  }
  return success();
}

void mlir::graph::onnx_import::registerRecurrentOps(OpRegistry &registry) {
  registry.on({"RNN", "GRU", "LSTM"}, 1, importRecurrent);
}
