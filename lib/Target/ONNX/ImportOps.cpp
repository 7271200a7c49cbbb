//===- ImportOps.cpp - ONNX operators to graph ops ------------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One builder per ONNX operator: it reads the node's attributes and inputs,
// computes the result shape (ShapeInference.h) and creates the graph ops.
// Whatever a builder cannot import exactly (an attribute value, a rank, an
// output that is read) is reported as unsupported, naming the node. This
// file has the core operators (convolution, pooling, the products, the
// spec's activations and arithmetic, Softmax, Dropout, Identity); each
// Import*.cpp registers its own (registerCoreOps here).
//
//===----------------------------------------------------------------------===//

#include "ImportHelpers.h"

#include "llvm/Support/FormatVariadic.h"

#include <cfloat>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::onnx_import;

namespace {

//===----------------------------------------------------------------------===//
// Convolution and normalization
//===----------------------------------------------------------------------===//

static LogicalResult importConv(Importer &importer,
                                const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<Value> input = importer.getInput(node, 0);
  FailureOr<Value> weight = importer.getInput(node, 1);
  if (failed(input) || failed(weight))
    return failure();
  // 3-D, other element types: the N-d op. 1-D: conv2d on an H of 1.
  int64_t rank = Importer::getType(*input).getRank();
  if (rank == 5 || !Importer::getType(*input).getElementType().isF32())
    return importConvND(importer, node);
  if (rank != 3 && rank != 4)
    return importer.nodeError(node, "input '" + node.input(0) + "' has rank " +
                                        Twine(rank) +
                                        "; Conv takes 1-D to 3-D inputs");
  if (failed(checkRank(importer, node, *weight, 1, rank,
                       "the weight must have the input's rank")))
    return failure();
  Value bias;
  if (Importer::hasInput(node, 2)) {
    FailureOr<Value> b = importer.getInput(node, 2);
    if (failed(b))
      return failure();
    bias = *b;
  }
  ArrayRef<int64_t> inputShape = Importer::getType(*input).getShape();
  ArrayRef<int64_t> weightShape = Importer::getType(*weight).getShape();
  FailureOr<int64_t> groups = attrs.getInt("group", 1);
  if (failed(groups))
    return failure();
  if (*groups < 1 || inputShape[1] % *groups != 0 ||
      weightShape[0] % *groups != 0 ||
      inputShape[1] / *groups != weightShape[1])
    return importer.nodeError(
        node, "input of shape " + formatShape(inputShape) +
                  " and weight of shape " + formatShape(weightShape) +
                  " do not match with group " + Twine(*groups));
  if (bias &&
      Importer::getType(bias).getShape() != ArrayRef<int64_t>{weightShape[0]})
    return importer.nodeError(
        node,
        "bias of shape " + formatShape(Importer::getType(bias).getShape()) +
            " does not match " + Twine(weightShape[0]) + " output channels");

  FailureOr<Window> window =
      readWindow(importer, node, attrs, inputShape.drop_front(2),
                 weightShape.drop_front(2), /*isPool=*/false);
  if (failed(window))
    return failure();
  Value x = *input, w = *weight;
  if (rank == 3) {
    // 1-D as 2-D over a height of 1: the same sums, the fast path.
    x = createReshape(importer, node, x,
                      {inputShape[0], inputShape[1], 1, inputShape[2]});
    w = createReshape(importer, node, w,
                      {weightShape[0], weightShape[1], 1, weightShape[2]});
    window->kernel.insert(window->kernel.begin(), 1);
    window->strides.insert(window->strides.begin(), 1);
    window->dilations.insert(window->dilations.begin(), 1);
    window->padding = {0, window->padding[0], 0, window->padding[1]};
    window->outputSize.insert(window->outputSize.begin(), 1);
  }
  OpBuilder &b = importer.getBuilder();
  RankedTensorType type =
      importer.getTensorType({inputShape[0], weightShape[0],
                              window->outputSize[0], window->outputSize[1]});
  Value result = Conv2DOp::create(b, importer.getLoc(node), type, x, w, bias,
                                  b.getDenseI64ArrayAttr(window->strides),
                                  b.getDenseI64ArrayAttr(window->padding),
                                  b.getDenseI64ArrayAttr(window->dilations),
                                  b.getI64IntegerAttr(*groups));
  if (rank == 3)
    result =
        createReshape(importer, node, result,
                      {inputShape[0], weightShape[0], window->outputSize[1]});
  return importer.setOutput(node, 0, result);
}

static LogicalResult importBatchNormalization(Importer &importer,
                                              const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<float> epsilon = attrs.getFloat("epsilon", 1e-5f);
  FailureOr<int64_t> training = attrs.getInt("training_mode", 0);
  FailureOr<int64_t> spatial = attrs.getInt("spatial", 1);
  // Before opset 7, `is_test` 0 asked for training statistics.
  FailureOr<int64_t> isTest = attrs.getInt("is_test", 1);
  if (failed(epsilon) || failed(training) || failed(spatial) || failed(isTest))
    return failure();
  if (importer.getOpset() < 7 && *isTest == 0 &&
      (importer.isOutputUsed(node, 1) || importer.isOutputUsed(node, 2)))
    return importer.nodeError(node, "is_test 0 (training) is not supported");
  if (*training != 0)
    return importer.nodeError(node, "training_mode 1 is not supported");
  if (*spatial != 1)
    return importer.nodeError(node, "spatial 0 is not supported");
  if (failed(checkOnlyFirstOutputUsed(importer, node, "training statistics")))
    return failure();

  SmallVector<Value, 5> operands;
  for (int i = 0; i < 5; ++i) {
    FailureOr<Value> operand = importer.getInput(node, i);
    if (failed(operand))
      return failure();
    operands.push_back(*operand);
  }
  RankedTensorType type = Importer::getType(operands[0]);
  for (int i = 0; i < 5; ++i)
    if (failed(checkFloat32(importer, node, operands[i], i)))
      return failure();
  if (type.getRank() < 2)
    return importer.nodeError(node, "input '" + node.input(0) + "' has rank " +
                                        Twine(type.getRank()) +
                                        ", expected at least 2");
  for (int i = 1; i < 5; ++i)
    if (Importer::getType(operands[i]).getShape() !=
        ArrayRef<int64_t>{type.getDimSize(1)})
      return importer.nodeError(
          node, "input '" + node.input(i) + "' of shape " +
                    formatShape(Importer::getType(operands[i]).getShape()) +
                    " does not match " + Twine(type.getDimSize(1)) +
                    " channels");
  OpBuilder &b = importer.getBuilder();
  Value result = BatchNormOp::create(
      b, importer.getLoc(node), type, operands[0], operands[1], operands[2],
      operands[3], operands[4], b.getF32FloatAttr(*epsilon),
      /*layout=*/LayoutAttr());
  return importer.setOutput(node, 0, result);
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// Relu, Sigmoid, Tanh: the f32 core ops; Relu of other numbers is
/// max(x, 0).
template <typename OpTy>
static LogicalResult importUnary(Importer &importer,
                                 const onnx::NodeProto &node) {
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x))
    return failure();
  Type element = Importer::getType(*x).getElementType();
  if (!element.isF32()) {
    if (!std::is_same_v<OpTy, ReluOp> || element.isInteger(1))
      return checkFloat32(importer, node, *x, 0);
    Value zero = createSplat(importer, node, {}, element, 0);
    return importer.setOutput(node, 0,
                              createBinary<MaxOp>(importer, node, *x, zero));
  }
  Value result = OpTy::create(importer.getBuilder(), importer.getLoc(node),
                              Importer::getType(*x), *x);
  return importer.setOutput(node, 0, result);
}

