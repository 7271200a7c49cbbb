//===- Cache.cpp - Compiled models kept between runs ----------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Compiler/Cache.h"

#include "graph/Compiler/Compile.h"
#include "graph/Runtime/Errors.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>
#include <chrono>
#include <cstring>

using namespace mlir::graph::runtime;
using namespace mlir::graph::compiler;

/// Changes with the entry format and the key's contents.
static constexpr llvm::StringLiteral kKeyVersion = "graph-cache 1";
static constexpr llvm::StringLiteral kTrailerMagic = "GRAPHCE1";

namespace {
/// After the library's bytes, little-endian.
struct Trailer {
  char magic[8];
  uint64_t librarySize;
  double coldMillis;
  uint64_t reserved;
  uint8_t checksum[32];
};
static_assert(sizeof(Trailer) == 64, "the trailer has a fixed layout");
} // namespace

std::string mlir::graph::compiler::getDefaultCacheDirectory() {
  llvm::SmallString<256> path;
  if (std::optional<std::string> xdg =
          llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      xdg && !xdg->empty()) {
    path = *xdg;
  } else if (std::optional<std::string> home =
                 llvm::sys::Process::GetEnv("HOME");
             home && !home->empty()) {
    path = *home;
    llvm::sys::path::append(path, ".cache");
  } else {
    return "";
  }
  llvm::sys::path::append(path, "graph");
  return path.str().str();
}

std::string CompileCache::computeKey(llvm::StringRef model,
                                     const CompileOptions &options,
                                     llvm::ArrayRef<std::string> inputShapes,
                                     const llvm::TargetMachine &tm) {
  llvm::BLAKE3 hasher;
  // Every field with its length, so that no two different lists of fields
  // hash the same bytes.
  auto add = [&](llvm::StringRef name, llvm::StringRef value) {
    uint64_t sizes[2] = {name.size(), value.size()};
    hasher.update(llvm::ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(sizes), sizeof(sizes)));
    hasher.update(name);
    hasher.update(value);
  };
  add("version", kKeyVersion);
  add("compiler", getCompilerVersion());
  add("model", model);
  add("entry", options.entry);
  add("opt-level", std::to_string(options.optLevel));
  add("lowering-pipeline", options.loweringPipeline);
  add("profile", options.profile ? "1" : "0");
  add("max-threads", std::to_string(options.maxThreads));
  add("triple", tm.getTargetTriple().str());
  add("cpu", tm.getTargetCPU());
  add("features", tm.getTargetFeatureString());
  for (const std::string &shape : inputShapes)
    add("input-shape", shape);
  return llvm::toHex(hasher.final<16>(), /*LowerCase=*/true);
}

std::string CompileCache::getEntryPath(llvm::StringRef key) const {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, key + ".so");
  return path.str().str();
}

/// Checks the trailer and the checksum of an entry's contents.
static bool checkEntry(llvm::StringRef contents, double &coldMillis) {
  if (contents.size() < sizeof(Trailer))
    return false;
  Trailer trailer;
  std::memcpy(&trailer, contents.data() + contents.size() - sizeof(Trailer),
              sizeof(Trailer));
  uint64_t size = llvm::support::endian::byte_swap(trailer.librarySize,
                                                   llvm::endianness::little);
  if (llvm::StringRef(trailer.magic, 8) != kTrailerMagic ||
      size != contents.size() - sizeof(Trailer))
    return false;
  llvm::BLAKE3 hasher;
  hasher.update(contents.take_front(size));
  auto checksum = hasher.final<32>();
  if (std::memcmp(checksum.data(), trailer.checksum, 32) != 0)
    return false;
  coldMillis = trailer.coldMillis;
  return true;
}

llvm::Expected<std::unique_ptr<SharedLibraryModel>>
CompileCache::lookup(llvm::StringRef key, double &coldMillis) {
  std::string path = getEntryPath(key);
  {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> contents =
        llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
    if (!contents)
      return nullptr;
    if (!checkEntry((*contents)->getBuffer(), coldMillis)) {
      // Truncated or corrupt: never loaded, compiled again.
      llvm::sys::fs::remove(path);
      return nullptr;
    }
  }
  // Recently used: the eviction goes by modification time.
  int fd;
  if (!llvm::sys::fs::openFileForWrite(path, fd, llvm::sys::fs::CD_OpenExisting,
                                       llvm::sys::fs::OF_Append)) {
    (void)llvm::sys::fs::setLastAccessAndModificationTime(
        fd, std::chrono::system_clock::now());
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  }
  return SharedLibraryModel::load(path);
}

