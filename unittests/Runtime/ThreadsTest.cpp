//===- ThreadsTest.cpp - A tool's --threads argument ----------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Runtime/Threads.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir::graph::runtime;

namespace {

/// Runs takeThreadsArgument on `args` (argv[0] first); `rest` gets what is
/// left of argv.
llvm::Expected<int> take(std::vector<std::string> args,
                         std::vector<std::string> &rest) {
  std::vector<char *> argv;
  for (std::string &arg : args)
    argv.push_back(arg.data());
  int argc = argv.size();
  llvm::Expected<int> count = takeThreadsArgument(argc, argv.data());
  rest.assign(argv.begin(), argv.begin() + argc);
  return count;
}

TEST(Threads, TakesEverySpellingOutOfArgv) {
  for (std::vector<std::string> args :
       {std::vector<std::string>{"tool", "--threads", "3", "m.onnx"},
        {"tool", "--threads=3", "m.onnx"},
        {"tool", "-threads", "3", "m.onnx"},
        {"tool", "-threads=3", "m.onnx"}}) {
    std::vector<std::string> rest;
    llvm::Expected<int> count = take(args, rest);
    ASSERT_TRUE(bool(count)) << llvm::toString(count.takeError());
    EXPECT_EQ(*count, 3);
    EXPECT_EQ(rest, (std::vector<std::string>{"tool", "m.onnx"}));
  }
}

TEST(Threads, NotGivenIsZeroAndLeavesArgv) {
  std::vector<std::string> rest;
  llvm::Expected<int> count = take({"tool", "-O3", "--thread", "m.onnx"}, rest);
  ASSERT_TRUE(bool(count));
  EXPECT_EQ(*count, 0);
  EXPECT_EQ(rest,
            (std::vector<std::string>{"tool", "-O3", "--thread", "m.onnx"}));
}

TEST(Threads, RefusesMissingAndBadCounts) {
  std::vector<std::string> rest;
  for (auto [args, message] :
       {std::pair<std::vector<std::string>, std::string>{
            {"tool", "--threads"}, "--threads needs a count"},
        {{"tool", "--threads=0"},
         "--threads must be a count of at least 1, got '0'"},
        {{"tool", "--threads", "two"},
         "--threads must be a count of at least 1, got 'two'"}}) {
    llvm::Expected<int> count = take(args, rest);
    ASSERT_FALSE(bool(count));
    EXPECT_EQ(llvm::toString(count.takeError()), message);
  }
}

} // namespace
