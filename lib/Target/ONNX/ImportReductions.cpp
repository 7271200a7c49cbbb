//===- ImportReductions.cpp - Reductions and normalizations ---------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// ReduceSum/Mean/Max/Min/Prod, ArgMax/ArgMin, CumSum and LogSoftmax are graph
// ops; ReduceL1/L2/LogSum/LogSumExp/SumSquare, Hardmax, GlobalMaxPool and the
// normalizations (LayerNormalization with its Mean and InvStdDev outputs,
// InstanceNormalization, MeanVarianceNormalization) are the compositions of
// ONNX's own function definitions, in their order.
//
//===----------------------------------------------------------------------===//

#include "ImportHelpers.h"

#include <limits>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::onnx_import;

LogicalResult
mlir::graph::onnx_import::importReduce(Importer &importer,
                                       const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> keepdims = attrs.getInt("keepdims", 1);
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(keepdims) || failed(x))
    return failure();
  RankedTensorType type = Importer::getType(*x);
  Type element = type.getElementType();
  if (element.isInteger(1))
    return importer.nodeError(node, "reductions of BOOL are not defined");
  bool identity = false;
  FailureOr<SmallVector<int64_t>> axes =
      readReduceAxes(importer, node, attrs, type.getRank(), identity);
  if (failed(axes))
    return failure();
  StringRef op = node.op_type();
  bool needsFloat = op == "ReduceMean" || op == "ReduceL2" ||
                    op == "ReduceLogSum" || op == "ReduceLogSumExp";
  if (needsFloat && failed(checkFloatType(importer, node, *x, 0)))
    return failure();
  if (identity)
    return importer.setOutput(node, 0, *x);
  bool keep = *keepdims != 0;
  auto sum = [&](Value v) {
    return createReduce<ReduceSumOp>(importer, node, v, *axes, keep);
  };
  // Over the dimension whose size only a run decides, the padding past the
  // extent becomes the reduction's identity (saturated to the integer
  // types' bounds); a mean divides by the number of valid elements.
  if (std::optional<Importer::RunTimeExtent> extent =
          importer.getRunTimeExtent(node, 0);
      extent && llvm::is_contained(*axes, extent->dim)) {
    double infinity = std::numeric_limits<double>::infinity();
    double fill = op == "ReduceMax" || op == "ReduceLogSumExp" ? -infinity
                  : op == "ReduceMin"                          ? infinity
                  : op == "ReduceProd"                         ? 1
                                                               : 0;
    *x = maskPastExtent(importer, node, *x, extent->dim, extent->count, fill);
    if (op == "ReduceMean") {
      int64_t others = 1;
      for (int64_t axis : *axes)
        if (axis != extent->dim)
          others *= type.getDimSize(axis);
      Value count = createCast(importer, node, extent->count, element);
      if (others != 1)
        count = createBinary<MulOp>(importer, node, count,
                                    createSplat(importer, node, {}, element,
                                                static_cast<double>(others)));
      return importer.setOutput(
          node, 0, createBinary<DivOp>(importer, node, sum(*x), count));
    }
  }
  Value result;
  if (op == "ReduceSum")
    result = sum(*x);
  else if (op == "ReduceMean")
    result = createReduce<ReduceMeanOp>(importer, node, *x, *axes, keep);
  else if (op == "ReduceMax")
    result = createReduce<ReduceMaxOp>(importer, node, *x, *axes, keep);
  else if (op == "ReduceMin")
    result = createReduce<ReduceMinOp>(importer, node, *x, *axes, keep);
  else if (op == "ReduceProd")
    result = createReduce<ReduceProdOp>(importer, node, *x, *axes, keep);
  else if (op == "ReduceL1")
    result = sum(createUnary<AbsOp>(importer, node, *x));
  else if (op == "ReduceSumSquare")
    result = sum(createBinary<MulOp>(importer, node, *x, *x));
  else if (op == "ReduceL2")
    result = createUnary<SqrtOp>(
        importer, node, sum(createBinary<MulOp>(importer, node, *x, *x)));
  else if (op == "ReduceLogSum")
    result = createUnary<LogOp>(importer, node, sum(*x));
  else
    result = createUnary<LogOp>(importer, node,
                                sum(createUnary<ExpOp>(importer, node, *x)));
  return importer.setOutput(node, 0, result);
}

