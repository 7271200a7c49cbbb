//===- TypedKernels.h - Compile-time tables of the N-d ops ------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the fold hooks and the lowering of the ops beyond the f32 core both
// need to compute the same way: the interpolation taps of graph.resize, the
// index helpers of row-major tensors, and the einsum equation's parse.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_DIALECT_GRAPH_IR_TYPEDKERNELS_H
#define GRAPH_DIALECT_GRAPH_IR_TYPEDKERNELS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir {
namespace graph {
namespace reference {

/// Row-major strides of `shape`.
SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape);

/// Calls `fn(index)` for every multi-index of `shape` in row-major order.
template <typename Fn> void forEachIndex(ArrayRef<int64_t> shape, Fn fn) {
  int64_t total = 1;
  for (int64_t d : shape)
    total *= d;
  SmallVector<int64_t> index(shape.size(), 0);
  for (int64_t i = 0; i < total; ++i) {
    fn(ArrayRef<int64_t>(index));
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

/// One term of an interpolation: input position and weight.
struct ResizeTap {
  int64_t index;
  double weight;
};

/// The taps of every output position along one dimension of graph.resize, as
/// ONNX's reference computes them (coordinate transformation, neighbours
/// taken from the edge-padded input, coefficients of the mode); taps of
/// weight 0 are dropped and indices clamped into [0, in). Returns nullopt
/// for an unknown mode.
std::optional<SmallVector<SmallVector<ResizeTap, 4>>>
computeResizeTaps(int64_t in, int64_t out, double scale, StringRef mode,
                  StringRef coordinateMode, StringRef nearestMode,
                  float cubicCoeffA, bool excludeOutside);

/// Whether the taps copy the input unchanged (one tap of weight 1 at the
/// same position for every output).
bool isIdentityResize(ArrayRef<SmallVector<ResizeTap, 4>> taps, int64_t in);

/// An einsum equation `a,b->c` with one letter per dimension.
struct EinsumEquation {
  SmallVector<std::string> inputs;
  std::string output;
  /// The letters in order of first appearance (inputs, then output).
  std::string letters;
};

/// Parses the explicit form `in0,in1->out` (letters a-z and A-Z, no
/// ellipsis); nullopt when malformed.
std::optional<EinsumEquation> parseEinsum(StringRef equation);

} // namespace reference
} // namespace graph
} // namespace mlir

#endif // GRAPH_DIALECT_GRAPH_IR_TYPEDKERNELS_H
