//===- GraphElementwiseOps.td - Elementwise ops beyond f32 -*- tablegen -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Math functions, activations, comparisons, logic, casts and selection: every
// output element depends on the input elements at the same index (after
// NumPy broadcasting), so each op carries Graph_Elementwise. Included from
// GraphOps.td.
//
// Element types, checked by the verifiers (which name the operand):
//   float:   f16, bf16, f32, f64. f16 and bf16 compute in f32 and round
//            after every operation.
//   numeric: float and the integers i8..i64, ui8..ui64.
//   bool:    i1.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_DIALECT_GRAPH_IR_GRAPHELEMENTWISEOPS_TD
#define GRAPH_DIALECT_GRAPH_IR_GRAPHELEMENTWISEOPS_TD

//===----------------------------------------------------------------------===//
// Unary math (same type in and out)
//===----------------------------------------------------------------------===//

class Graph_MathOp<string mnemonic, string text, string types = "float">
    : Graph_UnaryOp<mnemonic> {
  let summary = text;
  let description = "Element type: " # types # ".";
}

def Graph_NegOp : Graph_MathOp<"neg", "-x", "numeric (integers wrap)">;
def Graph_AbsOp : Graph_MathOp<"abs", "|x|", "numeric (integers wrap)">;
def Graph_SignOp : Graph_MathOp<"sign", "-1, 0 or 1 by the sign of x; NaN stays NaN",
                                "numeric">;
def Graph_ReciprocalOp : Graph_MathOp<"reciprocal", "1 / x">;
def Graph_ExpOp : Graph_MathOp<"exp", "e^x">;
def Graph_LogOp : Graph_MathOp<"log", "natural logarithm">;
def Graph_SqrtOp : Graph_MathOp<"sqrt", "square root">;
def Graph_ErfOp : Graph_MathOp<"erf", "the error function">;
def Graph_FloorOp : Graph_MathOp<"floor", "largest integer <= x">;
def Graph_CeilOp : Graph_MathOp<"ceil", "smallest integer >= x">;
def Graph_RoundOp : Graph_MathOp<"round", "nearest integer, ties to even">;
def Graph_SinOp : Graph_MathOp<"sin", "sine">;
def Graph_CosOp : Graph_MathOp<"cos", "cosine">;
def Graph_TanOp : Graph_MathOp<"tan", "tangent">;
def Graph_AsinOp : Graph_MathOp<"asin", "arcsine">;
def Graph_AcosOp : Graph_MathOp<"acos", "arccosine">;
def Graph_AtanOp : Graph_MathOp<"atan", "arctangent">;
def Graph_SinhOp : Graph_MathOp<"sinh", "hyperbolic sine">;
def Graph_CoshOp : Graph_MathOp<"cosh", "hyperbolic cosine">;
def Graph_AsinhOp : Graph_MathOp<"asinh", "inverse hyperbolic sine">;
def Graph_AcoshOp : Graph_MathOp<"acosh", "inverse hyperbolic cosine">;
def Graph_AtanhOp : Graph_MathOp<"atanh", "inverse hyperbolic tangent">;
def Graph_SoftplusOp : Graph_MathOp<"softplus", "log(exp(x) + 1)">;
def Graph_NotOp : Graph_MathOp<"not", "logical not", "bool">;

//===----------------------------------------------------------------------===//
// Activations with parameters
//===----------------------------------------------------------------------===//

