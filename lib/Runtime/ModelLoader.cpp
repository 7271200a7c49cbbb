//===- ModelLoader.cpp - Get a runnable model from a file -----------------===//

#include "graph/Runtime/ModelLoader.h"

#include "graph/Runtime/Compile.h"
#include "graph/Runtime/Errors.h"
#include "graph/Runtime/SharedLibraryModel.h"
#include "graph/Target/CPU/CPUTarget.h"
#include "graph/Target/ONNX/ImportONNX.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Target/TargetMachine.h"

#include <chrono>
#include <optional>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::runtime;

static double millisSince(std::chrono::steady_clock::time_point start) {
  std::chrono::duration<double, std::milli> elapsed =
      std::chrono::steady_clock::now() - start;
  return elapsed.count();
}

namespace {
/// The model file read and compiled in `context`, with its diagnostics
/// printed: ONNX models are imported first.
struct ModelSource {
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

/// The specialization of the library at `path` whose inputs have the shapes
/// `inputShapes` give, or an error naming those it holds.
static llvm::Expected<unsigned>
selectSpecialization(llvm::StringRef path,
                     llvm::ArrayRef<std::string> inputShapes) {
  llvm::Expected<ModelMetadata> first = readModelMetadata(path);
  if (!first)
    return first.takeError();
  if (first->numSpecializations <= 1)
    return makeError("--input-shape applies to .onnx models only; '" + path +
                     "' is compiled already");
  ONNXImportOptions wanted;
  for (const std::string &spec : inputShapes) {
    std::string error;
    if (failed(parseONNXInputShapes(spec, wanted, error)))
      return makeError(error);
  }
  const auto &inputs = first->signature.inputs;
  for (const auto &entry : wanted.inputShapes)
    if (!findTensor(inputs, entry.getKey(), "arg"))
      return makeError("--input-shape names '" + entry.getKey() +
                       "', which is not an input of '" + path + "'");
  // An input that some specialization binds, named with its shape.
  auto describe = [&](const ModelSignature &signature) {
    llvm::SmallVector<std::string> shapes;
    for (auto [i, spec] : llvm::enumerate(signature.inputs)) {
      bool bound =
          i >= first->inputSymbols.size() ||
          llvm::any_of(first->inputSymbols[i],
                       [](const std::string &s) { return !s.empty(); });
      if (!bound)
        continue;
      llvm::SmallVector<std::string> dims;
      for (int64_t dim : spec.shape)
        dims.push_back(std::to_string(dim));
      shapes.push_back(spec.name + "=" + llvm::join(dims, "x"));
    }
    return llvm::join(shapes, ",");
  };
  llvm::SmallVector<std::string> held;
  for (unsigned i = 0; i < first->numSpecializations; ++i) {
    llvm::Expected<ModelMetadata> metadata =
        i == 0 ? llvm::Expected<ModelMetadata>(*first)
               : readModelMetadata(path, i);
    if (!metadata)
      return metadata.takeError();
    bool matches = llvm::all_of(wanted.inputShapes, [&](const auto &entry) {
      std::optional<size_t> index =
          findTensor(metadata->signature.inputs, entry.getKey(), "arg");
      return index && llvm::ArrayRef<int64_t>(
                          metadata->signature.inputs[*index].shape) ==
                          llvm::ArrayRef<int64_t>(entry.getValue());
    });
    if (matches)
      return i;
    held.push_back(describe(metadata->signature));
  }
  return makeError("'" + path + "' holds no specialization for " +
                   llvm::join(inputShapes, ",") + "; it holds " +
                   llvm::join(held, "; "));
}

llvm::Expected<std::unique_ptr<Executable>> mlir::graph::runtime::loadModel(
    MLIRContext &context, llvm::StringRef path, const LoadOptions &options,
    TimingScope &timing, LoadReport &report, llvm::raw_ostream &diagnostics) {
  auto start = std::chrono::steady_clock::now();
  report = LoadReport();

  bool objectFile = isObjectFile(path);
  if (objectFile || isSharedLibrary(path)) {
    // In a library of several specializations, the shapes choose one.
    unsigned specialization = 0;
    if (!options.inputShapes.empty()) {
      llvm::Expected<unsigned> selected =
          selectSpecialization(path, options.inputShapes);
      if (!selected)
        return selected.takeError();
      specialization = *selected;
    }
    if (options.compile.profile)
      return makeError("cannot profile '" + path +
                       "': it is compiled already, without the profiler's "
                       "hooks; profile the .mlir or .onnx model it was "
                       "compiled from");
    report.source = LoadReport::Source::SharedLibrary;
    TimingScope loadTimer = timing.nest(objectFile ? "link and load object file"
                                                   : "load shared library");
    llvm::Expected<std::unique_ptr<SharedLibraryModel>> model =
        objectFile
            ? SharedLibraryModel::loadObjectFile(path, true, specialization)
            : SharedLibraryModel::load(path, true, specialization);
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
    ModelSource source;
    if (llvm::Error error =
            source.read(context, path, options, timing, diagnostics))
      return error;
    llvm::Expected<std::unique_ptr<CompiledModel>> model =
        CompiledModel::compile(context, source.sourceMgr, options.compile,
                               &timing);
    if (!model)
      return model.takeError();
    (*model)->setCompileMillis(millisSince(start));
    report.coldMillis = (*model)->getCompileMillis();
    return std::move(*model);
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
  ModelSource source;
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
    llvm::Expected<std::unique_ptr<SharedLibraryModel>> model =
        loadTemporaryLibrary(*object);
    if (!model)
      return model.takeError();
    (*model)->setCompileMillis(millisSince(start));
    report.coldMillis = (*model)->getCompileMillis();
    return std::move(*model);
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
    report.source = LoadReport::Source::JIT;
    llvm::Expected<std::unique_ptr<CompiledModel>> model =
        CompiledModel::compile(context, source.sourceMgr, options.compile,
                               &timing);
    if (!model)
      return model.takeError();
    (*model)->setCompileMillis(millisSince(start));
    report.coldMillis = (*model)->getCompileMillis();
    return std::move(*model);
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
