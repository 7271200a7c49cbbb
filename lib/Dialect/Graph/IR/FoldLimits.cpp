//===- FoldLimits.cpp - Bounds on compile-time evaluation -------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The limits are per thread: the pass manager may fold several functions at
// once, each pass instance with its own options.
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/FoldLimits.h"

#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::graph;

static thread_local FoldLimits currentLimits;

const FoldLimits &mlir::graph::getFoldLimits() { return currentLimits; }

ScopedFoldLimits::ScopedFoldLimits(FoldLimits limits) : saved(currentLimits) {
  currentLimits = limits;
}

ScopedFoldLimits::~ScopedFoldLimits() { currentLimits = saved; }

std::optional<int64_t>
mlir::graph::checkedProduct(llvm::ArrayRef<std::optional<int64_t>> factors) {
  std::optional<int64_t> result = 1;
  for (std::optional<int64_t> factor : factors) {
    if (!factor || *factor < 0)
      return std::nullopt;
    result = llvm::checkedMul(*result, *factor);
    if (!result)
      return std::nullopt;
  }
  return result;
}

std::optional<int64_t>
mlir::graph::getCheckedNumElements(llvm::ArrayRef<int64_t> shape) {
  std::optional<int64_t> result = 1;
  for (int64_t dim : shape) {
    if (dim < 0)
      return std::nullopt;
    result = llvm::checkedMul(*result, dim);
    if (!result)
      return std::nullopt;
  }
  return result;
}

bool mlir::graph::withinFoldLimits(
    llvm::ArrayRef<std::optional<int64_t>> elements,
    std::optional<int64_t> work) {
  const FoldLimits &limits = getFoldLimits();
  for (std::optional<int64_t> count : elements)
    if (!count || *count > limits.maxElements)
      return false;
  return work && *work <= limits.maxWork;
}
