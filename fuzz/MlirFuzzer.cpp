//===- MlirFuzzer.cpp - Fuzz parsing, verifying and graph-optimize --------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each input is MLIR text (or bytecode). It is refused like graph-opt refuses
// it (nesting too deep), parsed with the dialects a model uses, verified, and
// when valid run through graph-optimize at every opt-level, each result
// verified again: every pass must leave valid IR. A crash, a sanitizer
// report, a failing pass or invalid IR after one is a bug. The fold limits are
// lowered so that each input stays fast; they are what make it bounded.
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/GraphDialect.h"
#include "graph/Support/NestingDepth.h"
#include "graph/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

/// Reports a bug the fuzzer found and stops, so that libFuzzer saves the
/// input.
[[noreturn]] static void bug(const char *what, Operation *op) {
  llvm::errs() << "graph-fuzz-mlir: " << what << "\n";
  if (op)
    op->print(llvm::errs(), OpPrintingFlags().printGenericOpForm());
  llvm::errs() << "\n";
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    r->insert<graph::GraphDialect, func::FuncDialect, arith::ArithDialect>();
    return r;
  }();

  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "input"), llvm::SMLoc());
  sourceMgr.setDiagHandler([](const llvm::SMDiagnostic &, void *) {});
  if (failed(
          graph::checkNestingDepth(sourceMgr, *sourceMgr.getMemoryBuffer(1))))
    return 0;

  MLIRContext context(*registry, MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(false);
  ScopedDiagnosticHandler silence(&context,
                                  [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module || failed(verify(*module)))
    return 0;

  for (int level = 0; level <= 3; ++level) {
    OwningOpRef<ModuleOp> copy = module->clone();
    PassManager pm(&context, ModuleOp::getOperationName());
    graph::GraphOptimizeOptions options;
    options.optLevel = level;
    options.maxElements = 1 << 16;
    options.maxWork = 1 << 20;
    if (failed(graph::buildGraphOptimizePipeline(pm, options)))
      bug("cannot build graph-optimize", nullptr);
    // The pass manager verifies after each pass: a failure here is a pass
    // that failed on valid IR or left invalid IR.
    if (failed(pm.run(*copy)))
      bug("graph-optimize failed on valid IR", *module);
  }
  return 0;
}
