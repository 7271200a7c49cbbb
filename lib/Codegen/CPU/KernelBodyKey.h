//===- KernelBodyKey.h - Structural identity of kernel bodies ---*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A key that two kernel functions share when their bodies are the same
// computation: graph-outline-kernels merges kernels with equal keys, and
// graph-merge-kernels those whose keys are equal once their weights are
// left out.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_GRAPHTOLLVM_KERNELBODYKEY_H
#define LIB_CONVERSION_GRAPHTOLLVM_KERNELBODYKEY_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir {
namespace graph {

/// Each op's name, attributes (uniqued, so constants compare by content in
/// O(1)), result types and operands as positions within the body, regions
/// included. The attributes of the ops `ignoreAttributes` selects are left
/// out: two bodies that differ only there get equal keys.
struct KernelBodyKey {
  SmallVector<const void *> items;

  explicit KernelBodyKey(
      func::FuncOp kernel,
      llvm::function_ref<bool(Operation *)> ignoreAttributes = nullptr) {
    llvm::DenseMap<Value, int64_t> numbers;
    for (BlockArgument arg : kernel.getArguments())
      numbers[arg] = numbers.size();
    items.push_back(kernel.getFunctionType().getAsOpaquePointer());
    kernel.getBody().walk([&](Operation *op) {
      items.push_back(op->getName().getAsOpaquePointer());
      // Inherent attributes (properties) and discardable ones together.
      items.push_back(ignoreAttributes && ignoreAttributes(op)
                          ? nullptr
                          : op->getAttrDictionary().getAsOpaquePointer());
      items.push_back(
          reinterpret_cast<const void *>(uintptr_t(op->getNumOperands())));
      for (Value operand : op->getOperands()) {
        auto it = numbers.find(operand);
        // Values from outside the walk so far (block arguments of nested
        // regions are numbered when their block is entered, below).
        items.push_back(reinterpret_cast<const void *>(
            it == numbers.end() ? uintptr_t(-1) : uintptr_t(it->second)));
      }
      for (Type type : op->getResultTypes())
        items.push_back(type.getAsOpaquePointer());
      for (Value result : op->getResults())
        numbers[result] = numbers.size();
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments()) {
            items.push_back(arg.getType().getAsOpaquePointer());
            numbers[arg] = numbers.size();
          }
    });
  }

  bool operator==(const KernelBodyKey &other) const {
    return items == other.items;
  }
  unsigned hash() const {
    return llvm::hash_combine_range(items.begin(), items.end());
  }
};

} // namespace graph
} // namespace mlir

#endif // LIB_CONVERSION_GRAPHTOLLVM_KERNELBODYKEY_H