/// Clip: bounds from the attributes before opset 11, from the inputs (maybe
/// computed at run time) after. f32 with constant bounds is graph.clip; any
/// other case max(x, min) then min(., max), the same operations.
static LogicalResult importClip(Importer &importer,
                                const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x))
    return failure();
  Type element = Importer::getType(*x).getElementType();
  if (element.isInteger(1))
    return importer.nodeError(node, "Clip of BOOL is not defined");
  // Bound i: a constant value, a run-time value, or absent.
  std::optional<double> constant[2];
  Value dynamic[2];
  if (importer.getOpset() < 11) {
    // An absent bound is the lowest or largest finite float.
    FailureOr<float> min = attrs.getFloat("min", -FLT_MAX);
    FailureOr<float> max = attrs.getFloat("max", FLT_MAX);
    if (failed(min) || failed(max))
      return failure();
    constant[0] = *min;
    constant[1] = *max;
  } else {
    for (int i = 0; i < 2; ++i) {
      if (!Importer::hasInput(node, i + 1))
        continue;
      if (const ConstantTensor *bound =
              importer.getConstantInput(node, i + 1)) {
        if (bound->getNumElements() != 1 ||
            getMLIRElementType(importer.getContext(), bound->elementType) !=
                element)
          return importer.nodeError(node, "bound '" + node.input(i + 1) +
                                              "' must be a scalar of the "
                                              "input's type");
        constant[i] = bound->getDoubles()[0];
        continue;
      }
      FailureOr<Value> bound = importer.getInput(node, i + 1);
      if (failed(bound))
        return failure();
      if (Importer::getType(*bound).getNumElements() != 1 ||
          Importer::getType(*bound).getElementType() != element)
        return importer.nodeError(node, "bound '" + node.input(i + 1) +
                                            "' must be a scalar of the "
                                            "input's type");
      dynamic[i] = createReshape(importer, node, *bound, {});
    }
  }
  OpBuilder &b = importer.getBuilder();
  if (element.isF32() && !dynamic[0] && !dynamic[1]) {
    Value result = ClipOp::create(
        b, importer.getLoc(node), Importer::getType(*x), *x,
        b.getF32FloatAttr(constant[0] ? float(*constant[0]) : -FLT_MAX),
        b.getF32FloatAttr(constant[1] ? float(*constant[1]) : FLT_MAX));
    return importer.setOutput(node, 0, result);
  }
  Value result = *x;
  for (int i = 0; i < 2; ++i) {
    Value bound = dynamic[i];
    if (!bound && constant[i])
      bound = createSplat(importer, node, {}, element, *constant[i]);
    if (!bound)
      continue;
    result = i == 0 ? createBinary<MaxOp>(importer, node, result, bound)
                    : createBinary<MinOp>(importer, node, result, bound);
  }
  return importer.setOutput(node, 0, result);
}

