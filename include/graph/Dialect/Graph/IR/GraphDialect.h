//===- GraphDialect.h - The graph dialect -----------------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Declares the `graph` dialect for deep-learning computation graphs.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_DIALECT_GRAPH_IR_GRAPHDIALECT_H
#define GRAPH_DIALECT_GRAPH_IR_GRAPHDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dialect.h"

#include "graph/Dialect/Graph/IR/GraphDialect.h.inc"

namespace mlir {
namespace graph {

/// On a function result of run-time size (its bound's shape): for each
/// dimension, the index of the function result, a tensor<i64> of rank 0,
/// that holds its extent after a run, or -1 for a dimension of fixed size.
inline constexpr llvm::StringLiteral kRunTimeExtentsAttrName = "graph.extents";

} // namespace graph
} // namespace mlir

#endif // GRAPH_DIALECT_GRAPH_IR_GRAPHDIALECT_H