LogicalResult
mlir::graph::onnx_import::importArgReduce(Importer &importer,
                                          const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> axisAttr = attrs.getInt("axis", 0);
  FailureOr<int64_t> keepdims = attrs.getInt("keepdims", 1);
  FailureOr<int64_t> last = attrs.getInt("select_last_index", 0);
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(axisAttr) || failed(keepdims) || failed(last) || failed(x))
    return failure();
  RankedTensorType type = Importer::getType(*x);
  if (type.getElementType().isInteger(1))
    return importer.nodeError(node, "ArgMax and ArgMin of BOOL are not "
                                    "defined");
  FailureOr<int64_t> axis =
      normalizeAxis(importer, node, *axisAttr, type.getRank());
  if (failed(axis))
    return failure();
  if (type.getDimSize(*axis) == 0)
    return importer.nodeError(node, "the axis is empty");
  // Along the dimension whose size only a run decides, the padding past the
  // extent ranks last (the first of equal values wins, a valid one).
  if (std::optional<Importer::RunTimeExtent> extent =
          importer.getRunTimeExtent(node, 0);
      extent && extent->dim == *axis) {
    if (*last)
      return importer.nodeError(
          node, "select_last_index along the dimension whose size only a "
                "run decides is not supported");
    double infinity = std::numeric_limits<double>::infinity();
    *x = maskPastExtent(importer, node, *x, *axis, extent->count,
                        node.op_type() == "ArgMax" ? -infinity : infinity);
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (d != *axis || *keepdims)
      shape.push_back(d == *axis ? 1 : type.getDimSize(d));
  OpBuilder &b = importer.getBuilder();
  RankedTensorType resultType = importer.getTensorType(shape, b.getI64Type());
  UnitAttr keep = *keepdims ? b.getUnitAttr() : UnitAttr();
  UnitAttr lastIndex = *last ? b.getUnitAttr() : UnitAttr();
  Value result =
      node.op_type() == "ArgMax"
          ? Value(ArgMaxOp::create(b, importer.getLoc(node), resultType, *x,
                                   b.getI64IntegerAttr(*axis), keep, lastIndex))
          : Value(ArgMinOp::create(b, importer.getLoc(node), resultType, *x,
                                   b.getI64IntegerAttr(*axis), keep,
                                   lastIndex));
  return importer.setOutput(node, 0, result);
}

