//===- ImportNN.cpp - N-d convolution and pooling, LRN, einsum ------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The forms of Conv, MaxPool and AveragePool that the 2-D f32 ops do not
// take (3-D, dilated pools, other element types) become graph.conv,
// graph.max_pool and graph.avg_pool; ConvTranspose graph.conv_transpose with
// ONNX's output size rules; MatMul beyond 2-D graph.batch_matmul; LRN a sum
// of shifted squares; Einsum graph.einsum with its ellipsis and implicit
// output made explicit. Resize, Upsample and GridSample are in
// ImportSampling.cpp.
//
//===----------------------------------------------------------------------===//

#include "ImportHelpers.h"

#include "graph/Dialect/Graph/IR/TypedKernels.h"

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::onnx_import;

/// The optional bias input 2 of a convolution, of `channels` elements.
static FailureOr<Value> getBias(Importer &importer, const onnx::NodeProto &node,
                                int64_t channels, Type element) {
  if (!Importer::hasInput(node, 2))
    return Value();
  FailureOr<Value> bias = importer.getInput(node, 2);
  if (failed(bias))
    return failure();
  if (Importer::getType(*bias).getShape() != ArrayRef<int64_t>{channels} ||
      Importer::getType(*bias).getElementType() != element)
    return importer.nodeError(
        node, "bias of shape " +
                  formatShape(Importer::getType(*bias).getShape()) +
                  " does not match " + Twine(channels) +
                  " output channels of the input's type");
  return *bias;
}

//===----------------------------------------------------------------------===//
// Conv, ConvTranspose
//===----------------------------------------------------------------------===//

LogicalResult
mlir::graph::onnx_import::importConvND(Importer &importer,
                                       const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<Value> input = importer.getInput(node, 0);
  FailureOr<Value> weight = importer.getInput(node, 1);
  FailureOr<int64_t> groups = attrs.getInt("group", 1);
  if (failed(input) || failed(weight) || failed(groups) ||
      failed(checkFloatType(importer, node, *input, 0)))
    return failure();
  RankedTensorType inType = Importer::getType(*input);
  ArrayRef<int64_t> in = inType.getShape();
  ArrayRef<int64_t> w = Importer::getType(*weight).getShape();
  Type element = inType.getElementType();
  if (in.size() < 3 || in.size() > 5 || w.size() != in.size())
    return importer.nodeError(
        node, "input of shape " + formatShape(in) + " and weight of shape " +
                  formatShape(w) + " are not a 1-D to 3-D convolution");
  if (*groups < 1 || in[1] % *groups != 0 || w[0] % *groups != 0 ||
      in[1] / *groups != w[1])
    return importer.nodeError(node,
                              "input of shape " + formatShape(in) +
                                  " and weight of shape " + formatShape(w) +
                                  " do not match with group " + Twine(*groups));
  FailureOr<Value> bias = getBias(importer, node, w[0], element);
  if (failed(bias))
    return failure();
  FailureOr<Window> window = readWindow(importer, node, attrs, in.drop_front(2),
                                        w.drop_front(2), /*isPool=*/false);
  if (failed(window))
    return failure();
  SmallVector<int64_t> shape = {in[0], w[0]};
  shape.append(window->outputSize.begin(), window->outputSize.end());
  OpBuilder &b = importer.getBuilder();
  Value result = ConvOp::create(
      b, importer.getLoc(node), importer.getTensorType(shape, element), *input,
      *weight, *bias, b.getDenseI64ArrayAttr(window->strides),
      b.getDenseI64ArrayAttr(window->padding),
      b.getDenseI64ArrayAttr(window->dilations), b.getI64IntegerAttr(*groups));
  return importer.setOutput(node, 0, result);
}

