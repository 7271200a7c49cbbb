//===- ImportQuant.cpp - QuantizeLinear, QLinearConv, ConvInteger, ... ----===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The quantized operators of ONNX in terms of graph.quantize,
// graph.dequantize, graph.conv_integer and graph.matmul_integer:
//  - QuantizeLinear, DequantizeLinear: one op each, a per-axis scale and
//    zero point reshaped to broadcast along `axis` (ones elsewhere), a
//    missing zero point a zero of the default type (uint8 to quantize);
//  - DynamicQuantizeLinear: the scale and zero point computed from the
//    input's range as the spec writes them, then graph.quantize;
//  - ConvInteger, MatMulInteger: the integer ops, exact in i32;
//  - QLinearConv, QLinearMatMul: the integer op, its i32 result dequantized
//    with the product of the input scales (and the bias added in i32), then
//    quantized with the output's scale and zero point.
//
//===----------------------------------------------------------------------===//

#include "ImportHelpers.h"

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::onnx_import;

namespace {

/// A scale or zero point `value`: a scalar (or a one-element 1-D tensor)
/// as a scalar, else 1-D of `length` elements (`what` says along what, for
/// the message) reshaped to `aligned`.
static FailureOr<Value> alignParameter(Importer &importer,
                                       const onnx::NodeProto &node, Value value,
                                       StringRef name, int64_t length,
                                       const Twine &what,
                                       ArrayRef<int64_t> aligned) {
  ArrayRef<int64_t> dims = Importer::getType(value).getShape();
  if (dims.empty())
    return value;
  if (dims.size() == 1 && dims[0] == 1)
    return createReshape(importer, node, value, {});
  if (dims.size() != 1 || dims[0] != length)
    return importer.nodeError(node, Twine(name) + " of shape " +
                                        formatShape(dims) +
                                        " is neither a scalar nor 1-D of the " +
                                        Twine(length) + " elements " + what);
  return createReshape(importer, node, value, aligned);
}

/// The scale or zero point `value` of a tensor of `shape`, reshaped to
/// broadcast onto it: a scalar as it is, a 1-D tensor of shape[axis]
/// elements with ones on the other dimensions.
static FailureOr<Value> alignToAxis(Importer &importer,
                                    const onnx::NodeProto &node, Value value,
                                    StringRef name, ArrayRef<int64_t> shape,
                                    int64_t axis) {
  bool inRange = axis >= 0 && axis < int64_t(shape.size());
  SmallVector<int64_t> aligned(shape.size(), 1);
  if (inRange)
    aligned[axis] = shape[axis];
  return alignParameter(
      importer, node, value, name, inRange ? shape[axis] : -1,
      "along axis " + Twine(axis) + " of " + formatShape(shape), aligned);
}

/// Input `index` if given, else a scalar zero of `elementType`.
static FailureOr<Value> getZeroPoint(Importer &importer,
                                     const onnx::NodeProto &node, int index,
                                     Type elementType) {
  if (Importer::hasInput(node, index))
    return importer.getInput(node, index);
  return createSplat(importer, node, {}, elementType, 0);
}

static bool isEightBit(Type type) {
  auto integer = dyn_cast<IntegerType>(type);
  return integer && integer.getWidth() == 8;
}

/// Checks that input `index` (`value`) is an 8-bit integer tensor.
static LogicalResult checkEightBit(Importer &importer,
                                   const onnx::NodeProto &node, Value value,
                                   int index) {
  if (isEightBit(Importer::getType(value).getElementType()))
    return success();
  return importer.nodeError(node, "input '" + node.input(index) + "' is a " +
                                      typeName(value) +
                                      " tensor; int8 or uint8 expected");
}

static Value createQuantize(Importer &importer, const onnx::NodeProto &node,
                            Value x, Value scale, Value zeroPoint) {
  RankedTensorType type = Importer::getType(x);
  return QuantizeOp::create(
      importer.getBuilder(), importer.getLoc(node),
      importer.getTensorType(type.getShape(),
                             Importer::getType(zeroPoint).getElementType()),
      x, scale, zeroPoint);
}

static Value createDequantize(Importer &importer, const onnx::NodeProto &node,
                              Value x, Value scale, Value zeroPoint) {
  return DequantizeOp::create(
      importer.getBuilder(), importer.getLoc(node),
      importer.getTensorType(Importer::getType(x).getShape(),
                             Importer::getType(scale).getElementType()),
      x, scale, zeroPoint);
}

/// The `axis` attribute (opset 13+), negative values counted from `rank`.
/// Only a per-axis scale reads it; alignToAxis checks it then.
static FailureOr<int64_t> getAxis(NodeAttributes &attrs, int64_t rank) {
  FailureOr<int64_t> axis = attrs.getInt("axis", 1);
  if (failed(axis))
    return failure();
  return *axis < 0 ? *axis + rank : *axis;
}

//===----------------------------------------------------------------------===//
// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear
//===----------------------------------------------------------------------===//

static LogicalResult importQuantizeLinear(Importer &importer,
                                          const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> blockSize = attrs.getInt("block_size", 0);
  FailureOr<int64_t> outputType = attrs.getInt("output_dtype", 0);
  FailureOr<Value> x = importer.getInput(node, 0);
  FailureOr<Value> scale = importer.getInput(node, 1);
  if (failed(blockSize) || failed(outputType) || failed(x) || failed(scale) ||
      failed(checkFloatType(importer, node, *scale, 1)))
    return failure();
  if (*blockSize != 0)
    return importer.nodeError(node, "blocked quantization (block_size " +
                                        Twine(*blockSize) +
                                        ") is not supported");
  ArrayRef<int64_t> shape = Importer::getType(*x).getShape();
  FailureOr<int64_t> axis = getAxis(attrs, shape.size());
  if (failed(axis))
    return failure();
  Type scaleType = Importer::getType(*scale).getElementType();
  // int32 inputs (opset 10 to 18) are divided as floats, as the spec's
  // reference does.
  Type xType = Importer::getType(*x).getElementType();
  if (!isa<FloatType>(xType) && !xType.isInteger(32))
    return importer.nodeError(node, "input '" + node.input(0) + "' is a " +
                                        typeName(*x) +
                                        " tensor; a float or int32 expected");
  Value input = createCast(importer, node, *x, scaleType);

  Type quantized =
      IntegerType::get(importer.getContext(), 8, IntegerType::Unsigned);
  if (*outputType != 0) {
    quantized = getMLIRElementType(importer.getContext(), *outputType);
    if (!quantized)
      return importer.nodeError(node, "output_dtype " + Twine(*outputType) +
                                          " is not a type this importer "
                                          "knows");
  }
  FailureOr<Value> zeroPoint = getZeroPoint(importer, node, 2, quantized);
  if (failed(zeroPoint))
    return failure();
  Type zeroType = Importer::getType(*zeroPoint).getElementType();
  auto integer = dyn_cast<IntegerType>(zeroType);
  if (!integer || (integer.getWidth() != 8 && integer.getWidth() != 16))
    return importer.nodeError(node, "quantizing to " + typeName(*zeroPoint) +
                                        " is not supported (int8, uint8, "
                                        "int16 and uint16 are)");
  FailureOr<Value> alignedScale =
      alignToAxis(importer, node, *scale, "y_scale", shape, *axis);
  FailureOr<Value> alignedZero =
      alignToAxis(importer, node, *zeroPoint, "y_zero_point", shape, *axis);
  if (failed(alignedScale) || failed(alignedZero))
    return failure();
  return importer.setOutput(
      node, 0,
      createQuantize(importer, node, input, *alignedScale, *alignedZero));
}

static LogicalResult importDequantizeLinear(Importer &importer,
                                            const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> blockSize = attrs.getInt("block_size", 0);
  FailureOr<Value> x = importer.getInput(node, 0);
  FailureOr<Value> scale = importer.getInput(node, 1);
  if (failed(blockSize) || failed(x) || failed(scale) ||
      failed(checkFloatType(importer, node, *scale, 1)))
    return failure();
  if (*blockSize != 0)
    return importer.nodeError(node, "blocked quantization (block_size " +
                                        Twine(*blockSize) +
                                        ") is not supported");
  Type xType = Importer::getType(*x).getElementType();
  auto integer = dyn_cast<IntegerType>(xType);
  if (!integer || !(integer.getWidth() == 8 || integer.getWidth() == 16 ||
                    (integer.getWidth() == 32 && !integer.isUnsigned())))
    return importer.nodeError(node, "input '" + node.input(0) + "' is a " +
                                        typeName(*x) +
                                        " tensor; int8, uint8, int16, uint16 "
                                        "or int32 expected");
  ArrayRef<int64_t> shape = Importer::getType(*x).getShape();
  FailureOr<int64_t> axis = getAxis(attrs, shape.size());
  FailureOr<Value> zeroPoint = getZeroPoint(importer, node, 2, xType);
  if (failed(axis) || failed(zeroPoint))
    return failure();
  if (Importer::getType(*zeroPoint).getElementType() != xType)
    return importer.nodeError(node, "x_zero_point is a " +
                                        typeName(*zeroPoint) + " tensor, x a " +
                                        typeName(*x) + " one");
  FailureOr<Value> alignedScale =
      alignToAxis(importer, node, *scale, "x_scale", shape, *axis);
  FailureOr<Value> alignedZero =
      alignToAxis(importer, node, *zeroPoint, "x_zero_point", shape, *axis);
  if (failed(alignedScale) || failed(alignedZero))
    return failure();
  return importer.setOutput(
      node, 0,
      createDequantize(importer, node, *x, *alignedScale, *alignedZero));
}

/// The spec's formulas: scale = (max(x, 0) - min(x, 0)) / 255, zero point
/// = saturate(round(-min(x, 0) / scale)), y = saturate(round(x / scale) +
/// zero point), in f32 and uint8.
static LogicalResult importDynamicQuantizeLinear(Importer &importer,
                                                 const onnx::NodeProto &node) {
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x) || failed(checkFloat32(importer, node, *x, 0)))
    return failure();
  RankedTensorType type = Importer::getType(*x);
  if (type.getNumElements() == 0)
    return importer.nodeError(node, "the input is empty: its range is not "
                                    "defined");
  SmallVector<int64_t> axes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    axes.push_back(d);
  Type f32 = type.getElementType();
  auto scalar = [&](double value) {
    return createSplat(importer, node, {}, f32, value);
  };
  Value zero = scalar(0);
  Value low = createBinary<MinOp>(
      importer, node,
      createReduce<ReduceMinOp>(importer, node, *x, axes, false), zero);
  Value high = createBinary<MaxOp>(
      importer, node,
      createReduce<ReduceMaxOp>(importer, node, *x, axes, false), zero);
  Value scale = createBinary<DivOp>(
      importer, node, createBinary<SubOp>(importer, node, high, low),
      scalar(255));
  Value shift = createUnary<RoundOp>(
      importer, node,
      createBinary<DivOp>(importer, node,
                          createBinary<SubOp>(importer, node, zero, low),
                          scale));
  shift = createBinary<MinOp>(importer, node,
                              createBinary<MaxOp>(importer, node, shift, zero),
                              scalar(255));
  Type u8 = IntegerType::get(importer.getContext(), 8, IntegerType::Unsigned);
  Value zeroPoint = createCast(importer, node, shift, u8);
  Value y = createQuantize(importer, node, *x, scale, zeroPoint);
  if (failed(importer.setOutput(node, 0, y)) ||
      failed(importer.setOutput(node, 1, scale)))
    return failure();
  return importer.setOutput(node, 2, zeroPoint);
}

