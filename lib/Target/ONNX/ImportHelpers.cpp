//===- ImportHelpers.cpp - Shared pieces of the operator builders ---------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Implements ImportHelpers.h.
//
//===----------------------------------------------------------------------===//

#include "ImportHelpers.h"

#include "graph/Dialect/Graph/IR/TypedTensor.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::onnx_import;

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

LogicalResult mlir::graph::onnx_import::checkOnlyFirstOutputUsed(
    Importer &importer, const onnx::NodeProto &node, StringRef what) {
  for (int i = 1; i < node.output_size(); ++i)
    if (importer.isOutputUsed(node, i))
      return importer.nodeError(node, "output '" + node.output(i) + "' (" +
                                          what + ") is not supported");
  return success();
}

LogicalResult mlir::graph::onnx_import::checkRank(Importer &importer,
                                                  const onnx::NodeProto &node,
                                                  Value value, int index,
                                                  int64_t rank,
                                                  const Twine &what) {
  int64_t actual = Importer::getType(value).getRank();
  if (actual == rank)
    return success();
  return importer.nodeError(node, what + ": input '" + node.input(index) +
                                      "' has rank " + Twine(actual) +
                                      ", expected " + Twine(rank));
}

LogicalResult mlir::graph::onnx_import::checkFloat32(
    Importer &importer, const onnx::NodeProto &node, Value value, int index) {
  Type type = Importer::getType(value).getElementType();
  if (type.isF32())
    return success();
  return importer.nodeError(node,
                            "input '" + node.input(index) + "' is a " +
                                getElementTypeName(getONNXElementType(type)) +
                                " tensor; this operator supports FLOAT only");
}

LogicalResult mlir::graph::onnx_import::checkFloatType(
    Importer &importer, const onnx::NodeProto &node, Value value, int index) {
  Type type = Importer::getType(value).getElementType();
  if (isa<FloatType>(type))
    return success();
  return importer.nodeError(
      node, "input '" + node.input(index) + "' is a " +
                getElementTypeName(getONNXElementType(type)) +
                " tensor; this operator supports FLOAT, DOUBLE, FLOAT16 and "
                "BFLOAT16");
}

std::string mlir::graph::onnx_import::formatList(ArrayRef<int64_t> values) {
  return "[" +
         llvm::join(llvm::map_range(
                        values, [](int64_t v) { return std::to_string(v); }),
                    ", ") +
         "]";
}

FailureOr<int64_t> mlir::graph::onnx_import::normalizeAxis(
    Importer &importer, const onnx::NodeProto &node, int64_t axis, int64_t rank,
    int64_t extra) {
  if (axis < -rank || axis >= rank + extra)
    return importer.nodeError(node, "axis " + Twine(axis) +
                                        " is out of range for rank " +
                                        Twine(rank));
  return axis < 0 ? axis + rank : axis;
}

FailureOr<SmallVector<Value>>
mlir::graph::onnx_import::getInputs(Importer &importer,
                                    const onnx::NodeProto &node) {
  SmallVector<Value> inputs;
  for (int i = 0; i < node.input_size(); ++i) {
    FailureOr<Value> input = importer.getInput(node, i);
    if (failed(input))
      return failure();
    inputs.push_back(*input);
  }
  return inputs;
}

FailureOr<std::optional<SmallVector<int64_t>>>
mlir::graph::onnx_import::getConstantInts(Importer &importer,
                                          const onnx::NodeProto &node,
                                          int index, StringRef what) {
  if (!Importer::hasInput(node, index))
    return std::optional<SmallVector<int64_t>>();
  const ConstantTensor *tensor = importer.getConstantInput(node, index);
  if (!tensor)
    return importer.nodeError(node, what + " '" + node.input(index) +
                                        "' is not a constant, which is not "
                                        "supported");
  if (!tensor->isInteger() || tensor->shape.size() > 1)
    return importer.nodeError(node, what + " '" + node.input(index) +
                                        "' is not a 0-D or 1-D integer "
                                        "tensor");
  return std::optional<SmallVector<int64_t>>(tensor->getInts());
}