/// TopK: k from the attribute (opset 1) or the constant input K (opset 10
/// and later: an input whose value decides the output's shape). The values
/// come sorted whatever `sorted` asks (unsorted output may be in any
/// order).
/// TopK whose result size only a run decides (graph.top_k_prefix): of a
/// value of run-time size along `axis` (its extent `valid`), or with a K
/// that is not a constant (before opset 10, the `k` attribute). K must not
/// exceed the valid elements (ONNX): it is clamped to them.
static LogicalResult importTopKPrefix(Importer &importer,
                                      const onnx::NodeProto &node, Value x,
                                      int64_t axis, bool smallest,
                                      Value valid) {
  OpBuilder &b = importer.getBuilder();
  Location loc = importer.getLoc(node);
  RankedTensorType type = Importer::getType(x);
  RankedTensorType scalar = importer.getTensorType({}, b.getI64Type());
  auto constant = [&](int64_t v) {
    return importer.createConstant(
        node, DenseElementsAttr::get(scalar, b.getI64IntegerAttr(v)));
  };
  if (!valid)
    valid = constant(type.getDimSize(axis));
  Value k;
  if (importer.getOpset() < 10) {
    NodeAttributes attrs(importer, node);
    k = constant(*attrs.getInt("k", -1));
  } else {
    FailureOr<Value> given = importer.getInput(node, 1);
    if (failed(given))
      return failure();
    RankedTensorType kType = Importer::getType(*given);
    if (kType.getNumElements() != 1 ||
        !kType.getElementType().isSignlessInteger(64))
      return importer.nodeError(node, "K must be an int64 tensor of one "
                                      "element, but is " +
                                          typeName(*given));
    k = kType.getRank() == 0 ? *given
                             : createReshape(importer, node, *given, {});
  }
  auto topK = TopKPrefixOp::create(
      b, loc, type, importer.getTensorType(type.getShape(), b.getI64Type()),
      scalar, x, valid, k, b.getI64IntegerAttr(axis),
      smallest ? b.getUnitAttr() : UnitAttr());
  // A K with a known bound (torchvision's min(count, 300)) picks at most
  // that many: what follows works on that bound, not on x's.
  Value values = topK.getValues(), indices = topK.getIndices();
  std::optional<int64_t> most = getUpperBound(k);
  if (most && *most >= 1 && *most < type.getDimSize(axis)) {
    SmallVector<int64_t> starts(type.getRank(), 0), steps(type.getRank(), 1);
    SmallVector<int64_t> sizes(type.getShape());
    sizes[axis] = *most;
    values = createSlice(importer, node, values, starts, steps, sizes);
    indices = createSlice(importer, node, indices, starts, steps, sizes);
  }
  if (failed(importer.setRunTimeSizeOutput(node, 0, values, axis,
                                           topK.getCount())))
    return failure();
  return importer.setRunTimeSizeOutput(node, 1, indices, axis, topK.getCount());
}

LogicalResult
mlir::graph::onnx_import::importTopK(Importer &importer,
                                     const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> axisAttr = attrs.getInt("axis", -1);
  FailureOr<int64_t> largest = attrs.getInt("largest", 1);
  FailureOr<int64_t> kAttr = attrs.getInt("k", -1);
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(axisAttr) || failed(largest) || failed(kAttr) || failed(x) ||
      failed(checkNumeric(importer, node, *x, 0)))
    return failure();
  RankedTensorType type = Importer::getType(*x);
  if (type.getRank() == 0)
    return importer.nodeError(node, "TopK of a scalar is not defined");
  FailureOr<int64_t> axis =
      normalizeAxis(importer, node, *axisAttr, type.getRank());
  if (failed(axis))
    return failure();
  int64_t k = *kAttr;
  std::optional<Importer::RunTimeExtent> extent =
      importer.getRunTimeExtent(node, 0);
  bool alongExtent = extent && extent->dim == *axis;
  if (importer.getOpset() >= 10) {
    const ConstantTensor *given = importer.getConstantInput(node, 1);
    if (given && given->getNumElements() != 1)
      return importer.nodeError(node, "K must have one element");
    if (!given || alongExtent) {
      if (extent && !alongExtent)
        return importer.nodeError(
            node, "K that only a run decides, of a value whose size only a "
                  "run decides along another axis, is not supported");
      return importTopKPrefix(importer, node, *x, *axis, !*largest,
                              alongExtent ? extent->count : Value());
    }
    k = given->getInts()[0];
  }
  // K = 0 selects nothing: outputs of size 0 (through the prefix op's fold).
  if (alongExtent || k == 0)
    return importTopKPrefix(importer, node, *x, *axis, !*largest,
                            alongExtent ? extent->count : Value());
  if (k < 1 || k > type.getDimSize(*axis))
    return importer.nodeError(node, "k " + Twine(k) + " is not in [1, " +
                                        Twine(type.getDimSize(*axis)) +
                                        "], the size of axis " + Twine(*axis));
  SmallVector<int64_t> shape(type.getShape());
  shape[*axis] = k;
  OpBuilder &b = importer.getBuilder();
  auto topK = TopKOp::create(
      b, importer.getLoc(node),
      importer.getTensorType(shape, type.getElementType()),
      importer.getTensorType(shape, b.getI64Type()), *x, b.getI64IntegerAttr(k),
      b.getI64IntegerAttr(*axis), *largest ? UnitAttr() : b.getUnitAttr());
  if (failed(importer.setOutput(node, 0, topK.getValues())))
    return failure();
  return importer.setOutput(node, 1, topK.getIndices());
}

