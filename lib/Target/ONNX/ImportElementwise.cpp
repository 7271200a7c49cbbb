//===- ImportElementwise.cpp - Math, activations, logic, casts ------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The elementwise ONNX operators. Each is one graph op where the dialect has
// it, or the composition ONNX's own definition gives (Celu, Softsign,
// ThresholdedRelu, Shrink, IsNaN, IsInf, Mean), which computes the same
// operations.
//
//===----------------------------------------------------------------------===//

#include "ImportHelpers.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::onnx_import;

/// Fails (reported) unless both values have the same element type.
static LogicalResult checkSameType(Importer &importer,
                                   const onnx::NodeProto &node, Value a,
                                   Value b) {
  if (Importer::getType(a).getElementType() ==
      Importer::getType(b).getElementType())
    return success();
  return importer.nodeError(node, "inputs of types " + typeName(a) + " and " +
                                      typeName(b) + " differ");
}

//===----------------------------------------------------------------------===//
// Unary math
//===----------------------------------------------------------------------===//

template <typename OpTy>
static Value buildUnary(Importer &importer, const onnx::NodeProto &node,
                        Value x) {
  return createUnary<OpTy>(importer, node, x);
}

LogicalResult
mlir::graph::onnx_import::importMathUnary(Importer &importer,
                                          const onnx::NodeProto &node) {
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x))
    return failure();
  StringRef type = node.op_type();
  bool integerOk = type == "Neg" || type == "Abs" || type == "Sign";
  if (integerOk) {
    if (failed(checkNumeric(importer, node, *x, 0)))
      return failure();
    if (type == "Neg" && isUnsignedGraphInput(*x))
      return importer.nodeError(node, "Neg of an unsigned type is not "
                                      "defined");
  } else if (failed(checkFloatType(importer, node, *x, 0))) {
    return failure();
  }
  using Builder = Value (*)(Importer &, const onnx::NodeProto &, Value);
  Builder build = llvm::StringSwitch<Builder>(type)
                      .Case("Neg", buildUnary<NegOp>)
                      .Case("Abs", buildUnary<AbsOp>)
                      .Case("Sign", buildUnary<SignOp>)
                      .Case("Reciprocal", buildUnary<ReciprocalOp>)
                      .Case("Exp", buildUnary<ExpOp>)
                      .Case("Log", buildUnary<LogOp>)
                      .Case("Sqrt", buildUnary<SqrtOp>)
                      .Case("Erf", buildUnary<ErfOp>)
                      .Case("Floor", buildUnary<FloorOp>)
                      .Case("Ceil", buildUnary<CeilOp>)
                      .Case("Round", buildUnary<RoundOp>)
                      .Case("Sin", buildUnary<SinOp>)
                      .Case("Cos", buildUnary<CosOp>)
                      .Case("Tan", buildUnary<TanOp>)
                      .Case("Asin", buildUnary<AsinOp>)
                      .Case("Acos", buildUnary<AcosOp>)
                      .Case("Atan", buildUnary<AtanOp>)
                      .Case("Sinh", buildUnary<SinhOp>)
                      .Case("Cosh", buildUnary<CoshOp>)
                      .Case("Asinh", buildUnary<AsinhOp>)
                      .Case("Acosh", buildUnary<AcoshOp>)
                      .Case("Atanh", buildUnary<AtanhOp>)
                      .Case("Softplus", buildUnary<SoftplusOp>)
                      .Default(nullptr);
  return importer.setOutput(node, 0, build(importer, node, *x));
}

LogicalResult
mlir::graph::onnx_import::importIsNaN(Importer &importer,
                                      const onnx::NodeProto &node) {
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x) || failed(checkFloatType(importer, node, *x, 0)))
    return failure();
  // x != x exactly when x is NaN (equal is ordered).
  Value same = createCompare<EqualOp>(importer, node, *x, *x);
  return importer.setOutput(node, 0, createUnary<NotOp>(importer, node, same));
}