FailureOr<std::optional<SmallVector<int64_t>>>
mlir::graph::onnx_import::getAxes(Importer &importer,
                                  const onnx::NodeProto &node,
                                  NodeAttributes &attrs, int64_t inputOpset,
                                  int index) {
  if (importer.getOpset() >= inputOpset)
    return getConstantInts(importer, node, index, "axes");
  if (!attrs.has("axes"))
    return std::optional<SmallVector<int64_t>>();
  FailureOr<SmallVector<int64_t>> axes = attrs.getInts("axes", {});
  if (failed(axes))
    return failure();
  return std::optional<SmallVector<int64_t>>(*axes);
}

FailureOr<SmallVector<int64_t>> mlir::graph::onnx_import::readReduceAxes(
    Importer &importer, const onnx::NodeProto &node, NodeAttributes &attrs,
    int64_t rank, bool &identity) {
  int64_t inputOpset = node.op_type() == "ReduceSum" ? 13 : 18;
  FailureOr<std::optional<SmallVector<int64_t>>> axes =
      getAxes(importer, node, attrs, inputOpset, 1);
  FailureOr<int64_t> noop = attrs.getInt("noop_with_empty_axes", 0);
  if (failed(axes) || failed(noop))
    return failure();
  identity = false;
  SmallVector<int64_t> result;
  if (!*axes || (*axes)->empty()) {
    if (*noop) {
      identity = true;
      return result;
    }
    for (int64_t d = 0; d < rank; ++d)
      result.push_back(d);
    return result;
  }
  SmallVector<bool> seen(rank, false);
  for (int64_t axis : **axes) {
    FailureOr<int64_t> d = normalizeAxis(importer, node, axis, rank);
    if (failed(d))
      return failure();
    if (seen[*d])
      return importer.nodeError(node, "axis " + Twine(axis) + " is repeated");
    seen[*d] = true;
  }
  for (int64_t d = 0; d < rank; ++d)
    if (seen[d])
      result.push_back(d);
  return result;
}

void mlir::graph::onnx_import::setIntsOutput(Importer &importer,
                                             const onnx::NodeProto &node,
                                             int index,
                                             ArrayRef<int64_t> values,
                                             ArrayRef<int64_t> shape) {
  ConstantTensor tensor;
  tensor.name = node.output(index);
  tensor.elementType = onnx::TensorProto::INT64;
  tensor.shape.assign(shape.begin(), shape.end());
  std::vector<char> storage(values.size() * sizeof(int64_t));
  if (!values.empty())
    std::memcpy(storage.data(), values.data(), storage.size());
  importer.setConstantOutput(
      node, index, importer.addConstant(std::move(tensor), std::move(storage)));
}

//===----------------------------------------------------------------------===//
// Windows
//===----------------------------------------------------------------------===//

FailureOr<Window> mlir::graph::onnx_import::readWindow(
    Importer &importer, const onnx::NodeProto &node, NodeAttributes &attrs,
    ArrayRef<int64_t> inputSize, std::optional<ArrayRef<int64_t>> weightKernel,
    bool isPool) {
  size_t k = inputSize.size();
  Window window;
  FailureOr<SmallVector<int64_t>> kernel =
      attrs.getInts("kernel_shape", weightKernel.value_or(ArrayRef<int64_t>()));
  FailureOr<SmallVector<int64_t>> strides =
      attrs.getInts("strides", SmallVector<int64_t>(k, 1));
  FailureOr<SmallVector<int64_t>> dilations =
      attrs.getInts("dilations", SmallVector<int64_t>(k, 1));
  FailureOr<SmallVector<int64_t>> pads =
      attrs.getInts("pads", SmallVector<int64_t>(2 * k, 0));
  FailureOr<std::string> autoPad = attrs.getString("auto_pad", "NOTSET");
  FailureOr<int64_t> ceilMode = attrs.getInt("ceil_mode", 0);
  if (failed(kernel) || failed(strides) || failed(dilations) || failed(pads) ||
      failed(autoPad) || failed(ceilMode))
    return failure();

  if (kernel->size() != k)
    return importer.nodeError(
        node, kernel->empty()
                  ? Twine("attribute 'kernel_shape' is missing")
                  : "kernel_shape " + formatList(*kernel) + " does not have " +
                        Twine(k) + " values, one per spatial dimension");
  if (weightKernel && *kernel != *weightKernel)
    return importer.nodeError(node, "kernel_shape " + formatList(*kernel) +
                                        " does not match the weight's " +
                                        formatList(*weightKernel));
  if (strides->size() != k || dilations->size() != k || pads->size() != 2 * k)
    return importer.nodeError(node, "strides, dilations and pads must have " +
                                        Twine(k) + ", " + Twine(k) + " and " +
                                        Twine(2 * k) + " values");
  for (int64_t v : llvm::concat<int64_t>(*kernel, *strides, *dilations))
    if (v < 1)
      return importer.nodeError(node, "kernel_shape, strides and dilations "
                                      "must be positive");
  for (int64_t pad : *pads)
    if (pad < 0)
      return importer.nodeError(node, "negative pads " + formatList(*pads) +
                                          " are not supported");
  // Like every dimension, every window attribute stays below 2^31, so that
  // the window arithmetic below cannot overflow int64.
  constexpr int64_t kMaxWindowValue = int64_t(1) << 31;
  for (int64_t v : llvm::concat<int64_t>(*kernel, *strides, *dilations, *pads))
    if (v >= kMaxWindowValue)
      return importer.nodeError(
          node, "kernel_shape, strides, dilations and pads must be below "
                "2^31, but got " +
                    Twine(v));

  window.kernel = *kernel;
  window.strides = *strides;
  window.dilations = *dilations;
  // ONNX orders pads [x1_begin, x2_begin, ..., x1_end, x2_end, ...]: for
  // NCHW [top, left, bottom, right], the graph order.
  window.padding = *pads;

  bool explicitPads = llvm::any_of(*pads, [](int64_t p) { return p != 0; });
  if (*autoPad == "VALID" || *autoPad == "SAME_UPPER" ||
      *autoPad == "SAME_LOWER") {
    if (explicitPads)
      return importer.nodeError(node, "pads " + formatList(*pads) +
                                          " together with auto_pad " +
                                          *autoPad + " are not allowed");
    window.padding.assign(2 * k, 0);
    if (*autoPad != "VALID") {
      for (size_t i = 0; i < k; ++i) {
        auto [begin, end] = getSamePadding(
            inputSize[i], getEffectiveKernel((*kernel)[i], (*dilations)[i]),
            (*strides)[i], /*lower=*/*autoPad == "SAME_LOWER");
        window.padding[i] = begin;
        window.padding[i + k] = end;
      }
    }
  } else if (*autoPad != "NOTSET") {
    return importer.nodeError(node, "auto_pad '" + *autoPad +
                                        "' is not one of NOTSET, SAME_UPPER, "
                                        "SAME_LOWER and VALID");
  }

  for (size_t i = 0; i < k; ++i) {
    int64_t effective = getEffectiveKernel((*kernel)[i], (*dilations)[i]);
    int64_t &begin = window.padding[i], &end = window.padding[i + k];
    int64_t size =
        getWindowOutputSize(inputSize[i], effective, (*strides)[i], begin, end);
    if (isPool && *ceilMode) {
      int64_t ceilSize = getWindowOutputSize(inputSize[i], effective,
                                             (*strides)[i], begin, end,
                                             /*ceilMode=*/true);
      if (ceilSize != size) {
        // The extra window starts inside the input or its begin padding (ORT
        // and PyTorch drop one that starts in the end padding, ONNX's shape
        // inference does not: that case is left unsupported).
        if ((ceilSize - 1) * (*strides)[i] >= inputSize[i] + begin)
          return importer.nodeError(
              node, "ceil_mode 1 with a last window that starts in the "
                    "padding is not supported");
        end += (ceilSize - 1) * (*strides)[i] + effective -
               (inputSize[i] + begin + end);
        window.ceilPadding = true;
        size = ceilSize;
      }
    }
    if (size < 1)
      return importer.nodeError(node, "the window " + formatShape(*kernel) +
                                          " does not fit the padded input " +
                                          formatShape(inputSize));
    // Our pools need a real cell in every window.
    if (isPool) {
      for (int64_t o = 0; o < size; ++o) {
        bool real = false;
        for (int64_t j = 0; j < (*kernel)[i] && !real; ++j) {
          int64_t position = o * (*strides)[i] - begin + j * (*dilations)[i];
          real = position >= 0 && position < inputSize[i];
        }
        if (!real)
          return importer.nodeError(
              node, "padding " + formatList(window.padding) +
                        " leaves a window of only padding, which is not "
                        "supported");
      }
    }
    window.outputSize.push_back(size);
  }
  return window;
}

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

