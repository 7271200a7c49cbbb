//===- ImportSpectral.cpp - DFT, STFT, MelWeightMatrix ----------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The audio front end's transforms as matrix products: a DFT of length N
// along a dimension is the signal's rows times the N x K matrices of
// cos(2 pi k n / N) and sin(2 pi k n / N), built at import (the length is
// static), which then run on the GEMM kernels. O(N K) per row where an FFT
// takes O(N log N): the lengths of spectrogram front ends (a few hundred)
// keep it a GEMM that the packed micro-kernels run near the core's peak.
// STFT gathers the frames with constant indices, applies the window and
// takes the one-sided DFT of each frame; MelWeightMatrix is a constant.
//
//===----------------------------------------------------------------------===//

#include "ImportHelpers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::onnx_import;

/// rows [R, N] times matrix [N, K].
static Value multiply(Importer &importer, const onnx::NodeProto &node,
                      Value rows, Value matrix) {
  RankedTensorType type = Importer::getType(rows);
  RankedTensorType result = importer.getTensorType(
      {type.getDimSize(0), Importer::getType(matrix).getDimSize(1)},
      type.getElementType());
  OpBuilder &b = importer.getBuilder();
  if (type.getElementType().isF32())
    return MatMulOp::create(b, importer.getLoc(node), result, rows, matrix);
  return BatchMatMulOp::create(b, importer.getLoc(node), result, rows, matrix);
}

/// The DFT of `x` ([..., L, c] with c = 1 for real and 2 for complex
/// values) along dimension `axis` (not the last), of length `length` (the
/// signal cut or padded with zeros to it): [..., K, 2] with K = length, or
/// length / 2 + 1 when `onesided`, at `axis`. `inverse` takes the inverse
/// transform (scaled by 1 / length).
static FailureOr<Value> buildDFT(Importer &importer,
                                 const onnx::NodeProto &node, Value x,
                                 int64_t axis, int64_t length, bool inverse,
                                 bool onesided) {
  RankedTensorType type = Importer::getType(x);
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = shape.size();
  Type element = type.getElementType();
  if (rank < 2 || (shape.back() != 1 && shape.back() != 2))
    return importer.nodeError(node, "the signal has shape " +
                                        formatShape(shape) +
                                        "; its last dimension must be 1 (real "
                                        "values) or 2 (complex)");
  if (axis < 0 || axis >= rank - 1)
    return importer.nodeError(node, "axis " + Twine(axis) +
                                        " is not a dimension of the signal "
                                        "before its last");
  if (length < 1)
    return importer.nodeError(node, "the DFT length is " + Twine(length) +
                                        "; it must be positive");
  int64_t k = onesided ? length / 2 + 1 : length;

  // The real and imaginary parts as rows: [rest, L], `axis` moved last.
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank - 1; ++d)
    if (d != axis)
      perm.push_back(d);
  perm.push_back(axis);
  SmallVector<int64_t> rest;
  int64_t rows = 1;
  for (int64_t d : ArrayRef<int64_t>(perm).drop_back()) {
    rest.push_back(shape[d]);
    rows *= shape[d];
  }
  int64_t signal = shape[axis];
  auto part = [&](int64_t index) {
    SmallVector<int64_t> starts(rank, 0), steps(rank, 1), sizes(shape);
    starts.back() = index;
    sizes.back() = 1;
    Value v = createSlice(importer, node, x, starts, steps, sizes);
    v = createReshape(importer, node, v, shape.drop_back());
    v = createTranspose(importer, node, v, perm);
    v = createReshape(importer, node, v, {rows, signal});
    // Cut or pad with zeros to the DFT's length.
    if (signal > length)
      v = createSlice(importer, node, v, {0, 0}, {1, 1}, {rows, length});
    if (signal < length) {
      Value zeros =
          createSplat(importer, node, {rows, length - signal}, element, 0);
      v = ConcatOp::create(importer.getBuilder(), importer.getLoc(node),
                           importer.getTensorType({rows, length}, element),
                           ValueRange{v, zeros},
                           importer.getBuilder().getI64IntegerAttr(1));
    }
    return v;
  };
  Value real = part(0);
  Value imag = shape.back() == 2 ? part(1) : Value();

  // cos and sin of 2 pi k n / N, exact in double, reduced mod N first.
  double scale = inverse ? 1.0 / double(length) : 1.0;
  SmallVector<double> cosines(length * k), sines(length * k);
  for (int64_t n = 0; n < length; ++n)
    for (int64_t j = 0; j < k; ++j) {
      double angle = 2 * M_PI * double((n * j) % length) / double(length);
      cosines[n * k + j] = std::cos(angle) * scale;
      sines[n * k + j] = std::sin(angle) * scale;
    }
  Value c = createConstantOf(importer, node, {length, k}, element, cosines);
  Value s = createConstantOf(importer, node, {length, k}, element, sines);

  // (xr + i xi)(cos -+ i sin): forward e^-i, inverse e^+i.
  Value outReal = multiply(importer, node, real, c);
  Value outImag;
  Value realSin = multiply(importer, node, real, s);
  if (inverse)
    outImag = realSin;
  else
    outImag = createUnary<NegOp>(importer, node, realSin);
  if (imag) {
    Value imagSin = multiply(importer, node, imag, s);
    Value imagCos = multiply(importer, node, imag, c);
    outReal = inverse ? createBinary<SubOp>(importer, node, outReal, imagSin)
                      : createBinary<AddOp>(importer, node, outReal, imagSin);
    outImag = createBinary<AddOp>(importer, node, imagCos, outImag);
  }

  // [rest, K, 2], then the dimensions back in place.
  SmallVector<int64_t> stacked(rest);
  stacked.append({k, 1});
  outReal = createReshape(importer, node, outReal, stacked);
  outImag = createReshape(importer, node, outImag, stacked);
  stacked.back() = 2;
  Value out = ConcatOp::create(
      importer.getBuilder(), importer.getLoc(node),
      importer.getTensorType(stacked, element), ValueRange{outReal, outImag},
      importer.getBuilder().getI64IntegerAttr(stacked.size() - 1));
  // Where each dimension of the result comes from in `stacked`.
  SmallVector<int64_t> back(rank);
  for (auto [i, d] : llvm::enumerate(perm))
    back[d] = i;
  back[rank - 1] = rank - 1;
  return createTranspose(importer, node, out, back);
}