LogicalResult
mlir::graph::onnx_import::importConvTranspose(Importer &importer,
                                              const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<Value> input = importer.getInput(node, 0);
  FailureOr<Value> weight = importer.getInput(node, 1);
  FailureOr<int64_t> groups = attrs.getInt("group", 1);
  if (failed(input) || failed(weight) || failed(groups) ||
      failed(checkFloatType(importer, node, *input, 0)))
    return failure();
  RankedTensorType inType = Importer::getType(*input);
  ArrayRef<int64_t> in = inType.getShape();
  ArrayRef<int64_t> w = Importer::getType(*weight).getShape();
  Type element = inType.getElementType();
  size_t k = in.size() - 2;
  if (in.size() < 3 || in.size() > 5 || w.size() != in.size() || *groups < 1 ||
      in[1] % *groups != 0 || w[0] != in[1])
    return importer.nodeError(node, "input of shape " + formatShape(in) +
                                        " and weight of shape " +
                                        formatShape(w) +
                                        " do not make a 1-D to 3-D transposed "
                                        "convolution with group " +
                                        Twine(*groups));
  int64_t filters = w[1] * *groups;
  FailureOr<Value> bias = getBias(importer, node, filters, element);
  FailureOr<SmallVector<int64_t>> kernel =
      attrs.getInts("kernel_shape", w.drop_front(2));
  FailureOr<SmallVector<int64_t>> strides =
      attrs.getInts("strides", SmallVector<int64_t>(k, 1));
  FailureOr<SmallVector<int64_t>> dilations =
      attrs.getInts("dilations", SmallVector<int64_t>(k, 1));
  FailureOr<SmallVector<int64_t>> pads =
      attrs.getInts("pads", SmallVector<int64_t>(2 * k, 0));
  FailureOr<SmallVector<int64_t>> outputPadding =
      attrs.getInts("output_padding", SmallVector<int64_t>(k, 0));
  FailureOr<SmallVector<int64_t>> outputShape =
      attrs.getInts("output_shape", {});
  FailureOr<std::string> autoPad = attrs.getString("auto_pad", "NOTSET");
  if (failed(bias) || failed(kernel) || failed(strides) || failed(dilations) ||
      failed(pads) || failed(outputPadding) || failed(outputShape) ||
      failed(autoPad))
    return failure();
  if (*kernel != w.drop_front(2) || strides->size() != k ||
      dilations->size() != k || pads->size() != 2 * k ||
      outputPadding->size() != k ||
      (!outputShape->empty() && outputShape->size() != k &&
       outputShape->size() != k + 2))
    return importer.nodeError(node, "kernel_shape, strides, dilations, pads, "
                                    "output_padding or output_shape do not "
                                    "fit the weight");
  for (int64_t v : llvm::concat<int64_t>(*strides, *dilations))
    if (v < 1)
      return importer.nodeError(node, "strides and dilations must be "
                                      "positive");
  if (outputShape->size() == k + 2)
    outputShape->erase(outputShape->begin(), outputShape->begin() + 2);
  SmallVector<int64_t> padding = *pads, sizes;
  for (size_t i = 0; i < k; ++i) {
    int64_t extent = (*dilations)[i] * (w[2 + i] - 1) + 1;
    int64_t full =
        (*strides)[i] * (in[2 + i] - 1) + (*outputPadding)[i] + extent;
    bool same = *autoPad == "SAME_UPPER" || *autoPad == "SAME_LOWER";
    if (!outputShape->empty() || same) {
      int64_t out =
          !outputShape->empty() ? (*outputShape)[i] : in[2 + i] * (*strides)[i];
      int64_t total = full - out;
      // ONNX: SAME_UPPER puts the extra cell of an odd total at the end.
      // A negative total (an output larger than the natural one) halves by
      // floor division, as ONNX's reference: the extra rows go at the end.
      int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
      if (*autoPad == "SAME_UPPER") {
        padding[i] = half;
        padding[k + i] = total - half;
      } else {
        padding[i] = total - half;
        padding[k + i] = half;
      }
      sizes.push_back(out);
    } else {
      sizes.push_back(full - padding[i] - padding[k + i]);
    }
    if (sizes.back() < 1)
      return importer.nodeError(node, "the output would be empty");
  }
  SmallVector<int64_t> shape = {in[0], filters};
  shape.append(sizes.begin(), sizes.end());
  OpBuilder &b = importer.getBuilder();
  Value result = ConvTransposeOp::create(
      b, importer.getLoc(node), importer.getTensorType(shape, element), *input,
      *weight, *bias, b.getDenseI64ArrayAttr(*strides),
      b.getDenseI64ArrayAttr(padding), b.getDenseI64ArrayAttr(*dilations),
      b.getI64IntegerAttr(*groups));
  return importer.setOutput(node, 0, result);
}

