//===- ApproximateMath.cpp - exp, erf, tanh as the kernels compute them ---===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each line is one op of what MLIR's patterns emit (checked against
// `graph-opt --graph-approximate-math` on a scalar), with the constants as
// that IR prints them: the shortest decimals that read back as the same
// floats. std::fma is math.fma (one rounding); every other operation rounds
// once, as arith's ops do, since no step is a product added in a separate
// operation that a compiler could contract.
//
//===----------------------------------------------------------------------===//

#include "graph/Support/ApproximateMath.h"

#include <cstdint>
#include <cstring>

using namespace mlir::graph;

// arith.cmpf uge / ule then arith.select: NaN passes through.
static float clampBelow(float x, float lo) {
  return (std::isnan(x) || x >= lo) ? x : lo;
}
static float clampAbove(float x, float hi) {
  return (std::isnan(x) || x <= hi) ? x : hi;
}

float mlir::graph::approximateExp(float x) {
  // exp(x) = 2^k * exp(r), k = floor(x / ln 2 + 1/2), r = x - k ln 2 with
  // ln 2 in two parts, exp(r) by a degree-7 polynomial.
  float clamped = clampAbove(clampBelow(x, -87.8f), 88.8f);
  float k = std::floor(std::fma(clamped, 1.44269502f, 0.5f));
  k = clampAbove(clampBelow(k, -127.0f), 127.0f);
  if (std::isnan(k))
    return k;
  float r = std::fma(-0.693359375f, k, clamped);
  r = std::fma(2.12194442E-4f, k, r);
  float p = std::fma(r, 1.98756912E-4f, 0.00139819994f);
  p = std::fma(p, r, 0.00833345205f);
  p = std::fma(p, r, 0.0416657962f);
  p = std::fma(p, r, 0.166666657f);
  p = std::fma(p, r, 0.5f);
  float r2 = r * r;
  float expR = 1.0f + std::fma(p, r2, r);
  // 2^k built in the exponent field; k = -127 gives 0.
  uint32_t bits = uint32_t(int32_t(k) + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof(scale));
  return expR * scale;
}

float mlir::graph::approximateErf(float x) {
  // A rational function P(|x|) / Q(|x|) per interval [0, 0.8), [0.8, 2),
  // [2, 3.75) (the last as 1 - P/Q), 1 beyond; the sign of x restored.
  bool negative = x < 0.0f;
  float a = negative ? -x : x;
  bool below08 = a < 0.8f;
  bool below2 = a < 2.0f;
  float p0 = below2 ? (below08 ? 0.0f : 0.0f) : -0.00330093061f;
  float q0 = below2 ? (below08 ? 1.0f : 1.0f) : 1.0f;
  float p1 = below2 ? (below08 ? 1.12837911f : 1.12750685f) : 0.00351961935f;
  float q1 = below2 ? (below08 ? -0.463513821f : -0.327607f) : -2.0606916f;
  float p2 =
      below2 ? (below08 ? -0.523018539f : -0.364721417f) : -0.00141373626f;
  float q2 = below2 ? (below08 ? 0.519230127f : 0.448369086f) : 1.62705934f;
  float p3 = below2 ? (below08 ? 0.209741712f : 0.118407398f) : 2.53447099E-4f;
  float q3 =
      below2 ? (below08 ? -0.131808966f : -0.0883462652f) : -0.583389878f;
  float p4 =
      below2 ? (below08 ? 0.0258146804f : 0.0370645523f) : -1.71048032E-5f;
  float q4 = below2 ? (below08 ? 0.0739796459f : 0.0572442785f) : 0.0821908935f;
  float offset = below2 ? 0.0f : 1.0f;
  float p = std::fma(a, p4, p3);
  p = std::fma(a, p, p2);
  p = std::fma(a, p, p1);
  p = std::fma(a, p, p0);
  float q = std::fma(a, q4, q3);
  q = std::fma(a, q, q2);
  q = std::fma(a, q, q1);
  q = std::fma(a, q, q0);
  float ratio = p / q;
  float sum = offset + ratio;
  // arith.cmpf ult: NaN takes the polynomial's NaN.
  float y = (std::isnan(a) || a < 3.75f) ? sum : 1.0f;
  return negative ? -y : y;
}

float mlir::graph::approximateTanh(float x) {
  // Both branches are computed, as in a vector, and one selected: NaN takes
  // the second (exp of NaN), +-inf gives +-1.
  float a = std::fabs(x);
  float z = x * x;
  float p = std::fma(z, -5.70498872745E-3f, 2.06390887954E-2f);
  p = std::fma(p, z, -5.37397155531E-2f);
  p = std::fma(p, z, 1.33314422036E-1f);
  p = std::fma(p, z, -3.33332819422E-1f);
  float pz = p * z;
  float small = std::fma(pz, x, x);
  float e = approximateExp(a + a);
  float large = std::copysign(1.0f - 2.0f / (e + 1.0f), x);
  return a < 0.625f ? small : large;
}
