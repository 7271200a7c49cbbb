//===- PaddedBuffer.h - Padded tensors without a full fill ------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A padded tensor is a buffer whose interior the source is inserted into
// (or, in a fused group, written into in place by the source's producer):
// only its border needs the padding value. Filling the whole buffer first
// writes every element twice, which for a 112 x 112 x 96 feature map
// (MobileNetV2's first depthwise input, 4.8 MB) cost more than the
// convolution reading it.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_GRAPHTOLLVM_PADDEDBUFFER_H
#define LIB_CONVERSION_GRAPHTOLLVM_PADDEDBUFFER_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir {
namespace graph {

/// Fills the border of `buffer` (static shape) around an interior that
/// starts at `low` and has `interior` as its shape with `padValue`: one
/// slab per padded side and dimension, the slabs of dimension d spanning
/// the interior in the dimensions before it and everything after it, so
/// that they cover the border once. Returns the buffer with the slabs
/// inserted; `created` receives the ops made.
inline Value fillBorder(OpBuilder &b, Location loc, Value buffer,
                        Value padValue, ArrayRef<int64_t> low,
                        ArrayRef<int64_t> interior,
                        SmallVectorImpl<Operation *> *created = nullptr) {
  auto type = cast<RankedTensorType>(buffer.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = shape.size();
  for (int64_t d = 0; d < rank; ++d) {
    int64_t high = shape[d] - low[d] - interior[d];
    for (auto [offset, size] : {std::make_pair(int64_t(0), low[d]),
                                std::make_pair(low[d] + interior[d], high)}) {
      if (size <= 0)
        continue;
      SmallVector<int64_t> offsets(rank, 0), sizes(shape);
      for (int64_t j = 0; j < d; ++j) {
        offsets[j] = low[j];
        sizes[j] = interior[j];
      }
      offsets[d] = offset;
      sizes[d] = size;
      Value empty =
          tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
      auto fill = linalg::FillOp::create(b, loc, ValueRange{padValue},
                                         ValueRange{empty});
      auto inserted = tensor::InsertSliceOp::create(
          b, loc, fill.getResult(0), buffer,
          getAsIndexOpFoldResult(b.getContext(), offsets),
          getAsIndexOpFoldResult(b.getContext(), sizes),
          getAsIndexOpFoldResult(b.getContext(),
                                 SmallVector<int64_t>(rank, 1)));
      buffer = inserted.getResult();
      if (created)
        created->append({empty.getDefiningOp(), fill, inserted});
    }
  }
  return buffer;
}

} // namespace graph
} // namespace mlir

#endif // LIB_CONVERSION_GRAPHTOLLVM_PADDEDBUFFER_H
