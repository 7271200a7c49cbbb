//===- MergeKernels.cpp - One kernel per layer shape ------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph-merge-kernels: kernels whose bodies differ only in the values of
// their weight constants become one kernel that takes the weights as
// arguments, so that every repetition of a layer shape shares one body
// through the rest of the lowering and LLVM.
//
//===----------------------------------------------------------------------===//

#include "KernelBodyKey.h"

#include "graph/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHMERGEKERNELS
#include "graph/Codegen/CPU/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

namespace {
struct GraphMergeKernelsPass
    : public graph::impl::GraphMergeKernelsBase<GraphMergeKernelsPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// Whether `op` is a weight that may become an argument: a constant
  /// tensor of the kernel's entry block, not a splat, of at least
  /// minConstantBytes.
  bool isWeight(Operation *op) const;
  SmallVector<arith::ConstantOp> getWeights(func::FuncOp kernel) const;
};
} // namespace

bool GraphMergeKernelsPass::isWeight(Operation *op) const {
  auto constant = dyn_cast<arith::ConstantOp>(op);
  if (!constant || !isa<func::FuncOp>(op->getParentOp()))
    return false;
  auto type = dyn_cast<RankedTensorType>(constant.getType());
  auto value = dyn_cast<ElementsAttr>(constant.getValue());
  if (!type || !value || value.isSplat() || !type.hasStaticShape() ||
      !type.getElementType().isIntOrFloat())
    return false;
  int64_t bits = type.getNumElements() * type.getElementTypeBitWidth();
  return bits >= minConstantBytes * 8;
}

SmallVector<arith::ConstantOp>
GraphMergeKernelsPass::getWeights(func::FuncOp kernel) const {
  SmallVector<arith::ConstantOp> weights;
  for (Operation &op : kernel.getBody().front())
    if (isWeight(&op))
      weights.push_back(cast<arith::ConstantOp>(op));
  return weights;
}

void GraphMergeKernelsPass::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTableCollection tables;
  SymbolUserMap users(tables, module);

  // Kernels by their key without the weights, in module order; each must
  // be called, and only by calls.
  llvm::DenseMap<unsigned, SmallVector<SmallVector<func::FuncOp>, 1>> classes;
  SmallVector<SmallVector<func::FuncOp> *> order;
  llvm::DenseMap<func::FuncOp, KernelBodyKey> keys;
  for (auto kernel : module.getOps<func::FuncOp>()) {
    if (!kernel->hasAttr(kKernelAttr) || !kernel.isPrivate() ||
        kernel.isExternal() || !kernel.getBody().hasOneBlock())
      continue;
    ArrayRef<Operation *> kernelUsers = users.getUsers(kernel);
    if (kernelUsers.empty() ||
        !llvm::all_of(kernelUsers, llvm::IsaPred<func::CallOp>))
      continue;
    KernelBodyKey key(kernel, [&](Operation *op) { return isWeight(op); });
    SmallVector<SmallVector<func::FuncOp>, 1> &candidates = classes[key.hash()];
    SmallVector<func::FuncOp> *same = nullptr;
    for (SmallVector<func::FuncOp> &candidate : candidates)
      if (keys.at(candidate.front()) == key)
        same = &candidate;
    if (!same) {
      keys.try_emplace(kernel, std::move(key));
      candidates.push_back({kernel});
      continue;
    }
    same->push_back(kernel);
  }
  for (auto &[hash, candidates] : classes)
    for (SmallVector<func::FuncOp> &kernels : candidates)
      if (kernels.size() > 1)
        order.push_back(&kernels);
  // Deterministic: the classes in the order of their first kernel.
  llvm::sort(order,
             [](SmallVector<func::FuncOp> *a, SmallVector<func::FuncOp> *b) {
               return a->front()->isBeforeInBlock(b->front());
             });

  for (SmallVector<func::FuncOp> *kernels : order) {
    func::FuncOp first = kernels->front();
    // Each kernel's calls get its own weights as the new arguments.
    for (func::FuncOp kernel : *kernels) {
      SmallVector<arith::ConstantOp> weights = getWeights(kernel);
      for (Operation *user : users.getUsers(kernel)) {
        auto call = cast<func::CallOp>(user);
        OpBuilder builder(call);
        SmallVector<Value> operands(call.getOperands());
        for (arith::ConstantOp weight : weights)
          operands.push_back(builder.clone(*weight)->getResult(0));
        auto merged =
            func::CallOp::create(builder, call.getLoc(), first, operands);
        call.replaceAllUsesWith(merged.getResults());
        call.erase();
      }
    }
    // The first kernel takes them.
    Block &body = first.getBody().front();
    for (arith::ConstantOp weight : getWeights(first)) {
      unsigned index = first.getNumArguments();
      if (failed(first.insertArgument(index, weight.getType(), DictionaryAttr(),
                                      weight.getLoc())))
        return signalPassFailure();
      weight.replaceAllUsesWith(body.getArgument(index));
      weight.erase();
    }
    for (func::FuncOp kernel : llvm::drop_begin(*kernels))
      kernel.erase();
  }
}