//===----------------------------------------------------------------------===//
// ConvInteger, QLinearConv
//===----------------------------------------------------------------------===//

/// conv_integer of inputs `x`, `w` with their zero points (`wZero` scalar
/// or per filter), ONNX Conv's attributes.
static FailureOr<Value> createConvInteger(Importer &importer,
                                          const onnx::NodeProto &node, Value x,
                                          Value w, Value xZero, Value wZero) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> groups = attrs.getInt("group", 1);
  if (failed(groups))
    return failure();
  ArrayRef<int64_t> in = Importer::getType(x).getShape();
  ArrayRef<int64_t> ws = Importer::getType(w).getShape();
  if (in.size() < 3 || in.size() > 5 || ws.size() != in.size())
    return importer.nodeError(
        node, "input of shape " + formatShape(in) + " and weight of shape " +
                  formatShape(ws) + " are not a 1-D to 3-D convolution");
  if (*groups < 1 || in[1] % *groups != 0 || ws[0] % *groups != 0 ||
      in[1] / *groups != ws[1])
    return importer.nodeError(node,
                              "input of shape " + formatShape(in) +
                                  " and weight of shape " + formatShape(ws) +
                                  " do not match with group " + Twine(*groups));
  FailureOr<Value> alignedX =
      alignToAxis(importer, node, xZero, "the input zero point", in, -1);
  FailureOr<Value> alignedW =
      alignToAxis(importer, node, wZero, "the weight zero point", ws, 0);
  if (failed(alignedX) || failed(alignedW))
    return failure();
  if (Importer::getType(xZero).getElementType() !=
          Importer::getType(x).getElementType() ||
      Importer::getType(wZero).getElementType() !=
          Importer::getType(w).getElementType())
    return importer.nodeError(node, "a zero point's type differs from its "
                                    "input's");
  FailureOr<Window> window = readWindow(importer, node, attrs, in.drop_front(2),
                                        ws.drop_front(2), /*isPool=*/false);
  if (failed(window))
    return failure();
  SmallVector<int64_t> shape = {in[0], ws[0]};
  shape.append(window->outputSize.begin(), window->outputSize.end());
  OpBuilder &b = importer.getBuilder();
  return Value(ConvIntegerOp::create(
      b, importer.getLoc(node), importer.getTensorType(shape, b.getI32Type()),
      x, w, *alignedX, *alignedW, b.getDenseI64ArrayAttr(window->strides),
      b.getDenseI64ArrayAttr(window->padding),
      b.getDenseI64ArrayAttr(window->dilations), b.getI64IntegerAttr(*groups)));
}

