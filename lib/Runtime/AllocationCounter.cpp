//===- AllocationCounter.cpp - Count what compiled code allocates ---------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A map from each live pointer to its size rather than a size header in front
// of the block: a pointer the counter did not hand out (one from a runtime
// library, say) is then simply passed on to the real `free`, never misread.
//
// Compiled code does not check what its allocations return: a buffer that
// cannot be allocated would be written through a null pointer. The hooks
// check instead, and end the process with exit code 1 and a message that
// names the size, before any output file is written.
//
//===----------------------------------------------------------------------===//

#include "graph/Runtime/AllocationCounter.h"

#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <malloc.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <unordered_map>

using namespace mlir::graph::runtime;

namespace {
struct Counter {
  std::mutex mutex;
  std::unordered_map<void *, size_t> sizes;
  AllocationStats stats;

  void allocated(void *ptr, size_t size) {
    if (!ptr)
      return;
    std::lock_guard<std::mutex> lock(mutex);
    sizes[ptr] = size;
    stats.liveBytes += size;
    stats.liveBuffers += 1;
    stats.allocations += 1;
    if (stats.liveBytes > stats.peakBytes)
      stats.peakBytes = stats.liveBytes;
  }

  void freed(void *ptr) {
    if (!ptr)
      return;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = sizes.find(ptr);
    if (it == sizes.end())
      return;
    stats.liveBytes -= it->second;
    stats.liveBuffers -= 1;
    sizes.erase(it);
  }

  std::optional<size_t> sizeOf(void *ptr) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = sizes.find(ptr);
    if (it == sizes.end())
      return std::nullopt;
    return it->second;
  }
};
} // namespace

static Counter &counter() {
  // Never destroyed: compiled code may still free while the process exits.
  static Counter *instance = new Counter();
  return *instance;
}

void mlir::graph::runtime::resetAllocationStats() {
  Counter &c = counter();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.sizes.clear();
  c.stats = AllocationStats();
}

AllocationStats mlir::graph::runtime::getAllocationStats() {
  Counter &c = counter();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.stats;
}

//===----------------------------------------------------------------------===//
// The hooks
//===----------------------------------------------------------------------===//

/// Ends the process: the compiled code asked for a buffer of `bytes` that the
/// system would not give. Nothing is unwound (the JIT-ed code is on the
/// stack); stdout is flushed so that what was printed before stays.
[[noreturn]] static void allocationFailed(uint64_t bytes,
                                          const char *what = "bytes") {
  llvm::outs().flush();
  llvm::WithColor::error(llvm::errs(), "graph-run")
      << "the compiled model cannot allocate a buffer of " << bytes << " "
      << what << ": out of memory\n";
  llvm::sys::Process::Exit(1, /*NoCleanup=*/true);
}

static void *countingMalloc(size_t size) {
  void *ptr = std::malloc(size);
  if (!ptr && size)
    allocationFailed(size);
  counter().allocated(ptr, size);
  return ptr;
}

static void *countingCalloc(size_t count, size_t size) {
  void *ptr = std::calloc(count, size);
  if (!ptr && count && size) {
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes))
      allocationFailed(count, "elements, whose size overflows");
    allocationFailed(bytes);
  }
  // calloc fails on overflow, so count * size fits when ptr is non-null.
  counter().allocated(ptr, count * size);
  return ptr;
}

static void countingFree(void *ptr) {
  counter().freed(ptr);
  std::free(ptr);
}

/// Moves a counted block to a new counted one (realloc's size bookkeeping
/// would otherwise need the old pointer after it is gone).
static void *countingRealloc(void *old, size_t size) {
  if (!old)
    return countingMalloc(size);
  std::optional<size_t> oldSize = counter().sizeOf(old);
  if (!oldSize) {
    // Not a block the counter handed out.
    void *ptr = std::realloc(old, size);
    if (!ptr && size)
      allocationFailed(size);
    return ptr;
  }
  if (size == 0) {
    countingFree(old);
    return nullptr;
  }
  void *ptr = countingMalloc(size);
  std::memcpy(ptr, old, std::min(*oldSize, size));
  countingFree(old);
  return ptr;
}

static void *countingAlignedAlloc(size_t alignment, size_t size) {
  void *ptr = std::aligned_alloc(alignment, size);
  if (!ptr && size)
    allocationFailed(size);
  counter().allocated(ptr, size);
  return ptr;
}

static int countingPosixMemalign(void **result, size_t alignment, size_t size) {
  int status = posix_memalign(result, alignment, size);
  if (status == ENOMEM)
    allocationFailed(size);
  if (status == 0)
    counter().allocated(*result, size);
  return status;
}

namespace {
struct Hook {
  llvm::StringRef name;
  void *address;
};
} // namespace

static llvm::ArrayRef<Hook> getHooks() {
  // The C allocation functions, and the generic ones that
  // finalize-memref-to-llvm calls with `use-generic-functions`.
  static const Hook hooks[] = {
      {"malloc", reinterpret_cast<void *>(&countingMalloc)},
      {"calloc", reinterpret_cast<void *>(&countingCalloc)},
      {"realloc", reinterpret_cast<void *>(&countingRealloc)},
      {"free", reinterpret_cast<void *>(&countingFree)},
      {"aligned_alloc", reinterpret_cast<void *>(&countingAlignedAlloc)},
      {"posix_memalign", reinterpret_cast<void *>(&countingPosixMemalign)},
      {"_mlir_memref_to_llvm_alloc", reinterpret_cast<void *>(&countingMalloc)},
      {"_mlir_memref_to_llvm_aligned_alloc",
       reinterpret_cast<void *>(&countingAlignedAlloc)},
      {"_mlir_memref_to_llvm_free", reinterpret_cast<void *>(&countingFree)},
  };
  return hooks;
}

void *
mlir::graph::runtime::getCountingAllocationFunction(llvm::StringRef name) {
  for (const Hook &hook : getHooks())
    if (hook.name == name)
      return hook.address;
  return nullptr;
}

llvm::ArrayRef<llvm::StringRef>
mlir::graph::runtime::getAllocationSymbolNames() {
  static const llvm::SmallVector<llvm::StringRef> names = [] {
    llvm::SmallVector<llvm::StringRef> result;
    for (const Hook &hook : getHooks())
      result.push_back(hook.name);
    return result;
  }();
  return names;
}

namespace {
/// Makes the process's allocator keep freed memory for reuse, as an inference
/// runtime's arena does, instead of returning large blocks to the kernel at
/// every free. Otherwise each run of a model with large intermediates pays
/// for fresh pages (page faults and zeroing): a cost of glibc's policy, not
/// of the compiled code, that would blur what the -O levels are compared on.
/// Blocks below 1 GiB then come from the heap, and the heap is not trimmed.
struct KeepFreedMemory {
  KeepFreedMemory() {
    constexpr int kOneGiB = 1 << 30;
    mallopt(M_MMAP_THRESHOLD, kOneGiB);
    mallopt(M_TRIM_THRESHOLD, kOneGiB);
  }
};
const KeepFreedMemory keepFreedMemory;
} // namespace
