//===- OutlineKernels.cpp - One function per kernel -------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph-outline-kernels: every graph compute op and every graph.fused of a
// function, in graph.if regions too, becomes a call to a private kernel
// function.
// Kernels with identical bodies are merged, so that a model that repeats a
// layer shape with the same weights compiles it once.
//
//===----------------------------------------------------------------------===//

#include "KernelBodyKey.h"

#include "graph/Codegen/CPU/Passes.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHOUTLINEKERNELS
#include "graph/Codegen/CPU/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

/// Whether `op` is one that becomes a kernel: a graph op that computes (not
/// a constant, not a terminator). A reshape moves no data: it stays in the
/// caller, where it becomes a view of its operand's buffer (as a kernel, it
/// would copy the tensor into the kernel's result).
static bool isKernelOp(Operation &op) {
  if (!isa<GraphDialect>(op.getDialect()) || isa<ReshapeOp, FlattenOp>(op))
    return false;
  // A graph.if or graph.loop stays in the caller, a branch or a loop
  // between kernels.
  if (isa<IfOp, LoopOp>(op))
    return false;
  return !op.hasTrait<OpTrait::ConstantLike>() &&
         !op.hasTrait<OpTrait::IsTerminator>();
}

/// The ops that make `value` from a constant through reshapes, `value`'s
/// own first and the constant last; empty when it is not one.
static SmallVector<Operation *> getConstantChain(Value value) {
  SmallVector<Operation *> chain;
  for (Operation *def = value.getDefiningOp(); def;
       def = def->getOperand(0).getDefiningOp()) {
    chain.push_back(def);
    if (def->hasTrait<OpTrait::ConstantLike>())
      return chain;
    if (!isa<ReshapeOp, FlattenOp>(def))
      break;
  }
  return {};
}

/// What a kernel computes, for its name: the fused kind or the mnemonic.
static std::string getKernelKind(Operation *op) {
  if (auto fused = dyn_cast<FusedOp>(op))
    return fused.getKind().str();
  return op->getName().stripDialect().str();
}

namespace {
struct GraphOutlineKernelsPass
    : public graph::impl::GraphOutlineKernelsBase<GraphOutlineKernelsPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// Moves `op` into a new kernel function and replaces it by a call.
  func::FuncOp outline(Operation *op, func::FuncOp parent, SymbolTable &symbols,
                       unsigned index);
};
} // namespace

func::FuncOp GraphOutlineKernelsPass::outline(Operation *op,
                                              func::FuncOp parent,
                                              SymbolTable &symbols,
                                              unsigned index) {
  // Arguments: the values `op` reads, but constants and reshapes of them,
  // which the kernel gets a copy of (so that the lowering sees their values).
  llvm::SetVector<Value> arguments;
  llvm::SetVector<Operation *> constants;
  for (Value operand : op->getOperands()) {
    SmallVector<Operation *> chain = getConstantChain(operand);
    if (chain.empty())
      arguments.insert(operand);
    else
      constants.insert(chain.rbegin(), chain.rend());
  }

  OpBuilder builder(parent);
  std::string kind = getKernelKind(op);
  auto type = builder.getFunctionType(TypeRange(arguments.getArrayRef()),
                                      op->getResultTypes());
  auto kernel = func::FuncOp::create(
      builder, op->getLoc(),
      (parent.getSymName() + "_kernel" + llvm::Twine(index) + "_" + kind).str(),
      type);
  kernel.setPrivate();
  kernel->setAttr(kKernelAttr, builder.getStringAttr(kind));
  // LLVM's inliner would otherwise fold a kernel called once back into its
  // caller, undoing the split.
  kernel->setAttr("no_inline", builder.getUnitAttr());
  symbols.insert(kernel);

  Block *body = kernel.addEntryBlock();
  IRMapping mapping;
  mapping.map(arguments.getArrayRef(), body->getArguments());
  builder.setInsertionPointToStart(body);
  for (Operation *constant : constants)
    builder.clone(*constant, mapping);
  Operation *clone = builder.clone(*op, mapping);
  func::ReturnOp::create(builder, op->getLoc(), clone->getResults());

  builder.setInsertionPoint(op);
  auto call = func::CallOp::create(builder, op->getLoc(), kernel,
                                   arguments.getArrayRef());
  op->replaceAllUsesWith(call.getResults());
  op->erase();
  return kernel;
}

void GraphOutlineKernelsPass::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTable symbols(module);
  SmallVector<func::FuncOp> functions =
      llvm::to_vector(module.getOps<func::FuncOp>());

  // Kernels by body; the first of each body is the one kept.
  llvm::DenseMap<unsigned, SmallVector<func::FuncOp, 1>> kernelsByHash;
  for (func::FuncOp function : functions) {
    if (function.isExternal() || function->hasAttr(kKernelAttr))
      continue;
    // Kernels inside a graph.if's regions are called from there.
    SmallVector<Operation *> ops;
    function.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!isKernelOp(*op))
        return WalkResult::advance();
      ops.push_back(op);
      return WalkResult::skip();
    });
    unsigned index = 0;
    for (Operation *op : ops) {
      func::FuncOp kernel = outline(op, function, symbols, index++);
      KernelBodyKey key(kernel);
      SmallVector<func::FuncOp, 1> &candidates = kernelsByHash[key.hash()];
      func::FuncOp same;
      for (func::FuncOp candidate : candidates)
        if (KernelBodyKey(candidate) == key)
          same = candidate;
      if (!same) {
        candidates.push_back(kernel);
        continue;
      }
      // One body, compiled once: the call goes to the first copy.
      if (failed(SymbolTable::replaceAllSymbolUses(
              kernel.getSymNameAttr(), same.getSymNameAttr(), function)))
        return signalPassFailure();
      symbols.erase(kernel);
    }
    // Constants (and reshapes of them) that only the outlined ops used are
    // dead in the caller now.
    function.walk<WalkOrder::PostOrder, ReverseIterator>([](Operation *op) {
      if ((op->hasTrait<OpTrait::ConstantLike>() ||
           isa<ReshapeOp, FlattenOp>(op)) &&
          op->use_empty())
        op->erase();
    });
  }
}
