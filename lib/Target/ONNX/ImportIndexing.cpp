//===- ImportIndexing.cpp - Gathers, scatters and selections by index -----===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Gather, GatherElements, GatherND, Scatter, ScatterElements, ScatterND,
// ReverseSequence and Compress: the ops that read or write a tensor at
// positions that another tensor holds. Indices are checked for their type
// here and for their range where they are constants. NonZero and
// NonMaxSuppression, which give such positions, as many as a run finds
// (outputs of run-time size, Importer::setRunTimeSizeOutput).
//
//===----------------------------------------------------------------------===//

#include "ImportHelpers.h"

#include <algorithm>
#include <cmath>
#include <optional>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::onnx_import;

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
  std::optional<Importer::RunTimeExtent> dataExtent =
      importer.getRunTimeExtent(node, 0);
  if (dataExtent && dataExtent->dim == *axis) {
    // Data of run-time size along the axis: a negative index counts from
    // its extent, not from its bound (the gather's own wrapping).
    Type indexType = Importer::getType(*indices).getElementType();
    Value extent = createCast(importer, node, dataExtent->count, indexType);
    Value zero = createSplat(importer, node, {}, indexType, 0);
    *indices = createWhere(
        importer, node, createCompare<LessOp>(importer, node, *indices, zero),
        createBinary<AddOp>(importer, node, *indices, extent), *indices);
  }
  Value result = GatherOp::create(
      b, importer.getLoc(node),
      importer.getTensorType(resultShape,
                             Importer::getType(*data).getElementType()),
      *data, *indices, b.getI64IntegerAttr(*axis));
  // Indices of run-time size (only with data of run-time size along the
  // axis: otherwise the rule of ImportRunTimeSize.cpp gives the extent).
  std::optional<Importer::RunTimeExtent> indicesExtent =
      importer.getRunTimeExtent(node, 1);
  if (dataExtent && dataExtent->dim == *axis && indicesExtent)
    return importer.setRunTimeSizeOutput(
        node, 0, result, *axis + indicesExtent->dim, indicesExtent->count);
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
  const ConstantTensor *condition =
      importer.getConstantInput(node, 1, /*decidesShapes=*/false);
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
  OpBuilder &b = importer.getBuilder();
  Location loc = importer.getLoc(node);
  RankedTensorType type = Importer::getType(x);
  int64_t dim = type.getDimSize(axis);
  if (!condition) {
    // A condition only a run decides: the slices at its nonzero positions,
    // as many as a run finds (NonZero's indices, then a Gather).
    FailureOr<Value> cond = importer.getInput(node, 1);
    if (failed(cond))
      return failure();
    RankedTensorType condType = Importer::getType(*cond);
    if (condType.getRank() != 1 || !condType.getElementType().isInteger(1))
      return importer.nodeError(node, "the condition must be a 1-D BOOL "
                                      "tensor");
    int64_t length = condType.getDimSize(0);
    if (length > dim)
      return importer.nodeError(node, "the condition has " + Twine(length) +
                                          " elements, more than the " +
                                          Twine(dim) + " slices along axis " +
                                          Twine(axis));
    auto nonzero = NonZeroOp::create(
        b, loc, importer.getTensorType({1, length}, b.getI64Type()),
        importer.getTensorType({}, b.getI64Type()), *cond);
    Value indices =
        createReshape(importer, node, nonzero.getIndices(), {length});
    SmallVector<int64_t> shape(type.getShape());
    shape[axis] = length;
    Value result = GatherOp::create(
        b, loc, importer.getTensorType(shape, type.getElementType()), x,
        indices, b.getI64IntegerAttr(axis));
    return importer.setRunTimeSizeOutput(node, 0, result, axis,
                                         nonzero.getCount());
  }
  SmallVector<int64_t> selected;
  SmallVector<int64_t> flags = condition->getInts();
  for (int64_t i = 0; i < std::min<int64_t>(dim, flags.size()); ++i)
    if (flags[i])
      selected.push_back(i);
  SmallVector<double> positions(selected.begin(), selected.end());
  Value indices = createConstantOf(importer, node, {int64_t(selected.size())},
                                   b.getI64Type(), positions);
  SmallVector<int64_t> shape(type.getShape());
  shape[axis] = selected.size();
  Value result = GatherOp::create(
      b, loc, importer.getTensorType(shape, type.getElementType()), x, indices,
      b.getI64IntegerAttr(axis));
  return importer.setOutput(node, 0, result);
}