/// A scalar integer input known at import, or failure (reported).
static FailureOr<int64_t> getConstantInt(Importer &importer,
                                         const onnx::NodeProto &node, int index,
                                         StringRef what) {
  const ConstantTensor *tensor = importer.getConstantInput(node, index);
  if (!tensor)
    return importer.nodeError(node, what + " must be known when the model "
                                           "is compiled");
  if (tensor->getNumElements() != 1 || !tensor->isInteger())
    return importer.nodeError(node, what + " must be one integer");
  return tensor->getInts()[0];
}

/// DFT: `dft_length` an optional input; `axis` an attribute (opset 17, by
/// default 1) or an optional input (opset 20 on, by default -2).
static LogicalResult importDFT(Importer &importer,
                               const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<Value> x = importer.getInput(node, 0);
  FailureOr<int64_t> axis = int64_t(-2);
  if (importer.getOpset() < 20)
    axis = attrs.getInt("axis", 1);
  else if (Importer::hasInput(node, 2))
    axis = getConstantInt(importer, node, 2, "axis");
  FailureOr<int64_t> inverse = attrs.getInt("inverse", 0);
  FailureOr<int64_t> onesided = attrs.getInt("onesided", 0);
  if (failed(x) || failed(axis) || failed(inverse) || failed(onesided) ||
      failed(checkFloatType(importer, node, *x, 0)))
    return failure();
  int64_t rank = Importer::getType(*x).getRank();
  int64_t signalAxis = *axis < 0 ? *axis + rank : *axis;
  if (*inverse && *onesided)
    return importer.nodeError(node, "an inverse one-sided DFT is not "
                                    "supported");
  int64_t length = signalAxis >= 0 && signalAxis < rank
                       ? Importer::getType(*x).getDimSize(signalAxis)
                       : 0;
  if (Importer::hasInput(node, 1)) {
    FailureOr<int64_t> given = getConstantInt(importer, node, 1, "dft_length");
    if (failed(given))
      return failure();
    length = *given;
  }
  FailureOr<Value> result = buildDFT(importer, node, *x, signalAxis, length,
                                     *inverse != 0, *onesided != 0);
  if (failed(result))
    return failure();
  return importer.setOutput(node, 0, *result);
}

