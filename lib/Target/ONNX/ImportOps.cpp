//===- ImportOps.cpp - ONNX operators to graph ops ------------------------===//
//
// One builder per ONNX operator: it reads the node's attributes and inputs,
// computes the result shape (ShapeInference.h) and creates the graph ops.
// Whatever a builder cannot import exactly (an attribute value, a rank, an
// output that is read) is reported as unsupported, naming the node.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"
#include "ShapeInference.h"

#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cfloat>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::onnx_import;

namespace {

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

/// Typed access to a node's attributes, reporting a wrong type as an error of
/// the node.
class NodeAttributes {
public:
  NodeAttributes(Importer &importer, const onnx::NodeProto &node)
      : importer(importer), node(node) {}

  const onnx::AttributeProto *find(StringRef name) const {
    for (const onnx::AttributeProto &attr : node.attribute())
      if (attr.name() == name)
        return &attr;
    return nullptr;
  }
  bool has(StringRef name) const { return find(name) != nullptr; }

  FailureOr<int64_t> getInt(StringRef name, int64_t defaultValue) {
    const onnx::AttributeProto *attr = find(name);
    if (!attr)
      return defaultValue;
    if (!isOfType(*attr, onnx::AttributeProto::INT, attr->has_i()))
      return wrongType(name, "INT");
    return attr->i();
  }

  FailureOr<float> getFloat(StringRef name, float defaultValue) {
    const onnx::AttributeProto *attr = find(name);
    if (!attr)
      return defaultValue;
    if (!isOfType(*attr, onnx::AttributeProto::FLOAT, attr->has_f()))
      return wrongType(name, "FLOAT");
    return attr->f();
  }

  FailureOr<SmallVector<int64_t>> getInts(StringRef name,
                                          ArrayRef<int64_t> defaultValue) {
    const onnx::AttributeProto *attr = find(name);
    if (!attr)
      return SmallVector<int64_t>(defaultValue);
    if (!isOfType(*attr, onnx::AttributeProto::INTS, attr->ints_size() > 0))
      return wrongType(name, "INTS");
    return SmallVector<int64_t>(attr->ints().begin(), attr->ints().end());
  }

  FailureOr<std::string> getString(StringRef name, StringRef defaultValue) {
    const onnx::AttributeProto *attr = find(name);
    if (!attr)
      return defaultValue.str();
    if (!isOfType(*attr, onnx::AttributeProto::STRING, attr->has_s()))
      return wrongType(name, "STRING");
    return attr->s();
  }

private:
  /// Models written before attributes had a `type` field say it by the field
  /// that is set.
  static bool isOfType(const onnx::AttributeProto &attr,
                       onnx::AttributeProto::AttributeType type, bool isSet) {
    return attr.type() == type ||
           (attr.type() == onnx::AttributeProto::UNDEFINED && isSet);
  }
  LogicalResult wrongType(StringRef name, StringRef type) {
    return importer.nodeError(node, "attribute '" + name + "' must be " + type);
  }

