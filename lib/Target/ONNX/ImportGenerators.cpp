//===- ImportGenerators.cpp - Tensors made from a shape or a pattern ------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Constant, ConstantOfShape, Range, EyeLike and the signal windows (Hann,
// Hamming, Blackman) are compile-time tensors where their operands are
// constants, RandomUniform one drawn at import from its seed;
// Trilu and OneHot are selections by constant masks or by comparisons with
// a constant iota. The values that a shape computation produces from
// constants fold at import (Importer::setOutput).
//
//===----------------------------------------------------------------------===//

#include "ImportHelpers.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::onnx_import;

//===----------------------------------------------------------------------===//
// ConstantOfShape, Range, EyeLike
//===----------------------------------------------------------------------===//

LogicalResult
mlir::graph::onnx_import::importConstantOfShape(Importer &importer,
                                                const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  // The shape of a value of run-time size: a tensor of its bound, with its
  // extent.
  std::optional<Importer::RunTimeShape> runTimeShape =
      importer.getRunTimeShape(node, 0);
  FailureOr<std::optional<SmallVector<int64_t>>> shape =
      runTimeShape ? std::optional(runTimeShape->bounds)
                   : getConstantInts(importer, node, 0, "shape");
  if (failed(shape))
    return failure();
  if (!*shape || !isValidShape(**shape, /*allowEmpty=*/true))
    return importer.nodeError(node, "the shape is missing, negative or too "
                                    "large");
  Type element = importer.getBuilder().getF32Type();
  double value = 0;
  if (const onnx::AttributeProto *attr = attrs.find("value")) {
    FailureOr<const ConstantTensor *> tensor =
        importer.readTensor(attr->t(), importer.getFileLoc(), node.output(0));
    if (failed(tensor) || (*tensor)->getNumElements() != 1)
      return importer.nodeError(node, "attribute 'value' is not a one-element "
                                      "tensor");
    element = getMLIRElementType(importer.getContext(), (*tensor)->elementType);
    if (!element)
      return importer.nodeError(node, "the value's type is not supported");
    value = (*tensor)->getDoubles()[0];
  }
  Value result = createSplat(importer, node, **shape, element, value);
  if (runTimeShape)
    return importer.setRunTimeSizeOutput(node, 0, result, runTimeShape->dim,
                                         runTimeShape->count);
  return importer.setOutput(node, 0, result);
}

LogicalResult
mlir::graph::onnx_import::importRange(Importer &importer,
                                      const onnx::NodeProto &node) {
  const ConstantTensor *bounds[3];
  for (int i = 0; i < 3; ++i) {
    bounds[i] = importer.getConstantInput(node, i);
    if (!bounds[i] || bounds[i]->getNumElements() != 1)
      return importer.nodeError(node, "start, limit and delta must be constant "
                                      "scalars (the output's size depends on "
                                      "them)");
  }
  Type element =
      getMLIRElementType(importer.getContext(), bounds[0]->elementType);
  if (!element || element.isInteger(1))
    return importer.nodeError(node, "the type is not supported");
  double start = bounds[0]->getDoubles()[0];
  double limit = bounds[1]->getDoubles()[0];
  double delta = bounds[2]->getDoubles()[0];
  if (delta == 0)
    return importer.nodeError(node, "delta is 0");
  double count = std::max(std::ceil((limit - start) / delta), 0.0);
  if (!(count < double(int64_t(1) << 32)))
    return importer.nodeError(node, "the range is too long");
  SmallVector<double> values;
  if (isa<FloatType>(element)) {
    // In the element type, as ONNX's reference (start + i * delta).
    for (int64_t i = 0; i < int64_t(count); ++i) {
      if (element.isF64())
        values.push_back(start + double(i) * delta);
      else
        values.push_back(float(float(start) + float(i) * float(delta)));
    }
  } else {
    int64_t s = bounds[0]->getInts()[0], d = bounds[2]->getInts()[0];
    for (int64_t i = 0; i < int64_t(count); ++i)
      values.push_back(double(s + i * d));
  }
  return importer.setOutput(node, 0,
                            createConstantOf(importer, node,
                                             {int64_t(values.size())}, element,
                                             values));
}

