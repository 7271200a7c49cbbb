//===- ImportPatterns.cpp - Op patterns of exported models ----------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Subgraphs that exporters write for an operator ONNX lacked at the opset
// they target, recognized after import and replaced by the graph op, where
// the op computes exactly the same operations:
//   GELU (before opset 20): PyTorch writes x * (erf(x / sqrt(2)) + 1) * 0.5
//   as Div, Erf, Add, Mul, Mul; graph.gelu computes those five operations in
//   that order. Its tanh form, x * (1 + tanh(c * (x + 0.044715 * x * (x *
//   x)))) * 0.5, is Mul, Mul, Mul, Add, Mul, Tanh, Add, Mul, Mul: graph.gelu
//   with `tanh`, the same nine operations.
//   Squares: x.pow(2) (LayerNorm's and RMSNorm's variance) is Pow(x, 2), a
//   libm call per element; mul(x, x) is its correctly rounded value, which
//   is also what ONNX Runtime and PyTorch compute for it.
//
//===----------------------------------------------------------------------===//

#include "ImportHelpers.h"

#include "graph/Dialect/Graph/IR/TypedTensor.h"

#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::onnx_import;

/// Whether `value` is a constant whose every element is `expected` (compared
/// in the element type) and whose shape broadcasts to `shape` without
/// changing it.
static bool isSplatConstant(Value value, double expected,
                            ArrayRef<int64_t> shape) {
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return false;
  std::optional<TypedTensor> tensor = readTypedTensor(attr);
  if (!tensor || !isFloatKind(tensor->getKind()) ||
      !reference::broadcastsTo(tensor->getShape(), shape))
    return false;
  TypedTensor all = tensor->expanded();
  for (int64_t i = 0, e = all.getNumElements(); i < e; ++i) {
    double v = all.getDouble(i);
    bool same = tensor->getKind() == ElementKind::F64
                    ? v == expected
                    : float(v) == float(expected);
    if (!same)
      return false;
  }
  return true;
}

/// The operand of a commutative binary op that is not `other`, or null.
template <typename OpTy>
static Value otherOperand(OpTy op, function_ref<bool(Value)> isOther) {
  if (isOther(op.getRhs()))
    return op.getLhs();
  if (isOther(op.getLhs()))
    return op.getRhs();
  return {};
}

/// The defining op of `value` if it is an OpTy with one use.
template <typename OpTy> static OpTy singleUseDef(Value value) {
  auto op = value ? value.getDefiningOp<OpTy>() : OpTy();
  return op && op->hasOneUse() ? op : OpTy();
}

/// Replaces mul(mul(x, add(erf(div(x, sqrt2)), 1)), 0.5) by gelu(x).
static void recognizeGelu(MulOp outer) {
  auto type = cast<RankedTensorType>(outer.getType());
  ArrayRef<int64_t> shape = type.getShape();
  Value product = otherOperand(
      outer, [&](Value v) { return isSplatConstant(v, 0.5, shape); });
  auto inner = singleUseDef<MulOp>(product);
  if (!inner || inner.getType() != type)
    return;
  // inner = x * (erf(x / c) + 1), with x either operand.
  for (auto [x, sum] : {std::pair(inner.getLhs(), inner.getRhs()),
                        std::pair(inner.getRhs(), inner.getLhs())}) {
    auto add = singleUseDef<AddOp>(sum);
    if (!add || x.getType() != type)
      continue;
    auto erf = singleUseDef<ErfOp>(otherOperand(
        add, [&](Value v) { return isSplatConstant(v, 1.0, shape); }));
    if (!erf)
      continue;
    auto div = singleUseDef<DivOp>(erf.getX());
    if (!div || div.getLhs() != x ||
        !isSplatConstant(div.getRhs(), std::sqrt(2.0), shape))
      continue;
    OpBuilder b(outer);
    Value gelu = GeluOp::create(b, outer.getLoc(), type, x, UnitAttr());
    outer.replaceAllUsesWith(gelu);
    // The matched ops are dead now; the importer's sweep erases them.
    return;
  }
}

/// Replaces pow(x, 2) of floats by mul(x, x).
static void recognizeSquare(PowOp pow) {
  auto type = cast<RankedTensorType>(pow.getType());
  if (pow.getLhs().getType() != type ||
      !isSplatConstant(pow.getRhs(), 2.0, type.getShape()))
    return;
  OpBuilder b(pow);
  Value x = pow.getLhs();
  pow.replaceAllUsesWith(
      MulOp::create(b, pow.getLoc(), type, x, x).getResult());
}

/// Whether `value` is x * (x * x) or (x * x) * x, the inner product used
/// only there.
static bool isCube(Value value, Value x) {
  auto outer = singleUseDef<MulOp>(value);
  if (!outer)
    return false;
  Value square = otherOperand(outer, [&](Value v) { return v == x; });
  auto inner = singleUseDef<MulOp>(square);
  return inner && inner.getLhs() == x && inner.getRhs() == x;
}

/// Replaces mul(mul(x, add(tanh(mul(c, add(x, mul(0.044715, cube(x))))),
/// 1)), 0.5) by gelu(x) {tanh}.
static void recognizeTanhGelu(MulOp outer) {
  auto type = cast<RankedTensorType>(outer.getType());
  ArrayRef<int64_t> shape = type.getShape();
  auto isConstant = [&](double c) {
    return [&, c](Value v) { return isSplatConstant(v, c, shape); };
  };
  auto inner = singleUseDef<MulOp>(otherOperand(outer, isConstant(0.5)));
  if (!inner || inner.getType() != type)
    return;
  for (auto [x, sum] : {std::pair(inner.getLhs(), inner.getRhs()),
                        std::pair(inner.getRhs(), inner.getLhs())}) {
    if (x.getType() != type)
      continue;
    auto shifted = singleUseDef<AddOp>(sum);
    auto tanh =
        shifted ? singleUseDef<TanhOp>(otherOperand(shifted, isConstant(1.0)))
                : TanhOp();
    auto scaled = tanh ? singleUseDef<MulOp>(tanh.getX()) : MulOp();
    auto argument = scaled ? singleUseDef<AddOp>(otherOperand(
                                 scaled, isConstant(0.79788456080286535588)))
                           : AddOp();
    if (!argument)
      continue;
    auto term = singleUseDef<MulOp>(
        otherOperand(argument, [x = x](Value v) { return v == x; }));
    if (!term || !isCube(otherOperand(term, isConstant(0.044715)), x))
      continue;
    OpBuilder b(outer);
    Value gelu = GeluOp::create(b, outer.getLoc(), type, x, b.getUnitAttr());
    outer.replaceAllUsesWith(gelu);
    return;
  }
}

void mlir::graph::onnx_import::recognizeExportPatterns(Block &body) {
  SmallVector<MulOp> muls;
  SmallVector<PowOp> pows;
  for (Operation &op : body) {
    if (auto mul = dyn_cast<MulOp>(op))
      muls.push_back(mul);
    if (auto pow = dyn_cast<PowOp>(op))
      pows.push_back(pow);
  }
  for (MulOp mul : muls) {
    recognizeGelu(mul);
    recognizeTanhGelu(mul);
  }
  for (PowOp pow : pows)
    recognizeSquare(pow);
}