  Importer &importer;
  const onnx::NodeProto &node;
};

/// Fails (reported) when a non-first output of `node` is read: the builders
/// compute the first one only.
static LogicalResult checkOnlyFirstOutputUsed(Importer &importer,
                                              const onnx::NodeProto &node,
                                              StringRef what) {
  for (int i = 1; i < node.output_size(); ++i)
    if (importer.isOutputUsed(node, i))
      return importer.nodeError(node, "output '" + node.output(i) + "' (" +
                                          what + ") is not supported");
  return success();
}

static LogicalResult checkRank(Importer &importer, const onnx::NodeProto &node,
                               Value value, int index, int64_t rank,
                               const Twine &what) {
  int64_t actual = Importer::getType(value).getRank();
  if (actual == rank)
    return success();
  return importer.nodeError(node, what + ": input '" + node.input(index) +
                                      "' has rank " + Twine(actual) +
                                      ", expected " + Twine(rank));
}

static std::string formatList(ArrayRef<int64_t> values) {
  return "[" +
         llvm::join(llvm::map_range(
                        values, [](int64_t v) { return std::to_string(v); }),
                    ", ") +
         "]";
}

/// Normalizes an axis in [-rank, rank + extra) to [0, rank + extra).
static FailureOr<int64_t> normalizeAxis(Importer &importer,
                                        const onnx::NodeProto &node,
                                        int64_t axis, int64_t rank,
                                        int64_t extra = 0) {
  if (axis < -rank || axis >= rank + extra)
    return importer.nodeError(node, "axis " + Twine(axis) +
                                        " is out of range for rank " +
                                        Twine(rank));
  return axis < 0 ? axis + rank : axis;
}

//===----------------------------------------------------------------------===//
// Windows: Conv, MaxPool, AveragePool
//===----------------------------------------------------------------------===//

/// The 2-D window of a convolution or pooling node, in graph terms.
struct Window {
  SmallVector<int64_t> kernel, strides, dilations;
  /// [top, left, bottom, right].
  SmallVector<int64_t> padding;
  SmallVector<int64_t> outputSize;
  /// ceil_mode changed the output size, which padding at the end emulates.
  bool ceilPadding = false;
};

/// Reads kernel_shape, strides, dilations, pads and auto_pad for an input of
/// spatial size `inputSize`, and computes the output size. `weightKernel` is
/// the kernel that a convolution's weight implies. Pools pass `isPool`, which
/// enables ceil_mode.
static FailureOr<Window>
readWindow(Importer &importer, const onnx::NodeProto &node,
           NodeAttributes &attrs, ArrayRef<int64_t> inputSize,
           std::optional<ArrayRef<int64_t>> weightKernel, bool isPool) {
  Window window;
  FailureOr<SmallVector<int64_t>> kernel =
      attrs.getInts("kernel_shape", weightKernel.value_or(ArrayRef<int64_t>()));
  FailureOr<SmallVector<int64_t>> strides = attrs.getInts("strides", {1, 1});
  FailureOr<SmallVector<int64_t>> dilations =
      attrs.getInts("dilations", {1, 1});
  FailureOr<SmallVector<int64_t>> pads = attrs.getInts("pads", {0, 0, 0, 0});
  FailureOr<std::string> autoPad = attrs.getString("auto_pad", "NOTSET");
  FailureOr<int64_t> ceilMode = attrs.getInt("ceil_mode", 0);
  if (failed(kernel) || failed(strides) || failed(dilations) || failed(pads) ||
      failed(autoPad) || failed(ceilMode))
    return failure();

  if (kernel->size() != 2)
    return importer.nodeError(
        node, kernel->empty()
                  ? Twine("attribute 'kernel_shape' is "
                          "missing")
                  : "kernel_shape " + formatList(*kernel) + " is not 2-D");
  if (weightKernel && *kernel != *weightKernel)
    return importer.nodeError(node, "kernel_shape " + formatList(*kernel) +
                                        " does not match the weight's " +
                                        formatList(*weightKernel));
  if (strides->size() != 2 || dilations->size() != 2 || pads->size() != 4)
    return importer.nodeError(
        node, "strides, dilations and pads must have 2, 2 and 4 values");
  for (int64_t v : llvm::concat<int64_t>(*kernel, *strides, *dilations))
    if (v < 1)
      return importer.nodeError(node, "kernel_shape, strides and dilations "
                                      "must be positive");
  for (int64_t pad : *pads)
    if (pad < 0)
      return importer.nodeError(node, "negative pads " + formatList(*pads) +
                                          " are not supported");
  if (isPool && (*dilations)[0] * (*dilations)[1] != 1)
    return importer.nodeError(node, "dilations " + formatList(*dilations) +
                                        " in pooling are not supported");

  window.kernel = *kernel;
  window.strides = *strides;
  window.dilations = *dilations;
  // ONNX orders pads [x1_begin, x2_begin, x1_end, x2_end]: that is
  // [top, left, bottom, right] for NCHW, the graph order.
  window.padding = *pads;

  bool explicitPads = llvm::any_of(*pads, [](int64_t p) { return p != 0; });
  if (*autoPad == "VALID" || *autoPad == "SAME_UPPER" ||
      *autoPad == "SAME_LOWER") {
    if (explicitPads)
      return importer.nodeError(node, "pads " + formatList(*pads) +
                                          " together with auto_pad " +
                                          *autoPad + " are not allowed");
    window.padding.assign(4, 0);
    if (*autoPad != "VALID") {
      for (int i = 0; i < 2; ++i) {
        auto [begin, end] = getSamePadding(
            inputSize[i], getEffectiveKernel((*kernel)[i], (*dilations)[i]),
            (*strides)[i], /*lower=*/*autoPad == "SAME_LOWER");
        window.padding[i] = begin;
        window.padding[i + 2] = end;
      }
    }
  } else if (*autoPad != "NOTSET") {
    return importer.nodeError(node, "auto_pad '" + *autoPad +
                                        "' is not one of NOTSET, SAME_UPPER, "
                                        "SAME_LOWER and VALID");
  }

  for (int i = 0; i < 2; ++i) {
    int64_t effective = getEffectiveKernel((*kernel)[i], (*dilations)[i]);
    int64_t &begin = window.padding[i], &end = window.padding[i + 2];
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
    // Our pools need a real cell in every window.
    if (isPool && (begin >= (*kernel)[i] || end >= (*kernel)[i]))
      return importer.nodeError(node, "padding " + formatList(window.padding) +
                                          " as large as the kernel " +
                                          formatShape(*kernel) +
                                          " is not supported");
    if (size < 1)
      return importer.nodeError(node, "the window " + formatShape(*kernel) +
                                          " does not fit the padded input " +
                                          formatShape(inputSize));
    window.outputSize.push_back(size);
  }
  return window;
}

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
  if (failed(checkRank(importer, node, *input, 0, 4,
                       "only 2-D convolution is supported")) ||
      failed(checkRank(importer, node, *weight, 1, 4,
                       "only 2-D convolution is supported")))
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
  OpBuilder &b = importer.getBuilder();
  RankedTensorType type =
      importer.getTensorType({inputShape[0], weightShape[0],
                              window->outputSize[0], window->outputSize[1]});
  Value result = Conv2DOp::create(
      b, importer.getLoc(node), type, *input, *weight, bias,
      b.getDenseI64ArrayAttr(window->strides),
      b.getDenseI64ArrayAttr(window->padding),
      b.getDenseI64ArrayAttr(window->dilations), b.getI64IntegerAttr(*groups));
  return importer.setOutput(node, 0, result);
}

