//===- GraphDialect.h - The graph dialect -----------------------*- C++ -*-===//
//
// Declares the `graph` dialect for deep-learning computation graphs.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_DIALECT_GRAPH_IR_GRAPHDIALECT_H
#define GRAPH_DIALECT_GRAPH_IR_GRAPHDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dialect.h"

#include "graph/Dialect/Graph/IR/GraphDialect.h.inc"

#endif // GRAPH_DIALECT_GRAPH_IR_GRAPHDIALECT_H
