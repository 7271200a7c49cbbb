//===- CPUTarget.h - What code generation knows about the CPU ---*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one description of the processor that code is generated for: the LLVM
// triple, CPU name and feature string that the TargetMachine is built from,
// and the facts that tiling decisions depend on (vector width, number of
// vector registers, FMA, cache sizes). Every pass that chooses a tile asks
// it; none keeps its own idea of the ISA.
//
// It comes from LLVM's host detection, or from an explicit CPU name and
// feature list (`--target-cpu znver3 --target-features -avx512f`), so that a
// test can pin a target and a user can build for another machine.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_TARGET_CPU_CPUTARGET_H
#define GRAPH_TARGET_CPU_CPUTARGET_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mlir {
namespace graph {

/// The vector instruction set that tiles are sized for.
enum class VectorISA {
  /// No usable vector unit known: 16-byte vectors, 16 registers.
  Generic,
  SSE42,
  AVX,
  AVX2,
  AVX512,
  NEON,
};

struct CPUTarget {
  /// For LLVM: the target triple, CPU name and full feature string.
  std::string triple;
  std::string cpu;
  std::string features;

  VectorISA isa = VectorISA::Generic;
  /// Bytes in the widest vector register the code uses.
  unsigned vectorBytes = 16;
  /// Architectural vector registers (the register file tiles must fit).
  unsigned numVectorRegisters = 16;
  /// Fused multiply-add: an FMA is one instruction, not two.
  bool hasFMA = false;
  /// AVX-512 VNNI: `vpdpbusd` adds four u8 x s8 products into each i32 lane
  /// of a 64-byte vector in one instruction.
  bool hasVNNI = false;
  /// Data cache sizes in bytes (per core for L1 and L2).
  int64_t l1dBytes = 32 * 1024;
  int64_t l2Bytes = 512 * 1024;
  int64_t l3Bytes = 8 * 1024 * 1024;
  /// The widest load that register tiles count as one: a wider vector load
  /// counts as vectorBytes / fullRateLoadBytes loads when tiles are scored
  /// (chooseConvConfig). Measured on an AVX-512 core (Emerald Rapids):
  /// scoring 64-byte weight loads as two picks 1x14-pixel tiles of 32
  /// filters over 2x2 tiles of 64 for ResNet-18's 14x14x256 layers (1.4
  /// against 2.1 ms); the same weighting on AVX2 was slower.
  int64_t fullRateLoadBytes = 32;

  /// Signed bits the centered weights (`b - zero_point`) of an 8-bit
  /// integer product may take in the target's integer dot product: 8 for
  /// VNNI's u8 x s8 `vpdpbusd`, 16 for `pmaddwd` (i16 x i16, AVX-512 and
  /// AVX2), 0 where the integer kernels have no instruction.
  unsigned getIntegerDotWeightBits() const;

  /// f32 elements in one vector register.
  int64_t getF32Lanes() const { return vectorBytes / 4; }

  /// `AVX-512`, `AVX2+FMA`, `AVX`, `SSE4.2`, `NEON`, `generic`.
  std::string getISAName() const;

  /// One line for reports: `znver4 (x86_64, AVX-512: 16 f32 lanes, 32
  /// vector registers, FMA; L1d 32 KiB, L2 1024 KiB)`.
  std::string describe() const;

  /// The target for `cpu` (an LLVM CPU name; empty or `host` for this
  /// machine's) with `features` added or removed (`+avx2,-avx512f`, on top
  /// of the CPU's own). Fails on an unknown CPU or feature.
  static llvm::Expected<CPUTarget> get(llvm::StringRef cpu,
                                       llvm::StringRef features);

  /// This machine, as LLVM's host detection sees it.
  static const CPUTarget &getHost();

  /// Whether code for this target runs on this machine: same architecture,
  /// and every feature the generated code may use is one the host has
  /// (system instructions, which only intrinsics emit, do not count).
  /// Otherwise `reason` says which feature is missing.
  bool runsOnHost(std::string &reason) const;

  /// Whether `feature` (an LLVM x86 feature name) is a system or privileged
  /// instruction set that only intrinsics emit: the generated code never
  /// needs it, so neither this check nor a compiled library's list of
  /// required features counts it.
  static bool isSystemFeature(llvm::StringRef feature);
};

} // namespace graph
} // namespace mlir

#endif // GRAPH_TARGET_CPU_CPUTARGET_H
