//===- CompiledModel.h - Compile a model and call it in-process -*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One compiled model: the module parsed (or imported from ONNX),
// `graph-optimize` at the requested opt-level, `graph-lower-to-llvm` after it
// (the same at every level, so that timings measure the graph optimizations
// alone), and LLVM's O3 code generation for the target CPU, in parallel
// parts (Compile.h, emitObjects) that ORC's JIT links in this process.
//
// The compiled code is called through graph_model_run (ModelABI.h), as a
// shared library made by graph-compile is: the JIT and graph-compile compile
// the same module (Compile.h).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_COMPILER_COMPILEDMODEL_H
#define GRAPH_COMPILER_COMPILEDMODEL_H

#include "graph/Runtime/Errors.h"
#include "graph/Runtime/Executable.h"
#include "graph/Runtime/Tensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"
#include "mlir/Support/Timing.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
namespace orc {
class LLJIT;
} // namespace orc
} // namespace llvm

namespace mlir {
class DialectRegistry;

namespace graph {
namespace compiler {

using runtime::ElementType;
using runtime::Executable;
using runtime::ModelSignature;
using runtime::TensorSpec;

/// Reads the signature of `@entry`, or fails with an error naming the
/// function or the tensor.
llvm::Expected<ModelSignature> readSignature(ModuleOp module, StringRef entry);

/// The element type of an MLIR scalar type: f16/f32/f64, signless or
/// signed iN (N = 8, 16, 32, 64), unsigned uiN, i1 for bool.
std::optional<runtime::ElementType> fromMLIRType(Type type);

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
  /// The most threads a parallel loop with per-thread scratch (a fused
  /// group's tile loop) runs on; each gets a slot of the arena. 0 for the
  /// default (graph-plan-buffers' max-threads).
  int maxThreads = 0;
  /// Wrap each kernel call in calls to the profiler (Profiler.h). Such code
  /// runs in the JIT only: the hooks are this process's functions.
  bool profile = false;
  /// A debugging aid: write the object code the JIT made to this file.
  std::string objectDumpPath;
  /// For a library of several specializations (ModelABI.h): this one's
  /// number, how many there are, and the symbols of the inputs' dimensions.
  unsigned specialization = 0;
  unsigned numSpecializations = 1;
  std::vector<std::vector<std::string>> inputSymbols;
};

/// Registers what compiling a model needs in a context: the graph dialect,
/// the upstream dialects and extensions of the lowering, and the
/// translations to LLVM IR.
void registerCompilerDialects(DialectRegistry &registry);

/// Reads a model file, `.mlir` (text or bytecode) or `.onnx` (imported with
/// `inputShapes`, each `NAME=AxBxC`), into `sourceMgr` as MLIR for
/// `CompiledModel::compile`. Import errors are reported by the importer's
/// diagnostic handler, to `diagnostics` (a ReportedError); others name the
/// file.
/// `inputValues` (each `NAME=v0,v1,...`) give the values of inputs that
/// decide shapes; an import that needs others fails with InputValuesNeeded.
llvm::Error loadModelFile(llvm::StringRef path,
                          llvm::ArrayRef<std::string> inputShapes,
                          llvm::SourceMgr &sourceMgr,
                          llvm::raw_ostream &diagnostics = llvm::errs(),
                          llvm::ArrayRef<std::string> inputValues = {});

class CompiledModel : public Executable {
public:
  /// Parses the main file of `sourceMgr` and compiles it. Errors at an op or
  /// function go through the context's diagnostic handlers. `timing`, when
  /// given, gets a timer for each step of the compilation.
  static llvm::Expected<std::unique_ptr<CompiledModel>>
  compile(MLIRContext &context, llvm::SourceMgr &sourceMgr,
          const CompileOptions &options, TimingScope *timing = nullptr);

  /// Compiles and runs a tiny model once, untimed, so that the process's
  /// one-time costs (LLVM's lazy initialization, the first JIT session) are
  /// not charged to the first measured compilation. Failures are silent.
  static void warmUp(MLIRContext &context, const CompileOptions &options);

  ~CompiledModel() override;

protected:
  void invoke(const void *const *inputs, void *const *outputs) override;

private:
  CompiledModel() = default;

  std::unique_ptr<llvm::orc::LLJIT> jit;
  int (*runFn)(const void *const *, void *const *) = nullptr;
};

} // namespace compiler
} // namespace graph
} // namespace mlir

#endif // GRAPH_COMPILER_COMPILEDMODEL_H