LogicalResult
mlir::graph::onnx_import::importCumSum(Importer &importer,
                                       const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> exclusive = attrs.getInt("exclusive", 0);
  FailureOr<int64_t> reverse = attrs.getInt("reverse", 0);
  FailureOr<Value> x = importer.getInput(node, 0);
  FailureOr<std::optional<SmallVector<int64_t>>> axisInput =
      getConstantInts(importer, node, 1, "axis");
  if (failed(exclusive) || failed(reverse) || failed(x) || failed(axisInput))
    return failure();
  if (!*axisInput || (*axisInput)->size() != 1)
    return importer.nodeError(node, "axis must be a constant scalar");
  RankedTensorType type = Importer::getType(*x);
  if (type.getElementType().isInteger(1))
    return importer.nodeError(node, "CumSum of BOOL is not defined");
  FailureOr<int64_t> axis =
      normalizeAxis(importer, node, (**axisInput)[0], type.getRank());
  if (failed(axis))
    return failure();
  OpBuilder &b = importer.getBuilder();
  Value result = CumSumOp::create(b, importer.getLoc(node), type, *x,
                                  b.getI64IntegerAttr(*axis),
                                  *exclusive ? b.getUnitAttr() : UnitAttr(),
                                  *reverse ? b.getUnitAttr() : UnitAttr());
  return importer.setOutput(node, 0, result);
}

/// Runs `build` on x along `axis`: directly from opset 13, before it on x
/// flattened to 2-D at `axis` (the old softmax family's coercion), reshaped
/// back.
static FailureOr<Value> alongAxis(Importer &importer,
                                  const onnx::NodeProto &node, Value x,
                                  function_ref<Value(Value, int64_t)> build) {
  NodeAttributes attrs(importer, node);
  bool coerceTo2D = importer.getOpset() < 13;
  FailureOr<int64_t> axisAttr = attrs.getInt("axis", coerceTo2D ? 1 : -1);
  if (failed(axisAttr))
    return failure();
  RankedTensorType type = Importer::getType(x);
  int64_t rank = type.getRank();
  FailureOr<int64_t> axis = normalizeAxis(importer, node, *axisAttr, rank);
  if (failed(axis))
    return failure();
  if (!coerceTo2D || *axis == rank - 1)
    return build(x, *axis);
  ArrayRef<int64_t> shape = type.getShape();
  Value flat = createReshape(importer, node, x,
                             {getNumElements(shape.take_front(*axis)),
                              getNumElements(shape.drop_front(*axis))});
  return createReshape(importer, node, build(flat, 1), shape);
}

LogicalResult
mlir::graph::onnx_import::importLogSoftmax(Importer &importer,
                                           const onnx::NodeProto &node) {
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x) || failed(checkFloatType(importer, node, *x, 0)))
    return failure();
  FailureOr<Value> result =
      alongAxis(importer, node, *x, [&](Value v, int64_t axis) {
        OpBuilder &b = importer.getBuilder();
        return LogSoftmaxOp::create(b, importer.getLoc(node),
                                    Importer::getType(v), v,
                                    b.getI64IntegerAttr(axis))
            .getResult();
      });
  if (failed(result))
    return failure();
  return importer.setOutput(node, 0, *result);
}

