//===- FusedOp.cpp - graph.fused, the body of one kernel -----------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph.fused holds the ops graph-fuse made one kernel in its single-block
// body: its operands are the body's arguments, `graph.yield` its results.
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/GraphOps.h"

using namespace mlir;
using namespace mlir::graph;

//===----------------------------------------------------------------------===//
// FusedOp
//===----------------------------------------------------------------------===//

YieldOp FusedOp::getYield() {
  return cast<YieldOp>(getBody().front().getTerminator());
}

LogicalResult FusedOp::verify() {
  if (getKind().empty())
    return emitOpError() << "attribute 'kind' must be non-empty";
  // SizedRegion<1> already guarantees exactly one block.
  Block &block = getBody().front();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError() << "body has " << block.getNumArguments()
                         << " arguments, but operand 'inputs' has "
                         << getInputs().size() << " values";
  for (auto [i, arg, input] :
       llvm::enumerate(block.getArguments(), getInputs()))
    if (arg.getType() != input.getType())
      return emitOpError() << "body argument #" << i << " has type "
                           << arg.getType() << ", but operand 'inputs' #" << i
                           << " has type " << input.getType();
  auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
  if (!yield)
    return emitOpError() << "body must end in 'graph.yield'";
  if (yield.getValues().getTypes() != getResults().getTypes())
    return emitOpError() << "'graph.yield' operand types ("
                         << yield.getValues().getTypes()
                         << ") must match result 'results' types ("
                         << getResults().getTypes() << ")";
  return success();
}
