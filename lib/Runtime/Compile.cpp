//===- Compile.cpp - From a model to machine code -------------------------===//

#include "graph/Runtime/Compile.h"

#include "graph/Conversion/Passes.h"
#include "graph/Runtime/Errors.h"
#include "graph/Runtime/Threads.h"
#include "graph/Target/CPU/CPUTarget.h"
#include "graph/Transforms/Passes.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <cmath>
#include <dlfcn.h>
#include <gnu/libc-version.h>
#include <link.h>
#include <mutex>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::runtime;

static constexpr llvm::StringLiteral kNameAttr = "graph.name";
static constexpr llvm::StringLiteral kProfileAttr = "graph.profile";

//===----------------------------------------------------------------------===//
// The compiler's version
//===----------------------------------------------------------------------===//

/// The file of the executable or shared library that holds this code.
static std::string getOwnFile() {
  struct Search {
    uintptr_t address;
    std::string name;
    bool found = false;
  } search{reinterpret_cast<uintptr_t>(&getOwnFile), "", false};
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) {
        auto *search = static_cast<Search *>(data);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &phdr = info->dlpi_phdr[i];
          uintptr_t start = info->dlpi_addr + phdr.p_vaddr;
          if (phdr.p_type == PT_LOAD && search->address >= start &&
              search->address < start + phdr.p_memsz) {
            search->name = info->dlpi_name ? info->dlpi_name : "";
            search->found = true;
            return 1;
          }
        }
        return 0;
      },
      &search);
  // The main program has no name in the list.
  if (search.found && search.name.empty())
    return llvm::sys::fs::getMainExecutable(
        nullptr, reinterpret_cast<void *>(&getOwnFile));
  return search.name;
}

llvm::StringRef mlir::graph::runtime::getCompilerVersion() {
  static const std::string version = [] {
    std::string build = "unknown";
    std::string file = getOwnFile();
    if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> contents =
            llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                        /*RequiresNullTerminator=*/false)) {
      llvm::BLAKE3 hasher;
      hasher.update((*contents)->getBuffer());
      build = llvm::toHex(hasher.final<8>(), /*LowerCase=*/true);
    }
    return "graph-compiler build " + build + ", LLVM " LLVM_VERSION_STRING;
  }();
  return version;
}

//===----------------------------------------------------------------------===//
// Target
//===----------------------------------------------------------------------===//

/// Sets LLVM's option `name` to `value` unless the process was given it
/// explicitly (e.g. graph-run --post-RA-scheduler=true), which wins.
static void setDefaultOption(llvm::StringRef name, llvm::StringRef value) {
  auto options = llvm::cl::getRegisteredOptions();
  auto it = options.find(name);
  if (it != options.end() && it->second->getNumOccurrences() == 0)
    (void)it->second->addOccurrence(/*pos=*/1, it->first, value);
}

