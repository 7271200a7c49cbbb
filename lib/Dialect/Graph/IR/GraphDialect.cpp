//===- GraphDialect.cpp - The graph dialect ---------------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Registers the ops and creates the constants that folding produces.
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/GraphDialect.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::graph;

#include "graph/Dialect/Graph/IR/GraphDialect.cpp.inc"
#include "graph/Dialect/Graph/IR/GraphEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "graph/Dialect/Graph/IR/GraphAttrs.cpp.inc"

void GraphDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "graph/Dialect/Graph/IR/GraphOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "graph/Dialect/Graph/IR/GraphAttrs.cpp.inc"
      >();
}

Operation *GraphDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}
