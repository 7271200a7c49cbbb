//===- ReferenceKernels.h - Float kernels of the graph ops ------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Straightforward float implementations of the graph ops, used by the fold
// hooks to evaluate ops at compile time. Elementwise functions compute in
// `float` exactly as the compiled code does (no contraction into FMA, no
// double intermediates); the summing kernels accumulate in `float` in the
// natural loop order. Tensors are row-major; shapes are passed alongside.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_DIALECT_GRAPH_IR_REFERENCEKERNELS_H
#define GRAPH_DIALECT_GRAPH_IR_REFERENCEKERNELS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace mlir {
namespace graph {
namespace reference {

using llvm::ArrayRef;
using llvm::MutableArrayRef;
using llvm::SmallVector;

//===----------------------------------------------------------------------===//
// Scalar functions
//===----------------------------------------------------------------------===//

/// `arith.maximumf`: NaN propagates and -0 < +0.
float maximumF(float a, float b);
/// `arith.minimumf`: NaN propagates and -0 < +0.
float minimumF(float a, float b);

/// maximumf(x, +0): relu(-0) = +0, NaN stays NaN.
float relu(float x);
/// minimumf(maximumf(x, lo), hi).
float clip(float x, float lo, float hi);
/// 1 / (1 + exp(-x)) in float.
float sigmoid(float x);
/// tanh(x) in float.
float tanhF(float x);
/// ((x - mean) / sqrt(var + eps)) * scale + bias, in that order.
float batchNorm(float x, float scale, float bias, float mean, float var,
                float eps);

enum class BinaryKind { Add, Sub, Mul, Div };
float binary(BinaryKind kind, float lhs, float rhs);

//===----------------------------------------------------------------------===//
// Elementwise kernels
//===----------------------------------------------------------------------===//

/// The NumPy broadcast of two shapes, or nullopt if they do not broadcast.
std::optional<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> lhs,
                                                    ArrayRef<int64_t> rhs);

/// Whether `shape` broadcasts to `outShape` (NumPy rules, one direction).
bool broadcastsTo(ArrayRef<int64_t> shape, ArrayRef<int64_t> outShape);

/// out = lhs (kind) rhs with both operands broadcast to `outShape`.
void broadcastBinary(BinaryKind kind, ArrayRef<float> lhs,
                     ArrayRef<int64_t> lhsShape, ArrayRef<float> rhs,
                     ArrayRef<int64_t> rhsShape, ArrayRef<int64_t> outShape,
                     MutableArrayRef<float> out);

/// `x` (of shape `shape`) broadcast to `outShape`.
void broadcastTo(ArrayRef<float> x, ArrayRef<int64_t> shape,
                 ArrayRef<int64_t> outShape, MutableArrayRef<float> out);

/// Inference batch normalization over dimension 1 of `shape`; the parameters
/// have one value per channel.
void batchNorm(ArrayRef<float> x, ArrayRef<int64_t> shape,
               ArrayRef<float> scale, ArrayRef<float> bias,
               ArrayRef<float> mean, ArrayRef<float> var, float eps,
               MutableArrayRef<float> out);

//===----------------------------------------------------------------------===//
// Convolution, pooling, linear algebra
//===----------------------------------------------------------------------===//

struct Conv2DParams {
  int64_t n, c, h, w; // input N x C x H x W
  int64_t f, kh, kw;  // weight F x C/groups x KH x KW
  int64_t oh, ow;     // output N x F x OH x OW
  int64_t strideH, strideW;
  int64_t padTop, padLeft; // bottom/right padding only shape OH and OW
  int64_t dilationH, dilationW;
  int64_t groups;
};

/// The output size along one dimension of a convolution or a pooling
/// window (dilation 1 for pooling); may be < 1 for invalid parameters.
int64_t windowOutputSize(int64_t in, int64_t padBefore, int64_t padAfter,
                         int64_t kernel, int64_t stride, int64_t dilation);

/// NCHW x FCHW convolution with zero padding; `bias` is empty or has F
/// values.
void conv2d(ArrayRef<float> input, ArrayRef<float> weight, ArrayRef<float> bias,
            const Conv2DParams &p, MutableArrayRef<float> out);

struct Pool2DParams {
  int64_t n, c, h, w;
  int64_t kh, kw;
  int64_t oh, ow;
  int64_t strideH, strideW;
  int64_t padTop, padLeft;
  bool countIncludePad = false;
};

/// Max pooling; padded cells never win and NaN propagates.
void maxPool2D(ArrayRef<float> x, const Pool2DParams &p,
               MutableArrayRef<float> out);
/// Average pooling over the real cells, or over the whole window with
/// `countIncludePad`.
void avgPool2D(ArrayRef<float> x, const Pool2DParams &p,
               MutableArrayRef<float> out);
/// Mean over the last `spatial` elements of each of `planes` planes.
void globalAvgPool(ArrayRef<float> x, int64_t planes, int64_t spatial,
                   MutableArrayRef<float> out);

/// M x K times K x N.
void matmul(ArrayRef<float> a, ArrayRef<float> b, int64_t m, int64_t k,
            int64_t n, MutableArrayRef<float> out);

/// alpha * a' * b' + beta * c, with a' M x K, b' K x N (a, b stored
/// transposed when the flags are set) and `c` (optional, of shape `cShape`)
/// broadcast to M x N.
void gemm(ArrayRef<float> a, ArrayRef<float> b,
          std::optional<ArrayRef<float>> c, ArrayRef<int64_t> cShape, int64_t m,
          int64_t k, int64_t n, bool transA, bool transB, float alpha,
          float beta, MutableArrayRef<float> out);

//===----------------------------------------------------------------------===//
// Softmax and data movement
//===----------------------------------------------------------------------===//

/// Softmax along `axis` (non-negative), the maximum subtracted first.
void softmax(ArrayRef<float> x, ArrayRef<int64_t> shape, int64_t axis,
             MutableArrayRef<float> out);

/// Layer normalization (or, with `rms`, RMS normalization) of each of the
/// `rows` rows of `width` elements of `x`, in graph.layer_norm's and
/// graph.rms_norm's order of operations; `scale` and `bias` (either may be
/// empty) have `width` elements.
void normalizeRows(ArrayRef<float> x, int64_t rows, int64_t width,
                   ArrayRef<float> scale, ArrayRef<float> bias, float epsilon,
                   bool rms, MutableArrayRef<float> out);

/// Whether transposing `shape` by `perm` keeps the elements in row-major
/// order (a reshape): the dimensions larger than 1 keep their relative order.
bool isReshapeLike(ArrayRef<int64_t> shape, ArrayRef<int64_t> perm);

/// out dim i = in dim perm[i].
void transpose(ArrayRef<float> x, ArrayRef<int64_t> shape,
               ArrayRef<int64_t> perm, MutableArrayRef<float> out);

/// Joins `inputs` (of shapes `shapes`) along `axis` (non-negative).
void concat(ArrayRef<ArrayRef<float>> inputs,
            ArrayRef<SmallVector<int64_t>> shapes, int64_t axis,
            MutableArrayRef<float> out);

} // namespace reference
} // namespace graph
} // namespace mlir

#endif // GRAPH_DIALECT_GRAPH_IR_REFERENCEKERNELS_H
