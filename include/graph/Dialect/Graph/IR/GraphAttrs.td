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

def Graph_Layout : I32EnumAttr<"Layout",
    "a 4-D activation's order, #graph<layout NCHW> or #graph<layout NHWC>", [
      I32EnumAttrCase<"NCHW", 0>,
      I32EnumAttrCase<"NHWC", 1>
    ]> {
  let cppNamespace = "::mlir::graph";
  let genSpecializedAttr = 0;
}

// Printed `#graph<layout NHWC>`.
def Graph_LayoutEnumAttr : EnumAttr<Graph_Dialect, Graph_Layout, "layout">;

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

def Graph_SampleMode : I32EnumAttr<"SampleMode",
    "how graph.grid_sample interpolates between pixels", [
      I32EnumAttrCase<"linear", 0>,
      I32EnumAttrCase<"nearest", 1>,
      I32EnumAttrCase<"cubic", 2>
    ]> {
  let cppNamespace = "::mlir::graph";
  let genSpecializedAttr = 0;
}

// Printed `#graph<sample_mode cubic>`.
def Graph_SampleModeAttr : EnumAttr<Graph_Dialect, Graph_SampleMode,
                                    "sample_mode">;

def Graph_SamplePadding : I32EnumAttr<"SamplePadding",
    "what graph.grid_sample reads outside the input", [
      I32EnumAttrCase<"zeros", 0>,
      I32EnumAttrCase<"border", 1>,
      I32EnumAttrCase<"reflection", 2>
    ]> {
  let cppNamespace = "::mlir::graph";
  let genSpecializedAttr = 0;
}

// Printed `#graph<sample_padding reflection>`.
def Graph_SamplePaddingAttr : EnumAttr<Graph_Dialect, Graph_SamplePadding,
                                       "sample_padding">;

def Graph_RoiAlignMode : I32EnumAttr<"RoiAlignMode",
    "how graph.roi_align pools the samples of a bin", [
      I32EnumAttrCase<"avg", 0>,
      I32EnumAttrCase<"max", 1>
    ]> {
  let cppNamespace = "::mlir::graph";
  let genSpecializedAttr = 0;
}

// Printed `#graph<roi_align_mode max>`.
def Graph_RoiAlignModeAttr : EnumAttr<Graph_Dialect, Graph_RoiAlignMode,
                                      "roi_align_mode">;

#endif // GRAPH_DIALECT_GRAPH_IR_GRAPHATTRS_TD
