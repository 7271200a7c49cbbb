//===- ImportHelpers.h - Shared pieces of the operator builders -*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Private to lib/Target/ONNX: typed access to a node's attributes, the
// checks every builder makes, the window of convolutions and pools, small
// builders of graph ops (with the result type computed), and the builder of
// every operator, one file per family:
//   ImportOps.cpp          the table, convolution/normalization, the core
//                          arithmetic, matmul/gemm, pooling, shapes,
//                          constants and random ops;
//   ImportElementwise.cpp  math, activations, comparisons, logic, casts;
//   ImportShapes.cpp       shape arithmetic and data movement;
//   ImportReductions.cpp   reductions, normalizations, softmax family;
//   ImportNN.cpp           N-d convolution and pooling, resize, einsum;
//   ImportLosses.cpp       the loss functions, expanded as ONNX defines them.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_TARGET_ONNX_IMPORTHELPERS_H
#define LIB_TARGET_ONNX_IMPORTHELPERS_H

#include "Importer.h"
#include "ShapeInference.h"

#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "llvm/ADT/StringExtras.h"

namespace mlir {
namespace graph {
namespace onnx_import {

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

  FailureOr<SmallVector<float>> getFloats(StringRef name,
                                          ArrayRef<float> defaultValue) {
    const onnx::AttributeProto *attr = find(name);
    if (!attr)
      return SmallVector<float>(defaultValue);
    if (!isOfType(*attr, onnx::AttributeProto::FLOATS, attr->floats_size() > 0))
      return wrongType(name, "FLOATS");
    return SmallVector<float>(attr->floats().begin(), attr->floats().end());
  }

