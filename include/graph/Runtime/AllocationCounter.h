//===- AllocationCounter.h - Count what compiled code allocates -*- C++ -*-===//
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

#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"

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

/// The counting allocation functions under their C names (`malloc`, `free`,
/// `aligned_alloc`, ..., and the `_mlir_memref_to_llvm_*` generic allocation
/// functions), for `ExecutionEngine::registerSymbols`: defined in the JIT's
/// main dylib, they take precedence over the process's symbols.
llvm::orc::SymbolMap
getAllocationSymbolMap(llvm::orc::MangleAndInterner interner);

/// The names that `getAllocationSymbolMap` defines.
llvm::ArrayRef<llvm::StringRef> getAllocationSymbolNames();

} // namespace runtime
} // namespace graph
} // namespace mlir

#endif // GRAPH_RUNTIME_ALLOCATIONCOUNTER_H