//===----------------------------------------------------------------------===//
// MaxPool, AveragePool
//===----------------------------------------------------------------------===//

LogicalResult
mlir::graph::onnx_import::setMaxPoolIndices(Importer &importer,
                                            const onnx::NodeProto &node,
                                            Value x, const Window &window) {
  if (!importer.isOutputUsed(node, 1))
    return success();
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> storageOrder = attrs.getInt("storage_order", 0);
  if (failed(storageOrder))
    return failure();
  RankedTensorType type = Importer::getType(x);
  ArrayRef<int64_t> shape = type.getShape();
  ArrayRef<int64_t> spatial = shape.drop_front(2);
  int64_t rank = spatial.size();
  int64_t n = shape[0], c = shape[1];
  int64_t cells = llvm::product_of(spatial);
  int64_t outputs = llvm::product_of(window.outputSize);
  int64_t taps = llvm::product_of(window.kernel);

  // Per output position, its window's cells: where to read them in the
  // flattened input (`cells`, past the end, for padding: a cell that can
  // never win, placed after the real ones so that a tie among real cells
  // goes to the first of them, as ONNX's first maximum does), and the index
  // each reports (row-major, or column-major with storage_order 1).
  SmallVector<double> read(outputs * taps), report(outputs * taps);
  SmallVector<int64_t> out(rank), tap(rank);
  for (int64_t o = 0; o < outputs; ++o) {
    for (int64_t d = rank - 1, rest = o; d >= 0; --d) {
      out[d] = rest % window.outputSize[d];
      rest /= window.outputSize[d];
    }
    SmallVector<std::pair<double, double>> real, padding;
    for (int64_t t = 0; t < taps; ++t) {
      for (int64_t d = rank - 1, rest = t; d >= 0; --d) {
        tap[d] = rest % window.kernel[d];
        rest /= window.kernel[d];
      }
      int64_t rowMajor = 0, columnMajor = 0, stride = 1;
      bool inside = true;
      for (int64_t d = 0; d < rank; ++d) {
        int64_t at = out[d] * window.strides[d] - window.padding[d] +
                     tap[d] * window.dilations[d];
        inside &= at >= 0 && at < spatial[d];
        rowMajor = rowMajor * spatial[d] + at;
        columnMajor += at * stride;
        stride *= spatial[d];
      }
      if (inside)
        real.push_back(
            {double(rowMajor), double(*storageOrder ? columnMajor : rowMajor)});
      else
        padding.push_back({double(cells), 0.0});
    }
    real.append(padding.begin(), padding.end());
    for (auto [t, entry] : llvm::enumerate(real)) {
      read[o * taps + t] = entry.first;
      report[o * taps + t] = entry.second;
    }
  }

  // The windows' cells side by side, with the padding cell at the end of
  // each row: [N, C, outputs, taps].
  OpBuilder &b = importer.getBuilder();
  Location loc = importer.getLoc(node);
  Type element = type.getElementType();
  Type i64 = b.getI64Type();
  Value flat = createReshape(importer, node, x, {n, c, cells});
  double lowest = isa<FloatType>(element)
                      ? -std::numeric_limits<double>::infinity()
                      : double(std::numeric_limits<int64_t>::min());
  if (auto integer = dyn_cast<IntegerType>(element))
    lowest = integer.isUnsigned()
                 ? 0.0
                 : -std::ldexp(1.0, int(integer.getWidth()) - 1);
  Value pad = createSplat(importer, node, {n, c, 1}, element, lowest);
  flat = ConcatOp::create(b, loc,
                          importer.getTensorType({n, c, cells + 1}, element),
                          ValueRange{flat, pad}, b.getI64IntegerAttr(2));
  Value readTable =
      createConstantOf(importer, node, {outputs, taps}, i64, read);
  Value patches = GatherOp::create(
      b, loc, importer.getTensorType({n, c, outputs, taps}, element), flat,
      readTable, b.getI64IntegerAttr(2));
  Value best = ArgMaxOp::create(
      b, loc, importer.getTensorType({n, c, outputs, 1}, i64), patches,
      b.getI64IntegerAttr(3), b.getUnitAttr(), UnitAttr());

  // The index it reports, plus the offset of its image and channel.
  SmallVector<double> rowStarts, offsets;
  for (int64_t o = 0; o < outputs; ++o)
    rowStarts.push_back(double(o * taps));
  for (int64_t i = 0; i < n * c; ++i)
    offsets.push_back(double(i * cells));
  Value position = createBinary<AddOp>(
      importer, node, best,
      createConstantOf(importer, node, {outputs, 1}, i64, rowStarts));
  Value reportTable =
      createConstantOf(importer, node, {outputs * taps}, i64, report);
  Value reported =
      GatherOp::create(b, loc, importer.getTensorType({n, c, outputs, 1}, i64),
                       reportTable, position, b.getI64IntegerAttr(0));
  Value indices = createBinary<AddOp>(
      importer, node, reported,
      createConstantOf(importer, node, {n, c, 1, 1}, i64, offsets));
  SmallVector<int64_t> outShape{n, c};
  outShape.append(window.outputSize.begin(), window.outputSize.end());
  return importer.setOutput(node, 1,
                            createReshape(importer, node, indices, outShape));
}

