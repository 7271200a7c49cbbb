//===- SharedLibraryModel.cpp - A model compiled ahead of time ------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The library's metadata is read from its file before it is loaded, with a
// reader of ELF's symbol tables of our own (glibc's <elf.h>): the loader
// links no LLVM object-file library.
//
//===----------------------------------------------------------------------===//

#include "graph/Runtime/SharedLibraryModel.h"

#include "graph/Runtime/AllocationCounter.h"
#include "graph/Runtime/Errors.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <dlfcn.h>
#include <elf.h>

#include <cstring>
#include <fstream>
#include <optional>

using namespace mlir::graph::runtime;

/// The object file type (ET_DYN, ET_REL, ...) of a 64-bit ELF file for this
/// host's byte order, or nothing.
static std::optional<uint16_t> readELFType(llvm::StringRef path) {
  std::ifstream file(path.str(), std::ios::binary);
  Elf64_Ehdr header;
  if (!file.read(reinterpret_cast<char *>(&header), sizeof(header)))
    return std::nullopt;
  constexpr unsigned char kHostData =
      llvm::sys::IsLittleEndianHost ? ELFDATA2LSB : ELFDATA2MSB;
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_ident[EI_DATA] != kHostData)
    return std::nullopt;
  return header.e_type;
}

bool mlir::graph::runtime::isSharedLibrary(llvm::StringRef path) {
  return readELFType(path) == ET_DYN;
}

bool mlir::graph::runtime::isObjectFile(llvm::StringRef path) {
  return readELFType(path) == ET_REL;
}

/// A struct of type T at `offset` in `bytes`, or nothing past its end.
template <typename T>
static std::optional<T> readAt(llvm::StringRef bytes, uint64_t offset) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T))
    return std::nullopt;
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

namespace {
enum class SymbolLookup { Found, Missing, Malformed };
} // namespace

/// The bytes that the symbol `name` defines in the ELF file `bytes`: from
/// the dynamic symbol table of a shared library, from the symbol table of a
/// relocatable object (whose symbol values are offsets in their section).
static SymbolLookup findSymbolContents(llvm::StringRef bytes,
                                       llvm::StringRef name,
                                       llvm::StringRef &contents) {
  std::optional<Elf64_Ehdr> header = readAt<Elf64_Ehdr>(bytes, 0);
  if (!header || header->e_shentsize != sizeof(Elf64_Shdr))
    return SymbolLookup::Malformed;
  bool relocatable = header->e_type == ET_REL;
  auto section = [&](uint64_t index) -> std::optional<Elf64_Shdr> {
    if (index >= header->e_shnum)
      return std::nullopt;
    return readAt<Elf64_Shdr>(bytes,
                              header->e_shoff + index * sizeof(Elf64_Shdr));
  };
  auto sectionBytes =
      [&](const Elf64_Shdr &shdr) -> std::optional<llvm::StringRef> {
    if (shdr.sh_type == SHT_NOBITS || shdr.sh_offset > bytes.size() ||
        bytes.size() - shdr.sh_offset < shdr.sh_size)
      return std::nullopt;
    return bytes.substr(shdr.sh_offset, shdr.sh_size);
  };
  for (uint64_t i = 0; i < header->e_shnum; ++i) {
    std::optional<Elf64_Shdr> table = section(i);
    if (!table)
      return SymbolLookup::Malformed;
    if (table->sh_type != (relocatable ? SHT_SYMTAB : SHT_DYNSYM))
      continue;
    std::optional<Elf64_Shdr> strtab = section(table->sh_link);
    std::optional<llvm::StringRef> symbols = sectionBytes(*table);
    std::optional<llvm::StringRef> names =
        strtab ? sectionBytes(*strtab) : std::nullopt;
    if (!symbols || !names)
      return SymbolLookup::Malformed;
    for (uint64_t offset = 0; offset + sizeof(Elf64_Sym) <= symbols->size();
         offset += sizeof(Elf64_Sym)) {
      Elf64_Sym symbol = *readAt<Elf64_Sym>(*symbols, offset);
      if (symbol.st_name >= names->size() ||
          names->substr(symbol.st_name).take_until([](char c) {
            return c == '\0';
          }) != name)
        continue;
      if (symbol.st_shndx == SHN_UNDEF)
        continue;
      std::optional<Elf64_Shdr> home = section(symbol.st_shndx);
      std::optional<llvm::StringRef> data =
          home ? sectionBytes(*home) : std::nullopt;
      if (!data)
        return SymbolLookup::Malformed;
      // In a library the value is an address; in an object file an offset.
      uint64_t base = relocatable ? 0 : home->sh_addr;
      if (symbol.st_value < base || symbol.st_value - base > data->size() ||
          symbol.st_size > data->size() - (symbol.st_value - base))
        return SymbolLookup::Malformed;
      contents = data->substr(symbol.st_value - base, symbol.st_size);
      return SymbolLookup::Found;
    }
  }
  return SymbolLookup::Missing;
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
  std::optional<uint16_t> type = readELFType(path);
  if (type != ET_DYN && type != ET_REL)
    return makeError("'" + path +
                     "' is not a model compiled by graph-compile: not an "
                     "ELF shared library or object file");
  llvm::StringRef contents;
  switch (findSymbolContents((*file)->getBuffer(), symbolName, contents)) {
  case SymbolLookup::Found:
    break;
  case SymbolLookup::Malformed:
    return makeError("'" + path +
                     "' is not a model compiled by graph-compile: not a "
                     "valid ELF file");
  case SymbolLookup::Missing:
    if (index > 0)
      return makeError("'" + path + "' has no specialization " +
                       llvm::Twine(index));
    return makeError("'" + path +
                     "' is not a model compiled by graph-compile: it has no " +
                     kModelMetadataSymbol + " symbol");
  }
  if (contents.empty() || contents.back() != '\0')
    return makeError("'" + path + "' has a malformed " + symbolName +
                     " symbol");
  llvm::Expected<ModelMetadata> metadata =
      parseModelMetadata(contents.drop_back());
  if (!metadata)
    return makeError("'" + path + "' cannot be run: " +
                     llvm::toString(metadata.takeError()));
  if (metadata->specialization != index)
    return makeError("'" + path + "' has a malformed " + symbolName +
                     " symbol");
  return metadata;
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
  model->targetDescription = metadata->targetDescription.empty()
                                 ? metadata->cpu
                                 : metadata->targetDescription;
  model->metadata = std::move(*metadata);
  return model;
}

void SharedLibraryModel::invoke(const void *const *inputs,
                                void *const *outputs) {
  runFn(inputs, outputs);
}