llvm::Error CompileCache::prepare() {
  if (std::error_code ec = llvm::sys::fs::create_directories(directory))
    return makeError("cannot create the cache directory '" + directory +
                     "': " + ec.message());
  if (std::error_code ec =
          llvm::sys::fs::access(directory, llvm::sys::fs::AccessMode::Write))
    return makeError("cannot write to the cache directory '" + directory +
                     "': " + ec.message());
  return llvm::Error::success();
}

llvm::Error CompileCache::store(llvm::StringRef key,
                                llvm::ArrayRef<char> object,
                                double coldMillis) {
  if (std::error_code ec = llvm::sys::fs::create_directories(directory))
    return makeError("cannot create the cache directory '" + directory +
                     "': " + ec.message());
  std::string path = getEntryPath(key);
  llvm::SmallString<256> temporary;
  if (std::error_code ec = llvm::sys::fs::getPotentiallyUniqueFileName(
          path + ".tmp-%%%%%%%%.so", temporary))
    return makeError("cannot write to the cache: " + ec.message());
  std::string soname = ("graph-cache-" + key.take_front(16) + ".so").str();
  auto linkStart = std::chrono::steady_clock::now();
  if (llvm::Error error =
          linkObjectIntoSharedLibrary(object, temporary, soname))
    return error;
  std::chrono::duration<double, std::milli> linkMillis =
      std::chrono::steady_clock::now() - linkStart;

  auto fail = [&](const llvm::Twine &message) {
    llvm::sys::fs::remove(temporary);
    return makeError("cannot write the cache entry '" + path + "': " + message);
  };
  Trailer trailer;
  std::memcpy(trailer.magic, kTrailerMagic.data(), 8);
  // The cold compile time includes the link.
  trailer.coldMillis = coldMillis + linkMillis.count();
  trailer.reserved = 0;
  {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> library =
        llvm::MemoryBuffer::getFile(temporary, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
    if (!library)
      return fail(library.getError().message());
    trailer.librarySize = llvm::support::endian::byte_swap(
        uint64_t((*library)->getBufferSize()), llvm::endianness::little);
    llvm::BLAKE3 hasher;
    hasher.update((*library)->getBuffer());
    auto checksum = hasher.final<32>();
    std::memcpy(trailer.checksum, checksum.data(), 32);
  }
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(temporary, ec, llvm::sys::fs::OF_Append);
    if (ec)
      return fail(ec.message());
    os.write(reinterpret_cast<const char *>(&trailer), sizeof(trailer));
    os.close();
    if (os.has_error()) {
      std::string message = os.error().message();
      os.clear_error();
      return fail(message);
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path))
    return fail(ec.message());
  evict(key);
  return llvm::Error::success();
}

void CompileCache::evict(llvm::StringRef keep) {
  struct Entry {
    std::string path;
    uint64_t size;
    llvm::sys::TimePoint<> used;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  auto now = std::chrono::system_clock::now();
  std::string kept = getEntryPath(keep);
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(directory, ec), end;
       it != end && !ec; it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    llvm::ErrorOr<llvm::sys::fs::basic_file_status> status = it->status();
    if (!status)
      continue;
    // What a process that died while writing left behind.
    if (name.contains(".tmp-")) {
      if (now - status->getLastModificationTime() > std::chrono::hours(1))
        llvm::sys::fs::remove(it->path());
      continue;
    }
    if (!name.ends_with(".so"))
      continue;
    total += status->getSize();
    if (it->path() != kept)
      entries.push_back(
          {it->path(), status->getSize(), status->getLastModificationTime()});
  }
  if (total <= sizeLimit)
    return;
  std::sort(entries.begin(), entries.end(),
            [](const Entry &a, const Entry &b) { return a.used < b.used; });
  for (const Entry &entry : entries) {
    if (total <= sizeLimit)
      break;
    if (!llvm::sys::fs::remove(entry.path))
      total -= entry.size;
  }
}
