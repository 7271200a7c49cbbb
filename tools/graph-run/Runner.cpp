//===- Runner.cpp - Compile a model and call it via the JIT ---------------===//
//
// The signature is read from the `func.func` before any pass runs: the
// lowering turns tensors into memrefs and drops the `graph.name` attributes,
// and graph-optimize never changes a function's signature. The lowered
// `llvm.func` is then checked against that signature, so that a lowering
// with another calling convention fails with a message, not a crash.
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

#include "AllocationCounter.h"

#include "graph/Conversion/Passes.h"
#include "graph/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Target/TargetMachine.h"

#include <chrono>
#include <cstdlib>

using namespace mlir;
using namespace graph_run;

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

static llvm::raw_ostream &error(bool quiet = false) {
  if (quiet)
    return llvm::nulls();
  return llvm::WithColor::error(llvm::errs(), "graph-run");
}

//===----------------------------------------------------------------------===//
// TensorBuffer
//===----------------------------------------------------------------------===//

void TensorBuffer::Free::operator()(float *ptr) const { std::free(ptr); }

TensorBuffer::TensorBuffer(int64_t numElements) : numElements(numElements) {
  constexpr size_t alignment = 64;
  size_t bytes = size_t(numElements) * sizeof(float);
  // aligned_alloc wants a multiple of the alignment, and a non-empty block.
  bytes = std::max(alignment, (bytes + alignment - 1) / alignment * alignment);
  storage.reset(static_cast<float *>(std::aligned_alloc(alignment, bytes)));
  // Exits with code 1 and the message, not a crash.
  if (!storage)
    llvm::reportFatalUsageError("graph-run: cannot allocate " + Twine(bytes) +
                                " bytes for a tensor");
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
  if (!tensorType || !tensorType.hasStaticShape() ||
      !tensorType.getElementType().isF32()) {
    func.emitError() << kind << " " << index << " of @" << func.getSymName()
                     << " has type " << type
                     << "; graph-run runs functions of static-shaped f32 "
                        "tensors only";
    return failure();
  }
  int64_t numElements = 1;
  for (int64_t dim : tensorType.getShape()) {
    if (llvm::MulOverflow(numElements, dim, numElements) ||
        numElements > INT64_MAX / int64_t(sizeof(float))) {
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
  spec.numElements = numElements;
  return spec;
}

static FailureOr<ModelSignature> readSignature(ModuleOp module,
                                               StringRef entry) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func) {
    error() << "no function @" << entry << " in the module";
    SmallVector<StringRef> names;
    for (auto other : module.getOps<func::FuncOp>())
      if (!other.isExternal())
        names.push_back(other.getSymName());
    if (!names.empty())
      llvm::errs() << "; it has @" << llvm::join(names, ", @")
                   << " (choose one with --entry)";
    llvm::errs() << "\n";
    return failure();
  }
  if (func.isExternal()) {
    func.emitError() << "@" << entry << " is a declaration without a body";
    return failure();
  }
  ModelSignature signature;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    FailureOr<TensorSpec> spec = describeTensor(
        func, func.getArgumentTypes()[i],
        func.getArgAttrOfType<StringAttr>(i, kNameAttr), "argument", i);
    if (failed(spec))
      return failure();
    signature.inputs.push_back(std::move(*spec));
  }
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i) {
    FailureOr<TensorSpec> spec = describeTensor(
        func, func.getResultTypes()[i],
        func.getResultAttrOfType<StringAttr>(i, kNameAttr), "result", i);
    if (failed(spec))
      return failure();
    signature.outputs.push_back(std::move(*spec));
  }
  return signature;
}

