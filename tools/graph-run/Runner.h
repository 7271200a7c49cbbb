//===- Runner.h - Compile a model and call it via the JIT -------*- C++ -*-===//
//
// One compiled model: the .mlir parsed, `graph-optimize` at the requested
// opt-level, `graph-lower-to-llvm` after it (the same at every level, so that
// timings measure the graph optimizations alone), and LLVM's O3 code
// generation for the host CPU through the MLIR ExecutionEngine.
//
// The calling convention after the lowering: the entry function takes the
// model's inputs, then its outputs, as identity-layout f32 memrefs that the
// caller allocates, and returns nothing.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_RUN_RUNNER_H
#define GRAPH_RUN_RUNNER_H

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>
#include <memory>
#include <string>

namespace graph_run {

/// An input or output of the entry function: a static-shaped f32 tensor.
struct TensorSpec {
  /// `graph.name` when the function gives one, else `argN` / `resultN`.
  std::string name;
  llvm::SmallVector<int64_t> shape;
  int64_t numElements = 1;
};

/// The entry function's tensors, read from the `func.func` before lowering.
struct ModelSignature {
  llvm::SmallVector<TensorSpec> inputs;
  llvm::SmallVector<TensorSpec> outputs;
};

/// A float buffer aligned to a cache line, which vector code may rely on.
class TensorBuffer {
public:
  TensorBuffer() = default;
  explicit TensorBuffer(int64_t numElements);
  float *data() { return storage.get(); }
  const float *data() const { return storage.get(); }
  int64_t size() const { return numElements; }
  llvm::ArrayRef<float> values() const { return {data(), size_t(size())}; }
  llvm::MutableArrayRef<float> values() { return {data(), size_t(size())}; }

private:
  struct Free {
    void operator()(float *ptr) const;
  };
  std::unique_ptr<float, Free> storage;
  int64_t numElements = 0;
};

/// How to compile: which function, which `graph-optimize` opt-level, and an
/// optional replacement for the lowering pipeline (a debugging aid).
struct CompileOptions {
  std::string entry = "main";
  int optLevel = 3;
  std::string loweringPipeline;
  /// Report nothing on failure (for the warm-up compilation).
  bool quiet = false;
};

class CompiledModel {
public:
  /// Parses the main file of `sourceMgr` and compiles it. On failure the
  /// error has been reported through the context's diagnostic handlers or to
  /// stderr, naming the op or function and the problem.
  static mlir::FailureOr<std::unique_ptr<CompiledModel>>
  compile(mlir::MLIRContext &context, llvm::SourceMgr &sourceMgr,
          const CompileOptions &options);

  /// Compiles and runs a tiny model once, untimed, so that the process's
  /// one-time costs (LLVM's lazy initialization, the first JIT session) are
  /// not charged to the first measured compilation. Failures are silent.
  static void warmUp(mlir::MLIRContext &context, const CompileOptions &options);

  ~CompiledModel();

  const ModelSignature &getSignature() const { return signature; }

  /// Parse, passes and JIT code generation, in milliseconds.
  double getCompileMillis() const { return compileMillis; }

  /// Calls the entry function once. `inputs` and `outputs` match the
  /// signature in number and size.
  void run(llvm::ArrayRef<const TensorBuffer *> inputs,
           llvm::ArrayRef<TensorBuffer *> outputs);

private:
  CompiledModel() = default;

  std::unique_ptr<mlir::ExecutionEngine> engine;
  void (*entryFn)(void **) = nullptr;
  ModelSignature signature;
  /// The lowering passed memrefs as bare pointers rather than descriptors.
  bool barePointers = false;
  double compileMillis = 0;
};

} // namespace graph_run

#endif // GRAPH_RUN_RUNNER_H