/// STFT: the frames of [batch, L, c] every `frame_step`, each times the
/// window, then a DFT of each (one-sided by default): [batch, frames, K, 2].
static LogicalResult importSTFT(Importer &importer,
                                const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<Value> signal = importer.getInput(node, 0);
  FailureOr<int64_t> onesided = attrs.getInt("onesided", 1);
  if (failed(signal) || failed(onesided) ||
      failed(checkFloatType(importer, node, *signal, 0)))
    return failure();
  FailureOr<int64_t> step = getConstantInt(importer, node, 1, "frame_step");
  if (failed(step))
    return failure();
  Value window;
  int64_t frameLength = -1;
  if (Importer::hasInput(node, 2)) {
    FailureOr<Value> w = importer.getInput(node, 2);
    if (failed(w))
      return failure();
    window = *w;
    if (Importer::getType(window).getRank() != 1)
      return importer.nodeError(node, "the window must have rank 1");
    frameLength = Importer::getType(window).getDimSize(0);
  }
  if (Importer::hasInput(node, 3)) {
    FailureOr<int64_t> given =
        getConstantInt(importer, node, 3, "frame_length");
    if (failed(given))
      return failure();
    if (window && *given != frameLength)
      return importer.nodeError(node, "frame_length " + Twine(*given) +
                                          " differs from the window's " +
                                          Twine(frameLength));
    frameLength = *given;
  }
  if (frameLength < 0)
    return importer.nodeError(node, "needs a window or a frame_length");
  ArrayRef<int64_t> shape = Importer::getType(*signal).getShape();
  if (shape.size() != 3 || (shape[2] != 1 && shape[2] != 2))
    return importer.nodeError(node, "the signal has shape " +
                                        formatShape(shape) +
                                        "; it must be [batch, length, 1 or 2]");
  if (*step < 1 || frameLength < 1 || frameLength > shape[1])
    return importer.nodeError(
        node, "frame_step " + Twine(*step) + " and frame_length " +
                  Twine(frameLength) + " do not frame a signal of length " +
                  Twine(shape[1]));
  int64_t frames = (shape[1] - frameLength) / *step + 1;

  // The frames, gathered: [batch, frames, frame_length, c].
  SmallVector<double> positions;
  for (int64_t f = 0; f < frames; ++f)
    for (int64_t n = 0; n < frameLength; ++n)
      positions.push_back(double(f * *step + n));
  OpBuilder &b = importer.getBuilder();
  Value indices = createConstantOf(importer, node, {frames, frameLength},
                                   b.getI64Type(), positions);
  Type element = Importer::getType(*signal).getElementType();
  Value framed =
      GatherOp::create(b, importer.getLoc(node),
                       importer.getTensorType(
                           {shape[0], frames, frameLength, shape[2]}, element),
                       *signal, indices, b.getI64IntegerAttr(1));
  if (window) {
    window = createCast(importer, node, window, element);
    window = createReshape(importer, node, window, {frameLength, 1});
    framed = createBinary<MulOp>(importer, node, framed, window);
  }
  FailureOr<Value> result = buildDFT(importer, node, framed, 2, frameLength,
                                     /*inverse=*/false, *onesided != 0);
  if (failed(result))
    return failure();
  return importer.setOutput(node, 0, *result);
}

