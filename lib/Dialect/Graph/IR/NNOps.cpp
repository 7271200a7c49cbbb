//===- NNOps.cpp - N-d convolution, pooling, contractions -------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Verifiers and fold hooks of GraphNNOps.td (graph.attention and
// graph.einsum: ContractionOps.cpp). The folds sum in the order of the
// lowering's loops: a convolution starts from its bias and adds the products
// over input channels, then the kernel dimensions; a contraction adds its
// products in row-major order of the summed dimensions.
//
//===----------------------------------------------------------------------===//

#include "ScalarKernels.h"
#include "TypedFolds.h"
#include "VerifyUtils.h"

#include "graph/Dialect/Graph/IR/FoldLimits.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/ReferenceKernels.h"
#include "graph/Dialect/Graph/IR/TypedKernels.h"
#include "graph/Dialect/Graph/IR/TypedTensor.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::scalar;
namespace ref = mlir::graph::reference;

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

//===----------------------------------------------------------------------===//
// graph.batch_matmul
//===----------------------------------------------------------------------===//

LogicalResult mlir::graph::verifyMatMulShapes(Operation *op, Value aValue,
                                              Value bValue) {
  ArrayRef<int64_t> a = getDims(aValue), b = getDims(bValue);
  if (a.size() < 2 || b.size() < 2)
    return op->emitOpError() << "operands 'a' and 'b' must have rank >= 2, but "
                                "got ranks "
                             << a.size() << " and " << b.size();
  if (a.back() != b[b.size() - 2])
    return op->emitOpError() << "operand 'a' has K = " << a.back()
                             << ", but operand 'b' has K = " << b[b.size() - 2];
  std::optional<SmallVector<int64_t>> batch =
      reference::broadcastShapes(a.drop_back(2), b.drop_back(2));
  if (!batch)
    return op->emitOpError()
           << "batch dimensions " << formatDims(a.drop_back(2)) << " and "
           << formatDims(b.drop_back(2)) << " do not broadcast";
  batch->push_back(a[a.size() - 2]);
  batch->push_back(b.back());
  return checkResultDims(op, *batch);
}

LogicalResult BatchMatMulOp::verify() {
  if (failed(checkTensorOf(*this, getA(), "operand 'a'", TypeClass::Float)) ||
      failed(checkTensorOf(*this, getB(), "operand 'b'", TypeClass::Float)) ||
      failed(checkTensorOf(*this, getOutput(), "result 'output'",
                           TypeClass::Float)) ||
      failed(checkSameElementType(*this, getA(), "operand 'a'", getB(),
                                  "operand 'b'")) ||
      failed(checkSameElementType(*this, getA(), "operand 'a'", getOutput(),
                                  "result 'output'")))
    return failure();
  return verifyMatMulShapes(*this, getA(), getB());
}

/// The batched matrix product of the folds: per output element, the
/// products over K in order, in T's compute type.
template <typename T>
static TypedTensor multiplyMatrices(const TypedTensor &a, const TypedTensor &b,
                                    RankedTensorType type) {
  using C = ComputeType<T>;
  ArrayRef<int64_t> as = a.getShape(), bs = b.getShape();
  int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  SmallVector<int64_t> batch(type.getShape().drop_back(2));
  // Row-major positions of each batch's matrix in a and b.
  auto batchStarts = [&](ArrayRef<int64_t> shape) {
    SmallVector<int64_t> starts;
    for (int64_t i : broadcastSourceIndices(shape.drop_back(2), batch))
      starts.push_back(i * shape[shape.size() - 2] * shape.back());
    return starts;
  };
  SmallVector<int64_t> aStarts = batchStarts(as), bStarts = batchStarts(bs);
  TypedTensor out = TypedTensor::zeros(type);
  int64_t position = 0;
  for (size_t batchIndex = 0; batchIndex < aStarts.size(); ++batchIndex)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        C acc = 0;
        for (int64_t p = 0; p < k; ++p) {
          C prod = widen(a.get<T>(aStarts[batchIndex] + i * k + p)) *
                   widen(b.get<T>(bStarts[batchIndex] + p * n + j));
          acc = acc + prod;
        }
        out.set<T>(position++, narrow<T>(acc));
      }
  return out;
}