/// Checks that the lowered entry function takes one memref per tensor, inputs
/// then outputs, either as expanded descriptors (allocated and aligned
/// pointers, offset, sizes, strides) or as bare pointers, and returns nothing.
/// Sets `barePointers` to the convention found. Errors at an op go through
/// the context's diagnostic handlers.
static LogicalResult checkLoweredEntry(ModuleOp module, StringRef entry,
                                       const ModelSignature &signature,
                                       bool &barePointers, bool quiet) {
  auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(entry);
  if (!func || func.isExternal()) {
    error(quiet) << "the lowering left no llvm.func @" << entry << "\n";
    return failure();
  }
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
                     << ", not the calling convention graph-run expects: "
                     << signature.inputs.size() << " input and "
                     << signature.outputs.size()
                     << " output memrefs, returning nothing";
    return failure();
  }

  // The runtime functions are defined in the JIT by graph-run; a module that
  // defines one of its own would clash with them.
  for (auto other : module.getOps<LLVM::LLVMFuncOp>()) {
    StringRef name = other.getSymName();
    if (!other.isExternal() &&
        (name == "memrefCopy" ||
         llvm::is_contained(getAllocationSymbolNames(), name))) {
      other.emitError() << "function @" << name
                        << " clashes with graph-run's runtime function of "
                           "that name";
      return failure();
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CompiledModel
//===----------------------------------------------------------------------===//

CompiledModel::~CompiledModel() = default;

FailureOr<std::unique_ptr<CompiledModel>>
CompiledModel::compile(MLIRContext &context, llvm::SourceMgr &sourceMgr,
                       const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();

  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return failure();

  std::unique_ptr<CompiledModel> model(new CompiledModel());
  FailureOr<ModelSignature> signature = readSignature(*module, options.entry);
  if (failed(signature))
    return failure();
  model->signature = std::move(*signature);

  PassManager pm(&context, ModuleOp::getOperationName());
  graph::GraphOptimizeOptions optimizeOptions;
  optimizeOptions.optLevel = options.optLevel;
  if (failed(graph::buildGraphOptimizePipeline(pm, optimizeOptions))) {
    error(options.quiet) << "opt-level must be 0, 1, 2 or 3, got "
                         << options.optLevel << "\n";
    return failure();
  }
  if (options.loweringPipeline.empty()) {
    graph::buildGraphLowerToLLVMPipeline(pm);
  } else if (failed(parsePassPipeline(options.loweringPipeline, pm,
                                      options.quiet ? llvm::nulls()
                                                    : llvm::errs()))) {
    error(options.quiet) << "cannot parse the lowering pipeline '"
                         << options.loweringPipeline << "'\n";
    return failure();
  }
  if (failed(pm.run(*module))) {
    error(options.quiet) << "compiling @" << options.entry << " at -O"
                         << options.optLevel << " failed\n";
    return failure();
  }
  if (failed(checkLoweredEntry(*module, options.entry, model->signature,
                               model->barePointers, options.quiet)))
    return failure();
  // graph.name has served its purpose (the signature has been read); the
  // translation to LLVM IR would warn about an attribute it cannot place.
  StringAttr nameAttr = StringAttr::get(&context, kNameAttr);
  module->walk([&](FunctionOpInterface func) {
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      func.removeArgAttr(i, nameAttr);
    for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
      func.removeResultAttr(i, nameAttr);
  });

  // LLVM's own optimization and code generation: O3 for the host CPU at every
  // graph opt-level, so that only graph-optimize differs between levels.
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> tmBuilder =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder) {
    error(options.quiet) << "cannot target the host: "
                         << llvm::toString(tmBuilder.takeError()) << "\n";
    return failure();
  }
  tmBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> tm =
      tmBuilder->createTargetMachine();
  if (!tm) {
    error(options.quiet) << "cannot target the host: "
                         << llvm::toString(tm.takeError()) << "\n";
    return failure();
  }
  std::function<llvm::Error(llvm::Module *)> transformer =
      makeOptimizingTransformer(/*optLevel=*/3, /*sizeLevel=*/0, tm->get());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  engineOptions.enableGDBNotificationListener = false;
  engineOptions.enablePerfNotificationListener = false;
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      ExecutionEngine::create(*module, engineOptions, std::move(*tm));
  if (!engine) {
    error(options.quiet) << "cannot JIT-compile @" << options.entry << ": "
                         << llvm::toString(engine.takeError()) << "\n";
    return failure();
  }
  model->engine = std::move(*engine);
  // Before anything is materialized: the counting allocator must be what the
  // compiled code links against.
  model->engine->registerSymbols(getRuntimeSymbolMap);
  model->engine->initialize();
  // Looking the entry up generates its code, inside the compile time.
  llvm::Expected<void (*)(void **)> entryFn =
      model->engine->lookupPacked(options.entry);
  if (!entryFn) {
    error(options.quiet) << "cannot JIT-compile @" << options.entry << ": "
                         << llvm::toString(entryFn.takeError()) << "\n";
    return failure();
  }
  model->entryFn = *entryFn;

  std::chrono::duration<double, std::milli> elapsed =
      std::chrono::steady_clock::now() - start;
  model->compileMillis = elapsed.count();
  return model;
}

void CompiledModel::run(ArrayRef<const TensorBuffer *> inputs,
                        ArrayRef<TensorBuffer *> outputs) {
  assert(inputs.size() == signature.inputs.size() &&
         outputs.size() == signature.outputs.size() && "signature mismatch");
  // One slot per scalar the lowered function takes; `args` points at them.
  SmallVector<intptr_t, 64> slots;
  auto addMemref = [&](const float *data, ArrayRef<int64_t> shape) {
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
  warmUpOptions.quiet = true;
  FailureOr<std::unique_ptr<CompiledModel>> model =
      compile(context, sourceMgr, warmUpOptions);
  if (failed(model))
    return;
  TensorBuffer input(4), output(4);
  llvm::fill(input.values(), 0.0f);
  (*model)->run({&input}, {&output});
}