static LogicalResult importBatchNormalization(Importer &importer,
                                              const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<float> epsilon = attrs.getFloat("epsilon", 1e-5f);
  FailureOr<int64_t> training = attrs.getInt("training_mode", 0);
  FailureOr<int64_t> spatial = attrs.getInt("spatial", 1);
  if (failed(epsilon) || failed(training) || failed(spatial))
    return failure();
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
      /*layout=*/StringAttr());
  return importer.setOutput(node, 0, result);
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

template <typename OpTy>
static LogicalResult importUnary(Importer &importer,
                                 const onnx::NodeProto &node) {
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x))
    return failure();
  Value result = OpTy::create(importer.getBuilder(), importer.getLoc(node),
                              Importer::getType(*x), *x);
  return importer.setOutput(node, 0, result);
}

/// Reads Clip's bound: input `index` from opset 11 (a constant scalar), the
/// attribute before; `absent` when not given.
static FailureOr<float> getClipBound(Importer &importer,
                                     const onnx::NodeProto &node,
                                     NodeAttributes &attrs, int index,
                                     StringRef name, float absent) {
  if (importer.getOpset() < 11)
    return attrs.getFloat(name, absent);
  if (!Importer::hasInput(node, index))
    return absent;
  const ConstantTensor *bound = importer.getConstantInput(node, index);
  if (!bound)
    return importer.nodeError(node, Twine(name) + " '" + node.input(index) +
                                        "' is not a constant, which is not "
                                        "supported");
  if (!bound->isFloat() || bound->getNumElements() != 1)
    return importer.nodeError(node, Twine(name) + " '" + node.input(index) +
                                        "' must be a FLOAT scalar");
  return bound->getFloats()[0];
}

