//===- GraphOps.td - Operations of the graph dialect -------*- tablegen -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The op set of ../shared/SPEC.md, section 2. Operand types are checked by
// each op's verifier rather than by ODS constraints, so that a rejected type
// is reported with the operand's name ("operand 'weight' ...").
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_DIALECT_GRAPH_IR_GRAPHOPS_TD
#define GRAPH_DIALECT_GRAPH_IR_GRAPHOPS_TD

include "graph/Dialect/Graph/IR/GraphAttrs.td"
include "graph/Dialect/Graph/IR/GraphBase.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Op classes
//===----------------------------------------------------------------------===//

// A compute op: pure, folded when its operands are constants, verified.
class Graph_ComputeOp<string mnemonic, list<Trait> traits = []>
    : Graph_Op<mnemonic, !listconcat([Pure], traits)> {
  let hasFolder = 1;
  let hasVerifier = 1;
}

// y = f(x), elementwise, same type in and out.
class Graph_UnaryOp<string mnemonic, list<Trait> traits = []>
    : Graph_ComputeOp<mnemonic,
                      !listconcat([Graph_Elementwise,
                                   AllTypesMatch<["x", "output"]>], traits)> {
  let arguments = (ins AnyTensor:$x);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

// z = lhs (op) rhs, elementwise with NumPy broadcasting.
class Graph_BinaryOp<string mnemonic, string expr>
    : Graph_ComputeOp<mnemonic, [Graph_Elementwise]> {
  let summary = "elementwise " # expr # " with NumPy broadcasting";
  let description = [{
    Computes `}] # expr # [{` element by element. The operand shapes are
    broadcast as in NumPy: dimensions are aligned from the right, and each
    pair must be equal or contain a 1. The result has the broadcast shape.
  }];
  let arguments = (ins AnyTensor:$lhs, AnyTensor:$rhs);
  let results = (outs AnyTensor:$output);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

// The layout of a 4-D activation: NCHW (the default, the graph's own
// layout) or NHWC (channels innermost, what graph-convert-layout chooses for
// the code generator), `#graph<layout NHWC>`.
def Graph_LayoutAttr
    : DefaultValuedAttr<Graph_LayoutEnumAttr, "::mlir::graph::Layout::NCHW">;

//===----------------------------------------------------------------------===//
// graph.constant
//===----------------------------------------------------------------------===//

def Graph_ConstantOp : Graph_Op<"constant", [
    ConstantLike, Pure,
    AllTypesMatch<["value", "output"]>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "a compile-time tensor";
  let description = [{
    A tensor known at compile time, dense or as a `dense_resource` blob. It is
    what folding produces (the dialect's `materializeConstant` creates it).

    ```mlir
    %c = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyStaticShapeTensor:$output);
  let assemblyFormat = "$value attr-dict";
  let hasFolder = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Convolution and normalization
//===----------------------------------------------------------------------===//

def Graph_Conv2DOp : Graph_ComputeOp<"conv2d"> {
  let summary = "2-D convolution, NCHW input and FCHW weight (or NHWC, HWCF)";
  let description = [{
    `output[n, f, oh, ow] = bias[f] + sum over c, kh, kw of
    input[n, g*C/groups + c, oh*sh - top + kh*dh, ow*sw - left + kw*dw] *
    weight[f, c, kh, kw]`, with `g` the group of `f` and zero outside the
    input. The output is N x F x OH x OW with
    `OH = floor((H + top + bottom - dh*(KH-1) - 1) / sh) + 1`, likewise OW.

    With `layout = #graph<layout NHWC>` the same convolution takes its input
    as N x H x W x C, its weight as KH x KW x C/groups x F (HWCF: the output
    channels innermost, as the vectorized kernel reads them) and gives an
    N x OH x OW x F output; the bias, strides, padding `[top, left, bottom,
    right]` and dilations keep their meaning. `graph-convert-layout` makes
    this form; the default, NCHW, is the ONNX/PyTorch one.

    With `packed_weight` (`groups` 1 only, either layout), the weight is
    packed for the target's micro-kernel (graph-pack-weights): F/f0 x KH x
    KW x C x f0, filter `j * f0 + l` being `weight[j, :, :, :, l]` (its
    KH x KW x C weights), so that a kernel streams every weight of f0
    filters from consecutive addresses.
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$weight,
                   Optional<AnyTensor>:$bias,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                   DefaultValuedAttr<Graph_I64Attr, "1">:$groups,
                   Graph_LayoutAttr:$layout, UnitAttr:$packed_weight);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def Graph_BatchNormOp : Graph_ComputeOp<"batch_norm", [Graph_Elementwise]> {
  let summary = "inference-mode batch normalization over the channels";
  let description = [{
    `output = (input - mean[c]) / sqrt(variance[c] + epsilon) * scale[c] +
    bias[c]`, evaluated in that order in f32, with `c` the index along
    dimension 1 (the channels of any input of rank >= 2). Every parameter is
    a 1-D tensor of size C. With `layout = #graph<layout NHWC>` the input
    has rank 4 and its channels are dimension 3.
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$scale, AnyTensor:$bias,
                   AnyTensor:$mean, AnyTensor:$variance,
                   DefaultValuedAttr<F32Attr, "1e-5f">:$epsilon,
                   Graph_LayoutAttr:$layout);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $input `,` $scale `,` $bias `,` $mean `,` $variance attr-dict `:`
    functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

def Graph_ReluOp : Graph_UnaryOp<"relu"> {
  let summary = "max(x, 0); NaN stays NaN";
}

def Graph_ClipOp : Graph_ComputeOp<"clip",
                                   [Graph_Elementwise,
                                    AllTypesMatch<["x", "output"]>]> {
  let summary = "min(max(x, min), max); NaN stays NaN";
  let description = [{
    Clamps every element into `[min, max]`. ReLU6 is `min = 0`, `max = 6`.
  }];
  let arguments = (ins AnyTensor:$x, F32Attr:$min, F32Attr:$max);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def Graph_SigmoidOp : Graph_UnaryOp<"sigmoid"> {
  let summary = "1 / (1 + exp(-x))";
}

def Graph_TanhOp : Graph_UnaryOp<"tanh"> {
  let summary = "hyperbolic tangent";
}

//===----------------------------------------------------------------------===//
// Elementwise arithmetic
//===----------------------------------------------------------------------===//

def Graph_AddOp : Graph_BinaryOp<"add", "lhs + rhs">;
def Graph_SubOp : Graph_BinaryOp<"sub", "lhs - rhs">;
def Graph_MulOp : Graph_BinaryOp<"mul", "lhs * rhs">;
def Graph_DivOp : Graph_BinaryOp<"div", "lhs / rhs">;

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

def Graph_MatMulOp : Graph_ComputeOp<"matmul"> {
  let summary = "matrix product of an M x K and a K x N matrix";
  let description = [{
    With `packed_b`, `b` holds the K x N matrix packed for the target's
    micro-kernels (graph-pack-weights): N/n0 x K x n0, column `j * n0 + l`
    of the matrix being `b[j, :, l]`, so that a kernel streams n0 columns of
    every row of K from consecutive addresses.
  }];
  let arguments = (ins AnyTensor:$a, AnyTensor:$b, UnitAttr:$packed_b);
  let results = (outs AnyTensor:$output);
  let assemblyFormat =
      "$a `,` $b attr-dict `:` functional-type(operands, results)";
}

def Graph_GemmOp : Graph_ComputeOp<"gemm"> {
  let summary = "alpha * a' * b' + beta * c, as ONNX Gemm";
  let description = [{
    `a'` is `a` transposed when `trans_a` is set, likewise `b'`; `a'` is
    M x K and `b'` K x N. The optional `c` is broadcast to M x N. With
    `packed_b` (and no `trans_b`), `b` holds `b'` packed as `graph.matmul`'s
    `packed_b` says: N/n0 x K x n0.
  }];
  let arguments = (ins AnyTensor:$a, AnyTensor:$b, Optional<AnyTensor>:$c,
                   DefaultValuedAttr<F32Attr, "1.0f">:$alpha,
                   DefaultValuedAttr<F32Attr, "1.0f">:$beta,
                   UnitAttr:$trans_a, UnitAttr:$trans_b, UnitAttr:$packed_b);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $a `,` $b (`,` $c^)? attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

def Graph_MaxPool2DOp : Graph_ComputeOp<"max_pool2d"> {
  let summary = "2-D max pooling over NCHW (or NHWC); padded cells never win";
  let description = [{
    `OH = floor((H + top + bottom - kh) / sh) + 1`, likewise OW. Padding is
    `[top, left, bottom, right]` and must be smaller than the kernel, so every
    window holds at least one real cell. With `layout = #graph<layout NHWC>`
    the input is N x H x W x C and the output N x OH x OW x C.
  }];
  let arguments = (ins AnyTensor:$x, DenseI64ArrayAttr:$kernel,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
                   Graph_LayoutAttr:$layout);
  let results = (outs AnyTensor:$output);
  let assemblyFormat =
      "$x attr-dict `:` functional-type(operands, results)";
}

def Graph_AvgPool2DOp : Graph_ComputeOp<"avg_pool2d"> {
  let summary = "2-D average pooling over NCHW (or NHWC)";
  let description = [{
    Sizes and `layout` as `graph.max_pool2d`. The mean is taken over the
    window's real cells, or over the whole window (padded zeros included)
    with `count_include_pad`.
  }];
  let arguments = (ins AnyTensor:$x, DenseI64ArrayAttr:$kernel,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
                   UnitAttr:$count_include_pad,
                   Graph_LayoutAttr:$layout);
  let results = (outs AnyTensor:$output);
  let assemblyFormat =
      "$x attr-dict `:` functional-type(operands, results)";
}

def Graph_GlobalAvgPoolOp : Graph_ComputeOp<"global_avg_pool"> {
  let summary = "mean over H and W: N x C x H x W to N x C x 1 x 1";
  let description = [{
    With `layout = #graph<layout NHWC>`: N x H x W x C to N x 1 x 1 x C.
  }];
  let arguments = (ins AnyTensor:$x, Graph_LayoutAttr:$layout);
  let results = (outs AnyTensor:$output);
  let assemblyFormat =
      "$x attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

def Graph_ReshapeOp : Graph_ComputeOp<"reshape"> {
  let summary = "same elements in row-major order, new static shape";
  let arguments = (ins AnyTensor:$x, DenseI64ArrayAttr:$shape);
  let results = (outs AnyTensor:$output);
  let assemblyFormat =
      "$x attr-dict `:` functional-type(operands, results)";
}

def Graph_FlattenOp : Graph_ComputeOp<"flatten"> {
  let summary = "to 2-D: [prod(dims before axis), prod(dims from axis)]";
  let description = [{
    `axis` may be negative (counted from the end) and ranges over
    `[-rank, rank]`.
  }];
  let arguments = (ins AnyTensor:$x, DefaultValuedAttr<Graph_I64Attr, "1">:$axis);
  let results = (outs AnyTensor:$output);
  let assemblyFormat =
      "$x attr-dict `:` functional-type(operands, results)";
}

def Graph_TransposeOp : Graph_ComputeOp<"transpose"> {
  let summary = "permutes dimensions: output dim i is input dim perm[i]";
  let description = [{
    A layout change. Canonicalization composes two in a row (and drops the
    pair when they cancel), turns one that only moves dimensions of size 1
    into a `graph.reshape`, and moves one past the elementwise op that is its
    only user (`relu(transpose(x))` becomes `transpose(relu(x))`, the other
    operands of a binary op taken through the inverse permutation when that
    costs nothing: a constant, a value whose permuted form is a reshape, or
    one that is itself such a transpose), so that layout changes gather
    where they cancel.
  }];
  let arguments = (ins AnyTensor:$x, DenseI64ArrayAttr:$perm);
  let results = (outs AnyTensor:$output);
  let assemblyFormat =
      "$x attr-dict `:` functional-type(operands, results)";
  let hasCanonicalizer = 1;
}

def Graph_ConcatOp : Graph_ComputeOp<"concat"> {
  let summary = "joins one or more tensors along `axis`";
  let description = [{
    `axis` may be negative (counted from the end). All inputs have the same
    rank and agree on every other dimension.
  }];
  let arguments = (ins Variadic<AnyTensor>:$inputs, Graph_I64Attr:$axis);
  let results = (outs AnyTensor:$output);
  let assemblyFormat =
      "$inputs attr-dict `:` functional-type(operands, results)";
}

// Not Graph_Elementwise: each output element depends on its whole row.
def Graph_SoftmaxOp : Graph_ComputeOp<"softmax",
                                      [AllTypesMatch<["x", "output"]>]> {
  let summary = "softmax along `axis`, with the maximum subtracted first";
  let arguments = (ins AnyTensor:$x, DefaultValuedAttr<Graph_I64Attr, "-1">:$axis);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

// Normalizations over a row: each output element depends on its whole row.
def Graph_LayerNormOp : Graph_ComputeOp<"layer_norm",
                                        [AttrSizedOperandSegments]> {
  let summary = "layer normalization over the dimensions from `axis` on";
  let description = [{
    Each row of `x` (the elements that share the indices before `axis`) is
    normalized by its mean and biased variance:
    `mean = sum(x) / n`, `var = sum((x - mean)^2) / n`,
    `output = (x - mean) * (1 / sqrt(var + epsilon)) * scale + bias` (the
    order of operations of ONNX's LayerNormalization and of PyTorch's
    kernel), with `n` the row's length; `scale` and `bias` are optional and
    have the row's shape (the dimensions from `axis` on). `axis` may be
    negative. f32.

    graph-fuse recognizes the op in its decomposition (ReduceMean, Sub,
    Mul or Pow, ReduceMean, Add epsilon, Sqrt, Div, Mul, Add, as PyTorch
    exports `nn.LayerNorm` before opset 17), and the ONNX importer makes it
    of `LayerNormalization`.
  }];
  let arguments = (ins AnyTensor:$x, Optional<AnyTensor>:$scale,
                   Optional<AnyTensor>:$bias,
                   DefaultValuedAttr<Graph_I64Attr, "-1">:$axis,
                   DefaultValuedAttr<F32Attr, "1e-5f">:$epsilon);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $x (`scale` $scale^)? (`bias` $bias^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let extraClassDeclaration = [{
    /// Whether a tensor of `shape` holds one value per position of a row of
    /// an `input`-shaped tensor normalized from `axis` (non-negative) on:
    /// the row's shape, after leading ones, no longer than `input`. Such a
    /// scale or bias, reshaped to the row's shape, is an operand of the op.
    static bool isRowShaped(ArrayRef<int64_t> shape, ArrayRef<int64_t> input,
                            int64_t axis);
  }];
}

def Graph_RMSNormOp : Graph_ComputeOp<"rms_norm"> {
  let summary = "root-mean-square normalization over the dimensions from "
                "`axis` on";
  let description = [{
    Each row of `x` (the elements that share the indices before `axis`) is
    divided by its root mean square:
    `output = x * (1 / sqrt(sum(x^2) / n + epsilon)) * scale`, with `n` the
    row's length and `scale` optional, of the row's shape. f32.

    graph-fuse recognizes the op in its decomposition (Mul or Pow,
    ReduceMean, Add epsilon, Sqrt, then Div, or Reciprocal and Mul, then Mul
    by the scale), as LLaMA's and T5's RMSNorm export.
  }];
  let arguments = (ins AnyTensor:$x, Optional<AnyTensor>:$scale,
                   DefaultValuedAttr<Graph_I64Attr, "-1">:$axis,
                   DefaultValuedAttr<F32Attr, "1e-5f">:$epsilon);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $x (`scale` $scale^)? attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Random ops
//===----------------------------------------------------------------------===//

def Graph_DropoutOp : Graph_Op<"dropout", [
    AllTypesMatch<["x", "output"]>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "identity in inference; random zeroing with `training`";
  let description = [{
    Without `training` this is the identity: it has no side effect and its
    fold returns `x`. With `training` each element is zeroed with probability
    `ratio` and the rest scaled by `1 / (1 - ratio)`; the op then reads and
    advances the random number generator, so it is never folded, erased or
    fused.
  }];
  let arguments = (ins AnyTensor:$x,
                   DefaultValuedAttr<F32Attr, "0.5f">:$ratio,
                   UnitAttr:$training);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$x attr-dict `:` type($x)";
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Graph_RandomUniformOp : Graph_Op<"random_uniform", [
    MemoryEffects<[MemRead<Graph_RNGResource>,
                   MemWrite<Graph_RNGResource>]>]> {
  let summary = "a tensor of uniform random values in [low, high)";
  let description = [{
    Draws from the random number generator, seeded by `seed`; it is never
    folded, erased or fused.
  }];
  let arguments = (ins DenseI64ArrayAttr:$shape,
                   DefaultValuedAttr<F32Attr, "0.0f">:$low,
                   DefaultValuedAttr<F32Attr, "1.0f">:$high,
                   DefaultValuedAttr<Graph_I64Attr, "0">:$seed);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "attr-dict `:` type($output)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Fusion
//===----------------------------------------------------------------------===//

def Graph_FusedOp : Graph_Op<"fused", [
    IsolatedFromAbove, RecursiveMemoryEffects, SingleBlock]> {
  let summary = "a group of ops compiled as one kernel";
  let description = [{
    The body computes the group from its block arguments, which stand for the
    operands one for one, and yields the results. `kind` names the group: the
    mnemonics of its ops joined by `_`, e.g. `"conv2d_batch_norm_relu"`. The
    op is pure exactly when its body is.

    ```mlir
    %0 = graph.fused "conv2d_relu" (%x, %w) : (tensor<1x3x8x8xf32>,
        tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
    ^bb0(%a: tensor<1x3x8x8xf32>, %b: tensor<4x3x3x3xf32>):
      %1 = graph.conv2d %a, %b : (...) -> tensor<1x4x6x6xf32>
      %2 = graph.relu %1 : tensor<1x4x6x6xf32>
      graph.yield %2 : tensor<1x4x6x6xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs, StrAttr:$kind);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $kind `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
    $body
  }];
  let hasFolder = 1;
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// The terminator of the body.
    YieldOp getYield();

    /// Evaluates, through the body ops' fold hooks, the results whose
    /// `wanted` flag is set, from `inputs` (an attribute per operand, null
    /// where the operand is not a constant). `results` gets one entry per
    /// result: an attribute, the operand a result passes through, or null
    /// where the result is not wanted or cannot be computed. Only the body
    /// ops that the wanted results need are evaluated.
    void evaluateResults(ArrayRef<Attribute> inputs, ArrayRef<bool> wanted,
                         SmallVectorImpl<OpFoldResult> &results);
  }];
}

def Graph_YieldOp : Graph_Op<"yield", [
    Pure, ReturnLike, Terminator, ParentOneOf<["FusedOp", "IfOp", "LoopOp"]>]> {
  let summary = "returns the results of a `graph.fused` body, of the "
                "region of a `graph.if` that ran, or of an iteration of a "
                "`graph.loop`";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
}

//===----------------------------------------------------------------------===//
// Beyond the f32 core: more element types and operators, one file per family
//===----------------------------------------------------------------------===//

include "graph/Dialect/Graph/IR/GraphElementwiseOps.td"
include "graph/Dialect/Graph/IR/GraphShapeOps.td"
include "graph/Dialect/Graph/IR/GraphReductionOps.td"
include "graph/Dialect/Graph/IR/GraphNNOps.td"
include "graph/Dialect/Graph/IR/GraphQuantOps.td"
include "graph/Dialect/Graph/IR/GraphRecurrentOps.td"
include "graph/Dialect/Graph/IR/GraphControlFlowOps.td"

#endif // GRAPH_DIALECT_GRAPH_IR_GRAPHOPS_TD
