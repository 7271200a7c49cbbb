//===- PaddedGroups.cpp - Padded inputs and results in place --------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The pads at a fused group's edges: a padded input (an NHWC convolution's)
// and a padded result (graph-pad-in-producer's) become buffers whose border
// alone is filled and whose interior the producer writes in place, so that
// padding costs no copy.
//
//===----------------------------------------------------------------------===//

#include "FusedGroup.h"
#include "PaddedBuffer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::graph;

bool mlir::graph::isPaddedGroupInput(
    tensor::PadOp pad, const llvm::SetVector<Operation *> &group) {
  Operation *source = pad.getSource().getDefiningOp();
  return !source || !group.contains(source);
}

/// Whether `pad` pads a value of the group for the group's users
/// (graph-fuse's pad-in-producer: a kernel's result padded for the
/// convolution of the next kernel).
static bool isPaddedGroupResult(tensor::PadOp pad,
                                const llvm::SetVector<Operation *> &group) {
  Operation *source = pad.getSource().getDefiningOp();
  return source && group.contains(source) &&
         llvm::none_of(pad->getUsers(),
                       [&](Operation *user) { return group.contains(user); });
}

/// The constant `pad` pads with, or null: a constant, or an element of a
/// constant tensor (graph.pad's rank-0 `value`, -inf for a max pooling's
/// input).
static Attribute getConstantPaddingAttr(tensor::PadOp pad) {
  Value value = pad.getConstantPaddingValue();
  Attribute attr;
  if (!value || matchPattern(value, m_Constant(&attr)))
    return attr;
  DenseElementsAttr elements;
  if (auto extract = value.getDefiningOp<tensor::ExtractOp>();
      extract && matchPattern(extract.getTensor(), m_Constant(&elements)) &&
      elements.isSplat())
    return elements.getSplatValue<Attribute>();
  return {};
}

/// The pads of the group that `isKind` selects whose shapes and low
/// padding are static, in group order.
static SmallVector<tensor::PadOp> getStaticPads(
    const llvm::SetVector<Operation *> &group,
    bool (*isKind)(tensor::PadOp, const llvm::SetVector<Operation *> &)) {
  SmallVector<tensor::PadOp> pads;
  for (Operation *op : group)
    if (auto pad = dyn_cast<tensor::PadOp>(op);
        pad && isKind(pad, group) && pad.getResultType().hasStaticShape() &&
        pad.getSourceType().hasStaticShape() &&
        llvm::all_of(pad.getMixedLowPad(), [](OpFoldResult v) {
          return getConstantIntValue(v).has_value();
        }))
      pads.push_back(pad);
  return pads;
}

void mlir::graph::padGroupInputsInPlace(RewriterBase &rewriter,
                                        llvm::SetVector<Operation *> &group) {
  for (tensor::PadOp pad : getStaticPads(group, isPaddedGroupInput)) {
    Attribute padAttr = getConstantPaddingAttr(pad);
    if (!padAttr)
      continue;
    Value source = pad.getSource();
    Location loc = pad.getLoc();
    if (Operation *producer = source.getDefiningOp())
      rewriter.setInsertionPoint(producer);
    else
      rewriter.setInsertionPointToStart(pad->getBlock());
    RankedTensorType type = pad.getResultType();
    // Not a tensor.empty: CSE would merge the identical fills of two pads
    // into one tensor, which each insertion then copies.
    Value empty =
        bufferization::AllocTensorOp::create(rewriter, loc, type, ValueRange{});
    // The padding value, made again here: its constant may come later.
    Value padValue =
        arith::ConstantOp::create(rewriter, loc, cast<TypedAttr>(padAttr));
    // Only the border: the interior is the input's.
    SmallVector<Operation *> borderOps;
    SmallVector<int64_t> low =
        llvm::map_to_vector(pad.getMixedLowPad(), [](OpFoldResult v) {
          return *getConstantIntValue(v);
        });
    Value filled = fillBorder(rewriter, loc, empty, padValue, low,
                              pad.getSourceType().getShape(), &borderOps);
    // The input goes into the interior right after its producer, and every
    // other reader of the input reads that interior: the input then exists
    // only there (a residual connection reads the block input too).
    if (Operation *producer = source.getDefiningOp())
      rewriter.setInsertionPointAfter(producer);
    SmallVector<OpFoldResult> offsets = pad.getMixedLowPad();
    SmallVector<OpFoldResult> strides(type.getRank(), rewriter.getIndexAttr(1));
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, source);
    auto inserted = tensor::InsertSliceOp::create(rewriter, loc, source, filled,
                                                  offsets, sizes, strides);
    auto interior = tensor::ExtractSliceOp::create(
        rewriter, loc, cast<RankedTensorType>(source.getType()),
        inserted.getResult(), offsets, sizes, strides);
    rewriter.replaceUsesWithIf(source, interior, [&](OpOperand &use) {
      return use.getOwner() != pad && use.getOwner() != inserted;
    });
    for (Operation *op : borderOps)
      group.insert(op);
    group.insert(inserted);
    group.remove(pad);
    rewriter.replaceOp(pad, inserted.getResult());
  }
}