static LogicalResult importClip(Importer &importer,
                                const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  // An absent bound is the lowest or largest finite float in every opset:
  // the attributes' defaults before 11, numeric_limits' lowest() and max()
  // from 11 on.
  FailureOr<float> min =
      getClipBound(importer, node, attrs, 1, "min", -FLT_MAX);
  FailureOr<float> max = getClipBound(importer, node, attrs, 2, "max", FLT_MAX);
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(min) || failed(max) || failed(x))
    return failure();
  OpBuilder &b = importer.getBuilder();
  Value result =
      ClipOp::create(b, importer.getLoc(node), Importer::getType(*x), *x,
                     b.getF32FloatAttr(*min), b.getF32FloatAttr(*max));
  return importer.setOutput(node, 0, result);
}

template <typename OpTy>
static LogicalResult importBinary(Importer &importer,
                                  const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  // Before opset 7, `broadcast` selected a broadcast rule of its own.
  FailureOr<int64_t> legacyBroadcast = attrs.getInt("broadcast", 0);
  if (failed(legacyBroadcast))
    return failure();
  if (*legacyBroadcast != 0)
    return importer.nodeError(node, "the legacy attribute 'broadcast' is not "
                                    "supported");
  FailureOr<Value> lhs = importer.getInput(node, 0);
  FailureOr<Value> rhs = importer.getInput(node, 1);
  if (failed(lhs) || failed(rhs))
    return failure();
  ArrayRef<int64_t> lhsShape = Importer::getType(*lhs).getShape();
  ArrayRef<int64_t> rhsShape = Importer::getType(*rhs).getShape();
  std::optional<SmallVector<int64_t>> shape =
      broadcastShapes(lhsShape, rhsShape);
  if (!shape || (importer.getOpset() < 7 && lhsShape != rhsShape))
    return importer.nodeError(node, "shapes " + formatShape(lhsShape) +
                                        " and " + formatShape(rhsShape) +
                                        " do not broadcast");
  Value result = OpTy::create(importer.getBuilder(), importer.getLoc(node),
                              importer.getTensorType(*shape), *lhs, *rhs);
  return importer.setOutput(node, 0, result);
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
  if (aShape.size() != 2 || bShape.size() != 2)
    return importer.nodeError(node, "only 2-D MatMul is supported; the "
                                    "operands have shapes " +
                                        formatShape(aShape) + " and " +
                                        formatShape(bShape));
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
      failed(legacyBroadcast) || failed(a) || failed(b))
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
  // storage_order only lays out the Indices output, which is refused here.
  if (failed(checkOnlyFirstOutputUsed(importer, node, "the indices")))
    return failure();
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x) || failed(checkRank(importer, node, *x, 0, 4,
                                    "only 2-D pooling is supported")))
    return failure();
  ArrayRef<int64_t> shape = Importer::getType(*x).getShape();
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
  return importer.setOutput(node, 0, result);
}

static LogicalResult importAveragePool(Importer &importer,
                                       const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> countIncludePad = attrs.getInt("count_include_pad", 0);
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(countIncludePad) || failed(x) ||
      failed(
          checkRank(importer, node, *x, 0, 4, "only 2-D pooling is supported")))
    return failure();
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
  if (failed(x) || failed(checkRank(importer, node, *x, 0, 4,
                                    "only 2-D pooling is supported")))
    return failure();
  ArrayRef<int64_t> shape = Importer::getType(*x).getShape();
  Value result = GlobalAvgPoolOp::create(
      importer.getBuilder(), importer.getLoc(node),
      importer.getTensorType({shape[0], shape[1], 1, 1}), *x);
  return importer.setOutput(node, 0, result);
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

