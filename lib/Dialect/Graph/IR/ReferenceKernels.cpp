//===- ReferenceKernels.cpp - Float kernels of the graph ops ----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Compile-time evaluation must match the compiled code bit for bit on
// elementwise ops, so everything here computes in `float`, one IEEE operation
// at a time: no contraction of a * b + c into a fused multiply-add.
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/ReferenceKernels.h"
#include "graph/Support/ApproximateMath.h"

#include "llvm/Support/MathExtras.h"

#include <cassert>
#include <cmath>
#include <limits>

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

using namespace mlir::graph::reference;

//===----------------------------------------------------------------------===//
// Scalar functions
//===----------------------------------------------------------------------===//

float mlir::graph::reference::maximumF(float a, float b) {
  if (std::isnan(a))
    return a;
  if (std::isnan(b))
    return b;
  // Equal values differ only for zeros: +0 is the larger.
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

float mlir::graph::reference::minimumF(float a, float b) {
  if (std::isnan(a))
    return a;
  if (std::isnan(b))
    return b;
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

float mlir::graph::reference::relu(float x) { return maximumF(x, 0.0f); }

float mlir::graph::reference::clip(float x, float lo, float hi) {
  return minimumF(maximumF(x, lo), hi);
}

float mlir::graph::reference::sigmoid(float x) {
  float e = approximateExp(-x);
  float d = 1.0f + e;
  return 1.0f / d;
}

float mlir::graph::reference::tanhF(float x) { return approximateTanh(x); }

float mlir::graph::reference::batchNorm(float x, float scale, float bias,
                                        float mean, float var, float eps) {
  float centered = x - mean;
  float stddev = std::sqrt(var + eps);
  float normalized = centered / stddev;
  float scaled = normalized * scale;
  return scaled + bias;
}

float mlir::graph::reference::binary(BinaryKind kind, float lhs, float rhs) {
  switch (kind) {
  case BinaryKind::Add:
    return lhs + rhs;
  case BinaryKind::Sub:
    return lhs - rhs;
  case BinaryKind::Mul:
    return lhs * rhs;
  case BinaryKind::Div:
    return lhs / rhs;
  }
  return 0.0f;
}

//===----------------------------------------------------------------------===//
// Elementwise kernels
//===----------------------------------------------------------------------===//

std::optional<SmallVector<int64_t>>
mlir::graph::reference::broadcastShapes(ArrayRef<int64_t> lhs,
                                        ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t l = i < lhs.size() ? lhs[lhs.size() - 1 - i] : 1;
    int64_t r = i < rhs.size() ? rhs[rhs.size() - 1 - i] : 1;
    if (l != r && l != 1 && r != 1)
      return std::nullopt;
    out[rank - 1 - i] = l == 1 ? r : l;
  }
  return out;
}

bool mlir::graph::reference::broadcastsTo(ArrayRef<int64_t> shape,
                                          ArrayRef<int64_t> outShape) {
  if (shape.size() > outShape.size())
    return false;
  size_t offset = outShape.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] != 1 && shape[i] != outShape[offset + i])
      return false;
  return true;
}

/// Row-major strides of `shape` aligned to the rank of `outShape`, with 0 for
/// broadcast dimensions.
static SmallVector<int64_t> broadcastStrides(ArrayRef<int64_t> shape,
                                             ArrayRef<int64_t> outShape) {
  SmallVector<int64_t> strides(outShape.size(), 0);
  size_t offset = outShape.size() - shape.size();
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[offset + i] = shape[i] == 1 ? 0 : stride;
    stride *= shape[i];
  }
  return strides;
}

/// Calls `fn(outIndex, index0, index1)` for every element of `outShape`, with
/// the row-major indices of two operands broadcast to it.
template <typename Fn>
static void forEachBroadcast(ArrayRef<int64_t> shape0, ArrayRef<int64_t> shape1,
                             ArrayRef<int64_t> outShape, Fn fn) {
  SmallVector<int64_t> strides0 = broadcastStrides(shape0, outShape);
  SmallVector<int64_t> strides1 = broadcastStrides(shape1, outShape);
  int64_t total = 1;
  for (int64_t d : outShape)
    total *= d;
  size_t rank = outShape.size();
  SmallVector<int64_t> counter(rank, 0);
  int64_t i0 = 0, i1 = 0;
  for (int64_t i = 0; i < total; ++i) {
    fn(i, i0, i1);
    // Odometer increment, innermost dimension first.
    for (size_t d = rank; d-- > 0;) {
      ++counter[d];
      i0 += strides0[d];
      i1 += strides1[d];
      if (counter[d] < outShape[d])
        break;
      i0 -= strides0[d] * counter[d];
      i1 -= strides1[d] * counter[d];
      counter[d] = 0;
    }
  }
}