OpFoldResult BatchMatMulOp::fold(FoldAdaptor adaptor) {
  auto type = dyn_cast<RankedTensorType>(getType());
  std::optional<TypedTensor> a = readTypedTensor(adaptor.getA());
  std::optional<TypedTensor> b = readTypedTensor(adaptor.getB());
  if (!type || !a || !b || failed(verify()))
    return {};
  int64_t k = a->getShape().back();
  if (!withinFoldLimits({type.getNumElements()},
                        checkedProduct({type.getNumElements(), k})))
    return {};
  std::optional<TypedTensor> folded =
      dispatchKind(a->getKind(), [&](auto t) -> std::optional<TypedTensor> {
        using T = decltype(t);
        if constexpr (!isFloatStorage<T>)
          return std::nullopt;
        else
          return multiplyMatrices<T>(*a, *b, type);
      });
  if (!folded)
    return {};
  return folded->toAttr();
}

//===----------------------------------------------------------------------===//
// Windows: shared checks
//===----------------------------------------------------------------------===//

/// Checks the window attributes of an N-d conv or pool on input `in`
/// (N x C x spatial...).
static LogicalResult checkWindowAttrs(Operation *op, ArrayRef<int64_t> in,
                                      ArrayRef<int64_t> strides,
                                      ArrayRef<int64_t> padding,
                                      ArrayRef<int64_t> dilations,
                                      int64_t minPadding = 0) {
  if (in.size() < 3 || in.size() > 5)
    return op->emitOpError()
           << "operand '" << (isa<ConvOp, ConvIntegerOp>(op) ? "input" : "x")
           << "' must have rank 3 to 5 (N x C x 1 to 3 "
              "spatial dimensions), but got rank "
           << in.size();
  size_t k = in.size() - 2;
  return failure(
      failed(checkArrayAttr(op, "strides", strides, k, 1)) ||
      failed(checkArrayAttr(op, "dilations", dilations, k, 1)) ||
      failed(checkArrayAttr(op, "padding", padding, 2 * k, minPadding)));
}

/// floor((in + begin + end - dilation * (kernel - 1) - 1) / stride) + 1, or
/// an error when the padded input is smaller than the window.
static FailureOr<int64_t> windowSize(Operation *op, int64_t in, int64_t begin,
                                     int64_t end, int64_t kernel,
                                     int64_t stride, int64_t dilation,
                                     int64_t dim) {
  std::optional<int64_t> padded = llvm::checkedAdd(in, begin);
  if (padded)
    padded = llvm::checkedAdd(*padded, end);
  std::optional<int64_t> extent = llvm::checkedMul(dilation, kernel - 1);
  if (!padded || !extent || *padded > (int64_t(1) << 40) ||
      *extent > (int64_t(1) << 40))
    return op->emitOpError()
           << "window of spatial dimension " << dim << " overflows";
  int64_t span = *padded - *extent - 1;
  if (span < 0)
    return op->emitOpError()
           << "padded input of spatial dimension " << dim << " (" << *padded
           << ") is smaller than the window (" << *extent + 1
           << "): the output would be empty";
  return span / stride + 1;
}

//===----------------------------------------------------------------------===//
// graph.conv
//===----------------------------------------------------------------------===//