/// NonZero: the indices of the nonzero elements, as many as a run finds
/// (a scalar is read as a tensor of one element, as ONNX Runtime does).
static LogicalResult importNonZero(Importer &importer,
                                   const onnx::NodeProto &node) {
  FailureOr<Value> input = importer.getInput(node, 0);
  if (failed(input))
    return failure();
  Value x = *input;
  // The padding of a value of run-time size is not an element: zeros.
  if (std::optional<Importer::RunTimeExtent> extent =
          importer.getRunTimeExtent(node, 0))
    x = maskPastExtent(importer, node, x, extent->dim, extent->count, 0);
  RankedTensorType type = Importer::getType(x);
  if (type.getRank() == 0)
    x = createReshape(importer, node, x, {1});
  int64_t rank = Importer::getType(x).getRank();
  OpBuilder &b = importer.getBuilder();
  auto op = NonZeroOp::create(
      b, importer.getLoc(node),
      importer.getTensorType({rank, type.getNumElements()}, b.getI64Type()),
      importer.getTensorType({}, b.getI64Type()), x);
  return importer.setRunTimeSizeOutput(node, 0, op.getIndices(), 1,
                                       op.getCount());
}

/// Unique: graph.unique over the elements (no axis: each a row of one) or
/// over the slices along `axis` (moved to the front and flattened into
/// rows); the distinct ones, their first indices and counts are of
/// run-time size along that axis, inverse_indices of the input's size.
static LogicalResult importUnique(Importer &importer,
                                  const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<Value> input = importer.getInput(node, 0);
  FailureOr<int64_t> sorted = attrs.getInt("sorted", 1);
  if (failed(input) || failed(sorted))
    return failure();
  Value x = *input;
  RankedTensorType type = Importer::getType(x);
  ArrayRef<int64_t> shape = type.getShape();
  std::optional<int64_t> axis;
  for (const onnx::AttributeProto &attr : node.attribute())
    if (attr.name() == "axis") {
      FailureOr<int64_t> given = attrs.getInt("axis", 0);
      if (failed(given))
        return failure();
      FailureOr<int64_t> normalized =
          normalizeAxis(importer, node, *given, shape.size());
      if (failed(normalized))
        return failure();
      axis = *normalized;
    }

  // The rows: [N, M].
  SmallVector<int64_t> perm, moved;
  int64_t n = type.getNumElements(), m = 1;
  if (axis) {
    perm.push_back(*axis);
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (d != *axis)
        perm.push_back(d);
    for (int64_t d : perm)
      moved.push_back(shape[d]);
    n = shape[*axis];
    m = n ? type.getNumElements() / n : 0;
  }
  OpBuilder &b = importer.getBuilder();
  Location loc = importer.getLoc(node);
  Value rows = x;
  if (axis)
    rows = createTranspose(importer, node, rows, perm);
  rows = createReshape(importer, node, rows, {n, m});
  RankedTensorType indexType = importer.getTensorType({n}, b.getI64Type());
  auto op = UniqueOp::create(
      b, loc, Importer::getType(rows), indexType, indexType, indexType,
      importer.getTensorType({}, b.getI64Type()), rows, *sorted != 0);

  // The distinct values in the input's layout.
  Value values = op.getValues();
  int64_t dim = 0;
  if (axis) {
    values = createReshape(importer, node, values, moved);
    SmallVector<int64_t> inverse(perm.size());
    for (auto [i, d] : llvm::enumerate(perm))
      inverse[d] = i;
    values = createTranspose(importer, node, values, inverse);
    dim = *axis;
  } else {
    values = createReshape(importer, node, values, {n});
  }
  Value count = op.getCount();
  if (failed(importer.setRunTimeSizeOutput(node, 0, values, dim, count)))
    return failure();
  if (node.output_size() > 1 &&
      failed(importer.setRunTimeSizeOutput(node, 1, op.getIndices(), 0, count)))
    return failure();
  if (node.output_size() > 2 &&
      failed(importer.setOutput(node, 2, op.getInverse())))
    return failure();
  if (node.output_size() > 3 &&
      failed(importer.setRunTimeSizeOutput(node, 3, op.getCounts(), 0, count)))
    return failure();
  return success();
}

