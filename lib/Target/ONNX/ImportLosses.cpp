//===- ImportLosses.cpp - Loss functions ----------------------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss, expanded into graph
// ops as ONNX's function definitions compute them:
//   loss[n, d...] = -input[n, target[n, d...], d...] * weight[target], 0 where
//   the target is ignore_index; "none" keeps it, "sum" sums it, "mean"
//   divides the sum by the sum of the weights used.
// SoftmaxCrossEntropyLoss is that of log_softmax(scores) along the classes,
// whose value is its optional second output.
//
//===----------------------------------------------------------------------===//

#include "ImportHelpers.h"

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::onnx_import;

/// The loss of log-probabilities `input` [N, C, d...] at `target`
/// [N, d...].
static FailureOr<Value> buildNLL(Importer &importer,
                                 const onnx::NodeProto &node, Value input,
                                 Value target, Value weight,
                                 StringRef reduction,
                                 std::optional<int64_t> ignoreIndex) {
  RankedTensorType inType = Importer::getType(input);
  RankedTensorType targetType = Importer::getType(target);
  Type element = inType.getElementType();
  if (!isa<FloatType>(element))
    return checkFloatType(importer, node, input, 0);
  Type index = targetType.getElementType();
  if (!index.isSignlessInteger(32) && !index.isSignlessInteger(64))
    return importer.nodeError(node, "the target is not INT32 or INT64");
  ArrayRef<int64_t> in = inType.getShape();
  ArrayRef<int64_t> t = targetType.getShape();
  SmallVector<int64_t> expected(in.begin(), in.end());
  if (expected.size() < 2)
    return importer.nodeError(node, "the input must be N x C x ...");
  expected.erase(expected.begin() + 1);
  if (ArrayRef<int64_t>(expected) != t)
    return importer.nodeError(node, "the target of shape " + formatShape(t) +
                                        " does not match the input of shape " +
                                        formatShape(in));
  int64_t classes = in[1];
  if (weight &&
      Importer::getType(weight).getShape() != ArrayRef<int64_t>{classes})
    return importer.nodeError(node, "the weight is not 1-D of the class "
                                    "count");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return importer.nodeError(node, "reduction '" + reduction +
                                        "' is not none, sum or mean");

  // The target with ignored positions sent to class 0, so that every gather
  // reads inside the input.
  Value ignored, safeTarget = target;
  if (ignoreIndex) {
    ignored = createCompare<EqualOp>(
        importer, node, target,
        createSplat(importer, node, {}, index, double(*ignoreIndex)));
    safeTarget = createWhere(importer, node, ignored,
                             createSplat(importer, node, {}, index, 0), target);
  }
  SmallVector<int64_t> withClass(t.begin(), t.end());
  withClass.insert(withClass.begin() + 1, 1);
  OpBuilder &b = importer.getBuilder();
  Value picked = GatherElementsOp::create(
      b, importer.getLoc(node), importer.getTensorType(withClass, element),
      input, createReshape(importer, node, safeTarget, withClass),
      b.getI64IntegerAttr(1));
  picked = createReshape(importer, node, picked, t);
  Value weights;
  if (weight)
    weights = GatherOp::create(b, importer.getLoc(node),
                               importer.getTensorType(t, element), weight,
                               safeTarget, b.getI64IntegerAttr(0));
  if (ignoreIndex) {
    Value zero = createSplat(importer, node, {}, element, 0);
    Value one = createSplat(importer, node, {}, element, 1);
    weights =
        createWhere(importer, node, ignored, zero, weights ? weights : one);
  }
  Value loss = createUnary<NegOp>(importer, node, picked);
  if (weights)
    loss = createBinary<MulOp>(importer, node, loss, weights);
  if (reduction == "none")
    return loss;
  SmallVector<int64_t> all;
  for (int64_t d = 0; d < int64_t(t.size()); ++d)
    all.push_back(d);
  if (reduction == "sum")
    return createReduce<ReduceSumOp>(importer, node, loss, all, false);
  if (!weights)
    return createReduce<ReduceMeanOp>(importer, node, loss, all, false);
  Value total = createReduce<ReduceSumOp>(importer, node, loss, all, false);
  Value weightSum =
      createReduce<ReduceSumOp>(importer, node, weights, all, false);
  return createBinary<DivOp>(importer, node, total, weightSum);
}

/// reduction and ignore_index of a loss node.
static LogicalResult readLossAttrs(Importer &importer,
                                   const onnx::NodeProto &node,
                                   std::string &reduction,
                                   std::optional<int64_t> &ignoreIndex) {
  NodeAttributes attrs(importer, node);
  FailureOr<std::string> r = attrs.getString("reduction", "mean");
  if (failed(r))
    return failure();
  reduction = *r;
  if (attrs.has("ignore_index")) {
    FailureOr<int64_t> i = attrs.getInt("ignore_index", 0);
    if (failed(i))
      return failure();
    ignoreIndex = *i;
  }
  return success();
}

LogicalResult mlir::graph::onnx_import::importNegativeLogLikelihoodLoss(
    Importer &importer, const onnx::NodeProto &node) {
  std::string reduction;
  std::optional<int64_t> ignoreIndex;
  FailureOr<Value> input = importer.getInput(node, 0);
  FailureOr<Value> target = importer.getInput(node, 1);
  if (failed(readLossAttrs(importer, node, reduction, ignoreIndex)) ||
      failed(input) || failed(target))
    return failure();
  Value weight;
  if (Importer::hasInput(node, 2)) {
    FailureOr<Value> w = importer.getInput(node, 2);
    if (failed(w))
      return failure();
    weight = *w;
  }
  FailureOr<Value> loss =
      buildNLL(importer, node, *input, *target, weight, reduction, ignoreIndex);
  if (failed(loss))
    return failure();
  return importer.setOutput(node, 0, *loss);
}

LogicalResult mlir::graph::onnx_import::importSoftmaxCrossEntropyLoss(
    Importer &importer, const onnx::NodeProto &node) {
  std::string reduction;
  std::optional<int64_t> ignoreIndex;
  FailureOr<Value> scores = importer.getInput(node, 0);
  FailureOr<Value> labels = importer.getInput(node, 1);
  if (failed(readLossAttrs(importer, node, reduction, ignoreIndex)) ||
      failed(scores) || failed(labels) ||
      failed(checkFloatType(importer, node, *scores, 0)))
    return failure();
  Value weight;
  if (Importer::hasInput(node, 2)) {
    FailureOr<Value> w = importer.getInput(node, 2);
    if (failed(w))
      return failure();
    weight = *w;
  }
  if (Importer::getType(*scores).getRank() < 2)
    return importer.nodeError(node, "the scores must be N x C x ...");
  OpBuilder &b = importer.getBuilder();
  Value logProb =
      LogSoftmaxOp::create(b, importer.getLoc(node), Importer::getType(*scores),
                           *scores, b.getI64IntegerAttr(1));
  FailureOr<Value> loss = buildNLL(importer, node, logProb, *labels, weight,
                                   reduction, ignoreIndex);
  if (failed(loss) || failed(importer.setOutput(node, 0, *loss)))
    return failure();
  if (importer.isOutputUsed(node, 1))
    return importer.setOutput(node, 1, logProb);
  return success();
}

void mlir::graph::onnx_import::registerLossOps(OpRegistry &registry) {
  registry.on("NegativeLogLikelihoodLoss", 12, importNegativeLogLikelihoodLoss);
  registry.on("SoftmaxCrossEntropyLoss", 12, importSoftmaxCrossEntropyLoss);
}
