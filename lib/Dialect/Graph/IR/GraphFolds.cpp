//===- GraphFolds.cpp - Fold hooks of the graph ops -------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every compute op evaluates itself when all its operands are constants,
// through the float kernels of ReferenceKernels.h (the convolutions,
// batch_norm and the poolings in NNFolds.cpp). Splat operands of
// elementwise ops give a splat result computed once, never expanded. The
// identity folds are exactly the IEEE-exact, shape-preserving ones of the
// spec: x * 1, 1 * x, x / 1, x - (+0), x + (-0), (-0) + x and inference
// dropout.
//
// The hooks do not rely on the verifier: any operand or attribute that does
// not fit the result type makes them decline to fold. Nor do they evaluate
// without bound: each asks `withinFoldLimits` (FoldLimits.h) first, with the
// tensors it would materialize and the operations it would perform.
//
//===----------------------------------------------------------------------===//

#include "FoldHelpers.h"
#include "TypedFolds.h"

#include "graph/Dialect/Graph/IR/ConstantTensor.h"
#include "graph/Dialect/Graph/IR/FoldLimits.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/ReferenceKernels.h"
#include "graph/Dialect/Graph/IR/TypedTensor.h"

#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::graph;
namespace ref = mlir::graph::reference;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

RankedTensorType mlir::graph::getFoldableType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() || !tensor.getElementType().isF32() ||
      !getCheckedNumElements(tensor.getShape()))
    return {};
  return tensor;
}

int64_t mlir::graph::expansionOf(const ConstantTensor &tensor) {
  return tensor.isSplat ? tensor.getNumElements() : 0;
}

/// Whether `attr` is a splat f32 constant with exactly the bits of `value`
/// (so that -0.0 and +0.0 are told apart).
static bool isSplatOf(Attribute attr, float value) {
  auto dense = dyn_cast_if_present<DenseElementsAttr>(attr);
  if (!dense || !dense.isSplat() || !dense.getElementType().isF32())
    return false;
  return llvm::bit_cast<uint32_t>(dense.getSplatValue<float>()) ==
         llvm::bit_cast<uint32_t>(value);
}

/// Normalizes a possibly negative axis into [0, rank + extra).
static std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank,
                                            int64_t extra = 0) {
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank + extra)
    return std::nullopt;
  return axis;
}

/// y = fn(x) elementwise; a splat stays a splat.
static OpFoldResult foldUnary(Attribute operand, Type resultType,
                              function_ref<float(float)> fn) {
  RankedTensorType type = getFoldableType(resultType);
  std::optional<ConstantTensor> x = readConstantTensor(operand);
  if (!type || !x || x->getShape() != type.getShape())
    return {};
  if (x->isSplat)
    return makeSplatTensor(type, fn(x->splatValue));
  if (!withinFoldLimits({type.getNumElements()}, type.getNumElements()))
    return {};
  SmallVector<float> out(x->values.size());
  for (auto [dst, src] : llvm::zip_equal(out, x->values))
    dst = fn(src);
  return makeConstantTensor(type, out);
}

/// lhs (kind) rhs with NumPy broadcasting; two splats give a splat.
static OpFoldResult foldBinary(ref::BinaryKind kind, Attribute lhsAttr,
                               Attribute rhsAttr, Type resultType) {
  RankedTensorType type = getFoldableType(resultType);
  if (!type)
    return foldTypedArithmetic(kind, lhsAttr, rhsAttr, resultType);
  std::optional<ConstantTensor> lhs = readConstantTensor(lhsAttr);
  if (!lhs)
    return {};
  std::optional<ConstantTensor> rhs = readConstantTensor(rhsAttr);
  if (!rhs)
    return {};
  std::optional<SmallVector<int64_t>> shape =
      ref::broadcastShapes(lhs->getShape(), rhs->getShape());
  if (!shape || ArrayRef<int64_t>(*shape) != type.getShape())
    return {};
  if (lhs->isSplat && rhs->isSplat)
    return makeSplatTensor(type,
                           ref::binary(kind, lhs->splatValue, rhs->splatValue));
  if (!withinFoldLimits(
          {expansionOf(*lhs), expansionOf(*rhs), type.getNumElements()},
          type.getNumElements()))
    return {};
  SmallVector<float> lhsValues = lhs->expand(), rhsValues = rhs->expand();
  SmallVector<float> out(type.getNumElements());
  ref::broadcastBinary(kind, lhsValues, lhs->getShape(), rhsValues,
                       rhs->getShape(), type.getShape(), out);
  return makeConstantTensor(type, out);
}

