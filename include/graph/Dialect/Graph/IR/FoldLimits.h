//===- FoldLimits.h - Bounds on compile-time evaluation ---------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A fold hook evaluates an op at compile time, so a hostile or merely huge
// model could make it allocate or compute without bound. Every hook asks
// `withinFoldLimits` before it evaluates anything, with the elements of each
// tensor it would materialize (a non-splat result, a splat operand it would
// expand) and the scalar operations it would perform, and declines to fold
// (the op stays and runs at run time) when they exceed the limits. The passes
// that fold set the limits from their options (`max-elements`, `max-work`)
// for the duration of their run; elsewhere the defaults below apply.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_DIALECT_GRAPH_IR_FOLDLIMITS_H
#define GRAPH_DIALECT_GRAPH_IR_FOLDLIMITS_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>

namespace mlir {
namespace graph {

struct FoldLimits {
  /// The most elements of one tensor that a fold may materialize.
  static constexpr int64_t kDefaultMaxElements = int64_t(1) << 24;
  /// The most scalar operations (a multiply-add, a comparison) that one fold
  /// may perform: about a second of the reference kernels.
  static constexpr int64_t kDefaultMaxWork = int64_t(1) << 30;

  int64_t maxElements = kDefaultMaxElements;
  int64_t maxWork = kDefaultMaxWork;
};

/// The limits in force on this thread.
const FoldLimits &getFoldLimits();

/// Puts `limits` in force on this thread for the lifetime of the object.
class ScopedFoldLimits {
public:
  explicit ScopedFoldLimits(FoldLimits limits);
  ~ScopedFoldLimits();
  ScopedFoldLimits(const ScopedFoldLimits &) = delete;
  ScopedFoldLimits &operator=(const ScopedFoldLimits &) = delete;

private:
  FoldLimits saved;
};

/// Whether a fold that materializes tensors of `elements` elements each and
/// performs `work` scalar operations stays within the limits. A nullopt entry
/// stands for a count that overflowed int64, which never does.
bool withinFoldLimits(llvm::ArrayRef<std::optional<int64_t>> elements,
                      std::optional<int64_t> work);

/// withinFoldLimits for a fold that writes each of the `numElements`
/// elements of a non-splat result once (a data movement, a broadcast).
inline bool withinFoldLimits(int64_t numElements) {
  return withinFoldLimits({numElements}, numElements);
}

/// The product of `factors`, or nullopt when it overflows int64 or a factor
/// is negative or nullopt.
std::optional<int64_t>
checkedProduct(llvm::ArrayRef<std::optional<int64_t>> factors);

/// The number of elements of `shape`, or nullopt when it overflows int64.
std::optional<int64_t> getCheckedNumElements(llvm::ArrayRef<int64_t> shape);

} // namespace graph
} // namespace mlir

#endif // GRAPH_DIALECT_GRAPH_IR_FOLDLIMITS_H
