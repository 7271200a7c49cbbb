//===- Compile.h - From a model to machine code -----------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The steps every compilation takes, the JIT's (CompiledModel), the compile
// cache's and graph-compile's alike, so that they produce the same code:
//
//   createTargetMachine  the target CPU and features, PIC, LLVM's O3
//                        (TargetMachine.cpp, with the compiler's version)
//   lowerToLLVMDialect   parse, graph-optimize, graph-lower-to-llvm, the ABI
//                        of ModelABI.h (Pipeline.cpp, with compileToObject)
//   translateToLLVMIR    the LLVM dialect to an llvm::Module for that target
//   optimizeLLVMIR       LLVM's O3 pipeline
//   emitObject           machine code as an ELF object
//   emitObjects          the module split into one part per core, each
//                        optimized and generated on a thread of its own
//                        (these four: CodeGen.cpp)
//   linkSharedLibrary    the object into a shared library (Debian's lld;
//                        Link.cpp)
//
// Each step takes a TimingScope: `--timing` nests one timer per step (and
// MLIR's pass timing under the lowering) in it.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_COMPILER_COMPILE_H
#define GRAPH_COMPILER_COMPILE_H

#include "graph/Compiler/CompiledModel.h"
#include "graph/Compiler/ModelABI.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/Timing.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
} // namespace llvm

namespace mlir {
namespace graph {
namespace compiler {

using runtime::ModelMetadata;
using runtime::ModelSignature;
using runtime::ProfiledKernel;

/// Identifies the compiler that made some code: this build of the graph
/// compiler (a hash of the binary or library that holds it) and the LLVM
/// version. Part of every cache key and of the model's metadata.
llvm::StringRef getCompilerVersion();

/// Where the code will run: in this process, loaded by the JIT (LLVM's JIT
/// code model), or from an object file or shared library (PIC).
enum class CodeTarget { JIT, Object };

/// The target machine for `options` (the host's CPU and features unless
/// given) at LLVM's O3. Errors name an unknown CPU or feature.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const CompileOptions &options, CodeTarget codeTarget);

/// The CPU features that code for `tm` may use and that a host must have,
/// LLVM's names, sorted: its enabled features that the host detection knows
/// (tuning flags are not requirements, nor the system instruction sets only
/// intrinsics emit: CPUTarget::isSystemFeature).
std::vector<std::string> getRequiredFeatures(const llvm::TargetMachine &tm);

/// Parses the main file of `sourceMgr`, reads the signature of the entry,
/// runs graph-optimize and the lowering (or `options.loweringPipeline`) and
/// adds the model ABI. Errors at an op or function go through the context's
/// diagnostic handlers.
struct LoweredModel {
  OwningOpRef<ModuleOp> module;
  ModelMetadata metadata;
  /// With `options.profile`: the kernel call sites, by number.
  std::vector<ProfiledKernel> profiledKernels;
};
llvm::Expected<LoweredModel> lowerToLLVMDialect(MLIRContext &context,
                                                llvm::SourceMgr &sourceMgr,
                                                const CompileOptions &options,
                                                llvm::TargetMachine &tm,
                                                TimingScope &timing);

/// Translates the lowered module to LLVM IR for `tm`.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateToLLVMIR(ModuleOp module, llvm::LLVMContext &llvmContext,
                  llvm::TargetMachine &tm);

/// LLVM's O3 optimization pipeline for `tm`.
llvm::Error optimizeLLVMIR(llvm::Module &module, llvm::TargetMachine &tm);

/// Machine code for `module` as a relocatable object file.
llvm::Expected<llvm::SmallVector<char, 0>> emitObject(llvm::Module &module,
                                                      llvm::TargetMachine &tm);

/// What is done to each part of a module before its code is generated
/// (LLVM's optimization), with the part's own target machine and its
/// number; called on several threads at once, one part each.
using PartTransform = std::function<llvm::Error(
    llvm::Module &part, llvm::TargetMachine &tm, unsigned index)>;

/// Machine code for `module` as relocatable objects: the module split into
/// `parts` (0: one per core this process may use) that are optimized by
/// `optimize` and generated in parallel, as LLVM's LTO does, each with a
/// target machine of its own. Fewer parts when the module has fewer
/// functions. Nests "LLVM optimization" and "code generation" in `timing`.
/// Consumes `module`.
llvm::Expected<llvm::SmallVector<llvm::SmallVector<char, 0>, 1>>
emitObjects(llvm::Module &module, const CompileOptions &options,
            CodeTarget codeTarget, const PartTransform &optimize,
            TimingScope &timing, unsigned parts = 0);

/// Links objects into one relocatable object with lld (`ld.lld -r`).
llvm::Expected<llvm::SmallVector<char, 0>>
linkRelocatable(llvm::ArrayRef<llvm::SmallVector<char, 0>> objects);

/// Everything above: the model in `sourceMgr` to an object file's bytes.
llvm::Expected<llvm::SmallVector<char, 0>>
compileToObject(MLIRContext &context, llvm::SourceMgr &sourceMgr,
                const CompileOptions &options, TimingScope &timing,
                ModelMetadata *metadata = nullptr);

/// Links the object file at `objectPath` into the shared library
/// `outputPath` with lld, against the C library and libm (and the OpenMP
/// runtime when the object calls it), with no other dependency: a symbol
/// these do not define is an error.
/// `soname` is the library's name for the dynamic loader.
llvm::Error linkSharedLibrary(llvm::StringRef objectPath,
                              llvm::StringRef outputPath,
                              llvm::StringRef soname);

/// Writes `object` to a temporary file next to `outputPath` and links it
/// into the shared library `outputPath`, named `soname`. `outputPath` is
/// written in place: callers rename it into its final place.
llvm::Error linkObjectIntoSharedLibrary(llvm::ArrayRef<char> object,
                                        llvm::StringRef outputPath,
                                        llvm::StringRef soname);

} // namespace compiler
} // namespace graph
} // namespace mlir

#endif // GRAPH_COMPILER_COMPILE_H