LogicalResult mlir::graph::verifyConvShapes(Operation *op, Value input,
                                            Value weight,
                                            ArrayRef<int64_t> strides,
                                            ArrayRef<int64_t> padding,
                                            ArrayRef<int64_t> dilations,
                                            int64_t groups, Layout layout) {
  bool nhwc = layout == Layout::NHWC;
  SmallVector<int64_t> in(getDims(input)), w(getDims(weight));
  if (nhwc) {
    if (in.size() != 4 || w.size() != 4)
      return op->emitOpError()
             << "with layout NHWC, operands 'input' and 'weight' must have "
                "rank 4 (N x H x W x C, KH x KW x C/groups x F), but got ranks "
             << in.size() << " and " << w.size();
    in = {in[0], in[3], in[1], in[2]};
    w = {w[3], w[2], w[0], w[1]};
  }
  if (failed(checkWindowAttrs(op, in, strides, padding, dilations)))
    return failure();
  if (w.size() != in.size())
    return op->emitOpError()
           << "operand 'weight' must have rank " << in.size()
           << " (F x C/groups x kernel), but got rank " << w.size();
  if (groups < 1 || in[1] % groups != 0 || w[0] % groups != 0)
    return op->emitOpError()
           << "attribute 'groups' (" << groups
           << ") must be >= 1 and divide the input channels (" << in[1]
           << ") and the output channels (" << w[0] << ")";
  if (w[1] != in[1] / groups)
    return op->emitOpError()
           << "operand 'weight' dim 1 must be C/groups = " << in[1] / groups
           << ", but got " << w[1];
  size_t k = in.size() - 2;
  SmallVector<int64_t> shape = {in[0], w[0]};
  for (size_t d = 0; d < k; ++d) {
    if (w[2 + d] < 1)
      return op->emitOpError()
             << "operand 'weight' must have a non-empty kernel";
    FailureOr<int64_t> size =
        windowSize(op, in[2 + d], padding[d], padding[k + d], w[2 + d],
                   strides[d], dilations[d], d);
    if (failed(size))
      return failure();
    shape.push_back(*size);
  }
  if (nhwc)
    shape = {shape[0], shape[2], shape[3], shape[1]};
  return checkResultDims(op, shape);
}

LogicalResult ConvOp::verify() {
  if (failed(checkTensorOf(*this, getInput(), "operand 'input'",
                           TypeClass::Float)) ||
      failed(checkTensorOf(*this, getWeight(), "operand 'weight'",
                           TypeClass::Float)) ||
      failed(checkTensorOf(*this, getOutput(), "result 'output'",
                           TypeClass::Float)) ||
      failed(checkSameElementType(*this, getInput(), "operand 'input'",
                                  getWeight(), "operand 'weight'")) ||
      failed(checkSameElementType(*this, getInput(), "operand 'input'",
                                  getOutput(), "result 'output'")))
    return failure();
  if (Value bias = getBias())
    if (failed(
            checkTensorOf(*this, bias, "operand 'bias'", TypeClass::Float)) ||
        failed(checkSameElementType(*this, getInput(), "operand 'input'", bias,
                                    "operand 'bias'")))
      return failure();
  if (failed(verifyConvShapes(*this, getInput(), getWeight(), getStrides(),
                              getPadding(), getDilations(), getGroups())))
    return failure();
  if (Value bias = getBias()) {
    int64_t filters = getDims(getWeight())[0];
    if (getDims(bias) != ArrayRef<int64_t>(filters))
      return emitOpError() << "operand 'bias' must be 1-D of size " << filters
                           << ", but got " << bias.getType();
  }
  return success();
}

