//===- Passes.h - Code generation for CPUs ----------------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The passes that make CPU code of linalg on tensors, and the
// graph-lower-to-llvm pipeline from graph ops to the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_CODEGEN_CPU_PASSES_H
#define GRAPH_CODEGEN_CPU_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class RewritePatternSet;
class TypeConverter;

namespace graph {

/// The most threads that a parallel loop whose iterations need scratch
/// buffers (a fused group's tile loop) runs on, unless told otherwise:
/// graph-plan-buffers gives each a slot of scratch and caps the loop's team
/// there. The other parallel loops have at most 8 slices anyway.
constexpr int64_t kDefaultMaxThreads = 8;

#define GEN_PASS_DECL
#include "graph/Codegen/CPU/Passes.h.inc"

/// The attribute of the kernel functions that graph-outline-kernels makes
/// (a string: what it computes, the fused group's kind or the op's
/// mnemonic, for the profiler and for people reading the IR); the later
/// passes find kernels by it.
constexpr llvm::StringLiteral kKernelAttr = "graph.kernel";

/// The module attribute where graph-plan-buffers records the bytes of the
/// arenas it made (an i64), for the runtime to report.
constexpr llvm::StringLiteral kArenaBytesAttr = "graph.arena_bytes";

/// Options of `graph-lower-to-llvm`.
struct GraphLowerToLLVMOptions
    : public PassPipelineOptions<GraphLowerToLLVMOptions> {
  PassOptions::Option<std::string> targetCpu{
      *this, "target-cpu",
      llvm::cl::desc("The LLVM CPU to generate code for (default: this "
                     "machine's)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> targetFeatures{
      *this, "target-features",
      llvm::cl::desc("Target features to add or remove, e.g. "
                     "+avx2,-avx512f"),
      llvm::cl::init("")};
  PassOptions::Option<bool> profile{
      *this, "profile",
      llvm::cl::desc("Wrap each kernel call in calls to the runtime's "
                     "profiler (graph-instrument-kernels)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> planBuffers{
      *this, "plan-buffers",
      llvm::cl::desc("Place the buffers of static size in one arena "
                     "allocated once per model, those of parallel loops in "
                     "per-thread slots (graph-plan-buffers)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> padInProducer{
      *this, "pad-in-producer",
      llvm::cl::desc("Let the kernel producing a convolution's input write "
                     "it padded (graph-pad-in-producer)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fuseEpilogues{
      *this, "fuse-epilogues",
      llvm::cl::desc("Compute each contraction's bias and epilogue in its "
                     "register tiles (graph-vectorize)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> maxThreads{
      *this, "max-threads",
      llvm::cl::desc("The most threads a parallel loop with per-thread "
                     "scratch runs on (graph-plan-buffers)"),
      llvm::cl::init(kDefaultMaxThreads)};
};

/// Adds graph-optimize's lowering after it: graph ops on tensors in, the LLVM
/// dialect out, runnable by mlir-runner and graph-run.
void buildGraphLowerToLLVMPipeline(
    OpPassManager &pm,
    const GraphLowerToLLVMOptions &options = GraphLowerToLLVMOptions());

/// Registers `graph-lower-to-llvm`.
void registerGraphLowerToLLVMPipeline();

#define GEN_PASS_REGISTRATION
#include "graph/Codegen/CPU/Passes.h.inc"

/// Registers every code generation pass and graph-lower-to-llvm.
inline void registerAllGraphCPUCodegenPasses() {
  registerGraphCPUCodegenPasses();
  registerGraphLowerToLLVMPipeline();
}

} // namespace graph
} // namespace mlir

#endif // GRAPH_CODEGEN_CPU_PASSES_H