/// HannWindow, HammingWindow, BlackmanWindow: a constant of `size` (a
/// constant scalar) values sum_j a_j cos(2 pi j n / N), N the size
/// (periodic) or the size - 1 (symmetric), in double and rounded once to
/// the output type.
LogicalResult
mlir::graph::onnx_import::importWindow(Importer &importer,
                                       const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> periodic = attrs.getInt("periodic", 1);
  FailureOr<int64_t> outputType =
      attrs.getInt("output_datatype", onnx::TensorProto::FLOAT);
  if (failed(periodic) || failed(outputType))
    return failure();
  const ConstantTensor *size = importer.getConstantInput(node, 0);
  if (!size || size->getNumElements() != 1)
    return importer.nodeError(node, "the size must be a constant scalar (the "
                                    "output's size depends on it)");
  Type element = getMLIRElementType(importer.getContext(), *outputType);
  if (!element || element.isInteger(1))
    return importer.nodeError(node, "output_datatype " + Twine(*outputType) +
                                        " is not supported");
  int64_t count = size->getInts()[0];
  if (count < 1 || count > (int64_t(1) << 24))
    return importer.nodeError(node,
                              "size " + Twine(count) + " is not in [1, 2^24]");
  StringRef type = node.op_type();
  SmallVector<double, 3> coefficients =
      type == "HannWindow"      ? SmallVector<double, 3>{0.5, -0.5}
      : type == "HammingWindow" ? SmallVector<double, 3>{25.0 / 46, -21.0 / 46}
                                : SmallVector<double, 3>{0.42, -0.5, 0.08};
  double period = *periodic || count == 1 ? double(count) : double(count - 1);
  SmallVector<double> values;
  for (int64_t n = 0; n < count; ++n) {
    double value = 0;
    for (auto [j, a] : llvm::enumerate(coefficients))
      value += a * std::cos(2 * M_PI * double(j) * double(n) / period);
    values.push_back(value);
  }
  return importer.setOutput(
      node, 0, createConstantOf(importer, node, {count}, element, values));
}

LogicalResult
mlir::graph::onnx_import::importEyeLike(Importer &importer,
                                        const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> k = attrs.getInt("k", 0);
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(k) || failed(x))
    return failure();
  RankedTensorType type = Importer::getType(*x);
  if (type.getRank() != 2)
    return importer.nodeError(node, "the input is not 2-D");
  Type element = type.getElementType();
  if (attrs.has("dtype")) {
    FailureOr<int64_t> dtype = attrs.getInt("dtype", 0);
    if (failed(dtype))
      return failure();
    element = getMLIRElementType(importer.getContext(), int32_t(*dtype));
    if (!element)
      return importer.nodeError(node, "dtype is not supported");
  }
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  SmallVector<double> values;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      values.push_back(j - i == *k ? 1 : 0);
  return importer.setOutput(
      node, 0, createConstantOf(importer, node, {rows, cols}, element, values));
}

//===----------------------------------------------------------------------===//
// Trilu, OneHot
//===----------------------------------------------------------------------===//

LogicalResult
mlir::graph::onnx_import::importTrilu(Importer &importer,
                                      const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> upper = attrs.getInt("upper", 1);
  FailureOr<Value> x = importer.getInput(node, 0);
  FailureOr<std::optional<SmallVector<int64_t>>> k =
      getConstantInts(importer, node, 1, "k");
  if (failed(upper) || failed(x) || failed(k))
    return failure();
  RankedTensorType type = Importer::getType(*x);
  if (type.getRank() < 2)
    return importer.nodeError(node, "the input has rank < 2");
  int64_t diagonal = *k && !(*k)->empty() ? (**k)[0] : 0;
  int64_t rows = type.getDimSize(type.getRank() - 2);
  int64_t cols = type.getDimSize(type.getRank() - 1);
  // x where the element is kept, zero elsewhere: a constant mask.
  SmallVector<double> mask;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      mask.push_back(*upper ? j - i >= diagonal : j - i <= diagonal);
  OpBuilder &b = importer.getBuilder();
  Value keep =
      createConstantOf(importer, node, {rows, cols}, b.getI1Type(), mask);
  Value zero = createSplat(importer, node, {}, type.getElementType(), 0);
  return importer.setOutput(node, 0,
                            createWhere(importer, node, keep, *x, zero));
}