/// Add, Sub, Mul, Div on numbers of one type. Before opset 7, `broadcast`
/// aligned rhs with lhs at `axis` (default: the trailing dimensions), which
/// a reshape of rhs turns into NumPy broadcasting.
template <typename OpTy>
static LogicalResult importBinary(Importer &importer,
                                  const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> legacyBroadcast = attrs.getInt("broadcast", 0);
  FailureOr<Value> lhs = importer.getInput(node, 0);
  FailureOr<Value> rhs = importer.getInput(node, 1);
  if (failed(legacyBroadcast) || failed(lhs) || failed(rhs))
    return failure();
  RankedTensorType lhsType = Importer::getType(*lhs);
  RankedTensorType rhsType = Importer::getType(*rhs);
  if (lhsType.getElementType() != rhsType.getElementType())
    return importer.nodeError(
        node,
        "operands of types " +
            getElementTypeName(getONNXElementType(lhsType.getElementType())) +
            " and " +
            getElementTypeName(getONNXElementType(rhsType.getElementType())) +
            " differ");
  if (lhsType.getElementType().isInteger(1))
    return importer.nodeError(node, "arithmetic on BOOL is not defined");
  ArrayRef<int64_t> lhsShape = lhsType.getShape();
  ArrayRef<int64_t> rhsShape = rhsType.getShape();
  Value right = *rhs;
  if (importer.getOpset() < 7) {
    if (*legacyBroadcast == 0) {
      if (lhsShape != rhsShape)
        return importer.nodeError(node, "shapes " + formatShape(lhsShape) +
                                            " and " + formatShape(rhsShape) +
                                            " differ without 'broadcast'");
    } else {
      int64_t rank = lhsShape.size(), rhsRank = rhsShape.size();
      FailureOr<int64_t> axis = attrs.getInt("axis", rank - rhsRank);
      if (failed(axis))
        return failure();
      if (*axis < 0)
        *axis += rank;
      if (*axis < 0 || *axis + rhsRank > rank)
        return importer.nodeError(node, "'axis' " + Twine(*axis) +
                                            " does not place the rhs inside "
                                            "the lhs");
      SmallVector<int64_t> shape(*axis, 1);
      shape.append(rhsShape.begin(), rhsShape.end());
      shape.resize(rank, 1);
      right = createReshape(importer, node, right, shape);
    }
  }
  FailureOr<SmallVector<int64_t>> shape =
      broadcastOf(importer, node, *lhs, right);
  if (failed(shape))
    return failure();
  return importer.setOutput(node, 0,
                            createBinary<OpTy>(importer, node, *lhs, right));
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

static LogicalResult importMatMul(Importer &importer,
                                  const onnx::NodeProto &node) {
  FailureOr<Value> a = importer.getInput(node, 0);
  FailureOr<Value> b = importer.getInput(node, 1);
  if (failed(a) || failed(b))
    return failure();
  ArrayRef<int64_t> aShape = Importer::getType(*a).getShape();
  ArrayRef<int64_t> bShape = Importer::getType(*b).getShape();
  // N-d, 1-D and other element types: batch_matmul.
  if (aShape.size() != 2 || bShape.size() != 2 ||
      !Importer::getType(*a).getElementType().isF32())
    return importBatchMatMul(importer, node);
  if (aShape[1] != bShape[0])
    return importer.nodeError(node, "shapes " + formatShape(aShape) + " and " +
                                        formatShape(bShape) +
                                        " do not multiply");
  Value result =
      MatMulOp::create(importer.getBuilder(), importer.getLoc(node),
                       importer.getTensorType({aShape[0], bShape[1]}), *a, *b);
  return importer.setOutput(node, 0, result);
}

static LogicalResult importGemm(Importer &importer,
                                const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<float> alpha = attrs.getFloat("alpha", 1.0f);
  FailureOr<float> beta = attrs.getFloat("beta", 1.0f);
  FailureOr<int64_t> transA = attrs.getInt("transA", 0);
  FailureOr<int64_t> transB = attrs.getInt("transB", 0);
  FailureOr<int64_t> legacyBroadcast = attrs.getInt("broadcast", 1);
  FailureOr<Value> a = importer.getInput(node, 0);
  FailureOr<Value> b = importer.getInput(node, 1);
  if (failed(alpha) || failed(beta) || failed(transA) || failed(transB) ||
      failed(legacyBroadcast) || failed(a) || failed(b) ||
      failed(checkFloat32(importer, node, *a, 0)) ||
      failed(checkFloat32(importer, node, *b, 1)))
    return failure();
  Value c;
  if (Importer::hasInput(node, 2)) {
    FailureOr<Value> operand = importer.getInput(node, 2);
    if (failed(operand))
      return failure();
    c = *operand;
  }
  ArrayRef<int64_t> aShape = Importer::getType(*a).getShape();
  ArrayRef<int64_t> bShape = Importer::getType(*b).getShape();
  if (aShape.size() != 2 || bShape.size() != 2)
    return importer.nodeError(
        node, "operands of shapes " + formatShape(aShape) + " and " +
                  formatShape(bShape) + " are not matrices");
  int64_t m = *transA ? aShape[1] : aShape[0];
  int64_t k = *transA ? aShape[0] : aShape[1];
  int64_t kb = *transB ? bShape[1] : bShape[0];
  int64_t n = *transB ? bShape[0] : bShape[1];
  if (k != kb)
    return importer.nodeError(
        node, "shapes " + formatShape(aShape) + " and " + formatShape(bShape) +
                  " do not multiply with transA " + Twine(*transA) +
                  ", transB " + Twine(*transB));
  SmallVector<int64_t> shape = {m, n};
  if (c) {
    ArrayRef<int64_t> cShape = Importer::getType(c).getShape();
    std::optional<SmallVector<int64_t>> broadcast =
        broadcastShapes(cShape, shape);
    if (!broadcast || *broadcast != shape ||
        (*legacyBroadcast == 0 && cShape != ArrayRef<int64_t>(shape)))
      return importer.nodeError(node, "C of shape " + formatShape(cShape) +
                                          " does not broadcast to " +
                                          formatShape(shape));
  }
  OpBuilder &builder = importer.getBuilder();
  Value result = GemmOp::create(
      builder, importer.getLoc(node), importer.getTensorType(shape), *a, *b, c,
      builder.getF32FloatAttr(*alpha), builder.getF32FloatAttr(*beta),
      *transA ? builder.getUnitAttr() : UnitAttr(),
      *transB ? builder.getUnitAttr() : UnitAttr());
  return importer.setOutput(node, 0, result);
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

static LogicalResult importMaxPool(Importer &importer,
                                   const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x))
    return failure();
  RankedTensorType type = Importer::getType(*x);
  FailureOr<SmallVector<int64_t>> dilations = attrs.getInts("dilations", {});
  if (failed(dilations))
    return failure();
  // Other ranks, dilations and element types: the N-d op.
  if (type.getRank() != 4 || !type.getElementType().isF32() ||
      llvm::any_of(*dilations, [](int64_t d) { return d != 1; }))
    return importPoolND(importer, node);
  ArrayRef<int64_t> shape = type.getShape();
  FailureOr<Window> window =
      readWindow(importer, node, attrs, shape.drop_front(2), std::nullopt,
                 /*isPool=*/true);
  if (failed(window))
    return failure();
  OpBuilder &b = importer.getBuilder();
  Value result = MaxPool2DOp::create(
      b, importer.getLoc(node),
      importer.getTensorType(
          {shape[0], shape[1], window->outputSize[0], window->outputSize[1]}),
      *x, b.getDenseI64ArrayAttr(window->kernel),
      b.getDenseI64ArrayAttr(window->strides),
      b.getDenseI64ArrayAttr(window->padding));
  if (failed(importer.setOutput(node, 0, result)))
    return failure();
  return setMaxPoolIndices(importer, node, *x, *window);
}

