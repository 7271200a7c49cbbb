//===- CompiledModel.cpp - Compile a model and call it in-process ---------===//
//
// The signature is read from the `func.func` before any pass runs: the
// lowering turns tensors into memrefs and drops the `graph.name` attributes,
// and graph-optimize never changes a function's signature. The lowered
// `llvm.func` is then checked against that signature, so that a lowering
// with another calling convention fails with a message, not a crash.
//
//===----------------------------------------------------------------------===//

#include "graph/Runtime/CompiledModel.h"

#include "graph/Conversion/Passes.h"
#include "graph/Dialect/Graph/IR/GraphDialect.h"
#include "graph/Runtime/AllocationCounter.h"
#include "graph/Runtime/Errors.h"
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
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Target/TargetMachine.h"

#include <chrono>
#include <cstdlib>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::runtime;

static constexpr llvm::StringLiteral kNameAttr = "graph.name";

/// Runtime functions that lowered code may call besides the allocation
/// functions: memref.copy between non-contiguous views becomes `memrefCopy`.
static llvm::orc::SymbolMap
getRuntimeSymbolMap(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap symbols = getAllocationSymbolMap(interner);
  symbols[interner("memrefCopy")] = {
      llvm::orc::ExecutorAddr::fromPtr(&memrefCopy),
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
                        "tensors of f16, f32, f64, i1, i8, i16, i32, i64 or "
                        "their unsigned forms";
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

std::optional<size_t>
mlir::graph::runtime::findTensor(llvm::ArrayRef<TensorSpec> specs,
                                 llvm::StringRef name, llvm::StringRef prefix) {
  for (auto [i, spec] : llvm::enumerate(specs))
    if (spec.name == name)
      return i;
  llvm::StringRef digits = name;
  digits.consume_front(prefix);
  size_t index;
  if (!digits.empty() && llvm::all_of(digits, llvm::isDigit) &&
      !digits.getAsInteger(10, index) && index < specs.size())
    return index;
  return std::nullopt;
}

llvm::Expected<ModelSignature>
mlir::graph::runtime::readSignature(ModuleOp module, StringRef entry) {
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
  return signature;
}

/// Checks that the lowered entry function takes one memref per tensor, inputs
/// then outputs, either as expanded descriptors (allocated and aligned
/// pointers, offset, sizes, strides) or as bare pointers, and returns nothing.
/// Sets `barePointers` to the convention found. Errors at an op go through
/// the context's diagnostic handlers.
static llvm::Error checkLoweredEntry(ModuleOp module, StringRef entry,
                                     const ModelSignature &signature,
                                     bool &barePointers) {
  auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(entry);
  if (!func || func.isExternal())
    return makeError("the lowering left no llvm.func @" + entry);
  LLVM::LLVMFunctionType type = func.getFunctionType();
  ArrayRef<Type> params = type.getParams();
  auto isPtr = [](Type t) { return isa<LLVM::LLVMPointerType>(t); };
  auto isI64 = [](Type t) { return t.isInteger(64); };

  size_t numMemrefs = signature.inputs.size() + signature.outputs.size();
  size_t expanded = 0;
  for (const TensorSpec &spec :
       llvm::concat<const TensorSpec>(signature.inputs, signature.outputs))
    expanded += 3 + 2 * spec.shape.size();

  bool ok = isa<LLVM::LLVMVoidType>(type.getReturnType()) && !type.isVarArg();
  if (ok && params.size() == expanded) {
    barePointers = false;
    size_t pos = 0;
    for (const TensorSpec &spec :
         llvm::concat<const TensorSpec>(signature.inputs, signature.outputs)) {
      ok &= isPtr(params[pos]) && isPtr(params[pos + 1]);
      for (size_t i = 2, e = 3 + 2 * spec.shape.size(); i < e; ++i)
        ok &= isI64(params[pos + i]);
      pos += 3 + 2 * spec.shape.size();
    }
  } else if (ok && params.size() == numMemrefs) {
    barePointers = true;
    ok = llvm::all_of(params, isPtr);
  } else {
    ok = false;
  }
  if (!ok) {
    func.emitError() << "the lowered @" << entry << " has type " << type
                     << ", not the calling convention the runtime expects: "
                     << signature.inputs.size() << " input and "
                     << signature.outputs.size()
                     << " output memrefs, returning nothing";
    return makeReportedError();
  }

  // The runtime functions are defined in the JIT by the runtime; a module
  // that defines one of its own would clash with them.
  for (auto other : module.getOps<LLVM::LLVMFuncOp>()) {
    StringRef name = other.getSymName();
    if (!other.isExternal() &&
        (name == "memrefCopy" ||
         llvm::is_contained(getAllocationSymbolNames(), name))) {
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

CompiledModel::~CompiledModel() = default;

llvm::Expected<std::unique_ptr<CompiledModel>>
CompiledModel::compile(MLIRContext &context, llvm::SourceMgr &sourceMgr,
                       const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();

  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return makeReportedError();

  std::unique_ptr<CompiledModel> model(new CompiledModel());
  llvm::Expected<ModelSignature> signature =
      readSignature(*module, options.entry);
  if (!signature)
    return signature.takeError();
  model->signature = std::move(*signature);

  PassManager pm(&context, ModuleOp::getOperationName());
  graph::GraphOptimizeOptions optimizeOptions;
  optimizeOptions.optLevel = options.optLevel;
  if (failed(graph::buildGraphOptimizePipeline(pm, optimizeOptions)))
    return makeError("opt-level must be 0, 1, 2 or 3, got " +
                     llvm::Twine(options.optLevel));
  if (options.loweringPipeline.empty()) {
    graph::buildGraphLowerToLLVMPipeline(pm);
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
  if (llvm::Error error = checkLoweredEntry(
          *module, options.entry, model->signature, model->barePointers))
    return std::move(error);
  // graph.name has served its purpose (the signature has been read); the
  // translation to LLVM IR would warn about an attribute it cannot place.
  StringAttr nameAttr = StringAttr::get(&context, kNameAttr);
  module->walk([&](FunctionOpInterface func) {
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      func.removeArgAttr(i, nameAttr);
    for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
      func.removeResultAttr(i, nameAttr);
  });

  // LLVM's own optimization and code generation: O3 for the target CPU at
  // every graph opt-level, so that only graph-optimize differs between
  // levels.
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> tmBuilder =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder)
    return makeError("cannot target the host: " +
                     llvm::toString(tmBuilder.takeError()));
  tmBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> tm =
      tmBuilder->createTargetMachine();
  if (!tm)
    return makeError("cannot target the host: " +
                     llvm::toString(tm.takeError()));
  std::function<llvm::Error(llvm::Module *)> transformer =
      makeOptimizingTransformer(/*optLevel=*/3, /*sizeLevel=*/0, tm->get());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  engineOptions.enableGDBNotificationListener = false;
  engineOptions.enablePerfNotificationListener = false;
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      ExecutionEngine::create(*module, engineOptions, std::move(*tm));
  if (!engine)
    return makeError("cannot JIT-compile @" + options.entry + ": " +
                     llvm::toString(engine.takeError()));
  model->engine = std::move(*engine);
  // Before anything is materialized: the counting allocator must be what the
  // compiled code links against.
  model->engine->registerSymbols(getRuntimeSymbolMap);
  model->engine->initialize();
  // Looking the entry up generates its code, inside the compile time.
  llvm::Expected<void (*)(void **)> entryFn =
      model->engine->lookupPacked(options.entry);
  if (!entryFn)
    return makeError("cannot JIT-compile @" + options.entry + ": " +
                     llvm::toString(entryFn.takeError()));
  model->entryFn = *entryFn;

  std::chrono::duration<double, std::milli> elapsed =
      std::chrono::steady_clock::now() - start;
  model->compileMillis = elapsed.count();
  return model;
}

llvm::Expected<std::vector<TensorBuffer>>
CompiledModel::allocateOutputs() const {
  std::vector<TensorBuffer> buffers;
  for (const TensorSpec &spec : signature.outputs) {
    TensorBuffer &buffer = buffers.emplace_back(spec);
    if (!buffer.isAllocated())
      return makeError("cannot allocate " + llvm::Twine(spec.getByteSize()) +
                       " bytes for output '" + spec.name + "'");
  }
  return buffers;
}

void CompiledModel::run(ArrayRef<const TensorBuffer *> inputs,
                        ArrayRef<TensorBuffer *> outputs) {
  assert(inputs.size() == signature.inputs.size() &&
         outputs.size() == signature.outputs.size() && "signature mismatch");
  // One slot per scalar the lowered function takes; `args` points at them.
  SmallVector<intptr_t, 64> slots;
  auto addMemref = [&](const void *data, ArrayRef<int64_t> shape) {
    intptr_t ptr = reinterpret_cast<intptr_t>(data);
    slots.push_back(ptr);
    if (barePointers)
      return;
    slots.push_back(ptr);
    slots.push_back(0);
    for (int64_t dim : shape)
      slots.push_back(dim);
    int64_t stride = 1;
    SmallVector<intptr_t, 8> strides(shape.size());
    for (int64_t i = int64_t(shape.size()) - 1; i >= 0; --i) {
      strides[i] = stride;
      stride *= shape[i];
    }
    slots.append(strides.begin(), strides.end());
  };
  for (auto [buffer, spec] : llvm::zip_equal(inputs, signature.inputs))
    addMemref(buffer->data(), spec.shape);
  for (auto [buffer, spec] : llvm::zip_equal(outputs, signature.outputs))
    addMemref(buffer->data(), spec.shape);

  SmallVector<void *, 64> args;
  args.reserve(slots.size());
  for (intptr_t &slot : slots)
    args.push_back(&slot);
  entryFn(args.data());
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

void mlir::graph::runtime::registerCompilerDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.insert<GraphDialect>();
}

/// Imports an ONNX model and writes it as MLIR bytecode. The import has a
/// context of its own, so that its copies of the weights are freed once it
/// is written. Errors are printed by the importer's diagnostic handler.
static llvm::Expected<std::string>
importONNXToBytecode(const llvm::MemoryBuffer &file,
                     llvm::ArrayRef<std::string> inputShapes) {
  ONNXImportOptions importOptions;
  for (const std::string &spec : inputShapes) {
    std::string message;
    if (failed(parseONNXInputShapes(spec, importOptions, message)))
      return makeError(message);
  }
  MLIRContext context;
  context.printOpOnDiagnostic(false);
  ONNXDiagnosticHandler diagnostics(&context);
  OwningOpRef<ModuleOp> module =
      importONNX(file.getMemBufferRef(), &context, importOptions);
  if (!module)
    return makeReportedError();
  std::string bytecode;
  llvm::raw_string_ostream os(bytecode);
  if (failed(writeBytecodeToFile(*module, os)))
    return makeError("cannot write '" + file.getBufferIdentifier() +
                     "' as MLIR bytecode");
  return bytecode;
}

llvm::Error
mlir::graph::runtime::loadModelFile(llvm::StringRef path,
                                    llvm::ArrayRef<std::string> inputShapes,
                                    llvm::SourceMgr &sourceMgr) {
  bool isONNX = path.ends_with_insensitive(".onnx");
  if (!inputShapes.empty() && !isONNX)
    return makeError("--input-shape applies to .onnx models only");
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/!isONNX);
  if (!file)
    return makeError("cannot read '" + path +
                     "': " + file.getError().message());
  if (!isONNX) {
    sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
    return llvm::Error::success();
  }
  // Imported, then handed on as MLIR bytecode: the compilation parses it
  // like any .mlir model, and the weights stay raw bytes on the way.
  llvm::Expected<std::string> bytecode =
      importONNXToBytecode(**file, inputShapes);
  if (!bytecode)
    return bytecode.takeError();
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(*bytecode, path), llvm::SMLoc());
  return llvm::Error::success();
}
