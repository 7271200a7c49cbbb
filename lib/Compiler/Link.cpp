//===- Link.cpp - Objects linked with lld ---------------------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Debian's ld.lld of the same LLVM version links an object into a shared
// library (against the C library, libm and, when the object calls it, the
// OpenMP runtime, and nothing else) and the parts of a module into one
// relocatable object.
//
//===----------------------------------------------------------------------===//

#include "graph/Compiler/Compile.h"

#include "graph/Runtime/Errors.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <dlfcn.h>
#include <gnu/libc-version.h>
#include <link.h>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::runtime;
using namespace mlir::graph::compiler;

//===----------------------------------------------------------------------===//
// Linking
//===----------------------------------------------------------------------===//

/// The path of the shared library that defines `address`.
static std::string getLibraryOf(const void *address) {
  Dl_info info;
  if (dladdr(address, &info) && info.dli_fname)
    return info.dli_fname;
  return "";
}

/// lld: the one LLVM was configured with, else ld.lld-22 or ld.lld on PATH.
static llvm::Expected<std::string> findLinker() {
#ifdef GRAPH_LLD_PATH
  if (llvm::sys::fs::can_execute(GRAPH_LLD_PATH))
    return std::string(GRAPH_LLD_PATH);
#endif
  for (std::string name :
       {"ld.lld-" + std::to_string(LLVM_VERSION_MAJOR), std::string("ld.lld")})
    if (llvm::ErrorOr<std::string> path = llvm::sys::findProgramByName(name))
      return *path;
  return makeError("cannot find lld (ld.lld) to link a shared library; "
                   "install Debian's lld package");
}

/// Whether the object calls the OpenMP runtime.
static llvm::Expected<bool> usesOpenMP(llvm::StringRef objectPath) {
  llvm::Expected<llvm::object::OwningBinary<llvm::object::ObjectFile>> object =
      llvm::object::ObjectFile::createObjectFile(objectPath);
  if (!object)
    return makeError("cannot read the object file '" + objectPath +
                     "': " + llvm::toString(object.takeError()));
  for (const llvm::object::SymbolRef &symbol : object->getBinary()->symbols()) {
    llvm::Expected<uint32_t> flags = symbol.getFlags();
    llvm::Expected<llvm::StringRef> name = symbol.getName();
    if (!flags || !name) {
      llvm::consumeError(flags.takeError());
      llvm::consumeError(name.takeError());
      continue;
    }
    if ((*flags & llvm::object::SymbolRef::SF_Undefined) &&
        (name->starts_with("__kmpc_") || name->starts_with("omp_")))
      return true;
  }
  return false;
}

/// The OpenMP runtime the process has loaded, or the one next to LLVM's
/// libraries.
static std::string findOpenMPRuntime() {
  if (void *symbol = dlsym(RTLD_DEFAULT, "__kmpc_fork_call"))
    return getLibraryOf(symbol);
  for (const char *candidate :
       {GRAPH_LLVM_LIBRARY_DIR "/libomp.so.5",
        GRAPH_LLVM_LIBRARY_DIR "/libomp.so", "libomp.so.5", "libomp.so"})
    if (void *handle = dlopen(candidate, RTLD_LAZY | RTLD_LOCAL))
      if (void *symbol = dlsym(handle, "__kmpc_fork_call"))
        return getLibraryOf(symbol);
  return "";
}