float mlir::graph::sumOfEqualProducts(float a, float b, int64_t count) {
  float acc = 0.0f;
  for (int64_t i = 0; i < count; ++i) {
    float prod = a * b;
    acc = acc + prod;
  }
  return acc;
}

/// The same elements under a new static shape, without copying: a dense
/// constant is reshaped (a splat stays a splat), a dense_resource keeps its
/// blob.
static OpFoldResult foldReshapeLike(Attribute operand, Type resultType) {
  // Any element type: the elements are only relabelled.
  auto type = dyn_cast<RankedTensorType>(resultType);
  if (!type || !type.hasStaticShape() || !readTypedTensor(operand))
    return {};
  auto source = cast<ShapedType>(cast<TypedAttr>(operand).getType());
  if (source.getNumElements() != type.getNumElements())
    return {};
  if (auto dense = dyn_cast<DenseElementsAttr>(operand))
    return dense.reshape(type);
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(operand))
    return DenseResourceElementsAttr::get(type, resource.getRawHandle());
  return {};
}

RankedTensorType mlir::graph::permuteType(RankedTensorType type,
                                          ArrayRef<int64_t> perm) {
  SmallVector<int64_t> shape;
  for (int64_t d : perm)
    shape.push_back(type.getDimSize(d));
  return RankedTensorType::get(shape, type.getElementType());
}

ConstantTensor mlir::graph::permute(const ConstantTensor &t,
                                    ArrayRef<int64_t> perm) {
  ConstantTensor result;
  result.type = permuteType(t.type, perm);
  result.isSplat = t.isSplat;
  result.splatValue = t.splatValue;
  if (!t.isSplat) {
    result.values.resize(t.values.size());
    ref::transpose(t.values, t.getShape(), perm, result.values);
  }
  return result;
}

std::optional<ConstantTensor> mlir::graph::readAsNCHW(Attribute attr) {
  std::optional<ConstantTensor> t = readConstantTensor(attr);
  if (!t || t->getShape().size() != 4)
    return std::nullopt;
  return permute(*t, kNHWCToNCHW);
}

OpFoldResult mlir::graph::toNHWCResult(OpFoldResult folded) {
  std::optional<ConstantTensor> t =
      readConstantTensor(dyn_cast_if_present<Attribute>(folded));
  if (!t || t->getShape().size() != 4)
    return {};
  ConstantTensor result = permute(*t, kNCHWToNHWC);
  if (result.isSplat)
    return makeSplatTensor(result.type, result.splatValue);
  return makeConstantTensor(result.type, result.values);
}

//===----------------------------------------------------------------------===//
// graph.constant
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

OpFoldResult ReluOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), ref::relu);
}

OpFoldResult ClipOp::fold(FoldAdaptor adaptor) {
  float lo = getMin().convertToFloat(), hi = getMax().convertToFloat();
  return foldUnary(adaptor.getX(), getType(),
                   [&](float x) { return ref::clip(x, lo, hi); });
}

OpFoldResult SigmoidOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), ref::sigmoid);
}

OpFoldResult TanhOp::fold(FoldAdaptor adaptor) {
  return foldUnary(adaptor.getX(), getType(), ref::tanhF);
}

//===----------------------------------------------------------------------===//
// Elementwise arithmetic
//===----------------------------------------------------------------------===//

