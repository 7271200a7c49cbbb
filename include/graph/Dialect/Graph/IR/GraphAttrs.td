//===- GraphAttrs.td - Enum attributes of the graph dialect -*- tablegen -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Attributes whose values are one of a few names: enums, so that the
// verifier and the passes compare cases, not strings.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_DIALECT_GRAPH_IR_GRAPHATTRS_TD
#define GRAPH_DIALECT_GRAPH_IR_GRAPHATTRS_TD

include "graph/Dialect/Graph/IR/GraphBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Graph_Direction : I32EnumAttr<"Direction",
    "the order in which a recurrent op runs over the sequence", [
      I32EnumAttrCase<"forward", 0>,
      I32EnumAttrCase<"reverse", 1>,
      I32EnumAttrCase<"bidirectional", 2>
    ]> {
  let cppNamespace = "::mlir::graph";
  let genSpecializedAttr = 0;
}

// Printed `#graph<direction reverse>`.
def Graph_DirectionAttr : EnumAttr<Graph_Dialect, Graph_Direction,
                                   "direction">;

#endif // GRAPH_DIALECT_GRAPH_IR_GRAPHATTRS_TD