void mlir::graph::reference::broadcastBinary(
    BinaryKind kind, ArrayRef<float> lhs, ArrayRef<int64_t> lhsShape,
    ArrayRef<float> rhs, ArrayRef<int64_t> rhsShape, ArrayRef<int64_t> outShape,
    MutableArrayRef<float> out) {
  forEachBroadcast(lhsShape, rhsShape, outShape,
                   [&](int64_t i, int64_t l, int64_t r) {
                     out[i] = binary(kind, lhs[l], rhs[r]);
                   });
}

void mlir::graph::reference::broadcastTo(ArrayRef<float> x,
                                         ArrayRef<int64_t> shape,
                                         ArrayRef<int64_t> outShape,
                                         MutableArrayRef<float> out) {
  forEachBroadcast(shape, shape, outShape,
                   [&](int64_t i, int64_t j, int64_t) { out[i] = x[j]; });
}

void mlir::graph::reference::batchNorm(
    ArrayRef<float> x, ArrayRef<int64_t> shape, ArrayRef<float> scale,
    ArrayRef<float> bias, ArrayRef<float> mean, ArrayRef<float> var, float eps,
    MutableArrayRef<float> out) {
  int64_t channels = shape[1];
  int64_t inner = 1;
  for (int64_t d : shape.drop_front(2))
    inner *= d;
  for (size_t i = 0, e = x.size(); i < e; ++i) {
    int64_t c = (static_cast<int64_t>(i) / inner) % channels;
    out[i] = batchNorm(x[i], scale[c], bias[c], mean[c], var[c], eps);
  }
}

//===----------------------------------------------------------------------===//
// Convolution, pooling, linear algebra
//===----------------------------------------------------------------------===//

int64_t mlir::graph::reference::windowOutputSize(int64_t in, int64_t padBefore,
                                                 int64_t padAfter,
                                                 int64_t kernel, int64_t stride,
                                                 int64_t dilation) {
  if (stride < 1 || kernel < 1 || dilation < 1)
    return 0;
  // Attributes may come from an unverified op: out-of-range ones give 0.
  int64_t span;
  if (llvm::AddOverflow(in, padBefore, span) ||
      llvm::AddOverflow(span, padAfter, span))
    return 0;
  int64_t extent;
  if (llvm::MulOverflow(dilation, kernel - 1, extent) ||
      llvm::SubOverflow(span, extent, span) || --span < 0)
    return 0;
  return span / stride + 1;
}

void mlir::graph::reference::conv2d(ArrayRef<float> input,
                                    ArrayRef<float> weight,
                                    ArrayRef<float> bias, const Conv2DParams &p,
                                    MutableArrayRef<float> out) {
  int64_t cg = p.c / p.groups;
  int64_t fg = p.f / p.groups;
  for (int64_t n = 0; n < p.n; ++n) {
    for (int64_t f = 0; f < p.f; ++f) {
      int64_t g = f / fg;
      for (int64_t oh = 0; oh < p.oh; ++oh) {
        for (int64_t ow = 0; ow < p.ow; ++ow) {
          float acc = 0.0f;
          for (int64_t c = 0; c < cg; ++c) {
            int64_t ic = g * cg + c;
            for (int64_t kh = 0; kh < p.kh; ++kh) {
              int64_t ih = oh * p.strideH - p.padTop + kh * p.dilationH;
              if (ih < 0 || ih >= p.h)
                continue;
              for (int64_t kw = 0; kw < p.kw; ++kw) {
                int64_t iw = ow * p.strideW - p.padLeft + kw * p.dilationW;
                if (iw < 0 || iw >= p.w)
                  continue;
                float v = input[((n * p.c + ic) * p.h + ih) * p.w + iw];
                float wv = weight[((f * cg + c) * p.kh + kh) * p.kw + kw];
                float prod = v * wv;
                acc = acc + prod;
              }
            }
          }
          if (!bias.empty())
            acc = acc + bias[f];
          out[((n * p.f + f) * p.oh + oh) * p.ow + ow] = acc;
        }
      }
    }
  }
}

