//===- ModelLoader.cpp - Get a runnable model from a file -----------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Compiler/ModelLoader.h"

#include "graph/Compiler/Compile.h"
#include "graph/Runtime/Errors.h"
#include "graph/Runtime/LibraryLoader.h"
#include "graph/Runtime/SharedLibraryModel.h"
#include "graph/Target/CPU/CPUTarget.h"
#include "graph/Target/ONNX/ImportONNX.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Target/TargetMachine.h"

#include <chrono>
#include <optional>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::runtime;
using namespace mlir::graph::compiler;

static double millisSince(std::chrono::steady_clock::time_point start) {
  std::chrono::duration<double, std::milli> elapsed =
      std::chrono::steady_clock::now() - start;
  return elapsed.count();
}

namespace {
/// The model file read and compiled in `context`, with its diagnostics
/// printed: ONNX models are imported first.
struct ModelFile {
  llvm::SourceMgr sourceMgr;
  std::optional<SourceMgrDiagnosticHandler> diagnostics;
  std::optional<ONNXDiagnosticHandler> onnxDiagnostics;

  llvm::Error read(MLIRContext &context, llvm::StringRef path,
                   const LoadOptions &options, TimingScope &timing,
                   llvm::raw_ostream &os) {
    bool isONNX = path.ends_with_insensitive(".onnx");
    TimingScope importTimer = timing.nest(isONNX ? "import ONNX" : "read");
    if (llvm::Error error = loadModelFile(path, options.inputShapes, sourceMgr,
                                          os, options.inputValues))
      return error;
    diagnostics.emplace(sourceMgr, &context, os);
    // Locations in an ONNX model name the file and the node, not a line.
    if (isONNX)
      onnxDiagnostics.emplace(&context, os);
    return llvm::Error::success();
  }
};
} // namespace

/// Links the object into a temporary library, loads it and removes the
/// file: for a miss whose entry could not be written.
static llvm::Expected<std::unique_ptr<SharedLibraryModel>>
loadTemporaryLibrary(llvm::ArrayRef<char> object) {
  llvm::SmallString<256> path;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("graph-model", "so", path))
    return makeError("cannot create a temporary file: " + ec.message());
  llvm::Error linked = linkObjectIntoSharedLibrary(
      object, path, llvm::sys::path::filename(path));
  if (linked) {
    llvm::sys::fs::remove(path);
    return std::move(linked);
  }
  llvm::Expected<std::unique_ptr<SharedLibraryModel>> model =
      SharedLibraryModel::load(path);
  llvm::sys::fs::remove(path);
  return model;
}

/// The object file made by graph-compile at `path`, checked, linked into a
/// temporary library and loaded: the specialization for `inputShapes`.
static llvm::Expected<std::unique_ptr<SharedLibraryModel>>
loadObjectFile(llvm::StringRef path, llvm::ArrayRef<std::string> inputShapes) {
  // The same checks as for a library, before anything is linked.
  llvm::Expected<unsigned> specialization =
      selectSpecialization(path, inputShapes);
  if (!specialization)
    return specialization.takeError();
  llvm::Expected<ModelMetadata> metadata =
      readModelMetadata(path, *specialization);
  if (!metadata)
    return metadata.takeError();
  llvm::SmallString<256> library;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("graph-model", "so", library))
    return makeError("cannot create a temporary file: " + ec.message());
  llvm::Error linked =
      linkSharedLibrary(path, library, llvm::sys::path::filename(library));
  if (linked) {
    llvm::sys::fs::remove(library);
    return std::move(linked);
  }
  // Loaded, the library needs no file.
  llvm::Expected<std::unique_ptr<SharedLibraryModel>> model =
      SharedLibraryModel::load(library, true, *specialization);
  llvm::sys::fs::remove(library);
  return model;
}