LogicalResult
mlir::graph::onnx_import::importIsInf(Importer &importer,
                                      const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> positive = attrs.getInt("detect_positive", 1);
  FailureOr<int64_t> negative = attrs.getInt("detect_negative", 1);
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(positive) || failed(negative) || failed(x) ||
      failed(checkFloatType(importer, node, *x, 0)))
    return failure();
  Type element = Importer::getType(*x).getElementType();
  double inf = std::numeric_limits<double>::infinity();
  Value result = createSplat(importer, node, Importer::getType(*x).getShape(),
                             importer.getBuilder().getI1Type(), 0);
  if (*positive)
    result = createCompare<EqualOp>(
        importer, node, *x, createSplat(importer, node, {}, element, inf));
  if (*negative) {
    Value isNegative = createCompare<EqualOp>(
        importer, node, *x, createSplat(importer, node, {}, element, -inf));
    result = *positive ? createBinary<OrOp>(importer, node, result, isNegative)
                       : isNegative;
  }
  return importer.setOutput(node, 0, result);
}

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

LogicalResult
mlir::graph::onnx_import::importActivation(Importer &importer,
                                           const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<Value> xOr = importer.getInput(node, 0);
  if (failed(xOr) || failed(checkFloatType(importer, node, *xOr, 0)))
    return failure();
  Value x = *xOr;
  StringRef type = node.op_type();
  OpBuilder &b = importer.getBuilder();
  Location loc = importer.getLoc(node);
  RankedTensorType xType = Importer::getType(x);
  Type element = xType.getElementType();
  auto scalar = [&](double v) {
    return createSplat(importer, node, {}, element, v);
  };
  Value result;
  if (type == "LeakyRelu") {
    FailureOr<float> alpha = attrs.getFloat("alpha", 0.01f);
    if (failed(alpha))
      return failure();
    result = LeakyReluOp::create(b, loc, xType, x, b.getF32FloatAttr(*alpha));
  } else if (type == "Elu") {
    FailureOr<float> alpha = attrs.getFloat("alpha", 1.0f);
    if (failed(alpha))
      return failure();
    result = EluOp::create(b, loc, xType, x, b.getF32FloatAttr(*alpha));
  } else if (type == "Selu") {
    FailureOr<float> alpha =
        attrs.getFloat("alpha", 1.67326319217681884765625f);
    FailureOr<float> gamma =
        attrs.getFloat("gamma", 1.05070102214813232421875f);
    if (failed(alpha) || failed(gamma))
      return failure();
    result = SeluOp::create(b, loc, xType, x, b.getF32FloatAttr(*alpha),
                            b.getF32FloatAttr(*gamma));
  } else if (type == "HardSigmoid") {
    FailureOr<float> alpha = attrs.getFloat("alpha", 0.2f);
    FailureOr<float> beta = attrs.getFloat("beta", 0.5f);
    if (failed(alpha) || failed(beta))
      return failure();
    result = HardSigmoidOp::create(b, loc, xType, x, b.getF32FloatAttr(*alpha),
                                   b.getF32FloatAttr(*beta));
  } else if (type == "HardSwish") {
    result = HardSwishOp::create(b, loc, xType, x);
  } else if (type == "Gelu") {
    FailureOr<std::string> approximate = attrs.getString("approximate", "none");
    if (failed(approximate))
      return failure();
    if (*approximate != "none" && *approximate != "tanh")
      return importer.nodeError(node, "approximate '" + *approximate +
                                          "' is not none or tanh");
    result =
        GeluOp::create(b, loc, xType, x,
                       *approximate == "tanh" ? b.getUnitAttr() : UnitAttr());
  } else if (type == "Celu") {
    // max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
    FailureOr<float> alphaOr = attrs.getFloat("alpha", 1.0f);
    if (failed(alphaOr))
      return failure();
    Value alpha = scalar(*alphaOr), zero = scalar(0);
    Value scaled = createBinary<DivOp>(importer, node, x, alpha);
    Value e = createUnary<ExpOp>(importer, node, scaled);
    Value m = createBinary<SubOp>(importer, node, e, scalar(1));
    Value negative = createBinary<MinOp>(
        importer, node, zero, createBinary<MulOp>(importer, node, alpha, m));
    result = createBinary<AddOp>(
        importer, node, createBinary<MaxOp>(importer, node, zero, x), negative);
  } else if (type == "ThresholdedRelu") {
    FailureOr<float> alpha = attrs.getFloat("alpha", 1.0f);
    if (failed(alpha))
      return failure();
    Value above = createCompare<GreaterOp>(importer, node, x, scalar(*alpha));
    result = createWhere(importer, node, above, x, scalar(0));
  } else if (type == "Shrink") {
    FailureOr<float> bias = attrs.getFloat("bias", 0.0f);
    FailureOr<float> lambd = attrs.getFloat("lambd", 0.5f);
    if (failed(bias) || failed(lambd))
      return failure();
    Value below = createCompare<LessOp>(importer, node, x, scalar(-*lambd));
    Value above = createCompare<GreaterOp>(importer, node, x, scalar(*lambd));
    Value plus = createBinary<AddOp>(importer, node, x, scalar(*bias));
    Value minus = createBinary<SubOp>(importer, node, x, scalar(*bias));
    result = createWhere(importer, node, below, plus,
                         createWhere(importer, node, above, minus, scalar(0)));
  } else if (type == "Softsign") {
    // x / (1 + |x|).
    Value denominator = createBinary<AddOp>(
        importer, node, scalar(1), createUnary<AbsOp>(importer, node, x));
    result = createBinary<DivOp>(importer, node, x, denominator);
  } else if (type == "Mish") {
    // x * tanh(softplus(x)).
    Value soft = createUnary<SoftplusOp>(importer, node, x);
    if (!element.isF32())
      return checkFloat32(importer, node, x, 0);
    result = createBinary<MulOp>(importer, node, x,
                                 createUnary<TanhOp>(importer, node, soft));
  } else {
    return importer.nodeError(node, "unsupported operator");
  }
  return importer.setOutput(node, 0, result);
}