class Graph_ActivationOp<string mnemonic, string text, dag attrs>
    : Graph_ComputeOp<mnemonic, [Graph_Elementwise,
                                 AllTypesMatch<["x", "output"]>]> {
  let summary = text;
  let description = "Element type: float. Evaluated in the order written.";
  let arguments = !con((ins AnyTensor:$x), attrs);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def Graph_LeakyReluOp : Graph_ActivationOp<"leaky_relu",
    "x < 0 ? alpha * x : x",
    (ins DefaultValuedAttr<F32Attr, "0.01f">:$alpha)>;
def Graph_EluOp : Graph_ActivationOp<"elu",
    "x < 0 ? alpha * (exp(x) - 1) : x",
    (ins DefaultValuedAttr<F32Attr, "1.0f">:$alpha)>;
def Graph_SeluOp : Graph_ActivationOp<"selu",
    "x <= 0 ? gamma * (alpha * exp(x) - alpha) : gamma * x",
    (ins DefaultValuedAttr<F32Attr, "1.67326319217681884765625f">:$alpha,
         DefaultValuedAttr<F32Attr, "1.05070102214813232421875f">:$gamma)>;
def Graph_HardSigmoidOp : Graph_ActivationOp<"hard_sigmoid",
    "min(max(alpha * x + beta, 0), 1)",
    (ins DefaultValuedAttr<F32Attr, "0.2f">:$alpha,
         DefaultValuedAttr<F32Attr, "0.5f">:$beta)>;
def Graph_HardSwishOp : Graph_ActivationOp<"hard_swish",
    "x * min(max(x * (1/6) + 0.5, 0), 1)", (ins)>;
def Graph_GeluOp : Graph_ActivationOp<"gelu",
    "(x * (erf(x / sqrt(2)) + 1)) * 0.5, or its tanh approximation",
    (ins UnitAttr:$tanh)> {
  let description = [{
    Element type: float. Without `tanh`: `(x * (erf(x / c) + 1)) * 0.5` with
    `c` = sqrt(2) rounded to the element type, in that order (the order of
    PyTorch's exported Erf pattern, which the ONNX importer turns into this
    op). With `tanh`: `(x * (tanh(sqrt(2/pi) * (x + 0.044715 * ((x * x) *
    x))) + 1)) * 0.5`, in that order (PyTorch's exported tanh pattern, also
    recognized at import).
  }];
}

//===----------------------------------------------------------------------===//
// Binary arithmetic, min/max, logic (NumPy broadcasting)
//===----------------------------------------------------------------------===//

def Graph_PowOp : Graph_BinaryOp<"pow", "lhs ^ rhs"> {
  let description = [{
    `lhs` raised to `rhs`, elementwise with NumPy broadcasting; both operands
    and the result have one numeric element type. Integers: repeated
    multiplication (wrapping), a negative exponent gives 0 unless the base is
    1 or -1.
  }];
}
def Graph_ModOp : Graph_ComputeOp<"mod", [Graph_Elementwise]> {
  let summary = "remainder, with the sign of the divisor or (fmod) dividend";
  let description = [{
    Without `fmod` (integers only): `lhs - floor(lhs / rhs) * rhs`, the sign
    of the divisor, as Python's `%`. With `fmod`: C's `fmod`, the sign of the
    dividend (floats and integers). An integer remainder by 0 is 0.
  }];
  let arguments = (ins AnyTensor:$lhs, AnyTensor:$rhs, UnitAttr:$fmod);
  let results = (outs AnyTensor:$output);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}
def Graph_MinOp : Graph_BinaryOp<"min", "min(lhs, rhs)"> {
  let description = [{
    The smaller operand, numeric, with NumPy broadcasting. Floats: NaN
    propagates and -0 < +0 (`arith.minimumf`).
  }];
}
def Graph_MaxOp : Graph_BinaryOp<"max", "max(lhs, rhs)"> {
  let description = [{
    The larger operand, numeric, with NumPy broadcasting. Floats: NaN
    propagates and -0 < +0 (`arith.maximumf`).
  }];
}
def Graph_AndOp : Graph_BinaryOp<"and", "lhs and rhs (bool)">;
def Graph_OrOp : Graph_BinaryOp<"or", "lhs or rhs (bool)">;
def Graph_XorOp : Graph_BinaryOp<"xor", "lhs xor rhs (bool)">;
def Graph_PReluOp : Graph_BinaryOp<"prelu", "x < 0 ? slope * x : x"> {
  let description = [{
    `lhs` is x, `rhs` the slope, which broadcasts to x (float).
  }];
}
def Graph_BitShiftOp : Graph_ComputeOp<"bit_shift", [Graph_Elementwise]> {
  let summary = "lhs shifted left or right by rhs bits (unsigned integers)";
  let description = [{
    A shift by the bit width or more gives 0.
  }];
  let arguments = (ins AnyTensor:$lhs, AnyTensor:$rhs, UnitAttr:$right);
  let results = (outs AnyTensor:$output);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Comparisons: numeric operands, i1 result
//===----------------------------------------------------------------------===//

class Graph_CompareOp<string mnemonic, string expr>
    : Graph_ComputeOp<mnemonic, [Graph_Elementwise]> {
  let summary = "lhs " # expr # " rhs, elementwise with NumPy broadcasting";
  let description = [{
    Both operands have one element type; the result is `i1` of the broadcast
    shape. Floats compare ordered: a NaN operand gives false.
  }];
  let arguments = (ins AnyTensor:$lhs, AnyTensor:$rhs);
  let results = (outs AnyTensor:$output);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

def Graph_EqualOp : Graph_CompareOp<"equal", "=="> {
  let description = [{
    Both operands have one element type (bool included); the result is `i1`
    of the broadcast shape. A NaN operand gives false.
  }];
}
def Graph_LessOp : Graph_CompareOp<"less", "<">;
def Graph_LessEqualOp : Graph_CompareOp<"less_equal", "<=">;
def Graph_GreaterOp : Graph_CompareOp<"greater", ">">;
def Graph_GreaterEqualOp : Graph_CompareOp<"greater_equal", ">=">;

//===----------------------------------------------------------------------===//
// Selection and casts
//===----------------------------------------------------------------------===//

def Graph_WhereOp : Graph_ComputeOp<"where", [Graph_Elementwise]> {
  let summary = "condition ? x : y, elementwise with NumPy broadcasting";
  let description = [{
    `condition` is `i1`; `x` and `y` share any element type, the result's.
    The three shapes broadcast together.
  }];
  let arguments = (ins AnyTensor:$condition, AnyTensor:$x, AnyTensor:$y);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $condition `,` $x `,` $y attr-dict `:` functional-type(operands, results)
  }];
}

def Graph_CastOp : Graph_ComputeOp<"cast", [Graph_Elementwise]> {
  let summary = "converts every element to the result's element type";
  let description = [{
    Same shape, any element types. Floats round to nearest (ties to even).
    Float to integer truncates toward zero and saturates; NaN gives 0.
    Integers to narrower ones wrap; unsigned ones widen with zeros, signed
    ones with the sign. To bool: `x != 0` (NaN is true); from bool: 0 or 1.
  }];
  let arguments = (ins AnyTensor:$x);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$x attr-dict `:` functional-type(operands, results)";
}

#endif // GRAPH_DIALECT_GRAPH_IR_GRAPHELEMENTWISEOPS_TD
