//===- GraphReductionOps.td - Reductions and scans ---------*- tablegen -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Reductions over a set of axes, arg-reductions, the cumulative sum and
// log-softmax. Included from GraphOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_DIALECT_GRAPH_IR_GRAPHREDUCTIONOPS_TD
#define GRAPH_DIALECT_GRAPH_IR_GRAPHREDUCTIONOPS_TD

class Graph_ReduceOp<string mnemonic, string text>
    : Graph_ComputeOp<mnemonic> {
  let summary = text # " over `axes`";
  let description = [{
    Reduces `x` over `axes` (distinct, each in [-rank, rank)); the reduced
    dimensions are dropped, or kept with size 1 with `keepdims`. Numeric
    element types; the elements are combined in row-major order.
  }];
  let arguments = (ins AnyTensor:$x, DenseI64ArrayAttr:$axes,
                   UnitAttr:$keepdims);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$x attr-dict `:` functional-type(operands, results)";
}

def Graph_ReduceSumOp : Graph_ReduceOp<"reduce_sum", "sum">;
def Graph_ReduceMeanOp : Graph_ReduceOp<"reduce_mean", "mean (floats)">;
def Graph_ReduceMaxOp : Graph_ReduceOp<"reduce_max",
                                       "maximum (NaN propagates)">;
def Graph_ReduceMinOp : Graph_ReduceOp<"reduce_min",
                                       "minimum (NaN propagates)">;
def Graph_ReduceProdOp : Graph_ReduceOp<"reduce_prod", "product">;

class Graph_ArgReduceOp<string mnemonic, string text>
    : Graph_ComputeOp<mnemonic> {
  let summary = "index of the " # text # " along `axis`, as i64";
  let description = [{
    The first index holding the extreme value, or the last with
    `select_last_index`; the axis is dropped, or kept with size 1 with
    `keepdims`. Numeric element types; a NaN counts as the extreme (as in
    NumPy and ONNX's reference).
  }];
  let arguments = (ins AnyTensor:$x, DefaultValuedAttr<Graph_I64Attr, "0">:$axis,
                   UnitAttr:$keepdims, UnitAttr:$select_last_index);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$x attr-dict `:` functional-type(operands, results)";
}

def Graph_ArgMaxOp : Graph_ArgReduceOp<"argmax", "maximum">;
def Graph_ArgMinOp : Graph_ArgReduceOp<"argmin", "minimum">;

def Graph_TopKOp : Graph_ComputeOp<"top_k"> {
  let summary = "the k largest (or smallest) elements along `axis`, sorted";
  let description = [{
    `values` has the shape of `x` with `k` (1 to the axis's size) along
    `axis`: the largest elements first, in decreasing order, or with
    `smallest` the smallest first, in increasing order; equal values in
    the order of their indices. NaN ranks above every number (first when
    largest, last when smallest). `indices` (i64) are their positions along
    `axis`. Numeric element types.
  }];
  let arguments = (ins AnyTensor:$x, Graph_I64Attr:$k,
                   DefaultValuedAttr<Graph_I64Attr, "-1">:$axis, UnitAttr:$smallest);
  let results = (outs AnyTensor:$values, AnyTensor:$indices);
  let assemblyFormat = "$x attr-dict `:` functional-type(operands, results)";
}

def Graph_TopKPrefixOp : Graph_ComputeOp<"top_k_prefix"> {
  let summary = "top_k of the first `valid` elements along `axis`, with a "
                "run-time `k`: a result of run-time size";
  let description = [{
    top_k's order over the first `valid` elements of each row along `axis`
    (a tensor<i64> of rank 0, clamped into [0, size]): the first `count`
    positions of `values` and `indices` along `axis` are the `count`
    elements that rank first, `count` = `k` (a tensor<i64> of rank 0)
    clamped into [0, valid]; the positions after them are zeros. The
    results have the shape of `x` (the bound): ONNX TopK of a value of
    run-time size along its axis, or with a `K` that only a run decides.
  }];
  let arguments = (ins AnyTensor:$x, AnyTensor:$valid, AnyTensor:$k,
                   DefaultValuedAttr<Graph_I64Attr, "-1">:$axis,
                   UnitAttr:$smallest);
  let results = (outs AnyTensor:$values, AnyTensor:$indices,
                 AnyTensor:$count);
  let assemblyFormat = "$x `,` $valid `,` $k attr-dict `:` "
                       "functional-type(operands, results)";
}

def Graph_CumSumOp : Graph_ComputeOp<"cumsum",
                                     [AllTypesMatch<["x", "output"]>]> {
  let summary = "cumulative sum along `axis`";
  let description = [{
    `output[..., i, ...]` is the sum of `x[..., j, ...]` for j <= i (j < i
    with `exclusive`; j >= i, or j > i, with `reverse`), accumulated in that
    order. Numeric element types.
  }];
  let arguments = (ins AnyTensor:$x, DefaultValuedAttr<Graph_I64Attr, "0">:$axis,
                   UnitAttr:$exclusive, UnitAttr:$reverse);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def Graph_LogSoftmaxOp : Graph_ComputeOp<"log_softmax",
                                         [AllTypesMatch<["x", "output"]>]> {
  let summary = "log of softmax along `axis`: (x - max) - log(sum(exp(x - max)))";
  let description = "Float element types.";
  let arguments = (ins AnyTensor:$x, DefaultValuedAttr<Graph_I64Attr, "-1">:$axis);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def Graph_DetOp : Graph_ComputeOp<"det"> {
  let summary = "determinant of each square matrix of the last two "
                "dimensions (ONNX Det)";
  let description = [{
    `output[b...] = det(x[b..., :, :])`: `x` of shape [..., N, N], the result
    of shape [...] and the same float element type. Computed in f64 by LU
    factorization with partial pivoting (the row of the largest magnitude
    in each column; a swap flips the sign), then rounded to the element
    type: a matrix with a zero column below its diagonal is exactly 0.
  }];
  let arguments = (ins AnyTensor:$x);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$x attr-dict `:` functional-type(operands, results)";
}

#endif // GRAPH_DIALECT_GRAPH_IR_GRAPHREDUCTIONOPS_TD