LogicalResult
mlir::graph::onnx_import::importPRelu(Importer &importer,
                                      const onnx::NodeProto &node) {
  FailureOr<Value> x = importer.getInput(node, 0);
  FailureOr<Value> slope = importer.getInput(node, 1);
  if (failed(x) || failed(slope) ||
      failed(checkFloatType(importer, node, *x, 0)) ||
      failed(checkSameType(importer, node, *x, *slope)))
    return failure();
  ArrayRef<int64_t> xShape = Importer::getType(*x).getShape();
  ArrayRef<int64_t> sShape = Importer::getType(*slope).getShape();
  Value s = *slope;
  // Before opset 7 a 1-D slope of the channel count applies per channel.
  if (importer.getOpset() < 7 && sShape.size() == 1 && xShape.size() > 2 &&
      sShape[0] == xShape[1] && sShape[0] != xShape.back()) {
    SmallVector<int64_t> shape(xShape.size() - 1, 1);
    shape[0] = sShape[0];
    s = createReshape(importer, node, s, shape);
  }
  if (!reference::broadcastsTo(Importer::getType(s).getShape(), xShape))
    return importer.nodeError(node, "slope of shape " + formatShape(sShape) +
                                        " does not broadcast to the input's " +
                                        formatShape(xShape));
  return importer.setOutput(node, 0,
                            createBinary<PReluOp>(importer, node, *x, s));
}

//===----------------------------------------------------------------------===//
// Binary arithmetic
//===----------------------------------------------------------------------===//

/// The two operands of a binary node, checked to broadcast.
static FailureOr<std::pair<Value, Value>>
getBroadcastOperands(Importer &importer, const onnx::NodeProto &node) {
  FailureOr<Value> lhs = importer.getInput(node, 0);
  FailureOr<Value> rhs = importer.getInput(node, 1);
  if (failed(lhs) || failed(rhs) ||
      failed(broadcastOf(importer, node, *lhs, *rhs)))
    return failure();
  return std::make_pair(*lhs, *rhs);
}