static LogicalResult importFlatten(Importer &importer,
                                   const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> axis = attrs.getInt("axis", 1);
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(axis) || failed(x))
    return failure();
  ArrayRef<int64_t> shape = Importer::getType(*x).getShape();
  FailureOr<int64_t> normalized =
      normalizeAxis(importer, node, *axis, shape.size(), /*extra=*/1);
  if (failed(normalized))
    return failure();
  OpBuilder &b = importer.getBuilder();
  RankedTensorType type =
      importer.getTensorType({getNumElements(shape.take_front(*normalized)),
                              getNumElements(shape.drop_front(*normalized))});
  Value result = FlattenOp::create(b, importer.getLoc(node), type, *x,
                                   b.getI64IntegerAttr(*normalized));
  return importer.setOutput(node, 0, result);
}

static LogicalResult importReshape(Importer &importer,
                                   const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> allowZero = attrs.getInt("allowzero", 0);
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(allowZero) || failed(x))
    return failure();
  const ConstantTensor *target = importer.getConstantInput(node, 1);
  if (!target)
    return importer.nodeError(
        node,
        "the target shape '" +
            (Importer::hasInput(node, 1) ? node.input(1) : std::string()) +
            "' is not a constant, which is not "
            "supported");
  if (!target->isInteger() || target->shape.size() != 1)
    return importer.nodeError(node, "the target shape '" + node.input(1) +
                                        "' is not a 1-D integer tensor");
  std::string error;
  std::optional<SmallVector<int64_t>> shape =
      resolveReshape(Importer::getType(*x).getShape(), target->getInts(),
                     *allowZero != 0, error);
  if (!shape)
    return importer.nodeError(
        node, "cannot reshape " +
                  formatShape(Importer::getType(*x).getShape()) + " to " +
                  formatList(target->getInts()) + ": " + error);
  OpBuilder &b = importer.getBuilder();
  Value result = ReshapeOp::create(b, importer.getLoc(node),
                                   importer.getTensorType(*shape), *x,
                                   b.getDenseI64ArrayAttr(*shape));
  return importer.setOutput(node, 0, result);
}

static LogicalResult importTranspose(Importer &importer,
                                     const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> shape = Importer::getType(*x).getShape();
  SmallVector<int64_t> reversed;
  for (int64_t i = shape.size() - 1; i >= 0; --i)
    reversed.push_back(i);
  FailureOr<SmallVector<int64_t>> perm = attrs.getInts("perm", reversed);
  if (failed(perm))
    return failure();
  SmallVector<int64_t> resultShape;
  SmallVector<bool> seen(shape.size(), false);
  for (int64_t dim : *perm) {
    if (perm->size() != shape.size() || dim < 0 ||
        dim >= int64_t(shape.size()) || seen[dim])
      return importer.nodeError(node, "perm " + formatList(*perm) +
                                          " is not a permutation of " +
                                          Twine(shape.size()) + " dimensions");
    seen[dim] = true;
    resultShape.push_back(shape[dim]);
  }
  OpBuilder &b = importer.getBuilder();
  Value result = TransposeOp::create(b, importer.getLoc(node),
                                     importer.getTensorType(resultShape), *x,
                                     b.getDenseI64ArrayAttr(*perm));
  return importer.setOutput(node, 0, result);
}

static LogicalResult importConcat(Importer &importer,
                                  const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  if (!attrs.has("axis"))
    return importer.nodeError(node, "attribute 'axis' is missing");
  FailureOr<int64_t> axis = attrs.getInt("axis", 0);
  if (failed(axis))
    return failure();
  SmallVector<Value> inputs;
  for (int i = 0; i < node.input_size(); ++i) {
    FailureOr<Value> input = importer.getInput(node, i);
    if (failed(input))
      return failure();
    inputs.push_back(*input);
  }
  if (inputs.empty())
    return importer.nodeError(node, "no inputs");
  SmallVector<int64_t> shape(Importer::getType(inputs[0]).getShape());
  FailureOr<int64_t> normalized =
      normalizeAxis(importer, node, *axis, shape.size());
  if (failed(normalized))
    return failure();
  for (Value input : llvm::drop_begin(inputs)) {
    ArrayRef<int64_t> other = Importer::getType(input).getShape();
    bool matches = other.size() == shape.size();
    for (size_t d = 0; matches && d < shape.size(); ++d)
      matches = d == size_t(*normalized) || other[d] == shape[d];
    if (!matches)
      return importer.nodeError(
          node, "input shapes " +
                    formatShape(Importer::getType(inputs[0]).getShape()) +
                    " and " + formatShape(other) +
                    " do not concatenate "
                    "along axis " +
                    Twine(*normalized));
    shape[*normalized] += other[*normalized];
  }
  OpBuilder &b = importer.getBuilder();
  Value result =
      ConcatOp::create(b, importer.getLoc(node), importer.getTensorType(shape),
                       inputs, b.getI64IntegerAttr(*normalized));
  return importer.setOutput(node, 0, result);
}