llvm::Expected<std::unique_ptr<Executable>> mlir::graph::compiler::loadModel(
    MLIRContext &context, llvm::StringRef path, const LoadOptions &options,
    TimingScope &timing, LoadReport &report, llvm::raw_ostream &diagnostics) {
  auto start = std::chrono::steady_clock::now();
  report = LoadReport();
  // A model made by this call: its compile time is the whole call's.
  auto madeHere =
      [&](auto model) -> llvm::Expected<std::unique_ptr<Executable>> {
    if (!model)
      return model.takeError();
    (*model)->setCompileMillis(millisSince(start));
    report.coldMillis = (*model)->getCompileMillis();
    return std::move(*model);
  };
  auto compileWithJIT = [&](llvm::SourceMgr &sourceMgr) {
    report.source = LoadReport::Source::JIT;
    return madeHere(
        CompiledModel::compile(context, sourceMgr, options.compile, &timing));
  };

  bool objectFile = isObjectFile(path);
  if (objectFile || isSharedLibrary(path)) {
    if (options.compile.profile)
      return makeError("cannot profile '" + path +
                       "': it is compiled already, without the profiler's "
                       "hooks; profile the .mlir or .onnx model it was "
                       "compiled from");
    report.source = LoadReport::Source::SharedLibrary;
    TimingScope loadTimer = timing.nest(objectFile ? "link and load object file"
                                                   : "load shared library");
    // In a library of several specializations, the shapes choose one.
    llvm::Expected<std::unique_ptr<SharedLibraryModel>> model =
        objectFile ? loadObjectFile(path, options.inputShapes)
                   : loadLibrary(path, options.inputShapes);
    if (!model)
      return model.takeError();
    if ((*model)->getMetadata().entry != options.compile.entry &&
        options.compile.entry != "main")
      return makeError("'" + path + "' was compiled from @" +
                       (*model)->getMetadata().entry + ", not @" +
                       options.compile.entry);
    (*model)->setCompileMillis(millisSince(start));
    return std::move(*model);
  }

  // Code for a CPU this machine cannot run is not made, let alone called
  // (graph-compile makes it).
  llvm::Expected<CPUTarget> target =
      CPUTarget::get(options.compile.targetCpu, options.compile.targetFeatures);
  if (!target)
    return target.takeError();
  std::string whyNot;
  if (!target->runsOnHost(whyNot))
    return makeError("cannot run code for " + target->cpu + " here: " + whyNot);

  std::string directory = options.cacheDirectory.empty()
                              ? getDefaultCacheDirectory()
                              : options.cacheDirectory;
  if (options.useCache && directory.empty())
    report.cacheProblem = "no cache directory: neither XDG_CACHE_HOME nor "
                          "HOME is set (use --cache-dir)";
  if (options.useCache && path == "-")
    report.cacheProblem = "a model read from stdin is not cached";
  // Profiled code calls this process's hooks: the JIT links it to them.
  if (options.useCache && options.compile.profile)
    report.cacheProblem = "profiled code is compiled by the JIT, not cached";
  if (!options.useCache || !report.cacheProblem.empty()) {
    report.source = LoadReport::Source::JIT;
    ModelFile source;
    if (llvm::Error error =
            source.read(context, path, options, timing, diagnostics))
      return error;
    return compileWithJIT(source.sourceMgr);
  }

  CompileCache cache(directory, options.cacheSizeLimit);
  // The key covers the resolved target: the host's CPU and features when
  // none are given.
  std::string key;
  auto lookup = [&](double &coldMillis)
      -> llvm::Expected<std::unique_ptr<SharedLibraryModel>> {
    TimingScope lookupTimer = timing.nest("cache look-up");
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
        llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
    if (!file)
      return makeError("cannot read '" + path +
                       "': " + file.getError().message());
    llvm::Expected<std::unique_ptr<llvm::TargetMachine>> tm =
        createTargetMachine(options.compile, CodeTarget::Object);
    if (!tm)
      return tm.takeError();
    // The values that decide shapes are part of the key, as the shapes are.
    std::vector<std::string> specialization = options.inputShapes;
    for (const std::string &values : options.inputValues)
      specialization.push_back("value " + values);
    key = CompileCache::computeKey((*file)->getBuffer(), options.compile,
                                   specialization, **tm);
    return cache.lookup(key, coldMillis);
  };

  double coldMillis = 0;
  llvm::Expected<std::unique_ptr<SharedLibraryModel>> hit = lookup(coldMillis);
  if (!hit)
    return hit.takeError();
  report.cacheEntry = cache.getEntryPath(key);
  if (*hit) {
    report.source = LoadReport::Source::CacheHit;
    report.coldMillis = coldMillis;
    (*hit)->setCompileMillis(millisSince(start));
    report.warmMillis = (*hit)->getCompileMillis();
    return std::move(*hit);
  }

  // A miss: compile ahead of time into a new entry, then load it.
  report.source = LoadReport::Source::CacheMiss;
  ModelFile source;
  if (llvm::Error error =
          source.read(context, path, options, timing, diagnostics))
    return error;
  llvm::Expected<llvm::SmallVector<char, 0>> object =
      compileToObject(context, source.sourceMgr, options.compile, timing);
  if (!object)
    return object.takeError();
  // Entries that cannot be written: the model is linked and loaded from a
  // temporary file instead.
  if (llvm::Error error = cache.prepare()) {
    report.cacheProblem = llvm::toString(std::move(error));
    TimingScope linkTimer = timing.nest("link and load");
    return madeHere(loadTemporaryLibrary(*object));
  }
  llvm::Error stored = [&] {
    TimingScope storeTimer = timing.nest("link and store in the cache");
    return cache.store(key, *object, millisSince(start));
  }();
  if (stored) {
    // The object needs more than the C library, libm and OpenMP (a debugging
    // lowering that calls the runner library's memrefCopy, a function no one
    // defines): the JIT resolves what the process has, or says what it
    // cannot find.
    report.cacheProblem = llvm::toString(std::move(stored));
    return compileWithJIT(source.sourceMgr);
  }
  double cold = millisSince(start);
  auto warmStart = std::chrono::steady_clock::now();
  double recorded;
  llvm::Expected<std::unique_ptr<SharedLibraryModel>> model = lookup(recorded);
  if (!model)
    return model.takeError();
  if (!*model) {
    // Another process evicted or replaced the entry in between.
    llvm::Expected<std::unique_ptr<SharedLibraryModel>> fallback =
        loadTemporaryLibrary(*object);
    if (!fallback)
      return fallback.takeError();
    *model = std::move(*fallback);
  }
  report.warmMillis = millisSince(warmStart);
  (*model)->setCompileMillis(millisSince(start));
  report.coldMillis = cold + *report.warmMillis;
  return std::move(*model);
}

