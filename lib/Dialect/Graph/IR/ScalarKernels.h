//===- ScalarKernels.h - Scalar semantics of the typed ops ------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Private to lib/Dialect/Graph/IR: what one element of each elementwise op
// beyond the f32 core computes, for every element type, written to match
// the scalar bodies of lib/Conversion/GraphToLinalg operation for operation:
//  - floats compute in their compute type (float for f16/bf16, which the
//    callers round back), no contraction into FMA, the libm functions the
//    lowering calls (math-to-libm);
//  - integers wrap (two's complement), and the divisions that would trap
//    (by zero, INT_MIN by -1) have defined results, as in the lowering's
//    guarded code.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_DIALECT_GRAPH_IR_SCALARKERNELS_H
#define LIB_DIALECT_GRAPH_IR_SCALARKERNELS_H

#include "VerifyUtils.h"

#include "graph/Dialect/Graph/IR/ReferenceKernels.h"
#include "graph/Dialect/Graph/IR/TypedTensor.h"

#include <cmath>
#include <limits>
#include <type_traits>

namespace mlir {
namespace graph {
namespace scalar {

/// Whether elements stored as T belong to `cls`.
template <typename T> constexpr bool kindMatches(TypeClass cls) {
  if constexpr (std::is_same_v<T, bool>) {
    return cls == TypeClass::Bool || cls == TypeClass::Any;
  } else if constexpr (isFloatStorage<T>) {
    return cls == TypeClass::Float || cls == TypeClass::Numeric ||
           cls == TypeClass::SignedNumeric || cls == TypeClass::Any ||
           (cls == TypeClass::F32 && std::is_same_v<T, float>);
  } else if constexpr (std::is_signed_v<T>) {
    return cls == TypeClass::Numeric || cls == TypeClass::SignedNumeric ||
           cls == TypeClass::Integer || cls == TypeClass::Any ||
           (cls == TypeClass::Index && sizeof(T) >= 4);
  } else {
    return cls == TypeClass::Numeric || cls == TypeClass::Integer ||
           cls == TypeClass::Unsigned || cls == TypeClass::Any;
  }
}

template <typename T>
constexpr bool isFloatCompute = std::is_floating_point_v<T>;

/// Two's complement arithmetic on any integer type, without C++'s UB.
template <typename T> T wrapAdd(T a, T b) {
  return T(uint64_t(a) + uint64_t(b));
}
template <typename T> T wrapSub(T a, T b) {
  return T(uint64_t(a) - uint64_t(b));
}
template <typename T> T wrapMul(T a, T b) {
  return T(uint64_t(a) * uint64_t(b));
}

/// Integer division truncating toward zero; x / 0 = 0 and MIN / -1 = MIN
/// (the wrapped quotient), as the lowering's guarded division.
template <typename T> T divInt(T a, T b) {
  if (b == 0)
    return 0;
  if constexpr (std::is_signed_v<T>)
    if (b == T(-1))
      return wrapSub<T>(0, a);
  return a / b;
}

/// Integer remainder with the sign of the dividend; x % 0 = 0.
template <typename T> T remInt(T a, T b) {
  if (b == 0)
    return 0;
  if constexpr (std::is_signed_v<T>)
    if (b == T(-1))
      return 0;
  return a % b;
}

/// Python's %: the remainder with the sign of the divisor.
template <typename T> T modInt(T a, T b) {
  T r = remInt(a, b);
  if constexpr (std::is_signed_v<T>)
    if (r != 0 && ((r < 0) != (b < 0)))
      r = wrapAdd(r, b);
  return r;
}

/// Integer power by repeated squaring (wrapping); a negative exponent gives
/// 0 unless the base is 1 or -1.
template <typename T> T powInt(T base, T exponent) {
  if constexpr (std::is_signed_v<T>) {
    if (exponent < 0) {
      if (base == 1)
        return 1;
      if (base == T(-1))
        return (exponent % 2 == 0) ? 1 : T(-1);
      return 0;
    }
  }
  T result = 1;
  uint64_t e = uint64_t(exponent);
  while (e) {
    if (e & 1)
      result = wrapMul(result, base);
    base = wrapMul(base, base);
    e >>= 1;
  }
  return result;
}

/// `arith.maximumf` / `arith.minimumf` for float and double.
template <typename C> C maximumF(C a, C b) {
  if (std::isnan(a))
    return a;
  if (std::isnan(b))
    return b;
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
template <typename C> C minimumF(C a, C b) {
  if (std::isnan(a))
    return a;
  if (std::isnan(b))
    return b;
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

/// The value of an F32Attr parameter in the compute type.
template <typename C> C param(float value) { return static_cast<C>(value); }

} // namespace scalar
} // namespace graph
} // namespace mlir

#endif // LIB_DIALECT_GRAPH_IR_SCALARKERNELS_H