/// The N-d convolution (or, with `transposed`, transposed convolution) of
/// the fold: per output element, the bias, then the products over input
/// channels and kernel positions in row-major order.
template <typename T>
static TypedTensor
convolve(const TypedTensor &x, const TypedTensor &w,
         const std::optional<TypedTensor> &bias, RankedTensorType type,
         ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
         ArrayRef<int64_t> dilations, int64_t groups, bool transposed) {
  using C = ComputeType<T>;
  ArrayRef<int64_t> in = x.getShape(), ws = w.getShape();
  ArrayRef<int64_t> outShape = type.getShape();
  size_t k = in.size() - 2;
  int64_t channels = in[1], filters = outShape[1];
  int64_t cg = channels / groups, fg = filters / groups;
  SmallVector<int64_t> xStrides = ref::rowMajorStrides(in);
  SmallVector<int64_t> wStrides = ref::rowMajorStrides(ws);
  ArrayRef<int64_t> kernel = ws.drop_front(2);
  TypedTensor out = TypedTensor::zeros(type);
  int64_t position = 0;
  ref::forEachIndex(outShape, [&](ArrayRef<int64_t> o) {
    int64_t n = o[0], f = o[1], g = f / fg;
    C acc = bias ? widen(bias->get<T>(f)) : C(0);
    for (int64_t c = 0; c < cg; ++c) {
      ref::forEachIndex(kernel, [&](ArrayRef<int64_t> kk) {
        int64_t xPos = n * xStrides[0] + (g * cg + c) * xStrides[1];
        for (size_t d = 0; d < k; ++d) {
          int64_t i;
          if (!transposed) {
            i = o[2 + d] * strides[d] - padding[d] + kk[d] * dilations[d];
          } else {
            int64_t numerator = o[2 + d] + padding[d] - kk[d] * dilations[d];
            if (numerator < 0 || numerator % strides[d] != 0)
              return;
            i = numerator / strides[d];
          }
          if (i < 0 || i >= in[2 + d]) {
            if (transposed)
              return;
            // A padded cell: its product with the weight is added, as the
            // lowering multiplies the zero-padded input.
            xPos = -1;
            break;
          }
          xPos += i * xStrides[2 + d];
        }
        int64_t wPos = transposed
                           ? (g * cg + c) * wStrides[0] + (f % fg) * wStrides[1]
                           : f * wStrides[0] + c * wStrides[1];
        for (size_t d = 0; d < k; ++d)
          wPos += kk[d] * wStrides[2 + d];
        C xv = xPos < 0 ? C(0) : widen(x.get<T>(xPos));
        C prod = xv * widen(w.get<T>(wPos));
        acc = acc + prod;
      });
    }
    out.set<T>(position++, narrow<T>(acc));
  });
  return out;
}

template <typename OpTy>
static OpFoldResult foldConv(OpTy op, Attribute inputAttr, Attribute weightAttr,
                             Attribute biasAttr, bool transposed) {
  auto type = dyn_cast<RankedTensorType>(op.getType());
  std::optional<TypedTensor> x = readTypedTensor(inputAttr);
  std::optional<TypedTensor> w = readTypedTensor(weightAttr);
  if (!type || !x || !w || failed(op.verify()))
    return {};
  std::optional<TypedTensor> bias;
  if (op.getBias()) {
    bias = readTypedTensor(biasAttr);
    if (!bias)
      return {};
  }
  std::optional<int64_t> work = checkedProduct(
      {type.getNumElements(),
       w->getNumElements() /
           std::max<int64_t>(w->getShape()[transposed ? 1 : 0], 1)});
  // The result and splat operands (expanded below) are materialized.
  if (!withinFoldLimits({type.getNumElements(),
                         x->isSplat() ? x->getNumElements() : 0,
                         w->isSplat() ? w->getNumElements() : 0},
                        work))
    return {};
  std::optional<TypedTensor> folded =
      dispatchKind(x->getKind(), [&](auto t) -> std::optional<TypedTensor> {
        using T = decltype(t);
        if constexpr (!isFloatStorage<T>)
          return std::nullopt;
        else
          return convolve<T>(x->expanded(), w->expanded(), bias, type,
                             op.getStrides(), op.getPadding(),
                             op.getDilations(), op.getGroups(), transposed);
      });
  if (!folded)
    return {};
  return folded->toAttr();
}