LogicalResult
mlir::graph::onnx_import::importPoolND(Importer &importer,
                                       const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  bool isMax = node.op_type() == "MaxPool";
  FailureOr<int64_t> countIncludePad = attrs.getInt("count_include_pad", 0);
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(countIncludePad) || failed(x))
    return failure();
  RankedTensorType type = Importer::getType(*x);
  Type element = type.getElementType();
  if (element.isInteger(1) || (!isMax && !isa<FloatType>(element)))
    return checkFloatType(importer, node, *x, 0);
  if (type.getRank() < 3 || type.getRank() > 5)
    return importer.nodeError(node, "input of rank " + Twine(type.getRank()) +
                                        " is not a 1-D to 3-D pooling");
  ArrayRef<int64_t> shape = type.getShape();
  FailureOr<Window> window =
      readWindow(importer, node, attrs, shape.drop_front(2), std::nullopt,
                 /*isPool=*/true);
  if (failed(window))
    return failure();
  if (!isMax && window->ceilPadding && *countIncludePad)
    return importer.nodeError(node, "ceil_mode 1 with count_include_pad 1 "
                                    "is not supported");
  SmallVector<int64_t> outShape = {shape[0], shape[1]};
  outShape.append(window->outputSize.begin(), window->outputSize.end());
  OpBuilder &b = importer.getBuilder();
  RankedTensorType resultType = importer.getTensorType(outShape, element);
  Value result =
      isMax
          ? Value(MaxPoolOp::create(b, importer.getLoc(node), resultType, *x,
                                    b.getDenseI64ArrayAttr(window->kernel),
                                    b.getDenseI64ArrayAttr(window->strides),
                                    b.getDenseI64ArrayAttr(window->padding),
                                    b.getDenseI64ArrayAttr(window->dilations)))
          : Value(AvgPoolOp::create(b, importer.getLoc(node), resultType, *x,
                                    b.getDenseI64ArrayAttr(window->kernel),
                                    b.getDenseI64ArrayAttr(window->strides),
                                    b.getDenseI64ArrayAttr(window->padding),
                                    b.getDenseI64ArrayAttr(window->dilations),
                                    *countIncludePad ? b.getUnitAttr()
                                                     : UnitAttr()));
  if (failed(importer.setOutput(node, 0, result)))
    return failure();
  return isMax ? setMaxPoolIndices(importer, node, *x, *window) : success();
}

