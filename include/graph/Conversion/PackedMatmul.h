//===- PackedMatmul.h - Contraction over packed weight panels -*- C++ -*-===//
//
// graph.matmul and graph.gemm with `packed_b` lower to a linalg.generic over
// M x N/n0 x n0 (GraphToLinalg's createPackedMatmul): loops (m, panel,
// column, k), `acc + a[m, k] * b[panel, k, column]`. The lowering to LLVM
// recognizes it by those indexing maps to give it its micro-kernel.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_CONVERSION_PACKEDMATMUL_H
#define GRAPH_CONVERSION_PACKEDMATMUL_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir {
namespace graph {

/// The indexing maps of the contraction: a (m, k), packed weights (panel,
/// k, column), result (m, panel, column).
inline SmallVector<AffineMap>
getPackedMatmulIndexingMaps(MLIRContext *context) {
  AffineExpr row, panel, column, k;
  bindDims(context, row, panel, column, k);
  return {AffineMap::get(4, 0, {row, k}, context),
          AffineMap::get(4, 0, {panel, k, column}, context),
          AffineMap::get(4, 0, {row, panel, column}, context)};
}

/// Whether `op` (possibly null) is the contraction of a matrix by packed
/// weight panels.
inline bool isPackedMatmul(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 2 ||
      generic.getNumDpsInits() != 1 || generic.getNumLoops() != 4 ||
      generic.getNumReductionLoops() != 1 ||
      !linalg::isaContractionOpInterface(generic))
    return false;
  return generic.getIndexingMapsArray() ==
         getPackedMatmulIndexingMaps(op->getContext());
}

} // namespace graph
} // namespace mlir

#endif // GRAPH_CONVERSION_PACKEDMATMUL_H
