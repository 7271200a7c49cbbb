//===- Pipeline.cpp - The MLIR side of a compilation ----------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A model parsed, graph-optimize and the lowering to the LLVM dialect run,
// the model ABI added; and the whole compilation of Compile.h, from the
// model to an object file's bytes.
//
//===----------------------------------------------------------------------===//

#include "graph/Compiler/Compile.h"

#include "graph/Codegen/CPU/Passes.h"
#include "graph/Conversion/Passes.h"
#include "graph/Dialect/Graph/IR/GraphDialect.h"
#include "graph/Runtime/Errors.h"
#include "graph/Target/CPU/CPUTarget.h"
#include "graph/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::runtime;
using namespace mlir::graph::compiler;

static constexpr llvm::StringLiteral kNameAttr = "graph.name";
static constexpr llvm::StringLiteral kProfileAttr = "graph.profile";

/// The target as CPUTarget describes it, from what the metadata records
/// (loaders print it without the target description).
static std::string describeTarget(llvm::StringRef cpu,
                                  llvm::ArrayRef<std::string> features) {
  std::string list;
  for (const std::string &feature : features)
    list += (list.empty() ? "+" : ",+") + feature;
  llvm::Expected<CPUTarget> target = CPUTarget::get(cpu, list);
  if (!target) {
    llvm::consumeError(target.takeError());
    return cpu.str();
  }
  return target->describe();
}

//===----------------------------------------------------------------------===//
// MLIR
//===----------------------------------------------------------------------===//

llvm::Expected<LoweredModel> mlir::graph::compiler::lowerToLLVMDialect(
    MLIRContext &context, llvm::SourceMgr &sourceMgr,
    const CompileOptions &options, llvm::TargetMachine &tm,
    TimingScope &timing) {
  TimingScope parseTimer = timing.nest("parse");
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  parseTimer.stop();
  if (!module)
    return makeReportedError();

  LoweredModel lowered;
  ModelMetadata &metadata = lowered.metadata;
  llvm::Expected<ModelSignature> signature =
      readSignature(*module, options.entry);
  if (!signature)
    return signature.takeError();
  metadata.signature = std::move(*signature);
  metadata.compiler = getCompilerVersion().str();
  metadata.entry = options.entry;
  metadata.optLevel = options.optLevel;
  metadata.triple = tm.getTargetTriple().str();
  metadata.cpu = tm.getTargetCPU().str();
  metadata.features = getRequiredFeatures(tm);
  metadata.targetDescription = describeTarget(metadata.cpu, metadata.features);
  metadata.specialization = options.specialization;
  metadata.numSpecializations = options.numSpecializations;
  metadata.inputSymbols = options.inputSymbols;

  PassManager pm(&context, ModuleOp::getOperationName());
  TimingScope passTimer = timing.nest("graph-optimize and lowering");
  pm.enableTiming(passTimer);
  graph::GraphOptimizeOptions optimizeOptions;
  optimizeOptions.optLevel = options.optLevel;
  optimizeOptions.targetCpu = options.targetCpu;
  optimizeOptions.targetFeatures = options.targetFeatures;
  if (failed(graph::buildGraphOptimizePipeline(pm, optimizeOptions)))
    return makeError("opt-level must be 0, 1, 2 or 3, got " +
                     llvm::Twine(options.optLevel));
  if (options.loweringPipeline.empty()) {
    GraphLowerToLLVMOptions lowerOptions;
    lowerOptions.targetCpu = options.targetCpu;
    lowerOptions.targetFeatures = options.targetFeatures;
    lowerOptions.profile = options.profile;
    if (options.maxThreads > 0)
      lowerOptions.maxThreads = options.maxThreads;
    metadata.maxThreads = unsigned(lowerOptions.maxThreads);
    graph::buildGraphLowerToLLVMPipeline(pm, lowerOptions);
  } else {
    std::string parseErrors;
    llvm::raw_string_ostream os(parseErrors);
    if (failed(parsePassPipeline(options.loweringPipeline, pm, os)))
      return makeError("cannot parse the lowering pipeline '" +
                       options.loweringPipeline + "': " + parseErrors);
  }
  if (failed(pm.run(*module)))
    return makeError("compiling @" + options.entry + " at -O" +
                     llvm::Twine(options.optLevel) + " failed");
  passTimer.stop();

  // The profiler's table of call sites (graph-instrument-kernels), which
  // the module carries no further.
  if (auto table = (*module)->getAttrOfType<ArrayAttr>(kProfileAttr)) {
    for (auto entry : table.getAsRange<DictionaryAttr>()) {
      ProfiledKernel &kernel = lowered.profiledKernels.emplace_back();
      if (auto name = entry.getAs<StringAttr>("name"))
        kernel.name = name.str();
      if (auto callee = entry.getAs<StringAttr>("kernel"))
        kernel.kernel = callee.str();
      if (auto kind = entry.getAs<StringAttr>("kind"))
        kernel.kind = kind.str();
      if (auto flops = entry.getAs<IntegerAttr>("flops"))
        kernel.flops = flops.getValue().getZExtValue();
      if (auto bytes = entry.getAs<IntegerAttr>("bytes"))
        kernel.bytes = bytes.getValue().getZExtValue();
    }
    (*module)->removeAttr(kProfileAttr);
  }

  if (auto arena = (*module)->getAttrOfType<IntegerAttr>(kArenaBytesAttr)) {
    metadata.arenaBytes = arena.getValue().getZExtValue();
    (*module)->removeAttr(kArenaBytesAttr);
  }

  // graph.name and graph.extents have served their purpose (the signature
  // has been read); the translation to LLVM IR would warn about attributes
  // it cannot place.
  for (StringRef name : {kNameAttr, kRunTimeExtentsAttrName}) {
    StringAttr attr = StringAttr::get(&context, name);
    module->walk([&](FunctionOpInterface func) {
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        func.removeArgAttr(i, attr);
      for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
        func.removeResultAttr(i, attr);
    });
  }
  if (llvm::Error error = addModelABI(*module, options.entry, metadata))
    return std::move(error);
  lowered.module = std::move(module);
  return lowered;
}