/// The inputs of ConvInteger and MatMulInteger: two 8-bit tensors and their
/// zero points (zeros of their types when absent).
struct IntegerOperands {
  Value x, w, xZero, wZero;
};

static FailureOr<IntegerOperands>
readIntegerOperands(Importer &importer, const onnx::NodeProto &node) {
  FailureOr<Value> x = importer.getInput(node, 0);
  FailureOr<Value> w = importer.getInput(node, 1);
  if (failed(x) || failed(w) || failed(checkEightBit(importer, node, *x, 0)) ||
      failed(checkEightBit(importer, node, *w, 1)))
    return failure();
  FailureOr<Value> xZero =
      getZeroPoint(importer, node, 2, Importer::getType(*x).getElementType());
  FailureOr<Value> wZero =
      getZeroPoint(importer, node, 3, Importer::getType(*w).getElementType());
  if (failed(xZero) || failed(wZero))
    return failure();
  return IntegerOperands{*x, *w, *xZero, *wZero};
}

static LogicalResult importConvInteger(Importer &importer,
                                       const onnx::NodeProto &node) {
  FailureOr<IntegerOperands> in = readIntegerOperands(importer, node);
  if (failed(in))
    return failure();
  FailureOr<Value> result =
      createConvInteger(importer, node, in->x, in->w, in->xZero, in->wZero);
  if (failed(result))
    return failure();
  return importer.setOutput(node, 0, *result);
}

