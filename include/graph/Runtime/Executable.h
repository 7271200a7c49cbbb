//===- Executable.h - A compiled model ready to run -------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What a caller needs from a compiled model, whichever way it was made: its
// signature, output buffers of the right sizes, and one call that runs it on
// the caller's buffers. Two implementations: CompiledModel (compiled in this
// process by the LLVM JIT) and SharedLibraryModel (a shared library made by
// graph-compile, or an entry of the compile cache, loaded with dlopen).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_RUNTIME_EXECUTABLE_H
#define GRAPH_RUNTIME_EXECUTABLE_H

#include "graph/Runtime/Profiler.h"
#include "graph/Runtime/Tensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
namespace graph {
namespace runtime {

/// The entry function's tensors, read from the `func.func` before lowering.
struct ModelSignature {
  llvm::SmallVector<TensorSpec> inputs;
  llvm::SmallVector<TensorSpec> outputs;
};

/// Finds the tensor that NAME designates: a graph.name first, then
/// `<prefix>N` (`arg2`, `result0`), then a plain position N.
std::optional<size_t> findTensor(llvm::ArrayRef<TensorSpec> specs,
                                 llvm::StringRef name, llvm::StringRef prefix);

class Executable {
public:
  virtual ~Executable();

  const ModelSignature &getSignature() const { return signature; }

  /// The time it took to make this executable runnable, in milliseconds:
  /// the whole compilation for a fresh compile, the look-up and loading for
  /// a cache hit or a shared library.
  double getCompileMillis() const { return compileMillis; }
  void setCompileMillis(double millis) { compileMillis = millis; }

  /// The CPU the code was generated for, described (CPUTarget::describe).
  const std::string &getTargetDescription() const { return targetDescription; }

  /// The bytes of the arena that holds the model's buffers of static size,
  /// allocated once with the code rather than in each run (the buffers
  /// that a run allocates come on top).
  uint64_t getArenaBytes() const { return arenaBytes; }

  /// The kernel call sites that the code reports to a Profiler, by number;
  /// empty unless it was compiled with profiling.
  const std::vector<ProfiledKernel> &getProfiledKernels() const {
    return profiledKernels;
  }

  /// Buffers for the outputs, or an error naming the output that could not
  /// be allocated.
  llvm::Expected<std::vector<TensorBuffer>> allocateOutputs() const;

  /// Calls the model once. `inputs` and `outputs` match the signature in
  /// number, element type and size.
  void run(llvm::ArrayRef<const TensorBuffer *> inputs,
           llvm::ArrayRef<TensorBuffer *> outputs);

  /// Calls the model on bare data pointers, one per input and output in
  /// signature order: the ABI of graph_model_run (ModelMetadata.h). An
  /// output of run-time size is left in the C order of its true shape at
  /// the front of its buffer (getOutputSpecs gives the shape).
  void run(const void *const *inputs, void *const *outputs);

  /// The outputs as the last run on `outputs` left them: the signature's,
  /// with the true shape of each output of run-time size.
  std::vector<TensorSpec> getOutputSpecs(const void *const *outputs) const;
  std::vector<TensorSpec>
  getOutputSpecs(llvm::ArrayRef<TensorBuffer> outputs) const;

protected:
  /// graph_model_run itself: the outputs of run-time size in their bounds'
  /// layout.
  virtual void invoke(const void *const *inputs, void *const *outputs) = 0;

  ModelSignature signature;
  double compileMillis = 0;
  std::string targetDescription;
  uint64_t arenaBytes = 0;
  std::vector<ProfiledKernel> profiledKernels;
};

} // namespace runtime
} // namespace graph
} // namespace mlir

#endif // GRAPH_RUNTIME_EXECUTABLE_H