void mlir::graph::reference::maxPool2D(ArrayRef<float> x, const Pool2DParams &p,
                                       MutableArrayRef<float> out) {
  for (int64_t plane = 0; plane < p.n * p.c; ++plane) {
    const float *in = x.data() + plane * p.h * p.w;
    for (int64_t oh = 0; oh < p.oh; ++oh) {
      for (int64_t ow = 0; ow < p.ow; ++ow) {
        // Padded cells are skipped, so they never win over real ones.
        float acc = -std::numeric_limits<float>::infinity();
        bool seen = false;
        for (int64_t kh = 0; kh < p.kh; ++kh) {
          int64_t ih = oh * p.strideH - p.padTop + kh;
          if (ih < 0 || ih >= p.h)
            continue;
          for (int64_t kw = 0; kw < p.kw; ++kw) {
            int64_t iw = ow * p.strideW - p.padLeft + kw;
            if (iw < 0 || iw >= p.w)
              continue;
            float v = in[ih * p.w + iw];
            acc = seen ? maximumF(acc, v) : v;
            seen = true;
          }
        }
        out[(plane * p.oh + oh) * p.ow + ow] = acc;
      }
    }
  }
}

void mlir::graph::reference::avgPool2D(ArrayRef<float> x, const Pool2DParams &p,
                                       MutableArrayRef<float> out) {
  for (int64_t plane = 0; plane < p.n * p.c; ++plane) {
    const float *in = x.data() + plane * p.h * p.w;
    for (int64_t oh = 0; oh < p.oh; ++oh) {
      for (int64_t ow = 0; ow < p.ow; ++ow) {
        float acc = 0.0f;
        int64_t count = 0;
        for (int64_t kh = 0; kh < p.kh; ++kh) {
          int64_t ih = oh * p.strideH - p.padTop + kh;
          if (ih < 0 || ih >= p.h)
            continue;
          for (int64_t kw = 0; kw < p.kw; ++kw) {
            int64_t iw = ow * p.strideW - p.padLeft + kw;
            if (iw < 0 || iw >= p.w)
              continue;
            acc = acc + in[ih * p.w + iw];
            ++count;
          }
        }
        int64_t divisor = p.countIncludePad ? p.kh * p.kw : count;
        out[(plane * p.oh + oh) * p.ow + ow] =
            acc / static_cast<float>(divisor);
      }
    }
  }
}

void mlir::graph::reference::globalAvgPool(ArrayRef<float> x, int64_t planes,
                                           int64_t spatial,
                                           MutableArrayRef<float> out) {
  for (int64_t plane = 0; plane < planes; ++plane) {
    float acc = 0.0f;
    for (int64_t i = 0; i < spatial; ++i)
      acc = acc + x[plane * spatial + i];
    out[plane] = acc / static_cast<float>(spatial);
  }
}

void mlir::graph::reference::matmul(ArrayRef<float> a, ArrayRef<float> b,
                                    int64_t m, int64_t k, int64_t n,
                                    MutableArrayRef<float> out) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int64_t l = 0; l < k; ++l) {
        float prod = a[i * k + l] * b[l * n + j];
        acc = acc + prod;
      }
      out[i * n + j] = acc;
    }
  }
}

void mlir::graph::reference::gemm(ArrayRef<float> a, ArrayRef<float> b,
                                  std::optional<ArrayRef<float>> c,
                                  ArrayRef<int64_t> cShape, int64_t m,
                                  int64_t k, int64_t n, bool transA,
                                  bool transB, float alpha, float beta,
                                  MutableArrayRef<float> out) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int64_t l = 0; l < k; ++l) {
        float av = transA ? a[l * m + i] : a[i * k + l];
        float bv = transB ? b[j * k + l] : b[l * n + j];
        float prod = av * bv;
        acc = acc + prod;
      }
      out[i * n + j] = alpha * acc;
    }
  }
  if (!c)
    return;
  int64_t outShape[] = {m, n};
  forEachBroadcast(cShape, cShape, outShape,
                   [&](int64_t i, int64_t ci, int64_t) {
                     float scaled = beta * (*c)[ci];
                     out[i] = out[i] + scaled;
                   });
}