LogicalResult
mlir::graph::onnx_import::importOneHot(Importer &importer,
                                       const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> axisAttr = attrs.getInt("axis", -1);
  FailureOr<Value> indicesOr = importer.getInput(node, 0);
  FailureOr<Value> valuesOr = importer.getInput(node, 2);
  if (failed(axisAttr) || failed(indicesOr) || failed(valuesOr))
    return failure();
  const ConstantTensor *depthTensor = importer.getConstantInput(node, 1);
  if (!depthTensor || depthTensor->getNumElements() != 1)
    return importer.nodeError(node, "depth is not a constant scalar (the "
                                    "output's shape depends on it)");
  int64_t depth = int64_t(depthTensor->getDoubles()[0]);
  if (depth < 1)
    return importer.nodeError(node, "depth " + Twine(depth) +
                                        " is not "
                                        "positive");
  Value values = *valuesOr;
  if (Importer::getType(values).getNumElements() != 2)
    return importer.nodeError(node, "values must hold [off, on]");
  OpBuilder &b = importer.getBuilder();
  Type element = Importer::getType(values).getElementType();
  Value flat = createReshape(importer, node, values, {2});
  Value off = createSlice(importer, node, flat, {0}, {1}, {1});
  Value on = createSlice(importer, node, flat, {1}, {1}, {1});
  off = createReshape(importer, node, off, {});
  on = createReshape(importer, node, on, {});
  // Indices as integers, negative ones counted from the end.
  Value indices = createCast(importer, node, *indicesOr, b.getI64Type());
  Value depthValue = createSplat(importer, node, {}, b.getI64Type(), depth);
  Value zero = createSplat(importer, node, {}, b.getI64Type(), 0);
  Value negative = createCompare<LessOp>(importer, node, indices, zero);
  indices = createWhere(
      importer, node, negative,
      createBinary<AddOp>(importer, node, indices, depthValue), indices);
  ArrayRef<int64_t> shape = Importer::getType(indices).getShape();
  int64_t rank = shape.size() + 1;
  FailureOr<int64_t> axis = normalizeAxis(importer, node, *axisAttr, rank);
  if (failed(axis))
    return failure();
  SmallVector<int64_t> expanded(shape.begin(), shape.end());
  expanded.insert(expanded.begin() + *axis, 1);
  indices = createReshape(importer, node, indices, expanded);
  SmallVector<int64_t> iotaShape(rank, 1);
  iotaShape[*axis] = depth;
  SmallVector<double> iota;
  for (int64_t i = 0; i < depth; ++i)
    iota.push_back(i);
  Value positions =
      createConstantOf(importer, node, iotaShape, b.getI64Type(), iota);
  Value hot = createCompare<EqualOp>(importer, node, indices, positions);
  Value result = createWhere(importer, node, hot, on, off);
  (void)element;
  return importer.setOutput(node, 0, result);
}

//===----------------------------------------------------------------------===//
// Constant, RandomUniform
//===----------------------------------------------------------------------===//

/// A compile-time tensor from a Constant node's scalar or list attribute.
template <typename T>
static const ConstantTensor *
makeConstant(Importer &importer, const onnx::NodeProto &node,
             int32_t elementType, ArrayRef<T> values, bool scalar) {
  ConstantTensor tensor;
  tensor.name = node.output(0);
  tensor.elementType = elementType;
  if (!scalar)
    tensor.shape.push_back(values.size());
  std::vector<char> storage(values.size() * sizeof(T));
  if (!values.empty())
    std::memcpy(storage.data(), values.data(), storage.size());
  return importer.addConstant(std::move(tensor), std::move(storage));
}