static LogicalResult importAveragePool(Importer &importer,
                                       const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> countIncludePad = attrs.getInt("count_include_pad", 0);
  FailureOr<Value> x = importer.getInput(node, 0);
  FailureOr<SmallVector<int64_t>> dilations = attrs.getInts("dilations", {});
  if (failed(countIncludePad) || failed(x) || failed(dilations))
    return failure();
  RankedTensorType type = Importer::getType(*x);
  if (type.getRank() != 4 || !type.getElementType().isF32() ||
      llvm::any_of(*dilations, [](int64_t d) { return d != 1; }))
    return importPoolND(importer, node);
  ArrayRef<int64_t> shape = Importer::getType(*x).getShape();
  FailureOr<Window> window =
      readWindow(importer, node, attrs, shape.drop_front(2), std::nullopt,
                 /*isPool=*/true);
  if (failed(window))
    return failure();
  // The cells that ceil_mode adds beyond the pads are never counted, even
  // with count_include_pad; the padding that emulates it would be.
  if (window->ceilPadding && *countIncludePad)
    return importer.nodeError(node, "ceil_mode 1 with count_include_pad 1 "
                                    "is not supported");
  OpBuilder &b = importer.getBuilder();
  Value result = AvgPool2DOp::create(
      b, importer.getLoc(node),
      importer.getTensorType(
          {shape[0], shape[1], window->outputSize[0], window->outputSize[1]}),
      *x, b.getDenseI64ArrayAttr(window->kernel),
      b.getDenseI64ArrayAttr(window->strides),
      b.getDenseI64ArrayAttr(window->padding),
      *countIncludePad ? b.getUnitAttr() : UnitAttr());
  return importer.setOutput(node, 0, result);
}