/// Requantizes an i32 accumulator `acc` whose scale is `inScale` (the
/// product of the operands' scales, broadcasting onto it) to the output's
/// `scale` and `zeroPoint`.
static Value requantize(Importer &importer, const onnx::NodeProto &node,
                        Value acc, Value inScale, Value scale,
                        Value zeroPoint) {
  Value zero =
      createSplat(importer, node, {}, importer.getBuilder().getI32Type(), 0);
  Value real = createDequantize(importer, node, acc, inScale, zero);
  return createQuantize(importer, node, real, scale, zeroPoint);
}

/// The eight inputs of QLinearConv and QLinearMatMul: x, its scale and zero
/// point, w, its scale and zero point, the output's scale and zero point;
/// 8-bit integers and f32 scales.
struct QLinearOperands {
  Value x, xScale, xZero, w, wScale, wZero, yScale, yZero;
};

static FailureOr<QLinearOperands>
readQLinearOperands(Importer &importer, const onnx::NodeProto &node) {
  SmallVector<Value, 8> in;
  for (int i = 0; i < 8; ++i) {
    FailureOr<Value> value = importer.getInput(node, i);
    if (failed(value))
      return failure();
    in.push_back(*value);
  }
  for (int i : {0, 3, 7})
    if (failed(checkEightBit(importer, node, in[i], i)))
      return failure();
  for (int i : {1, 4, 6})
    if (failed(checkFloat32(importer, node, in[i], i)))
      return failure();
  return QLinearOperands{in[0], in[1], in[2], in[3],
                         in[4], in[5], in[6], in[7]};
}

