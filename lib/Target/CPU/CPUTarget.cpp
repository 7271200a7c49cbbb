//===- CPUTarget.cpp - What code generation knows about the CPU -----------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Features are asked of LLVM's own subtarget description (MCSubtargetInfo),
// so that a CPU name implies exactly the features LLVM will generate code
// for, and a feature removed on the command line takes with it those that
// depend on it (-avx512f drops avx512vl, avx512bw, ...).
//
//===----------------------------------------------------------------------===//

#include "graph/Target/CPU/CPUTarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <mutex>

using namespace mlir::graph;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static void initializeLLVMTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargetMCs();
  });
}

static std::unique_ptr<llvm::MCSubtargetInfo>
createSubtarget(const std::string &triple, llvm::StringRef cpu,
                llvm::StringRef features) {
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(llvm::Triple(triple), error);
  if (!target)
    return nullptr;
  return std::unique_ptr<llvm::MCSubtargetInfo>(
      target->createMCSubtargetInfo(llvm::Triple(triple), cpu, features));
}

/// The host's features as an LLVM feature string (`+avx2,-avx512f,...`).
static std::string getHostFeatureString() {
  std::vector<std::string> features;
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    features.push_back((feature.second ? "+" : "-") + feature.first().str());
  llvm::sort(features);
  return llvm::join(features, ",");
}

/// Reads `/sys/devices/system/cpu/cpu0/cache/indexN/{level,type,size}` for
/// the data caches of the host (Linux); leaves the defaults where absent.
static void readHostCacheSizes(CPUTarget &target) {
  for (int index = 0; index < 8; ++index) {
    std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    auto read = [&](llvm::StringRef name) -> std::string {
      // As a stream: sysfs files claim a size they do not have.
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
          llvm::MemoryBuffer::getFileAsStream(dir + "/" + name.str());
      return file ? (*file)->getBuffer().trim().str() : std::string();
    };
    std::string level = read("level"), type = read("type"), size = read("size");
    if (level.empty() || size.empty())
      break;
    if (type == "Instruction")
      continue;
    int64_t bytes = 0;
    llvm::StringRef digits(size);
    int64_t scale = 1;
    if (digits.consume_back("K"))
      scale = 1024;
    else if (digits.consume_back("M"))
      scale = 1024 * 1024;
    if (digits.getAsInteger(10, bytes) || bytes <= 0)
      continue;
    bytes *= scale;
    if (level == "1")
      target.l1dBytes = bytes;
    else if (level == "2")
      target.l2Bytes = bytes;
    else if (level == "3")
      target.l3Bytes = bytes;
  }
}

/// Vector width, register file and FMA from the subtarget's features.
static void describeVectorUnit(CPUTarget &target,
                               const llvm::MCSubtargetInfo &subtarget) {
  llvm::Triple triple(target.triple);
  if (triple.isX86()) {
    if (subtarget.checkFeatures("+avx512f")) {
      target.isa = VectorISA::AVX512;
      target.vectorBytes = 64;
      target.numVectorRegisters = 32;
    } else if (subtarget.checkFeatures("+avx")) {
      target.isa =
          subtarget.checkFeatures("+avx2") ? VectorISA::AVX2 : VectorISA::AVX;
      target.vectorBytes = 32;
      target.numVectorRegisters = 16;
    } else if (subtarget.checkFeatures("+sse4.2")) {
      target.isa = VectorISA::SSE42;
      target.vectorBytes = 16;
      target.numVectorRegisters = 16;
    } else {
      target.isa = VectorISA::Generic;
      target.vectorBytes = 16;
      target.numVectorRegisters = 16;
    }
    target.hasFMA = subtarget.checkFeatures("+fma");
    target.hasVNNI = target.isa == VectorISA::AVX512 &&
                     subtarget.checkFeatures("+avx512vnni");
    // Defaults for a CPU that is not this machine, fitted to current parts:
    // AVX-512 cores (Zen 4, Ice Lake and later) have 1-2 MiB of L2, AVX2
    // ones 256 KiB (Haswell) to 512 KiB (Zen 2/3).
    target.l1dBytes = 32 * 1024;
    target.l2Bytes = target.isa == VectorISA::AVX512 ? 1024 * 1024 : 512 * 1024;
    return;
  }
  if (triple.isAArch64()) {
    target.isa =
        subtarget.checkFeatures("+neon") ? VectorISA::NEON : VectorISA::Generic;
    target.vectorBytes = 16;
    target.numVectorRegisters = 32;
    target.hasFMA = target.isa == VectorISA::NEON;
    // Neoverse N1/V1 and Cortex-A7x: 64 KiB L1d, 1 MiB L2.
    target.l1dBytes = 64 * 1024;
    target.l2Bytes = 1024 * 1024;
    return;
  }
  target.isa = VectorISA::Generic;
}

