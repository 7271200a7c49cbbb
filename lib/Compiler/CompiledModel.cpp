//===- CompiledModel.cpp - Compile a model and call it in-process ---------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The signature is read from the `func.func` before any pass runs: the
// lowering turns tensors into memrefs and drops the `graph.name` attributes,
// and graph-optimize never changes a function's signature. The lowered
// `llvm.func` is then checked against that signature, so that a lowering
// with another calling convention fails with a message, not a crash.
//
//===----------------------------------------------------------------------===//

#include "graph/Compiler/CompiledModel.h"

#include "SanitizeJIT.h"
#include "graph/Compiler/Compile.h"
#include "graph/Compiler/ModelABI.h"

#include "graph/Codegen/CPU/Passes.h"
#include "graph/Conversion/Passes.h"
#include "graph/Dialect/Graph/IR/GraphDialect.h"
#include "graph/Runtime/AllocationCounter.h"
#include "graph/Runtime/Errors.h"
#include "graph/Runtime/Profiler.h"
#include "graph/Support/NestingDepth.h"
#include "graph/Target/CPU/CPUTarget.h"
#include "graph/Target/ONNX/ImportONNX.h"
#include "graph/Transforms/Passes.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Target/TargetMachine.h"

#include <chrono>
#include <cstdlib>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::runtime;
using namespace mlir::graph::compiler;

static constexpr llvm::StringLiteral kNameAttr = "graph.name";

