//===- Cache.h - Compiled models kept between runs --------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A directory of shared libraries, one per compiled model, named by a hash
// of everything that determines the code: the model's bytes, every option
// that changes the code, the resolved target CPU and features, and the
// compiler's own version. A hit skips the import, the passes, LLVM and the
// linker: the library is loaded as graph-compile's are.
//
// Each entry is the library followed by a trailer: a BLAKE3 checksum of the
// library's bytes, their length and the cold compile time. A truncated or
// corrupt entry fails the check and is compiled again, never loaded. Entries
// are written to a temporary file and renamed into place, so that processes
// sharing the cache see either no entry or a whole one. When the directory
// grows past its size limit, the least recently used entries go.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_COMPILER_CACHE_H
#define GRAPH_COMPILER_CACHE_H

#include "graph/Compiler/CompiledModel.h"
#include "graph/Runtime/SharedLibraryModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace mlir {
namespace graph {
namespace compiler {

using runtime::SharedLibraryModel;

/// $XDG_CACHE_HOME/graph, else $HOME/.cache/graph; empty when neither is
/// set.
std::string getDefaultCacheDirectory();

/// The default size limit of a cache directory, in bytes.
constexpr uint64_t kDefaultCacheSizeLimit = uint64_t(2) << 30;

class CompileCache {
public:
  CompileCache(std::string directory, uint64_t sizeLimit)
      : directory(std::move(directory)), sizeLimit(sizeLimit) {}

  llvm::StringRef getDirectory() const { return directory; }

  /// Creates the directory if need be, and checks that entries can be
  /// written there; the error says why not.
  llvm::Error prepare();

  /// The key of `model` (the model file's bytes) compiled with `options`
  /// (and `inputShapes`, for ONNX) for `tm`: a hex string.
  static std::string computeKey(llvm::StringRef model,
                                const CompileOptions &options,
                                llvm::ArrayRef<std::string> inputShapes,
                                const llvm::TargetMachine &tm);

  /// The file of the entry `key`.
  std::string getEntryPath(llvm::StringRef key) const;

  /// Loads the entry `key`, or returns null when there is none or it fails
  /// the check (then it is removed). `coldMillis` gets the compile time that
  /// made the entry. Errors are about loading a library that passed the
  /// check (a CPU this host lacks, say).
  llvm::Expected<std::unique_ptr<SharedLibraryModel>>
  lookup(llvm::StringRef key, double &coldMillis);

  /// Links `object` into the entry `key`, then removes the least recently
  /// used entries over the size limit. `coldMillis` is the compile time
  /// before the link, which the entry records with the link's.
  llvm::Error store(llvm::StringRef key, llvm::ArrayRef<char> object,
                    double coldMillis);

private:
  void evict(llvm::StringRef keep);

  std::string directory;
  uint64_t sizeLimit;
};

} // namespace compiler
} // namespace graph
} // namespace mlir

#endif // GRAPH_COMPILER_CACHE_H