llvm::Error mlir::graph::compiler::linkSharedLibrary(llvm::StringRef objectPath,
                                                     llvm::StringRef outputPath,
                                                     llvm::StringRef soname) {
  llvm::Expected<std::string> linker = findLinker();
  if (!linker)
    return linker.takeError();
  // The very libraries this process runs with: their sonames become the
  // library's dependencies, with the symbol versions they define.
  // Functions that no sanitizer intercepts: under AddressSanitizer, qsort's
  // address is the interceptor's, inside the executable.
  std::string libc =
      getLibraryOf(reinterpret_cast<void *>(&::gnu_get_libc_version));
  std::string libm = getLibraryOf(
      reinterpret_cast<void *>(static_cast<float (*)(float)>(&::expf)));
  if (libc.empty() || libm.empty())
    return makeError("cannot find the C library and libm to link against");

  std::vector<std::string> args = {*linker,
                                   "-shared",
                                   "-o",
                                   outputPath.str(),
                                   "-soname",
                                   soname.str(),
                                   "-z",
                                   "defs",
                                   "-z",
                                   "noexecstack",
                                   "-z",
                                   "relro",
                                   "-z",
                                   "now",
                                   "--as-needed",
                                   "--hash-style=both",
                                   "--build-id=none",
                                   objectPath.str()};
  llvm::Expected<bool> openMP = usesOpenMP(objectPath);
  if (!openMP)
    return openMP.takeError();
  if (*openMP) {
    std::string libomp = findOpenMPRuntime();
    if (libomp.empty())
      return makeError("the model uses OpenMP, and the OpenMP runtime "
                       "(libomp.so.5) cannot be found");
    args.push_back(libomp);
    args.push_back("-rpath");
    args.push_back(llvm::sys::path::parent_path(libomp).str());
  }
  args.push_back(libm);
  args.push_back(libc);

  llvm::SmallString<128> messages;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("graph-lld", "txt", messages))
    return makeError("cannot create a temporary file: " + ec.message());
  llvm::SmallVector<llvm::StringRef> argRefs(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""),
                                                llvm::StringRef(messages),
                                                llvm::StringRef(messages)};
  std::string execError;
  int status = llvm::sys::ExecuteAndWait(*linker, argRefs, std::nullopt,
                                         redirects, 0, 0, &execError);
  std::string output;
  if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
          llvm::MemoryBuffer::getFile(messages))
    output = (*text)->getBuffer().trim().str();
  llvm::sys::fs::remove(messages);
  if (status != 0) {
    llvm::sys::fs::remove(outputPath);
    return makeError("linking '" + outputPath + "' with " + *linker +
                     " failed" + (execError.empty() ? "" : ": " + execError) +
                     (output.empty() ? "" : ":\n" + output));
  }
  return llvm::Error::success();
}

llvm::Error
mlir::graph::compiler::linkObjectIntoSharedLibrary(llvm::ArrayRef<char> object,
                                                   llvm::StringRef outputPath,
                                                   llvm::StringRef soname) {
  llvm::SmallString<256> objectPath;
  int fd;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          outputPath + ".tmp-%%%%%%.o", fd, objectPath))
    return makeError("cannot write '" + outputPath + "': " + ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << llvm::StringRef(object.data(), object.size());
    os.close();
    if (os.has_error()) {
      std::string message = os.error().message();
      os.clear_error();
      llvm::sys::fs::remove(objectPath);
      return makeError("cannot write '" + objectPath + "': " + message);
    }
  }
  llvm::Error linked = linkSharedLibrary(objectPath, outputPath, soname);
  llvm::sys::fs::remove(objectPath);
  return linked;
}

/// Writes `contents` to a new temporary file named like `model-%%%%%%.o`.
static llvm::Expected<std::string>
writeTemporaryFile(llvm::ArrayRef<char> contents, llvm::StringRef suffix) {
  llvm::SmallString<256> path;
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("graph-part", suffix, fd, path))
    return makeError("cannot create a temporary file: " + ec.message());
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << llvm::StringRef(contents.data(), contents.size());
  os.close();
  if (os.has_error()) {
    std::string message = os.error().message();
    os.clear_error();
    llvm::sys::fs::remove(path);
    return makeError("cannot write '" + path + "': " + message);
  }
  return std::string(path);
}

llvm::Expected<llvm::SmallVector<char, 0>>
mlir::graph::compiler::linkRelocatable(
    llvm::ArrayRef<llvm::SmallVector<char, 0>> objects) {
  llvm::Expected<std::string> linker = findLinker();
  if (!linker)
    return linker.takeError();
  llvm::SmallVector<std::string> files;
  llvm::scope_exit removeFiles([&] {
    for (const std::string &file : files)
      llvm::sys::fs::remove(file);
  });
  for (const llvm::SmallVector<char, 0> &object : objects) {
    llvm::Expected<std::string> path = writeTemporaryFile(object, "o");
    if (!path)
      return path.takeError();
    files.push_back(*path);
  }
  llvm::Expected<std::string> output = writeTemporaryFile({}, "o");
  if (!output)
    return output.takeError();
  files.push_back(*output);
  llvm::SmallVector<llvm::StringRef> args = {*linker, "-r", "-o", *output};
  for (size_t i = 0; i + 1 < files.size(); ++i)
    args.push_back(files[i]);
  std::string execError;
  int status = llvm::sys::ExecuteAndWait(*linker, args, std::nullopt, {}, 0, 0,
                                         &execError);
  if (status != 0)
    return makeError("linking the parts of the object with " + *linker +
                     " failed" + (execError.empty() ? "" : ": " + execError));
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> linked =
      llvm::MemoryBuffer::getFile(*output, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!linked)
    return makeError("cannot read the linked object: " +
                     linked.getError().message());
  llvm::StringRef bytes = (*linked)->getBuffer();
  return llvm::SmallVector<char, 0>(bytes.begin(), bytes.end());
}
