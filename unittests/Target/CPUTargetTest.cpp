//===- CPUTargetTest.cpp - The target description ------------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Target/CPU/CPUTarget.h"

#include "llvm/Support/Error.h"
#include "llvm/TargetParser/Triple.h"

#include "gtest/gtest.h"

using namespace mlir::graph;

namespace {

/// The target for an x86 CPU and features, or a failed test.
CPUTarget getX86(llvm::StringRef cpu, llvm::StringRef features = "") {
  llvm::Expected<CPUTarget> target = CPUTarget::get(cpu, features);
  if (!target) {
    ADD_FAILURE() << cpu.str() << ": " << llvm::toString(target.takeError());
    return CPUTarget();
  }
  return *target;
}

bool hostIsX86() { return llvm::Triple(CPUTarget::getHost().triple).isX86(); }

TEST(CPUTarget, DescribesTheX86Levels) {
  if (!hostIsX86())
    GTEST_SKIP() << "x86 CPU names on a non-x86 host";
  CPUTarget v2 = getX86("x86-64-v2");
  EXPECT_EQ(v2.getISAName(), "SSE4.2");
  EXPECT_EQ(v2.getF32Lanes(), 4);
  EXPECT_EQ(v2.numVectorRegisters, 16u);
  EXPECT_FALSE(v2.hasFMA);

  CPUTarget v3 = getX86("x86-64-v3");
  EXPECT_EQ(v3.getISAName(), "AVX2+FMA");
  EXPECT_EQ(v3.getF32Lanes(), 8);
  EXPECT_EQ(v3.numVectorRegisters, 16u);
  EXPECT_TRUE(v3.hasFMA);

  CPUTarget v4 = getX86("x86-64-v4");
  EXPECT_EQ(v4.getISAName(), "AVX-512");
  EXPECT_EQ(v4.getF32Lanes(), 16);
  EXPECT_EQ(v4.numVectorRegisters, 32u);
  EXPECT_TRUE(v4.hasFMA);
}

TEST(CPUTarget, FeaturesChangeTheCPUs) {
  if (!hostIsX86())
    GTEST_SKIP() << "x86 CPU names on a non-x86 host";
  // AVX-512 taken away from an AVX-512 CPU leaves its AVX2 path.
  CPUTarget avx2 = getX86("skylake-avx512", "-avx512f");
  EXPECT_EQ(avx2.getISAName(), "AVX2+FMA");
  EXPECT_EQ(avx2.getF32Lanes(), 8);
  CPUTarget added = getX86("x86-64-v3", "+avx512f");
  EXPECT_EQ(added.getISAName(), "AVX-512");
}

TEST(CPUTarget, KnowsTheInt8DotProduct) {
  if (!hostIsX86())
    GTEST_SKIP() << "x86 CPU names on a non-x86 host";
  // AVX-512 VNNI (vpdpbusd) from Cascade Lake on; not in x86-64-v4, nor
  // in AVX2 (Haswell), nor with the feature removed.
  EXPECT_TRUE(getX86("cascadelake").hasVNNI);
  EXPECT_TRUE(getX86("znver4").hasVNNI);
  EXPECT_FALSE(getX86("x86-64-v4").hasVNNI);
  EXPECT_FALSE(getX86("haswell").hasVNNI);
  EXPECT_FALSE(getX86("cascadelake", "-avx512vnni").hasVNNI);
}

TEST(CPUTarget, DescribesItselfInOneLine) {
  if (!hostIsX86())
    GTEST_SKIP() << "x86 CPU names on a non-x86 host";
  std::string line = getX86("x86-64-v3").describe();
  EXPECT_EQ(line.rfind("x86-64-v3 (x86_64, AVX2+FMA: 8 f32 lanes, 16 vector "
                       "registers, FMA; L1d ",
                       0),
            0u)
      << line;
}

TEST(CPUTarget, RefusesUnknownNames) {
  llvm::Expected<CPUTarget> cpu = CPUTarget::get("no-such-cpu", "");
  ASSERT_FALSE(bool(cpu));
  EXPECT_NE(llvm::toString(cpu.takeError()).find("no-such-cpu"),
            std::string::npos);
  llvm::Expected<CPUTarget> feature = CPUTarget::get("", "+no-such-feature");
  ASSERT_FALSE(bool(feature));
  EXPECT_NE(llvm::toString(feature.takeError()).find("no-such-feature"),
            std::string::npos);
}

TEST(CPUTarget, TheHostRunsItsOwnCode) {
  std::string reason;
  EXPECT_TRUE(CPUTarget::getHost().runsOnHost(reason)) << reason;
}

// Hypervisors hide system instructions that the code never uses (a Zen 5
// under KVM has no invpcid, which every Haswell has): they do not decide.
TEST(CPUTarget, SystemInstructionsDoNotDecide) {
  const CPUTarget &host = CPUTarget::getHost();
  llvm::Expected<CPUTarget> withSystem =
      CPUTarget::get(host.cpu, "+invpcid,+fsgsbase,+xsave,+rdrnd,+rdseed");
  ASSERT_TRUE(bool(withSystem)) << llvm::toString(withSystem.takeError());
  std::string reason;
  EXPECT_TRUE(withSystem->runsOnHost(reason)) << reason;
}

} // namespace
