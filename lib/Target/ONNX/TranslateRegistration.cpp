//===- TranslateRegistration.cpp - The import-onnx translation ------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Registers `--import-onnx` for mlir-translate-style drivers, with its
// `--input-shape` option.
//
//===----------------------------------------------------------------------===//

#include "graph/Target/ONNX/ImportONNX.h"

#include "graph/Dialect/Graph/IR/GraphDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

void mlir::graph::registerImportONNXTranslation() {
  static llvm::cl::list<std::string> inputShapes(
      "input-shape",
      llvm::cl::desc("With --import-onnx: the shape of a model input, "
                     "NAME=AxBxC (repeatable, or comma-separated), replacing "
                     "symbolic or static dimensions"),
      llvm::cl::value_desc("NAME=AxBxC"));

  TranslateToMLIRRegistration registration(
      "import-onnx", "import an ONNX model into the graph dialect",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr->getMemoryBuffer(sourceMgr->getMainFileID());
        // Errors about the binary file print as `FILE: error: ...`, not with
        // the line and column of a text.
        ONNXDiagnosticHandler handler(context);
        ONNXImportOptions options;
        for (const std::string &spec : inputShapes) {
          std::string error;
          if (failed(parseONNXInputShapes(spec, options, error))) {
            emitError(UnknownLoc::get(context)) << error;
            return nullptr;
          }
        }
        return importONNX(buffer->getMemBufferRef(), context, options);
      },
      [](DialectRegistry &registry) {
        registry.insert<GraphDialect, func::FuncDialect>();
      });
}
