//===- NNFolds.cpp - Fold hooks of convolutions and poolings -------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// conv2d, batch_norm and the poolings evaluate themselves on constant
// operands through the NCHW reference kernels (an NHWC op reads its operands
// permuted and gives its result back permuted), with the guarantees of
// GraphFolds.cpp: no reliance on the verifier, and `withinFoldLimits` asked
// before any evaluation.
//
//===----------------------------------------------------------------------===//

#include "FoldHelpers.h"

#include "graph/Dialect/Graph/IR/ConstantTensor.h"
#include "graph/Dialect/Graph/IR/FoldLimits.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/ReferenceKernels.h"

using namespace mlir;
using namespace mlir::graph;
namespace ref = mlir::graph::reference;

//===----------------------------------------------------------------------===//
// Convolution and normalization
//===----------------------------------------------------------------------===//

/// Evaluates `op` on NCHW/FCHW constants into a result of the NCHW `type`.
static OpFoldResult foldConv2D(Conv2DOp op, RankedTensorType type,
                               const std::optional<ConstantTensor> &input,
                               const std::optional<ConstantTensor> &weight,
                               const std::optional<ConstantTensor> &bias) {
  if (!input || !weight)
    return {};
  ArrayRef<int64_t> strides = op.getStrides(), padding = op.getPadding(),
                    dilations = op.getDilations();
  ArrayRef<int64_t> inShape = input->getShape(), wShape = weight->getShape();
  int64_t groups = op.getGroups();
  if (inShape.size() != 4 || wShape.size() != 4 || strides.size() != 2 ||
      padding.size() != 4 || dilations.size() != 2 || groups < 1 ||
      llvm::any_of(strides, [](int64_t s) { return s < 1; }) ||
      llvm::any_of(dilations, [](int64_t d) { return d < 1; }) ||
      llvm::any_of(padding, [](int64_t p) { return p < 0; }))
    return {};
  ref::Conv2DParams p;
  p.n = inShape[0];
  p.c = inShape[1];
  p.h = inShape[2];
  p.w = inShape[3];
  p.f = wShape[0];
  p.kh = wShape[2];
  p.kw = wShape[3];
  p.strideH = strides[0];
  p.strideW = strides[1];
  p.padTop = padding[0];
  p.padLeft = padding[1];
  p.dilationH = dilations[0];
  p.dilationW = dilations[1];
  p.groups = groups;
  if (p.c % groups != 0 || p.f % groups != 0 || wShape[1] != p.c / groups)
    return {};
  if (bias && bias->getShape() != ArrayRef<int64_t>{p.f})
    return {};
  p.oh = ref::windowOutputSize(p.h, padding[0], padding[2], p.kh, p.strideH,
                               p.dilationH);
  p.ow = ref::windowOutputSize(p.w, padding[1], padding[3], p.kw, p.strideW,
                               p.dilationW);
  if (type.getShape() != ArrayRef<int64_t>{p.n, p.f, p.oh, p.ow})
    return {};

  // Without padding every window sees the same splat values: one sum.
  bool noPadding = llvm::all_of(padding, [](int64_t v) { return v == 0; });
  int64_t windowSize = (p.c / groups) * p.kh * p.kw;
  if (input->isSplat && weight->isSplat && (!bias || bias->isSplat) &&
      noPadding) {
    if (!withinFoldLimits({}, windowSize))
      return {};
    float acc =
        sumOfEqualProducts(input->splatValue, weight->splatValue, windowSize);
    if (bias)
      acc = acc + bias->splatValue;
    return makeSplatTensor(type, acc);
  }

  if (!withinFoldLimits(
          {expansionOf(*input), expansionOf(*weight), type.getNumElements()},
          checkedProduct({type.getNumElements(), windowSize})))
    return {};
  SmallVector<float> out(type.getNumElements());
  SmallVector<float> biasValues;
  if (bias)
    biasValues = bias->expand();
  ref::conv2d(input->expand(), weight->expand(), biasValues, p, out);
  return makeConstantTensor(type, out);
}

