//===- Diagnostics.cpp - Diagnostics located in an ONNX model -------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Prints the diagnostics whose location is a model file (line 0: a binary
// file has no lines) as `FILE: error: [node 'NAME': ]MESSAGE`.
//
//===----------------------------------------------------------------------===//

#include "graph/Target/ONNX/ImportONNX.h"

#include "mlir/IR/Location.h"

#include "llvm/Support/SourceMgr.h"

#include <optional>
#include <utility>

using namespace mlir;
using namespace mlir::graph;

static llvm::SourceMgr::DiagKind getDiagKind(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Note:
    return llvm::SourceMgr::DK_Note;
  case DiagnosticSeverity::Warning:
    return llvm::SourceMgr::DK_Warning;
  case DiagnosticSeverity::Error:
    return llvm::SourceMgr::DK_Error;
  case DiagnosticSeverity::Remark:
    return llvm::SourceMgr::DK_Remark;
  }
  llvm_unreachable("unknown diagnostic severity");
}

/// The file of a location inside a model (line 0: a binary file has no
/// lines), and the node name that a NameLoc around it gives.
static std::optional<std::pair<StringRef, StringRef>>
getModelLocation(Location loc) {
  StringRef name;
  if (auto nameLoc = dyn_cast<NameLoc>(loc)) {
    name = nameLoc.getName().getValue();
    loc = nameLoc.getChildLoc();
  }
  auto fileLoc = dyn_cast<FileLineColLoc>(loc);
  if (!fileLoc || fileLoc.getLine() != 0)
    return std::nullopt;
  return std::make_pair(fileLoc.getFilename().getValue(), name);
}

ONNXDiagnosticHandler::ONNXDiagnosticHandler(MLIRContext *context,
                                             raw_ostream &os)
    : ScopedDiagnosticHandler(context), os(os) {
  setHandler([this](Diagnostic &diag) -> LogicalResult {
    auto location = getModelLocation(diag.getLocation());
    if (!location)
      return failure();
    auto print = [&](StringRef file, StringRef node, DiagnosticSeverity kind,
                     const std::string &message) {
      std::string text =
          node.empty() ? message : "node '" + node.str() + "': " + message;
      llvm::SMDiagnostic(file, getDiagKind(kind), text)
          .print(/*ProgName=*/nullptr, this->os);
    };
    print(location->first, location->second, diag.getSeverity(), diag.str());
    for (Diagnostic &note : diag.getNotes()) {
      auto noteLocation = getModelLocation(note.getLocation());
      print(noteLocation ? noteLocation->first : location->first,
            noteLocation ? noteLocation->second : StringRef(),
            note.getSeverity(), note.str());
    }
    return success();
  });
}