// An identity fold must keep the shape: `x * 1` where 1 broadcasts x to a
// larger shape is not the identity.

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  // x + (-0) is x for every x, -0 included; x + (+0) is not (-0 + +0 = +0).
  if (isSplatOf(adaptor.getRhs(), -0.0f) && getType() == getLhs().getType())
    return getLhs();
  if (isSplatOf(adaptor.getLhs(), -0.0f) && getType() == getRhs().getType())
    return getRhs();
  return foldBinary(ref::BinaryKind::Add, adaptor.getLhs(), adaptor.getRhs(),
                    getType());
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  // x - (+0) is x for every x; x - (-0) is not (-0 - -0 = +0).
  if (isSplatOf(adaptor.getRhs(), 0.0f) && getType() == getLhs().getType())
    return getLhs();
  return foldBinary(ref::BinaryKind::Sub, adaptor.getLhs(), adaptor.getRhs(),
                    getType());
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  // x * 1 is exact; x * 0 is not 0 (NaN * 0, -x * 0), so it is not folded.
  if (isSplatOf(adaptor.getRhs(), 1.0f) && getType() == getLhs().getType())
    return getLhs();
  if (isSplatOf(adaptor.getLhs(), 1.0f) && getType() == getRhs().getType())
    return getRhs();
  return foldBinary(ref::BinaryKind::Mul, adaptor.getLhs(), adaptor.getRhs(),
                    getType());
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(adaptor.getRhs(), 1.0f) && getType() == getLhs().getType())
    return getLhs();
  return foldBinary(ref::BinaryKind::Div, adaptor.getLhs(), adaptor.getRhs(),
                    getType());
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

OpFoldResult MatMulOp::fold(FoldAdaptor adaptor) {
  // A packed weight exists only after folding has run (graph-pack-weights):
  // nothing is left to fold then.
  if (getPackedB())
    return {};
  RankedTensorType type = getFoldableType(getType());
  std::optional<ConstantTensor> a = readConstantTensor(adaptor.getA());
  std::optional<ConstantTensor> b = readConstantTensor(adaptor.getB());
  if (!type || !a || !b || a->getShape().size() != 2 ||
      b->getShape().size() != 2)
    return {};
  int64_t m = a->getShape()[0], k = a->getShape()[1], n = b->getShape()[1];
  if (b->getShape()[0] != k || type.getShape() != ArrayRef<int64_t>{m, n})
    return {};
  if (a->isSplat && b->isSplat) {
    if (!withinFoldLimits({}, k))
      return {};
    float acc = sumOfEqualProducts(a->splatValue, b->splatValue, k);
    return makeSplatTensor(type, acc);
  }
  if (!withinFoldLimits(
          {expansionOf(*a), expansionOf(*b), type.getNumElements()},
          checkedProduct({type.getNumElements(), k})))
    return {};
  SmallVector<float> out(type.getNumElements());
  ref::matmul(a->expand(), b->expand(), m, k, n, out);
  return makeConstantTensor(type, out);
}

OpFoldResult GemmOp::fold(FoldAdaptor adaptor) {
  if (getPackedB())
    return {};
  RankedTensorType type = getFoldableType(getType());
  std::optional<ConstantTensor> a = readConstantTensor(adaptor.getA());
  std::optional<ConstantTensor> b = readConstantTensor(adaptor.getB());
  if (!type || !a || !b || a->getShape().size() != 2 ||
      b->getShape().size() != 2)
    return {};
  std::optional<ConstantTensor> c;
  if (getC()) {
    c = readConstantTensor(adaptor.getC());
    if (!c)
      return {};
  }
  bool transA = getTransA(), transB = getTransB();
  int64_t m = a->getShape()[transA ? 1 : 0];
  int64_t k = a->getShape()[transA ? 0 : 1];
  int64_t kb = b->getShape()[transB ? 1 : 0];
  int64_t n = b->getShape()[transB ? 0 : 1];
  int64_t outShape[] = {m, n};
  if (k != kb || type.getShape() != ArrayRef<int64_t>(outShape) ||
      (c && !ref::broadcastsTo(c->getShape(), outShape)))
    return {};
  float alpha = getAlpha().convertToFloat();
  float beta = getBeta().convertToFloat();

  if (a->isSplat && b->isSplat && (!c || c->isSplat)) {
    if (!withinFoldLimits({}, k))
      return {};
    float acc = sumOfEqualProducts(a->splatValue, b->splatValue, k);
    float result = alpha * acc;
    if (c) {
      float scaled = beta * c->splatValue;
      result = result + scaled;
    }
    return makeSplatTensor(type, result);
  }

  if (!withinFoldLimits({expansionOf(*a), expansionOf(*b),
                         c ? expansionOf(*c) : 0, type.getNumElements()},
                        checkedProduct({type.getNumElements(), k + 1})))
    return {};
  SmallVector<float> out(type.getNumElements());
  SmallVector<float> cValues;
  if (c)
    cValues = c->expand();
  ref::gemm(a->expand(), b->expand(),
            c ? std::optional<ArrayRef<float>>(cValues) : std::nullopt,
            c ? c->getShape() : ArrayRef<int64_t>(), m, k, n, transA, transB,
            alpha, beta, out);
  return makeConstantTensor(type, out);
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  return foldReshapeLike(adaptor.getX(), getType());
}

