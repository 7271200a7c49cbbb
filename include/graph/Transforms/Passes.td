//===- Passes.td - Graph-level optimization passes ---------*- tablegen -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The three classic graph optimizations (constant folding, operator fusion,
// dead code elimination) and the report. They are op-agnostic: they run on
// whatever op they are scheduled on (a module, a function).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_TRANSFORMS_PASSES_TD
#define GRAPH_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def GraphQDQToInteger : Pass<"graph-qdq-to-integer"> {
  let summary = "Compute the matrix products of dequantized 8-bit tensors "
                "on integers, and Q/DQ pairs as one float op";
  let description = [{
    A quantized model in the QDQ form multiplies dequantized tensors in
    float: `graph.matmul`, `graph.batch_matmul` or `graph.gemm` (alpha 1,
    beta 1 or no c, a not transposed) of `graph.dequantize(aq, sa, za)` by
    `graph.dequantize(bq, sb, zb)`, with `aq` and `bq` i8 or ui8, one scale
    and zero point for `a` and one per column of the product (or one) for
    `b`. Each becomes `graph.dequantize(graph.matmul_integer(aq, bq', za,
    zb'), sa * sb', 0)` (b transposed at compile time for gemm's
    `trans_b`; gemm's c added after): the exact integer sum, scaled once.
    Taken where the target's integer kernels (`graph-lower-integer-matmul`)
    serve: `bq` a constant matrix whose centered values `bq - zb` fit the
    target's integer dot product (8 bits with AVX-512 VNNI, 16 with
    `pmaddwd` on AVX2 and AVX-512); on other targets the products stay.
    Reshapes, flattens and transposes of dequantized values move before
    the dequantization. Then, on every target, `graph.dequantize` of a
    `graph.quantize` with the same scale and zero point becomes
    `graph.fake_quantize` of the float, which graph-fuse can make an
    epilogue. Part of `graph-optimize` from opt-level 2, first: constant
    folding would turn the dequantized weights into float constants.
  }];
  let options = [
    Option<"targetCpu", "target-cpu", "std::string", "\"\"",
           "The CPU whose integer kernels decide (an LLVM CPU name; empty "
           "or host: this machine's)">,
    Option<"targetFeatures", "target-features", "std::string", "\"\"",
           "Features added or removed on top of the CPU's (+avx2,-avx512f)">
  ];
  let dependentDialects = ["::mlir::graph::GraphDialect"];
}

