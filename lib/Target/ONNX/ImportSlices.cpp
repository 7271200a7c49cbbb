//===- ImportSlices.cpp - Slice, Split and Concat -------------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The parts of a tensor and their joining: Slice and Split become
// graph.slice ops (steps, negative and clamped bounds resolved at import),
// Concat a graph.concat.
//
//===----------------------------------------------------------------------===//

#include "ImportHelpers.h"

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::onnx_import;

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
  for (auto [i, input] : llvm::enumerate(inputs))
    if (Importer::getType(input).getElementType() !=
        Importer::getType(inputs[0]).getElementType())
      return importer.nodeError(node, "inputs have different element types");
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
  Value result = ConcatOp::create(
      b, importer.getLoc(node),
      importer.getTensorType(shape,
                             Importer::getType(inputs[0]).getElementType()),
      inputs, b.getI64IntegerAttr(*normalized));
  return importer.setOutput(node, 0, result);
}

void mlir::graph::onnx_import::registerSliceOps(OpRegistry &registry) {
  registry.on("Split", 1, importSplit);
  registry.on("Slice", 1, importSlice);
  registry.on("Concat", 1, importConcat);
}
