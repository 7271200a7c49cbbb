//===- ImportPatterns.cpp - Op patterns of exported models ----------------===//
//
// Subgraphs that exporters write for an operator ONNX lacked at the opset
// they target, recognized after import and replaced by the graph op, where
// the op computes exactly the same operations:
//   GELU (before opset 20): PyTorch writes x * (erf(x / sqrt(2)) + 1) * 0.5
//   as Div, Erf, Add, Mul, Mul; graph.gelu computes those five operations in
//   that order.
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

/// Replaces mul(mul(x, add(erf(div(x, sqrt2)), 1)), 0.5) by gelu(x).
static void recognizeGelu(MulOp outer) {
  auto type = cast<RankedTensorType>(outer.getType());
  ArrayRef<int64_t> shape = type.getShape();
  Value product = otherOperand(
      outer, [&](Value v) { return isSplatConstant(v, 0.5, shape); });
  auto inner = product ? product.getDefiningOp<MulOp>() : MulOp();
  if (!inner || !inner->hasOneUse() || inner.getType() != type)
    return;
  // inner = x * (erf(x / c) + 1), with x either operand.
  for (auto [x, sum] : {std::pair(inner.getLhs(), inner.getRhs()),
                        std::pair(inner.getRhs(), inner.getLhs())}) {
    auto add = sum.getDefiningOp<AddOp>();
    if (!add || !add->hasOneUse() || x.getType() != type)
      continue;
    Value erfValue = otherOperand(
        add, [&](Value v) { return isSplatConstant(v, 1.0, shape); });
    auto erf = erfValue ? erfValue.getDefiningOp<ErfOp>() : ErfOp();
    if (!erf || !erf->hasOneUse())
      continue;
    auto div = erf.getX().getDefiningOp<DivOp>();
    if (!div || !div->hasOneUse() || div.getLhs() != x ||
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

void mlir::graph::onnx_import::recognizeExportPatterns(Block &body) {
  SmallVector<MulOp> muls;
  SmallVector<PowOp> pows;
  for (Operation &op : body) {
    if (auto mul = dyn_cast<MulOp>(op))
      muls.push_back(mul);
    if (auto pow = dyn_cast<PowOp>(op))
      pows.push_back(pow);
  }
  for (MulOp mul : muls)
    recognizeGelu(mul);
  for (PowOp pow : pows)
    recognizeSquare(pow);
}