llvm::Expected<CPUTarget> CPUTarget::get(llvm::StringRef cpu,
                                         llvm::StringRef features) {
  initializeLLVMTargets();
  bool isHost = cpu.empty() || cpu == "host";
  CPUTarget target;
  target.cpu = isHost ? llvm::sys::getHostCPUName().str() : cpu.str();

  // The triple: the host's if its target knows the CPU, else the first
  // other 64-bit target we generate code for that does.
  std::string hostTriple = llvm::sys::getProcessTriple();
  for (const std::string &candidate :
       {hostTriple, std::string("x86_64-unknown-linux-gnu"),
        std::string("aarch64-unknown-linux-gnu")}) {
    // Asked with no CPU: a subtarget made for an unknown one complains.
    std::unique_ptr<llvm::MCSubtargetInfo> probe =
        createSubtarget(candidate, "", "");
    if (probe && (isHost || probe->isCPUStringValid(target.cpu))) {
      target.triple = candidate;
      break;
    }
  }
  if (target.triple.empty())
    return makeError("unknown target CPU '" + target.cpu +
                     "': not an x86-64 or AArch64 CPU that LLVM knows");

  // Every requested feature must be one the target has.
  std::unique_ptr<llvm::MCSubtargetInfo> plain =
      createSubtarget(target.triple, target.cpu, "");
  llvm::SmallVector<llvm::StringRef> requested;
  features.split(requested, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef feature : requested) {
    feature = feature.trim();
    if (feature.size() < 2 || (feature[0] != '+' && feature[0] != '-'))
      return makeError("target feature '" + feature +
                       "' must start with '+' (add) or '-' (remove)");
    llvm::StringRef name = feature.drop_front();
    if (!llvm::any_of(
            plain->getAllProcessorFeatures(),
            [&](const llvm::SubtargetFeatureKV &kv) { return name == kv.Key; }))
      return makeError("unknown target feature '" + name + "' for " +
                       llvm::Triple(target.triple).getArchName());
  }

  std::string base = isHost ? getHostFeatureString() : std::string();
  llvm::SmallVector<std::string> all;
  if (!base.empty())
    all.push_back(base);
  for (llvm::StringRef feature : requested)
    all.push_back(feature.trim().str());
  target.features = llvm::join(all, ",");

  std::unique_ptr<llvm::MCSubtargetInfo> subtarget =
      createSubtarget(target.triple, target.cpu, target.features);
  describeVectorUnit(target, *subtarget);
  if (isHost)
    readHostCacheSizes(target);
  return target;
}

const CPUTarget &CPUTarget::getHost() {
  static const CPUTarget host = [] {
    llvm::Expected<CPUTarget> target = get("", "");
    if (!target) {
      // Host detection knows the host; only a broken LLVM gets here.
      llvm::consumeError(target.takeError());
      return CPUTarget();
    }
    return *target;
  }();
  return host;
}

bool CPUTarget::isSystemFeature(llvm::StringRef feature) {
  // System and privileged instructions only come from intrinsics, which the
  // kernels do not use, and hypervisors hide some of them: a Zen 5 under
  // KVM has no invpcid or fsgsbase, which every Haswell has.
  static constexpr llvm::StringLiteral kSystemFeatures[] = {
      "clflushopt", "clwb",    "clzero",    "enqcmd",    "fsgsbase", "hreset",
      "invpcid",    "kl",      "lwp",       "movdir64b", "movdiri",  "mwaitx",
      "pconfig",    "pku",     "ptwrite",   "rdpid",     "rdpru",    "rdrnd",
      "rdseed",     "rtm",     "serialize", "sgx",       "shstk",    "tsxldtrk",
      "uintr",      "waitpkg", "wbnoinvd",  "widekl",    "xsave",    "xsavec",
      "xsaveopt",   "xsaves"};
  return llvm::is_contained(kSystemFeatures, feature);
}

bool CPUTarget::runsOnHost(std::string &reason) const {
  const CPUTarget &host = getHost();
  llvm::Triple mine(triple), theirs(host.triple);
  if (mine.getArch() != theirs.getArch()) {
    reason = "the code is for " + mine.getArchName().str() +
             ", this machine is " + theirs.getArchName().str();
    return false;
  }
  std::unique_ptr<llvm::MCSubtargetInfo> code =
      createSubtarget(triple, cpu, features);
  if (!code)
    return true;
  // Host detection lists the instruction-set features (from cpuid), each
  // present or not; tuning features are not among them.
  for (const auto &feature : llvm::sys::getHostCPUFeatures()) {
    if (feature.second)
      continue;
    llvm::StringRef name = feature.first();
    if (isSystemFeature(name))
      continue;
    if (code->checkFeatures(("+" + name).str())) {
      reason = "the code uses '" + name.str() +
               "', which this machine's CPU (" + host.cpu + ") does not have";
      return false;
    }
  }
  return true;
}

unsigned CPUTarget::getIntegerDotWeightBits() const {
  if (hasVNNI)
    return 8;
  if (isa == VectorISA::AVX512 || isa == VectorISA::AVX2)
    return 16;
  return 0;
}

std::string CPUTarget::getISAName() const {
  switch (isa) {
  case VectorISA::Generic:
    return "generic";
  case VectorISA::SSE42:
    return "SSE4.2";
  case VectorISA::AVX:
    return hasFMA ? "AVX+FMA" : "AVX";
  case VectorISA::AVX2:
    return hasFMA ? "AVX2+FMA" : "AVX2";
  case VectorISA::AVX512:
    return "AVX-512";
  case VectorISA::NEON:
    return "NEON";
  }
  return "generic";
}

std::string CPUTarget::describe() const {
  std::string result;
  llvm::raw_string_ostream os(result);
  os << cpu << " (" << llvm::Triple(triple).getArchName() << ", "
     << getISAName() << ": " << getF32Lanes() << " f32 lanes, "
     << numVectorRegisters << " vector registers" << (hasFMA ? ", FMA" : "")
     << "; L1d " << l1dBytes / 1024 << " KiB, L2 " << l2Bytes / 1024 << " KiB)";
  return result;
}