llvm::Expected<llvm::SmallVector<char, 0>>
mlir::graph::compiler::compileToObject(MLIRContext &context,
                                       llvm::SourceMgr &sourceMgr,
                                       const CompileOptions &options,
                                       TimingScope &timing,
                                       ModelMetadata *metadata) {
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> tm =
      createTargetMachine(options, CodeTarget::Object);
  if (!tm)
    return tm.takeError();
  llvm::Expected<LoweredModel> lowered =
      lowerToLLVMDialect(context, sourceMgr, options, **tm, timing);
  if (!lowered)
    return lowered.takeError();
  if (metadata)
    *metadata = lowered->metadata;

  llvm::LLVMContext llvmContext;
  TimingScope translateTimer = timing.nest("translate to LLVM IR");
  llvm::Expected<std::unique_ptr<llvm::Module>> llvmModule =
      translateToLLVMIR(*lowered->module, llvmContext, **tm);
  if (!llvmModule)
    return llvmModule.takeError();
  lowered->module = nullptr;
  translateTimer.stop();

  llvm::Expected<llvm::SmallVector<llvm::SmallVector<char, 0>, 1>> objects =
      emitObjects(
          **llvmModule, options, CodeTarget::Object,
          [](llvm::Module &part, llvm::TargetMachine &partTM, unsigned) {
            return optimizeLLVMIR(part, partTM);
          },
          timing);
  if (!objects)
    return objects.takeError();
  if (objects->size() == 1)
    return std::move(objects->front());
  TimingScope linkTimer = timing.nest("link the parts");
  return linkRelocatable(*objects);
}