static LogicalResult importGlobalAveragePool(Importer &importer,
                                             const onnx::NodeProto &node) {
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x))
    return failure();
  if (Importer::getType(*x).getRank() != 4 ||
      !Importer::getType(*x).getElementType().isF32())
    return importGlobalPool(importer, node);
  ArrayRef<int64_t> shape = Importer::getType(*x).getShape();
  Value result = GlobalAvgPoolOp::create(
      importer.getBuilder(), importer.getLoc(node),
      importer.getTensorType({shape[0], shape[1], 1, 1}), *x);
  return importer.setOutput(node, 0, result);
}

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

static LogicalResult importSoftmax(Importer &importer,
                                   const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  bool coerceTo2D = importer.getOpset() < 13;
  FailureOr<int64_t> axis = attrs.getInt("axis", coerceTo2D ? 1 : -1);
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(axis) || failed(x) || failed(checkFloat32(importer, node, *x, 0)))
    return failure();
  RankedTensorType type = Importer::getType(*x);
  int64_t rank = type.getRank();
  FailureOr<int64_t> normalized = normalizeAxis(importer, node, *axis, rank);
  if (failed(normalized))
    return failure();
  OpBuilder &b = importer.getBuilder();
  Location loc = importer.getLoc(node);
  if (!coerceTo2D || *normalized == rank - 1) {
    Value result =
        SoftmaxOp::create(b, loc, type, *x, b.getI64IntegerAttr(*normalized));
    return importer.setOutput(node, 0, result);
  }
  // Before opset 13, Softmax normalizes over all the dimensions from `axis`
  // on, as one: flatten to 2-D there, softmax the rows, and shape back.
  ArrayRef<int64_t> shape = type.getShape();
  RankedTensorType flatType =
      importer.getTensorType({getNumElements(shape.take_front(*normalized)),
                              getNumElements(shape.drop_front(*normalized))});
  Value flat =
      FlattenOp::create(b, loc, flatType, *x, b.getI64IntegerAttr(*normalized));
  Value softmax =
      SoftmaxOp::create(b, loc, flatType, flat, b.getI64IntegerAttr(1));
  Value result =
      ReshapeOp::create(b, loc, type, softmax, b.getDenseI64ArrayAttr(shape));
  return importer.setOutput(node, 0, result);
}

