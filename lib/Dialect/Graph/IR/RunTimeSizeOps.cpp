//===- RunTimeSizeOps.cpp - Ops whose result size the data decides --------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Verifiers and fold hooks of the ops at the end of GraphShapeOps.td: a
// result of its bound's static shape, zeros past the extent, and the extent
// as a tensor<i64> beside it.
//
//===----------------------------------------------------------------------===//

#include "VerifyUtils.h"

#include "graph/Dialect/Graph/IR/FoldLimits.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/TypedTensor.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::graph;

/// Checks that `count` is a tensor<i64> of rank 0.
static LogicalResult checkExtent(Operation *op, Value count) {
  auto type = cast<RankedTensorType>(count.getType());
  if (type.getRank() != 0 || !type.getElementType().isSignlessInteger(64))
    return op->emitOpError()
           << "result 'count' must be a tensor<i64> of rank 0, but got "
           << type;
  return success();
}

//===----------------------------------------------------------------------===//
// graph.nonzero
//===----------------------------------------------------------------------===//

LogicalResult NonZeroOp::verify() {
  if (failed(checkTensorOf(*this, getX(), "operand 'x'", TypeClass::Any)) ||
      failed(checkExtent(*this, getCount())))
    return failure();
  ArrayRef<int64_t> in = getDims(getX());
  if (in.empty())
    return emitOpError() << "operand 'x' must have rank >= 1";
  auto indicesType = cast<RankedTensorType>(getIndices().getType());
  SmallVector<int64_t> shape = {int64_t(in.size()), llvm::product_of(in)};
  if (!indicesType.getElementType().isSignlessInteger(64) ||
      indicesType.getShape() != ArrayRef<int64_t>(shape))
    return emitOpError() << "result 'indices' must be a tensor<" << shape[0]
                         << "x" << shape[1] << "xi64>, but got " << indicesType;
  return success();
}

LogicalResult NonZeroOp::fold(FoldAdaptor adaptor,
                              SmallVectorImpl<OpFoldResult> &results) {
  auto indicesType = dyn_cast<RankedTensorType>(getIndices().getType());
  auto countType = dyn_cast<RankedTensorType>(getCount().getType());
  std::optional<TypedTensor> x = readTypedTensor(adaptor.getX());
  if (!indicesType || !countType || !x || failed(verify()) ||
      !withinFoldLimits({indicesType.getNumElements()},
                        indicesType.getNumElements()))
    return failure();
  ArrayRef<int64_t> shape = x->getShape();
  int64_t rank = shape.size(), bound = x->getNumElements();
  TypedTensor indices = TypedTensor::zeros(indicesType);
  int64_t count = 0;
  dispatchKind(x->getKind(), [&](auto t) {
    using T = decltype(t);
    for (int64_t i = 0; i < bound; ++i) {
      if (!(widen(x->get<T>(i)) != 0))
        continue;
      for (int64_t d = rank - 1, rest = i; d >= 0; --d) {
        indices.set<int64_t>(d * bound + count, rest % shape[d]);
        rest /= shape[d];
      }
      ++count;
    }
  });
  results.push_back(indices.toAttr());
  results.push_back(DenseElementsAttr::get(countType, count));
  return success();
}