//===----------------------------------------------------------------------===//
// Sessions
//===----------------------------------------------------------------------===//

std::shared_ptr<MLIRContext> mlir::graph::compiler::createLoaderContext() {
  DialectRegistry registry;
  registerCompilerDialects(registry);
  auto context = std::make_shared<MLIRContext>(registry);
  context->printOpOnDiagnostic(false);
  return context;
}

/// `error` with the diagnostics printed while it happened: a ReportedError
/// becomes their text, other errors follow it.
static llvm::Error withDiagnostics(llvm::Error error,
                                   llvm::StringRef diagnostics) {
  std::string message;
  llvm::handleAllErrors(
      std::move(error), [&](const ReportedError &) {},
      [&](const llvm::ErrorInfoBase &info) { message = info.message(); });
  llvm::StringRef reported = diagnostics.trim();
  if (reported.empty())
    return makeError(message.empty() ? "the model could not be loaded"
                                     : message);
  return makeError(message.empty() ? reported : reported + "\n" + message);
}

/// The names of an InputValuesNeeded `error` (with the diagnostics printed
/// while it happened), or `error` with its diagnostics.
static llvm::Error keepNeededValues(llvm::Error error,
                                    llvm::StringRef diagnostics) {
  std::vector<std::string> names;
  llvm::Error rest = llvm::handleErrors(
      std::move(error),
      [&](const InputValuesNeeded &needed) { names = needed.names; });
  if (rest)
    return withDiagnostics(std::move(rest), diagnostics);
  return llvm::make_error<InputValuesNeeded>(std::move(names),
                                             diagnostics.trim().str());
}