//===----------------------------------------------------------------------===//
// Dropout, Identity
//===----------------------------------------------------------------------===//

/// A constant scalar input, or `absent` when it is not given.
static FailureOr<const ConstantTensor *>
getConstantScalar(Importer &importer, const onnx::NodeProto &node, int index,
                  StringRef what) {
  if (!Importer::hasInput(node, index))
    return static_cast<const ConstantTensor *>(nullptr);
  const ConstantTensor *tensor = importer.getConstantInput(node, index);
  if (!tensor)
    return importer.nodeError(node, what + " '" + node.input(index) +
                                        "' is not a constant, which is not "
                                        "supported");
  if (tensor->getNumElements() != 1 ||
      (!tensor->isFloat() && !tensor->isInteger() &&
       tensor->elementType != onnx::TensorProto::BOOL))
    return importer.nodeError(node, what + " '" + node.input(index) +
                                        "' is not a scalar");
  return tensor;
}

static LogicalResult importDropout(Importer &importer,
                                   const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  float ratio = 0.5f;
  bool training = false;
  if (importer.getOpset() < 12) {
    FailureOr<float> attr = attrs.getFloat("ratio", 0.5f);
    FailureOr<int64_t> isTest = attrs.getInt("is_test", 1);
    if (failed(attr) || failed(isTest))
      return failure();
    ratio = *attr;
    // Opset 6 trains unless is_test; later opsets before 12 never do.
    training = importer.getOpset() < 7 && *isTest == 0;
  } else {
    FailureOr<const ConstantTensor *> trainingInput =
        getConstantScalar(importer, node, 2, "training_mode");
    if (failed(trainingInput))
      return failure();
    if (*trainingInput) {
      if ((*trainingInput)->isFloat())
        return importer.nodeError(node, "training_mode '" + node.input(2) +
                                            "' is not a BOOL scalar");
      training = (*trainingInput)->getInts()[0] != 0;
    }
    // The ratio only matters in training; in inference it may be computed.
    if (training || !Importer::hasInput(node, 1) ||
        importer.getConstantInput(node, 1)) {
      FailureOr<const ConstantTensor *> ratioInput =
          getConstantScalar(importer, node, 1, "ratio");
      if (failed(ratioInput))
        return failure();
      if (*ratioInput) {
        if (!(*ratioInput)->isFloat())
          return importer.nodeError(node, "ratio '" + node.input(1) +
                                              "' is not a FLOAT scalar");
        ratio = (*ratioInput)->getFloats()[0];
      }
    }
  }
  if (training && importer.isOutputUsed(node, 1))
    return importer.nodeError(node, "output '" + node.output(1) +
                                        "' (the mask of training dropout) is "
                                        "not supported");
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x))
    return failure();
  OpBuilder &b = importer.getBuilder();
  Value result = *x;
  if (training) {
    if (failed(checkFloat32(importer, node, *x, 0)))
      return failure();
    result = DropoutOp::create(b, importer.getLoc(node), Importer::getType(*x),
                               *x, b.getF32FloatAttr(ratio), b.getUnitAttr());
  } else if (Importer::getType(*x).getElementType().isF32()) {
    result = DropoutOp::create(b, importer.getLoc(node), Importer::getType(*x),
                               *x, b.getF32FloatAttr(ratio), UnitAttr());
  }
  if (failed(importer.setOutput(node, 0, result)))
    return failure();
  // In inference the mask keeps everything.
  if (importer.isOutputUsed(node, 1))
    return importer.setOutput(node, 1,
                              createSplat(importer, node,
                                          Importer::getType(*x).getShape(),
                                          b.getI1Type(), 1));
  return success();
}