Value mlir::graph::onnx_import::createTranspose(Importer &importer,
                                                const onnx::NodeProto &node,
                                                Value x,
                                                ArrayRef<int64_t> perm) {
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return x;
  RankedTensorType type = Importer::getType(x);
  SmallVector<int64_t> shape;
  for (int64_t d : perm)
    shape.push_back(type.getDimSize(d));
  OpBuilder &b = importer.getBuilder();
  return TransposeOp::create(
      b, importer.getLoc(node),
      importer.getTensorType(shape, type.getElementType()), x,
      b.getDenseI64ArrayAttr(perm));
}

Value mlir::graph::onnx_import::createReshape(Importer &importer,
                                              const onnx::NodeProto &node,
                                              Value x,
                                              ArrayRef<int64_t> shape) {
  RankedTensorType type = Importer::getType(x);
  if (type.getShape() == shape)
    return x;
  OpBuilder &b = importer.getBuilder();
  return ReshapeOp::create(b, importer.getLoc(node),
                           importer.getTensorType(shape, type.getElementType()),
                           x, b.getDenseI64ArrayAttr(shape));
}

/// `value` as an integer of type T, saturating and NaN to 0, as the
/// lowering's float-to-int casts: a bound beyond the type (Clip-6's default
/// -FLT_MAX on int16) is the type's extreme, never undefined behaviour.
template <typename T> static T saturateToInteger(double value) {
  using Limits = std::numeric_limits<T>;
  if (std::isnan(value))
    return 0;
  // double(Limits::max()) rounds up to a power of two for 64-bit types, so
  // everything below it converts exactly.
  if (value <= double(Limits::lowest()))
    return Limits::lowest();
  if (value >= double(Limits::max()))
    return Limits::max();
  return static_cast<T>(value);
}

/// One element of `kind` holding `value` converted.
static void storeElement(ElementKind kind, double value, char *dst) {
  dispatchKind(kind, [&](auto t) {
    using T = decltype(t);
    T element;
    if constexpr (std::is_same_v<T, Half>)
      element = toHalf(value);
    else if constexpr (std::is_same_v<T, BFloat16>)
      element = toBFloat16(value);
    else if constexpr (std::is_same_v<T, bool>)
      element = value != 0;
    else if constexpr (std::is_floating_point_v<T>)
      element = static_cast<T>(value);
    else
      element = saturateToInteger<T>(value);
    std::memcpy(dst, &element, sizeof(T));
  });
}

Value mlir::graph::onnx_import::createSplat(Importer &importer,
                                            const onnx::NodeProto &node,
                                            ArrayRef<int64_t> shape,
                                            Type elementType, double value) {
  ElementKind kind = *getElementKind(elementType);
  std::vector<char> bytes(getElementBytes(kind));
  storeElement(kind, value, bytes.data());
  TypedTensor tensor(importer.getTensorType(shape, elementType), kind,
                     /*splat=*/true, std::move(bytes));
  return importer.createConstant(node, tensor.toAttr());
}

Value mlir::graph::onnx_import::createConstantOf(Importer &importer,
                                                 const onnx::NodeProto &node,
                                                 ArrayRef<int64_t> shape,
                                                 Type elementType,
                                                 ArrayRef<double> values) {
  ElementKind kind = *getElementKind(elementType);
  unsigned width = getElementBytes(kind);
  std::vector<char> bytes(values.size() * width);
  for (auto [i, value] : llvm::enumerate(values))
    storeElement(kind, value, bytes.data() + i * width);
  TypedTensor tensor(importer.getTensorType(shape, elementType), kind,
                     /*splat=*/false, std::move(bytes));
  return importer.createConstant(node, tensor.toAttr());
}

Value mlir::graph::onnx_import::createCast(Importer &importer,
                                           const onnx::NodeProto &node, Value x,
                                           Type elementType) {
  RankedTensorType type = Importer::getType(x);
  if (type.getElementType() == elementType)
    return x;
  return CastOp::create(importer.getBuilder(), importer.getLoc(node),
                        importer.getTensorType(type.getShape(), elementType),
                        x);
}

std::string mlir::graph::onnx_import::typeName(Value value) {
  return getElementTypeName(
             getONNXElementType(Importer::getType(value).getElementType()))
      .str();
}

