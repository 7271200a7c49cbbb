//===- SourceNames.cpp - Name ops after their SSA values ------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Viz/SourceNames.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Bytecode/BytecodeReader.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::graph::viz;

OwningOpRef<ModuleOp>
mlir::graph::viz::parseSourceWithValueNames(llvm::SourceMgr &sourceMgr,
                                            MLIRContext *context) {
  ParserConfig config(context);
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  // Bytecode keeps no names: parse it as it is.
  if (isBytecode(*buffer))
    return parseSourceFile<ModuleOp>(sourceMgr, config);

  Block block;
  AsmParserState state;
  if (failed(parseAsmSourceFile(sourceMgr, &block, config, &state)))
    return nullptr;
  for (const AsmParserState::OperationDefinition &def : state.getOpDefs()) {
    if (def.resultGroups.empty() || isa<NameLoc>(def.op->getLoc()))
      continue;
    llvm::SMRange range = def.resultGroups.front().definition.loc;
    StringRef name(range.Start.getPointer(),
                   range.End.getPointer() - range.Start.getPointer());
    if (name.size() > 1 && name.starts_with("%") && !llvm::isDigit(name[1]))
      name = name.drop_front();
    def.op->setLoc(
        NameLoc::get(StringAttr::get(context, name), def.op->getLoc()));
  }
  Location fileLoc = FileLineColLoc::get(context, buffer->getBufferIdentifier(),
                                         /*line=*/0, /*column=*/0);
  return detail::constructContainerOpForParserIfNecessary<ModuleOp>(
      &block, context, fileLoc);
}