LogicalResult mlir::graph::onnx_import::importPow(Importer &importer,
                                                  const onnx::NodeProto &node) {
  FailureOr<std::pair<Value, Value>> operands =
      getBroadcastOperands(importer, node);
  if (failed(operands) ||
      failed(checkNumeric(importer, node, operands->first, 0)) ||
      failed(checkNumeric(importer, node, operands->second, 1)))
    return failure();
  Type baseType = Importer::getType(operands->first).getElementType();
  Type exponentType = Importer::getType(operands->second).getElementType();
  // An integer base with a float exponent: NumPy's power in f64, truncated
  // back to the base's type, as ONNX's reference computes it.
  if (!isa<FloatType>(baseType) && isa<FloatType>(exponentType)) {
    Type f64 = importer.getBuilder().getF64Type();
    Value power = createBinary<PowOp>(
        importer, node, createCast(importer, node, operands->first, f64),
        createCast(importer, node, operands->second, f64));
    return importer.setOutput(node, 0,
                              createCast(importer, node, power, baseType));
  }
  // Integers of two types: in i64, whose wrapped powers truncate to the
  // base type's (a narrower exponent type would wrap the exponent instead).
  if (!isa<FloatType>(baseType) && exponentType != baseType) {
    Type i64 = importer.getBuilder().getI64Type();
    Value power = createBinary<PowOp>(
        importer, node, createCast(importer, node, operands->first, i64),
        createCast(importer, node, operands->second, i64));
    return importer.setOutput(node, 0,
                              createCast(importer, node, power, baseType));
  }
  // Otherwise (a float base, or integers of one type) the exponent takes the
  // base's type.
  Value exponent = createCast(importer, node, operands->second, baseType);
  return importer.setOutput(
      node, 0, createBinary<PowOp>(importer, node, operands->first, exponent));
}

LogicalResult mlir::graph::onnx_import::importMod(Importer &importer,
                                                  const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> fmod = attrs.getInt("fmod", 0);
  FailureOr<std::pair<Value, Value>> operands =
      getBroadcastOperands(importer, node);
  if (failed(fmod) || failed(operands) ||
      failed(checkNumeric(importer, node, operands->first, 0)) ||
      failed(checkSameType(importer, node, operands->first, operands->second)))
    return failure();
  Type element = Importer::getType(operands->first).getElementType();
  if (isa<FloatType>(element) && !*fmod)
    return importer.nodeError(node, "fmod 0 on floats is not defined");
  SmallVector<int64_t> shape = *reference::broadcastShapes(
      Importer::getType(operands->first).getShape(),
      Importer::getType(operands->second).getShape());
  OpBuilder &b = importer.getBuilder();
  Value result = ModOp::create(
      b, importer.getLoc(node), importer.getTensorType(shape, element),
      operands->first, operands->second, *fmod ? b.getUnitAttr() : UnitAttr());
  return importer.setOutput(node, 0, result);
}

LogicalResult
mlir::graph::onnx_import::importBitShift(Importer &importer,
                                         const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<std::string> direction = attrs.getString("direction", "");
  FailureOr<std::pair<Value, Value>> operands =
      getBroadcastOperands(importer, node);
  if (failed(direction) || failed(operands) ||
      failed(checkSameType(importer, node, operands->first, operands->second)))
    return failure();
  if (*direction != "LEFT" && *direction != "RIGHT")
    return importer.nodeError(node, "direction '" + *direction +
                                        "' is not LEFT or RIGHT");
  if (!isUnsignedGraphInput(operands->first))
    return importer.nodeError(node, "input '" + node.input(0) + "' is a " +
                                        typeName(operands->first) +
                                        " tensor; BitShift takes unsigned "
                                        "integers");
  SmallVector<int64_t> shape = *reference::broadcastShapes(
      Importer::getType(operands->first).getShape(),
      Importer::getType(operands->second).getShape());
  OpBuilder &b = importer.getBuilder();
  Value result = BitShiftOp::create(
      b, importer.getLoc(node),
      importer.getTensorType(
          shape, Importer::getType(operands->first).getElementType()),
      operands->first, operands->second,
      *direction == "RIGHT" ? b.getUnitAttr() : UnitAttr());
  return importer.setOutput(node, 0, result);
}

LogicalResult
mlir::graph::onnx_import::importVariadic(Importer &importer,
                                         const onnx::NodeProto &node) {
  FailureOr<SmallVector<Value>> inputs = getInputs(importer, node);
  if (failed(inputs))
    return failure();
  if (inputs->empty())
    return importer.nodeError(node, "no inputs");
  StringRef type = node.op_type();
  for (auto [i, input] : llvm::enumerate(*inputs))
    if (failed(checkNumeric(importer, node, input, i)) ||
        failed(checkSameType(importer, node, (*inputs)[0], input)))
      return failure();
  if (type == "Mean" && failed(checkFloatType(importer, node, (*inputs)[0], 0)))
    return failure();
  // Before opset 8 the inputs have one shape.
  Value result = (*inputs)[0];
  for (Value input : llvm::drop_begin(*inputs)) {
    if (importer.getOpset() < 8 && Importer::getType(input).getShape() !=
                                       Importer::getType(result).getShape())
      return importer.nodeError(node, "inputs of different shapes need opset "
                                      "8");
    if (failed(broadcastOf(importer, node, result, input)))
      return failure();
    if (type == "Min")
      result = createBinary<MinOp>(importer, node, result, input);
    else if (type == "Max")
      result = createBinary<MaxOp>(importer, node, result, input);
    else
      result = createBinary<AddOp>(importer, node, result, input);
  }
  if (type == "Mean" && inputs->size() > 1) {
    Type element = Importer::getType(result).getElementType();
    result = createBinary<DivOp>(
        importer, node, result,
        createSplat(importer, node, {}, element, double(inputs->size())));
  }
  // One input: its value, which the output must be (a copy is free).
  return importer.setOutput(node, 0, result);
}

