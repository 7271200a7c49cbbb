//===- CodeGen.cpp - LLVM IR to machine code, in parallel parts -----------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The lowered module translated to LLVM IR, LLVM's O3, and machine code: the
// module split into one part per core, each optimized and generated on a
// thread of its own (emitObjects), as LLVM's LTO does.
//
//===----------------------------------------------------------------------===//

#include "graph/Compiler/Compile.h"

#include "graph/Runtime/Errors.h"
#include "graph/Runtime/Threads.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <cmath>
#include <mutex>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::runtime;
using namespace mlir::graph::compiler;

//===----------------------------------------------------------------------===//
// LLVM
//===----------------------------------------------------------------------===//

/// Appends the bytes of `constant`, an array (of arrays) of numbers, to
/// `bytes`; false when it is anything else.
static bool appendConstantBytes(const llvm::Constant *constant,
                                const llvm::DataLayout &layout,
                                llvm::SmallVectorImpl<char> &bytes) {
  if (auto *data = llvm::dyn_cast<llvm::ConstantDataSequential>(constant)) {
    // Elements of a size in whole bytes lie packed in the raw data.
    llvm::Type *element = data->getElementType();
    if (layout.getTypeAllocSize(element) != layout.getTypeStoreSize(element))
      return false;
    llvm::StringRef raw = data->getRawDataValues();
    bytes.append(raw.begin(), raw.end());
    return true;
  }
  if (llvm::isa<llvm::ConstantAggregateZero>(constant)) {
    bytes.append(layout.getTypeAllocSize(constant->getType()), 0);
    return true;
  }
  if (auto *array = llvm::dyn_cast<llvm::ConstantArray>(constant)) {
    for (const llvm::Use &element : array->operands())
      if (!appendConstantBytes(llvm::cast<llvm::Constant>(element.get()),
                               layout, bytes))
        return false;
    return true;
  }
  return false;
}

/// Gives every large constant array of numbers (the weights) an initializer
/// of bytes: code generation writes a byte array to the object in one piece
/// but a float array element by element, which took most of ResNet-18's
/// code generation (11.7M floats). Uses see only the address: with opaque
/// pointers, a global of another type at the same address serves them.
static void packConstantData(llvm::Module &module) {
  const llvm::DataLayout &layout = module.getDataLayout();
  llvm::SmallVector<llvm::GlobalVariable *> globals;
  for (llvm::GlobalVariable &global : module.globals())
    if (global.hasInitializer() && global.isConstant() &&
        layout.getTypeAllocSize(global.getValueType()) >= 4096 &&
        !global.getValueType()->isIntegerTy(8) &&
        llvm::isa<llvm::ArrayType>(global.getValueType()))
      globals.push_back(&global);
  for (llvm::GlobalVariable *global : globals) {
    llvm::SmallVector<char, 0> bytes;
    if (!appendConstantBytes(global->getInitializer(), layout, bytes) ||
        bytes.size() != layout.getTypeAllocSize(global->getValueType()))
      continue;
    llvm::Constant *packed = llvm::ConstantDataArray::getRaw(
        llvm::StringRef(bytes.data(), bytes.size()), bytes.size(),
        llvm::Type::getInt8Ty(module.getContext()));
    auto *replacement = new llvm::GlobalVariable(
        module, packed->getType(), /*isConstant=*/true, global->getLinkage(),
        packed, "", global, global->getThreadLocalMode(),
        global->getAddressSpace());
    replacement->copyAttributesFrom(global);
    replacement->setAlignment(
        global->getAlign().value_or(layout.getPreferredAlign(global)));
    replacement->takeName(global);
    global->replaceAllUsesWith(replacement);
    global->eraseFromParent();
  }
}

llvm::Expected<std::unique_ptr<llvm::Module>>
mlir::graph::compiler::translateToLLVMIR(ModuleOp module,
                                         llvm::LLVMContext &llvmContext,
                                         llvm::TargetMachine &tm) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return makeError("cannot translate the lowered module to LLVM IR");
  ExecutionEngine::setupTargetTripleAndDataLayout(llvmModule.get(), &tm);
  packConstantData(*llvmModule);
  return llvmModule;
}

