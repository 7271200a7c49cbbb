//===- AheadOfTime.cpp - A model to a shared library or object file -------===//
//
// graph-compile's work: the model compiled as the JIT compiles it
// (runtime::compileToObject), written as an object file or linked into a
// shared library, and the C header describing its entry point.
//
//===----------------------------------------------------------------------===//

#include "graph/Driver/Driver.h"
#include "graph/Runtime/Compile.h"
#include "graph/Runtime/Errors.h"
#include "graph/Runtime/ModelABI.h"
#include "graph/Target/ONNX/ImportONNX.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::runtime;

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

  bool isONNX = modelPath.ends_with_insensitive(".onnx");
  llvm::SourceMgr sourceMgr;
  sourceMgr.setDiagHandler(printSourceDiagnostic, &diagnostics);
  {
    TimingScope importTimer = timing.nest(isONNX ? "import ONNX" : "read");
    if (llvm::Error error = loadModelFile(modelPath, options.inputShapes,
                                          sourceMgr, diagnostics))
      return error;
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

  ModelMetadata metadata;
  llvm::Expected<llvm::SmallVector<char, 0>> object =
      compileToObject(context, sourceMgr, options.compile, timing, &metadata);
  if (!object)
    return object.takeError();

  {
    TimingScope writeTimer =
        timing.nest(sharedLibrary ? "link and write" : "write");
    if (llvm::Error error =
            sharedLibrary ? writeSharedLibrary(outputPath, *object)
                          : writeFileAtomically(
                                outputPath, llvm::StringRef(object->data(),
                                                            object->size())))
      return error;
  }
  if (!options.headerPath.empty()) {
    if (llvm::Error error = writeFileAtomically(
            options.headerPath, generateCHeader(metadata, modelPath))) {
      // No library without the header asked for.
      llvm::sys::fs::remove(outputPath);
      return error;
    }
  }
  return llvm::Error::success();
}