/// Runtime functions that lowered code may call besides the allocation
/// functions: memref.copy between non-contiguous views becomes `memrefCopy`.
static llvm::orc::SymbolMap
getRuntimeSymbolMap(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap symbols;
  // The counting allocation functions, under the C library's names.
  for (llvm::StringRef name : getAllocationSymbolNames())
    symbols[interner(name)] = {
        llvm::orc::ExecutorAddr::fromPtr(getCountingAllocationFunction(name)),
        llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  symbols[interner("memrefCopy")] = {
      llvm::orc::ExecutorAddr::fromPtr(&memrefCopy),
      llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  // The profiler's hooks, which only code compiled with profiling calls.
  symbols[interner("graph_profile_enter")] = {
      llvm::orc::ExecutorAddr::fromPtr(&graph_profile_enter),
      llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  symbols[interner("graph_profile_exit")] = {
      llvm::orc::ExecutorAddr::fromPtr(&graph_profile_exit),
      llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  return symbols;
}

//===----------------------------------------------------------------------===//
// Signature
//===----------------------------------------------------------------------===//

/// Describes a tensor of the entry function, or fails with an error at the
/// function naming the argument or result and its type.
static FailureOr<TensorSpec> describeTensor(func::FuncOp func, Type type,
                                            StringAttr name, StringRef kind,
                                            unsigned index) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  std::optional<ElementType> elementType =
      tensorType ? fromMLIRType(tensorType.getElementType()) : std::nullopt;
  if (!tensorType || !tensorType.hasStaticShape() || !elementType) {
    func.emitError() << kind << " " << index << " of @" << func.getSymName()
                     << " has type " << type
                     << "; compiled models take and return static-shaped "
                        "tensors of f16, bf16, f32, f64, i1, i8, i16, i32, "
                        "i64 or their unsigned forms";
    return failure();
  }
  int64_t numElements = 1;
  for (int64_t dim : tensorType.getShape()) {
    if (llvm::MulOverflow(numElements, dim, numElements) ||
        numElements > INT64_MAX / int64_t(getByteSize(*elementType))) {
      func.emitError() << kind << " " << index << " of @" << func.getSymName()
                       << " has type " << type << ", too large to allocate";
      return failure();
    }
  }
  TensorSpec spec;
  spec.name =
      name ? name.getValue().str()
           : (kind == "argument" ? "arg" : "result") + std::to_string(index);
  spec.shape.assign(tensorType.getShape().begin(), tensorType.getShape().end());
  spec.elementType = *elementType;
  spec.numElements = numElements;
  return spec;
}

std::optional<ElementType> mlir::graph::compiler::fromMLIRType(Type type) {
  if (type.isF16())
    return ElementType::F16;
  if (type.isBF16())
    return ElementType::BF16;
  if (type.isF32())
    return ElementType::F32;
  if (type.isF64())
    return ElementType::F64;
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer)
    return std::nullopt;
  unsigned width = integer.getWidth();
  if (width == 1 && !integer.isUnsigned())
    return ElementType::Bool;
  bool isUnsigned = integer.isUnsigned();
  switch (width) {
  case 8:
    return isUnsigned ? ElementType::U8 : ElementType::I8;
  case 16:
    return isUnsigned ? ElementType::U16 : ElementType::I16;
  case 32:
    return isUnsigned ? ElementType::U32 : ElementType::I32;
  case 64:
    return isUnsigned ? ElementType::U64 : ElementType::I64;
  default:
    return std::nullopt;
  }
}

/// Reads graph.extents of the results of run-time size: each names, per
/// dimension, the result (a tensor<i64> of rank 0) that holds its extent.
static LogicalResult readRunTimeExtents(func::FuncOp func,
                                        MutableArrayRef<TensorSpec> outputs) {
  for (auto [i, spec] : llvm::enumerate(outputs)) {
    auto extents =
        func.getResultAttrOfType<DenseI64ArrayAttr>(i, kRunTimeExtentsAttrName);
    if (!extents)
      continue;
    auto fail = [&, i = i](const Twine &message) {
      func.emitError() << "result " << i << " of @" << func.getSymName() << ": "
                       << kRunTimeExtentsAttrName << " " << message;
      return failure();
    };
    if (extents.size() != int64_t(spec.shape.size()))
      return fail("must name one result per dimension");
    for (int64_t extent : extents.asArrayRef()) {
      if (extent < 0)
        continue;
      if (extent >= int64_t(outputs.size()) || size_t(extent) == i ||
          outputs[extent].elementType != ElementType::I64 ||
          !outputs[extent].shape.empty() || outputs[extent].hasRunTimeShape())
        return fail("must name results that are tensor<i64> of rank 0");
      outputs[extent].isExtent = true;
    }
    spec.extentOutputs.assign(extents.asArrayRef().begin(),
                              extents.asArrayRef().end());
  }
  // Callers pass the model's own outputs first (ModelMetadata.h).
  for (size_t i = 1; i < outputs.size(); ++i)
    if (outputs[i - 1].isExtent && !outputs[i].isExtent) {
      func.emitError() << "result " << i << " of @" << func.getSymName()
                       << " follows an extent that " << kRunTimeExtentsAttrName
                       << " names: the extents must be the last results";
      return failure();
    }
  return success();
}

llvm::Expected<ModelSignature>
mlir::graph::compiler::readSignature(ModuleOp module, StringRef entry) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func) {
    std::string message = ("no function @" + entry + " in the module").str();
    SmallVector<StringRef> names;
    for (auto other : module.getOps<func::FuncOp>())
      if (!other.isExternal())
        names.push_back(other.getSymName());
    if (!names.empty())
      message += "; it has @" + llvm::join(names, ", @") +
                 " (choose one with --entry)";
    return makeError(message);
  }
  if (func.isExternal()) {
    func.emitError() << "@" << entry << " is a declaration without a body";
    return makeReportedError();
  }
  ModelSignature signature;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    FailureOr<TensorSpec> spec = describeTensor(
        func, func.getArgumentTypes()[i],
        func.getArgAttrOfType<StringAttr>(i, kNameAttr), "argument", i);
    if (failed(spec))
      return makeReportedError();
    signature.inputs.push_back(std::move(*spec));
  }
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i) {
    FailureOr<TensorSpec> spec = describeTensor(
        func, func.getResultTypes()[i],
        func.getResultAttrOfType<StringAttr>(i, kNameAttr), "result", i);
    if (failed(spec))
      return makeReportedError();
    signature.outputs.push_back(std::move(*spec));
  }
  if (failed(readRunTimeExtents(func, signature.outputs)))
    return makeReportedError();
  return signature;
}

