//===- ImportShapes.cpp - Shape arithmetic and data movement --------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Shape and Size of a static shape, ConstantOfShape, Range and EyeLike are
// compile-time tensors; Squeeze, Unsqueeze, DepthToSpace, SpaceToDepth and
// Tile are reshapes, transposes and broadcasts; Split is slices; Trilu,
// OneHot and Compress are selections and gathers with constant masks or
// indices. The values that a shape computation produces from constants fold
// at import (Importer::setOutput), so shape subgraphs leave no ops behind.
//
//===----------------------------------------------------------------------===//

#include "ImportHelpers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::onnx_import;

//===----------------------------------------------------------------------===//
// Shape, Size
//===----------------------------------------------------------------------===//

LogicalResult
mlir::graph::onnx_import::importShape(Importer &importer,
                                      const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> shape = Importer::getType(*x).getShape();
  int64_t rank = shape.size();
  FailureOr<int64_t> start = attrs.getInt("start", 0);
  FailureOr<int64_t> end = attrs.getInt("end", rank);
  if (failed(start) || failed(end))
    return failure();
  // Opset 15: start and end clamp into [0, rank] after counting from the end.
  auto clampIndex = [&](int64_t i) {
    if (i < 0)
      i += rank;
    return std::clamp<int64_t>(i, 0, rank);
  };
  int64_t first = clampIndex(*start), last = clampIndex(*end);
  SmallVector<int64_t> dims;
  for (int64_t d = first; d < last; ++d)
    dims.push_back(shape[d]);
  setIntsOutput(importer, node, 0, dims, {int64_t(dims.size())});
  return success();
}

LogicalResult
mlir::graph::onnx_import::importSize(Importer &importer,
                                     const onnx::NodeProto &node) {
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x))
    return failure();
  setIntsOutput(importer, node, 0, {Importer::getType(*x).getNumElements()},
                {});
  return success();
}

//===----------------------------------------------------------------------===//
// Squeeze, Unsqueeze
//===----------------------------------------------------------------------===//

LogicalResult
mlir::graph::onnx_import::importSqueeze(Importer &importer,
                                        const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<Value> x = importer.getInput(node, 0);
  FailureOr<std::optional<SmallVector<int64_t>>> axes =
      getAxes(importer, node, attrs, /*inputOpset=*/13, 1);
  if (failed(x) || failed(axes))
    return failure();
  ArrayRef<int64_t> shape = Importer::getType(*x).getShape();
  int64_t rank = shape.size();
  SmallVector<bool> removed(rank, false);
  if (!*axes) {
    for (int64_t d = 0; d < rank; ++d)
      removed[d] = shape[d] == 1;
  } else {
    for (int64_t axis : **axes) {
      FailureOr<int64_t> d = normalizeAxis(importer, node, axis, rank);
      if (failed(d))
        return failure();
      if (shape[*d] != 1)
        return importer.nodeError(node, "dimension " + Twine(*d) + " of size " +
                                            Twine(shape[*d]) +
                                            " cannot be squeezed");
      removed[*d] = true;
    }
  }
  SmallVector<int64_t> result;
  for (int64_t d = 0; d < rank; ++d)
    if (!removed[d])
      result.push_back(shape[d]);
  return importer.setOutput(node, 0, createReshape(importer, node, *x, result));
}

LogicalResult
mlir::graph::onnx_import::importUnsqueeze(Importer &importer,
                                          const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<Value> x = importer.getInput(node, 0);
  FailureOr<std::optional<SmallVector<int64_t>>> axes =
      getAxes(importer, node, attrs, /*inputOpset=*/13, 1);
  if (failed(x) || failed(axes))
    return failure();
  if (!*axes)
    return importer.nodeError(node, "the axes are missing");
  ArrayRef<int64_t> shape = Importer::getType(*x).getShape();
  int64_t rank = shape.size() + (*axes)->size();
  SmallVector<bool> inserted(rank, false);
  for (int64_t axis : **axes) {
    FailureOr<int64_t> d = normalizeAxis(importer, node, axis, rank);
    if (failed(d))
      return failure();
    if (inserted[*d])
      return importer.nodeError(node, "axis " + Twine(axis) + " is repeated");
    inserted[*d] = true;
  }
  SmallVector<int64_t> result;
  size_t next = 0;
  for (int64_t d = 0; d < rank; ++d)
    result.push_back(inserted[d] ? 1 : shape[next++]);
  return importer.setOutput(node, 0, createReshape(importer, node, *x, result));
}

//===----------------------------------------------------------------------===//
// Slice, Split
//===----------------------------------------------------------------------===//