static LogicalResult importIdentity(Importer &importer,
                                    const onnx::NodeProto &node) {
  if (const ConstantTensor *constant = importer.getConstantInput(node, 0)) {
    importer.setConstantOutput(node, 0, constant);
    return success();
  }
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x))
    return failure();
  return importer.setOutput(node, 0, *x);
}

} // namespace

void mlir::graph::onnx_import::registerCoreOps(OpRegistry &registry) {
  // Convolution, normalization, linear algebra, pooling.
  registry.on("Conv", 1, importConv);
  registry.on("BatchNormalization", 1, importBatchNormalization);
  registry.on("MatMul", 1, importMatMul);
  registry.on("Gemm", 1, importGemm);
  registry.on("MaxPool", 1, importMaxPool);
  registry.on("AveragePool", 1, importAveragePool);
  registry.on("GlobalAveragePool", 1, importGlobalAveragePool);
  // Activations and arithmetic.
  registry.on("Relu", 1, importUnary<ReluOp>);
  registry.on("Sigmoid", 1, importUnary<SigmoidOp>);
  registry.on("Tanh", 1, importUnary<TanhOp>);
  registry.on("Clip", 1, importClip);
  registry.on("Add", 1, importBinary<AddOp>);
  registry.on("Sub", 1, importBinary<SubOp>);
  registry.on("Mul", 1, importBinary<MulOp>);
  registry.on("Div", 1, importBinary<DivOp>);
  registry.on("Softmax", 1, importSoftmax);
  // Dropout and identity.
  registry.on("Dropout", 1, importDropout);
  registry.on("Identity", 1, importIdentity);
}
