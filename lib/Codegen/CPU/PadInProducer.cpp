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

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHPADINPRODUCER
#include "graph/Codegen/CPU/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

/// The convolution of `consumer` that pads its block argument `index` and
/// is its only reader, or null.
static Conv2DOp getPaddingConv(FusedOp consumer, unsigned index) {
  BlockArgument arg = consumer.getBody().getArgument(index);
  if (!arg.hasOneUse())
    return {};
  auto conv = dyn_cast<Conv2DOp>(*arg.getUsers().begin());
  if (!conv || conv.getInput() != arg || conv.getLayout() != "NHWC" ||
      llvm::all_of(conv.getPadding(), [](int64_t p) { return p == 0; }))
    return {};
  return conv;
}

/// Pads the result of the group that produces `operand` of `consumer` for
/// the convolution reading it there, if it can; returns whether it did.
static bool padInProducer(RewriterBase &rewriter, FusedOp consumer,
                          OpOperand &operand) {
  auto producer = operand.get().getDefiningOp<FusedOp>();
  auto type = dyn_cast<RankedTensorType>(operand.get().getType());
  if (!producer || producer->getNumResults() != 1 ||
      !operand.get().hasOneUse() || !type || !type.hasStaticShape() ||
      type.getRank() != 4 || !isa<FloatType>(type.getElementType()))
    return false;
  Conv2DOp conv = getPaddingConv(consumer, operand.getOperandNumber());
  if (!conv)
    return false;

  // padding is [top, left, bottom, right]; graph.pad's pads all begins, then
  // all ends, in NHWC.
  ArrayRef<int64_t> padding = conv.getPadding();
  SmallVector<int64_t> pads = {0, padding[0], padding[1], 0,
                               0, padding[2], padding[3], 0};
  SmallVector<int64_t> shape(type.getShape());
  shape[1] += padding[0] + padding[2];
  shape[2] += padding[1] + padding[3];
  auto paddedType = RankedTensorType::get(shape, type.getElementType());

  auto yield = cast<YieldOp>(producer.getBody().front().getTerminator());
  rewriter.setInsertionPoint(yield);
  Value padded =
      PadOp::create(rewriter, yield.getLoc(), paddedType, yield.getOperand(0),
                    /*value=*/Value(), rewriter.getDenseI64ArrayAttr(pads),
                    rewriter.getStringAttr("constant"));
  rewriter.modifyOpInPlace(yield, [&] { yield->setOperand(0, padded); });
  rewriter.modifyOpInPlace(producer,
                           [&] { producer->getResult(0).setType(paddedType); });
  BlockArgument arg =
      consumer.getBody().getArgument(operand.getOperandNumber());
  rewriter.modifyOpInPlace(consumer, [&] { arg.setType(paddedType); });
  rewriter.modifyOpInPlace(conv, [&] {
    conv.setPadding(ArrayRef<int64_t>{0, 0, 0, 0});
  });
  return true;
}

namespace {
struct GraphPadInProducerPass
    : public graph::impl::GraphPadInProducerBase<GraphPadInProducerPass> {
  void runOnOperation() override {
    SmallVector<FusedOp> consumers;
    getOperation()->walk([&](FusedOp op) { consumers.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (FusedOp consumer : consumers)
      for (OpOperand &operand : consumer->getOpOperands())
        (void)padInProducer(rewriter, consumer, operand);
  }
};
} // namespace
