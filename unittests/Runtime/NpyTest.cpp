//===- NpyTest.cpp - The .npy reader and writer ---------------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Runtime/Npy.h"

#include "llvm/Support/Error.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace mlir::graph::runtime;

namespace {

/// A buffer of `count` elements of `type` whose bytes count up from `seed`.
TensorBuffer makeBuffer(ElementType type, int64_t count, unsigned seed) {
  TensorBuffer buffer(type, count);
  llvm::MutableArrayRef<char> bytes = buffer.bytes();
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = char((seed + i * 7) & (type == ElementType::Bool ? 1 : 0xff));
  return buffer;
}

std::string errorOf(llvm::StringRef contents) {
  llvm::Expected<NpyArray> array = parseNpy(contents);
  if (array)
    return "";
  return llvm::toString(array.takeError());
}

TEST(Npy, RoundTripsEveryElementType) {
  for (unsigned t = 0; t <= unsigned(ElementType::Bool); ++t) {
    ElementType type = ElementType(t);
    TensorBuffer buffer = makeBuffer(type, 6, t);
    std::string file = serializeNpy({2, 3}, buffer);
    llvm::Expected<NpyArray> array = parseNpy(file);
    ASSERT_TRUE(bool(array))
        << getName(type).str() << ": " << llvm::toString(array.takeError());
    EXPECT_EQ(array->shape, (llvm::SmallVector<int64_t>{2, 3}));
    EXPECT_EQ(array->buffer.getElementType(), type);
    ASSERT_EQ(array->buffer.bytes().size(), buffer.bytes().size());
    EXPECT_EQ(0, std::memcmp(array->buffer.data(), buffer.data(),
                             buffer.bytes().size()))
        << getName(type).str();
  }
}

TEST(Npy, WritesNumPysHeader) {
  TensorBuffer buffer = makeBuffer(ElementType::F32, 3, 0);
  std::string file = serializeNpy({3}, buffer);
  ASSERT_GT(file.size(), 10u);
  EXPECT_EQ(file.substr(0, 6), "\x93NUMPY");
  // Version 1.0, and data aligned to 64 bytes as NumPy writes it.
  EXPECT_EQ(file[6], 1);
  EXPECT_EQ(file[7], 0);
  EXPECT_EQ((file.size() - 3 * 4) % 64, 0u);
  EXPECT_NE(file.find("'descr': '<f4'"), std::string::npos);
  EXPECT_NE(file.find("'fortran_order': False"), std::string::npos);
  EXPECT_NE(file.find("'shape': (3,)"), std::string::npos);
}

TEST(Npy, RoundTripsAScalar) {
  TensorBuffer buffer = makeBuffer(ElementType::I64, 1, 5);
  llvm::Expected<NpyArray> array = parseNpy(serializeNpy({}, buffer));
  ASSERT_TRUE(bool(array)) << llvm::toString(array.takeError());
  EXPECT_TRUE(array->shape.empty());
  EXPECT_EQ(array->buffer.size(), 1);
}

TEST(Npy, RefusesWhatItCannotRead) {
  EXPECT_EQ(errorOf("hello, world"), "not a .npy file (no \\x93NUMPY magic)");
  std::string good = serializeNpy({2}, makeBuffer(ElementType::F32, 2, 0));
  EXPECT_NE(errorOf(llvm::StringRef(good).drop_back(1)), "");
  EXPECT_EQ(errorOf(llvm::StringRef(good).take_front(9)), "truncated header");
  // Fortran order matters from two dimensions on.
  std::string fortran =
      serializeNpy({2, 3}, makeBuffer(ElementType::F32, 6, 0));
  size_t at = fortran.find("False");
  ASSERT_NE(at, std::string::npos);
  fortran.replace(at, 5, "True ");
  EXPECT_NE(errorOf(fortran).find("Fortran-order array"), std::string::npos)
      << errorOf(fortran);
  std::string complex = good;
  at = complex.find("<f4");
  complex.replace(at, 3, "<c8");
  EXPECT_NE(errorOf(complex).find("unsupported dtype"), std::string::npos)
      << errorOf(complex);
}

} // namespace
