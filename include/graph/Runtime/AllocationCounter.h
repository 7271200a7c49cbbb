//===- AllocationCounter.h - Count what compiled code allocates -*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The runtime measures the memory a compiled model uses by giving its JIT-ed
// code counting versions of the C allocation functions instead of the
// process's own. They forward to the real allocator and keep, per run, the
// bytes live and their peak. The caller's own allocations (the input and
// output buffers, the compiler's data) go straight to the process's allocator
// and are not counted.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_RUNTIME_ALLOCATIONCOUNTER_H
#define GRAPH_RUNTIME_ALLOCATIONCOUNTER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir {
namespace graph {
namespace runtime {

/// What the compiled code allocated since the last reset.
struct AllocationStats {
  /// Bytes allocated and not yet freed.
  uint64_t liveBytes = 0;
  /// Buffers allocated and not yet freed.
  uint64_t liveBuffers = 0;
  /// The highest `liveBytes` reached.
  uint64_t peakBytes = 0;
  /// Number of allocations.
  uint64_t allocations = 0;
};

/// Forgets every buffer still live and zeroes the counters.
void resetAllocationStats();

/// The counters since the last reset.
AllocationStats getAllocationStats();

/// The counting version of the C allocation function `name` (`malloc`,
/// `free`, ...), or null: for the allocation hooks of a shared library
/// (ModelABI.h).
void *getCountingAllocationFunction(llvm::StringRef name);

/// The C names of the counting allocation functions (`malloc`, `free`,
/// `aligned_alloc`, ..., and the `_mlir_memref_to_llvm_*` generic allocation
/// functions): the JIT defines them in its main dylib, where they take
/// precedence over the process's symbols.
llvm::ArrayRef<llvm::StringRef> getAllocationSymbolNames();

} // namespace runtime
} // namespace graph
} // namespace mlir

#endif // GRAPH_RUNTIME_ALLOCATIONCOUNTER_H
