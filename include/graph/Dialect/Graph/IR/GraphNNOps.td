//===- GraphNNOps.td - N-d convolution, pooling, contractions -*- tablegen -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The general forms of the network ops: batched matmul with broadcasting,
// einsum, and convolution, transposed convolution and pooling over 1 to 3
// spatial dimensions. The 2-D NCHW ops of GraphOps.td remain the fast path
// that fusion and the vectorizer know; the ONNX importer uses these for the
// other ranks and options. Included from GraphOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_DIALECT_GRAPH_IR_GRAPHNNOPS_TD
#define GRAPH_DIALECT_GRAPH_IR_GRAPHNNOPS_TD

def Graph_BatchMatMulOp : Graph_ComputeOp<"batch_matmul"> {
  let summary = "matrix product over broadcast batch dimensions";
  let description = [{
    `a` is [..., M, K] and `b` [..., K, N], both of rank >= 2; their batch
    dimensions broadcast as in NumPy, and the result is [batch..., M, N].
    Float element types; each output sums its K products in order.
  }];
  let arguments = (ins AnyTensor:$a, AnyTensor:$b);
  let results = (outs AnyTensor:$output);
  let assemblyFormat =
      "$a `,` $b attr-dict `:` functional-type(operands, results)";
}

def Graph_AttentionOp : Graph_ComputeOp<"attention"> {
  let summary = "scaled dot-product attention, with an optional additive mask";
  let description = [{
    `output = softmax(matmul(q, k_t) * scale + mask) · v`, the softmax along
    the last axis with its maximum subtracted first: `q` is [batch..., S, D],
    the keys come transposed, `k_t` [batch..., D, T] (the operand of the
    product as models spell it), `v` is [batch..., T, Dv], the result
    [batch..., S, Dv]; the batch dimensions (any number, heads included) are
    the same for all three. `mask`, optional, has the rank of the scores
    [batch..., S, T]: its batch dimensions all 1 or all the scores', its
    last two S or 1 and T (a causal mask holds -inf above the diagonal). f32.

    graph-fuse recognizes it in batch_matmul, mul or div by a constant, add,
    softmax and batch_matmul. The lowering never holds the S x T scores in
    memory: each block of queries runs over the keys a block at a time with
    an online softmax (FlashAttention), so the sums are not in the order of
    the unfused ops; within 1e-5 of them. A row whose every score is -inf
    gives NaN, as the softmax does.
  }];
  let arguments = (ins AnyTensor:$q, AnyTensor:$k_t, AnyTensor:$v,
                   Optional<AnyTensor>:$mask,
                   DefaultValuedAttr<F32Attr, "1.0f">:$scale);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $q `,` $k_t `,` $v (`mask` $mask^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def Graph_EinsumOp : Graph_ComputeOp<"einsum"> {
  let summary = "Einstein summation, explicit form";
  let description = [{
    `equation` is `in0,in1,...->out` with one lower-case letter per
    dimension: a letter repeated within an operand takes its diagonal, and
    the letters missing from the output are summed over. Numeric element
    types, one for all operands and the result.
  }];
  let arguments = (ins Variadic<AnyTensor>:$inputs, StrAttr:$equation);
  let results = (outs AnyTensor:$output);
  let assemblyFormat =
      "$inputs attr-dict `:` functional-type(operands, results)";
}

def Graph_ConvOp : Graph_ComputeOp<"conv"> {
  let summary = "N-d convolution (1 to 3 spatial dimensions), channels first";
  let description = [{
    Input N x C x D1..Dk, weight F x C/groups x K1..Kk, optional bias F;
    `strides`, `dilations` (k values, >= 1) and `padding` ([begin_1..k,
    end_1..k], >= 0, zero padding). Output N x F x O1..Ok with
    `Oi = floor((Di + begin_i + end_i - dil_i * (Ki - 1) - 1) / stride_i) + 1`.
    Float element types.
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$weight,
                   Optional<AnyTensor>:$bias, DenseI64ArrayAttr:$strides,
                   DenseI64ArrayAttr:$padding, DenseI64ArrayAttr:$dilations,
                   DefaultValuedAttr<Graph_I64Attr, "1">:$groups);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def Graph_ConvTransposeOp : Graph_ComputeOp<"conv_transpose"> {
  let summary = "N-d transposed convolution, channels first";
  let description = [{
    Input N x C x D1..Dk, weight C x F/groups x K1..Kk, optional bias F.
    Every input element scatters `x * w` to output position
    `d * stride - begin + k * dilation`; the output is N x F x O1..Ok, its
    sizes given by the result type: at most
    `(Di - 1) * stride_i - begin_i + dil_i * (Ki - 1) + 1 + extra` where the
    padding is [begin_1..k, end_1..k] and positions past the result are
    dropped. Float element types.
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$weight,
                   Optional<AnyTensor>:$bias, DenseI64ArrayAttr:$strides,
                   DenseI64ArrayAttr:$padding, DenseI64ArrayAttr:$dilations,
                   DefaultValuedAttr<Graph_I64Attr, "1">:$groups);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

class Graph_PoolOp<string mnemonic, string text, dag extra>
    : Graph_ComputeOp<mnemonic> {
  let summary = text # " pooling over 1 to 3 spatial dimensions";
  let description = [{
    x is N x C x D1..Dk; `kernel`, `strides`, `dilations` have k values,
    `padding` 2k ([begin..., end...]); every window holds at least one real
    cell. `Oi = floor((Di + begin_i + end_i - dil_i * (Ki - 1) - 1) /
    stride_i) + 1`. Max: padded cells never win, NaN propagates. Average: the
    sum over the window's real cells divided by their number, or by the
    whole window size with `count_include_pad`. Float element types (max
    also integers).
  }];
  let arguments = !con((ins AnyTensor:$x, DenseI64ArrayAttr:$kernel,
                        DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$padding,
                        DenseI64ArrayAttr:$dilations), extra);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$x attr-dict `:` functional-type(operands, results)";
}

def Graph_MaxPoolOp : Graph_PoolOp<"max_pool", "max", (ins)>;
def Graph_AvgPoolOp : Graph_PoolOp<"avg_pool", "average",
                                   (ins UnitAttr:$count_include_pad)>;

#endif // GRAPH_DIALECT_GRAPH_IR_GRAPHNNOPS_TD