static LogicalResult importQLinearConv(Importer &importer,
                                       const onnx::NodeProto &node) {
  FailureOr<QLinearOperands> in = readQLinearOperands(importer, node);
  if (failed(in))
    return failure();
  auto [x, xScale, xZero, w, wScale, wZero, yScale, yZero] = *in;
  FailureOr<Value> acc = createConvInteger(importer, node, x, w, xZero, wZero);
  if (failed(acc))
    return failure();
  ArrayRef<int64_t> shape = Importer::getType(*acc).getShape();
  if (Importer::hasInput(node, 8)) {
    FailureOr<Value> bias = importer.getInput(node, 8);
    if (failed(bias))
      return failure();
    if (!Importer::getType(*bias).getElementType().isSignlessInteger(32))
      return importer.nodeError(node, "the bias is a " + typeName(*bias) +
                                          " tensor; int32 expected");
    FailureOr<Value> aligned =
        alignToAxis(importer, node, *bias, "the bias", shape, 1);
    if (failed(aligned))
      return failure();
    *acc = createBinary<AddOp>(importer, node, *acc, *aligned);
  }
  FailureOr<Value> xs =
      alignToAxis(importer, node, xScale, "x_scale", shape, -1);
  FailureOr<Value> ws =
      alignToAxis(importer, node, wScale, "w_scale", shape, 1);
  FailureOr<Value> ys =
      alignToAxis(importer, node, yScale, "y_scale", shape, -1);
  FailureOr<Value> yz =
      alignToAxis(importer, node, yZero, "y_zero_point", shape, -1);
  if (failed(xs) || failed(ws) || failed(ys) || failed(yz))
    return failure();
  Value inScale = createBinary<MulOp>(importer, node, *xs, *ws);
  return importer.setOutput(
      node, 0, requantize(importer, node, *acc, inScale, *ys, *yz));
}

//===----------------------------------------------------------------------===//
// MatMulInteger, QLinearMatMul
//===----------------------------------------------------------------------===//

