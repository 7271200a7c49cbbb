//===- NestingDepth.cpp - Refuse input nested too deeply to parse ---------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A linear scan with a counter, no stack: the scan itself must not be what
// overflows. Unbalanced closing brackets never drive the depth below zero,
// so malformed text cannot hide a deep nest; the parser reports it later.
//
//===----------------------------------------------------------------------===//

#include "graph/Support/NestingDepth.h"

#include "mlir/Bytecode/BytecodeReader.h"

using namespace mlir;

size_t mlir::graph::findExcessiveNesting(StringRef text, int64_t maxDepth) {
  int64_t depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    switch (c) {
    case '"':
      // A string literal, with backslash escapes, up to its closing quote
      // (or the end of its line, where the lexer stops too).
      for (++i; i < e && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      break;
    case '/':
      if (i + 1 < e && text[i + 1] == '/')
        while (i < e && text[i] != '\n')
          ++i;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth > maxDepth)
        return i;
      break;
    case '>':
      // `->` is the arrow of function types.
      if (i > 0 && text[i - 1] == '-')
        break;
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      depth = std::max<int64_t>(depth - 1, 0);
      break;
    default:
      break;
    }
  }
  return StringRef::npos;
}

LogicalResult mlir::graph::checkNestingDepth(llvm::SourceMgr &sourceMgr,
                                             const llvm::MemoryBuffer &buffer,
                                             int64_t maxDepth) {
  if (isBytecode(buffer.getMemBufferRef()))
    return success();
  StringRef text = buffer.getBuffer();
  size_t offset = findExcessiveNesting(text, maxDepth);
  if (offset == StringRef::npos)
    return success();
  sourceMgr.PrintMessage(
      llvm::SMLoc::getFromPointer(text.data() + offset),
      llvm::SourceMgr::DK_Error,
      "input nested more than " + Twine(maxDepth) +
          " levels deep (regions, attributes, types or parentheses): refused "
          "before parsing, whose recursion could overflow the stack");
  return failure();
}