def GraphFoldConstants : Pass<"graph-fold-constants"> {
  let summary = "Evaluate at compile time every op whose operands are constant";
  let description = [{
    Replaces every op whose operands are all constants by a `graph.constant`
    holding its value, through the ops' fold hooks, to a fixed point. Identity
    folds (`x * 1`, inference `graph.dropout`, ...) run too, as they are fold
    hooks. A non-splat result with more than `max-elements` elements is left
    unfolded; splat results always fold and stay splat. Ops with side effects
    are never folded.

    Resource limits: before evaluating anything, a fold hook checks that no
    tensor it would materialize (a non-splat result, a splat operand it
    expands) has more than `max-elements` elements and that it would perform
    at most `max-work` scalar operations (a multiply-add, a comparison);
    otherwise the op is left unfolded and computed at run time. So no input
    makes folding allocate or compute without bound.
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t", "16777216",
           "Leave unfolded an op whose fold would materialize a non-splat "
           "tensor with more elements than this">,
    Option<"maxWork", "max-work", "int64_t", "1073741824",
           "Leave unfolded an op whose fold would take more scalar "
           "operations than this">
  ];
  let dependentDialects = ["::mlir::graph::GraphDialect"];
}

def GraphFuse : Pass<"graph-fuse"> {
  let summary = "Fuse ops into graph.fused groups: anchors with their "
                "epilogues, and trees of elementwise ops";
  let description = [{
    Every fusion of the compiler is decided here; the lowering fuses nothing
    else. An anchor (`graph.conv2d`, `graph.matmul` or `graph.gemm`) followed
    by the longest chain of one or more elementwise epilogue ops
    (`batch_norm`, `relu`, `clip`, `sigmoid`, `tanh`, `add`/`sub`/`mul`/`div`
    whose other operand is defined outside the chain, and every other op
    with the elementwise trait) becomes one `graph.fused` whose `kind` is the
    ops' mnemonics joined by `_`. Then the elementwise ops left form groups
    without an anchor (TVM's injective fusion): an op and, recursively, each
    elementwise producer whose result only it uses, a chain or a tree
    (`"add_relu"`, `"mul_add_sigmoid"`), `kind` listing producers before
    their users. Either way a group stops before an intermediate that has
    another live user or whose element type differs, and values the group
    reads from outside, constants included, become operands of the fused op.
    The pass takes time linear in the graph: liveness is computed once.

    First, a layer norm or an RMS norm written out in elementwise ops and
    reductions (`reduce_mean`, `sub`, `mul`, `reduce_mean`, `add` of a
    constant epsilon, `sqrt`, then `div` or `reciprocal` and `mul`, then a
    `mul` by the scale and an `add` of the bias of the row's shape, as
    PyTorch exports `nn.LayerNorm` before opset 17; `x * x`, `reduce_mean`,
    `add`, `sqrt`, `div` and a scale for RMSNorm), the reductions over the
    trailing dimensions, its intermediates used nowhere else, becomes one
    `graph.layer_norm` or `graph.rms_norm`. With `attention`, scaled
    dot-product attention written out (`batch_matmul` of q and k_t, `div` or
    `mul` by a constant, `add` of a mask, `softmax` along the keys,
    `batch_matmul` by v) becomes one `graph.attention`. A `batch_matmul` of
    an f32 activation by a constant matrix becomes a `matmul` over its rows
    whose reshape back moves below the elementwise ops that follow, so that
    the bias, activation and residual add fuse as its epilogue.

    With `fold-batch-norm`, a `batch_norm` that is the only live user of a
    `conv2d` whose weight, bias and normalization parameters are constants is
    first folded into new convolution weights and bias, unless the new weight
    is a non-splat tensor of more than `max-elements` elements.
  }];
  let options = [
    Option<"foldBatchNorm", "fold-batch-norm", "bool", "true",
           "Fold a batch_norm into the constant weights of the conv before it">,
    Option<"attention", "attention", "bool", "true",
           "Recognize scaled dot-product attention as graph.attention (off: "
           "its ops fuse as any others, as a baseline)">,
    Option<"maxElements", "max-elements", "int64_t", "16777216",
           "Leave a batch_norm unfolded when the new conv2d weight would be a "
           "non-splat tensor with more elements than this">
  ];
  let dependentDialects = ["::mlir::graph::GraphDialect"];
}

def GraphConvertLayout : Pass<"graph-convert-layout"> {
  let summary = "Run convolutions, pooling and their epilogues in NHWC";
  let description = [{
    The layout the code generator is fastest in, chosen in the graph (TVM's
    ConvertLayout at opt_level 3): every NCHW `graph.conv2d` connected to
    another conv or a pool through ops that run in either layout
    (elementwise ops, concats) becomes an NHWC one (`#graph<layout NHWC>`,
    weight KH x KW x C/groups x F) between two `graph.transpose`s, the
    weight permuted at compile time when it is a constant. A conv alone in
    such a region stays NCHW: its two layout changes would remain anyway,
    and its lowering does them tile by tile inside its fused kernel. Then layout changes move and cancel, to a fixed point, by the
    canonicalization patterns of `graph.transpose` and three of this pass:
      - two transposes in a row compose, and cancel when they are inverses;
        one that only moves dimensions of size 1 becomes a `graph.reshape`;
      - a transpose moves past the elementwise op that is its only user
        (batch_norm switching its `layout`), the op's other operands taken
        through the inverse permutation when that is free: a constant
        (permuted now), a per-channel or scalar operand (a reshape), or the
        input of a transpose by the same permutation;
      - a transpose from NHWC to NCHW moves past the `max_pool2d`,
        `avg_pool2d` or `global_avg_pool` that is its only user, which then
        runs in NHWC, and past a `concat` of such transposes.
    Layout changes are left only where the graph's inputs and outputs, or
    an op that has no NHWC form, need NCHW: one at the input and none at the
    output of a ResNet or MobileNet. Ops inside `graph.fused` are left as
    they are. Part of `graph-optimize` at opt-level 3, after folding and
    before fusion.
  }];
  let dependentDialects = ["::mlir::graph::GraphDialect"];
}

def GraphPackWeights : Pass<"graph-pack-weights"> {
  let summary = "Pack the constant weights of matrix products for the "
                "target's micro-kernels";
  let description = [{
    The data-tiling decision, made in the graph: every f32 `graph.matmul`
    and `graph.gemm` whose K x N operand is a constant (N x K with
    `trans_b`), at the top level or inside a `graph.fused` body, takes it
    packed into N/n0 x K x n0 panels (`packed_b`), and every f32
    `graph.conv2d` of one group whose weight is a constant takes it as
    F/f0 x KH x KW x C x f0 (`packed_weight`): the layouts their
    micro-kernels stream, with n0 and f0 chosen for the target (whole
    vectors where N and F allow; `graph-print-kernel-config` prints the
    choice). The
    packed constant is computed at compile time; inside a fused body it
    becomes a new operand of the group, and what it replaces is left for
    `graph-eliminate-dead-code`. Part of `graph-optimize` from opt-level 2,
    after fusion.
  }];
  let options = [
    Option<"targetCpu", "target-cpu", "std::string", "\"\"",
           "The CPU the packing is chosen for (an LLVM CPU name; empty or "
           "host: this machine's)">,
    Option<"targetFeatures", "target-features", "std::string", "\"\"",
           "Features added or removed on top of the CPU's (+avx2,-avx512f)">
  ];
  let dependentDialects = ["::mlir::graph::GraphDialect"];
}

def GraphPrintKernelConfig : Pass<"graph-print-kernel-config"> {
  let summary = "Print the micro-kernel configuration chosen for each "
                "matrix product and convolution";
  let description = [{
    Analysis only: prints to stderr, for every `graph.matmul`,
    `graph.gemm` and `graph.conv2d` of one group, the packed panel
    width and register tile that the code generator chooses for the target
    (KernelConfig.h).
  }];
  let options = [
    Option<"targetCpu", "target-cpu", "std::string", "\"\"",
           "The CPU to choose for (empty or host: this machine's)">,
    Option<"targetFeatures", "target-features", "std::string", "\"\"",
           "Features added or removed on top of the CPU's">
  ];
}

def GraphEliminateDeadCode : Pass<"graph-eliminate-dead-code"> {
  let summary = "Erase every op whose results no live op uses";
  let description = [{
    Canonicalization: erases, transitively, every op without side effects
    whose results no live op uses, `graph.fused` and constants included. Ops
    with side effects stay; function signatures are never changed.
  }];
}

def GraphReport : Pass<"graph-report", "::mlir::ModuleOp"> {
  let summary = "Print op counts, constants and fusion savings to stderr";
  let description = [{
    Prints, without changing the IR: op counts by name, the number of
    constants and their bytes, fused groups by kind, and the bytes fusion
    keeps off memory: the sum of |T_k| over the intermediate tensors inside
    fused bodies and Saving = 2 * sum |T_k|, and the number of layout
    changes (`graph.transpose` ops, inside fused bodies too). With `json`,
    one JSON object with keys `ops`, `constants`, `fused`,
    `intermediate_bytes`, `saving_bytes`, `layout_changes` and
    `packed_weights` (`count` and `bytes` of the weights that
    `graph-pack-weights` packed).
  }];
  let options = [
    Option<"json", "json", "bool", "false", "Print one JSON object">
  ];
}

#endif // GRAPH_TRANSFORMS_PASSES_TD
