//===- FullRankTensorWrites.cpp - Identity-map vector writes ----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Before bufferization, every unmasked vector.transfer_write into a tensor
// becomes a write of a vector with the tensor's rank and the identity map.
// One-shot bufferization in LLVM 22 decides whether a write reads its
// destination (whether the written box is the whole tensor) by pairing the
// vector's dimensions with the tensor's leading dimensions: a vector<2xf32>
// written at [0, 0] into a tensor<2x4xf32> counts as covering it, and when
// that write goes out of place the new buffer receives no copy of the
// destination. Two padded convolutions whose zero fills CSE had merged
// printed `1 4 0` where `1 0 0` is right. With full-rank identity-map writes
// the check compares matching dimensions and is exact.
// test/Codegen/CPU/upstream-bufferize-partial-write.mlir keeps the
// upstream-only form.
//
//===----------------------------------------------------------------------===//

#include "graph/Codegen/CPU/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHFULLRANKTENSORWRITES
#include "graph/Codegen/CPU/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

namespace {
/// transfer_write %v, %t[...] {permutation_map = m} with m not the identity
/// -> transfer_write shape_cast(transpose(%v)), %t[...] with the identity.
struct WriteWithIdentityMap : public OpRewritePattern<vector::TransferWriteOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferWriteOp write,
                                PatternRewriter &rewriter) const override {
    auto tensorType = dyn_cast<RankedTensorType>(write.getShapedType());
    if (!tensorType)
      return rewriter.notifyMatchFailure(write, "writes into a memref");
    // A masked write reads its destination in upstream's eyes already.
    if (write.getMask())
      return rewriter.notifyMatchFailure(write, "masked");
    AffineMap map = write.getPermutationMap();
    if (map.isIdentity())
      return rewriter.notifyMatchFailure(write, "identity map already");
    VectorType vectorType = write.getVectorType();
    if (vectorType.isScalable())
      return rewriter.notifyMatchFailure(write, "scalable vector");

    // The tensor dimension each vector dimension writes along.
    SmallVector<int64_t> tensorDims;
    for (AffineExpr result : map.getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(result);
      if (!dim)
        return rewriter.notifyMatchFailure(write, "broadcast in the map");
      tensorDims.push_back(dim.getPosition());
    }

    // Vector dimensions in tensor order, then a unit dimension for each
    // tensor dimension the write does not span (its index is in bounds: the
    // op requires it).
    SmallVector<int64_t> order =
        llvm::to_vector(llvm::seq<int64_t>(tensorDims.size()));
    llvm::sort(order, [&](int64_t a, int64_t b) {
      return tensorDims[a] < tensorDims[b];
    });
    int64_t rank = tensorType.getRank();
    SmallVector<int64_t> shape(rank, 1);
    SmallVector<bool> inBounds(rank, true);
    for (int64_t vectorDim : order) {
      shape[tensorDims[vectorDim]] = vectorType.getDimSize(vectorDim);
      inBounds[tensorDims[vectorDim]] = write.isDimInBounds(vectorDim);
    }

    Location loc = write.getLoc();
    Value vector = write.getVector();
    if (!llvm::is_sorted(order))
      vector = vector::TransposeOp::create(rewriter, loc, vector, order);
    auto fullRankType = VectorType::get(shape, vectorType.getElementType());
    if (vector.getType() != fullRankType)
      vector = vector::ShapeCastOp::create(rewriter, loc, fullRankType, vector);
    rewriter.replaceOpWithNewOp<vector::TransferWriteOp>(
        write, vector, write.getBase(), write.getIndices(),
        AffineMapAttr::get(
            AffineMap::getMultiDimIdentityMap(rank, getContext())),
        /*mask=*/Value(), rewriter.getBoolArrayAttr(inBounds));
    return success();
  }
};

struct GraphFullRankTensorWritesPass
    : public graph::impl::GraphFullRankTensorWritesBase<
          GraphFullRankTensorWritesPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<WriteWithIdentityMap>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace
