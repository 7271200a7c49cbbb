//===- Threads.cpp - How many cores compiled kernels use ------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Runtime/Threads.h"

#include "graph/Runtime/Errors.h"

#include "llvm/ADT/StringRef.h"

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

llvm::Expected<int> mlir::graph::runtime::takeThreadsArgument(int &argc,
                                                              char **argv) {
  int count = 0;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    llvm::StringRef name = arg;
    if (!name.consume_front("--") && !name.consume_front("-")) {
      argv[out++] = argv[i];
      continue;
    }
    auto [key, value] = name.split('=');
    if (key != "threads") {
      argv[out++] = argv[i];
      continue;
    }
    if (!name.contains('=')) {
      if (i + 1 == argc)
        return makeError("--threads needs a count");
      value = argv[++i];
    }
    if (value.getAsInteger(10, count) || count < 1)
      return makeError("--threads must be a count of at least 1, got '" +
                       value + "'");
  }
  argc = out;
  return count;
}