/// A scalar input known at import, as a double, or failure (reported).
static FailureOr<double> getConstantNumber(Importer &importer,
                                           const onnx::NodeProto &node,
                                           int index, StringRef what) {
  const ConstantTensor *tensor = importer.getConstantInput(node, index);
  if (!tensor)
    return importer.nodeError(node, what + " must be known when the model "
                                           "is compiled");
  if (tensor->getNumElements() != 1 || tensor->isBool())
    return importer.nodeError(node, what + " must be one number");
  return tensor->getDoubles()[0];
}

/// MelWeightMatrix: a constant, the triangular filters of ONNX's reference
/// (mel = 2595 log10(1 + hz / 700), the edges' mel values in float, the
/// num_mel_bins + 2 points spaced by (high - low) / (num_mel_bins + 2) as
/// the reference spaces them, each point's bin floor((dft_length + 1) hz /
/// sample_rate)).
static LogicalResult importMelWeightMatrix(Importer &importer,
                                           const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> outputType =
      attrs.getInt("output_datatype", onnx::TensorProto::FLOAT);
  FailureOr<int64_t> numMelBins =
      getConstantInt(importer, node, 0, "num_mel_bins");
  FailureOr<int64_t> dftLength =
      getConstantInt(importer, node, 1, "dft_length");
  FailureOr<int64_t> sampleRate =
      getConstantInt(importer, node, 2, "sample_rate");
  FailureOr<double> lower =
      getConstantNumber(importer, node, 3, "lower_edge_hertz");
  FailureOr<double> upper =
      getConstantNumber(importer, node, 4, "upper_edge_hertz");
  if (failed(outputType) || failed(numMelBins) || failed(dftLength) ||
      failed(sampleRate) || failed(lower) || failed(upper))
    return failure();
  Type element = getMLIRElementType(importer.getContext(), *outputType);
  if (!element || !isa<FloatType>(element))
    return importer.nodeError(node, "output_datatype " + Twine(*outputType) +
                                        " is not a float type");
  if (*numMelBins < 1 || *dftLength < 1 || *sampleRate < 1)
    return importer.nodeError(node, "num_mel_bins, dft_length and "
                                    "sample_rate must be positive");
  int64_t bins = *dftLength / 2 + 1, mels = *numMelBins;
  auto toMel = [](float hz) {
    return 2595.0f * std::log10(1.0f + hz / 700.0f);
  };
  float lowMel = toMel(float(*lower)), highMel = toMel(float(*upper));
  float melStep = (highMel - lowMel) / float(mels + 2);
  SmallVector<int64_t> points;
  for (int64_t i = 0; i < mels + 2; ++i) {
    double mel = double(i) * double(melStep) + double(lowMel);
    double hz = 700.0 * (std::pow(10.0, mel / 2595.0) - 1.0);
    points.push_back(
        int64_t(std::floor(double(*dftLength + 1) * hz / double(*sampleRate))));
  }
  SmallVector<double> weights(bins * mels, 0.0);
  auto set = [&](int64_t j, int64_t i, double v) {
    if (j >= 0 && j < bins)
      weights[j * mels + i] = v;
  };
  for (int64_t i = 0; i < mels; ++i) {
    int64_t left = points[i], center = points[i + 1], right = points[i + 2];
    if (center == left)
      set(center, i, 1.0);
    else
      for (int64_t j = left; j <= center; ++j)
        set(j, i, double(j - left) / double(center - left));
    if (right > center)
      for (int64_t j = center; j < right; ++j)
        set(j, i, double(right - j) / double(right - center));
  }
  return importer.setOutput(
      node, 0,
      createConstantOf(importer, node, {bins, mels}, element, weights));
}

void mlir::graph::onnx_import::registerSpectralOps(OpRegistry &registry) {
  registry.on("MelWeightMatrix", 17, importMelWeightMatrix);
  registry.on("DFT", 17, importDFT);
  registry.on("DFT", 20, importDFT);
  registry.on("STFT", 17, importSTFT);
}