/// NonMaxSuppression: the selected [batch, class, box] rows, as many as a
/// run selects. The limits must be known when the model is compiled (a
/// model input is specialized on its value): max_output_boxes_per_class
/// bounds the output's size.
static LogicalResult importNonMaxSuppression(Importer &importer,
                                             const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<Value> boxes = importer.getInput(node, 0);
  FailureOr<Value> scores = importer.getInput(node, 1);
  FailureOr<int64_t> centerPointBox = attrs.getInt("center_point_box", 0);
  if (failed(boxes) || failed(scores) || failed(centerPointBox))
    return failure();
  if (*centerPointBox != 0 && *centerPointBox != 1)
    return importer.nodeError(node, "center_point_box must be 0 or 1, got " +
                                        Twine(*centerPointBox));
  RankedTensorType boxesType = Importer::getType(*boxes);
  RankedTensorType scoresType = Importer::getType(*scores);
  ArrayRef<int64_t> boxesShape = boxesType.getShape();
  ArrayRef<int64_t> scoresShape = scoresType.getShape();
  if (!boxesType.getElementType().isF32() ||
      !scoresType.getElementType().isF32() || boxesShape.size() != 3 ||
      boxesShape[2] != 4 || scoresShape.size() != 3 ||
      scoresShape[0] != boxesShape[0] || scoresShape[2] != boxesShape[1])
    return importer.nodeError(
        node, "boxes must be [B, N, 4] and scores [B, C, N], both float32; "
              "got " +
                  formatShape(boxesShape) + " and " + formatShape(scoresShape));
  // Boxes of run-time size (a detection head's candidates): their padding
  // gets NaN scores, which are never selected.
  std::optional<Importer::RunTimeExtent> boxesExtent =
      importer.getRunTimeExtent(node, 0);
  std::optional<Importer::RunTimeExtent> scoresExtent =
      importer.getRunTimeExtent(node, 1);
  if ((boxesExtent && boxesExtent->dim != 1) ||
      (scoresExtent && scoresExtent->dim != 2))
    return importer.nodeError(node, "only the number of boxes may be of "
                                    "run-time size");
  if (boxesExtent || scoresExtent)
    *scores = maskPastExtent(
        importer, node, *scores, 2,
        scoresExtent ? scoresExtent->count : boxesExtent->count, NAN);
  // An optional scalar input that must be a constant.
  auto readScalar = [&](int index, StringRef name,
                        std::optional<double> &value) -> LogicalResult {
    if (!Importer::hasInput(node, index))
      return success();
    const ConstantTensor *tensor = importer.getConstantInput(node, index);
    if (!tensor)
      return importer.nodeError(node, name + " is not a constant, which is "
                                             "not supported");
    if (tensor->getNumElements() != 1)
      return importer.nodeError(node, name + " must hold one value, not " +
                                          Twine(tensor->getNumElements()));
    value = tensor->getDoubles()[0];
    return success();
  };
  std::optional<double> maxBoxes, iouThreshold, scoreThreshold;
  if (failed(readScalar(2, "max_output_boxes_per_class", maxBoxes)) ||
      failed(readScalar(3, "iou_threshold", iouThreshold)) ||
      failed(readScalar(4, "score_threshold", scoreThreshold)))
    return failure();
  // No limit given, or one not above 0, selects nothing (ONNX Runtime); a
  // limit above the number of boxes is no limit.
  int64_t limit =
      std::clamp<double>(maxBoxes.value_or(0), 0.0, double(boxesShape[1]));
  OpBuilder &b = importer.getBuilder();
  auto op = NonMaxSuppressionOp::create(
      b, importer.getLoc(node),
      importer.getTensorType({scoresShape[0] * scoresShape[1] * limit, 3},
                             b.getI64Type()),
      importer.getTensorType({}, b.getI64Type()), *boxes, *scores,
      b.getI64IntegerAttr(limit),
      b.getF32FloatAttr(float(iouThreshold.value_or(0.0))),
      scoreThreshold ? b.getF32FloatAttr(float(*scoreThreshold)) : FloatAttr(),
      *centerPointBox ? b.getUnitAttr() : UnitAttr());
  return importer.setRunTimeSizeOutput(node, 0, op.getSelected(), 0,
                                       op.getCount());
}

void mlir::graph::onnx_import::registerIndexingOps(OpRegistry &registry) {
  registry.on("NonMaxSuppression", 10, importNonMaxSuppression);
  registry.on("NonZero", 9, importNonZero);
  registry.on("Unique", 11, importUnique);
  registry.on("Gather", 1, importGather);
  registry.on("GatherElements", 11, importGatherElements);
  registry.on("Scatter", 9, importScatterElements);
  registry.on("ScatterElements", 11, importScatterElements);
  registry.on("GatherND", 11, importGatherND);
  registry.on("ScatterND", 11, importScatterND);
  registry.on("ReverseSequence", 10, importReverseSequence);
  registry.on("Compress", 9, importCompress);
}