OpFoldResult Conv2DOp::fold(FoldAdaptor adaptor) {
  // Packed weights exist only after folding ran (graph-pack-weights).
  if (getPackedWeight())
    return {};
  RankedTensorType type = getFoldableType(getType());
  if (!type || type.getRank() != 4)
    return {};
  std::optional<ConstantTensor> bias;
  if (getBias()) {
    bias = readConstantTensor(adaptor.getBias());
    if (!bias)
      return {};
  }
  if (getLayout() != Layout::NHWC)
    return foldConv2D(*this, type, readConstantTensor(adaptor.getInput()),
                      readConstantTensor(adaptor.getWeight()), bias);
  std::optional<ConstantTensor> weight =
      readConstantTensor(adaptor.getWeight());
  if (!weight || weight->getShape().size() != 4)
    return {};
  return toNHWCResult(foldConv2D(*this, permuteType(type, kNHWCToNCHW),
                                 readAsNCHW(adaptor.getInput()),
                                 permute(*weight, kHWCFToFCHW), bias));
}

/// Evaluates `op` with channels on dimension 1 into a result of `type`.
static OpFoldResult foldBatchNorm(BatchNormOp op, RankedTensorType type,
                                  const std::optional<ConstantTensor> &x,
                                  BatchNormOp::FoldAdaptor adaptor) {
  if (!type || !x || x->getShape() != type.getShape() || type.getRank() < 2)
    return {};
  int64_t channels = type.getDimSize(1);
  SmallVector<ConstantTensor, 4> params;
  for (Attribute attr : {adaptor.getScale(), adaptor.getBias(),
                         adaptor.getMean(), adaptor.getVariance()}) {
    std::optional<ConstantTensor> param = readConstantTensor(attr);
    if (!param || param->getShape() != ArrayRef<int64_t>{channels})
      return {};
    params.push_back(std::move(*param));
  }
  float eps = op.getEpsilon().convertToFloat();

  if (x->isSplat &&
      llvm::all_of(params, [](const ConstantTensor &t) { return t.isSplat; }))
    return makeSplatTensor(
        type, ref::batchNorm(x->splatValue, params[0].splatValue,
                             params[1].splatValue, params[2].splatValue,
                             params[3].splatValue, eps));

  if (!withinFoldLimits({expansionOf(*x), type.getNumElements()},
                        type.getNumElements()))
    return {};
  SmallVector<float> out(type.getNumElements());
  ref::batchNorm(x->expand(), type.getShape(), params[0].expand(),
                 params[1].expand(), params[2].expand(), params[3].expand(),
                 eps, out);
  return makeConstantTensor(type, out);
}

