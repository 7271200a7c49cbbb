//===- TensorFilesTest.cpp - A model's inputs and outputs as files --------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Runtime/TensorFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

using namespace mlir::graph::runtime;

namespace {

TensorSpec spec(llvm::StringRef name, ElementType type,
                llvm::ArrayRef<int64_t> shape) {
  TensorSpec result;
  result.name = name.str();
  result.elementType = type;
  result.shape.assign(shape.begin(), shape.end());
  result.numElements = 1;
  for (int64_t dim : shape)
    result.numElements *= dim;
  return result;
}

ModelSignature signature() {
  ModelSignature result;
  result.inputs.push_back(spec("x", ElementType::F32, {2, 3}));
  result.inputs.push_back(spec("mask", ElementType::Bool, {3}));
  result.inputs.push_back(spec("ids", ElementType::I64, {4}));
  result.outputs.push_back(spec("y", ElementType::F32, {2, 3}));
  result.outputs.push_back(spec("n", ElementType::I32, {}));
  return result;
}

template <typename T> std::string errorOf(llvm::Expected<T> value) {
  return value ? "" : llvm::toString(value.takeError());
}

TEST(TensorFiles, AssignsInputsInOrderAndByName) {
  ModelSignature s = signature();
  auto files = assignInputFiles(s.inputs, {"a.npy"},
                                {"ids=c.npy", "arg1=b.npy"}, "main");
  ASSERT_TRUE(bool(files)) << llvm::toString(files.takeError());
  ASSERT_EQ(files->size(), 3u);
  EXPECT_EQ((*files)[0], "a.npy");
  EXPECT_EQ((*files)[1], "b.npy");
  EXPECT_EQ((*files)[2], "c.npy");
  files = assignInputFiles(s.inputs, {}, {}, "main");
  ASSERT_TRUE(bool(files));
  EXPECT_FALSE((*files)[0].has_value());
}

TEST(TensorFiles, NamesWhatIsWrongWithInputs) {
  ModelSignature s = signature();
  EXPECT_EQ(
      errorOf(assignInputFiles(s.inputs, {"1", "2", "3", "4"}, {}, "main")),
      "4 input files given, but @main takes 3 inputs");
  EXPECT_EQ(errorOf(assignInputFiles(s.inputs, {}, {"z=a.npy"}, "main")),
            "unknown input 'z': @main has inputs 'x', 'mask', 'ids'");
  EXPECT_EQ(errorOf(assignInputFiles(s.inputs, {"a.npy"}, {"x=b.npy"}, "main")),
            "input 'x' (argument 0) is given twice");
  EXPECT_EQ(errorOf(assignInputFiles(s.inputs, {}, {"a.npy"}, "main")),
            "--input expects NAME=FILE.npy, got 'a.npy' (give inputs in "
            "argument order as files after the model)");
}

TEST(TensorFiles, AssignsOutputs) {
  ModelSignature s = signature();
  auto files = assignOutputFiles(s.outputs, {"n=n.npy", "y.npy"}, "main");
  ASSERT_TRUE(bool(files)) << llvm::toString(files.takeError());
  EXPECT_EQ((*files)[0], "y.npy");
  EXPECT_EQ((*files)[1], "n.npy");
  EXPECT_EQ(errorOf(assignOutputFiles(s.outputs, {"a", "b", "c"}, "main")),
            "more --output files than the 2 outputs of @main");
  EXPECT_EQ(errorOf(assignOutputFiles(s.outputs, {"q=a"}, "main")),
            "unknown output 'q': @main has outputs 'y', 'n'");
  EXPECT_EQ(errorOf(assignOutputFiles(s.outputs, {"y=a", "result0=b"}, "main")),
            "output 'y' is given two files");
}

TEST(TensorFiles, EncodesHalves) {
  EXPECT_EQ(toHalfBits(0.0f), 0x0000);
  EXPECT_EQ(toHalfBits(-0.0f), 0x8000);
  EXPECT_EQ(toHalfBits(1.0f), 0x3c00);
  EXPECT_EQ(toHalfBits(0.125f), 0x3000);
  EXPECT_EQ(toHalfBits(1.125f), 0x3c80);
  EXPECT_EQ(toHalfBits(-2.0f), 0xc000);
  EXPECT_EQ(toHalfBits(65504.0f), 0x7bff);
}

TEST(TensorFiles, RandomInputsAreTheDocumentedOnes) {
  ModelSignature s = signature();
  auto a = makeRandomInputs(s, 7), b = makeRandomInputs(s, 7),
       c = makeRandomInputs(s, 8);
  ASSERT_TRUE(a && b && c);
  for (size_t i = 0; i < s.inputs.size(); ++i)
    EXPECT_EQ((*a)[i].bytes(), (*b)[i].bytes()) << "input " << i;
  EXPECT_NE((*a)[0].bytes(), (*c)[0].bytes());
  for (float value : (*a)[0].values<float>()) {
    EXPECT_GE(value, -1.0f);
    EXPECT_LT(value, 1.0f);
  }
  for (char value : (*a)[1].bytes())
    EXPECT_TRUE(value == 0 || value == 1);
  for (int64_t value : (*a)[2].values<int64_t>()) {
    EXPECT_GE(value, 0);
    EXPECT_LE(value, 9);
  }
}

TEST(TensorFiles, ReadsAndChecksInputs) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tensor-files", dir));
  ModelSignature s = signature();
  auto inputs = makeRandomInputs(s, 1);
  ASSERT_TRUE(bool(inputs));
  std::vector<std::optional<std::string>> files;
  for (auto [i, input] : llvm::enumerate(s.inputs)) {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, input.name + ".npy");
    files.push_back(path.str().str());
  }
  ASSERT_FALSE(bool(writeOutputFiles(s.inputs, files, *inputs)));
  std::vector<std::optional<NpyArray>> preloaded;
  auto read = readInputFiles(s, files, preloaded);
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  for (size_t i = 0; i < s.inputs.size(); ++i)
    EXPECT_EQ((*read)[i].bytes(), (*inputs)[i].bytes());

  // The same files for inputs of another type and shape.
  ModelSignature other = s;
  other.inputs[0] = spec("x", ElementType::F64, {2, 3});
  EXPECT_EQ(errorOf(readInputFiles(other, files, preloaded)),
            "input 'x' (argument 0): '" + *files[0] +
                "' holds float32 ('<f4'), expected float64 ('<f8')");
  other.inputs[0] = spec("x", ElementType::F32, {3, 2});
  EXPECT_EQ(errorOf(readInputFiles(other, files, preloaded)),
            "input 'x' (argument 0): '" + *files[0] +
                "' has shape (2, 3), expected (3, 2)");
  files[1].reset();
  EXPECT_EQ(errorOf(readInputFiles(s, files, preloaded)),
            "missing input 'mask' (argument 1) of shape (3,)");
  llvm::sys::fs::remove_directories(dir);
}

TEST(TensorFiles, WritesAllOutputsOrNone) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tensor-files", dir));
  ModelSignature s = signature();
  s.inputs = s.outputs;
  auto outputs = makeRandomInputs(s, 3);
  ASSERT_TRUE(bool(outputs));
  llvm::SmallString<128> good(dir), bad(dir);
  llvm::sys::path::append(good, "y.npy");
  llvm::sys::path::append(bad, "no-such-directory", "n.npy");
  std::vector<std::optional<std::string>> files = {good.str().str(),
                                                   bad.str().str()};
  llvm::Error error = writeOutputFiles(s.outputs, files, *outputs);
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error))
                .find("cannot write output 'n' to '" + bad.str().str() + "'"),
            std::string::npos);
  // The first output, written before the second failed, is not left behind.
  EXPECT_FALSE(llvm::sys::fs::exists(good));
  std::error_code ec;
  llvm::sys::fs::directory_iterator it(dir, ec), end;
  EXPECT_TRUE(it == end) << "left behind: " << it->path();
  llvm::sys::fs::remove_directories(dir);
}

} // namespace
