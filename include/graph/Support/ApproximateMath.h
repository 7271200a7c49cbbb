//===- ApproximateMath.h - exp, erf and tanh of the kernels ---*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The compiled kernels compute f32 exp, erf and tanh with polynomial
// approximations (graph-approximate-math, in graph-lower-to-llvm): vectors
// of libm calls were the slowest part of SiLU, softmax and GELU. The fold
// hooks compute them here, with the same operations in the same order, so
// that a folded constant has the bits that running the op would give. exp
// is within 1 ulp of the correctly rounded result up to e^80 and 5 ulp
// beyond, gives 0 below 2^-126, +inf above FLT_MAX, NaN for NaN; erf is
// within 4 ulp; tanh within 1 ulp of every float (checked exhaustively).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_SUPPORT_APPROXIMATEMATH_H
#define GRAPH_SUPPORT_APPROXIMATEMATH_H

#include <cmath>
#include <type_traits>

namespace mlir {
namespace graph {

/// MLIR's ExpApproximation (mlir/lib/Dialect/Math/Transforms/
/// PolynomialApproximation.cpp, LLVM 22) for one f32.
float approximateExp(float x);

/// MLIR's ErfPolynomialApproximation for one f32.
float approximateErf(float x);

/// tanh for one f32: Cephes' tanhf, x + x^3 P(x^2) below |x| = 0.625 and
/// 1 - 2 / (exp(2|x|) + 1) with the sign of x above, on approximateExp.
float approximateTanh(float x);

/// exp as a kernel computes it in `C`: approximated in f32 (the compute
/// type of f32, f16 and bf16), libm's in f64.
template <typename C> C kernelExp(C x) {
  if constexpr (std::is_same_v<C, float>)
    return approximateExp(x);
  else
    return std::exp(x);
}

/// erf as a kernel computes it in `C`.
template <typename C> C kernelErf(C x) {
  if constexpr (std::is_same_v<C, float>)
    return approximateErf(x);
  else
    return std::erf(x);
}

/// tanh as a kernel computes it in `C`.
template <typename C> C kernelTanh(C x) {
  if constexpr (std::is_same_v<C, float>)
    return approximateTanh(x);
  else
    return std::tanh(x);
}

} // namespace graph
} // namespace mlir

#endif // GRAPH_SUPPORT_APPROXIMATEMATH_H