//===----------------------------------------------------------------------===//
// MatMul beyond 2-D
//===----------------------------------------------------------------------===//

FailureOr<MatMulShapes> mlir::graph::onnx_import::prepareMatMul(
    Importer &importer, const onnx::NodeProto &node, Value &a, Value &b) {
  SmallVector<int64_t> aShape(Importer::getType(a).getShape());
  SmallVector<int64_t> bShape(Importer::getType(b).getShape());
  if (aShape.empty() || bShape.empty())
    return importer.nodeError(node, "MatMul of a scalar is not defined");
  // NumPy: a 1-D a is a row, a 1-D b a column, dropped from the result.
  bool rowVector = aShape.size() == 1, columnVector = bShape.size() == 1;
  if (rowVector) {
    aShape.insert(aShape.begin(), 1);
    a = createReshape(importer, node, a, aShape);
  }
  if (columnVector) {
    bShape.push_back(1);
    b = createReshape(importer, node, b, bShape);
  }
  if (aShape.back() != bShape[bShape.size() - 2])
    return importer.nodeError(node, "shapes " + formatShape(aShape) + " and " +
                                        formatShape(bShape) +
                                        " do not multiply");
  std::optional<SmallVector<int64_t>> batch =
      broadcastShapes(ArrayRef<int64_t>(aShape).drop_back(2),
                      ArrayRef<int64_t>(bShape).drop_back(2));
  if (!batch)
    return importer.nodeError(
        node, "batch dimensions of " + formatShape(aShape) + " and " +
                  formatShape(bShape) + " do not broadcast");
  MatMulShapes shapes;
  shapes.shape = *batch;
  shapes.shape.push_back(aShape[aShape.size() - 2]);
  shapes.shape.push_back(bShape.back());
  shapes.finalShape = *batch;
  if (!rowVector)
    shapes.finalShape.push_back(aShape[aShape.size() - 2]);
  if (!columnVector)
    shapes.finalShape.push_back(bShape.back());
  return shapes;
}

LogicalResult
mlir::graph::onnx_import::importBatchMatMul(Importer &importer,
                                            const onnx::NodeProto &node) {
  FailureOr<Value> a = importer.getInput(node, 0);
  FailureOr<Value> b = importer.getInput(node, 1);
  if (failed(a) || failed(b) || failed(checkFloatType(importer, node, *a, 0)))
    return failure();
  Type element = Importer::getType(*a).getElementType();
  if (Importer::getType(*b).getElementType() != element)
    return importer.nodeError(node, "operands of different types");
  Value lhs = *a, rhs = *b;
  FailureOr<MatMulShapes> shapes = prepareMatMul(importer, node, lhs, rhs);
  if (failed(shapes))
    return failure();
  Value result = BatchMatMulOp::create(
      importer.getBuilder(), importer.getLoc(node),
      importer.getTensorType(shapes->shape, element), lhs, rhs);
  return importer.setOutput(
      node, 0, createReshape(importer, node, result, shapes->finalShape));
}

//===----------------------------------------------------------------------===//
// LRN
//===----------------------------------------------------------------------===//

