//===- SanitizeJIT.h - AddressSanitizer for JIT-compiled code ---*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// In a build of the runtime with AddressSanitizer (GRAPH_ENABLE_SANITIZERS),
// the code it JIT-compiles is instrumented too, so that an out-of-bounds
// access of a compiled kernel to a buffer (all of them come from the
// instrumented process's malloc) is reported like one in the runtime's own
// code. Elsewhere the transformer is returned unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_RUNTIME_SANITIZEJIT_H
#define LIB_RUNTIME_SANITIZEJIT_H

#include "llvm/Support/Error.h"

#include <functional>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir {
namespace graph {
namespace compiler {

/// `transformer` followed, when graph-run is built with AddressSanitizer, by
/// the AddressSanitizer instrumentation of every function defined in the
/// module.
std::function<llvm::Error(llvm::Module *)>
withAddressSanitizer(std::function<llvm::Error(llvm::Module *)> transformer);

} // namespace compiler
} // namespace graph
} // namespace mlir

#endif // LIB_RUNTIME_SANITIZEJIT_H