static DeclaredTensor declare(const ONNXDeclaredValue &value) {
  DeclaredTensor tensor;
  tensor.name = value.name;
  if (value.elementType)
    tensor.elementType = fromMLIRType(value.elementType);
  tensor.ranked = value.hasShape;
  for (auto [dim, symbol] : llvm::zip_equal(value.shape, value.symbols)) {
    tensor.shape.push_back(ShapedType::isDynamic(dim) ? kSymbolicDim : dim);
    tensor.symbols.push_back(symbol);
  }
  return tensor;
}

llvm::Expected<std::optional<DeclaredSignature>>
mlir::graph::compiler::readDeclaredSignature(MLIRContext &context,
                                             llvm::StringRef path,
                                             const LoadOptions &options,
                                             llvm::raw_ostream &diagnostics) {
  if (isSharedLibrary(path) || isObjectFile(path))
    return readLibrarySignature(path, options.inputShapes);
  if (!path.ends_with_insensitive(".onnx"))
    return std::nullopt;
  ONNXImportOptions importOptions;
  for (const std::string &spec : options.inputShapes) {
    std::string error;
    if (failed(parseONNXInputShapes(spec, importOptions, error)))
      return makeError(error);
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return makeError("cannot read '" + path +
                     "': " + file.getError().message());
  ONNXDiagnosticHandler handler(&context, diagnostics);
  FailureOr<ONNXSignature> signature =
      readONNXSignature((*file)->getMemBufferRef(), &context, importOptions);
  if (failed(signature))
    return makeReportedError();
  DeclaredSignature declared;
  for (const ONNXDeclaredValue &input : signature->inputs)
    declared.inputs.push_back(declare(input));
  for (const ONNXDeclaredValue &output : signature->outputs)
    declared.outputs.push_back(declare(output));
  return declared;
}

namespace {
/// The models of a file that may need compiling: each load through
/// loadModel, in a context of its own that the code keeps.
class CompilingSource : public ModelSource {
public:
  CompilingSource(llvm::StringRef path, const LoadOptions &options)
      : path(path.str()), options(options) {}

  llvm::Expected<std::optional<DeclaredSignature>>
  readDeclaredSignature() override {
    std::shared_ptr<MLIRContext> context = createLoaderContext();
    std::string diagnostics;
    llvm::raw_string_ostream os(diagnostics);
    llvm::Expected<std::optional<DeclaredSignature>> declared =
        compiler::readDeclaredSignature(*context, path, options, os);
    if (!declared)
      return withDiagnostics(declared.takeError(), diagnostics);
    return declared;
  }

  llvm::Expected<std::shared_ptr<LoadedModel>>
  load(const std::vector<std::string> &inputShapes,
       const std::vector<std::string> &inputValues) override {
    auto model = std::make_shared<LoadedModel>();
    std::shared_ptr<MLIRContext> context = createLoaderContext();
    model->owner = context;
    LoadOptions loadOptions = options;
    loadOptions.inputShapes = inputShapes;
    loadOptions.inputValues = inputValues;
    std::string diagnostics;
    llvm::raw_string_ostream os(diagnostics);
    TimingScope noTiming;
    llvm::Expected<std::unique_ptr<Executable>> executable =
        loadModel(*context, path, loadOptions, noTiming, model->report, os);
    if (!executable)
      return keepNeededValues(executable.takeError(), diagnostics);
    model->executable = std::move(*executable);
    return model;
  }

private:
  std::string path;
  LoadOptions options;
};
} // namespace

llvm::Expected<std::unique_ptr<Session>>
mlir::graph::compiler::openSession(llvm::StringRef path,
                                   const LoadOptions &options,
                                   unsigned maxSpecializations) {
  return Session::open(std::make_unique<CompilingSource>(path, options),
                       options.inputShapes, maxSpecializations);
}
