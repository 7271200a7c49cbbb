//===- ImportSampling.cpp - Resize, Upsample, GridSample, RoiAlign --------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The operators that read their input at other positions: Resize and
// Upsample become graph.resize (the output size from scales or sizes, by
// ONNX's rules for each opset), GridSample graph.grid_sample, RoiAlign
// graph.roi_align.
//
//===----------------------------------------------------------------------===//

#include "ImportHelpers.h"

#include "graph/Dialect/Graph/IR/TypedKernels.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::onnx_import;

/// Builds graph.resize of `x` to `sizes` with `scales`.
static Value createResize(Importer &importer, const onnx::NodeProto &node,
                          Value x, ArrayRef<int64_t> sizes,
                          ArrayRef<double> scales, StringRef mode,
                          StringRef coordinateMode, StringRef nearestMode,
                          float cubicA, bool excludeOutside) {
  OpBuilder &b = importer.getBuilder();
  return ResizeOp::create(
      b, importer.getLoc(node),
      importer.getTensorType(sizes, Importer::getType(x).getElementType()), x,
      b.getDenseF64ArrayAttr(scales), b.getStringAttr(mode),
      b.getStringAttr(coordinateMode), b.getStringAttr(nearestMode),
      b.getF32FloatAttr(cubicA), excludeOutside ? b.getUnitAttr() : UnitAttr());
}

/// The output sizes of scales, floor(in * scale), or a reported error when a
/// scale is not finite and positive or a size is not a valid dimension.
static FailureOr<SmallVector<int64_t>> scaledSizes(Importer &importer,
                                                   const onnx::NodeProto &node,
                                                   ArrayRef<int64_t> shape,
                                                   ArrayRef<double> scales) {
  SmallVector<int64_t> sizes;
  for (auto [dim, scale] : llvm::zip(shape, scales)) {
    if (!(scale > 0) || !std::isfinite(scale))
      return importer.nodeError(node, "scale " +
                                          llvm::formatv("{0}", scale).str() +
                                          " is not a finite positive number");
    std::optional<int64_t> size =
        truncateToInt64(std::floor(double(dim) * scale));
    if (!size)
      return importer.nodeError(
          node, "scale " + llvm::formatv("{0}", scale).str() +
                    " makes a dimension of " + llvm::Twine(dim) +
                    " larger than int64 can count");
    sizes.push_back(*size);
  }
  if (!isValidShape(sizes))
    return importer.nodeError(node, "scales give the output shape " +
                                        formatList(sizes) +
                                        ", empty or too large");
  return sizes;
}