OpFoldResult BatchNormOp::fold(FoldAdaptor adaptor) {
  RankedTensorType type = getFoldableType(getType());
  if (getLayout() != Layout::NHWC)
    return foldBatchNorm(*this, type, readConstantTensor(adaptor.getInput()),
                         adaptor);
  if (!type || type.getRank() != 4)
    return {};
  return toNHWCResult(foldBatchNorm(*this, permuteType(type, kNHWCToNCHW),
                                    readAsNCHW(adaptor.getInput()), adaptor));
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// Reads the pooling parameters and checks them against the result type.
static std::optional<ref::Pool2DParams>
getPoolParams(const ConstantTensor &x, RankedTensorType type,
              ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
              ArrayRef<int64_t> padding) {
  ArrayRef<int64_t> shape = x.getShape();
  if (shape.size() != 4 || kernel.size() != 2 || strides.size() != 2 ||
      padding.size() != 4 ||
      llvm::any_of(kernel, [](int64_t k) { return k < 1; }) ||
      llvm::any_of(strides, [](int64_t s) { return s < 1; }) ||
      llvm::any_of(padding, [](int64_t p) { return p < 0; }))
    return std::nullopt;
  ref::Pool2DParams p;
  p.n = shape[0];
  p.c = shape[1];
  p.h = shape[2];
  p.w = shape[3];
  p.kh = kernel[0];
  p.kw = kernel[1];
  p.strideH = strides[0];
  p.strideW = strides[1];
  p.padTop = padding[0];
  p.padLeft = padding[1];
  p.oh = ref::windowOutputSize(p.h, padding[0], padding[2], p.kh, p.strideH,
                               /*dilation=*/1);
  p.ow = ref::windowOutputSize(p.w, padding[1], padding[3], p.kw, p.strideW,
                               /*dilation=*/1);
  if (type.getShape() != ArrayRef<int64_t>{p.n, p.c, p.oh, p.ow})
    return std::nullopt;
  return p;
}

/// Folds a pooling op through `evaluate`, which computes in NCHW: called
/// with the NCHW result type and the input read in NCHW, whose result is
/// given back in NHWC when `layout` is NHWC.
template <typename Evaluate>
static OpFoldResult foldPooling(Layout layout, Type resultType, Attribute x,
                                Evaluate evaluate) {
  RankedTensorType type = getFoldableType(resultType);
  if (!type)
    return {};
  if (layout != Layout::NHWC)
    return evaluate(type, readConstantTensor(x));
  if (type.getRank() != 4)
    return {};
  return toNHWCResult(evaluate(permuteType(type, kNHWCToNCHW), readAsNCHW(x)));
}

OpFoldResult MaxPool2DOp::fold(FoldAdaptor adaptor) {
  return foldPooling(
      getLayout(), getType(), adaptor.getX(),
      [&](RankedTensorType type,
          const std::optional<ConstantTensor> &x) -> OpFoldResult {
        if (!x)
          return {};
        std::optional<ref::Pool2DParams> p =
            getPoolParams(*x, type, getKernel(), getStrides(), getPadding());
        if (!p)
          return {};
        // Padding smaller than the kernel leaves a real cell in every
        // window, and the maximum of copies of one value is that value.
        ArrayRef<int64_t> padding = getPadding();
        if (x->isSplat && padding[0] < p->kh && padding[2] < p->kh &&
            padding[1] < p->kw && padding[3] < p->kw)
          return makeSplatTensor(type, x->splatValue);
        if (!withinFoldLimits(
                {expansionOf(*x), type.getNumElements()},
                checkedProduct({type.getNumElements(), p->kh, p->kw})))
          return {};
        SmallVector<float> out(type.getNumElements());
        ref::maxPool2D(x->expand(), *p, out);
        return makeConstantTensor(type, out);
      });
}

OpFoldResult AvgPool2DOp::fold(FoldAdaptor adaptor) {
  return foldPooling(
      getLayout(), getType(), adaptor.getX(),
      [&](RankedTensorType type,
          const std::optional<ConstantTensor> &x) -> OpFoldResult {
        if (!x)
          return {};
        std::optional<ref::Pool2DParams> p =
            getPoolParams(*x, type, getKernel(), getStrides(), getPadding());
        if (!p)
          return {};
        p->countIncludePad = getCountIncludePad();
        // Without padding every window averages the same kh * kw values.
        if (x->isSplat &&
            llvm::all_of(getPadding(), [](int64_t v) { return v == 0; })) {
          if (!withinFoldLimits({}, checkedProduct({p->kh, p->kw})))
            return {};
          float acc = 0.0f;
          for (int64_t i = 0, e = p->kh * p->kw; i < e; ++i)
            acc = acc + x->splatValue;
          return makeSplatTensor(type, acc / static_cast<float>(p->kh * p->kw));
        }
        if (!withinFoldLimits(
                {expansionOf(*x), type.getNumElements()},
                checkedProduct({type.getNumElements(), p->kh, p->kw})))
          return {};
        SmallVector<float> out(type.getNumElements());
        ref::avgPool2D(x->expand(), *p, out);
        return makeConstantTensor(type, out);
      });
}

OpFoldResult GlobalAvgPoolOp::fold(FoldAdaptor adaptor) {
  return foldPooling(
      getLayout(), getType(), adaptor.getX(),
      [&](RankedTensorType type,
          const std::optional<ConstantTensor> &x) -> OpFoldResult {
        if (!x || x->getShape().size() != 4)
          return {};
        ArrayRef<int64_t> shape = x->getShape();
        if (type.getShape() != ArrayRef<int64_t>{shape[0], shape[1], 1, 1})
          return {};
        // x's element count fits int64 (readConstantTensor checks), so
        // H * W does.
        int64_t spatial = shape[2] * shape[3];
        if (!withinFoldLimits({type.getNumElements()}, x->getNumElements()))
          return {};
        if (x->isSplat) {
          float acc = 0.0f;
          for (int64_t i = 0; i < spatial; ++i)
            acc = acc + x->splatValue;
          return makeSplatTensor(type, acc / static_cast<float>(spatial));
        }
        SmallVector<float> out(type.getNumElements());
        ref::globalAvgPool(x->values, shape[0] * shape[1], spatial, out);
        return makeConstantTensor(type, out);
      });
}