LogicalResult
mlir::graph::onnx_import::importHardmax(Importer &importer,
                                        const onnx::NodeProto &node) {
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x) || failed(checkFloatType(importer, node, *x, 0)))
    return failure();
  // 1 at the first maximum along the axis: argmax, compared with the
  // positions.
  FailureOr<Value> result =
      alongAxis(importer, node, *x, [&](Value v, int64_t axis) {
        OpBuilder &b = importer.getBuilder();
        RankedTensorType type = Importer::getType(v);
        SmallVector<int64_t> keptShape(type.getShape());
        keptShape[axis] = 1;
        Value index = ArgMaxOp::create(
            b, importer.getLoc(node),
            importer.getTensorType(keptShape, b.getI64Type()), v,
            b.getI64IntegerAttr(axis), b.getUnitAttr(), UnitAttr());
        SmallVector<int64_t> iotaShape(type.getRank(), 1);
        iotaShape[axis] = type.getDimSize(axis);
        SmallVector<double> iota;
        for (int64_t i = 0; i < type.getDimSize(axis); ++i)
          iota.push_back(i);
        Value positions =
            createConstantOf(importer, node, iotaShape, b.getI64Type(), iota);
        Value hot = createCompare<EqualOp>(importer, node, index, positions);
        return createCast(importer, node, hot, type.getElementType());
      });
  if (failed(result))
    return failure();
  return importer.setOutput(node, 0, *result);
}

LogicalResult
mlir::graph::onnx_import::importGlobalPool(Importer &importer,
                                           const onnx::NodeProto &node) {
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x))
    return failure();
  RankedTensorType type = Importer::getType(*x);
  if (type.getRank() < 3)
    return importer.nodeError(node, "the input has rank < 3");
  bool isMax = node.op_type() == "GlobalMaxPool";
  if (!isMax && failed(checkFloatType(importer, node, *x, 0)))
    return failure();
  if (type.getElementType().isInteger(1))
    return importer.nodeError(node, "pooling of BOOL is not defined");
  SmallVector<int64_t> axes;
  for (int64_t d = 2; d < type.getRank(); ++d)
    axes.push_back(d);
  Value result =
      isMax ? createReduce<ReduceMaxOp>(importer, node, *x, axes, true)
            : createReduce<ReduceMeanOp>(importer, node, *x, axes, true);
  return importer.setOutput(node, 0, result);
}

//===----------------------------------------------------------------------===//
// Normalizations
//===----------------------------------------------------------------------===//

