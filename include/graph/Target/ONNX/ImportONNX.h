//===- ImportONNX.h - ONNX model to graph dialect import --------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
#include "llvm/ADT/StringSet.h"
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
  /// The values of model inputs that decide shapes (a Reshape's `shape`,
  /// Slice's `starts` given as inputs): input name -> its elements in C
  /// order, as numbers joined by commas (bools as 0 and 1). The input stays
  /// an argument; the ops that need its value at compile time see these.
  llvm::StringMap<std::string> inputValues;
  /// When set, the import adds to it the model inputs whose values an op
  /// needed at compile time and did not have: what a caller must give in
  /// `inputValues` (with the data it will run on) for the import to go on.
  llvm::StringSet<> *neededInputValues = nullptr;
};

/// Adds the values of `spec`, `NAME=v0,v1,...` (one input), to `options`.
/// On a malformed spec, returns failure and sets `error`.
LogicalResult parseONNXInputValues(StringRef spec, ONNXImportOptions &options,
                                   std::string &error);

/// Adds the shapes of `spec`, `NAME=AxBxC` or several such joined by commas,
/// to `options`. On a malformed spec, returns failure and sets `error`.
LogicalResult parseONNXInputShapes(StringRef spec, ONNXImportOptions &options,
                                   std::string &error);

/// An input or output as the model file declares it.
struct ONNXDeclaredValue {
  std::string name;
  /// Null when the model leaves it undeclared (an output whose type is
  /// inferred) or declares a type the importer does not take.
  Type elementType;
  /// Whether the model declares a shape; without one the rank is unknown.
  bool hasShape = false;
  /// The dimensions; ShapedType::kDynamic where the model gives no value.
  SmallVector<int64_t> shape;
  /// For each dimension without a value, its symbol: the model's name for
  /// it (`dim_param`, such as "N"), else `<value name>_dim<index>`, a symbol
  /// of its own; "" for the others.
  SmallVector<std::string> symbols;
};

/// The tensors that a model takes (its inputs that are not initializers, in
/// order: the arguments of the imported function) and returns.
struct ONNXSignature {
  SmallVector<ONNXDeclaredValue> inputs;
  SmallVector<ONNXDeclaredValue> outputs;
};

/// Reads the signature of the serialized ONNX model in `buffer` without
/// importing it, with the shapes of `options.inputShapes` in place of the
/// declared ones. Errors (not a model, a shape of the wrong rank, an unknown
/// input name) go through the context's diagnostic handlers.
FailureOr<ONNXSignature>
readONNXSignature(llvm::MemoryBufferRef buffer, MLIRContext *context,
                  const ONNXImportOptions &options = {});

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