/// x / (bias + alpha / size * s)^beta, where s sums the squares of x over
/// the channels c - floor((size - 1) / 2) .. c + ceil((size - 1) / 2): the
/// squares padded with zeros along the channels and `size` slices of them
/// added in channel order, elementwise ops that fuse.
/// MaxUnpool: a zero tensor of the default output shape (each spatial size
/// (in - 1) * stride - pads + kernel) in which each input value is
/// scattered to its index, then padded or cropped at the end to
/// output_shape when that is given. MaxPool's indices count over the whole
/// tensor, N x C x spatial, so the scatter runs on it flattened.
LogicalResult
mlir::graph::onnx_import::importMaxUnpool(Importer &importer,
                                          const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<Value> x = importer.getInput(node, 0);
  FailureOr<Value> indices = importer.getInput(node, 1);
  if (failed(x) || failed(indices))
    return failure();
  ArrayRef<int64_t> shape = Importer::getType(*x).getShape();
  int64_t spatial = int64_t(shape.size()) - 2;
  FailureOr<SmallVector<int64_t>> kernel = attrs.getInts("kernel_shape", {});
  FailureOr<SmallVector<int64_t>> strides = attrs.getInts(
      "strides", SmallVector<int64_t>(std::max<int64_t>(spatial, 0), 1));
  FailureOr<SmallVector<int64_t>> pads = attrs.getInts(
      "pads", SmallVector<int64_t>(2 * std::max<int64_t>(spatial, 0), 0));
  FailureOr<std::optional<SmallVector<int64_t>>> outputShape =
      getConstantInts(importer, node, 2, "output_shape");
  if (failed(kernel) || failed(strides) || failed(pads) || failed(outputShape))
    return failure();
  Type indexType = Importer::getType(*indices).getElementType();
  if (spatial < 1 || int64_t(kernel->size()) != spatial ||
      int64_t(strides->size()) != spatial ||
      int64_t(pads->size()) != 2 * spatial ||
      Importer::getType(*indices).getShape() != shape ||
      !indexType.isSignlessInteger(64))
    return importer.nodeError(
        node, "needs X of rank 3 or more, INT64 indices of its shape, and "
              "kernel_shape, strides and pads for its " +
                  Twine(spatial) + " spatial dimensions");
  SmallVector<int64_t> resultShape(shape.take_front(2));
  for (int64_t d = 0; d < spatial; ++d)
    resultShape.push_back((shape[d + 2] - 1) * (*strides)[d] - (*pads)[d] -
                          (*pads)[d + spatial] + (*kernel)[d]);
  if (*outputShape &&
      ((*outputShape)->size() != shape.size() ||
       ArrayRef<int64_t>(**outputShape).take_front(2) != shape.take_front(2) ||
       llvm::any_of(**outputShape, [](int64_t d) { return d < 1; })))
    return importer.nodeError(node,
                              "output_shape " + formatList(**outputShape) +
                                  " for X of shape " + formatShape(shape));
  int64_t count = 1, size = 1;
  for (int64_t d : shape)
    count *= d;
  for (int64_t d : resultShape)
    size *= d;
  Type element = Importer::getType(*x).getElementType();
  Value zeros = createSplat(importer, node, {size}, element, 0.0);
  OpBuilder &b = importer.getBuilder();
  Value scattered = ScatterElementsOp::create(
      b, importer.getLoc(node), importer.getTensorType({size}, element), zeros,
      createReshape(importer, node, *indices, {count}),
      createReshape(importer, node, *x, {count}), b.getI64IntegerAttr(0),
      b.getStringAttr("none"));
  Value result = createReshape(importer, node, scattered, resultShape);
  // The indices count in the default shape (as ONNX's reference does): an
  // output_shape pads (or crops) that result at the end of each dimension.
  if (*outputShape && **outputShape != resultShape) {
    SmallVector<int64_t> pads(shape.size(), 0);
    for (auto [out, size] : llvm::zip(**outputShape, resultShape))
      pads.push_back(out - size);
    result =
        PadOp::create(b, importer.getLoc(node),
                      importer.getTensorType(**outputShape, element), result,
                      /*value=*/Value(), b.getDenseI64ArrayAttr(pads),
                      b.getStringAttr("constant"));
  }
  return importer.setOutput(node, 0, result);
}