LogicalResult mlir::graph::onnx_import::importLayerNormalization(
    Importer &importer, const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> axisAttr = attrs.getInt("axis", -1);
  FailureOr<float> epsilon = attrs.getFloat("epsilon", 1e-5f);
  FailureOr<Value> x = importer.getInput(node, 0);
  FailureOr<Value> scale = importer.getInput(node, 1);
  if (failed(axisAttr) || failed(epsilon) || failed(x) || failed(scale) ||
      failed(checkFloatType(importer, node, *x, 0)))
    return failure();
  Value bias;
  if (Importer::hasInput(node, 2)) {
    FailureOr<Value> b = importer.getInput(node, 2);
    if (failed(b))
      return failure();
    bias = *b;
  }
  RankedTensorType type = Importer::getType(*x);
  Type element = type.getElementType();
  FailureOr<int64_t> axis =
      normalizeAxis(importer, node, *axisAttr, type.getRank());
  if (failed(axis))
    return failure();
  for (Value v : {*scale, bias})
    if (v && (Importer::getType(v).getElementType() != element ||
              !reference::broadcastsTo(Importer::getType(v).getShape(),
                                       type.getShape())))
      return importer.nodeError(node, "scale and bias must broadcast to the "
                                      "input and have its type");
  // One graph.layer_norm where its outputs Mean and InvStdDev go unused and
  // the parameters hold one value per row position.
  ArrayRef<int64_t> row = type.getShape().drop_front(*axis);
  auto isRowParameter = [&](Value v) {
    return LayerNormOp::isRowShaped(Importer::getType(v).getShape(),
                                    type.getShape(), *axis);
  };
  if (element.isF32() && !importer.isOutputUsed(node, 1) &&
      !importer.isOutputUsed(node, 2) && isRowParameter(*scale) &&
      (!bias || isRowParameter(bias))) {
    Value rowScale = createReshape(importer, node, *scale, row);
    Value rowBias = bias ? createReshape(importer, node, bias, row) : Value();
    OpBuilder &b = importer.getBuilder();
    Value y = LayerNormOp::create(b, importer.getLoc(node), type, *x, rowScale,
                                  rowBias, b.getI64IntegerAttr(*axis),
                                  b.getF32FloatAttr(*epsilon));
    return importer.setOutput(node, 0, y);
  }
  SmallVector<int64_t> axes;
  for (int64_t d = *axis; d < type.getRank(); ++d)
    axes.push_back(d);
  // ONNX's function: Mean, D = X - Mean, Var = mean(D * D),
  // InvStdDev = 1 / sqrt(Var + epsilon), Y = D * InvStdDev * Scale + B.
  Value mean = createReduce<ReduceMeanOp>(importer, node, *x, axes, true);
  Value d = createBinary<SubOp>(importer, node, *x, mean);
  Value dd = createBinary<MulOp>(importer, node, d, d);
  Value var = createReduce<ReduceMeanOp>(importer, node, dd, axes, true);
  Value varEps = createBinary<AddOp>(
      importer, node, var, createSplat(importer, node, {}, element, *epsilon));
  Value invStdDev = createUnary<ReciprocalOp>(
      importer, node, createUnary<SqrtOp>(importer, node, varEps));
  Value normalized = createBinary<MulOp>(importer, node, d, invStdDev);
  Value y = createBinary<MulOp>(importer, node, normalized, *scale);
  if (bias)
    y = createBinary<AddOp>(importer, node, y, bias);
  if (failed(importer.setOutput(node, 0, y)))
    return failure();
  if (importer.isOutputUsed(node, 1) &&
      failed(importer.setOutput(node, 1, mean)))
    return failure();
  if (importer.isOutputUsed(node, 2) &&
      failed(importer.setOutput(node, 2, invStdDev)))
    return failure();
  return success();
}

LogicalResult mlir::graph::onnx_import::importInstanceNormalization(
    Importer &importer, const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<float> epsilon = attrs.getFloat("epsilon", 1e-5f);
  FailureOr<Value> x = importer.getInput(node, 0);
  FailureOr<Value> scale = importer.getInput(node, 1);
  FailureOr<Value> bias = importer.getInput(node, 2);
  if (failed(epsilon) || failed(x) || failed(scale) || failed(bias) ||
      failed(checkFloatType(importer, node, *x, 0)))
    return failure();
  RankedTensorType type = Importer::getType(*x);
  Type element = type.getElementType();
  int64_t rank = type.getRank();
  if (rank < 3)
    return importer.nodeError(node, "the input has rank < 3");
  int64_t channels = type.getDimSize(1);
  for (Value v : {*scale, *bias})
    if (Importer::getType(v).getShape() != ArrayRef<int64_t>{channels} ||
        Importer::getType(v).getElementType() != element)
      return importer.nodeError(node, "scale and bias must be 1-D of the "
                                      "channel count and the input's type");
  SmallVector<int64_t> axes, perChannel(rank - 1, 1);
  for (int64_t d = 2; d < rank; ++d)
    axes.push_back(d);
  perChannel[0] = channels;
  // y = scale * (x - mean) / sqrt(var + epsilon) + bias, per instance and
  // channel.
  Value mean = createReduce<ReduceMeanOp>(importer, node, *x, axes, true);
  Value d = createBinary<SubOp>(importer, node, *x, mean);
  Value var = createReduce<ReduceMeanOp>(
      importer, node, createBinary<MulOp>(importer, node, d, d), axes, true);
  Value stdDev = createUnary<SqrtOp>(
      importer, node,
      createBinary<AddOp>(importer, node, var,
                          createSplat(importer, node, {}, element, *epsilon)));
  Value normalized = createBinary<DivOp>(importer, node, d, stdDev);
  Value y =
      createBinary<MulOp>(importer, node, normalized,
                          createReshape(importer, node, *scale, perChannel));
  y = createBinary<AddOp>(importer, node, y,
                          createReshape(importer, node, *bias, perChannel));
  return importer.setOutput(node, 0, y);
}

