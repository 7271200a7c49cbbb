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

//===----------------------------------------------------------------------===//
// graph.loop
//===----------------------------------------------------------------------===//

def Graph_LoopOp : Graph_Op<"loop", [RecursiveMemoryEffects]> {
  let summary = "runs a region while a count and a condition allow, "
                "carrying values and stacking per-iteration ones (ONNX Loop)";
  let description = [{
    Runs `body` as ONNX Loop does:

    ```
    i = 0; c = cond; v = initValues
    while (i < maxTripCount && i < bound && c) {
      c, v, s = body(i, c, v); scans[..][i] = s; i = i + 1
    }
    results = v, scans, i
    ```

    `maxTripCount` is an i64 tensor of one element and `cond` a bool tensor
    of one element. The body's block takes the iteration number (of
    `maxTripCount`'s type), the condition (of `cond`'s type) and the carried
    values (of `initValues`' types), and yields with `graph.yield` the next
    condition, the next carried values and one value per scan output. The
    results are the carried values after the last iteration, the scan
    outputs, and last, a tensor<i64> of rank 0 with the number of
    iterations that ran.

    A scan output stacks what its body yields along a new leading
    dimension, `bound` (the same for all of them): the loop runs at most
    `bound` iterations when it has scan outputs, and those after the last
    are zero. When a run decides the number of iterations, the scan outputs
    are values of run-time size along dimension 0 whose extent is the last
    result (see `graph.nonzero`).

    The body reads values defined above it (ONNX's outer scope) and is not
    isolated: graph passes fold, fuse and erase inside it as in a function
    body. A loop that runs no iteration (a constant count of 0 or a
    constant false condition) is its initial values (canonicalization).

    ```mlir
    %sum, %partial, %n = graph.loop %m, %c, %x
        : tensor<i64>, tensor<i1>, tensor<2xf32>
        -> tensor<2xf32>, tensor<3x2xf32>, tensor<i64> {
    ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %acc: tensor<2xf32>):
      %next = graph.add %acc, %y
          : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      graph.yield %ci, %next, %next : tensor<i1>, tensor<2xf32>, tensor<2xf32>
    }
    ```
  }];
  let arguments = (ins AnyTensor:$maxTripCount, AnyTensor:$cond,
                       Variadic<AnyTensor>:$initValues);
  let results = (outs Variadic<AnyTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $maxTripCount `,` $cond (`,` $initValues^)? `:` type($maxTripCount) `,`
    type($cond) (`,` type($initValues)^)? `->` type($results) $body attr-dict
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// The terminator of the body.
    YieldOp getBodyYield();
    /// The carried values after the last iteration.
    ResultRange getFinalValues() {
      return getResults().take_front(getInitValues().size());
    }
    /// The values each iteration adds a row to.
    ResultRange getScanOutputs() {
      return getResults().drop_front(getInitValues().size()).drop_back();
    }
    /// How many iterations ran: a tensor<i64> of rank 0.
    Value getIterationCount() { return getResults().back(); }
    /// The most iterations the scan outputs hold (their leading dimension),
    /// or nullopt without scan outputs.
    std::optional<int64_t> getBound();
    /// Whether a constant says that no iteration runs: a count of at most
    /// 0 or a false condition.
    bool neverRuns();
    /// Replaces the op by what it computes when no iteration runs: its
    /// initial values, zero scan outputs and a count of 0.
    void replaceByInitialValues(RewriterBase &rewriter);
  }];
}

#endif // GRAPH_DIALECT_GRAPH_IR_GRAPHCONTROLFLOWOPS_TD
