//===- PackedContraction.h - Contractions over packed weights ---*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The ops whose weights graph-pack-weights packed lower to linalg.generics
// that read them packed, recognized by their indexing maps by the lowering
// to LLVM, which gives them their micro-kernel:
//  - graph.matmul and graph.gemm with `packed_b` (GraphToLinalg's
//    createPackedMatmul): loops (m, panel, column, k) over M x N/n0 x n0,
//    `acc + a[m, k] * b[panel, k, column]`;
//  - graph.conv2d with `packed_weight` (ConvToLinalg): loops (n, oh, ow,
//    panel, column, kh, kw, c) over N x OH x OW x F/f0 x f0,
//    `acc + x[n, oh*sh + kh*dh, ow*sw + kw*dw, c] * w[panel, kh, kw, c,
//    column]` on the padded NHWC input.
// Both are one family: the output's last loop (column) indexes the weights'
// innermost dimension, the loops that only the output and the activation
// share are the register tile's rows, and the loops the weights share with
// the output are its panels.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_CONVERSION_PACKEDCONTRACTION_H
#define GRAPH_CONVERSION_PACKEDCONTRACTION_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir {
namespace graph {

/// The indexing maps of the matrix product: a (m, k), packed weights (panel,
/// k, column), result (m, panel, column).
inline SmallVector<AffineMap>
getPackedMatmulIndexingMaps(MLIRContext *context) {
  AffineExpr row, panel, column, k;
  bindDims(context, row, panel, column, k);
  return {AffineMap::get(4, 0, {row, k}, context),
          AffineMap::get(4, 0, {panel, k, column}, context),
          AffineMap::get(4, 0, {row, panel, column}, context)};
}

/// The indexing maps of the convolution with the given strides and
/// dilations: input (n, oh*sh + kh*dh, ow*sw + kw*dw, c), packed weights
/// (panel, kh, kw, c, column), result (n, oh, ow, panel, column).
inline SmallVector<AffineMap>
getPackedConvIndexingMaps(MLIRContext *context, ArrayRef<int64_t> strides,
                          ArrayRef<int64_t> dilations) {
  AffineExpr n, oh, ow, panel, column, kh, kw, c;
  bindDims(context, n, oh, ow, panel, column, kh, kw, c);
  return {AffineMap::get(8, 0,
                         {n, oh * strides[0] + kh * dilations[0],
                          ow * strides[1] + kw * dilations[1], c},
                         context),
          AffineMap::get(8, 0, {panel, kh, kw, c, column}, context),
          AffineMap::get(8, 0, {n, oh, ow, panel, column}, context)};
}

/// Whether `op` is a linalg.generic with two inputs, one init and a
/// multiply-add body over f32.
inline bool isMultiplyAccumulate(linalg::GenericOp op) {
  return op.getNumDpsInputs() == 2 && op.getNumDpsInits() == 1 &&
         linalg::detail::isContractionBody(
             *op.getBlock(), [](Operation *mul, Operation *add) {
               return isa<arith::MulFOp>(mul) && isa<arith::AddFOp>(add);
             });
}

/// The linalg.generic `init + lhs * packed` over `maps`, its first
/// `parallelLoops` loops parallel and the rest reductions: the body that
/// isMultiplyAccumulate recognizes.
inline Value createMultiplyAccumulate(OpBuilder &b, Location loc, Value lhs,
                                      Value packed, Value init,
                                      ArrayRef<AffineMap> maps,
                                      unsigned parallelLoops) {
  SmallVector<utils::IteratorType> iterators(maps.front().getNumDims(),
                                             utils::IteratorType::reduction);
  std::fill_n(iterators.begin(), parallelLoops, utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{lhs, packed},
             ValueRange{init}, maps, iterators,
             [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
               Value mul =
                   arith::MulFOp::create(nested, nestedLoc, args[0], args[1]);
               Value add =
                   arith::AddFOp::create(nested, nestedLoc, args[2], mul);
               linalg::YieldOp::create(nested, nestedLoc, add);
             })
      .getResult(0);
}

/// Whether `op` (possibly null) is the contraction of a matrix by packed
/// weight panels.
inline bool isPackedMatmul(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || generic.getNumLoops() != 4 ||
      generic.getNumReductionLoops() != 1 || !isMultiplyAccumulate(generic))
    return false;
  return generic.getIndexingMapsArray() ==
         getPackedMatmulIndexingMaps(op->getContext());
}

/// Whether `op` (possibly null) is the convolution by packed weights.
inline bool isPackedConv(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || generic.getNumLoops() != 8 ||
      generic.getNumReductionLoops() != 3 || !isMultiplyAccumulate(generic))
    return false;
  // The strides and dilations are what the input map gives a unit step of
  // oh and ow, and of kh and kw.
  AffineMap input = generic.getIndexingMapsArray()[0];
  if (input.getNumResults() != 4 || input.getNumSymbols() != 0)
    return false;
  auto rowAndColumn = [&](int64_t loop) {
    SmallVector<int64_t> point(8, 0);
    point[loop] = 1;
    SmallVector<int64_t, 4> at = input.compose(point);
    return std::make_pair(at[1], at[2]);
  };
  int64_t strides[] = {rowAndColumn(1).first, rowAndColumn(2).second};
  int64_t dilations[] = {rowAndColumn(5).first, rowAndColumn(6).second};
  return generic.getIndexingMapsArray() ==
         getPackedConvIndexingMaps(op->getContext(), strides, dilations);
}

/// Whether `op` is a contraction by packed weights of either kind.
inline bool isPackedContraction(Operation *op) {
  return isPackedMatmul(op) || isPackedConv(op);
}

} // namespace graph
} // namespace mlir

#endif // GRAPH_CONVERSION_PACKEDCONTRACTION_H
