//===- AheadOfTime.cpp - A model to a shared library or object file -------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph-compile's work: the model compiled as the JIT compiles it
// (compiler::compileToObject), written as an object file or linked into a
// shared library, and the C header describing its entry point.
//
//===----------------------------------------------------------------------===//

#include "graph/Compiler/Compile.h"
#include "graph/Compiler/ModelABI.h"
#include "graph/Compiler/ModelLoader.h"
#include "graph/Driver/Driver.h"
#include "graph/Runtime/Errors.h"
#include "graph/Runtime/Session.h"
#include "graph/Target/ONNX/ImportONNX.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::runtime;
using namespace mlir::graph::compiler;

/// Writes `contents` to `path` through a temporary file renamed into place.
static llvm::Error writeFileAtomically(llvm::StringRef path,
                                       llvm::StringRef contents) {
  llvm::SmallString<256> temporary;
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueFile(path + ".tmp-%%%%%%", fd, temporary))
    return makeError("cannot write '" + path + "': " + ec.message());
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << contents;
  os.close();
  if (os.has_error()) {
    std::string message = os.error().message();
    os.clear_error();
    llvm::sys::fs::remove(temporary);
    return makeError("cannot write '" + path + "': " + message);
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    return makeError("cannot write '" + path + "': " + ec.message());
  }
  return llvm::Error::success();
}

/// Links `object` into the shared library `path` through a temporary file
/// renamed into place.
static llvm::Error writeSharedLibrary(llvm::StringRef path,
                                      llvm::ArrayRef<char> object) {
  llvm::SmallString<256> temporary;
  if (std::error_code ec = llvm::sys::fs::getPotentiallyUniqueFileName(
          path + ".tmp-%%%%%%.so", temporary))
    return makeError("cannot write '" + path + "': " + ec.message());
  if (llvm::Error error = linkObjectIntoSharedLibrary(
          object, temporary, llvm::sys::path::filename(path)))
    return error;
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    return makeError("cannot write '" + path + "': " + ec.message());
  }
  return llvm::Error::success();
}

/// The sets of shapes in `specs` (`NAME=AxB` items, comma-joined or not):
/// an input named a second time starts a new set.
static std::vector<std::vector<std::string>>
groupShapeSets(llvm::ArrayRef<std::string> specs) {
  std::vector<std::vector<std::string>> sets(1);
  llvm::StringSet<> names;
  for (const std::string &spec : specs) {
    llvm::SmallVector<llvm::StringRef> items;
    llvm::StringRef(spec).split(items, ',', /*MaxSplit=*/-1,
                                /*KeepEmpty=*/false);
    for (llvm::StringRef item : items) {
      llvm::StringRef name = item.split('=').first;
      if (!names.insert(name).second) {
        sets.emplace_back();
        names.clear();
        names.insert(name);
      }
      sets.back().push_back(item.str());
    }
  }
  return sets;
}

/// For a library of several specializations: the symbol of each input
/// dimension that the sets bind (the model's own name for it, or
/// `<input>_dim<d>` when it declares a number and the sets differ).
static llvm::Expected<std::vector<std::vector<std::string>>>
getInputSymbols(llvm::StringRef modelPath,
                llvm::ArrayRef<std::vector<std::string>> sets,
                llvm::raw_ostream &diagnostics) {
  DialectRegistry registry;
  registerCompilerDialects(registry);
  MLIRContext context(registry);
  llvm::Expected<std::optional<DeclaredSignature>> declared =
      readDeclaredSignature(context, modelPath, LoadOptions(), diagnostics);
  if (!declared)
    return declared.takeError();
  std::vector<ONNXImportOptions> shapes(sets.size());
  for (auto [set, parsed] : llvm::zip_equal(sets, shapes))
    for (const std::string &spec : set) {
      std::string error;
      if (failed(parseONNXInputShapes(spec, parsed, error)))
        return makeError(error);
    }
  std::vector<std::vector<std::string>> symbols;
  for (const DeclaredTensor &input : (*declared)->inputs) {
    std::vector<std::string> &dims = symbols.emplace_back();
    for (auto [d, symbol] : llvm::enumerate(input.symbols)) {
      // The size each set gives the dimension (the declared one if none).
      llvm::SmallVector<int64_t> sizes;
      for (const ONNXImportOptions &parsed : shapes) {
        auto it = parsed.inputShapes.find(input.name);
        sizes.push_back(it != parsed.inputShapes.end() && d < it->second.size()
                            ? it->second[d]
                            : input.shape[d]);
      }
      bool differs = llvm::any_of(
          sizes, [&](int64_t size) { return size != sizes.front(); });
      dims.push_back(!symbol.empty() ? symbol
                     : differs       ? input.name + "_dim" + std::to_string(d)
                                     : "");
    }
  }
  return symbols;
}

