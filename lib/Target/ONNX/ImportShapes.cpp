//===- ImportShapes.cpp - Shape arithmetic and data movement --------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Shape and Size of a static shape are compile-time tensors; Squeeze,
// Unsqueeze, DepthToSpace, SpaceToDepth, Expand and Tile are reshapes,
// transposes and broadcasts; Slice and Split are slices; Pad is a pad. The
// gathers and scatters are in ImportIndexing.cpp, the tensors made from a
// shape or a pattern in ImportGenerators.cpp. The values that a shape
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
  registry.on("Shape", 1, importShape);
  registry.on("Size", 1, importSize);
  registry.on("Squeeze", 1, importSqueeze);
  registry.on("Unsqueeze", 1, importUnsqueeze);
  registry.on("Split", 1, importSplit);
  registry.on("Slice", 1, importSlice);
  registry.on("Expand", 8, importExpand);
  registry.on("Tile", 1, importTile);
  registry.on("Pad", 1, importPad);
  registry.on("DepthToSpace", 1, importDepthToSpace);
  registry.on("SpaceToDepth", 1, importSpaceToDepth);
}