LogicalResult
mlir::graph::onnx_import::importResize(Importer &importer,
                                       const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<std::string> mode = attrs.getString("mode", "nearest");
  FailureOr<std::string> coordinateMode =
      attrs.getString("coordinate_transformation_mode", "half_pixel");
  FailureOr<std::string> nearestMode =
      attrs.getString("nearest_mode", "round_prefer_floor");
  FailureOr<float> cubicA = attrs.getFloat("cubic_coeff_a", -0.75f);
  FailureOr<int64_t> excludeOutside = attrs.getInt("exclude_outside", 0);
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(mode) || failed(coordinateMode) || failed(nearestMode) ||
      failed(cubicA) || failed(excludeOutside) || failed(x) ||
      failed(checkFloatType(importer, node, *x, 0)))
    return failure();
  if (attrs.has("axes") || attrs.has("keep_aspect_ratio_policy") ||
      attrs.has("antialias"))
    return importer.nodeError(node, "axes, antialias and "
                                    "keep_aspect_ratio_policy are not "
                                    "supported");
  ArrayRef<int64_t> shape = Importer::getType(*x).getShape();
  int64_t rank = shape.size();
  SmallVector<double> scales;
  SmallVector<int64_t> sizes;
  int scalesInput = importer.getOpset() < 11 ? 1 : 2;
  if (importer.getOpset() < 11) {
    // Resize-10: asymmetric coordinates, nearest rounds down.
    *coordinateMode = "asymmetric";
    *nearestMode = "floor";
  }
  if (*coordinateMode == "tf_crop_and_resize")
    return importer.nodeError(node, "coordinate_transformation_mode "
                                    "tf_crop_and_resize is not supported");
  if (Importer::hasInput(node, scalesInput)) {
    const ConstantTensor *tensor = importer.getConstantInput(node, scalesInput);
    if (!tensor)
      return importer.nodeError(node, "scales '" + node.input(scalesInput) +
                                          "' are not a constant, which is "
                                          "not supported");
    if (tensor->getNumElements() > 0) {
      if (tensor->getNumElements() != rank)
        return importer.nodeError(node, "scales do not have one value per "
                                        "dimension");
      scales = tensor->getDoubles();
      // The f32 values, exactly.
      for (double &s : scales)
        s = double(float(s));
      FailureOr<SmallVector<int64_t>> scaled =
          scaledSizes(importer, node, shape, scales);
      if (failed(scaled))
        return failure();
      sizes = std::move(*scaled);
    }
  }
  if (sizes.empty() && importer.getOpset() >= 11 &&
      Importer::hasInput(node, 3)) {
    FailureOr<std::optional<SmallVector<int64_t>>> sizesInput =
        getConstantInts(importer, node, 3, "sizes");
    if (failed(sizesInput))
      return failure();
    if (!*sizesInput || int64_t((*sizesInput)->size()) != rank)
      return importer.nodeError(node, "sizes do not have one value per "
                                      "dimension");
    sizes = **sizesInput;
    for (auto [dim, size] : llvm::zip(shape, sizes))
      scales.push_back(dim ? double(size) / double(dim) : 1.0);
  }
  if (sizes.empty())
    return importer.nodeError(node, "neither scales nor sizes are given");
  if (!isValidShape(sizes, /*allowEmpty=*/true) ||
      llvm::any_of(scales, [](double s) { return !(s > 0); }))
    return importer.nodeError(node, "the output size " + formatList(sizes) +
                                        " is not valid");
  if (*mode != "nearest" && *mode != "linear" && *mode != "cubic")
    return importer.nodeError(node, "mode '" + *mode + "' is not supported");
  for (int64_t d = 0; d < rank; ++d)
    if (!reference::computeResizeTaps(shape[d] ? shape[d] : 1, 1, scales[d],
                                      *mode, *coordinateMode, *nearestMode,
                                      *cubicA, *excludeOutside))
      return importer.nodeError(node, "coordinate_transformation_mode '" +
                                          *coordinateMode +
                                          "' or nearest_mode '" + *nearestMode +
                                          "' is not supported");
  return importer.setOutput(node, 0,
                            createResize(importer, node, *x, sizes, scales,
                                         *mode, *coordinateMode, *nearestMode,
                                         *cubicA, *excludeOutside));
}

LogicalResult
mlir::graph::onnx_import::importUpsample(Importer &importer,
                                         const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<std::string> mode = attrs.getString("mode", "nearest");
  FailureOr<Value> x = importer.getInput(node, 0);
  if (failed(mode) || failed(x) ||
      failed(checkFloatType(importer, node, *x, 0)))
    return failure();
  ArrayRef<int64_t> shape = Importer::getType(*x).getShape();
  SmallVector<double> scales;
  if (importer.getOpset() < 9) {
    FailureOr<SmallVector<float>> attr = attrs.getFloats("scales", {});
    if (failed(attr))
      return failure();
    scales.assign(attr->begin(), attr->end());
  } else {
    const ConstantTensor *tensor = importer.getConstantInput(node, 1);
    if (!tensor)
      return importer.nodeError(node, "scales are not a constant, which is "
                                      "not supported");
    scales = tensor->getDoubles();
  }
  if (scales.size() != shape.size())
    return importer.nodeError(node, "scales do not have one value per "
                                    "dimension");
  if (*mode == "bilinear")
    *mode = "linear";
  if (*mode != "nearest" && *mode != "linear")
    return importer.nodeError(node, "mode '" + *mode + "' is not supported");
  // Upsample's coordinates are asymmetric; nearest rounds down.
  FailureOr<SmallVector<int64_t>> sizes =
      scaledSizes(importer, node, shape, scales);
  if (failed(sizes))
    return failure();
  return importer.setOutput(node, 0,
                            createResize(importer, node, *x, *sizes, scales,
                                         *mode, "asymmetric", "floor", -0.75f,
                                         false));
}