/// The model compiled for one set of input shapes into an object.
static llvm::Expected<llvm::SmallVector<char, 0>>
compileOne(llvm::StringRef modelPath, llvm::ArrayRef<std::string> inputShapes,
           const CompileOptions &compileOptions, TimingScope &timing,
           llvm::raw_ostream &diagnostics, ModelMetadata &metadata) {
  bool isONNX = modelPath.ends_with_insensitive(".onnx");
  llvm::SourceMgr sourceMgr;
  sourceMgr.setDiagHandler(driver::printSourceDiagnostic, &diagnostics);
  {
    TimingScope importTimer = timing.nest(isONNX ? "import ONNX" : "read");
    if (llvm::Error error =
            loadModelFile(modelPath, inputShapes, sourceMgr, diagnostics))
      return std::move(error);
  }

  DialectRegistry registry;
  registerCompilerDialects(registry);
  // Multithreaded: the lowering runs its function passes on the kernels in
  // parallel.
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  SourceMgrDiagnosticHandler sourceDiagnostics(sourceMgr, &context,
                                               diagnostics);
  std::optional<ONNXDiagnosticHandler> onnxDiagnostics;
  if (isONNX)
    onnxDiagnostics.emplace(&context, diagnostics);
  return compileToObject(context, sourceMgr, compileOptions, timing, &metadata);
}

llvm::Error mlir::graph::driver::compileModelToFile(
    llvm::StringRef modelPath, llvm::StringRef outputPath,
    const AheadOfTimeOptions &options, TimingScope &timing,
    llvm::raw_ostream &diagnostics) {
  llvm::StringRef extension = llvm::sys::path::extension(outputPath);
  bool sharedLibrary = extension == ".so";
  if (!sharedLibrary && extension != ".o")
    return makeError("the output '" + outputPath +
                     "' must end in .so (a shared library) or .o (an object "
                     "file)");

  std::vector<std::vector<std::string>> sets =
      groupShapeSets(options.inputShapes);
  CompileOptions compileOptions = options.compile;
  compileOptions.numSpecializations = sets.size();
  if (sets.size() > 1) {
    if (!modelPath.ends_with_insensitive(".onnx"))
      return makeError("several sets of --input-shape apply to .onnx models "
                       "only");
    for (size_t i = 0; i < sets.size(); ++i)
      for (size_t j = 0; j < i; ++j)
        if (llvm::join(sets[j], ",") == llvm::join(sets[i], ","))
          return makeError("the input shapes " + llvm::join(sets[i], ",") +
                           " are given twice");
    llvm::Expected<std::vector<std::vector<std::string>>> symbols =
        getInputSymbols(modelPath, sets, diagnostics);
    if (!symbols)
      return symbols.takeError();
    compileOptions.inputSymbols = std::move(*symbols);
  }
  std::vector<ModelMetadata> specializations(sets.size());
  llvm::SmallVector<llvm::SmallVector<char, 0>, 1> objects;
  for (auto [i, set] : llvm::enumerate(sets)) {
    compileOptions.specialization = i;
    std::optional<TimingScope> setTimer;
    if (sets.size() > 1)
      setTimer = timing.nest("specialization " + std::to_string(i) + " (" +
                             llvm::join(set, ",") + ")");
    llvm::Expected<llvm::SmallVector<char, 0>> object = compileOne(
        modelPath, set, compileOptions, setTimer ? *setTimer : timing,
        diagnostics, specializations[i]);
    if (!object)
      return object.takeError();
    objects.push_back(std::move(*object));
  }
  llvm::SmallVector<char, 0> object;
  if (objects.size() > 1) {
    TimingScope linkTimer = timing.nest("link the specializations");
    llvm::Expected<llvm::SmallVector<char, 0>> linked =
        linkRelocatable(objects);
    if (!linked)
      return linked.takeError();
    object = std::move(*linked);
  } else {
    object = std::move(objects.front());
  }

  {
    TimingScope writeTimer =
        timing.nest(sharedLibrary ? "link and write" : "write");
    if (llvm::Error error =
            sharedLibrary ? writeSharedLibrary(outputPath, object)
                          : writeFileAtomically(
                                outputPath,
                                llvm::StringRef(object.data(), object.size())))
      return error;
  }
  if (!options.headerPath.empty()) {
    if (llvm::Error error = writeFileAtomically(
            options.headerPath, generateCHeader(specializations, modelPath))) {
      // No library without the header asked for.
      llvm::sys::fs::remove(outputPath);
      return error;
    }
  }
  return llvm::Error::success();
}