/// LLVM's options for our kernels, set once per process (LLVM has no
/// per-module switch for either):
///  - the post-RA list scheduler ("post-RA-scheduler", which the scheduling
///    models of recent x86 cores turn on at -O2 and above) took over half of
///    code generation on the long unrolled blocks of our kernels, for no
///    measurable latency;
///  - full unrolling of loops of at most 4 iterations ("unroll-full-max-
///    count"): LLVM fully unrolling every short loop (a 7x7 layer's pixels,
///    a tile's rows) grew MobileNetV2 from 47k to 108k instructions and its
///    code generation 8x; with no unrolling at all ResNet-18 ran 15% slower
///    on 2 threads; partial and runtime unrolling, and full unrolling of the
///    shortest loops, keep the speed (bench/README.md).
static void configureCodeGeneration() {
  static std::once_flag once;
  std::call_once(once, [] {
    setDefaultOption("post-RA-scheduler", "false");
    setDefaultOption("unroll-full-max-count", "4");
  });
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
mlir::graph::runtime::createTargetMachine(const CompileOptions &options,
                                          CodeTarget codeTarget) {
  configureCodeGeneration();
  // The one description of the target CPU, which the lowering's tile
  // choices ask too.
  llvm::Expected<CPUTarget> target =
      CPUTarget::get(options.targetCpu, options.targetFeatures);
  if (!target)
    return target.takeError();
  llvm::Triple triple(target->triple);
  std::string message;
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(triple, message);
  if (!llvmTarget)
    return makeError("cannot generate code for " + triple.str() + ": " +
                     message);
  llvm::TargetOptions targetOptions;
  std::optional<llvm::Reloc::Model> relocation;
  if (codeTarget == CodeTarget::Object)
    relocation = llvm::Reloc::PIC_;
  std::unique_ptr<llvm::TargetMachine> tm(llvmTarget->createTargetMachine(
      triple, target->cpu, target->features, targetOptions, relocation,
      std::nullopt, llvm::CodeGenOptLevel::Aggressive,
      /*JIT=*/codeTarget == CodeTarget::JIT));
  if (!tm)
    return makeError("cannot generate code for " + target->describe());
  return tm;
}

std::vector<std::string>
mlir::graph::runtime::getRequiredFeatures(const llvm::TargetMachine &tm) {
  const llvm::MCSubtargetInfo *info = tm.getMCSubtargetInfo();
  llvm::StringMap<bool> hostFeatures = llvm::sys::getHostCPUFeatures();
  std::vector<std::string> required;
  for (const llvm::SubtargetFeatureKV &kv : info->getAllProcessorFeatures())
    if (info->getFeatureBits().test(kv.Value) && hostFeatures.count(kv.Key))
      required.push_back(kv.Key);
  llvm::sort(required);
  return required;
}

//===----------------------------------------------------------------------===//
// MLIR
//===----------------------------------------------------------------------===//

llvm::Expected<LoweredModel> mlir::graph::runtime::lowerToLLVMDialect(
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

  // graph.name has served its purpose (the signature has been read); the
  // translation to LLVM IR would warn about an attribute it cannot place.
  StringAttr nameAttr = StringAttr::get(&context, kNameAttr);
  module->walk([&](FunctionOpInterface func) {
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      func.removeArgAttr(i, nameAttr);
    for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
      func.removeResultAttr(i, nameAttr);
  });
  if (llvm::Error error = addModelABI(*module, options.entry, metadata))
    return std::move(error);
  lowered.module = std::move(module);
  return lowered;
}

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
mlir::graph::runtime::translateToLLVMIR(ModuleOp module,
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

llvm::Error mlir::graph::runtime::optimizeLLVMIR(llvm::Module &module,
                                                 llvm::TargetMachine &tm) {
  // O3 at every graph opt-level, so that only graph-optimize differs
  // between levels.
  return makeOptimizingTransformer(/*optLevel=*/3, /*sizeLevel=*/0,
                                   &tm)(&module);
}

llvm::Expected<llvm::SmallVector<char, 0>>
mlir::graph::runtime::emitObject(llvm::Module &module,
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
mlir::graph::runtime::emitObjects(llvm::Module &module,
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

llvm::Expected<llvm::SmallVector<char, 0>>
mlir::graph::runtime::compileToObject(MLIRContext &context,
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

//===----------------------------------------------------------------------===//
// Linking
//===----------------------------------------------------------------------===//

/// The path of the shared library that defines `address`.
static std::string getLibraryOf(const void *address) {
  Dl_info info;
  if (dladdr(address, &info) && info.dli_fname)
    return info.dli_fname;
  return "";
}

/// lld: the one LLVM was configured with, else ld.lld-22 or ld.lld on PATH.
static llvm::Expected<std::string> findLinker() {
#ifdef GRAPH_LLD_PATH
  if (llvm::sys::fs::can_execute(GRAPH_LLD_PATH))
    return std::string(GRAPH_LLD_PATH);
#endif
  for (std::string name :
       {"ld.lld-" + std::to_string(LLVM_VERSION_MAJOR), std::string("ld.lld")})
    if (llvm::ErrorOr<std::string> path = llvm::sys::findProgramByName(name))
      return *path;
  return makeError("cannot find lld (ld.lld) to link a shared library; "
                   "install Debian's lld package");
}

/// Whether the object calls the OpenMP runtime.
static llvm::Expected<bool> usesOpenMP(llvm::StringRef objectPath) {
  llvm::Expected<llvm::object::OwningBinary<llvm::object::ObjectFile>> object =
      llvm::object::ObjectFile::createObjectFile(objectPath);
  if (!object)
    return makeError("cannot read the object file '" + objectPath +
                     "': " + llvm::toString(object.takeError()));
  for (const llvm::object::SymbolRef &symbol : object->getBinary()->symbols()) {
    llvm::Expected<uint32_t> flags = symbol.getFlags();
    llvm::Expected<llvm::StringRef> name = symbol.getName();
    if (!flags || !name) {
      llvm::consumeError(flags.takeError());
      llvm::consumeError(name.takeError());
      continue;
    }
    if ((*flags & llvm::object::SymbolRef::SF_Undefined) &&
        (name->starts_with("__kmpc_") || name->starts_with("omp_")))
      return true;
  }
  return false;
}

/// The OpenMP runtime the process has loaded, or the one next to LLVM's
/// libraries.
static std::string findOpenMPRuntime() {
  if (void *symbol = dlsym(RTLD_DEFAULT, "__kmpc_fork_call"))
    return getLibraryOf(symbol);
  for (const char *candidate :
       {GRAPH_LLVM_LIBRARY_DIR "/libomp.so.5",
        GRAPH_LLVM_LIBRARY_DIR "/libomp.so", "libomp.so.5", "libomp.so"})
    if (void *handle = dlopen(candidate, RTLD_LAZY | RTLD_LOCAL))
      if (void *symbol = dlsym(handle, "__kmpc_fork_call"))
        return getLibraryOf(symbol);
  return "";
}

llvm::Error mlir::graph::runtime::linkSharedLibrary(llvm::StringRef objectPath,
                                                    llvm::StringRef outputPath,
                                                    llvm::StringRef soname) {
  llvm::Expected<std::string> linker = findLinker();
  if (!linker)
    return linker.takeError();
  // The very libraries this process runs with: their sonames become the
  // library's dependencies, with the symbol versions they define.
  // Functions that no sanitizer intercepts: under AddressSanitizer, qsort's
  // address is the interceptor's, inside the executable.
  std::string libc =
      getLibraryOf(reinterpret_cast<void *>(&::gnu_get_libc_version));
  std::string libm = getLibraryOf(
      reinterpret_cast<void *>(static_cast<float (*)(float)>(&::expf)));
  if (libc.empty() || libm.empty())
    return makeError("cannot find the C library and libm to link against");

  std::vector<std::string> args = {*linker,
                                   "-shared",
                                   "-o",
                                   outputPath.str(),
                                   "-soname",
                                   soname.str(),
                                   "-z",
                                   "defs",
                                   "-z",
                                   "noexecstack",
                                   "-z",
                                   "relro",
                                   "-z",
                                   "now",
                                   "--as-needed",
                                   "--hash-style=both",
                                   "--build-id=none",
                                   objectPath.str()};
  llvm::Expected<bool> openMP = usesOpenMP(objectPath);
  if (!openMP)
    return openMP.takeError();
  if (*openMP) {
    std::string libomp = findOpenMPRuntime();
    if (libomp.empty())
      return makeError("the model uses OpenMP, and the OpenMP runtime "
                       "(libomp.so.5) cannot be found");
    args.push_back(libomp);
    args.push_back("-rpath");
    args.push_back(llvm::sys::path::parent_path(libomp).str());
  }
  args.push_back(libm);
  args.push_back(libc);

  llvm::SmallString<128> messages;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("graph-lld", "txt", messages))
    return makeError("cannot create a temporary file: " + ec.message());
  llvm::SmallVector<llvm::StringRef> argRefs(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""),
                                                llvm::StringRef(messages),
                                                llvm::StringRef(messages)};
  std::string execError;
  int status = llvm::sys::ExecuteAndWait(*linker, argRefs, std::nullopt,
                                         redirects, 0, 0, &execError);
  std::string output;
  if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
          llvm::MemoryBuffer::getFile(messages))
    output = (*text)->getBuffer().trim().str();
  llvm::sys::fs::remove(messages);
  if (status != 0) {
    llvm::sys::fs::remove(outputPath);
    return makeError("linking '" + outputPath + "' with " + *linker +
                     " failed" + (execError.empty() ? "" : ": " + execError) +
                     (output.empty() ? "" : ":\n" + output));
  }
  return llvm::Error::success();
}

llvm::Error
mlir::graph::runtime::linkObjectIntoSharedLibrary(llvm::ArrayRef<char> object,
                                                  llvm::StringRef outputPath,
                                                  llvm::StringRef soname) {
  llvm::SmallString<256> objectPath;
  int fd;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          outputPath + ".tmp-%%%%%%.o", fd, objectPath))
    return makeError("cannot write '" + outputPath + "': " + ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << llvm::StringRef(object.data(), object.size());
    os.close();
    if (os.has_error()) {
      std::string message = os.error().message();
      os.clear_error();
      llvm::sys::fs::remove(objectPath);
      return makeError("cannot write '" + objectPath + "': " + message);
    }
  }
  llvm::Error linked = linkSharedLibrary(objectPath, outputPath, soname);
  llvm::sys::fs::remove(objectPath);
  return linked;
}

