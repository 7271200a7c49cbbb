//===- SharedLibraryModel.cpp - A model compiled ahead of time ------------===//

#include "graph/Runtime/SharedLibraryModel.h"

#include "graph/Runtime/AllocationCounter.h"
#include "graph/Runtime/Compile.h"
#include "graph/Runtime/Errors.h"
#include "graph/Target/CPU/CPUTarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>

using namespace mlir::graph::runtime;

bool mlir::graph::runtime::isSharedLibrary(llvm::StringRef path) {
  llvm::file_magic magic;
  return !llvm::identify_magic(path, magic) &&
         magic == llvm::file_magic::elf_shared_object;
}

bool mlir::graph::runtime::isObjectFile(llvm::StringRef path) {
  llvm::file_magic magic;
  return !llvm::identify_magic(path, magic) &&
         magic == llvm::file_magic::elf_relocatable;
}

/// The bytes of `symbol`'s definition in `object`, or nothing.
static std::optional<llvm::StringRef>
getSymbolContents(const llvm::object::ELFObjectFileBase &object,
                  const llvm::object::ELFSymbolRef &symbol) {
  llvm::Expected<llvm::object::section_iterator> section = symbol.getSection();
  llvm::Expected<uint64_t> address = symbol.getAddress();
  if (!section || !address || *section == object.section_end()) {
    if (!section)
      llvm::consumeError(section.takeError());
    if (!address)
      llvm::consumeError(address.takeError());
    return std::nullopt;
  }
  llvm::Expected<llvm::StringRef> contents = (*section)->getContents();
  if (!contents) {
    llvm::consumeError(contents.takeError());
    return std::nullopt;
  }
  // In an object file the address is an offset in the section.
  uint64_t base = object.isRelocatableObject() ? 0 : (*section)->getAddress();
  uint64_t size = symbol.getSize();
  if (*address < base || *address - base > contents->size() ||
      size > contents->size() - (*address - base))
    return std::nullopt;
  return contents->substr(*address - base, size);
}

llvm::Expected<ModelMetadata>
mlir::graph::runtime::readModelMetadata(llvm::StringRef path, unsigned index) {
  std::string symbolName = getModelMetadataSymbol(index);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return makeError("cannot read '" + path +
                     "': " + file.getError().message());
  llvm::Expected<std::unique_ptr<llvm::object::ObjectFile>> object =
      llvm::object::ObjectFile::createObjectFile((*file)->getMemBufferRef());
  auto *elf =
      object ? llvm::dyn_cast<llvm::object::ELFObjectFileBase>(object->get())
             : nullptr;
  if (!elf) {
    if (!object)
      llvm::consumeError(object.takeError());
    return makeError("'" + path +
                     "' is not a model compiled by graph-compile: not an "
                     "ELF shared library or object file");
  }
  auto symbols = elf->isRelocatableObject() ? elf->symbols()
                                            : elf->getDynamicSymbolIterators();
  for (const llvm::object::ELFSymbolRef &symbol : symbols) {
    llvm::Expected<llvm::StringRef> name = symbol.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (*name != symbolName)
      continue;
    std::optional<llvm::StringRef> contents = getSymbolContents(*elf, symbol);
    if (!contents || contents->empty() || contents->back() != '\0')
      return makeError("'" + path + "' has a malformed " + symbolName +
                       " symbol");
    llvm::Expected<ModelMetadata> metadata =
        parseModelMetadata(contents->drop_back());
    if (!metadata)
      return makeError("'" + path + "' cannot be run: " +
                       llvm::toString(metadata.takeError()));
    if (metadata->specialization != index)
      return makeError("'" + path + "' has a malformed " + symbolName +
                       " symbol");
    return metadata;
  }
  if (index > 0)
    return makeError("'" + path + "' has no specialization " +
                     llvm::Twine(index));
  return makeError("'" + path +
                   "' is not a model compiled by graph-compile: it has no " +
                   kModelMetadataSymbol + " symbol");
}

SharedLibraryModel::~SharedLibraryModel() {
  if (handle)
    dlclose(handle);
}

llvm::Expected<std::unique_ptr<SharedLibraryModel>>
SharedLibraryModel::load(llvm::StringRef path, bool countAllocations,
                         unsigned specialization) {
  llvm::Expected<ModelMetadata> metadata =
      readModelMetadata(path, specialization);
  if (!metadata)
    return metadata.takeError();
  llvm::Expected<std::vector<std::string>> missing =
      getMissingHostFeatures(*metadata);
  if (!missing)
    return makeError("'" + path + "' cannot run here: " +
                     llvm::toString(missing.takeError()));
  if (!missing->empty())
    return makeError("'" + path + "' was compiled for CPU '" + metadata->cpu +
                     "' and uses CPU features this host lacks: " +
                     llvm::join(*missing, ", ") +
                     "; compile it again for this host (or with "
                     "--target-cpu/--target-features it has)");

  // dlopen searches the library path for a name without a slash.
  llvm::SmallString<256> absolute(path);
  if (std::error_code ec = llvm::sys::fs::make_absolute(absolute))
    return makeError("cannot load '" + path + "': " + ec.message());
  std::unique_ptr<SharedLibraryModel> model(new SharedLibraryModel());
  model->handle = dlopen(absolute.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!model->handle)
    return makeError("cannot load '" + path + "': " + dlerror());
  std::string runSymbol = getModelRunSymbol(specialization);
  model->runFn =
      reinterpret_cast<ModelRunFn>(dlsym(model->handle, runSymbol.c_str()));
  if (!model->runFn)
    return makeError("'" + path + "' has no " + runSymbol + " function");
  if (countAllocations) {
    for (llvm::StringRef name : getHookedAllocationFunctions()) {
      std::string hookName = (kModelHookPrefix + name).str();
      auto *hook = static_cast<void **>(dlsym(model->handle, hookName.c_str()));
      if (void *counting = getCountingAllocationFunction(name);
          hook && counting)
        *hook = counting;
    }
  }
  model->signature = metadata->signature;
  model->arenaBytes = metadata->arenaBytes;
  std::string features;
  for (const std::string &feature : metadata->features)
    features += (features.empty() ? "+" : ",+") + feature;
  llvm::Expected<CPUTarget> target = CPUTarget::get(metadata->cpu, features);
  if (target) {
    model->targetDescription = target->describe();
  } else {
    llvm::consumeError(target.takeError());
    model->targetDescription = metadata->cpu;
  }
  model->metadata = std::move(*metadata);
  return model;
}

llvm::Expected<std::unique_ptr<SharedLibraryModel>>
SharedLibraryModel::loadObjectFile(llvm::StringRef path, bool countAllocations,
                                   unsigned specialization) {
  // The same checks as for a library, before anything is linked.
  llvm::Expected<ModelMetadata> metadata =
      readModelMetadata(path, specialization);
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
      load(library, countAllocations, specialization);
  llvm::sys::fs::remove(library);
  return model;
}

void SharedLibraryModel::run(const void *const *inputs, void *const *outputs) {
  runFn(inputs, outputs);
}
