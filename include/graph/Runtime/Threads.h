//===- Threads.h - How many cores compiled kernels use ----------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Compiled kernels run their parallel loops on the OpenMP runtime (LLVM's
// libomp), which this library links. The thread count is a property of the
// process, not of the compiled code: the same code runs at any count and
// gives the same bits.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_RUNTIME_THREADS_H
#define GRAPH_RUNTIME_THREADS_H

#include "llvm/Support/Error.h"

namespace mlir {
namespace graph {
namespace runtime {

/// The cores this process may run on (its CPU affinity mask), at least 1:
/// the default thread count, as ONNX Runtime's.
int getAvailableCores();

/// Makes parallel loops run on `threads` threads (1: serially).
void setNumThreads(int threads);

/// The thread count parallel loops run on.
int getNumThreads();

/// A tool's `--threads N` (or `--threads=N`, one dash or two), taken out of
/// argv before LLVM's command line parses it: libLLVM registers an option
/// named `threads` of its own, which a second one would clash with. The
/// count, 0 when not given; an error for a missing or bad count.
llvm::Expected<int> takeThreadsArgument(int &argc, char **argv);

} // namespace runtime
} // namespace graph
} // namespace mlir

#endif // GRAPH_RUNTIME_THREADS_H
