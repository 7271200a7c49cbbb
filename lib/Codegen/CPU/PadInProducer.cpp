//===- PadInProducer.cpp - Padded inputs written by their producer -------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph-pad-in-producer: the zero padding of an NHWC convolution moves into
// the graph.fused that produces its input. Each kernel is a function of its
// own, so a convolution that pads its input copies all of it into a padded
// buffer before it starts (MobileNetV2's 112 x 112 x 96 depthwise input is
// 4.8 MB: the copy took more time than the depthwise convolution, and it
// runs on one thread). The producer, whose result nothing else reads,
// writes the padded tensor's interior instead (graph-lower-fused's padded
// results), at no extra cost.
//
//===----------------------------------------------------------------------===//

#include "graph/Codegen/CPU/Passes.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHPADINPRODUCER
#include "graph/Codegen/CPU/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

/// Whether `padding` ([top, left, bottom, right]) pads anything.
static bool pads(ArrayRef<int64_t> padding) {
  return llvm::any_of(padding, [](int64_t p) { return p != 0; });
}

/// The NHWC op that pads `value`, its only reader, with its padding value:
/// a conv2d (zeros) or a max_pool2d (-inf); null if there is none.
static Operation *getPaddingReader(Value value, Attribute &padValue) {
  if (!value.hasOneUse())
    return nullptr;
  Operation *reader = *value.getUsers().begin();
  auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(value.getType()));
  if (!floatType)
    return nullptr;
  if (auto conv = dyn_cast<Conv2DOp>(reader)) {
    if (conv.getInput() != value || conv.getLayout() != Layout::NHWC ||
        !pads(conv.getPadding()))
      return nullptr;
    padValue = FloatAttr::get(floatType, 0.0);
    return conv;
  }
  if (auto pool = dyn_cast<MaxPool2DOp>(reader)) {
    if (pool.getLayout() != Layout::NHWC || !pads(pool.getPadding()))
      return nullptr;
    padValue = FloatAttr::get(
        floatType, APFloat::getInf(floatType.getFloatSemantics(), true));
    return pool;
  }
  return nullptr;
}

/// Pads the result of the group that produces `operand` for `reader` (an
/// NHWC conv2d or max_pool2d that pads it), if it can; returns whether it
/// did. `operand` is the reader's own, or that of the graph.fused holding
/// it, whose block argument `arg` the reader reads.
static bool padInProducer(RewriterBase &rewriter, OpOperand &operand,
                          BlockArgument arg = {}) {
  auto producer = operand.get().getDefiningOp<FusedOp>();
  auto type = dyn_cast<RankedTensorType>(operand.get().getType());
  if (!producer || producer->getNumResults() != 1 ||
      !operand.get().hasOneUse() || !type || !type.hasStaticShape() ||
      type.getRank() != 4)
    return false;
  Attribute padValue;
  Operation *reader = getPaddingReader(arg ? arg : operand.get(), padValue);
  if (!reader)
    return false;

  // padding is [top, left, bottom, right]; graph.pad's pads all begins, then
  // all ends, in NHWC.
  ArrayRef<int64_t> padding = isa<Conv2DOp>(reader)
                                  ? cast<Conv2DOp>(reader).getPadding()
                                  : cast<MaxPool2DOp>(reader).getPadding();
  SmallVector<int64_t> pads = {0, padding[0], padding[1], 0,
                               0, padding[2], padding[3], 0};
  SmallVector<int64_t> shape(type.getShape());
  shape[1] += padding[0] + padding[2];
  shape[2] += padding[1] + padding[3];
  auto paddedType = RankedTensorType::get(shape, type.getElementType());

  auto yield = cast<YieldOp>(producer.getBody().front().getTerminator());
  rewriter.setInsertionPoint(yield);
  Location loc = yield.getLoc();
  Value value;
  if (!cast<FloatAttr>(padValue).getValue().isZero()) {
    auto scalarType = RankedTensorType::get({}, type.getElementType());
    value = ConstantOp::create(rewriter, loc, scalarType,
                               DenseElementsAttr::get(scalarType, padValue));
  }
  Value padded = PadOp::create(rewriter, loc, paddedType, yield.getOperand(0),
                               value, rewriter.getDenseI64ArrayAttr(pads),
                               rewriter.getStringAttr("constant"));
  rewriter.modifyOpInPlace(yield, [&] { yield->setOperand(0, padded); });
  rewriter.modifyOpInPlace(producer,
                           [&] { producer->getResult(0).setType(paddedType); });
  if (arg)
    rewriter.modifyOpInPlace(operand.getOwner(),
                             [&] { arg.setType(paddedType); });
  SmallVector<int64_t> none = {0, 0, 0, 0};
  rewriter.modifyOpInPlace(reader, [&] {
    if (auto conv = dyn_cast<Conv2DOp>(reader))
      conv.setPadding(none);
    else
      cast<MaxPool2DOp>(reader).setPadding(none);
  });
  return true;
}

namespace {
struct GraphPadInProducerPass
    : public graph::impl::GraphPadInProducerBase<GraphPadInProducerPass> {
  void runOnOperation() override {
    // Groups reading a group's result, and convolutions and max poolings
    // outside any group reading one.
    SmallVector<Operation *> readers;
    getOperation()->walk([&](Operation *op) {
      if (isa<FusedOp>(op) ||
          (isa<Conv2DOp, MaxPool2DOp>(op) && !op->getParentOfType<FusedOp>()))
        readers.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *reader : readers) {
      auto fused = dyn_cast<FusedOp>(reader);
      for (OpOperand &operand : reader->getOpOperands())
        (void)padInProducer(
            rewriter, operand,
            fused ? fused.getBody().getArgument(operand.getOperandNumber())
                  : BlockArgument());
    }
  }
};
} // namespace