llvm::Error mlir::graph::compiler::optimizeLLVMIR(llvm::Module &module,
                                                  llvm::TargetMachine &tm) {
  // O3 at every graph opt-level, so that only graph-optimize differs
  // between levels.
  return makeOptimizingTransformer(/*optLevel=*/3, /*sizeLevel=*/0,
                                   &tm)(&module);
}

llvm::Expected<llvm::SmallVector<char, 0>>
mlir::graph::compiler::emitObject(llvm::Module &module,
                                  llvm::TargetMachine &tm) {
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr,
                             llvm::CodeGenFileType::ObjectFile))
    return makeError("the target cannot emit object files");
  pm.run(module);
  return object;
}

llvm::Expected<llvm::SmallVector<llvm::SmallVector<char, 0>, 1>>
mlir::graph::compiler::emitObjects(llvm::Module &module,
                                   const CompileOptions &options,
                                   CodeTarget codeTarget,
                                   const PartTransform &optimize,
                                   TimingScope &timing, unsigned parts) {
  TimingScope optimizeTimer = timing.nest("LLVM optimization");
  if (parts == 0)
    parts = getAvailableCores();
  size_t numFunctions = llvm::count_if(
      module, [](const llvm::Function &f) { return !f.isDeclaration(); });
  parts = std::max<unsigned>(1, std::min<size_t>(parts, numFunctions));
  // What the split below does not handle (our lowering makes none of them):
  // one part.
  if (!module.alias_empty() || !module.ifunc_empty() ||
      !module.getComdatSymbolTable().empty() ||
      llvm::any_of(module.globals(), [](const llvm::GlobalVariable &global) {
        return global.getName().starts_with("llvm.");
      }))
    parts = 1;
  llvm::SmallVector<llvm::SmallVector<char, 0>, 1> objects(parts);
  if (parts == 1) {
    llvm::Expected<std::unique_ptr<llvm::TargetMachine>> tm =
        createTargetMachine(options, codeTarget);
    if (!tm)
      return tm.takeError();
    if (llvm::Error error = optimize(module, **tm, 0))
      return std::move(error);
    optimizeTimer.stop();
    TimingScope codegenTimer = timing.nest("code generation");
    llvm::Expected<llvm::SmallVector<char, 0>> object =
        emitObject(module, **tm);
    if (!object)
      return object.takeError();
    objects[0] = std::move(*object);
    return objects;
  }

  // The module is split before LLVM optimizes it, so that both the
  // optimization and the code generation run on every core: kernels do not
  // inline into each other or into the entry (they are noinline), so
  // little is lost. Kernels go to the parts greedily, largest first, each
  // with the regions outlined from it, to the part with the fewest
  // instructions so far (llvm::SplitModule balances badly here); the global
  // data (the weights) stays in part 0, the original module, which is never
  // copied. The other parts, as in LLVM's LTO (splitCodeGen), travel as
  // bitcode into an LLVMContext of their own, since a context is not
  // thread-safe, and get a target machine of their own. Locals become
  // hidden globals, resolved when the objects are linked.
  for (llvm::GlobalValue &value : module.global_values()) {
    if (value.isDeclaration())
      continue;
    if (value.hasLocalLinkage()) {
      // A name no C code can define ('.'): the parts of a static object are
      // linked with the program, whose `main` is not the model's. The
      // specializations of one library each have their own.
      std::string prefix = "__graph_local.";
      if (options.specialization > 0)
        prefix += std::to_string(options.specialization) + ".";
      value.setName(prefix + (value.hasName() ? value.getName() : "anonymous"));
      value.setLinkage(llvm::GlobalValue::ExternalLinkage);
      value.setVisibility(llvm::GlobalValue::HiddenVisibility);
    } else if (!value.hasName()) {
      value.setName("__graph_part_anonymous");
    }
  }
  // A function goes to the part of the functions that take its address
  // other than as a callee: the regions OpenMP outlined from a kernel, which
  // the kernel passes to the runtime by pointer and which LLVM's OpenMP
  // optimization looks at together.
  llvm::SmallVector<llvm::Function *> functions;
  llvm::EquivalenceClasses<llvm::Function *> samePart;
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    functions.push_back(&function);
    samePart.insert(&function);
  }
  for (llvm::Function *function : functions)
    for (llvm::Use &use : function->uses()) {
      auto *call = llvm::dyn_cast<llvm::CallBase>(use.getUser());
      if (call && call->isCallee(&use))
        continue;
      if (auto *inst = llvm::dyn_cast<llvm::Instruction>(use.getUser()))
        samePart.unionSets(function, inst->getFunction());
    }
  llvm::MapVector<llvm::Function *, uint64_t> groupSizes;
  for (llvm::Function *function : functions)
    groupSizes[samePart.getLeaderValue(function)] +=
        function->getInstructionCount() + 1;
  llvm::SmallVector<std::pair<llvm::Function *, uint64_t>> groups(
      groupSizes.begin(), groupSizes.end());
  llvm::stable_sort(
      groups, [](const auto &a, const auto &b) { return a.second > b.second; });
  llvm::DenseMap<llvm::Function *, unsigned> partOfGroup;
  llvm::SmallVector<uint64_t> load(parts, 0);
  for (auto [group, size] : groups) {
    unsigned part = llvm::min_element(load) - load.begin();
    partOfGroup[group] = part;
    load[part] += size;
  }
  llvm::DenseMap<const llvm::GlobalValue *, unsigned> partOf;
  for (llvm::Function *function : functions)
    partOf[function] = partOfGroup[samePart.getLeaderValue(function)];

  llvm::SmallVector<std::unique_ptr<llvm::TargetMachine>> machines;
  for (unsigned i = 0; i < parts; ++i) {
    llvm::Expected<std::unique_ptr<llvm::TargetMachine>> tm =
        createTargetMachine(options, codeTarget);
    if (!tm)
      return tm.takeError();
    machines.push_back(std::move(*tm));
  }
  // Parts 1.. as bitcode, before part 0 loses their functions.
  llvm::SmallVector<llvm::SmallString<0>> bitcode(parts);
  for (unsigned i = 1; i < parts; ++i) {
    llvm::ValueToValueMapTy map;
    std::unique_ptr<llvm::Module> part =
        llvm::CloneModule(module, map, [&](const llvm::GlobalValue *value) {
          auto it = partOf.find(value);
          return it != partOf.end() && it->second == i;
        });
    llvm::raw_svector_ostream os(bitcode[i]);
    llvm::WriteBitcodeToFile(*part, os);
  }
  for (llvm::Function *function : functions)
    if (partOf[function] != 0)
      function->deleteBody();

  // Each step on all parts at once: part 0 on this thread.
  llvm::SmallVector<std::unique_ptr<llvm::LLVMContext>> contexts(parts);
  llvm::SmallVector<std::unique_ptr<llvm::Module>> partModules(parts);
  llvm::SmallVector<std::string> errors(parts);
  auto modulePart = [&](unsigned i) -> llvm::Module & {
    return i == 0 ? module : *partModules[i];
  };
  auto inParallel =
      [&](llvm::function_ref<void(unsigned)> step) -> llvm::Error {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(parts));
    for (unsigned i = 1; i < parts; ++i)
      pool.async([&, i] {
        if (errors[i].empty())
          step(i);
      });
    step(0);
    pool.wait();
    for (const std::string &error : errors)
      if (!error.empty())
        return makeError("code generation failed: " + error);
    return llvm::Error::success();
  };

  if (llvm::Error error = inParallel([&](unsigned i) {
        if (i != 0) {
          contexts[i] = std::make_unique<llvm::LLVMContext>();
          llvm::Expected<std::unique_ptr<llvm::Module>> parsed =
              llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode[i], "part"),
                                     *contexts[i]);
          if (!parsed) {
            errors[i] = llvm::toString(parsed.takeError());
            return;
          }
          partModules[i] = std::move(*parsed);
          bitcode[i].clear();
        }
        if (llvm::Error error = optimize(modulePart(i), *machines[i], i))
          errors[i] = llvm::toString(std::move(error));
      }))
    return std::move(error);
  optimizeTimer.stop();

  TimingScope codegenTimer = timing.nest("code generation");
  if (llvm::Error error = inParallel([&](unsigned i) {
        llvm::Expected<llvm::SmallVector<char, 0>> object =
            emitObject(modulePart(i), *machines[i]);
        if (!object) {
          errors[i] = llvm::toString(object.takeError());
          return;
        }
        objects[i] = std::move(*object);
        // A part's module and context are done with on its thread.
        if (i != 0) {
          partModules[i].reset();
          contexts[i].reset();
        }
      }))
    return std::move(error);
  return objects;
}