/// matmul_integer of `a` by `b` with NumPy matmul's shapes: a 1-D `a` is a
/// row and a 1-D `b` a column, dropped in `finalShape`, the shape the
/// caller reshapes the result to. `aZero` is scalar or per row, `bZero`
/// scalar or per column. `aScale` and `bScale`, when given, are aligned the
/// same way into `inScale`, their product, which broadcasts onto the result.
static FailureOr<Value>
createMatMulInteger(Importer &importer, const onnx::NodeProto &node, Value a,
                    Value b, Value aZero, Value bZero,
                    SmallVectorImpl<int64_t> &finalShape, Value aScale = {},
                    Value bScale = {}, Value *inScale = nullptr) {
  if (Importer::getType(aZero).getElementType() !=
          Importer::getType(a).getElementType() ||
      Importer::getType(bZero).getElementType() !=
          Importer::getType(b).getElementType())
    return importer.nodeError(node, "a zero point's type differs from its "
                                    "input's");
  FailureOr<MatMulShapes> shapes = prepareMatMul(importer, node, a, b);
  if (failed(shapes))
    return failure();
  ArrayRef<int64_t> shape = shapes->shape;
  int64_t rows = shape[shape.size() - 2], columns = shape.back();
  auto perRow = [&](Value v, StringRef name) {
    return alignParameter(importer, node, v, name, rows, "(one per row of a)",
                          {rows, 1});
  };
  auto perColumn = [&](Value v, StringRef name) {
    return alignParameter(importer, node, v, name, columns,
                          "(one per column of b)", {columns});
  };
  FailureOr<Value> az = perRow(aZero, "a_zero_point");
  FailureOr<Value> bz = perColumn(bZero, "b_zero_point");
  if (failed(az) || failed(bz))
    return failure();
  if (inScale) {
    FailureOr<Value> as = perRow(aScale, "a_scale");
    FailureOr<Value> bs = perColumn(bScale, "b_scale");
    if (failed(as) || failed(bs))
      return failure();
    *inScale = createBinary<MulOp>(importer, node, *as, *bs);
  }
  OpBuilder &builder = importer.getBuilder();
  Value result = MatMulIntegerOp::create(
      builder, importer.getLoc(node),
      importer.getTensorType(shape, builder.getI32Type()), a, b, *az, *bz);
  finalShape.assign(shapes->finalShape.begin(), shapes->finalShape.end());
  return result;
}

static LogicalResult importMatMulInteger(Importer &importer,
                                         const onnx::NodeProto &node) {
  FailureOr<IntegerOperands> in = readIntegerOperands(importer, node);
  if (failed(in))
    return failure();
  SmallVector<int64_t> finalShape;
  FailureOr<Value> result = createMatMulInteger(
      importer, node, in->x, in->w, in->xZero, in->wZero, finalShape);
  if (failed(result))
    return failure();
  return importer.setOutput(node, 0,
                            createReshape(importer, node, *result, finalShape));
}

static LogicalResult importQLinearMatMul(Importer &importer,
                                         const onnx::NodeProto &node) {
  FailureOr<QLinearOperands> in = readQLinearOperands(importer, node);
  if (failed(in))
    return failure();
  auto [a, aScale, aZero, b, bScale, bZero, yScale, yZero] = *in;
  Value inScale;
  SmallVector<int64_t> finalShape;
  FailureOr<Value> acc = createMatMulInteger(
      importer, node, a, b, aZero, bZero, finalShape, aScale, bScale, &inScale);
  if (failed(acc))
    return failure();
  ArrayRef<int64_t> shape = Importer::getType(*acc).getShape();
  FailureOr<Value> ys =
      alignToAxis(importer, node, yScale, "y_scale", shape, -1);
  FailureOr<Value> yz =
      alignToAxis(importer, node, yZero, "y_zero_point", shape, -1);
  if (failed(ys) || failed(yz))
    return failure();
  Value y = requantize(importer, node, *acc, inScale, *ys, *yz);
  return importer.setOutput(node, 0,
                            createReshape(importer, node, y, finalShape));
}

} // namespace

LogicalResult
mlir::graph::onnx_import::importQuantOp(Importer &importer,
                                        const onnx::NodeProto &node) {
  StringRef type = node.op_type();
  if (type == "QuantizeLinear")
    return importQuantizeLinear(importer, node);
  if (type == "DequantizeLinear")
    return importDequantizeLinear(importer, node);
  if (type == "DynamicQuantizeLinear")
    return importDynamicQuantizeLinear(importer, node);
  if (type == "ConvInteger")
    return importConvInteger(importer, node);
  if (type == "QLinearConv")
    return importQLinearConv(importer, node);
  if (type == "MatMulInteger")
    return importMatMulInteger(importer, node);
  return importQLinearMatMul(importer, node);
}

void mlir::graph::onnx_import::registerQuantOps(OpRegistry &registry) {
  registry.on({"QuantizeLinear", "DequantizeLinear", "ConvInteger",
               "QLinearConv", "MatMulInteger", "QLinearMatMul"},
              10, importQuantOp);
  registry.on("DynamicQuantizeLinear", 11, importQuantOp);
}