LogicalResult mlir::graph::onnx_import::importMeanVarianceNormalization(
    Importer &importer, const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<SmallVector<int64_t>> axesAttr = attrs.getInts("axes", {0, 2, 3});
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(axesAttr) || failed(x) ||
      failed(checkFloatType(importer, node, *x, 0)))
    return failure();
  RankedTensorType type = Importer::getType(*x);
  Type element = type.getElementType();
  SmallVector<bool> seen(type.getRank(), false);
  for (int64_t axis : *axesAttr) {
    FailureOr<int64_t> d = normalizeAxis(importer, node, axis, type.getRank());
    if (failed(d))
      return failure();
    seen[*d] = true;
  }
  SmallVector<int64_t> axes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (seen[d])
      axes.push_back(d);
  // ONNX's function: (X - E[X]) / (sqrt(E[X^2] - E[X]^2) + 1e-9).
  Value mean = createReduce<ReduceMeanOp>(importer, node, *x, axes, true);
  Value meanSquared = createBinary<MulOp>(importer, node, mean, mean);
  Value squares = createBinary<MulOp>(importer, node, *x, *x);
  Value meanOfSquares =
      createReduce<ReduceMeanOp>(importer, node, squares, axes, true);
  Value variance =
      createBinary<SubOp>(importer, node, meanOfSquares, meanSquared);
  Value stdDev = createUnary<SqrtOp>(importer, node, variance);
  Value centered = createBinary<SubOp>(importer, node, *x, mean);
  Value denominator = createBinary<AddOp>(
      importer, node, stdDev, createSplat(importer, node, {}, element, 1e-9));
  return importer.setOutput(
      node, 0, createBinary<DivOp>(importer, node, centered, denominator));
}

/// Det: graph.det of the trailing square matrices.
static LogicalResult importDet(Importer &importer,
                               const onnx::NodeProto &node) {
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x) || failed(checkFloatType(importer, node, *x, 0)))
    return failure();
  RankedTensorType type = Importer::getType(*x);
  ArrayRef<int64_t> shape = type.getShape();
  if (shape.size() < 2 || shape.back() != shape[shape.size() - 2])
    return importer.nodeError(node, "input '" + node.input(0) + "' has shape " +
                                        formatShape(shape) +
                                        "; Det takes square matrices in the "
                                        "last two dimensions");
  OpBuilder &b = importer.getBuilder();
  Value det = DetOp::create(
      b, importer.getLoc(node),
      importer.getTensorType(shape.drop_back(2), type.getElementType()), *x);
  return importer.setOutput(node, 0, det);
}

void mlir::graph::onnx_import::registerReductionOps(OpRegistry &registry) {
  registry.on({"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin",
               "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum",
               "ReduceLogSumExp", "ReduceSumSquare"},
              1, importReduce);
  registry.on({"ArgMax", "ArgMin"}, 1, importArgReduce);
  registry.on("TopK", 1, importTopK);
  registry.on("CumSum", 11, importCumSum);
  registry.on("Det", 11, importDet);
  registry.on("LogSoftmax", 1, importLogSoftmax);
  registry.on("Hardmax", 1, importHardmax);
  registry.on("GlobalMaxPool", 1, importGlobalPool);
  registry.on("InstanceNormalization", 1, importInstanceNormalization);
  registry.on("MeanVarianceNormalization", 9, importMeanVarianceNormalization);
  registry.on("LayerNormalization", 17, importLayerNormalization);
}