/// The runtime functions are defined in the JIT by the runtime; a module
/// that defines one of its own would clash with them.
static llvm::Error checkRuntimeNames(ModuleOp module) {
  for (auto other : module.getOps<LLVM::LLVMFuncOp>()) {
    StringRef name = other.getSymName();
    if (!other.isExternal() &&
        (name == "memrefCopy" ||
         llvm::is_contained(getAllocationSymbolNames(), name) ||
         llvm::is_contained(getProfilerSymbolNames(), name))) {
      other.emitError() << "function @" << name
                        << " clashes with the runtime's function of that "
                           "name";
      return makeReportedError();
    }
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// CompiledModel
//===----------------------------------------------------------------------===//

/// An ORC JIT for `tm`'s target that has linked `objects` against the
/// runtime's functions (the counting allocator first) and the process's
/// libraries. RuntimeDyld with section memory, as MLIR's ExecutionEngine
/// sets it up for the large code model of JIT code.
static llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>>
createJIT(llvm::TargetMachine &tm,
          llvm::ArrayRef<llvm::SmallVector<char, 0>> objects) {
  llvm::orc::JITTargetMachineBuilder machineBuilder(tm.getTargetTriple());
  machineBuilder.setCPU(tm.getTargetCPU().str());
  machineBuilder.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  llvm::SmallVector<llvm::StringRef> features;
  tm.getTargetFeatureString().split(features, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef feature : features)
    machineBuilder.getFeatures().AddFeature(feature);
  llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit =
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(std::move(machineBuilder))
          .setDataLayout(tm.createDataLayout())
          .setObjectLinkingLayerCreator(
              [](llvm::orc::ExecutionSession &session)
                  -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
                return std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
                    session, [](const llvm::MemoryBuffer &) {
                      return std::make_unique<llvm::SectionMemoryManager>();
                    });
              })
          .create();
  if (!jit)
    return jit.takeError();
  llvm::orc::JITDylib &main = (*jit)->getMainJITDylib();
  llvm::orc::MangleAndInterner interner((*jit)->getExecutionSession(),
                                        (*jit)->getDataLayout());
  if (llvm::Error error = main.define(
          llvm::orc::absoluteSymbols(getRuntimeSymbolMap(interner))))
    return std::move(error);
  llvm::Expected<std::unique_ptr<llvm::orc::DynamicLibrarySearchGenerator>>
      process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
          (*jit)->getDataLayout().getGlobalPrefix());
  if (!process)
    return process.takeError();
  main.addGenerator(std::move(*process));
  for (auto [i, object] : llvm::enumerate(objects))
    if (llvm::Error error =
            (*jit)->addObjectFile(llvm::MemoryBuffer::getMemBufferCopy(
                llvm::StringRef(object.data(), object.size()),
                "part" + std::to_string(i) + ".o")))
      return std::move(error);
  return jit;
}