OpFoldResult ConvOp::fold(FoldAdaptor adaptor) {
  return foldConv(*this, adaptor.getInput(), adaptor.getWeight(),
                  adaptor.getBias(), /*transposed=*/false);
}

//===----------------------------------------------------------------------===//
// graph.conv_transpose
//===----------------------------------------------------------------------===//

LogicalResult ConvTransposeOp::verify() {
  if (failed(checkTensorOf(*this, getInput(), "operand 'input'",
                           TypeClass::Float)) ||
      failed(checkTensorOf(*this, getWeight(), "operand 'weight'",
                           TypeClass::Float)) ||
      failed(checkTensorOf(*this, getOutput(), "result 'output'",
                           TypeClass::Float)) ||
      failed(checkSameElementType(*this, getInput(), "operand 'input'",
                                  getWeight(), "operand 'weight'")) ||
      failed(checkSameElementType(*this, getInput(), "operand 'input'",
                                  getOutput(), "result 'output'")))
    return failure();
  if (Value bias = getBias())
    if (failed(
            checkTensorOf(*this, bias, "operand 'bias'", TypeClass::Float)) ||
        failed(checkSameElementType(*this, getInput(), "operand 'input'", bias,
                                    "operand 'bias'")))
      return failure();
  ArrayRef<int64_t> in = getDims(getInput()), w = getDims(getWeight());
  ArrayRef<int64_t> out = getDims(getOutput());
  // The padding of a transposed convolution may be negative: the output
  // then starts before the first input position's contribution.
  if (failed(checkWindowAttrs(*this, in, getStrides(), getPadding(),
                              getDilations(), -(int64_t(1) << 40))))
    return failure();
  if (w.size() != in.size() || out.size() != in.size())
    return emitOpError() << "operand 'weight' and the result must have rank "
                         << in.size();
  int64_t groups = getGroups();
  if (groups < 1 || in[1] % groups != 0 || w[0] != in[1])
    return emitOpError() << "operand 'weight' dim 0 (" << w[0]
                         << ") must be the input channels (" << in[1]
                         << "), divisible by attribute 'groups' (" << groups
                         << ")";
  int64_t filters = w[1] * groups;
  if (Value bias = getBias())
    if (getDims(bias) != ArrayRef<int64_t>(filters))
      return emitOpError() << "operand 'bias' must be 1-D of size " << filters
                           << ", but got " << bias.getType();
  if (out[0] != in[0] || out[1] != filters)
    return emitOpError() << "result type " << getOutput().getType()
                         << " must be " << in[0] << " x " << filters
                         << " x ...";
  for (size_t d = 2; d < out.size(); ++d)
    if (out[d] < 1 || out[d] > (int64_t(1) << 31))
      return emitOpError() << "result spatial dimension " << d - 2 << " ("
                           << out[d] << ") must be in [1, 2^31)";
  return success();
}

OpFoldResult ConvTransposeOp::fold(FoldAdaptor adaptor) {
  return foldConv(*this, adaptor.getInput(), adaptor.getWeight(),
                  adaptor.getBias(), /*transposed=*/true);
}

//===----------------------------------------------------------------------===//
// graph.max_pool, graph.avg_pool
//===----------------------------------------------------------------------===//