//===----------------------------------------------------------------------===//
// Comparisons, logic, selection
//===----------------------------------------------------------------------===//

LogicalResult
mlir::graph::onnx_import::importComparison(Importer &importer,
                                           const onnx::NodeProto &node) {
  FailureOr<std::pair<Value, Value>> operands =
      getBroadcastOperands(importer, node);
  if (failed(operands) ||
      failed(checkSameType(importer, node, operands->first, operands->second)))
    return failure();
  StringRef type = node.op_type();
  Value a = operands->first, b = operands->second;
  if (type != "Equal" && failed(checkNumeric(importer, node, a, 0)))
    return failure();
  Value result;
  if (type == "Equal")
    result = createCompare<EqualOp>(importer, node, a, b);
  else if (type == "Less")
    result = createCompare<LessOp>(importer, node, a, b);
  else if (type == "Greater")
    result = createCompare<GreaterOp>(importer, node, a, b);
  else if (type == "LessOrEqual")
    result = createCompare<LessEqualOp>(importer, node, a, b);
  else
    result = createCompare<GreaterEqualOp>(importer, node, a, b);
  return importer.setOutput(node, 0, result);
}

LogicalResult
mlir::graph::onnx_import::importLogic(Importer &importer,
                                      const onnx::NodeProto &node) {
  StringRef type = node.op_type();
  FailureOr<SmallVector<Value>> inputs = getInputs(importer, node);
  if (failed(inputs))
    return failure();
  for (auto [i, input] : llvm::enumerate(*inputs))
    if (!Importer::getType(input).getElementType().isInteger(1))
      return importer.nodeError(node, "input '" + node.input(i) + "' is a " +
                                          typeName(input) +
                                          " tensor; logic takes BOOL");
  if (type == "Not") {
    if (inputs->size() != 1)
      return importer.nodeError(node, "Not takes one input");
    return importer.setOutput(node, 0,
                              createUnary<NotOp>(importer, node, (*inputs)[0]));
  }
  if (inputs->size() != 2)
    return importer.nodeError(node, "expected two inputs");
  Value a = (*inputs)[0], b = (*inputs)[1];
  // Before opset 7, And/Or/Xor took `broadcast` like Add.
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> legacyBroadcast = attrs.getInt("broadcast", 0);
  if (failed(legacyBroadcast))
    return failure();
  if (importer.getOpset() < 7 && *legacyBroadcast) {
    int64_t rank = Importer::getType(a).getRank();
    int64_t rhsRank = Importer::getType(b).getRank();
    FailureOr<int64_t> axis = attrs.getInt("axis", rank - rhsRank);
    if (failed(axis))
      return failure();
    SmallVector<int64_t> shape(*axis, 1);
    ArrayRef<int64_t> rhsShape = Importer::getType(b).getShape();
    shape.append(rhsShape.begin(), rhsShape.end());
    shape.resize(rank, 1);
    b = createReshape(importer, node, b, shape);
  }
  if (failed(broadcastOf(importer, node, a, b)))
    return failure();
  Value result = type == "And"  ? createBinary<AndOp>(importer, node, a, b)
                 : type == "Or" ? createBinary<OrOp>(importer, node, a, b)
                                : createBinary<XorOp>(importer, node, a, b);
  return importer.setOutput(node, 0, result);
}