  FailureOr<SmallVector<std::string>> getStrings(StringRef name) {
    const onnx::AttributeProto *attr = find(name);
    if (!attr)
      return SmallVector<std::string>();
    if (!isOfType(*attr, onnx::AttributeProto::STRINGS,
                  attr->strings_size() > 0))
      return wrongType(name, "STRINGS");
    return SmallVector<std::string>(attr->strings().begin(),
                                    attr->strings().end());
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

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

/// Fails (reported) when a non-first output of `node` is read: the builders
/// compute the first one only.
LogicalResult checkOnlyFirstOutputUsed(Importer &importer,
                                       const onnx::NodeProto &node,
                                       StringRef what);

LogicalResult checkRank(Importer &importer, const onnx::NodeProto &node,
                        Value value, int index, int64_t rank,
                        const Twine &what);

/// Whether `value` holds unsigned integers.
inline bool isUnsignedGraphInput(Value value) {
  auto integer =
      dyn_cast<IntegerType>(cast<ShapedType>(value.getType()).getElementType());
  return integer && integer.isUnsigned();
}

/// Defines output `index` of `node` as a compile-time INT64 tensor.
void setIntsOutput(Importer &importer, const onnx::NodeProto &node, int index,
                   ArrayRef<int64_t> values, ArrayRef<int64_t> shape);

/// Fails (reported) unless `value`'s element type is f32, naming `what`.
LogicalResult checkFloat32(Importer &importer, const onnx::NodeProto &node,
                           Value value, int index);

/// Fails (reported) unless `value` has a float element type (f16, bf16,
/// f32, f64).
LogicalResult checkFloatType(Importer &importer, const onnx::NodeProto &node,
                             Value value, int index);

std::string formatList(ArrayRef<int64_t> values);

/// Normalizes an axis in [-rank, rank + extra) to [0, rank + extra).
FailureOr<int64_t> normalizeAxis(Importer &importer,
                                 const onnx::NodeProto &node, int64_t axis,
                                 int64_t rank, int64_t extra = 0);

/// Every input of `node`, in order (failing, reported, if one is missing).
FailureOr<SmallVector<Value>> getInputs(Importer &importer,
                                        const onnx::NodeProto &node);

/// Input `index` as a constant list of integers (a 0-D or 1-D integer
/// tensor), or an error naming `what` when it is not one. `absent` when the
/// input is not given.
FailureOr<std::optional<SmallVector<int64_t>>>
getConstantInts(Importer &importer, const onnx::NodeProto &node, int index,
                StringRef what);

/// The normalized, sorted axes of a reduction node, or nullopt (with
/// `identity` set) when it reduces nothing.
FailureOr<SmallVector<int64_t>> readReduceAxes(Importer &importer,
                                               const onnx::NodeProto &node,
                                               NodeAttributes &attrs,
                                               int64_t rank, bool &identity);

/// `x` with the elements at or past `count` along `dim` replaced by `fill`:
/// the padding of a value of run-time size made harmless for an operator
/// that would read it (NonZero, NonMaxSuppression's scores).
Value maskPastExtent(Importer &importer, const onnx::NodeProto &node, Value x,
                     int64_t dim, Value count, double fill);

/// The axes of a reduction or of (Un)Squeeze: the `axes` attribute before
/// `inputOpset`, the input `index` from it. `absent` when neither is given.
FailureOr<std::optional<SmallVector<int64_t>>>
getAxes(Importer &importer, const onnx::NodeProto &node, NodeAttributes &attrs,
        int64_t inputOpset, int index);

//===----------------------------------------------------------------------===//
// Windows: Conv, ConvTranspose, MaxPool, AveragePool
//===----------------------------------------------------------------------===//

/// The window of a convolution or pooling node over k spatial dimensions,
/// in graph terms.
struct Window {
  SmallVector<int64_t> kernel, strides, dilations;
  /// [begin_1..k, end_1..k], the ONNX and graph order.
  SmallVector<int64_t> padding;
  SmallVector<int64_t> outputSize;
  /// ceil_mode changed the output size, which padding at the end emulates.
  bool ceilPadding = false;
};

/// Reads kernel_shape, strides, dilations, pads and auto_pad for an input of
/// spatial size `inputSize`, and computes the output size. `weightKernel` is
/// the kernel that a convolution's weight implies. Pools pass `isPool`, which
/// enables ceil_mode and requires a real cell in every window.
FailureOr<Window> readWindow(Importer &importer, const onnx::NodeProto &node,
                             NodeAttributes &attrs, ArrayRef<int64_t> inputSize,
                             std::optional<ArrayRef<int64_t>> weightKernel,
                             bool isPool);

/// Defines MaxPool's output 1, the indices, when a node reads it: the flat
/// index (over N x C x spatial, the spatial part column-major with
/// storage_order 1) of the first maximum of each window of `x`, through
/// constant tables of the windows' cells, a gather and an argmax.
LogicalResult setMaxPoolIndices(Importer &importer, const onnx::NodeProto &node,
                                Value x, const Window &window);

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

/// `x` transposed by `perm` (x itself for the identity).
Value createTranspose(Importer &importer, const onnx::NodeProto &node, Value x,
                      ArrayRef<int64_t> perm);

/// `x` reshaped to `shape` (x itself when it already has it).
Value createReshape(Importer &importer, const onnx::NodeProto &node, Value x,
                    ArrayRef<int64_t> shape);

/// A constant tensor of `shape` and `elementType` whose every element is
/// `value` (converted to the type: integers truncate).
Value createSplat(Importer &importer, const onnx::NodeProto &node,
                  ArrayRef<int64_t> shape, Type elementType, double value);

/// A constant tensor of `shape` (row-major `values`, converted to the type).
Value createConstantOf(Importer &importer, const onnx::NodeProto &node,
                       ArrayRef<int64_t> shape, Type elementType,
                       ArrayRef<double> values);

/// `x` converted to `elementType` (x itself when it has it).
Value createCast(Importer &importer, const onnx::NodeProto &node, Value x,
                 Type elementType);

/// The shapes of NumPy's matmul of `a` by `b` (prepareMatMul, ImportNN.cpp):
/// the product's [batch..., M, N], and the result's, without the M of a 1-D
/// `a` or the N of a 1-D `b`.
struct MatMulShapes {
  SmallVector<int64_t> shape, finalShape;
};

/// Makes a 1-D `a` a row and a 1-D `b` a column (reshaping them) and
/// computes the shapes; fails (reported) when they do not multiply.
FailureOr<MatMulShapes> prepareMatMul(Importer &importer,
                                      const onnx::NodeProto &node, Value &a,
                                      Value &b);

/// The ONNX name of a value's element type ("float", "uint8"), for messages.
std::string typeName(Value value);

/// Fails (reported) when input `index` (`value`) is a bool tensor.
LogicalResult checkNumeric(Importer &importer, const onnx::NodeProto &node,
                           Value value, int index);

/// The broadcast shape of `a` and `b`, or failure (reported).
FailureOr<SmallVector<int64_t>>
broadcastOf(Importer &importer, const onnx::NodeProto &node, Value a, Value b);

/// lhs (op) rhs with the broadcast shape and lhs's element type (i1 for the
/// comparisons); the shapes must broadcast.
template <typename OpTy>
Value createBinary(Importer &importer, const onnx::NodeProto &node, Value lhs,
                   Value rhs, Type resultElementType = {}) {
  SmallVector<int64_t> shape = *reference::broadcastShapes(
      Importer::getType(lhs).getShape(), Importer::getType(rhs).getShape());
  Type element = resultElementType ? resultElementType
                                   : Importer::getType(lhs).getElementType();
  return OpTy::create(importer.getBuilder(), importer.getLoc(node),
                      importer.getTensorType(shape, element), lhs, rhs);
}

/// A comparison: i1 of the broadcast shape.
template <typename OpTy>
Value createCompare(Importer &importer, const onnx::NodeProto &node, Value lhs,
                    Value rhs) {
  return createBinary<OpTy>(importer, node, lhs, rhs,
                            importer.getBuilder().getI1Type());
}

/// condition ? x : y with broadcasting.
Value createWhere(Importer &importer, const onnx::NodeProto &node,
                  Value condition, Value x, Value y);

/// op(x), same type.
template <typename OpTy>
Value createUnary(Importer &importer, const onnx::NodeProto &node, Value x) {
  return OpTy::create(importer.getBuilder(), importer.getLoc(node),
                      Importer::getType(x), x);
}

/// A reduction of `x` over `axes` (normalized, distinct).
template <typename OpTy>
Value createReduce(Importer &importer, const onnx::NodeProto &node, Value x,
                   ArrayRef<int64_t> axes, bool keepdims) {
  RankedTensorType type = Importer::getType(x);
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!llvm::is_contained(axes, d))
      shape.push_back(type.getDimSize(d));
    else if (keepdims)
      shape.push_back(1);
  }
  OpBuilder &b = importer.getBuilder();
  return OpTy::create(b, importer.getLoc(node),
                      importer.getTensorType(shape, type.getElementType()), x,
                      b.getDenseI64ArrayAttr(axes),
                      keepdims ? b.getUnitAttr() : UnitAttr());
}

/// A number that no element of the integer tensor `value` exceeds, read
/// from the ops that compute it (constants, min, reduce_min of a concat,
/// reshapes): torchvision's `min(count, 300)` is at most 300. nullopt when
/// they do not tell.
std::optional<int64_t> getUpperBound(Value value);

/// A strided slice of `x`: `starts`, `steps` and `sizes` per dimension.
Value createSlice(Importer &importer, const onnx::NodeProto &node, Value x,
                  ArrayRef<int64_t> starts, ArrayRef<int64_t> steps,
                  ArrayRef<int64_t> sizes);

//===----------------------------------------------------------------------===//
// The operator builders
//===----------------------------------------------------------------------===//

/// Replaces the subgraphs that exporters write for an operator (PyTorch's
/// GELU before opset 20) by the graph op that computes exactly the same
/// operations (ImportPatterns.cpp). The replaced ops are left dead.
void recognizeExportPatterns(Block &body);

#define GRAPH_ONNX_IMPORTER(NAME)                                              \
  LogicalResult NAME(Importer &importer, const onnx::NodeProto &node);

// ImportElementwise.cpp
GRAPH_ONNX_IMPORTER(importMathUnary)
GRAPH_ONNX_IMPORTER(importActivation)
GRAPH_ONNX_IMPORTER(importComparison)
GRAPH_ONNX_IMPORTER(importLogic)
GRAPH_ONNX_IMPORTER(importPow)
GRAPH_ONNX_IMPORTER(importMod)
GRAPH_ONNX_IMPORTER(importBitShift)
GRAPH_ONNX_IMPORTER(importVariadic)
GRAPH_ONNX_IMPORTER(importWhere)
GRAPH_ONNX_IMPORTER(importCast)
GRAPH_ONNX_IMPORTER(importCastLike)
GRAPH_ONNX_IMPORTER(importPRelu)
GRAPH_ONNX_IMPORTER(importIsNaN)
GRAPH_ONNX_IMPORTER(importIsInf)

// ImportShapes.cpp
GRAPH_ONNX_IMPORTER(importShape)
GRAPH_ONNX_IMPORTER(importSize)
GRAPH_ONNX_IMPORTER(importSqueeze)
GRAPH_ONNX_IMPORTER(importUnsqueeze)
GRAPH_ONNX_IMPORTER(importSlice)
GRAPH_ONNX_IMPORTER(importGather)
GRAPH_ONNX_IMPORTER(importGatherElements)
GRAPH_ONNX_IMPORTER(importScatterElements)
GRAPH_ONNX_IMPORTER(importReverseSequence)
GRAPH_ONNX_IMPORTER(importGatherND)
GRAPH_ONNX_IMPORTER(importScatterND)
GRAPH_ONNX_IMPORTER(importExpand)
GRAPH_ONNX_IMPORTER(importTile)
GRAPH_ONNX_IMPORTER(importConstantOfShape)
GRAPH_ONNX_IMPORTER(importRange)
GRAPH_ONNX_IMPORTER(importEyeLike)
GRAPH_ONNX_IMPORTER(importWindow)
GRAPH_ONNX_IMPORTER(importPad)
GRAPH_ONNX_IMPORTER(importSplit)
GRAPH_ONNX_IMPORTER(importDepthToSpace)
GRAPH_ONNX_IMPORTER(importSpaceToDepth)
GRAPH_ONNX_IMPORTER(importTrilu)
GRAPH_ONNX_IMPORTER(importOneHot)
GRAPH_ONNX_IMPORTER(importCompress)

// ImportReductions.cpp
GRAPH_ONNX_IMPORTER(importReduce)
GRAPH_ONNX_IMPORTER(importArgReduce)
GRAPH_ONNX_IMPORTER(importTopK)
GRAPH_ONNX_IMPORTER(importCumSum)
GRAPH_ONNX_IMPORTER(importLogSoftmax)
GRAPH_ONNX_IMPORTER(importHardmax)
GRAPH_ONNX_IMPORTER(importGlobalPool)
GRAPH_ONNX_IMPORTER(importLayerNormalization)
GRAPH_ONNX_IMPORTER(importInstanceNormalization)
GRAPH_ONNX_IMPORTER(importMeanVarianceNormalization)

// ImportNN.cpp
GRAPH_ONNX_IMPORTER(importConvND)
GRAPH_ONNX_IMPORTER(importConvTranspose)
GRAPH_ONNX_IMPORTER(importPoolND)
GRAPH_ONNX_IMPORTER(importBatchMatMul)
GRAPH_ONNX_IMPORTER(importLRN)
GRAPH_ONNX_IMPORTER(importMaxUnpool)
GRAPH_ONNX_IMPORTER(importGridSample)
GRAPH_ONNX_IMPORTER(importRoiAlign)
// ImportRecurrent.cpp: RNN, GRU, LSTM.
GRAPH_ONNX_IMPORTER(importRecurrent)
// ImportQuant.cpp: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear,
// ConvInteger, QLinearConv, MatMulInteger, QLinearMatMul.
GRAPH_ONNX_IMPORTER(importQuantOp)
GRAPH_ONNX_IMPORTER(importResize)
GRAPH_ONNX_IMPORTER(importUpsample)
GRAPH_ONNX_IMPORTER(importEinsum)

// ImportLosses.cpp
GRAPH_ONNX_IMPORTER(importNegativeLogLikelihoodLoss)
GRAPH_ONNX_IMPORTER(importSoftmaxCrossEntropyLoss)

#undef GRAPH_ONNX_IMPORTER

} // namespace onnx_import
} // namespace graph
} // namespace mlir

#endif // LIB_TARGET_ONNX_IMPORTHELPERS_H