LogicalResult
mlir::graph::onnx_import::importSlice(Importer &importer,
                                      const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> shape = Importer::getType(*x).getShape();
  int64_t rank = shape.size();
  SmallVector<int64_t> starts, ends, axes, steps;
  if (importer.getOpset() < 10) {
    FailureOr<SmallVector<int64_t>> s = attrs.getInts("starts", {});
    FailureOr<SmallVector<int64_t>> e = attrs.getInts("ends", {});
    FailureOr<SmallVector<int64_t>> a = attrs.getInts("axes", {});
    if (failed(s) || failed(e) || failed(a))
      return failure();
    starts = *s;
    ends = *e;
    axes = *a;
  } else {
    FailureOr<std::optional<SmallVector<int64_t>>> s =
        getConstantInts(importer, node, 1, "starts");
    FailureOr<std::optional<SmallVector<int64_t>>> e =
        getConstantInts(importer, node, 2, "ends");
    FailureOr<std::optional<SmallVector<int64_t>>> a =
        getConstantInts(importer, node, 3, "axes");
    FailureOr<std::optional<SmallVector<int64_t>>> st =
        getConstantInts(importer, node, 4, "steps");
    if (failed(s) || failed(e) || failed(a) || failed(st))
      return failure();
    if (!*s || !*e)
      return importer.nodeError(node, "starts and ends are required");
    starts = **s;
    ends = **e;
    if (*a)
      axes = **a;
    if (*st)
      steps = **st;
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(i);
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size())
    return importer.nodeError(node, "starts, ends, axes and steps have "
                                    "different lengths");
  SmallVector<int64_t> outStarts(rank, 0), outSteps(rank, 1),
      sizes(shape.begin(), shape.end());
  SmallVector<bool> seen(rank, false);
  for (size_t i = 0; i < starts.size(); ++i) {
    FailureOr<int64_t> axis = normalizeAxis(importer, node, axes[i], rank);
    if (failed(axis))
      return failure();
    if (seen[*axis])
      return importer.nodeError(node,
                                "axis " + Twine(axes[i]) + " is repeated");
    seen[*axis] = true;
    int64_t dim = shape[*axis], step = steps[i];
    if (step == 0)
      return importer.nodeError(node, "a step is 0");
    // ONNX's clamping: negative positions count from the end, then clamp
    // to [0, dim] (positive steps) or [-1, dim - 1] (negative ones).
    int64_t start = starts[i], end = ends[i];
    if (start < 0)
      start += dim;
    if (end < 0)
      end += dim;
    if (step > 0) {
      start = std::clamp<int64_t>(start, 0, dim);
      end = std::clamp<int64_t>(end, 0, dim);
    } else {
      start = std::clamp<int64_t>(start, 0, dim - 1);
      end = std::clamp<int64_t>(end, -1, dim - 1);
    }
    int64_t size;
    if (step > 0)
      size = end > start ? (end - start + step - 1) / step : 0;
    else
      size = start > end ? (start - end + (-step) - 1) / (-step) : 0;
    outStarts[*axis] = size > 0 ? start : 0;
    outSteps[*axis] = step;
    sizes[*axis] = size;
  }
  return importer.setOutput(
      node, 0, createSlice(importer, node, *x, outStarts, outSteps, sizes));
}