static LogicalResult importConstant(Importer &importer,
                                    const onnx::NodeProto &node) {
  if (node.attribute_size() != 1)
    return importer.nodeError(node, "expected exactly one attribute");
  const onnx::AttributeProto &attr = node.attribute(0);
  StringRef name = attr.name();
  const ConstantTensor *tensor = nullptr;
  if (name == "value" && attr.has_t()) {
    // The value's own name is optional; the output names it.
    FailureOr<const ConstantTensor *> read =
        importer.readTensor(attr.t(), importer.getFileLoc(), node.output(0));
    if (failed(read))
      return importer.nodeError(node, "cannot read its value");
    tensor = *read;
  } else if (name == "value_float") {
    float value = attr.f();
    tensor = makeConstant<float>(importer, node, onnx::TensorProto::FLOAT,
                                 value, /*scalar=*/true);
  } else if (name == "value_floats") {
    SmallVector<float> values(attr.floats().begin(), attr.floats().end());
    tensor = makeConstant<float>(importer, node, onnx::TensorProto::FLOAT,
                                 values, /*scalar=*/false);
  } else if (name == "value_int") {
    int64_t value = attr.i();
    tensor = makeConstant<int64_t>(importer, node, onnx::TensorProto::INT64,
                                   value, /*scalar=*/true);
  } else if (name == "value_ints") {
    SmallVector<int64_t> values(attr.ints().begin(), attr.ints().end());
    tensor = makeConstant<int64_t>(importer, node, onnx::TensorProto::INT64,
                                   values, /*scalar=*/false);
  } else {
    return importer.nodeError(node,
                              "attribute '" + name + "' is not supported");
  }
  importer.setConstantOutput(node, 0, tensor);
  return success();
}

static LogicalResult importRandomUniform(Importer &importer,
                                         const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> dtype = attrs.getInt("dtype", onnx::TensorProto::FLOAT);
  FailureOr<float> low = attrs.getFloat("low", 0.0f);
  FailureOr<float> high = attrs.getFloat("high", 1.0f);
  FailureOr<float> seed = attrs.getFloat("seed", 0.0f);
  FailureOr<SmallVector<int64_t>> shape = attrs.getInts("shape", {});
  if (failed(dtype) || failed(low) || failed(high) || failed(seed) ||
      failed(shape))
    return failure();
  if (*dtype != onnx::TensorProto::FLOAT)
    return importer.nodeError(node, "dtype " +
                                        getElementTypeName(int32_t(*dtype)) +
                                        " is not supported, only FLOAT");
  if (!attrs.has("shape"))
    return importer.nodeError(node, "attribute 'shape' is missing");
  if (!isValidShape(*shape))
    return importer.nodeError(node, "shape " + formatList(*shape) +
                                        " is empty or too large");
  // ONNX's seed is a float; graph's an integer: its value, truncated.
  std::optional<int64_t> integerSeed = truncateToInt64(*seed);
  if (!integerSeed)
    return importer.nodeError(
        node, "seed " + llvm::formatv("{0}", double(*seed)).str() +
                  " is not a finite number in the "
                  "range of int64");
  OpBuilder &b = importer.getBuilder();
  Value result = RandomUniformOp::create(
      b, importer.getLoc(node), importer.getTensorType(*shape),
      b.getDenseI64ArrayAttr(*shape), b.getF32FloatAttr(*low),
      b.getF32FloatAttr(*high), b.getI64IntegerAttr(*integerSeed));
  return importer.setOutput(node, 0, result);
}

void mlir::graph::onnx_import::registerGeneratorOps(OpRegistry &registry) {
  registry.on("Constant", 1, importConstant);
  registry.on("RandomUniform", 1, importRandomUniform);
  registry.on("Trilu", 14, importTrilu);
  registry.on("OneHot", 9, importOneHot);
  registry.on("ConstantOfShape", 9, importConstantOfShape);
  registry.on("EyeLike", 9, importEyeLike);
  registry.on("Range", 11, importRange);
  registry.on({"HannWindow", "HammingWindow", "BlackmanWindow"}, 17,
              importWindow);
}