void mlir::graph::padGroupResultsInPlace(RewriterBase &rewriter,
                                         llvm::SetVector<Operation *> &group) {
  for (tensor::PadOp pad : getStaticPads(group, isPaddedGroupResult)) {
    Attribute padAttr = getConstantPaddingAttr(pad);
    if (!padAttr)
      continue;
    Value source = pad.getSource();
    SmallVector<int64_t> low =
        llvm::map_to_vector(pad.getMixedLowPad(), [](OpFoldResult v) {
          return *getConstantIntValue(v);
        });
    // Whether dimension i of the result is padded.
    auto padded = [&](int64_t i) {
      return pad.getResultType().getDimSize(i) !=
             pad.getSourceType().getDimSize(i);
    };
    auto view = source.getDefiningOp<tensor::CollapseShapeOp>();
    SmallVector<ReassociationIndices> reassociation;
    if (view && group.contains(view)) {
      reassociation = view.getReassociationIndices();
      SmallVector<int64_t> viewedLow;
      for (auto [i, indices] : llvm::enumerate(reassociation)) {
        if (indices.size() > 1 && padded(i)) {
          viewedLow.clear();
          break;
        }
        viewedLow.append(indices.size(), low[i]);
      }
      if (viewedLow.empty()) {
        view = {};
      } else {
        source = view.getSrc();
        low = viewedLow;
      }
    } else {
      view = {};
    }
    auto sourceType = cast<RankedTensorType>(source.getType());
    SmallVector<int64_t> shape(sourceType.getShape());
    if (view) {
      for (auto [i, indices] : llvm::enumerate(reassociation))
        if (indices.size() == 1)
          shape[indices.front()] = pad.getResultType().getDimSize(i);
    } else {
      shape = llvm::to_vector(pad.getResultType().getShape());
    }

    Location loc = pad.getLoc();
    rewriter.setInsertionPoint(group.front());
    Value empty = bufferization::AllocTensorOp::create(
        rewriter, loc,
        RankedTensorType::get(shape, sourceType.getElementType()),
        ValueRange{});
    Value padValue =
        arith::ConstantOp::create(rewriter, loc, cast<TypedAttr>(padAttr));
    SmallVector<Operation *> borderOps;
    Value filled = fillBorder(rewriter, loc, empty, padValue, low,
                              sourceType.getShape(), &borderOps);
    rewriter.setInsertionPoint(pad);
    SmallVector<OpFoldResult> strides(shape.size(), rewriter.getIndexAttr(1));
    auto inserted = tensor::InsertSliceOp::create(
        rewriter, loc, source, filled,
        getAsIndexOpFoldResult(rewriter.getContext(), low),
        tensor::getMixedSizes(rewriter, loc, source), strides);
    Value result = inserted.getResult();
    if (view) {
      auto viewed = tensor::CollapseShapeOp::create(
          rewriter, loc, pad.getResultType(), result, reassociation);
      group.insert(viewed);
      result = viewed.getResult();
    }
    for (Operation *op : borderOps)
      group.insert(op);
    group.insert(inserted);
    group.remove(pad);
    rewriter.replaceOp(pad, result);
  }
}