OpFoldResult FlattenOp::fold(FoldAdaptor adaptor) {
  return foldReshapeLike(adaptor.getX(), getType());
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  // One that only moves unit dimensions within one type is the identity.
  auto xType = dyn_cast<RankedTensorType>(getX().getType());
  if (xType && xType == getType() &&
      getPerm().size() == static_cast<size_t>(xType.getRank()) &&
      reference::isReshapeLike(xType.getShape(), getPerm()))
    return getX();
  RankedTensorType type = getFoldableType(getType());
  if (!type)
    return foldTypedTranspose(adaptor.getX(), getPerm(), getType());
  std::optional<ConstantTensor> x = readConstantTensor(adaptor.getX());
  if (!type || !x)
    return {};
  ArrayRef<int64_t> perm = getPerm(), shape = x->getShape();
  if (perm.size() != shape.size())
    return {};
  SmallVector<int64_t> outShape;
  SmallVector<bool> seen(perm.size(), false);
  for (int64_t d : perm) {
    if (d < 0 || d >= static_cast<int64_t>(perm.size()) || seen[d])
      return {};
    seen[d] = true;
    outShape.push_back(shape[d]);
  }
  if (type.getShape() != ArrayRef<int64_t>(outShape))
    return {};
  if (x->isSplat)
    return makeSplatTensor(type, x->splatValue);
  if (!withinFoldLimits({type.getNumElements()}, type.getNumElements()))
    return {};
  SmallVector<float> out(type.getNumElements());
  ref::transpose(x->values, shape, perm, out);
  return makeConstantTensor(type, out);
}

OpFoldResult ConcatOp::fold(FoldAdaptor adaptor) {
  RankedTensorType type = getFoldableType(getType());
  if (!type) {
    auto tensor = dyn_cast<RankedTensorType>(getType());
    std::optional<int64_t> axis =
        tensor ? normalizeAxis(getAxis(), tensor.getRank()) : std::nullopt;
    return axis ? foldTypedConcat(adaptor.getInputs(), *axis, getType())
                : OpFoldResult();
  }
  if (adaptor.getInputs().empty())
    return {};
  SmallVector<ConstantTensor> inputs;
  for (Attribute attr : adaptor.getInputs()) {
    std::optional<ConstantTensor> input = readConstantTensor(attr);
    if (!input)
      return {};
    inputs.push_back(std::move(*input));
  }
  int64_t rank = type.getRank();
  std::optional<int64_t> axis = normalizeAxis(getAxis(), rank);
  if (!axis)
    return {};
  std::optional<int64_t> joined = 0;
  for (const ConstantTensor &input : inputs) {
    ArrayRef<int64_t> shape = input.getShape();
    if (static_cast<int64_t>(shape.size()) != rank)
      return {};
    for (int64_t d = 0; d < rank; ++d)
      if (d != *axis && shape[d] != type.getDimSize(d))
        return {};
    joined = llvm::checkedAdd(*joined, shape[*axis]);
    if (!joined)
      return {};
  }
  if (*joined != type.getDimSize(*axis))
    return {};

  // Splats of one bit pattern join into that splat.
  const ConstantTensor &first = inputs.front();
  if (llvm::all_of(inputs, [&](const ConstantTensor &t) {
        return t.isSplat && llvm::bit_cast<uint32_t>(t.splatValue) ==
                                llvm::bit_cast<uint32_t>(first.splatValue);
      }))
    return makeSplatTensor(type, first.splatValue);

  SmallVector<std::optional<int64_t>> materialized = {type.getNumElements()};
  for (const ConstantTensor &input : inputs)
    materialized.push_back(expansionOf(input));
  if (!withinFoldLimits(materialized, type.getNumElements()))
    return {};
  SmallVector<SmallVector<float>> values;
  SmallVector<ArrayRef<float>> data;
  SmallVector<SmallVector<int64_t>> shapes;
  for (const ConstantTensor &input : inputs) {
    values.push_back(input.expand());
    shapes.push_back(llvm::to_vector(input.getShape()));
  }
  for (const SmallVector<float> &v : values)
    data.push_back(v);
  SmallVector<float> out(type.getNumElements());
  ref::concat(data, shapes, *axis, out);
  return makeConstantTensor(type, out);
}

