//===- TargetMachine.cpp - The target machine and LLVM's options ----------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The compiler's version (part of every cache key), the target machine for
// a CPU and its features, the CPU features code requires of its host, and
// the process-wide LLVM options code generation runs with.
//
//===----------------------------------------------------------------------===//

#include "graph/Compiler/Compile.h"

#include "graph/Runtime/Errors.h"
#include "graph/Target/CPU/CPUTarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"

#include <dlfcn.h>
#include <link.h>
#include <mutex>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::runtime;
using namespace mlir::graph::compiler;

//===----------------------------------------------------------------------===//
// The compiler's version
//===----------------------------------------------------------------------===//

/// The file of the executable or shared library that holds this code.
static std::string getOwnFile() {
  struct Search {
    uintptr_t address;
    std::string name;
    bool found = false;
  } search{reinterpret_cast<uintptr_t>(&getOwnFile), "", false};
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) {
        auto *search = static_cast<Search *>(data);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &phdr = info->dlpi_phdr[i];
          uintptr_t start = info->dlpi_addr + phdr.p_vaddr;
          if (phdr.p_type == PT_LOAD && search->address >= start &&
              search->address < start + phdr.p_memsz) {
            search->name = info->dlpi_name ? info->dlpi_name : "";
            search->found = true;
            return 1;
          }
        }
        return 0;
      },
      &search);
  // The main program has no name in the list.
  if (search.found && search.name.empty())
    return llvm::sys::fs::getMainExecutable(
        nullptr, reinterpret_cast<void *>(&getOwnFile));
  return search.name;
}

llvm::StringRef mlir::graph::compiler::getCompilerVersion() {
  static const std::string version = [] {
    std::string build = "unknown";
    std::string file = getOwnFile();
    if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> contents =
            llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                        /*RequiresNullTerminator=*/false)) {
      llvm::BLAKE3 hasher;
      hasher.update((*contents)->getBuffer());
      build = llvm::toHex(hasher.final<8>(), /*LowerCase=*/true);
    }
    return "graph-compiler build " + build + ", LLVM " LLVM_VERSION_STRING;
  }();
  return version;
}

//===----------------------------------------------------------------------===//
// Target
//===----------------------------------------------------------------------===//

/// Sets LLVM's option `name` to `value` unless the process was given it
/// explicitly (e.g. graph-run --post-RA-scheduler=true), which wins.
static void setDefaultOption(llvm::StringRef name, llvm::StringRef value) {
  auto options = llvm::cl::getRegisteredOptions();
  auto it = options.find(name);
  if (it != options.end() && it->second->getNumOccurrences() == 0)
    (void)it->second->addOccurrence(/*pos=*/1, it->first, value);
}

/// LLVM's options for our kernels, set once per process (LLVM has no
/// per-module switch for either):
///  - the post-RA list scheduler ("post-RA-scheduler", which the scheduling
///    models of recent x86 cores turn on at -O2 and above) took over half of
///    code generation on the long unrolled blocks of our kernels, for no
///    measurable latency;
///  - full unrolling of loops of at most 4 iterations ("unroll-full-max-
///    count"): LLVM fully unrolling every short loop (a 7x7 layer's pixels,
///    a tile's rows) grew MobileNetV2 from 47k to 108k instructions and its
///    code generation 8x; with no unrolling at all ResNet-18 ran 15% slower
///    on 2 threads; partial and runtime unrolling, and full unrolling of the
///    shortest loops, keep the speed (bench/README.md).
static void configureCodeGeneration() {
  static std::once_flag once;
  std::call_once(once, [] {
    setDefaultOption("post-RA-scheduler", "false");
    setDefaultOption("unroll-full-max-count", "4");
  });
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
mlir::graph::compiler::createTargetMachine(const CompileOptions &options,
                                           CodeTarget codeTarget) {
  configureCodeGeneration();
  // The one description of the target CPU, which the lowering's tile
  // choices ask too.
  llvm::Expected<CPUTarget> target =
      CPUTarget::get(options.targetCpu, options.targetFeatures);
  if (!target)
    return target.takeError();
  llvm::Triple triple(target->triple);
  std::string message;
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(triple, message);
  if (!llvmTarget)
    return makeError("cannot generate code for " + triple.str() + ": " +
                     message);
  llvm::TargetOptions targetOptions;
  std::optional<llvm::Reloc::Model> relocation;
  if (codeTarget == CodeTarget::Object)
    relocation = llvm::Reloc::PIC_;
  std::unique_ptr<llvm::TargetMachine> tm(llvmTarget->createTargetMachine(
      triple, target->cpu, target->features, targetOptions, relocation,
      std::nullopt, llvm::CodeGenOptLevel::Aggressive,
      /*JIT=*/codeTarget == CodeTarget::JIT));
  if (!tm)
    return makeError("cannot generate code for " + target->describe());
  return tm;
}

std::vector<std::string>
mlir::graph::compiler::getRequiredFeatures(const llvm::TargetMachine &tm) {
  const llvm::MCSubtargetInfo *info = tm.getMCSubtargetInfo();
  llvm::StringMap<bool> hostFeatures = llvm::sys::getHostCPUFeatures();
  std::vector<std::string> required;
  for (const llvm::SubtargetFeatureKV &kv : info->getAllProcessorFeatures())
    if (info->getFeatureBits().test(kv.Value) && hostFeatures.count(kv.Key) &&
        !CPUTarget::isSystemFeature(kv.Key))
      required.push_back(kv.Key);
  llvm::sort(required);
  return required;
}