/// The debugging aid: the JIT's objects, linked into one, written to `path`.
static llvm::Error
dumpObject(llvm::ArrayRef<llvm::SmallVector<char, 0>> objects,
           llvm::StringRef path) {
  llvm::SmallVector<char, 0> linked;
  if (objects.size() == 1) {
    linked = objects.front();
  } else {
    llvm::Expected<llvm::SmallVector<char, 0>> relocatable =
        linkRelocatable(objects);
    if (!relocatable)
      return relocatable.takeError();
    linked = std::move(*relocatable);
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return makeError("cannot write '" + path + "': " + ec.message());
  os << llvm::StringRef(linked.data(), linked.size());
  return llvm::Error::success();
}

CompiledModel::~CompiledModel() = default;

llvm::Expected<std::unique_ptr<CompiledModel>>
CompiledModel::compile(MLIRContext &context, llvm::SourceMgr &sourceMgr,
                       const CompileOptions &options, TimingScope *timing) {
  auto start = std::chrono::steady_clock::now();
  TimingScope noTiming;
  TimingScope &scope = timing ? *timing : noTiming;

  // The target first: code for a CPU this machine cannot run must not be
  // made, let alone called.
  llvm::Expected<CPUTarget> target =
      CPUTarget::get(options.targetCpu, options.targetFeatures);
  if (!target)
    return target.takeError();
  std::string whyNot;
  if (!target->runsOnHost(whyNot))
    return makeError("cannot run code for " + target->cpu + " here: " + whyNot);

  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> tm =
      createTargetMachine(options, CodeTarget::JIT);
  if (!tm)
    return tm.takeError();
  llvm::Expected<LoweredModel> lowered =
      lowerToLLVMDialect(context, sourceMgr, options, **tm, scope);
  if (!lowered)
    return lowered.takeError();
  if (llvm::Error error = checkRuntimeNames(*lowered->module))
    return std::move(error);
  std::unique_ptr<CompiledModel> model(new CompiledModel());
  model->signature = lowered->metadata.signature;
  model->arenaBytes = lowered->metadata.arenaBytes;
  model->targetDescription = target->describe();
  model->profiledKernels = std::move(lowered->profiledKernels);

  // LLVM's own optimization and code generation, the same functions as
  // graph-compile's (Compile.h): the objects of the parts generated in
  // parallel are linked in this process by ORC.
  llvm::LLVMContext llvmContext;
  TimingScope translateTimer = scope.nest("translate to LLVM IR");
  llvm::Expected<std::unique_ptr<llvm::Module>> llvmModule =
      translateToLLVMIR(*lowered->module, llvmContext, **tm);
  if (!llvmModule)
    return makeError("cannot JIT-compile @" + options.entry + ": " +
                     llvm::toString(llvmModule.takeError()));
  lowered->module = nullptr;
  translateTimer.stop();

  // Each part's optimized LLVM IR is written beside the object when asked.
  std::string dumpPath = options.objectDumpPath;
  PartTransform optimize = [&dumpPath](llvm::Module &part,
                                       llvm::TargetMachine &partTM,
                                       unsigned index) -> llvm::Error {
    llvm::TargetMachine *tmPtr = &partTM;
    if (llvm::Error error = withAddressSanitizer([tmPtr](llvm::Module *module) {
          return optimizeLLVMIR(*module, *tmPtr);
        })(&part))
      return makeError("LLVM's optimization failed: " +
                       llvm::toString(std::move(error)));
    if (!dumpPath.empty()) {
      std::error_code ec;
      llvm::raw_fd_ostream os(
          dumpPath + (index ? "." + std::to_string(index) : "") + ".ll", ec);
      if (!ec)
        part.print(os, nullptr);
    }
    return llvm::Error::success();
  };
  llvm::Expected<llvm::SmallVector<llvm::SmallVector<char, 0>, 1>> objects =
      emitObjects(**llvmModule, options, CodeTarget::JIT, optimize, scope);
  if (!objects)
    return makeError("cannot JIT-compile @" + options.entry + ": " +
                     llvm::toString(objects.takeError()));
  llvmModule->reset();

  TimingScope linkTimer = scope.nest("JIT link");
  llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit =
      createJIT(**tm, *objects);
  if (!jit)
    return makeError("cannot JIT-compile @" + options.entry + ": " +
                     llvm::toString(jit.takeError()));
  model->jit = std::move(*jit);
  llvm::Expected<llvm::orc::ExecutorAddr> runFn =
      model->jit->lookup(kModelRunSymbol);
  if (!runFn)
    return makeError("cannot JIT-compile @" + options.entry + ": " +
                     llvm::toString(runFn.takeError()));
  model->runFn = runFn->toPtr<ModelRunFn>();
  if (llvm::Error error = model->jit->initialize(model->jit->getMainJITDylib()))
    return makeError("cannot JIT-compile @" + options.entry + ": " +
                     llvm::toString(std::move(error)));
  linkTimer.stop();
  if (!options.objectDumpPath.empty())
    if (llvm::Error error = dumpObject(*objects, options.objectDumpPath))
      return error;

  std::chrono::duration<double, std::milli> elapsed =
      std::chrono::steady_clock::now() - start;
  model->compileMillis = elapsed.count();
  return model;
}

void CompiledModel::invoke(const void *const *inputs, void *const *outputs) {
  runFn(inputs, outputs);
}

void CompiledModel::warmUp(MLIRContext &context,
                           const CompileOptions &options) {
  static constexpr llvm::StringLiteral source = R"mlir(
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %y = graph.relu %x : tensor<4xf32>
      return %y : tensor<4xf32>
    })mlir";
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(source, "warm-up"), llvm::SMLoc());
  // Swallows every diagnostic: the warm-up is invisible, even when it fails.
  ScopedDiagnosticHandler silence(&context,
                                  [](Diagnostic &) { return success(); });
  CompileOptions warmUpOptions = options;
  warmUpOptions.entry = "main";
  warmUpOptions.optLevel = 0;
  warmUpOptions.loweringPipeline.clear();
  llvm::Expected<std::unique_ptr<CompiledModel>> model =
      compile(context, sourceMgr, warmUpOptions);
  if (!model) {
    llvm::consumeError(model.takeError());
    return;
  }
  TensorBuffer input(ElementType::F32, 4), output(ElementType::F32, 4);
  llvm::fill(input.values<float>(), 0.0f);
  (*model)->run({&input}, {&output});
}

