//===- ImportShapes.cpp - Shape arithmetic and data movement --------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Shape and Size of a static shape are compile-time tensors; Flatten,
// Reshape, Transpose, Squeeze, Unsqueeze, DepthToSpace, SpaceToDepth, Expand
// and Tile are reshapes, transposes and broadcasts; Pad is a pad. Slice,
// Split and Concat are in ImportSlices.cpp, the gathers and scatters in
// ImportIndexing.cpp, the tensors made from a shape or a pattern in
// ImportGenerators.cpp. The values that a shape
// computation produces from constants fold at import (Importer::setOutput), so
// shape subgraphs leave no ops behind.
//
//===----------------------------------------------------------------------===//

#include "ImportHelpers.h"

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
  std::optional<Importer::RunTimeExtent> extent =
      importer.getRunTimeExtent(node, 0);
  if (!extent || extent->dim < first || extent->dim >= last) {
    setIntsOutput(importer, node, 0, dims, {int64_t(dims.size())});
    return success();
  }
  // A value of run-time size: its extent in place of its bound.
  OpBuilder &b = importer.getBuilder();
  Location loc = importer.getLoc(node);
  auto vectorType = [&](int64_t size) {
    return importer.getTensorType({size}, b.getI64Type());
  };
  auto constant = [&](ArrayRef<int64_t> values) {
    return importer.createConstant(
        node, DenseElementsAttr::get(vectorType(values.size()), values));
  };
  int64_t at = extent->dim - first;
  SmallVector<Value> parts;
  if (at > 0)
    parts.push_back(constant(ArrayRef(dims).take_front(at)));
  parts.push_back(ReshapeOp::create(b, loc, vectorType(1), extent->count,
                                    b.getDenseI64ArrayAttr({1})));
  if (at + 1 < int64_t(dims.size()))
    parts.push_back(constant(ArrayRef(dims).drop_front(at + 1)));
  Value result = parts.size() == 1
                     ? parts.front()
                     : ConcatOp::create(b, loc, vectorType(dims.size()), parts,
                                        b.getI64IntegerAttr(0))
                           .getResult();
  // ConstantOfShape, Expand and Reshape of it know its values but one.
  return importer.setRunTimeShapeOutput(
      node, 0, result, Importer::RunTimeShape{dims, at, extent->count});
}

LogicalResult
mlir::graph::onnx_import::importSize(Importer &importer,
                                     const onnx::NodeProto &node) {
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(x))
    return failure();
  RankedTensorType type = Importer::getType(*x);
  std::optional<Importer::RunTimeExtent> extent =
      importer.getRunTimeExtent(node, 0);
  if (!extent) {
    setIntsOutput(importer, node, 0, {type.getNumElements()}, {});
    return success();
  }
  // A value of run-time size: its extent times the other dimensions.
  int64_t others = 1;
  for (auto [d, size] : llvm::enumerate(type.getShape()))
    if (int64_t(d) != extent->dim)
      others *= size;
  OpBuilder &b = importer.getBuilder();
  RankedTensorType scalar = importer.getTensorType({}, b.getI64Type());
  Value factor = importer.createConstant(
      node, DenseElementsAttr::get(scalar, b.getI64IntegerAttr(others)));
  return importer.setOutput(
      node, 0,
      MulOp::create(b, importer.getLoc(node), scalar, extent->count, factor));
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
// Flatten, Reshape, Transpose
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
                              getNumElements(shape.drop_front(*normalized))},
                             Importer::getType(*x).getElementType());
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
  SmallVector<int64_t> target;
  if (importer.getOpset() < 5) {
    // The target is an attribute before opset 5.
    FailureOr<SmallVector<int64_t>> shape = attrs.getInts("shape", {});
    if (failed(shape))
      return failure();
    target = *shape;
  } else {
    const ConstantTensor *targetInput = importer.getConstantInput(node, 1);
    if (!targetInput)
      return importer.nodeError(
          node,
          "the target shape '" +
              (Importer::hasInput(node, 1) ? node.input(1) : std::string()) +
              "' is not a constant, which is not supported");
    if (!targetInput->isInteger() || targetInput->shape.size() != 1)
      return importer.nodeError(node, "the target shape '" + node.input(1) +
                                          "' is not a 1-D integer tensor");
    target = targetInput->getInts();
  }
  std::string error;
  std::optional<SmallVector<int64_t>> shape = resolveReshape(
      Importer::getType(*x).getShape(), target, *allowZero != 0, error);
  if (!shape)
    return importer.nodeError(
        node, "cannot reshape " +
                  formatShape(Importer::getType(*x).getShape()) + " to " +
                  formatList(target) + ": " + error);
  OpBuilder &b = importer.getBuilder();
  Value result = ReshapeOp::create(
      b, importer.getLoc(node),
      importer.getTensorType(*shape, Importer::getType(*x).getElementType()),
      *x, b.getDenseI64ArrayAttr(*shape));
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
  Value result = TransposeOp::create(
      b, importer.getLoc(node),
      importer.getTensorType(resultShape,
                             Importer::getType(*x).getElementType()),
      *x, b.getDenseI64ArrayAttr(*perm));
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

void mlir::graph::onnx_import::registerShapeOps(OpRegistry &registry) {
  registry.on("Flatten", 1, importFlatten);
  registry.on("Reshape", 1, importReshape);
  registry.on("Transpose", 1, importTranspose);
  registry.on("Shape", 1, importShape);
  registry.on("Size", 1, importSize);
  registry.on("Squeeze", 1, importSqueeze);
  registry.on("Unsqueeze", 1, importUnsqueeze);
  registry.on("Expand", 8, importExpand);
  registry.on("Tile", 1, importTile);
  registry.on("Pad", 1, importPad);
  registry.on("DepthToSpace", 1, importDepthToSpace);
  registry.on("SpaceToDepth", 1, importSpaceToDepth);
}
