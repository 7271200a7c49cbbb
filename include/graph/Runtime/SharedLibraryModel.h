//===- SharedLibraryModel.h - A model compiled ahead of time ----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A shared library made by graph-compile (or an entry of the compile cache),
// loaded into this process. Before the library is loaded, its metadata is
// read from the file and checked: that it is a graph model of this ABI
// version, for this architecture, and that this CPU has every feature the
// code uses. Nothing of the library runs before those checks pass.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_RUNTIME_SHAREDLIBRARYMODEL_H
#define GRAPH_RUNTIME_SHAREDLIBRARYMODEL_H

#include "graph/Runtime/Executable.h"
#include "graph/Runtime/ModelMetadata.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace mlir {
namespace graph {
namespace runtime {

/// Reads graph_model_metadata (of specialization `index`, ModelMetadata.h) from
/// the shared library or object file at `path` without loading it. Errors
/// say why the file is not a model this runtime can read.
llvm::Expected<ModelMetadata> readModelMetadata(llvm::StringRef path,
                                                unsigned index = 0);

/// Whether the file at `path` is a shared library (ELF of type DYN) or an
/// object file (ELF of type REL): how tools tell a compiled model from a
/// model to compile.
bool isSharedLibrary(llvm::StringRef path);
bool isObjectFile(llvm::StringRef path);

class SharedLibraryModel : public Executable {
public:
  /// Checks and loads the library at `path`. With `countAllocations`, the
  /// library's allocation hooks are pointed at the runtime's counting
  /// functions (AllocationCounter.h).
  static llvm::Expected<std::unique_ptr<SharedLibraryModel>>
  load(llvm::StringRef path, bool countAllocations = true,
       unsigned specialization = 0);

  ~SharedLibraryModel() override;

  const ModelMetadata &getMetadata() const { return metadata; }

protected:
  void invoke(const void *const *inputs, void *const *outputs) override;

private:
  SharedLibraryModel() = default;

  void *handle = nullptr;
  ModelRunFn runFn = nullptr;
  ModelMetadata metadata;
};

} // namespace runtime
} // namespace graph
} // namespace mlir

#endif // GRAPH_RUNTIME_SHAREDLIBRARYMODEL_H
