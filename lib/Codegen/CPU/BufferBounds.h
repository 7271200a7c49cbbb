//===- BufferBounds.h - The largest size of a buffer ------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CODEGEN_CPU_BUFFERBOUNDS_H
#define LIB_CODEGEN_CPU_BUFFERBOUNDS_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <cstdint>
#include <optional>

namespace mlir {
namespace graph {

/// The bytes of the buffer `alloc` makes, when an arena can hold it: an
/// identity layout and a size that is static, or whose dynamic dimensions
/// have constant upper bounds (the tile at the edge of a loop).
std::optional<int64_t> getMaxBytes(memref::AllocOp alloc);

} // namespace graph
} // namespace mlir

#endif // LIB_CODEGEN_CPU_BUFFERBOUNDS_H