OpFoldResult SoftmaxOp::fold(FoldAdaptor adaptor) {
  RankedTensorType type = getFoldableType(getType());
  std::optional<ConstantTensor> x = readConstantTensor(adaptor.getX());
  if (!type || !x || x->getShape() != type.getShape() || type.getRank() < 1)
    return {};
  std::optional<int64_t> axis = normalizeAxis(getAxis(), type.getRank());
  if (!axis)
    return {};
  int64_t len = type.getDimSize(*axis);
  // Every row of a splat is the same row: evaluate one.
  if (x->isSplat && len > 0) {
    if (!withinFoldLimits({len}, checkedProduct({len, 3})))
      return {};
    SmallVector<float> row(len, x->splatValue), out(len);
    int64_t rowShape[] = {len};
    ref::softmax(row, rowShape, 0, out);
    return makeSplatTensor(type, out.front());
  }
  if (!withinFoldLimits({expansionOf(*x), type.getNumElements()},
                        checkedProduct({type.getNumElements(), 3})))
    return {};
  SmallVector<float> out(type.getNumElements());
  ref::softmax(x->expand(), type.getShape(), *axis, out);
  return makeConstantTensor(type, out);
}

/// Folds a normalization of constant `x` (and constant `params`, where
/// present) over the dimensions from `axis` on.
static OpFoldResult
foldNormalization(RankedTensorType type, Attribute xAttr,
                  ArrayRef<std::pair<Value, Attribute>> params, int64_t axis,
                  float epsilon, bool rms) {
  std::optional<ConstantTensor> x = readConstantTensor(xAttr);
  if (!type || !x || x->getShape() != type.getShape() || type.getRank() < 1)
    return {};
  std::optional<int64_t> first = normalizeAxis(axis, type.getRank());
  if (!first)
    return {};
  int64_t width = 1;
  for (int64_t dim : type.getShape().drop_front(*first))
    width *= dim;
  int64_t elements = type.getNumElements();
  SmallVector<std::optional<int64_t>> expansions = {expansionOf(*x), elements};
  SmallVector<SmallVector<float>, 2> values;
  for (auto [value, attr] : params) {
    if (!value) {
      values.emplace_back();
      continue;
    }
    std::optional<ConstantTensor> param = readConstantTensor(attr);
    if (!param || param->getNumElements() != width)
      return {};
    expansions.push_back(expansionOf(*param));
    values.push_back(param->expand());
  }
  if (width == 0 ||
      !withinFoldLimits(expansions, checkedProduct({elements, 6})))
    return {};
  SmallVector<float> out(elements);
  reference::normalizeRows(x->expand(), elements / width, width, values[0],
                           values.size() > 1 ? ArrayRef<float>(values[1])
                                             : ArrayRef<float>(),
                           epsilon, rms, out);
  return makeConstantTensor(type, out);
}

OpFoldResult LayerNormOp::fold(FoldAdaptor adaptor) {
  return foldNormalization(
      getFoldableType(getType()), adaptor.getX(),
      {{getScale(), adaptor.getScale()}, {getBias(), adaptor.getBias()}},
      getAxis(), getEpsilon().convertToFloat(),
      /*rms=*/false);
}

OpFoldResult RMSNormOp::fold(FoldAdaptor adaptor) {
  return foldNormalization(getFoldableType(getType()), adaptor.getX(),
                           {{getScale(), adaptor.getScale()}}, getAxis(),
                           getEpsilon().convertToFloat(), /*rms=*/true);
}

//===----------------------------------------------------------------------===//
// Random ops
//===----------------------------------------------------------------------===//

