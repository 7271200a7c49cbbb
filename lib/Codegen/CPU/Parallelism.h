//===- Parallelism.h - When kernels run on several cores --------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The lowering makes the outer loop of a kernel an scf.forall (later an
// OpenMP worksharing loop) when the kernel has enough work to pay for a
// parallel region, over independent output slices only: every output
// element is computed by one thread, in the same order as with one thread,
// so the results are the same bits at any thread count. The number of
// slices depends on the shapes only, never on the thread count, so one
// compiled kernel serves every --threads.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_GRAPHTOLLVM_PARALLELISM_H
#define LIB_CONVERSION_GRAPHTOLLVM_PARALLELISM_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <cstdint>

namespace mlir {
namespace graph {

/// The smallest kernel, in multiply-adds (or element operations), that runs
/// in parallel. libomp's fork and join of a parallel region with threads
/// already spinning costs a few microseconds; at the 20-60 GFLOP/s a core
/// reaches on our kernels that is ~100k multiply-adds, so below 4x that a
/// second core cannot win much.
constexpr int64_t kMinParallelWork = 1 << 19;

/// The number of slices a parallel loop aims for: whole multiples of 2 and
/// 4 threads, small enough that each slice keeps a useful register tile.
constexpr int64_t kParallelSlices = 8;

/// The work of a linalg op with static loop ranges: the product of its loop
/// ranges (multiply-adds of a contraction, elements of an elementwise op).
inline int64_t getStaticWork(linalg::LinalgOp op) {
  int64_t work = 1;
  for (int64_t range : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return 0;
    work = range > 0 && work > INT64_MAX / range ? INT64_MAX : work * range;
  }
  return work;
}

} // namespace graph
} // namespace mlir

#endif // LIB_CONVERSION_GRAPHTOLLVM_PARALLELISM_H
