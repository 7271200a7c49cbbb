//===- PassTarget.h - The target a pass's options name ----------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_TARGET_CPU_PASSTARGET_H
#define GRAPH_TARGET_CPU_PASSTARGET_H

#include "graph/Target/CPU/CPUTarget.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
namespace graph {

/// The target that a pass's `target-cpu` and `target-features` options
/// name (empty: this machine), or an error naming the pass: what every
/// pass that chooses code for a target does in its initialize().
inline FailureOr<CPUTarget> getPassTarget(MLIRContext *context, StringRef pass,
                                          StringRef cpu, StringRef features) {
  llvm::Expected<CPUTarget> target = CPUTarget::get(cpu, features);
  if (!target)
    return emitError(UnknownLoc::get(context))
           << pass << ": " << llvm::toString(target.takeError());
  return std::move(*target);
}

} // namespace graph
} // namespace mlir

#endif // GRAPH_TARGET_CPU_PASSTARGET_H
