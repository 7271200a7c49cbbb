//===- ModelLoader.h - Get a runnable model from a file ---------*- C++ -*-===//
//
// What graph-run and the C API do with a model file: a shared library made
// by graph-compile is loaded; a .mlir or .onnx model is looked up in the
// compile cache and, on a miss, compiled ahead of time into a new entry and
// loaded from there; without the cache it is compiled by the JIT.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_RUNTIME_MODELLOADER_H
#define GRAPH_RUNTIME_MODELLOADER_H

#include "graph/Runtime/Cache.h"
#include "graph/Runtime/CompiledModel.h"
#include "graph/Runtime/Executable.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/Timing.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace graph {
namespace runtime {

struct LoadOptions {
  CompileOptions compile;
  /// For .onnx models: `NAME=AxBxC` each.
  std::vector<std::string> inputShapes;
  /// For .onnx models: the values of inputs that decide shapes,
  /// `NAME=v0,v1,...` each (see InputValuesNeeded).
  std::vector<std::string> inputValues;
  bool useCache = true;
  /// Empty for getDefaultCacheDirectory().
  std::string cacheDirectory;
  uint64_t cacheSizeLimit = kDefaultCacheSizeLimit;
};

/// How a model was obtained.
struct LoadReport {
  enum class Source { SharedLibrary, CacheHit, CacheMiss, JIT };
  Source source = Source::JIT;
  /// The cache entry, on a hit or a miss.
  std::string cacheEntry;
  /// Why the cache was not used although it was asked for (no directory,
  /// an entry that could not be written), or empty.
  std::string cacheProblem;
  /// The compile time that made the code (for a cache hit, recorded when
  /// the entry was made), and the time to load it from the cache (for a
  /// miss, measured by loading the new entry once more), in milliseconds.
  std::optional<double> coldMillis;
  std::optional<double> warmMillis;
};

/// Loads or compiles the model at `path` into `context` (which must have
/// the dialects of registerCompilerDialects). Diagnostics about the model
/// are printed to `diagnostics`; errors to report are returned.
llvm::Expected<std::unique_ptr<Executable>>
loadModel(MLIRContext &context, llvm::StringRef path,
          const LoadOptions &options, TimingScope &timing, LoadReport &report,
          llvm::raw_ostream &diagnostics = llvm::errs());

} // namespace runtime
} // namespace graph
} // namespace mlir

#endif // GRAPH_RUNTIME_MODELLOADER_H