template <typename OpTy>
static LogicalResult verifyPool(OpTy op, TypeClass cls) {
  if (failed(checkTensorOf(op, op.getX(), "operand 'x'", cls)) ||
      failed(checkTensorOf(op, op.getOutput(), "result 'output'", cls)) ||
      failed(checkSameElementType(op, op.getX(), "operand 'x'", op.getOutput(),
                                  "result 'output'")))
    return failure();
  ArrayRef<int64_t> in = getDims(op.getX());
  if (failed(checkWindowAttrs(op, in, op.getStrides(), op.getPadding(),
                              op.getDilations())))
    return failure();
  size_t k = in.size() - 2;
  ArrayRef<int64_t> kernel = op.getKernel(), padding = op.getPadding();
  if (failed(checkArrayAttr(op, "kernel", kernel, k, 1)))
    return failure();
  SmallVector<int64_t> shape = {in[0], in[1]};
  for (size_t d = 0; d < k; ++d) {
    FailureOr<int64_t> size =
        windowSize(op, in[2 + d], padding[d], padding[k + d], kernel[d],
                   op.getStrides()[d], op.getDilations()[d], d);
    if (failed(size))
      return failure();
    // Every window must see a real cell, so that max has a value and the
    // average a divisor.
    for (int64_t o = 0; o < *size; ++o) {
      bool real = false;
      for (int64_t j = 0; j < kernel[d] && !real; ++j) {
        int64_t i =
            o * op.getStrides()[d] - padding[d] + j * op.getDilations()[d];
        real = i >= 0 && i < in[2 + d];
      }
      if (!real)
        return op.emitOpError() << "window " << o << " of spatial dimension "
                                << d << " holds only padding";
    }
    shape.push_back(*size);
  }
  return checkResultDims(op, shape);
}

template <typename T>
static TypedTensor pool(const TypedTensor &x, RankedTensorType type,
                        ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                        ArrayRef<int64_t> padding, ArrayRef<int64_t> dilations,
                        bool isMax, bool countIncludePad) {
  using C = ComputeType<T>;
  ArrayRef<int64_t> in = x.getShape();
  size_t k = in.size() - 2;
  SmallVector<int64_t> xStrides = ref::rowMajorStrides(in);
  TypedTensor out = TypedTensor::zeros(type);
  int64_t position = 0;
  ref::forEachIndex(type.getShape(), [&](ArrayRef<int64_t> o) {
    C acc;
    if constexpr (isFloatCompute<C>)
      acc = isMax ? -std::numeric_limits<C>::infinity() : C(0);
    else
      acc = std::numeric_limits<C>::lowest();
    int64_t count = 0;
    ref::forEachIndex(kernel, [&](ArrayRef<int64_t> kk) {
      int64_t xPos = o[0] * xStrides[0] + o[1] * xStrides[1];
      for (size_t d = 0; d < k; ++d) {
        int64_t i = o[2 + d] * strides[d] - padding[d] + kk[d] * dilations[d];
        if (i < 0 || i >= in[2 + d])
          return;
        xPos += i * xStrides[2 + d];
      }
      C v = widen(x.get<T>(xPos));
      if constexpr (isFloatCompute<C>)
        acc = isMax ? maximumF(acc, v) : acc + v;
      else
        acc = acc > v ? acc : v;
      ++count;
    });
    if constexpr (isFloatCompute<C>)
      if (!isMax)
        acc = acc / C(countIncludePad ? llvm::product_of(kernel) : count);
    out.set<T>(position++, narrow<T>(acc));
  });
  return out;
}

template <typename OpTy>
static OpFoldResult foldPool(OpTy op, Attribute attr, bool isMax,
                             bool countIncludePad) {
  auto type = dyn_cast<RankedTensorType>(op.getType());
  std::optional<TypedTensor> x = readTypedTensor(attr);
  if (!type || !x || failed(op.verify()))
    return {};
  if (!withinFoldLimits(
          {type.getNumElements(), x->isSplat() ? x->getNumElements() : 0},
          checkedProduct(
              {type.getNumElements(), llvm::product_of(op.getKernel())})))
    return {};
  std::optional<TypedTensor> folded =
      dispatchKind(x->getKind(), [&](auto t) -> std::optional<TypedTensor> {
        using T = decltype(t);
        if constexpr (std::is_same_v<T, bool>)
          return std::nullopt;
        else if constexpr (!isFloatStorage<T>)
          return isMax
                     ? std::optional(pool<T>(
                           x->expanded(), type, op.getKernel(), op.getStrides(),
                           op.getPadding(), op.getDilations(), true, false))
                     : std::nullopt;
        else
          return pool<T>(x->expanded(), type, op.getKernel(), op.getStrides(),
                         op.getPadding(), op.getDilations(), isMax,
                         countIncludePad);
      });
  if (!folded)
    return {};
  return folded->toAttr();
}