/// Writes `contents` to a new temporary file named like `model-%%%%%%.o`.
static llvm::Expected<std::string>
writeTemporaryFile(llvm::ArrayRef<char> contents, llvm::StringRef suffix) {
  llvm::SmallString<256> path;
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("graph-part", suffix, fd, path))
    return makeError("cannot create a temporary file: " + ec.message());
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << llvm::StringRef(contents.data(), contents.size());
  os.close();
  if (os.has_error()) {
    std::string message = os.error().message();
    os.clear_error();
    llvm::sys::fs::remove(path);
    return makeError("cannot write '" + path + "': " + message);
  }
  return std::string(path);
}

llvm::Expected<llvm::SmallVector<char, 0>>
mlir::graph::runtime::linkRelocatable(
    llvm::ArrayRef<llvm::SmallVector<char, 0>> objects) {
  llvm::Expected<std::string> linker = findLinker();
  if (!linker)
    return linker.takeError();
  llvm::SmallVector<std::string> files;
  llvm::scope_exit removeFiles([&] {
    for (const std::string &file : files)
      llvm::sys::fs::remove(file);
  });
  for (const llvm::SmallVector<char, 0> &object : objects) {
    llvm::Expected<std::string> path = writeTemporaryFile(object, "o");
    if (!path)
      return path.takeError();
    files.push_back(*path);
  }
  llvm::Expected<std::string> output = writeTemporaryFile({}, "o");
  if (!output)
    return output.takeError();
  files.push_back(*output);
  llvm::SmallVector<llvm::StringRef> args = {*linker, "-r", "-o", *output};
  for (size_t i = 0; i + 1 < files.size(); ++i)
    args.push_back(files[i]);
  std::string execError;
  int status = llvm::sys::ExecuteAndWait(*linker, args, std::nullopt, {}, 0, 0,
                                         &execError);
  if (status != 0)
    return makeError("linking the parts of the object with " + *linker +
                     " failed" + (execError.empty() ? "" : ": " + execError));
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> linked =
      llvm::MemoryBuffer::getFile(*output, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!linked)
    return makeError("cannot read the linked object: " +
                     linked.getError().message());
  llvm::StringRef bytes = (*linked)->getBuffer();
  return llvm::SmallVector<char, 0>(bytes.begin(), bytes.end());
}