/// GridSample: opset 16's modes bilinear, nearest, bicubic, opset 20's
/// linear, nearest, cubic; 2-D images (opset 20's volumes are refused).
LogicalResult
mlir::graph::onnx_import::importGridSample(Importer &importer,
                                           const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<std::string> mode = attrs.getString(
      "mode", importer.getOpset() >= 20 ? "linear" : "bilinear");
  FailureOr<std::string> padding = attrs.getString("padding_mode", "zeros");
  FailureOr<int64_t> alignCorners = attrs.getInt("align_corners", 0);
  FailureOr<Value> x = importer.getInput(node, 0);
  FailureOr<Value> grid = importer.getInput(node, 1);
  if (failed(mode) || failed(padding) || failed(alignCorners) || failed(x) ||
      failed(grid) || failed(checkFloatType(importer, node, *x, 0)) ||
      failed(checkFloatType(importer, node, *grid, 1)))
    return failure();
  std::optional<SampleMode> sampleMode =
      llvm::StringSwitch<std::optional<SampleMode>>(*mode)
          .Cases({"bilinear", "linear"}, SampleMode::linear)
          .Case("nearest", SampleMode::nearest)
          .Cases({"bicubic", "cubic"}, SampleMode::cubic)
          .Default(std::nullopt);
  if (!sampleMode)
    return importer.nodeError(node, "mode '" + *mode + "' is not supported");
  std::optional<SamplePadding> samplePadding = symbolizeSamplePadding(*padding);
  if (!samplePadding)
    return importer.nodeError(node, "padding_mode '" + *padding +
                                        "' is not zeros, border or reflection");
  RankedTensorType xType = Importer::getType(*x);
  RankedTensorType gridType = Importer::getType(*grid);
  if (xType.getRank() != 4)
    return importer.nodeError(node, "only 2-D images (X of rank 4) are "
                                    "supported, X has rank " +
                                        Twine(xType.getRank()));
  if (gridType.getRank() != 4 || gridType.getDimSize(3) != 2 ||
      gridType.getDimSize(0) != xType.getDimSize(0))
    return importer.nodeError(node, "grid must be [N, Ho, Wo, 2] with X's N");
  if (gridType.getElementType() != xType.getElementType())
    return importer.nodeError(node, "grid must have X's element type");
  OpBuilder &b = importer.getBuilder();
  MLIRContext *context = b.getContext();
  Value result = GridSampleOp::create(
      b, importer.getLoc(node),
      importer.getTensorType({xType.getDimSize(0), xType.getDimSize(1),
                              gridType.getDimSize(1), gridType.getDimSize(2)},
                             xType.getElementType()),
      *x, *grid, SampleModeAttr::get(context, *sampleMode),
      SamplePaddingAttr::get(context, *samplePadding),
      *alignCorners ? b.getUnitAttr() : UnitAttr());
  return importer.setOutput(node, 0, result);
}