//===----------------------------------------------------------------------===//
// Softmax and data movement
//===----------------------------------------------------------------------===//

void mlir::graph::reference::softmax(ArrayRef<float> x, ArrayRef<int64_t> shape,
                                     int64_t axis, MutableArrayRef<float> out) {
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d)
    inner *= shape[d];
  int64_t len = shape[axis];
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t in = 0; in < inner; ++in) {
      int64_t base = o * len * inner + in;
      float max = -std::numeric_limits<float>::infinity();
      for (int64_t l = 0; l < len; ++l)
        max = maximumF(max, x[base + l * inner]);
      float sum = 0.0f;
      for (int64_t l = 0; l < len; ++l) {
        float e = approximateExp(x[base + l * inner] - max);
        out[base + l * inner] = e;
        sum = sum + e;
      }
      for (int64_t l = 0; l < len; ++l)
        out[base + l * inner] = out[base + l * inner] / sum;
    }
  }
}

void mlir::graph::reference::normalizeRows(ArrayRef<float> x, int64_t rows,
                                           int64_t width, ArrayRef<float> scale,
                                           ArrayRef<float> bias, float epsilon,
                                           bool rms,
                                           MutableArrayRef<float> out) {
  float count = static_cast<float>(width);
  for (int64_t r = 0; r < rows; ++r) {
    ArrayRef<float> row = x.slice(r * width, width);
    float mean = 0.0f;
    if (!rms) {
      float sum = 0.0f;
      for (float v : row)
        sum = sum + v;
      mean = sum / count;
    }
    float squares = 0.0f;
    for (float v : row) {
      float d = rms ? v : v - mean;
      squares = squares + d * d;
    }
    float inverse = 1.0f / std::sqrt(squares / count + epsilon);
    for (int64_t i = 0; i < width; ++i) {
      float y = (rms ? row[i] : row[i] - mean) * inverse;
      if (!scale.empty())
        y = y * scale[i];
      if (!bias.empty())
        y = y + bias[i];
      out[r * width + i] = y;
    }
  }
}

bool mlir::graph::reference::isReshapeLike(ArrayRef<int64_t> shape,
                                           ArrayRef<int64_t> perm) {
  int64_t last = -1;
  for (int64_t p : perm) {
    if (shape[p] == 1)
      continue;
    if (p < last)
      return false;
    last = p;
  }
  return true;
}

void mlir::graph::reference::transpose(ArrayRef<float> x,
                                       ArrayRef<int64_t> shape,
                                       ArrayRef<int64_t> perm,
                                       MutableArrayRef<float> out) {
  size_t rank = shape.size();
  SmallVector<int64_t> inStrides(rank, 1);
  for (size_t d = rank; d-- > 1;)
    inStrides[d - 1] = inStrides[d] * shape[d];
  SmallVector<int64_t> outShape(rank), strides(rank);
  for (size_t d = 0; d < rank; ++d) {
    outShape[d] = shape[perm[d]];
    strides[d] = inStrides[perm[d]];
  }
  // Walk the output in row-major order, the input through permuted strides.
  SmallVector<int64_t> counter(rank, 0);
  int64_t src = 0;
  for (size_t i = 0, e = out.size(); i < e; ++i) {
    out[i] = x[src];
    for (size_t d = rank; d-- > 0;) {
      ++counter[d];
      src += strides[d];
      if (counter[d] < outShape[d])
        break;
      src -= strides[d] * counter[d];
      counter[d] = 0;
    }
  }
}

void mlir::graph::reference::concat(ArrayRef<ArrayRef<float>> inputs,
                                    ArrayRef<SmallVector<int64_t>> shapes,
                                    int64_t axis, MutableArrayRef<float> out) {
  assert(!shapes.empty() && "concat of no inputs");
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shapes.front()[d];
  SmallVector<int64_t> chunks;
  for (ArrayRef<int64_t> shape : shapes) {
    int64_t chunk = 1;
    for (size_t d = axis; d < shape.size(); ++d)
      chunk *= shape[d];
    chunks.push_back(chunk);
  }
  int64_t pos = 0;
  for (int64_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < inputs.size(); ++i)
      for (int64_t j = 0; j < chunks[i]; ++j)
        out[pos++] = inputs[i][o * chunks[i] + j];
}
