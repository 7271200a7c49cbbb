//===- AttributesTest.cpp - How the ops read their attributes -------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <type_traits>

using namespace mlir;
using namespace mlir::graph;

namespace {

class Attributes : public ::testing::Test {
protected:
  Attributes() { context.loadDialect<GraphDialect, func::FuncDialect>(); }

  /// The first op of type OpTy in `source`, parsed and verified.
  template <typename OpTy> OpTy parseFirst(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    OpTy found;
    if (module)
      module->walk([&](OpTy op) {
        if (!found)
          found = op;
      });
    EXPECT_TRUE(found);
    return found;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

// The spec's scalar integers are signless i64 attributes; the getters give
// the signed value (ODS's I64Attr would give 2^64 - 1 for -1).
TEST_F(Attributes, NegativeAxisReadsSigned) {
  auto concat = parseFirst<ConcatOp>(R"mlir(
    func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x8xf32> {
      %0 = "graph.concat"(%a, %b) {axis = -1 : i64}
          : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
      return %0 : tensor<2x8xf32>
    })mlir");
  ASSERT_TRUE(concat);
  static_assert(std::is_same_v<decltype(concat.getAxis()), int64_t>);
  EXPECT_EQ(concat.getAxis(), -1);
  EXPECT_LT(concat.getAxis(), 0);
}

TEST_F(Attributes, DefaultAxisReadsSigned) {
  auto softmax = parseFirst<SoftmaxOp>(R"mlir(
    func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %0 = "graph.softmax"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
      return %0 : tensor<2x3xf32>
    })mlir");
  ASSERT_TRUE(softmax);
  EXPECT_EQ(softmax.getAxis(), -1);
  // The default is materialized with the same signless type as written.
  EXPECT_TRUE(softmax.getAxisAttr().getType().isSignlessInteger(64));
}

TEST_F(Attributes, BuilderTakesNegativeAxis) {
  OpBuilder builder(&context);
  auto type = RankedTensorType::get({2, 3}, builder.getF32Type());
  auto func = func::FuncOp::create(builder, builder.getUnknownLoc(), "f",
                                   builder.getFunctionType({type}, {type}));
  OwningOpRef<func::FuncOp> owner(func);
  builder.setInsertionPointToStart(func.addEntryBlock());
  auto softmax = SoftmaxOp::create(builder, builder.getUnknownLoc(), type,
                                   func.getArgument(0), int64_t{-2});
  EXPECT_EQ(softmax.getAxis(), -2);
  EXPECT_EQ(softmax.getAxisAttr().getInt(), -2);
}

} // namespace