LogicalResult
mlir::graph::onnx_import::importSplit(Importer &importer,
                                      const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<Value> x = importer.getInput(node, 0);
  FailureOr<int64_t> axisAttr = attrs.getInt("axis", 0);
  if (failed(x) || failed(axisAttr))
    return failure();
  ArrayRef<int64_t> shape = Importer::getType(*x).getShape();
  FailureOr<int64_t> axis =
      normalizeAxis(importer, node, *axisAttr, shape.size());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> sizes;
  if (importer.getOpset() < 13) {
    FailureOr<SmallVector<int64_t>> split = attrs.getInts("split", {});
    if (failed(split))
      return failure();
    sizes = *split;
  } else {
    FailureOr<std::optional<SmallVector<int64_t>>> split =
        getConstantInts(importer, node, 1, "split");
    if (failed(split))
      return failure();
    if (*split)
      sizes = **split;
  }
  int64_t dim = shape[*axis];
  int64_t outputs = node.output_size();
  if (sizes.empty()) {
    // Equal parts; with opset 18's num_outputs the last may be smaller.
    FailureOr<int64_t> numOutputs = attrs.getInt("num_outputs", outputs);
    if (failed(numOutputs))
      return failure();
    if (*numOutputs < 1)
      return importer.nodeError(node, "no outputs to split into");
    int64_t part = (dim + *numOutputs - 1) / *numOutputs;
    if (!attrs.has("num_outputs") && dim % *numOutputs != 0)
      return importer.nodeError(node, "dimension " + Twine(dim) +
                                          " does not split into " +
                                          Twine(*numOutputs) + " equal parts");
    for (int64_t i = 0, left = dim; i < *numOutputs; ++i) {
      sizes.push_back(std::min(part, left));
      left -= sizes.back();
    }
  }
  if (int64_t(sizes.size()) != outputs ||
      llvm::any_of(sizes, [](int64_t s) { return s < 0; }) ||
      llvm::sum_of(sizes) != dim)
    return importer.nodeError(
        node, "split sizes " + formatList(sizes) + " do not cover dimension " +
                  Twine(*axis) + " of size " + Twine(dim) + " in " +
                  Twine(outputs) + " outputs");
  int64_t offset = 0;
  for (int64_t i = 0; i < outputs; ++i) {
    SmallVector<int64_t> starts(shape.size(), 0), steps(shape.size(), 1),
        outShape(shape.begin(), shape.end());
    starts[*axis] = sizes[i] > 0 ? offset : 0;
    outShape[*axis] = sizes[i];
    offset += sizes[i];
    if (node.output(i).empty())
      continue;
    if (failed(importer.setOutput(
            node, i, createSlice(importer, node, *x, starts, steps, outShape))))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Gather, GatherElements, ScatterElements, Compress
//===----------------------------------------------------------------------===//

/// Fails (reported) unless input `index` holds INT32 or INT64 indices.
static LogicalResult checkIndices(Importer &importer,
                                  const onnx::NodeProto &node, Value indices,
                                  int index) {
  Type type = Importer::getType(indices).getElementType();
  if (type.isSignlessInteger(32) || type.isSignlessInteger(64))
    return success();
  return importer.nodeError(node, "indices '" + node.input(index) +
                                      "' are not INT32 or INT64");
}

LogicalResult
mlir::graph::onnx_import::importGather(Importer &importer,
                                       const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> axisAttr = attrs.getInt("axis", 0);
  FailureOr<Value> data = importer.getInput(node, 0);
  FailureOr<Value> indices = importer.getInput(node, 1);
  if (failed(axisAttr) || failed(data) || failed(indices) ||
      failed(checkIndices(importer, node, *indices, 1)))
    return failure();
  ArrayRef<int64_t> shape = Importer::getType(*data).getShape();
  FailureOr<int64_t> axis =
      normalizeAxis(importer, node, *axisAttr, shape.size());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> resultShape(shape.take_front(*axis));
  ArrayRef<int64_t> indexShape = Importer::getType(*indices).getShape();
  resultShape.append(indexShape.begin(), indexShape.end());
  resultShape.append(shape.begin() + *axis + 1, shape.end());
  OpBuilder &b = importer.getBuilder();
  Value result = GatherOp::create(
      b, importer.getLoc(node),
      importer.getTensorType(resultShape,
                             Importer::getType(*data).getElementType()),
      *data, *indices, b.getI64IntegerAttr(*axis));
  return importer.setOutput(node, 0, result);
}

LogicalResult
mlir::graph::onnx_import::importGatherElements(Importer &importer,
                                               const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> axisAttr = attrs.getInt("axis", 0);
  FailureOr<Value> data = importer.getInput(node, 0);
  FailureOr<Value> indices = importer.getInput(node, 1);
  if (failed(axisAttr) || failed(data) || failed(indices) ||
      failed(checkIndices(importer, node, *indices, 1)))
    return failure();
  ArrayRef<int64_t> shape = Importer::getType(*data).getShape();
  ArrayRef<int64_t> indexShape = Importer::getType(*indices).getShape();
  FailureOr<int64_t> axis =
      normalizeAxis(importer, node, *axisAttr, shape.size());
  if (failed(axis))
    return failure();
  if (indexShape.size() != shape.size())
    return importer.nodeError(
        node, "indices of shape " + formatShape(indexShape) +
                  " do not have the rank of the data " + formatShape(shape));
  OpBuilder &b = importer.getBuilder();
  Value result = GatherElementsOp::create(
      b, importer.getLoc(node),
      importer.getTensorType(indexShape,
                             Importer::getType(*data).getElementType()),
      *data, *indices, b.getI64IntegerAttr(*axis));
  return importer.setOutput(node, 0, result);
}

/// ReverseSequence as a GatherElements along the time axis: step t of
/// batch b reads step len[b] - 1 - t while t < len[b], step t otherwise
/// (the lengths clamped to [0, T]: the spec leaves larger ones undefined,
/// and they must not index outside the data).
LogicalResult
mlir::graph::onnx_import::importReverseSequence(Importer &importer,
                                                const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> timeAxis = attrs.getInt("time_axis", 0);
  FailureOr<int64_t> batchAxis = attrs.getInt("batch_axis", 1);
  FailureOr<Value> data = importer.getInput(node, 0);
  FailureOr<Value> lens = importer.getInput(node, 1);
  if (failed(timeAxis) || failed(batchAxis) || failed(data) || failed(lens) ||
      failed(checkIndices(importer, node, *lens, 1)))
    return failure();
  ArrayRef<int64_t> shape = Importer::getType(*data).getShape();
  ArrayRef<int64_t> lensShape = Importer::getType(*lens).getShape();
  int64_t t = *timeAxis, b = *batchAxis;
  if (shape.size() < 2 || !((t == 0 && b == 1) || (t == 1 && b == 0)))
    return importer.nodeError(
        node, "needs data of rank 2 or more and time_axis, batch_axis 0 and 1 "
              "or 1 and 0, got data of shape " +
                  formatShape(shape) + ", time_axis " + Twine(t) +
                  ", batch_axis " + Twine(b));
  int64_t steps = shape[t], batch = shape[b];
  if (lensShape.size() != 1 || lensShape[0] != batch)
    return importer.nodeError(node, "sequence_lens of shape " +
                                        formatShape(lensShape) +
                                        " for a batch of " + Twine(batch));
  Type i64 = importer.getBuilder().getI64Type();
  Value len = createCast(importer, node, *lens, i64);
  // [1, B] or [B, 1]: the lengths along the batch axis, clamped.
  SmallVector<int64_t> lenShape = {1, 1}, stepShape = {1, 1};
  lenShape[b] = batch;
  stepShape[t] = steps;
  len = createReshape(importer, node, len, lenShape);
  len = createBinary<MaxOp>(importer, node, len,
                            createConstantOf(importer, node, {}, i64, {0.0}));
  len = createBinary<MinOp>(
      importer, node, len,
      createConstantOf(importer, node, {}, i64, {double(steps)}));
  SmallVector<double> stepValues;
  for (int64_t i = 0; i < steps; ++i)
    stepValues.push_back(double(i));
  Value step = createConstantOf(importer, node, stepShape, i64, stepValues);
  Value reversed = createBinary<SubOp>(
      importer, node,
      createBinary<SubOp>(importer, node, len,
                          createConstantOf(importer, node, {}, i64, {1.0})),
      step);
  Value source = createWhere(importer, node,
                             createCompare<LessOp>(importer, node, step, len),
                             reversed, step);
  // The index of every element: [T, B] or [B, T] with ones after it,
  // broadcast over the data.
  SmallVector<int64_t> indexShape =
      llvm::to_vector(Importer::getType(source).getShape());
  indexShape.append(shape.size() - 2, 1);
  source = createReshape(importer, node, source, indexShape);
  OpBuilder &builder = importer.getBuilder();
  Location loc = importer.getLoc(node);
  if (ArrayRef<int64_t>(indexShape) != shape)
    source = BroadcastOp::create(builder, loc,
                                 importer.getTensorType(shape, i64), source);
  Value result = GatherElementsOp::create(
      builder, loc,
      importer.getTensorType(shape, Importer::getType(*data).getElementType()),
      *data, source, builder.getI64IntegerAttr(t));
  return importer.setOutput(node, 0, result);
}

LogicalResult
mlir::graph::onnx_import::importScatterElements(Importer &importer,
                                                const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> axisAttr = attrs.getInt("axis", 0);
  FailureOr<std::string> reduction = attrs.getString("reduction", "none");
  FailureOr<Value> data = importer.getInput(node, 0);
  FailureOr<Value> indices = importer.getInput(node, 1);
  FailureOr<Value> updates = importer.getInput(node, 2);
  if (failed(axisAttr) || failed(reduction) || failed(data) ||
      failed(indices) || failed(updates) ||
      failed(checkIndices(importer, node, *indices, 1)))
    return failure();
  ArrayRef<int64_t> shape = Importer::getType(*data).getShape();
  FailureOr<int64_t> axis =
      normalizeAxis(importer, node, *axisAttr, shape.size());
  if (failed(axis))
    return failure();
  if (Importer::getType(*indices).getShape() !=
          Importer::getType(*updates).getShape() ||
      Importer::getType(*indices).getRank() != int64_t(shape.size()))
    return importer.nodeError(node, "indices and updates must have one shape "
                                    "of the data's rank");
  OpBuilder &b = importer.getBuilder();
  Value result = ScatterElementsOp::create(
      b, importer.getLoc(node), Importer::getType(*data), *data, *indices,
      *updates, b.getI64IntegerAttr(*axis), b.getStringAttr(*reduction));
  return importer.setOutput(node, 0, result);
}

/// The row-major position, among the `dims` positions, that each index
/// vector of `indices` (the last dimension, of dims.size() components)
/// names: each component counted from the end when negative and clamped
/// into its dimension, as graph.gather does. An i64 tensor of the shape of
/// `indices` without its last dimension.
static Value linearizeIndices(Importer &importer, const onnx::NodeProto &node,
                              Value indices, ArrayRef<int64_t> dims) {
  Type i64 = importer.getBuilder().getI64Type();
  int64_t q = dims.size();
  SmallVector<double> sizes, lasts, strides(q, 1.0);
  for (int64_t d : dims) {
    sizes.push_back(double(d));
    lasts.push_back(double(d - 1));
  }
  for (int64_t j = q - 2; j >= 0; --j)
    strides[j] = strides[j + 1] * sizes[j + 1];
  auto vector = [&](ArrayRef<double> values) {
    return createConstantOf(importer, node, {q}, i64, values);
  };
  Value index = createCast(importer, node, indices, i64);
  Value negative =
      createCast(importer, node,
                 createCompare<LessOp>(importer, node, index,
                                       createSplat(importer, node, {}, i64, 0)),
                 i64);
  index = createBinary<AddOp>(
      importer, node, index,
      createBinary<MulOp>(importer, node, negative, vector(sizes)));
  index = createBinary<MinOp>(
      importer, node,
      createBinary<MaxOp>(importer, node, index,
                          createSplat(importer, node, {}, i64, 0)),
      vector(lasts));
  Value scaled = createBinary<MulOp>(importer, node, index, vector(strides));
  int64_t last = Importer::getType(indices).getRank() - 1;
  return createReduce<ReduceSumOp>(importer, node, scaled, {last}, false);
}

/// GatherND as a Gather along the first dimension of the data viewed as
/// [batch x indexed positions, slice...], at the linearized indices plus
/// each batch's offset.
LogicalResult
mlir::graph::onnx_import::importGatherND(Importer &importer,
                                         const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> batchDims = attrs.getInt("batch_dims", 0);
  FailureOr<Value> data = importer.getInput(node, 0);
  FailureOr<Value> indices = importer.getInput(node, 1);
  if (failed(batchDims) || failed(data) || failed(indices) ||
      failed(checkIndices(importer, node, *indices, 1)))
    return failure();
  ArrayRef<int64_t> shape = Importer::getType(*data).getShape();
  ArrayRef<int64_t> indexShape = Importer::getType(*indices).getShape();
  int64_t b = *batchDims, rank = shape.size();
  int64_t q = indexShape.empty() ? 0 : indexShape.back();
  if (indexShape.empty() || b < 0 || b >= int64_t(indexShape.size()) ||
      b + q > rank || q < 1 || shape.take_front(b) != indexShape.take_front(b))
    return importer.nodeError(
        node, "data of shape " + formatShape(shape) + " and indices of shape " +
                  formatShape(indexShape) + " do not match with batch_dims " +
                  Twine(b));
  int64_t batch = 1, positions = 1;
  for (int64_t d : shape.take_front(b))
    batch *= d;
  for (int64_t d : shape.slice(b, q))
    positions *= d;
  Value linear = linearizeIndices(importer, node, *indices, shape.slice(b, q));
  if (b > 0) {
    // Batch k's positions start at k * positions: a constant of the batch
    // shape with ones after it.
    SmallVector<int64_t> offsetShape(indexShape.take_front(b));
    offsetShape.append(indexShape.size() - 1 - b, 1);
    SmallVector<double> offsets;
    for (int64_t k = 0; k < batch; ++k)
      offsets.push_back(double(k * positions));
    linear = createBinary<AddOp>(
        importer, node, linear,
        createConstantOf(importer, node, offsetShape,
                         importer.getBuilder().getI64Type(), offsets));
  }
  SmallVector<int64_t> flatShape = {batch * positions};
  flatShape.append(shape.begin() + b + q, shape.end());
  Value flat = createReshape(importer, node, *data, flatShape);
  SmallVector<int64_t> resultShape(indexShape.drop_back());
  resultShape.append(shape.begin() + b + q, shape.end());
  OpBuilder &builder = importer.getBuilder();
  Value result = GatherOp::create(
      builder, importer.getLoc(node),
      importer.getTensorType(resultShape,
                             Importer::getType(*data).getElementType()),
      flat, linear, builder.getI64IntegerAttr(0));
  return importer.setOutput(node, 0, result);
}

/// ScatterND as a ScatterElements along the first dimension of the data
/// viewed as [indexed positions, slice...], its indices the linearized ones
/// broadcast over each slice, its updates one row per index vector.
LogicalResult
mlir::graph::onnx_import::importScatterND(Importer &importer,
                                          const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<std::string> reduction = attrs.getString("reduction", "none");
  FailureOr<Value> data = importer.getInput(node, 0);
  FailureOr<Value> indices = importer.getInput(node, 1);
  FailureOr<Value> updates = importer.getInput(node, 2);
  if (failed(reduction) || failed(data) || failed(indices) || failed(updates) ||
      failed(checkIndices(importer, node, *indices, 1)))
    return failure();
  if (*reduction != "none" && *reduction != "add" && *reduction != "mul" &&
      *reduction != "max" && *reduction != "min")
    return importer.nodeError(node, "reduction '" + *reduction +
                                        "' is not none, add, mul, max or min");
  ArrayRef<int64_t> shape = Importer::getType(*data).getShape();
  ArrayRef<int64_t> indexShape = Importer::getType(*indices).getShape();
  int64_t q = indexShape.empty() ? 0 : indexShape.back();
  SmallVector<int64_t> updateShape(indexShape.drop_back());
  if (q >= 1 && q <= int64_t(shape.size()))
    updateShape.append(shape.begin() + q, shape.end());
  if (q < 1 || q > int64_t(shape.size()) ||
      Importer::getType(*updates).getShape() != ArrayRef<int64_t>(updateShape))
    return importer.nodeError(
        node, "data of shape " + formatShape(shape) + ", indices of shape " +
                  formatShape(indexShape) + " and updates of shape " +
                  formatShape(Importer::getType(*updates).getShape()) +
                  " do not match");
  int64_t positions = 1, count = 1;
  for (int64_t d : shape.take_front(q))
    positions *= d;
  for (int64_t d : indexShape.drop_back())
    count *= d;
  ArrayRef<int64_t> slice = shape.drop_front(q);
  SmallVector<int64_t> flatShape = {positions}, rowsShape = {count},
                       columnShape = {count};
  flatShape.append(slice.begin(), slice.end());
  rowsShape.append(slice.begin(), slice.end());
  columnShape.append(slice.size(), 1);
  Value linear =
      linearizeIndices(importer, node, *indices, shape.take_front(q));
  linear = createReshape(importer, node, linear, columnShape);
  OpBuilder &b = importer.getBuilder();
  Type i64 = b.getI64Type();
  if (ArrayRef<int64_t>(columnShape) != ArrayRef<int64_t>(rowsShape))
    linear =
        BroadcastOp::create(b, importer.getLoc(node),
                            importer.getTensorType(rowsShape, i64), linear);
  Value result = ScatterElementsOp::create(
      b, importer.getLoc(node),
      importer.getTensorType(flatShape,
                             Importer::getType(*data).getElementType()),
      createReshape(importer, node, *data, flatShape), linear,
      createReshape(importer, node, *updates, rowsShape),
      b.getI64IntegerAttr(0), b.getStringAttr(*reduction));
  return importer.setOutput(node, 0,
                            createReshape(importer, node, result, shape));
}

LogicalResult
mlir::graph::onnx_import::importCompress(Importer &importer,
                                         const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<Value> data = importer.getInput(node, 0);
  if (failed(data))
    return failure();
  const ConstantTensor *condition = importer.getConstantInput(node, 1);
  if (!condition)
    return importer.nodeError(node, "the condition is not a constant, which "
                                    "is not supported (the output's shape "
                                    "depends on it)");
  Value x = *data;
  int64_t axis = 0;
  if (attrs.has("axis")) {
    FailureOr<int64_t> axisAttr = attrs.getInt("axis", 0);
    if (failed(axisAttr))
      return failure();
    FailureOr<int64_t> normalized = normalizeAxis(
        importer, node, *axisAttr, Importer::getType(x).getRank());
    if (failed(normalized))
      return failure();
    axis = *normalized;
  } else {
    x = createReshape(importer, node, x,
                      {Importer::getType(x).getNumElements()});
  }
  SmallVector<int64_t> selected;
  SmallVector<int64_t> flags = condition->getInts();
  int64_t dim = Importer::getType(x).getDimSize(axis);
  for (int64_t i = 0; i < std::min<int64_t>(dim, flags.size()); ++i)
    if (flags[i])
      selected.push_back(i);
  OpBuilder &b = importer.getBuilder();
  SmallVector<double> positions(selected.begin(), selected.end());
  Value indices = createConstantOf(importer, node, {int64_t(selected.size())},
                                   b.getI64Type(), positions);
  SmallVector<int64_t> shape(Importer::getType(x).getShape());
  shape[axis] = selected.size();
  Value result = GatherOp::create(
      b, importer.getLoc(node),
      importer.getTensorType(shape, Importer::getType(x).getElementType()), x,
      indices, b.getI64IntegerAttr(axis));
  return importer.setOutput(node, 0, result);
}

//===----------------------------------------------------------------------===//
// Expand, Tile
//===----------------------------------------------------------------------===//

LogicalResult
mlir::graph::onnx_import::importExpand(Importer &importer,
                                       const onnx::NodeProto &node) {
  FailureOr<Value> x = importer.getInput(node, 0);
  FailureOr<std::optional<SmallVector<int64_t>>> target =
      getConstantInts(importer, node, 1, "shape");
  if (failed(x) || failed(target))
    return failure();
  if (!*target)
    return importer.nodeError(node, "the shape is missing");
  ArrayRef<int64_t> shape = Importer::getType(*x).getShape();
  std::optional<SmallVector<int64_t>> result = broadcastShapes(shape, **target);
  if (!result || !isValidShape(*result, /*allowEmpty=*/true))
    return importer.nodeError(node, "shape " + formatShape(shape) +
                                        " does not expand to " +
                                        formatList(**target));
  if (ArrayRef<int64_t>(*result) == shape)
    return importer.setOutput(node, 0, *x);
  Value expanded = BroadcastOp::create(
      importer.getBuilder(), importer.getLoc(node),
      importer.getTensorType(*result, Importer::getType(*x).getElementType()),
      *x);
  return importer.setOutput(node, 0, expanded);
}

LogicalResult
mlir::graph::onnx_import::importTile(Importer &importer,
                                     const onnx::NodeProto &node) {
  FailureOr<Value> x = importer.getInput(node, 0);
  FailureOr<std::optional<SmallVector<int64_t>>> repeats =
      getConstantInts(importer, node, 1, "repeats");
  if (failed(x) || failed(repeats))
    return failure();
  ArrayRef<int64_t> shape = Importer::getType(*x).getShape();
  if (!*repeats || (*repeats)->size() != shape.size() ||
      llvm::any_of(**repeats, [](int64_t r) { return r < 0; }))
    return importer.nodeError(node, "repeats must give one non-negative count "
                                    "per dimension");
  // [d0, d1, ...] -> [1, d0, 1, d1, ...] -> [r0, d0, r1, d1, ...] ->
  // [r0 * d0, r1 * d1, ...]: out[i] = x[i mod d] on every dimension.
  SmallVector<int64_t> interleaved, broadcast, result;
  for (auto [dim, repeat] : llvm::zip(shape, **repeats)) {
    interleaved.append({1, dim});
    broadcast.append({repeat, dim});
    result.push_back(repeat * dim);
  }
  if (!isValidShape(result, /*allowEmpty=*/true))
    return importer.nodeError(node, "the tiled shape is too large");
  Type element = Importer::getType(*x).getElementType();
  Value v = createReshape(importer, node, *x, interleaved);
  if (broadcast != interleaved)
    v = BroadcastOp::create(importer.getBuilder(), importer.getLoc(node),
                            importer.getTensorType(broadcast, element), v);
  return importer.setOutput(node, 0, createReshape(importer, node, v, result));
}

//===----------------------------------------------------------------------===//
// ConstantOfShape, Range, EyeLike
//===----------------------------------------------------------------------===//

LogicalResult
mlir::graph::onnx_import::importConstantOfShape(Importer &importer,
                                                const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<std::optional<SmallVector<int64_t>>> shape =
      getConstantInts(importer, node, 0, "shape");
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
  return importer.setOutput(
      node, 0, createSplat(importer, node, **shape, element, value));
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
// Pad
//===----------------------------------------------------------------------===//

LogicalResult mlir::graph::onnx_import::importPad(Importer &importer,
                                                  const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<std::string> mode = attrs.getString("mode", "constant");
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(mode) || failed(x))
    return failure();
  RankedTensorType type = Importer::getType(*x);
  int64_t rank = type.getRank();
  Type element = type.getElementType();
  SmallVector<int64_t> pads;
  Value value;
  if (importer.getOpset() < 11) {
    FailureOr<SmallVector<int64_t>> padsAttr =
        attrs.getInts(importer.getOpset() < 2 ? "paddings" : "pads", {});
    FailureOr<float> valueAttr = attrs.getFloat("value", 0.0f);
    if (failed(padsAttr) || failed(valueAttr))
      return failure();
    pads = *padsAttr;
    if (*valueAttr != 0)
      value = createSplat(importer, node, {}, element, *valueAttr);
  } else {
    FailureOr<std::optional<SmallVector<int64_t>>> padsInput =
        getConstantInts(importer, node, 1, "pads");
    FailureOr<std::optional<SmallVector<int64_t>>> axes =
        getConstantInts(importer, node, 3, "axes");
    if (failed(padsInput) || failed(axes))
      return failure();
    if (!*padsInput)
      return importer.nodeError(node, "the pads are missing");
    pads = **padsInput;
    if (*axes) {
      // Opset 18: pads for the listed axes only.
      SmallVector<int64_t> full(2 * rank, 0);
      size_t n = (*axes)->size();
      if (pads.size() != 2 * n)
        return importer.nodeError(node, "pads do not match the axes");
      for (size_t i = 0; i < n; ++i) {
        FailureOr<int64_t> axis =
            normalizeAxis(importer, node, (**axes)[i], rank);
        if (failed(axis))
          return failure();
        full[*axis] = pads[i];
        full[rank + *axis] = pads[n + i];
      }
      pads = full;
    }
    if (Importer::hasInput(node, 2)) {
      FailureOr<Value> v = importer.getInput(node, 2);
      if (failed(v))
        return failure();
      if (Importer::getType(*v).getNumElements() != 1 ||
          Importer::getType(*v).getElementType() != element)
        return importer.nodeError(node, "constant_value '" + node.input(2) +
                                            "' is not a scalar of the input's "
                                            "type");
      value = createReshape(importer, node, *v, {});
    }
  }
  if (int64_t(pads.size()) != 2 * rank)
    return importer.nodeError(node, "pads " + formatList(pads) +
                                        " do not have " + Twine(2 * rank) +
                                        " values");
  if (*mode != "constant" && *mode != "reflect" && *mode != "edge")
    return importer.nodeError(node, "mode '" + *mode + "' is not supported");
  if (*mode != "constant")
    value = Value();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = type.getDimSize(d) + pads[d] + pads[rank + d];
    if (size < 0)
      return importer.nodeError(node, "pads " + formatList(pads) +
                                          " remove more than the input holds");
    bool padded = pads[d] > 0 || pads[rank + d] > 0;
    if (padded && *mode == "reflect" && type.getDimSize(d) < 2)
      return importer.nodeError(
          node, "reflect padding of a dimension of size " +
                    Twine(type.getDimSize(d)) + " is not defined");
    if (padded && *mode == "edge" && type.getDimSize(d) < 1)
      return importer.nodeError(node, "edge padding of an empty dimension is "
                                      "not defined");
    shape.push_back(size);
  }
  OpBuilder &b = importer.getBuilder();
  Value result = PadOp::create(
      b, importer.getLoc(node), importer.getTensorType(shape, element), *x,
      value, b.getDenseI64ArrayAttr(pads), b.getStringAttr(*mode));
  return importer.setOutput(node, 0, result);
}

//===----------------------------------------------------------------------===//
// DepthToSpace, SpaceToDepth
//===----------------------------------------------------------------------===//

/// reshape -> transpose -> reshape.
static Value shuffle(Importer &importer, const onnx::NodeProto &node, Value x,
                     ArrayRef<int64_t> split, ArrayRef<int64_t> perm,
                     ArrayRef<int64_t> result) {
  Value v = createReshape(importer, node, x, split);
  SmallVector<int64_t> permuted;
  for (int64_t p : perm)
    permuted.push_back(split[p]);
  OpBuilder &b = importer.getBuilder();
  v = TransposeOp::create(
      b, importer.getLoc(node),
      importer.getTensorType(permuted, Importer::getType(x).getElementType()),
      v, b.getDenseI64ArrayAttr(perm));
  return createReshape(importer, node, v, result);
}

LogicalResult
mlir::graph::onnx_import::importDepthToSpace(Importer &importer,
                                             const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> blocksize = attrs.getInt("blocksize", 0);
  FailureOr<std::string> mode = attrs.getString("mode", "DCR");
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(blocksize) || failed(mode) || failed(x) ||
      failed(checkRank(importer, node, *x, 0, 4, "DepthToSpace")))
    return failure();
  ArrayRef<int64_t> s = Importer::getType(*x).getShape();
  int64_t bs = *blocksize;
  if (bs < 1 || s[1] % (bs * bs) != 0)
    return importer.nodeError(node, "blocksize " + Twine(bs) +
                                        " does not divide the channels");
  int64_t n = s[0], c = s[1] / (bs * bs), h = s[2], w = s[3];
  SmallVector<int64_t> result = {n, c, h * bs, w * bs};
  Value v;
  if (*mode == "DCR")
    v = shuffle(importer, node, *x, {n, bs, bs, c, h, w}, {0, 3, 4, 1, 5, 2},
                result);
  else if (*mode == "CRD")
    v = shuffle(importer, node, *x, {n, c, bs, bs, h, w}, {0, 1, 4, 2, 5, 3},
                result);
  else
    return importer.nodeError(node, "mode '" + *mode + "' is not DCR or CRD");
  return importer.setOutput(node, 0, v);
}

