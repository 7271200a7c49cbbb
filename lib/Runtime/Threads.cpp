//===- Threads.cpp - How many cores compiled kernels use ------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Runtime/Threads.h"

#include <sched.h>

// libomp's API (omp.h is clang's header; the two functions are all we need).
extern "C" {
void omp_set_num_threads(int threads);
int omp_get_max_threads(void);
}

int mlir::graph::runtime::getAvailableCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0)
    return 1;
  int count = CPU_COUNT(&set);
  return count > 0 ? count : 1;
}

void mlir::graph::runtime::setNumThreads(int threads) {
  omp_set_num_threads(threads > 0 ? threads : 1);
}

int mlir::graph::runtime::getNumThreads() { return omp_get_max_threads(); }