/// RoiAlign: opset 10 (the output_half_pixel alignment, implied) and 16
/// (coordinate_transformation_mode, half_pixel by default).
LogicalResult
mlir::graph::onnx_import::importRoiAlign(Importer &importer,
                                         const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<std::string> alignment = attrs.getString(
      "coordinate_transformation_mode",
      importer.getOpset() >= 16 ? "half_pixel" : "output_half_pixel");
  FailureOr<std::string> mode = attrs.getString("mode", "avg");
  FailureOr<int64_t> outputHeight = attrs.getInt("output_height", 1);
  FailureOr<int64_t> outputWidth = attrs.getInt("output_width", 1);
  FailureOr<int64_t> samplingRatio = attrs.getInt("sampling_ratio", 0);
  FailureOr<float> spatialScale = attrs.getFloat("spatial_scale", 1.0f);
  FailureOr<Value> x = importer.getInput(node, 0);
  FailureOr<Value> rois = importer.getInput(node, 1);
  FailureOr<Value> batchIndices = importer.getInput(node, 2);
  if (failed(alignment) || failed(mode) || failed(outputHeight) ||
      failed(outputWidth) || failed(samplingRatio) || failed(spatialScale) ||
      failed(x) || failed(rois) || failed(batchIndices) ||
      failed(checkFloatType(importer, node, *x, 0)) ||
      failed(checkFloatType(importer, node, *rois, 1)))
    return failure();
  if (*alignment != "half_pixel" && *alignment != "output_half_pixel")
    return importer.nodeError(node, "coordinate_transformation_mode '" +
                                        *alignment +
                                        "' is not half_pixel or "
                                        "output_half_pixel");
  std::optional<RoiAlignMode> roiMode = symbolizeRoiAlignMode(*mode);
  if (!roiMode)
    return importer.nodeError(node, "mode '" + *mode + "' is not avg or max");
  if (*outputHeight < 1 || *outputWidth < 1 || *samplingRatio < 0)
    return importer.nodeError(
        node, "output_height and output_width must be >= 1 and "
              "sampling_ratio >= 0, but are " +
                  Twine(*outputHeight) + ", " + Twine(*outputWidth) + " and " +
                  Twine(*samplingRatio));
  RankedTensorType xType = Importer::getType(*x);
  RankedTensorType roisType = Importer::getType(*rois);
  RankedTensorType indicesType = Importer::getType(*batchIndices);
  if (xType.getRank() != 4)
    return importer.nodeError(node, "X must be [N, C, H, W], but has rank " +
                                        Twine(xType.getRank()));
  if (roisType.getRank() != 2 || roisType.getDimSize(1) != 4)
    return importer.nodeError(node, "rois must be [num_rois, 4]");
  if (roisType.getElementType() != xType.getElementType())
    return importer.nodeError(node, "rois must have X's element type");
  if (indicesType.getRank() != 1 ||
      indicesType.getDimSize(0) != roisType.getDimSize(0) ||
      !indicesType.getElementType().isInteger(64))
    return importer.nodeError(node,
                              "batch_indices must be [num_rois] of int64");
  OpBuilder &b = importer.getBuilder();
  Value result = RoiAlignOp::create(
      b, importer.getLoc(node),
      importer.getTensorType({roisType.getDimSize(0), xType.getDimSize(1),
                              *outputHeight, *outputWidth},
                             xType.getElementType()),
      *x, *rois, *batchIndices, RoiAlignModeAttr::get(b.getContext(), *roiMode),
      b.getI64IntegerAttr(*outputHeight), b.getI64IntegerAttr(*outputWidth),
      b.getI64IntegerAttr(*samplingRatio), b.getF32FloatAttr(*spatialScale),
      *alignment == "half_pixel" ? b.getUnitAttr() : UnitAttr());
  return importer.setOutput(node, 0, result);
}

void mlir::graph::onnx_import::registerSamplingOps(OpRegistry &registry) {
  registry.on("Upsample", 7, importUpsample);
  registry.on("Resize", 10, importResize);
  registry.on("GridSample", 16, importGridSample);
  registry.on("RoiAlign", 10, importRoiAlign);
}