LogicalResult MaxPoolOp::verify() {
  return verifyPool(*this, TypeClass::Numeric);
}
LogicalResult AvgPoolOp::verify() {
  return verifyPool(*this, TypeClass::Float);
}
OpFoldResult MaxPoolOp::fold(FoldAdaptor adaptor) {
  return foldPool(*this, adaptor.getX(), /*isMax=*/true, false);
}
OpFoldResult AvgPoolOp::fold(FoldAdaptor adaptor) {
  return foldPool(*this, adaptor.getX(), /*isMax=*/false, getCountIncludePad());
}

//===----------------------------------------------------------------------===//
// graph.conv_integer, graph.matmul_integer
//===----------------------------------------------------------------------===//

/// An operand of an integer contraction: i8 or ui8, with a zero point of its
/// element type that broadcasts onto it.
static LogicalResult checkIntegerOperand(Operation *op, Value x, StringRef name,
                                         Value zeroPoint,
                                         StringRef zeroPointName) {
  std::optional<ElementKind> kind =
      getElementKind(cast<ShapedType>(x.getType()).getElementType());
  if (!kind || (*kind != ElementKind::I8 && *kind != ElementKind::U8))
    return op->emitOpError()
           << "operand '" << name << "' must be a tensor of i8 or ui8, but got "
           << x.getType();
  if (failed(checkSameElementType(op, x, "operand '" + name + "'", zeroPoint,
                                  "operand '" + zeroPointName + "'")))
    return failure();
  return checkBroadcastsOnto(op, zeroPoint, "operand '" + zeroPointName + "'",
                             getDims(x));
}

static LogicalResult checkI32Result(Operation *op) {
  Type type = cast<ShapedType>(op->getResult(0).getType()).getElementType();
  if (type.isSignlessInteger(32))
    return success();
  return op->emitOpError() << "result 'output' must be a tensor of i32, but "
                              "got "
                           << op->getResult(0).getType();
}

/// `x - zeroPoint` in i64, every element stored: the exact operand of an
/// integer contraction's fold.
static std::optional<TypedTensor>
subtractZeroPoint(const TypedTensor &x, const TypedTensor &zeroPoint) {
  auto type = RankedTensorType::get(
      x.getShape(), IntegerType::get(x.getType().getContext(), 64));
  return dispatchKind(x.getKind(), [&](auto t) -> std::optional<TypedTensor> {
    using T = decltype(t);
    if constexpr (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>)
      return broadcastElements<T, T, int64_t>(
                 x, zeroPoint, type, ElementKind::I64,
                 [](T v, T z) { return int64_t(v) - int64_t(z); })
          .expanded();
    else
      return std::nullopt;
  });
}

/// An i64 result wrapped to the op's i32 type, as the lowering's i32
/// accumulation wraps.
static OpFoldResult wrapToI32(const TypedTensor &wide, RankedTensorType type) {
  return mapElements<int64_t, int32_t>(
             wide, type, ElementKind::I32,
             [](int64_t v) { return int32_t(uint32_t(v)); })
      .toAttr();
}

LogicalResult ConvIntegerOp::verify() {
  if (failed(checkIntegerOperand(*this, getInput(), "input",
                                 getInputZeroPoint(), "input_zero_point")) ||
      failed(checkIntegerOperand(*this, getWeight(), "weight",
                                 getWeightZeroPoint(), "weight_zero_point")) ||
      failed(checkI32Result(*this)))
    return failure();
  return verifyConvShapes(*this, getInput(), getWeight(), getStrides(),
                          getPadding(), getDilations(), getGroups(),
                          getLayout());
}

