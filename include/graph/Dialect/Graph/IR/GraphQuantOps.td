//===- GraphQuantOps.td - Quantization ops -----------------*- tablegen -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Affine quantization as ONNX defines it: q = saturate(round(x / scale) +
// zero_point), x = (q - zero_point) * scale. Scales and zero points are
// operands, not part of the element type (MLIR's quant types), so that a
// scale computed at run time (DynamicQuantizeLinear) is the same op as a
// constant one, and every tensor crossing the model boundary stays a plain
// integer tensor.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_DIALECT_GRAPH_IR_GRAPHQUANTOPS_TD
#define GRAPH_DIALECT_GRAPH_IR_GRAPHQUANTOPS_TD

def Graph_QuantizeOp : Graph_ComputeOp<"quantize", [Graph_Elementwise]> {
  let summary = "affine quantization to an integer type";
  let description = [{
    `output = clamp(roundeven(x / scale) + zero_point, lowest, highest)` in
    the element type of `zero_point` (i8, ui8, i16 or ui16), the division in
    the float type of `x` (f16 and bf16 through f32). `scale` (the float type
    of `x`) and `zero_point` broadcast NumPy style to the shape of `x`
    without changing it: a per-axis scale is a tensor with ones on every
    other dimension. NaN gives the lowest value of the type.
  }];
  let arguments = (ins AnyTensor:$x, AnyTensor:$scale, AnyTensor:$zero_point);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $x `,` $scale `,` $zero_point attr-dict `:`
    functional-type(operands, results)
  }];
}

def Graph_DequantizeOp : Graph_ComputeOp<"dequantize", [Graph_Elementwise]> {
  let summary = "affine dequantization from an integer type";
  let description = [{
    `output = (x - zero_point) * scale`, computed in the float type of
    `scale` (the result's) with `x` and `zero_point` converted to it first.
    `x` is i8, ui8, i16, ui16 or i32 and `zero_point` has its element type;
    both `scale` and `zero_point` broadcast NumPy style to the shape of `x`
    without changing it.
  }];
  let arguments = (ins AnyTensor:$x, AnyTensor:$scale, AnyTensor:$zero_point);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $x `,` $scale `,` $zero_point attr-dict `:`
    functional-type(operands, results)
  }];
}

def Graph_FakeQuantizeOp
    : Graph_ComputeOp<"fake_quantize", [Graph_Elementwise]> {
  let summary = "quantization and dequantization, in float";
  let description = [{
    `graph.dequantize(graph.quantize(x, scale, zero_point), scale,
    zero_point)` in one op whose result is `x`'s float type: each value
    rounded onto the quantization grid and saturated to the range of the
    zero point's integer type (i8, ui8, i16 or ui16), NaN giving the lowest.
    What a quantized model in the QDQ form does to an activation that no
    integer op reads: as an elementwise op of floats, it is the epilogue of
    the op that produces the activation (graph-fuse), where the pair would
    be two kernels around an integer tensor.
  }];
  let arguments = (ins AnyTensor:$x, AnyTensor:$scale, AnyTensor:$zero_point);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $x `,` $scale `,` $zero_point attr-dict `:`
    functional-type(operands, results)
  }];
}

def Graph_ConvIntegerOp : Graph_ComputeOp<"conv_integer"> {
  let summary = "N-d integer convolution with zero points, i32 accumulation";
  let description = [{
    `graph.conv` over `input - input_zero_point` and
    `weight - weight_zero_point`, exactly, in i32. `input` and `weight` are
    i8 or ui8 (each zero point has its operand's element type and
    broadcasts to its shape without changing it: a per-filter weight zero
    point is F x 1 x ... x 1). The padding adds positions whose value is
    the input zero point, so they contribute nothing. Attributes as
    `graph.conv`; the result is i32.

    A 2-D convolution may take `layout = #graph<layout NHWC>`, as
    `graph.conv2d` does: input N x H x W x C, weight KH x KW x C/groups x F
    (its zero point broadcasting to that shape: one value, or one per filter
    as 1 x 1 x 1 x F or F), output N x OH x OW x F. `graph-convert-layout`
    makes this form; the integer kernels read it.
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$weight,
                   AnyTensor:$input_zero_point, AnyTensor:$weight_zero_point,
                   DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$padding,
                   DenseI64ArrayAttr:$dilations,
                   DefaultValuedAttr<Graph_I64Attr, "1">:$groups,
                   Graph_LayoutAttr:$layout);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $input `,` $weight `,` $input_zero_point `,` $weight_zero_point attr-dict
    `:` functional-type(operands, results)
  }];
}

def Graph_MatMulIntegerOp : Graph_ComputeOp<"matmul_integer"> {
  let summary = "batched integer matrix product with zero points, in i32";
  let description = [{
    `graph.batch_matmul` of `a - a_zero_point` by `b - b_zero_point`,
    exactly, in i32: `a` is [..., M, K], `b` [..., K, N], both i8 or ui8,
    batch dimensions broadcast NumPy style. Each zero point has its
    operand's element type and broadcasts to its shape without changing it
    (a per-row zero point of `a` is M x 1, a per-column one of `b` is N).
  }];
  let arguments = (ins AnyTensor:$a, AnyTensor:$b, AnyTensor:$a_zero_point,
                   AnyTensor:$b_zero_point);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $a `,` $b `,` $a_zero_point `,` $b_zero_point attr-dict `:`
    functional-type(operands, results)
  }];
}

#endif // GRAPH_DIALECT_GRAPH_IR_GRAPHQUANTOPS_TD
