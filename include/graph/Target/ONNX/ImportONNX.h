//===- ImportONNX.h - ONNX model to graph dialect import --------*- C++ -*-===//
//
// Reads an ONNX model (the ONNX library's protobuf classes) and builds a
// module holding `func.func @main` of `graph` ops, as ../shared/SPEC.md
// describes: the model's inputs are the arguments and its outputs the
// results, each with `graph.name`; initializers become `graph.constant`s.
//
// Errors are reported through the context's diagnostic handlers at a
// location naming the model file (and the node, for ops), and the import
// returns null; nothing is ever partially returned.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_TARGET_ONNX_IMPORTONNX_H
#define GRAPH_TARGET_ONNX_IMPORTONNX_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <string>

namespace mlir {
class MLIRContext;

namespace graph {

/// How to import a model.
struct ONNXImportOptions {
  /// Shapes that replace those of the named model inputs, e.g. to fix a
  /// symbolic batch dimension: input name -> dimensions.
  llvm::StringMap<SmallVector<int64_t>> inputShapes;
};

/// Adds the shapes of `spec`, `NAME=AxBxC` or several such joined by commas,
/// to `options`. On a malformed spec, returns failure and sets `error`.
LogicalResult parseONNXInputShapes(StringRef spec, ONNXImportOptions &options,
                                   std::string &error);

/// Imports the serialized ONNX model in `buffer`. Its identifier is the
/// model's path: it names the model in diagnostics, and external tensor data
/// is looked up relative to its directory. The returned module is verified.
OwningOpRef<ModuleOp> importONNX(llvm::MemoryBufferRef buffer,
                                 MLIRContext *context,
                                 const ONNXImportOptions &options = {});

/// Reads the model at `path` (`-` for stdin) and imports it.
OwningOpRef<ModuleOp> importONNXFile(StringRef path, MLIRContext *context,
                                     const ONNXImportOptions &options = {});

/// Prints the diagnostics located in a model file as `FILE: error: MESSAGE`
/// (with `node 'NAME': ` before messages located at a node), rather than with
/// the line and column of a text file, which a binary model does not have.
/// Other diagnostics are left to the handlers registered before it.
class ONNXDiagnosticHandler : public ScopedDiagnosticHandler {
public:
  explicit ONNXDiagnosticHandler(MLIRContext *context,
                                 raw_ostream &os = llvm::errs());

private:
  raw_ostream &os;
};

/// Registers the `import-onnx` translation (and its `--input-shape` option)
/// for mlir-translate-style drivers.
void registerImportONNXTranslation();

} // namespace graph
} // namespace mlir

#endif // GRAPH_TARGET_ONNX_IMPORTONNX_H
