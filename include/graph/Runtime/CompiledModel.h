//===- CompiledModel.h - Compile a model and call it in-process -*- C++ -*-===//
//
// One compiled model: the module parsed (or imported from ONNX),
// `graph-optimize` at the requested opt-level, `graph-lower-to-llvm` after it
// (the same at every level, so that timings measure the graph optimizations
// alone), and LLVM's O3 code generation for the target CPU through the MLIR
// ExecutionEngine.
//
// The calling convention after the lowering: the entry function takes the
// model's inputs, then its outputs, as identity-layout memrefs that the
// caller allocates, and returns nothing.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_RUNTIME_COMPILEDMODEL_H
#define GRAPH_RUNTIME_COMPILEDMODEL_H

#include "graph/Runtime/Errors.h"
#include "graph/Runtime/Tensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
class ExecutionEngine;

namespace graph {
namespace runtime {

/// The entry function's tensors, read from the `func.func` before lowering.
struct ModelSignature {
  llvm::SmallVector<TensorSpec> inputs;
  llvm::SmallVector<TensorSpec> outputs;
};

/// Reads the signature of `@entry`, or fails with an error naming the
/// function or the tensor.
llvm::Expected<ModelSignature> readSignature(ModuleOp module, StringRef entry);

/// Finds the tensor that NAME designates: a graph.name first, then
/// `<prefix>N` (`arg2`, `result0`), then a plain position N.
std::optional<size_t> findTensor(llvm::ArrayRef<TensorSpec> specs,
                                 llvm::StringRef name, llvm::StringRef prefix);

/// How to compile.
struct CompileOptions {
  /// The function to compile and call.
  std::string entry = "main";
  /// The `graph-optimize` opt-level, 0 to 3.
  int optLevel = 3;
  /// A textual pass pipeline replacing `graph-lower-to-llvm` (a debugging
  /// aid); empty for the standard lowering.
  std::string loweringPipeline;
  /// The CPU to generate code for (an LLVM CPU name) and features to add or
  /// remove (`+avx2,-avx512f`); empty for the host's.
  std::string targetCpu;
  std::string targetFeatures;
};

/// Registers what compiling a model needs in a context: the graph dialect,
/// the upstream dialects and extensions of the lowering, and the
/// translations to LLVM IR.
void registerCompilerDialects(DialectRegistry &registry);

/// Reads a model file, `.mlir` (text or bytecode) or `.onnx` (imported with
/// `inputShapes`, each `NAME=AxBxC`), into `sourceMgr` as MLIR for
/// `CompiledModel::compile`. Import errors are reported by the importer's
/// diagnostic handler (a ReportedError); others name the file.
llvm::Error loadModelFile(llvm::StringRef path,
                          llvm::ArrayRef<std::string> inputShapes,
                          llvm::SourceMgr &sourceMgr);

class CompiledModel {
public:
  /// Parses the main file of `sourceMgr` and compiles it. Errors at an op or
  /// function go through the context's diagnostic handlers.
  static llvm::Expected<std::unique_ptr<CompiledModel>>
  compile(MLIRContext &context, llvm::SourceMgr &sourceMgr,
          const CompileOptions &options);

  /// Compiles and runs a tiny model once, untimed, so that the process's
  /// one-time costs (LLVM's lazy initialization, the first JIT session) are
  /// not charged to the first measured compilation. Failures are silent.
  static void warmUp(MLIRContext &context, const CompileOptions &options);

  ~CompiledModel();

  const ModelSignature &getSignature() const { return signature; }

  /// Parse, passes and JIT code generation, in milliseconds.
  double getCompileMillis() const { return compileMillis; }

  /// Buffers for the outputs, or an error naming the output that could not
  /// be allocated.
  llvm::Expected<std::vector<TensorBuffer>> allocateOutputs() const;

  /// Calls the entry function once. `inputs` and `outputs` match the
  /// signature in number, element type and size.
  void run(llvm::ArrayRef<const TensorBuffer *> inputs,
           llvm::ArrayRef<TensorBuffer *> outputs);

private:
  CompiledModel() = default;

  std::unique_ptr<ExecutionEngine> engine;
  void (*entryFn)(void **) = nullptr;
  ModelSignature signature;
  /// The lowering passed memrefs as bare pointers rather than descriptors.
  bool barePointers = false;
  double compileMillis = 0;
};

} // namespace runtime
} // namespace graph
} // namespace mlir

#endif // GRAPH_RUNTIME_COMPILEDMODEL_H
