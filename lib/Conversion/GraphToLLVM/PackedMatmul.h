//===- PackedMatmul.h - The contraction over packed weight panels -*- C++
//-*-===//
//
// graph.matmul and graph.gemm with `packed_b` lower to a linalg.generic over
// M x N/n0 x n0 (GraphToLinalg's createPackedMatmul): loops (m, panel,
// column, k), `acc + a[m, k] * b[panel, k, column]`. The lowering recognizes
// it by those indexing maps to give it its micro-kernel.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_GRAPHTOLLVM_PACKEDMATMUL_H
#define LIB_CONVERSION_GRAPHTOLLVM_PACKEDMATMUL_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir {
namespace graph {

/// Whether `op` (possibly null) is the contraction of a matrix by packed
/// weight panels.
inline bool isPackedMatmul(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 2 ||
      generic.getNumDpsInits() != 1 || generic.getNumLoops() != 4 ||
      generic.getNumReductionLoops() != 1 ||
      !linalg::isaContractionOpInterface(generic))
    return false;
  MLIRContext *context = op->getContext();
  AffineExpr row, panel, column, k;
  bindDims(context, row, panel, column, k);
  SmallVector<AffineMap> expected = {
      AffineMap::get(4, 0, {row, k}, context),
      AffineMap::get(4, 0, {panel, k, column}, context),
      AffineMap::get(4, 0, {row, panel, column}, context)};
  return generic.getIndexingMapsArray() == expected;
}

} // namespace graph
} // namespace mlir

#endif // LIB_CONVERSION_GRAPHTOLLVM_PACKEDMATMUL_H
