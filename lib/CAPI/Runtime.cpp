//===- Runtime.cpp - Compile and run models from C ------------------------===//

#include "graph-c/Runtime.h"

#include "graph/Runtime/CompiledModel.h"
#include "graph/Runtime/Errors.h"
#include "graph/Runtime/Executable.h"
#include "graph/Runtime/ModelLoader.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <mutex>
#include <string>

using namespace mlir::graph::runtime;

namespace {
/// What a GraphModel points at.
struct Model {
  // The context outlives the executable that may refer to it.
  std::unique_ptr<mlir::MLIRContext> context;
  std::unique_ptr<Executable> executable;
};
} // namespace

static thread_local std::string lastError;

static Model *unwrap(GraphModel model) {
  return static_cast<Model *>(model.ptr);
}

static bool fail(const llvm::Twine &message) {
  lastError = message.str();
  return false;
}

GraphCompileOptions graphCompileOptionsGetDefault(void) {
  GraphCompileOptions options = {};
  options.optLevel = 3;
  options.useCache = true;
  return options;
}

GraphModel graphModelLoad(const char *path,
                          const GraphCompileOptions *options) {
  lastError.clear();
  if (!path) {
    fail("graphModelLoad: no path");
    return GraphModel{nullptr};
  }
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  GraphCompileOptions defaults = graphCompileOptionsGetDefault();
  if (!options)
    options = &defaults;

  LoadOptions loadOptions;
  loadOptions.compile.optLevel = options->optLevel;
  if (options->entry)
    loadOptions.compile.entry = options->entry;
  if (options->targetCpu)
    loadOptions.compile.targetCpu = options->targetCpu;
  if (options->targetFeatures)
    loadOptions.compile.targetFeatures = options->targetFeatures;
  if (options->inputShapes && *options->inputShapes)
    loadOptions.inputShapes.push_back(options->inputShapes);
  loadOptions.useCache = options->useCache;
  if (options->cacheDirectory)
    loadOptions.cacheDirectory = options->cacheDirectory;
  loadOptions.compile.maxThreads = options->maxThreads;
  if (loadOptions.compile.optLevel < 0 || loadOptions.compile.optLevel > 3) {
    fail("opt-level must be 0, 1, 2 or 3, got " +
         llvm::Twine(options->optLevel));
    return GraphModel{nullptr};
  }
  if (options->maxThreads < 0) {
    fail("maxThreads must be 0 (the default) or a count, got " +
         llvm::Twine(options->maxThreads));
    return GraphModel{nullptr};
  }

  auto model = std::make_unique<Model>();
  mlir::DialectRegistry registry;
  registerCompilerDialects(registry);
  model->context = std::make_unique<mlir::MLIRContext>(registry);
  model->context->printOpOnDiagnostic(false);

  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  mlir::TimingScope noTiming;
  LoadReport report;
  llvm::Expected<std::unique_ptr<Executable>> executable =
      loadModel(*model->context, path, loadOptions, noTiming, report, os);
  if (!executable) {
    std::string message;
    llvm::handleAllErrors(
        executable.takeError(), [&](const ReportedError &) {},
        [&](const llvm::ErrorInfoBase &error) { message = error.message(); });
    llvm::StringRef reported = llvm::StringRef(diagnostics).trim();
    fail(reported.empty()  ? llvm::Twine(message)
         : message.empty() ? llvm::Twine(reported)
                           : reported + "\n" + message);
    return GraphModel{nullptr};
  }
  model->executable = std::move(*executable);
  return GraphModel{model.release()};
}

void graphModelDestroy(GraphModel model) { delete unwrap(model); }

intptr_t graphModelGetNumInputs(GraphModel model) {
  return model.ptr ? unwrap(model)->executable->getSignature().inputs.size()
                   : 0;
}

intptr_t graphModelGetNumOutputs(GraphModel model) {
  return model.ptr ? unwrap(model)->executable->getSignature().outputs.size()
                   : 0;
}

static bool describe(llvm::ArrayRef<TensorSpec> specs, intptr_t index,
                     GraphTensorInfo *info, const char *kind) {
  if (index < 0 || index >= intptr_t(specs.size()) || !info)
    return fail(llvm::Twine("no ") + kind + " " + llvm::Twine(index));
  const TensorSpec &spec = specs[index];
  info->name = spec.name.c_str();
  info->elementType = GraphElementType(spec.elementType);
  info->rank = spec.shape.size();
  info->shape = spec.shape.data();
  info->numElements = spec.numElements;
  info->byteSize = spec.getByteSize();
  return true;
}

bool graphModelGetInput(GraphModel model, intptr_t index,
                        GraphTensorInfo *info) {
  if (!model.ptr)
    return fail("graphModelGetInput: null model");
  return describe(unwrap(model)->executable->getSignature().inputs, index, info,
                  "input");
}

bool graphModelGetOutput(GraphModel model, intptr_t index,
                         GraphTensorInfo *info) {
  if (!model.ptr)
    return fail("graphModelGetOutput: null model");
  return describe(unwrap(model)->executable->getSignature().outputs, index,
                  info, "output");
}

const char *graphElementTypeGetName(GraphElementType type) {
  if (type < GraphElementTypeF16 || type > GraphElementTypeBool)
    return "unknown";
  return getName(ElementType(type)).data();
}

bool graphModelRun(GraphModel model, const void *const *inputs,
                   void *const *outputs) {
  if (!model.ptr)
    return fail("graphModelRun: null model");
  Executable &executable = *unwrap(model)->executable;
  const ModelSignature &signature = executable.getSignature();
  if ((!inputs && !signature.inputs.empty()) ||
      (!outputs && !signature.outputs.empty()))
    return fail("graphModelRun: null buffer array");
  for (size_t i = 0; i < signature.inputs.size(); ++i)
    if (!inputs[i])
      return fail("graphModelRun: input '" + signature.inputs[i].name +
                  "' is null");
  for (size_t i = 0; i < signature.outputs.size(); ++i)
    if (!outputs[i])
      return fail("graphModelRun: output '" + signature.outputs[i].name +
                  "' is null");
  executable.run(inputs, outputs);
  return true;
}

double graphModelGetLoadMillis(GraphModel model) {
  return model.ptr ? unwrap(model)->executable->getCompileMillis() : 0;
}

const char *graphGetLastError(void) { return lastError.c_str(); }

static_assert(int(ElementType::F16) == GraphElementTypeF16 &&
                  int(ElementType::F32) == GraphElementTypeF32 &&
                  int(ElementType::I64) == GraphElementTypeI64 &&
                  int(ElementType::U64) == GraphElementTypeU64 &&
                  int(ElementType::Bool) == GraphElementTypeBool,
              "GraphElementType follows ElementType");