LogicalResult
mlir::graph::onnx_import::importWhere(Importer &importer,
                                      const onnx::NodeProto &node) {
  FailureOr<SmallVector<Value>> inputs = getInputs(importer, node);
  if (failed(inputs))
    return failure();
  if (inputs->size() != 3)
    return importer.nodeError(node, "expected three inputs");
  Value c = (*inputs)[0], x = (*inputs)[1], y = (*inputs)[2];
  if (!Importer::getType(c).getElementType().isInteger(1))
    return importer.nodeError(node, "condition '" + node.input(0) +
                                        "' is not a BOOL tensor");
  if (failed(checkSameType(importer, node, x, y)))
    return failure();
  FailureOr<SmallVector<int64_t>> shape = broadcastOf(importer, node, c, x);
  if (failed(shape) || failed(broadcastOf(importer, node, x, y)))
    return failure();
  if (!broadcastShapes(*shape, Importer::getType(y).getShape()))
    return importer.nodeError(node, "the three shapes do not broadcast");
  return importer.setOutput(node, 0, createWhere(importer, node, c, x, y));
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

LogicalResult
mlir::graph::onnx_import::importCast(Importer &importer,
                                     const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  Type target;
  if (importer.getOpset() < 6) {
    // Before opset 6 `to` is the type's name.
    FailureOr<std::string> to = attrs.getString("to", "");
    if (failed(to))
      return failure();
    onnx::TensorProto::DataType type;
    if (!onnx::TensorProto::DataType_Parse(*to, &type))
      return importer.nodeError(node, "unknown type '" + *to + "'");
    target = getMLIRElementType(importer.getContext(), type);
  } else {
    if (!attrs.has("to"))
      return importer.nodeError(node, "attribute 'to' is missing");
    FailureOr<int64_t> to = attrs.getInt("to", 0);
    if (failed(to))
      return failure();
    target = getMLIRElementType(importer.getContext(), int32_t(*to));
    if (!target)
      return importer.nodeError(node, "cast to " +
                                          getElementTypeName(int32_t(*to)) +
                                          " is not supported");
  }
  if (!target)
    return importer.nodeError(node, "the target type is not supported");
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x))
    return failure();
  return importer.setOutput(node, 0, createCast(importer, node, *x, target));
}

LogicalResult
mlir::graph::onnx_import::importCastLike(Importer &importer,
                                         const onnx::NodeProto &node) {
  FailureOr<Value> x = importer.getInput(node, 0);
  FailureOr<Value> like = importer.getInput(node, 1);
  if (failed(x) || failed(like))
    return failure();
  return importer.setOutput(
      node, 0,
      createCast(importer, node, *x,
                 Importer::getType(*like).getElementType()));
}

void mlir::graph::onnx_import::registerElementwiseOps(OpRegistry &registry) {
  registry.on({"LeakyRelu", "Elu", "Selu", "HardSigmoid", "Softsign"}, 1,
              importActivation);
  registry.on("Shrink", 9, importActivation);
  registry.on("ThresholdedRelu", 10, importActivation);
  registry.on("Celu", 12, importActivation);
  registry.on("HardSwish", 14, importActivation);
  registry.on("Mish", 18, importActivation);
  registry.on("Gelu", 20, importActivation);
  registry.on("PRelu", 1, importPRelu);
  registry.on("Pow", 1, importPow);
  registry.on("Mod", 10, importMod);
  registry.on("BitShift", 11, importBitShift);
  registry.on({"Min", "Max", "Sum", "Mean"}, 1, importVariadic);
  registry.on({"Neg", "Abs", "Reciprocal", "Exp", "Log", "Sqrt", "Floor",
               "Ceil", "Softplus"},
              1, importMathUnary);
  registry.on({"Sin", "Cos", "Tan", "Asin", "Acos", "Atan"}, 7,
              importMathUnary);
  registry.on({"Sign", "Erf", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh"}, 9,
              importMathUnary);
  registry.on("Round", 11, importMathUnary);
  registry.on("IsNaN", 9, importIsNaN);
  registry.on("IsInf", 10, importIsInf);
  registry.on({"Equal", "Less", "Greater"}, 1, importComparison);
  registry.on({"LessOrEqual", "GreaterOrEqual"}, 12, importComparison);
  registry.on({"And", "Or", "Xor", "Not"}, 1, importLogic);
  registry.on("Where", 9, importWhere);
  registry.on("Cast", 1, importCast);
  registry.on("CastLike", 15, importCastLike);
}