OpFoldResult ConvIntegerOp::fold(FoldAdaptor adaptor) {
  auto type = dyn_cast<RankedTensorType>(getType());
  std::optional<TypedTensor> x = readTypedTensor(adaptor.getInput());
  std::optional<TypedTensor> w = readTypedTensor(adaptor.getWeight());
  std::optional<TypedTensor> xZero =
      readTypedTensor(adaptor.getInputZeroPoint());
  std::optional<TypedTensor> wZero =
      readTypedTensor(adaptor.getWeightZeroPoint());
  if (!type || !x || !w || !xZero || !wZero || failed(verify()))
    return {};
  bool nhwc = getLayout() == Layout::NHWC;
  int64_t filters = nhwc ? w->getShape().back() : w->getShape()[0];
  std::optional<int64_t> work =
      checkedProduct({type.getNumElements(),
                      w->getNumElements() / std::max<int64_t>(filters, 1)});
  if (!withinFoldLimits(
          {type.getNumElements(), x->getNumElements(), w->getNumElements()},
          work))
    return {};
  std::optional<TypedTensor> xs = subtractZeroPoint(*x, *xZero);
  std::optional<TypedTensor> ws = subtractZeroPoint(*w, *wZero);
  if (!xs || !ws)
    return {};
  // NHWC: the NCHW convolution of the permuted operands, permuted back.
  if (nhwc && (!(xs = permuteTypedTensor(*xs, {0, 3, 1, 2})) ||
               !(ws = permuteTypedTensor(*ws, {3, 2, 0, 1}))))
    return {};
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> nchwShape(shape);
  if (nhwc)
    nchwShape = {shape[0], shape[3], shape[1], shape[2]};
  auto wideType =
      RankedTensorType::get(nchwShape, IntegerType::get(getContext(), 64));
  std::optional<TypedTensor> sums =
      convolve<int64_t>(*xs, *ws, std::nullopt, wideType, getStrides(),
                        getPadding(), getDilations(), getGroups(),
                        /*transposed=*/false);
  if (nhwc && !(sums = permuteTypedTensor(*sums, {0, 2, 3, 1})))
    return {};
  return wrapToI32(*sums, type);
}

LogicalResult MatMulIntegerOp::verify() {
  if (failed(checkIntegerOperand(*this, getA(), "a", getAZeroPoint(),
                                 "a_zero_point")) ||
      failed(checkIntegerOperand(*this, getB(), "b", getBZeroPoint(),
                                 "b_zero_point")) ||
      failed(checkI32Result(*this)))
    return failure();
  return verifyMatMulShapes(*this, getA(), getB());
}

OpFoldResult MatMulIntegerOp::fold(FoldAdaptor adaptor) {
  auto type = dyn_cast<RankedTensorType>(getType());
  std::optional<TypedTensor> a = readTypedTensor(adaptor.getA());
  std::optional<TypedTensor> b = readTypedTensor(adaptor.getB());
  std::optional<TypedTensor> aZero = readTypedTensor(adaptor.getAZeroPoint());
  std::optional<TypedTensor> bZero = readTypedTensor(adaptor.getBZeroPoint());
  if (!type || !a || !b || !aZero || !bZero || failed(verify()))
    return {};
  int64_t k = a->getShape().back();
  if (!withinFoldLimits(
          {type.getNumElements(), a->getNumElements(), b->getNumElements()},
          checkedProduct({type.getNumElements(), k})))
    return {};
  std::optional<TypedTensor> as = subtractZeroPoint(*a, *aZero);
  std::optional<TypedTensor> bs = subtractZeroPoint(*b, *bZero);
  if (!as || !bs)
    return {};
  auto wideType = RankedTensorType::get(type.getShape(),
                                        IntegerType::get(getContext(), 64));
  return wrapToI32(multiplyMatrices<int64_t>(*as, *bs, wideType), type);
}