OpFoldResult DropoutOp::fold(FoldAdaptor) {
  // Training dropout draws random numbers: it is never folded.
  if (getTraining() || getType() != getX().getType())
    return {};
  return getX();
}

//===----------------------------------------------------------------------===//
// graph.fused
//===----------------------------------------------------------------------===//

void FusedOp::evaluateResults(ArrayRef<Attribute> inputs, ArrayRef<bool> wanted,
                              SmallVectorImpl<OpFoldResult> &results) {
  Block &body = getBody().front();
  ValueRange yielded = getYield().getValues();
  results.assign(getNumResults(), OpFoldResult());
  if (body.getNumArguments() != inputs.size() ||
      wanted.size() != getNumResults())
    return;

  llvm::SmallPtrSet<Operation *, 16> needed;
  SmallVector<Value> worklist;
  for (auto [value, want] : llvm::zip(yielded, wanted))
    if (want)
      worklist.push_back(value);
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (def && def->getBlock() == &body && needed.insert(def).second)
      llvm::append_range(worklist, def->getOperands());
  }

  // Op by op, in order: an op is evaluated when every operand is known.
  llvm::DenseMap<Value, Attribute> known;
  for (auto [arg, attr] : llvm::zip(body.getArguments(), inputs))
    if (attr)
      known[arg] = attr;
  for (Operation &op : body.without_terminator()) {
    if (!needed.contains(&op) || op.getNumRegions() != 0 ||
        !isMemoryEffectFree(&op))
      continue;
    SmallVector<Attribute> operands;
    for (Value operand : op.getOperands())
      operands.push_back(known.lookup(operand));
    if (llvm::is_contained(operands, Attribute()))
      continue;
    SmallVector<OpFoldResult> folded;
    if (failed(op.fold(operands, folded)) ||
        folded.size() != op.getNumResults())
      continue;
    for (auto [result, foldResult] : llvm::zip(op.getResults(), folded)) {
      Attribute attr = dyn_cast<Attribute>(foldResult);
      if (!attr)
        attr = known.lookup(cast<Value>(foldResult));
      auto typed = dyn_cast_if_present<TypedAttr>(attr);
      if (typed && typed.getType() == result.getType())
        known[result] = attr;
    }
  }

  for (auto [index, value, result, want] :
       llvm::enumerate(yielded, getResults(), wanted)) {
    if (!want)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value);
        arg && arg.getOwner() == &body) {
      Value operand = getInputs()[arg.getArgNumber()];
      if (operand.getType() == result.getType())
        results[index] = operand;
      continue;
    }
    auto typed = dyn_cast_if_present<TypedAttr>(known.lookup(value));
    if (typed && typed.getType() == result.getType())
      results[index] = typed;
  }
}

LogicalResult FusedOp::fold(FoldAdaptor adaptor,
                            SmallVectorImpl<OpFoldResult> &results) {
  if (!isMemoryEffectFree(getOperation()))
    return failure();
  Block &body = getBody().front();
  if (body.getNumArguments() != adaptor.getInputs().size())
    return failure();
  // A body that the evaluation cannot see through is not folded at all.
  for (Operation &op : body.without_terminator())
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      return failure();

  // Only what the results in use depend on is evaluated (all results when
  // none is used: the op is then folded whole or not at all, as dead code is
  // DCE's to erase). An operand, a body op or a result that they do not need
  // may be anything: DCE would drop it, and folding must agree before and
  // after DCE. A yielded block argument folds to its operand, whatever it is.
  bool anyUsed = llvm::any_of(
      getResults(), [](OpResult result) { return !result.use_empty(); });
  SmallVector<bool> required =
      llvm::map_to_vector(getResults(), [&](OpResult result) {
        return !anyUsed || !result.use_empty();
      });
  SmallVector<OpFoldResult> values;
  evaluateResults(adaptor.getInputs(), required, values);
  for (auto [value, result, isRequired] :
       llvm::zip(values, getResults(), required)) {
    if (value)
      continue;
    if (isRequired)
      return failure();
    value = Builder(getContext()).getZeroAttr(result.getType());
    if (!value)
      return failure();
  }
  results.append(values.begin(), values.end());
  return success();
}