LogicalResult
mlir::graph::onnx_import::importSpaceToDepth(Importer &importer,
                                             const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> blocksize = attrs.getInt("blocksize", 0);
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(blocksize) || failed(x) ||
      failed(checkRank(importer, node, *x, 0, 4, "SpaceToDepth")))
    return failure();
  ArrayRef<int64_t> s = Importer::getType(*x).getShape();
  int64_t bs = *blocksize;
  if (bs < 1 || s[2] % bs != 0 || s[3] % bs != 0)
    return importer.nodeError(node, "blocksize " + Twine(bs) +
                                        " does not divide the spatial size");
  int64_t n = s[0], c = s[1], h = s[2] / bs, w = s[3] / bs;
  return importer.setOutput(node, 0,
                            shuffle(importer, node, *x, {n, c, h, bs, w, bs},
                                    {0, 3, 5, 1, 2, 4},
                                    {n, c * bs * bs, h, w}));
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

void mlir::graph::onnx_import::registerShapeOps(OpRegistry &registry) {
  registry.on("Shape", 1, importShape);
  registry.on("Size", 1, importSize);
  registry.on("Squeeze", 1, importSqueeze);
  registry.on("Unsqueeze", 1, importUnsqueeze);
  registry.on("Split", 1, importSplit);
  registry.on("Slice", 1, importSlice);
  registry.on("Gather", 1, importGather);
  registry.on("GatherElements", 11, importGatherElements);
  registry.on("Scatter", 9, importScatterElements);
  registry.on("ScatterElements", 11, importScatterElements);
  registry.on("GatherND", 11, importGatherND);
  registry.on("ScatterND", 11, importScatterND);
  registry.on("ReverseSequence", 10, importReverseSequence);
  registry.on("Expand", 8, importExpand);
  registry.on("Tile", 1, importTile);
  registry.on("Pad", 1, importPad);
  registry.on("DepthToSpace", 1, importDepthToSpace);
  registry.on("SpaceToDepth", 1, importSpaceToDepth);
  registry.on("Trilu", 14, importTrilu);
  registry.on("OneHot", 9, importOneHot);
  registry.on("Compress", 9, importCompress);
  registry.on("ConstantOfShape", 9, importConstantOfShape);
  registry.on("EyeLike", 9, importEyeLike);
  registry.on("Range", 11, importRange);
  registry.on({"HannWindow", "HammingWindow", "BlackmanWindow"}, 17,
              importWindow);
}
