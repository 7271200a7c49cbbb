//===- NestingDepth.h - Refuse input nested too deeply to parse -*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// MLIR's text parser is recursive descent: every nested region, attribute,
// type or parenthesis costs stack frames, so that a few thousand nested
// `graph.fused` ops overflow the stack and crash the tool. The tools that
// parse MLIR text scan it first, without recursion, and refuse input nested
// deeper than a bound that no real model comes near. MLIR bytecode is read
// without recursion and is not scanned.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_SUPPORT_NESTINGDEPTH_H
#define GRAPH_SUPPORT_NESTINGDEPTH_H

#include "mlir/Support/LLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>

namespace mlir {
namespace graph {

/// The deepest nesting of brackets ((), [], {}, <>) that the tools accept in
/// MLIR text. Real models nest a few tens deep; the parser's stack, with
/// sanitizers and on an 8 MiB thread stack, holds well over this.
constexpr int64_t kMaxNestingDepth = 256;

/// The offset of the first bracket of `text` that opens a level deeper than
/// `maxDepth`, counting (), [], {} and <> outside string literals and `//`
/// comments (`->` is an arrow, not a bracket), or npos when there is none.
size_t findExcessiveNesting(StringRef text,
                            int64_t maxDepth = kMaxNestingDepth);

/// Fails with an error at the offending bracket, printed through `sourceMgr`
/// (which must hold `buffer`), when the MLIR text in `buffer` nests deeper
/// than `maxDepth`. Bytecode always passes.
LogicalResult checkNestingDepth(llvm::SourceMgr &sourceMgr,
                                const llvm::MemoryBuffer &buffer,
                                int64_t maxDepth = kMaxNestingDepth);

} // namespace graph
} // namespace mlir

#endif // GRAPH_SUPPORT_NESTINGDEPTH_H
