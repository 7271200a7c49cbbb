//===- CacheKeyTest.cpp - The compile cache's keys ------------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Compiler/Cache.h"
#include "graph/Compiler/Compile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include "gtest/gtest.h"

using namespace mlir::graph::compiler;

namespace {

class CacheKey : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  }

  /// The key of `model` with `options` for the target they name.
  static std::string key(llvm::StringRef model, const CompileOptions &options,
                         llvm::ArrayRef<std::string> shapes = {}) {
    auto tm = createTargetMachine(options, CodeTarget::Object);
    if (!tm) {
      ADD_FAILURE() << llvm::toString(tm.takeError());
      return "";
    }
    return CompileCache::computeKey(model, options, shapes, **tm);
  }
};

TEST_F(CacheKey, IsTheSameForTheSameCompilation) {
  CompileOptions options;
  std::string a = key("model bytes", options), b = key("model bytes", options);
  EXPECT_EQ(a, b);
  EXPECT_FALSE(a.empty());
  EXPECT_TRUE(llvm::all_of(a, llvm::isHexDigit)) << a;
}

TEST_F(CacheKey, ChangesWithWhatChangesTheCode) {
  CompileOptions base;
  std::string reference = key("model bytes", base);
  EXPECT_NE(key("model bytez", base), reference);
  CompileOptions level = base;
  level.optLevel = 1;
  EXPECT_NE(key("model bytes", level), reference);
  CompileOptions entry = base;
  entry.entry = "other";
  EXPECT_NE(key("model bytes", entry), reference);
  CompileOptions threads = base;
  threads.maxThreads = 3;
  EXPECT_NE(key("model bytes", threads), reference);
  EXPECT_NE(key("model bytes", base, {"x=1x3"}), reference);
  EXPECT_NE(key("model bytes", base, {"x=1x3"}),
            key("model bytes", base, {"x=2x3"}));
}

TEST_F(CacheKey, ChangesWithTheTarget) {
  CompileOptions generic;
  generic.targetCpu = "x86-64";
  CompileOptions v3;
  v3.targetCpu = "x86-64-v3";
  CompileOptions v3NoFMA = v3;
  v3NoFMA.targetFeatures = "-fma";
  if (!llvm::Triple(llvm::sys::getProcessTriple()).isX86())
    GTEST_SKIP() << "x86 CPU names on a non-x86 host";
  std::string a = key("m", generic), b = key("m", v3), c = key("m", v3NoFMA);
  EXPECT_NE(a, b);
  EXPECT_NE(b, c);
  EXPECT_NE(a, c);
}

} // namespace