LogicalResult mlir::graph::onnx_import::importLRN(Importer &importer,
                                                  const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<float> alpha = attrs.getFloat("alpha", 1e-4f);
  FailureOr<float> beta = attrs.getFloat("beta", 0.75f);
  FailureOr<float> bias = attrs.getFloat("bias", 1.0f);
  FailureOr<int64_t> size = attrs.getInt("size", 0);
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(alpha) || failed(beta) || failed(bias) || failed(size) ||
      failed(x) || failed(checkFloatType(importer, node, *x, 0)))
    return failure();
  RankedTensorType type = Importer::getType(*x);
  ArrayRef<int64_t> shape = type.getShape();
  if (shape.size() < 3)
    return importer.nodeError(node, "input of shape " + formatShape(shape) +
                                        " has no spatial dimension (N x C x "
                                        "D1 x ... expected)");
  if (*size < 1 || *size > 1024)
    return importer.nodeError(node,
                              "size " + Twine(*size) + " is not in [1, 1024]");
  Type element = type.getElementType();
  Value squares = createBinary<MulOp>(importer, node, *x, *x);
  int64_t before = (*size - 1) / 2, after = *size / 2;
  SmallVector<int64_t> pads(2 * shape.size(), 0);
  pads[1] = before;
  pads[shape.size() + 1] = after;
  SmallVector<int64_t> paddedShape(shape);
  paddedShape[1] += before + after;
  OpBuilder &b = importer.getBuilder();
  Value padded = PadOp::create(b, importer.getLoc(node),
                               importer.getTensorType(paddedShape, element),
                               squares, Value(), b.getDenseI64ArrayAttr(pads),
                               b.getStringAttr("constant"));
  SmallVector<int64_t> starts(shape.size(), 0), steps(shape.size(), 1);
  Value sum;
  for (int64_t i = 0; i < *size; ++i) {
    starts[1] = i;
    Value slice = createSlice(importer, node, padded, starts, steps, shape);
    sum = sum ? createBinary<AddOp>(importer, node, sum, slice) : slice;
  }
  auto scalar = [&](double value) {
    return createSplat(importer, node, {}, element, value);
  };
  Value scaled = createBinary<MulOp>(importer, node, sum,
                                     scalar(double(*alpha) / double(*size)));
  Value base = createBinary<AddOp>(importer, node, scaled, scalar(*bias));
  Value denominator = createBinary<PowOp>(importer, node, base, scalar(*beta));
  return importer.setOutput(
      node, 0, createBinary<DivOp>(importer, node, *x, denominator));
}

//===----------------------------------------------------------------------===//
// Einsum
//===----------------------------------------------------------------------===//

