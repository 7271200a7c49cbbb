//===- GraphControlFlowOps.td - Ops with regions that branch -*- tablegen -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_DIALECT_GRAPH_IR_GRAPHCONTROLFLOWOPS_TD
#define GRAPH_DIALECT_GRAPH_IR_GRAPHCONTROLFLOWOPS_TD

include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// graph.if
//===----------------------------------------------------------------------===//

def Graph_IfOp : Graph_Op<"if", [
    RecursiveMemoryEffects, NoRegionArguments]> {
  let summary = "runs one of two regions, as a boolean decides (ONNX If)";
  let description = [{
    Runs `then` when `cond`, a bool tensor of one element, is true, and
    `else` otherwise; the results are the values the region that ran yields
    with `graph.yield`. The regions read values defined above them (ONNX's
    outer scope) and are not isolated: graph passes fold, fuse and erase
    inside them as in a function body. A constant `cond` replaces the op
    by the region it selects (canonicalization), so an If the importer
    could decide never reaches code generation.

    Both regions yield values of the result types. When the two branches of
    an ONNX If compute different sizes along one dimension, the importer
    yields each branch's value padded to the larger size and a tensor<i64>
    of rank 0 with its size, as a result of its own: the result is a value
    of run-time size (see `graph.nonzero`).

    ```mlir
    %r = graph.if %c : tensor<i1> -> tensor<4xf32> {
      %0 = graph.relu %x : tensor<4xf32>
      graph.yield %0 : tensor<4xf32>
    } else {
      graph.yield %x : tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins AnyTensor:$cond);
  let results = (outs Variadic<AnyTensor>:$results);
  let regions = (region SizedRegion<1>:$thenRegion,
                        SizedRegion<1>:$elseRegion);
  let assemblyFormat = [{
    $cond `:` type($cond) (`->` type($results)^)? $thenRegion `else`
    $elseRegion attr-dict
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// The terminators of the two regions.
    YieldOp getThenYield();
    YieldOp getElseYield();
    /// The region a constant `cond` selects; null when `cond` is not one.
    Region *getDecidedRegion();
    /// Replaces the op by the ops of `region`, one of its own, and its
    /// results by the values that region yields.
    void replaceByRegion(RewriterBase &rewriter, Region &region);
  }];
}

#endif // GRAPH_DIALECT_GRAPH_IR_GRAPHCONTROLFLOWOPS_TD
