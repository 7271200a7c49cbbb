//===- GraphOps.h - Operations of the graph dialect -------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Declares the ops of the `graph` dialect, generated from GraphOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_DIALECT_GRAPH_IR_GRAPHOPS_H
#define GRAPH_DIALECT_GRAPH_IR_GRAPHOPS_H

#include "graph/Dialect/Graph/IR/GraphDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <functional>

namespace mlir {
class RewritePatternSet;
class RewriterBase;

namespace graph {

/// The random number generator state read and advanced by
/// `graph.random_uniform` and training `graph.dropout`.
struct RNGResource : public SideEffects::Resource::Base<RNGResource> {
  StringRef getName() final { return "graph.rng"; }
};

namespace trait {
/// Marks the elementwise ops (GraphBase.td, `Graph_Elementwise`).
template <typename ConcreteType>
class ElementwiseTrait
    : public mlir::OpTrait::TraitBase<ConcreteType, ElementwiseTrait> {};
} // namespace trait

/// Whether `op` is an elementwise graph op.
inline bool isElementwise(Operation *op) {
  return op->hasTrait<trait::ElementwiseTrait>();
}

/// Whether a user of a value counts when a pattern asks for the value's only
/// user. Canonicalization counts every user (its driver erases dead ones
/// first); a pass that keeps dead ops passes its liveness, so that what it
/// does is the same with or without dead code elimination before it.
using CountsAsUser = std::function<bool(Operation *)>;

/// The transpose canonicalizations (cancel, move toward where they cancel,
/// become reshapes), their "only user" judged by `countsAsUser`.
void populateTransposeSinkingPatterns(RewritePatternSet &patterns,
                                      CountsAsUser countsAsUser);

/// Splits a transpose read by several ops it could each move past into one
/// per user (x * sigmoid(x)), so that the sinking patterns move them all.
/// Not a canonicalization: a copy that cannot sink after all is left for
/// its user, and the pass merges such copies back.
void populateTransposeSplittingPatterns(RewritePatternSet &patterns,
                                        CountsAsUser countsAsUser);

} // namespace graph
} // namespace mlir

#include "graph/Dialect/Graph/IR/GraphEnums.h.inc"
#define GET_ATTRDEF_CLASSES
#include "graph/Dialect/Graph/IR/GraphAttrs.h.inc"

#define GET_OP_CLASSES
#include "graph/Dialect/Graph/IR/GraphOps.h.inc"

namespace mlir {
namespace graph {

/// Whether `op`, reading the value `chain` once, can be in the epilogue of
/// an integer contraction (conv_integer, matmul_integer) of result shape
/// `shape` (its last dimension the columns): one of the ops the integer
/// kernels apply to their sums in registers (graph-lower-integer-matmul),
/// each other operand holding one value, one per column or one per element.
/// graph-fuse groups no other op after an integer anchor.
inline bool isIntegerEpilogueOp(Operation *op, Value chain,
                                ArrayRef<int64_t> shape) {
  if (!isa<DequantizeOp, AddOp, SubOp, MulOp, ReluOp, ClipOp, FakeQuantizeOp,
           QuantizeOp>(op) ||
      shape.empty())
    return false;
  bool binary = isa<AddOp, SubOp, MulOp>(op);
  if (!binary && op->getOperand(0) != chain)
    return false;
  for (Value operand : op->getOperands()) {
    if (operand == chain)
      continue;
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type || !type.hasStaticShape())
      return false;
    int64_t count = type.getNumElements();
    bool perColumn = type.getRank() > 0 &&
                     type.getShape().back() == shape.back() &&
                     count == shape.back();
    if (count != 1 && !perColumn && type.getShape() != shape)
      return false;
  }
  return true;
}

} // namespace graph
} // namespace mlir

#endif // GRAPH_DIALECT_GRAPH_IR_GRAPHOPS_H