LogicalResult
mlir::graph::onnx_import::importEinsum(Importer &importer,
                                       const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<std::string> equationAttr = attrs.getString("equation", "");
  FailureOr<SmallVector<Value>> inputs = getInputs(importer, node);
  if (failed(equationAttr) || failed(inputs))
    return failure();
  if (inputs->empty())
    return importer.nodeError(node, "no inputs");
  std::string text;
  for (char c : *equationAttr)
    if (c != ' ')
      text += c;
  size_t arrow = text.find("->");
  std::string lhs = text.substr(0, arrow);
  std::optional<std::string> rhs;
  if (arrow != std::string::npos)
    rhs = text.substr(arrow + 2);
  SmallVector<std::string> terms;
  for (StringRef term : llvm::split(lhs, ','))
    terms.push_back(term.str());
  if (terms.size() != inputs->size())
    return importer.nodeError(node, "the equation has " + Twine(terms.size()) +
                                        " terms for " + Twine(inputs->size()) +
                                        " inputs");
  // The ellipsis: letters that the equation does not use, aligned from the
  // right across the operands.
  std::string unused;
  for (char c = 'A'; c <= 'Z'; ++c)
    if (text.find(c) == std::string::npos)
      unused += c;
  size_t ellipsisRank = 0;
  for (auto [term, input] : llvm::zip(terms, *inputs)) {
    size_t at = term.find("...");
    if (at == std::string::npos)
      continue;
    int64_t explicitLetters = term.size() - 3;
    int64_t n = Importer::getType(input).getRank() - explicitLetters;
    if (n < 0)
      return importer.nodeError(node, "the equation has more letters than "
                                      "an operand has dimensions");
    ellipsisRank = std::max<size_t>(ellipsisRank, n);
  }
  if (ellipsisRank > unused.size())
    return importer.nodeError(node, "the ellipsis spans too many dimensions");
  std::string ellipsis = unused.substr(0, ellipsisRank);
  for (auto [term, input] : llvm::zip(terms, *inputs)) {
    size_t at = term.find("...");
    if (at == std::string::npos)
      continue;
    int64_t n = Importer::getType(input).getRank() - (term.size() - 3);
    term.replace(at, 3, ellipsis.substr(ellipsisRank - n));
  }
  std::string output;
  if (rhs) {
    output = *rhs;
    size_t at = output.find("...");
    if (at != std::string::npos)
      output.replace(at, 3, ellipsis);
  } else {
    // Implicit: the ellipsis, then the letters used once, in order.
    output = ellipsis;
    std::string all;
    for (const std::string &term : terms)
      all += term;
    for (char c = 'a'; c <= 'z'; ++c)
      if (llvm::count(all, c) == 1)
        output += c;
    for (char c = 'A'; c <= 'Z'; ++c)
      if (llvm::count(all, c) == 1 && ellipsis.find(c) == std::string::npos)
        output += c;
  }
  std::string equation = llvm::join(terms, ",") + "->" + output;
  std::optional<reference::EinsumEquation> parsed =
      reference::parseEinsum(equation);
  if (!parsed)
    return importer.nodeError(node, "equation '" + *equationAttr +
                                        "' is not supported");
  // Sizes of the letters (equal wherever they appear).
  llvm::SmallDenseMap<char, int64_t> sizes;
  Type element = Importer::getType((*inputs)[0]).getElementType();
  for (auto [term, input] : llvm::zip(terms, *inputs)) {
    ArrayRef<int64_t> shape = Importer::getType(input).getShape();
    if (term.size() != shape.size() ||
        Importer::getType(input).getElementType() != element)
      return importer.nodeError(node, "operand '" + term +
                                          "' does not match its input");
    for (auto [letter, size] : llvm::zip(term, shape)) {
      auto [it, inserted] = sizes.try_emplace(letter, size);
      if (!inserted && it->second != size)
        return importer.nodeError(node, "letter '" + Twine(letter) +
                                            "' has sizes " + Twine(it->second) +
                                            " and " + Twine(size) +
                                            " (broadcasting is not "
                                            "supported)");
    }
  }
  if (element.isInteger(1))
    return importer.nodeError(node, "Einsum of BOOL is not defined");
  SmallVector<int64_t> shape;
  for (char c : output)
    shape.push_back(sizes.lookup(c));
  OpBuilder &b = importer.getBuilder();
  Value result = EinsumOp::create(b, importer.getLoc(node),
                                  importer.getTensorType(shape, element),
                                  *inputs, b.getStringAttr(equation));
  return importer.setOutput(node, 0, result);
}

void mlir::graph::onnx_import::registerNNOps(OpRegistry &registry) {
  registry.on("ConvTranspose", 1, importConvTranspose);
  registry.on("LRN", 1, importLRN);
  registry.on("MaxUnpool", 9, importMaxUnpool);
  registry.on("Einsum", 12, importEinsum);
}