//===----------------------------------------------------------------------===//
// Loading models
//===----------------------------------------------------------------------===//

void mlir::graph::compiler::registerCompilerDialects(
    DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.insert<GraphDialect>();
}

/// Imports an ONNX model and writes it as MLIR bytecode. The import has a
/// context of its own, so that its copies of the weights are freed once it
/// is written. Errors are printed by the importer's diagnostic handler, to
/// `diagnosticStream`.
static llvm::Expected<std::string>
importONNXToBytecode(const llvm::MemoryBuffer &file,
                     llvm::ArrayRef<std::string> inputShapes,
                     llvm::ArrayRef<std::string> inputValues,
                     llvm::raw_ostream &diagnosticStream) {
  ONNXImportOptions importOptions;
  for (const std::string &spec : inputShapes) {
    std::string message;
    if (failed(parseONNXInputShapes(spec, importOptions, message)))
      return makeError(message);
  }
  for (const std::string &spec : inputValues) {
    std::string message;
    if (failed(parseONNXInputValues(spec, importOptions, message)))
      return makeError(message);
  }
  llvm::StringSet<> needed;
  importOptions.neededInputValues = &needed;
  MLIRContext context;
  context.printOpOnDiagnostic(false);
  ONNXDiagnosticHandler diagnostics(&context, diagnosticStream);
  OwningOpRef<ModuleOp> module =
      importONNX(file.getMemBufferRef(), &context, importOptions);
  if (!module && !needed.empty()) {
    std::vector<std::string> names;
    for (const auto &name : needed)
      names.push_back(name.getKey().str());
    llvm::sort(names);
    return llvm::make_error<InputValuesNeeded>(std::move(names));
  }
  if (!module)
    return makeReportedError();
  std::string bytecode;
  llvm::raw_string_ostream os(bytecode);
  if (failed(writeBytecodeToFile(*module, os)))
    return makeError("cannot write '" + file.getBufferIdentifier() +
                     "' as MLIR bytecode");
  return bytecode;
}

llvm::Error mlir::graph::compiler::loadModelFile(
    llvm::StringRef path, llvm::ArrayRef<std::string> inputShapes,
    llvm::SourceMgr &sourceMgr, llvm::raw_ostream &diagnostics,
    llvm::ArrayRef<std::string> inputValues) {
  bool isONNX = path.ends_with_insensitive(".onnx");
  if (!inputShapes.empty() && !isONNX)
    return makeError("--input-shape applies to .onnx models only");
  if (!inputValues.empty() && !isONNX)
    return makeError("input values apply to .onnx models only");
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/!isONNX);
  if (!file)
    return makeError("cannot read '" + path +
                     "': " + file.getError().message());
  if (!isONNX) {
    // Text nested too deeply for the recursive parser is refused first.
    unsigned id = sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
    if (failed(checkNestingDepth(sourceMgr, *sourceMgr.getMemoryBuffer(id))))
      return makeReportedError();
    return llvm::Error::success();
  }
  // Imported, then handed on as MLIR bytecode: the compilation parses it
  // like any .mlir model, and the weights stay raw bytes on the way.
  llvm::Expected<std::string> bytecode =
      importONNXToBytecode(**file, inputShapes, inputValues, diagnostics);
  if (!bytecode)
    return bytecode.takeError();
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(*bytecode, path), llvm::SMLoc());
  return llvm::Error::success();
}
