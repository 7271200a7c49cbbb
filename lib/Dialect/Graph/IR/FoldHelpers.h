//===- FoldHelpers.h - What the f32 fold hooks share ------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The helpers of the fold hooks that evaluate f32 constants through the
// reference kernels (GraphFolds.cpp, NNFolds.cpp): the foldable result
// types, the cost of reading a constant whole, and the layout permutations
// by which NHWC ops fold with the NCHW kernels.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_DIALECT_GRAPH_IR_FOLDHELPERS_H
#define LIB_DIALECT_GRAPH_IR_FOLDHELPERS_H

#include "graph/Dialect/Graph/IR/ConstantTensor.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"

#include <optional>

namespace mlir {
namespace graph {

/// Dimension permutations between the layouts (output dim i = input dim
/// perm[i]): the NHWC ops fold by evaluating the NCHW reference kernels.
inline constexpr int64_t kNHWCToNCHW[] = {0, 3, 1, 2};
inline constexpr int64_t kNCHWToNHWC[] = {0, 2, 3, 1};
inline constexpr int64_t kHWCFToFCHW[] = {3, 2, 0, 1};

/// The result type when it is a static f32 tensor whose element count fits
/// int64, the only kind we fold to.
RankedTensorType getFoldableType(Type type);

/// The elements that reading `tensor` whole materializes: none for a dense
/// one, whose values are already in memory, all of them for a splat.
int64_t expansionOf(const ConstantTensor &tensor);

/// The sum of `count` equal products `a * b`, accumulated one by one in
/// float as the kernels do, so that a splat fold agrees with an expanded one.
float sumOfEqualProducts(float a, float b, int64_t count);

/// `type` with its dimensions permuted.
RankedTensorType permuteType(RankedTensorType type, ArrayRef<int64_t> perm);

/// `t` (of rank 4) with its dimensions permuted; a splat stays a splat.
ConstantTensor permute(const ConstantTensor &t, ArrayRef<int64_t> perm);

/// Reads an NHWC operand in NCHW (nullopt unless it is a rank-4 constant).
std::optional<ConstantTensor> readAsNCHW(Attribute attr);

/// A result folded in NCHW, given back in NHWC.
OpFoldResult toNHWCResult(OpFoldResult folded);

} // namespace graph
} // namespace mlir

#endif // LIB_DIALECT_GRAPH_IR_FOLDHELPERS_H