static LogicalResult importSoftmax(Importer &importer,
                                   const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  bool coerceTo2D = importer.getOpset() < 13;
  FailureOr<int64_t> axis = attrs.getInt("axis", coerceTo2D ? 1 : -1);
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(axis) || failed(x))
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
// Dropout, Identity, Constant, RandomUniform
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
  if (failed(checkOnlyFirstOutputUsed(importer, node, "the mask")))
    return failure();
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
    FailureOr<const ConstantTensor *> ratioInput =
        getConstantScalar(importer, node, 1, "ratio");
    FailureOr<const ConstantTensor *> trainingInput =
        getConstantScalar(importer, node, 2, "training_mode");
    if (failed(ratioInput) || failed(trainingInput))
      return failure();
    if (*ratioInput) {
      if (!(*ratioInput)->isFloat())
        return importer.nodeError(node, "ratio '" + node.input(1) +
                                            "' is not a FLOAT scalar");
      ratio = (*ratioInput)->getFloats()[0];
    }
    if (*trainingInput) {
      if ((*trainingInput)->isFloat())
        return importer.nodeError(node, "training_mode '" + node.input(2) +
                                            "' is not a BOOL scalar");
      training = (*trainingInput)->getInts()[0] != 0;
    }
  }
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x))
    return failure();
  OpBuilder &b = importer.getBuilder();
  Value result = DropoutOp::create(
      b, importer.getLoc(node), Importer::getType(*x), *x,
      b.getF32FloatAttr(ratio), training ? b.getUnitAttr() : UnitAttr());
  return importer.setOutput(node, 0, result);
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
  OpBuilder &b = importer.getBuilder();
  // ONNX's seed is a float; graph's an integer: its value, truncated.
  Value result = RandomUniformOp::create(
      b, importer.getLoc(node), importer.getTensorType(*shape),
      b.getDenseI64ArrayAttr(*shape), b.getF32FloatAttr(*low),
      b.getF32FloatAttr(*high), b.getI64IntegerAttr(int64_t(*seed)));
  return importer.setOutput(node, 0, result);
}

} // namespace

OpImporter mlir::graph::onnx_import::lookupOpImporter(StringRef opType) {
  return llvm::StringSwitch<OpImporter>(opType)
      .Case("Conv", importConv)
      .Case("BatchNormalization", importBatchNormalization)
      .Case("Relu", importUnary<ReluOp>)
      .Case("Clip", importClip)
      .Case("Sigmoid", importUnary<SigmoidOp>)
      .Case("Tanh", importUnary<TanhOp>)
      .Case("Add", importBinary<AddOp>)
      .Case("Sub", importBinary<SubOp>)
      .Case("Mul", importBinary<MulOp>)
      .Case("Div", importBinary<DivOp>)
      .Case("MatMul", importMatMul)
      .Case("Gemm", importGemm)
      .Case("MaxPool", importMaxPool)
      .Case("AveragePool", importAveragePool)
      .Case("GlobalAveragePool", importGlobalAveragePool)
      .Case("Flatten", importFlatten)
      .Case("Reshape", importReshape)
      .Case("Transpose", importTranspose)
      .Case("Concat", importConcat)
      .Case("Softmax", importSoftmax)
      .Case("Dropout", importDropout)
      .Case("Identity", importIdentity)
      .Case("Constant", importConstant)
      .Case("RandomUniform", importRandomUniform)
      .Default(nullptr);
}
