//===- SanitizeJIT.cpp - AddressSanitizer for JIT-compiled code -----------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The instrumentation runs after LLVM's optimizations, as clang places it.
// No module constructor is emitted: the runtime is the process's own, already
// initialized; globals are left unregistered (their accesses are checked
// against no redzone), heap and stack accesses are checked.
//
//===----------------------------------------------------------------------===//

#include "SanitizeJIT.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Instrumentation/AddressSanitizer.h"

using namespace mlir::graph::compiler;

#if defined(__SANITIZE_ADDRESS__)
#define GRAPH_RUN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GRAPH_RUN_ASAN 1
#endif
#endif

#ifdef GRAPH_RUN_ASAN
static void instrument(llvm::Module &module) {
  for (llvm::Function &function : module)
    if (!function.isDeclaration())
      function.addFnAttr(llvm::Attribute::SanitizeAddress);
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder;
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes;
  passes.addPass(llvm::AddressSanitizerPass(
      llvm::AddressSanitizerOptions(), /*UseGlobalGC=*/false,
      /*UseOdrIndicator=*/false, llvm::AsanDtorKind::None,
      llvm::AsanCtorKind::None));
  passes.run(module, mam);
}
#endif

std::function<llvm::Error(llvm::Module *)>
mlir::graph::compiler::withAddressSanitizer(
    std::function<llvm::Error(llvm::Module *)> transformer) {
#ifdef GRAPH_RUN_ASAN
  return [transformer](llvm::Module *module) -> llvm::Error {
    if (llvm::Error error = transformer(module))
      return error;
    instrument(*module);
    return llvm::Error::success();
  };
#else
  return transformer;
#endif
}