LogicalResult mlir::graph::onnx_import::checkNumeric(
    Importer &importer, const onnx::NodeProto &node, Value value, int index) {
  if (!Importer::getType(value).getElementType().isInteger(1))
    return success();
  return importer.nodeError(node, "input '" + node.input(index) +
                                      "' is a BOOL tensor; this operator "
                                      "takes numbers");
}

FailureOr<SmallVector<int64_t>> mlir::graph::onnx_import::broadcastOf(
    Importer &importer, const onnx::NodeProto &node, Value a, Value b) {
  ArrayRef<int64_t> aShape = Importer::getType(a).getShape();
  ArrayRef<int64_t> bShape = Importer::getType(b).getShape();
  std::optional<SmallVector<int64_t>> shape = broadcastShapes(aShape, bShape);
  if (!shape)
    return importer.nodeError(node, "shapes " + formatShape(aShape) + " and " +
                                        formatShape(bShape) +
                                        " do not broadcast");
  return *shape;
}

Value mlir::graph::onnx_import::createWhere(Importer &importer,
                                            const onnx::NodeProto &node,
                                            Value condition, Value x, Value y) {
  SmallVector<int64_t> shape = *broadcastShapes(
      Importer::getType(condition).getShape(), Importer::getType(x).getShape());
  shape = *broadcastShapes(shape, Importer::getType(y).getShape());
  return WhereOp::create(
      importer.getBuilder(), importer.getLoc(node),
      importer.getTensorType(shape, Importer::getType(x).getElementType()),
      condition, x, y);
}

std::optional<int64_t> mlir::graph::onnx_import::getUpperBound(Value value) {
  Operation *op = value.getDefiningOp();
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!op || !type || !type.getElementType().isSignlessInteger(64))
    return std::nullopt;
  // The smallest of the bounds that are known.
  auto least = [](ValueRange values) -> std::optional<int64_t> {
    std::optional<int64_t> bound;
    for (Value v : values)
      if (std::optional<int64_t> b = getUpperBound(v))
        bound = bound ? std::min(*bound, *b) : *b;
    return bound;
  };
  if (auto constant = dyn_cast<ConstantOp>(op)) {
    auto elements = dyn_cast<DenseIntElementsAttr>(constant.getValue());
    if (!elements || elements.empty())
      return std::nullopt;
    int64_t bound = std::numeric_limits<int64_t>::min();
    for (const APInt &element : elements.getValues<APInt>())
      bound = std::max(bound, element.getSExtValue());
    return bound;
  }
  if (isa<ReshapeOp, FlattenOp>(op))
    return getUpperBound(op->getOperand(0));
  if (isa<MinOp>(op))
    return least(op->getOperands());
  if (auto concat = dyn_cast<ConcatOp>(op)) {
    std::optional<int64_t> bound = std::numeric_limits<int64_t>::min();
    for (Value input : concat.getInputs()) {
      std::optional<int64_t> b = getUpperBound(input);
      if (!b)
        return std::nullopt;
      bound = std::max(*bound, *b);
    }
    return bound;
  }
  // The least of all elements: at most the bound of any part of them.
  if (auto reduce = dyn_cast<ReduceMinOp>(op)) {
    Value input = reduce->getOperand(0);
    auto inputType = cast<RankedTensorType>(input.getType());
    if (type.getNumElements() == 1 && inputType.getRank() == 1)
      if (auto concat = input.getDefiningOp<ConcatOp>())
        return least(concat.getInputs());
    return getUpperBound(input);
  }
  return std::nullopt;
}

Value mlir::graph::onnx_import::createSlice(Importer &importer,
                                            const onnx::NodeProto &node,
                                            Value x, ArrayRef<int64_t> starts,
                                            ArrayRef<int64_t> steps,
                                            ArrayRef<int64_t> sizes) {
  RankedTensorType type = Importer::getType(x);
  if (type.getShape() == sizes &&
      llvm::all_of(starts, [](int64_t s) { return s == 0; }) &&
      llvm::all_of(steps, [](int64_t s) { return s == 1; }))
    return x;
  OpBuilder &b = importer.getBuilder();
  return SliceOp::create(b, importer.getLoc(node),
                         importer.getTensorType(sizes, type.getElementType()),
                         x, b.getDenseI64ArrayAttr(starts),
                         b.getDenseI64ArrayAttr(steps));
}
