//===- LibraryLoader.h - Run the libraries graph-compile makes --*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What a program that only runs compiled models needs: a library made by
// graph-compile loaded, the specialization chosen by the input shapes when
// it holds several, and a ModelSource over it for a Session. Nothing here
// compiles; the compiler's loader (graph/Compiler/ModelLoader.h) adds models
// to compile.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_RUNTIME_LIBRARYLOADER_H
#define GRAPH_RUNTIME_LIBRARYLOADER_H

#include "graph/Runtime/Session.h"
#include "graph/Runtime/SharedLibraryModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir {
namespace graph {
namespace runtime {

/// The specialization of the library (or object file) at `path` whose
/// inputs have the shapes `inputShapes` give (`NAME=AxBxC` each; 0 when
/// there are none), or an error naming those it holds.
llvm::Expected<unsigned>
selectSpecialization(llvm::StringRef path,
                     llvm::ArrayRef<std::string> inputShapes);

/// The signature that a library of several specializations declares: the
/// symbols of its inputs' dimensions, with those `inputShapes` fix filled
/// in; an output's dimension is symbolic where the specializations differ.
/// None for a library of one specialization.
llvm::Expected<std::optional<DeclaredSignature>>
readLibrarySignature(llvm::StringRef path,
                     llvm::ArrayRef<std::string> inputShapes);

/// Loads the specialization of the library at `path` for `inputShapes`.
llvm::Expected<std::unique_ptr<SharedLibraryModel>>
loadLibrary(llvm::StringRef path, llvm::ArrayRef<std::string> inputShapes,
            bool countAllocations = true);

/// The models of the library at `path` for a Session.
std::unique_ptr<ModelSource> createLibrarySource(llvm::StringRef path,
                                                 bool countAllocations = true);

} // namespace runtime
} // namespace graph
} // namespace mlir

#endif // GRAPH_RUNTIME_LIBRARYLOADER_H
