//===- GraphRecurrentOps.td - RNN, GRU and LSTM -------------*- tablegen -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The recurrent layers of ONNX, one op each: the whole sequence, every
// direction. Included from GraphOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_DIALECT_GRAPH_IR_GRAPHRECURRENTOPS_TD
#define GRAPH_DIALECT_GRAPH_IR_GRAPHRECURRENTOPS_TD

// What the three recurrent ops share. `gates` is the number of gates (G:
// 1, 3 or 4), `cellText` the equations of one time step, `defaults` the
// functions they use when `activations` is not given.
class Graph_RecurrentOp<string mnemonic, string name, int gates,
                        string cellText, string defaults, dag extraArgs,
                        dag extraResults>
    : Graph_ComputeOp<mnemonic, [AttrSizedOperandSegments]> {
  let summary = name # " layer over a whole sequence";
  let description = [{
    `x` is the sequence, time first: [S, B, I] (S steps of B rows of I
    features). With D = 1 (`forward`, `reverse`) or 2 (`bidirectional`)
    directions and hidden size H = the last dimension of `r`: `w` is
    [D, }] # gates # [{H, I] and `r` [D, }] # gates # [{H, H], the gates'
    weights stacked in ONNX's order; `b`, optional (zeros), is
    [D, }] # !mul(2, gates) # [{H], the `w` biases then the `r` biases;
    `initial_h`, optional (zeros), [D, B, H]. `sequence_lens`, optional (S
    for every row), is [B] of i32 or i64 in [0, S]: row b runs over its
    first `sequence_lens[b]` steps only, its `y` is zero after them and its
    `y_h` is the state after its last step (the initial state when it has
    none). The reverse direction runs over each row's steps from its last
    to its first. Results: `y` [S, D, B, H], the hidden state after every
    step, at the position of the step's input; `y_h` [D, B, H], the last
    state.

    One step, h being the state: }] # cellText # [{

    `activations` names the functions, }] # defaults # [{ per
    direction, the forward one first: sigmoid, tanh, relu, affine
    (alpha x + beta), leaky_relu, thresholded_relu, scaled_tanh
    (alpha tanh(beta x)), hard_sigmoid (clamp(alpha x + beta, 0, 1)), elu,
    softsign, softplus. `activation_alpha` and `activation_beta`, when
    given, hold one value per activation (ignored by those without one),
    ONNX's defaults otherwise. `clip` bounds the input of every gate's
    function to [-clip, clip]. A gate's input sums its biases first, then
    the products of x·wᵀ and of h·rᵀ in order. Float element types.
  }];
  let arguments = !con((ins AnyTensor:$x, AnyTensor:$w, AnyTensor:$r,
                            Optional<AnyTensor>:$b,
                            Optional<AnyTensor>:$sequence_lens,
                            Optional<AnyTensor>:$initial_h),
                       extraArgs,
                       (ins DefaultValuedAttr<Graph_DirectionAttr,
                                              "Direction::forward">:$direction,
                            OptionalAttr<StrArrayAttr>:$activations,
                            OptionalAttr<DenseF32ArrayAttr>:$activation_alpha,
                            OptionalAttr<DenseF32ArrayAttr>:$activation_beta,
                            OptionalAttr<F32Attr>:$clip));
  let results = !con((outs AnyTensor:$y, AnyTensor:$y_h), extraResults);
  let assemblyFormat = [{
    $x `,` $w `,` $r (`bias` $b^)? (`sequence_lens` $sequence_lens^)?
    (`initial_h` $initial_h^)? }] # !if(!eq(gates, 4),
    "(`initial_c` $initial_c^)? (`peepholes` $peepholes^)?", "") # [{
    attr-dict `:` functional-type(operands, results)
  }];
}

def Graph_RNNOp : Graph_RecurrentOp<"rnn", "Elman RNN", 1,
    [{`h = f(x·wᵀ + h·rᵀ + b_w + b_r)`.}], "f (default tanh)", (ins),
    (outs)>;

def Graph_GRUOp : Graph_RecurrentOp<"gru", "GRU", 3,
    [{gates z, r, h in that order, `z = f(x·w_zᵀ + h·r_zᵀ + b_wz + b_rz)`,
    `r` likewise, `ĥ = g(x·w_hᵀ + (r ⊙ h)·r_hᵀ + b_wh + b_rh)` or, with
    `linear_before_reset`, `ĥ = g(x·w_hᵀ + b_wh + r ⊙ (h·r_hᵀ + b_rh))`,
    then `h = (1 - z) ⊙ ĥ + z ⊙ h`.}],
    "f and g (default sigmoid, tanh)",
    (ins UnitAttr:$linear_before_reset), (outs)>;

def Graph_LSTMOp : Graph_RecurrentOp<"lstm", "LSTM", 4,
    [{gates i, o, f, c in that order and cell state c, `initial_c` [D, B, H]
    (optional, zeros); peepholes p_i, p_o, p_f in `peepholes` [D, 3H]
    (optional, zeros). `i = f(x·w_iᵀ + h·r_iᵀ + p_i ⊙ c + b_wi + b_ri)`,
    `f` likewise with p_f (with `input_forget`, `f = 1 - i`), `ĉ = g(..)`
    without peephole, `c = f ⊙ c + i ⊙ ĉ`, `o = f(.. + p_o ⊙ c)` with the
    new c, `h = o ⊙ h(c)`. A third result, `y_c` [D, B, H], is the last
    cell state.}],
    "f, g and h (default sigmoid, tanh, tanh)",
    (ins Optional<AnyTensor>:$initial_c, Optional<AnyTensor>:$peepholes,
         UnitAttr:$input_forget),
    (outs AnyTensor:$y_c)>;

#endif // GRAPH_DIALECT_GRAPH_IR_GRAPHRECURRENTOPS_TD
