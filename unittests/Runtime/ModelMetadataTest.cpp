//===- ModelMetadataTest.cpp - The model ABI's metadata -------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Runtime/ModelMetadata.h"
#include "graph/Runtime/SharedLibraryModel.h"
#include "graph/Runtime/Tensor.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include "gtest/gtest.h"

using namespace mlir::graph::runtime;

namespace {

ModelMetadata makeMetadata() {
  ModelMetadata metadata;
  metadata.compiler = "graph test";
  metadata.entry = "main";
  metadata.optLevel = 2;
  metadata.triple = llvm::sys::getProcessTriple();
  metadata.cpu = "x86-64-v3";
  metadata.features = {"avx", "avx2", "fma"};
  metadata.targetDescription = "x86-64-v3 (x86_64, AVX2+FMA: 8 f32 lanes)";
  metadata.arenaBytes = 4096;
  metadata.maxThreads = 8;
  TensorSpec x;
  x.name = "x";
  x.elementType = ElementType::F16;
  x.shape = {2, 3};
  x.numElements = 6;
  metadata.signature.inputs.push_back(x);
  TensorSpec y;
  y.name = "y";
  y.elementType = ElementType::Bool;
  y.shape = {};
  y.numElements = 1;
  metadata.signature.outputs.push_back(y);
  metadata.specialization = 1;
  metadata.numSpecializations = 3;
  metadata.inputSymbols = {{"N", ""}};
  return metadata;
}

std::string errorOf(llvm::StringRef text) {
  llvm::Expected<ModelMetadata> metadata = parseModelMetadata(text);
  return metadata ? "" : llvm::toString(metadata.takeError());
}

TEST(ModelMetadata, RoundTrips) {
  ModelMetadata written = makeMetadata();
  llvm::Expected<ModelMetadata> read =
      parseModelMetadata(serializeModelMetadata(written));
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->abiVersion, kModelABIVersion);
  EXPECT_EQ(read->compiler, written.compiler);
  EXPECT_EQ(read->entry, "main");
  EXPECT_EQ(read->optLevel, 2u);
  EXPECT_EQ(read->triple, written.triple);
  EXPECT_EQ(read->cpu, "x86-64-v3");
  EXPECT_EQ(read->features, written.features);
  EXPECT_EQ(read->targetDescription, written.targetDescription);
  EXPECT_EQ(read->arenaBytes, 4096u);
  EXPECT_EQ(read->maxThreads, 8u);
  ASSERT_EQ(read->signature.inputs.size(), 1u);
  EXPECT_EQ(read->signature.inputs[0].name, "x");
  EXPECT_EQ(read->signature.inputs[0].elementType, ElementType::F16);
  EXPECT_EQ(read->signature.inputs[0].shape,
            (llvm::SmallVector<int64_t>{2, 3}));
  EXPECT_EQ(read->signature.inputs[0].numElements, 6);
  ASSERT_EQ(read->signature.outputs.size(), 1u);
  EXPECT_EQ(read->signature.outputs[0].elementType, ElementType::Bool);
  EXPECT_TRUE(read->signature.outputs[0].shape.empty());
  EXPECT_EQ(read->specialization, 1u);
  EXPECT_EQ(read->numSpecializations, 3u);
  EXPECT_EQ(read->inputSymbols, written.inputSymbols);
}

TEST(ModelMetadata, SaysWhatIsWrong) {
  EXPECT_EQ(errorOf("{not json"), "its model description is not valid JSON");
  EXPECT_EQ(errorOf(R"({"format": "other"})"),
            "its model description is not a graph model's");
  EXPECT_EQ(errorOf(R"({"format": "graph-model", "abi": 99})"),
            "it has ABI version 99 but this runtime reads version " +
                std::to_string(kModelABIVersion) +
                "; compile the model again with this graph-compile");
  std::string text = serializeModelMetadata(makeMetadata());
  size_t at = text.find("\"specialization\":1");
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, 18, "\"specialization\":5");
  EXPECT_EQ(errorOf(text), "its model description names specialization 5 of 3");
}

TEST(ModelMetadata, NamesTheSpecializationsSymbols) {
  EXPECT_EQ(getModelRunSymbol(0), "graph_model_run");
  EXPECT_EQ(getModelRunSymbol(2), "graph_model_run_2");
  EXPECT_EQ(getModelMetadataSymbol(0), "graph_model_metadata");
  EXPECT_EQ(getModelMetadataSymbol(1), "graph_model_metadata_1");
}

TEST(ModelMetadata, ChecksTheHost) {
  ModelMetadata metadata = makeMetadata();
  metadata.features = {};
  auto missing = getMissingHostFeatures(metadata);
  ASSERT_TRUE(bool(missing)) << llvm::toString(missing.takeError());
  EXPECT_TRUE(missing->empty());
  metadata.features = {"no-such-feature"};
  missing = getMissingHostFeatures(metadata);
  ASSERT_TRUE(bool(missing));
  EXPECT_EQ(*missing, std::vector<std::string>{"no-such-feature"});
  metadata.triple = "riscv64-unknown-linux-gnu";
  missing = getMissingHostFeatures(metadata);
  ASSERT_FALSE(bool(missing));
  EXPECT_NE(llvm::toString(missing.takeError())
                .find("it was compiled for riscv64-unknown-linux-gnu"),
            std::string::npos);
}

TEST(ModelMetadata, RefusesFilesThatAreNotLibraries) {
  llvm::SmallString<128> path;
  int fd;
  ASSERT_FALSE(
      llvm::sys::fs::createTemporaryFile("not-a-library", "so", fd, path));
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << "\x7f"
       << "ELF but not really";
  }
  EXPECT_FALSE(isSharedLibrary(path));
  EXPECT_FALSE(isObjectFile(path));
  llvm::Expected<ModelMetadata> metadata = readModelMetadata(path);
  ASSERT_FALSE(bool(metadata));
  EXPECT_EQ(llvm::toString(metadata.takeError()),
            "'" + path.str().str() +
                "' is not a model compiled by graph-compile: not an ELF "
                "shared library or object file");
  llvm::sys::fs::remove(path);
}

TEST(InputShapes, ParsesAndRefuses) {
  llvm::StringMap<llvm::SmallVector<int64_t>> shapes;
  std::string error;
  ASSERT_TRUE(parseInputShapes("x=1x3x224x224,mask=7", shapes, error));
  EXPECT_EQ(shapes["x"], (llvm::SmallVector<int64_t>{1, 3, 224, 224}));
  EXPECT_EQ(shapes["mask"], (llvm::SmallVector<int64_t>{7}));
  EXPECT_FALSE(parseInputShapes("x", shapes, error));
  EXPECT_EQ(error,
            "--input-shape expects NAME=DIMS such as x=1x3x224x224, got 'x'");
  EXPECT_FALSE(parseInputShapes("x=2x0", shapes, error));
  EXPECT_EQ(error, "--input-shape x=2x0: dimensions are positive integers "
                   "joined by 'x'");
}

TEST(InputShapes, FormatsShapesAsNumPy) {
  EXPECT_EQ(formatShape({}), "()");
  EXPECT_EQ(formatShape({3}), "(3,)");
  EXPECT_EQ(formatShape({2, 3}), "(2, 3)");
}

} // namespace
