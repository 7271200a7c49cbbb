//===- ContractionOps.cpp - graph.attention and graph.einsum --------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Verifiers and fold hooks of the contractions of GraphNNOps.td beyond the
// matrix product (NNOps.cpp): graph.attention and graph.einsum. The folds
// sum as the lowering's loops do, the products in row-major order of the
// summed dimensions.
//
//===----------------------------------------------------------------------===//

#include "ScalarKernels.h"
#include "VerifyUtils.h"

#include "graph/Dialect/Graph/IR/FoldLimits.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/ReferenceKernels.h"
#include "graph/Dialect/Graph/IR/TypedKernels.h"
#include "graph/Dialect/Graph/IR/TypedTensor.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::scalar;
namespace ref = mlir::graph::reference;

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

//===----------------------------------------------------------------------===//
// graph.attention
//===----------------------------------------------------------------------===//

LogicalResult AttentionOp::verify() {
  std::pair<Value, StringRef> values[] = {{getQ(), "operand 'q'"},
                                          {getKT(), "operand 'k_t'"},
                                          {getV(), "operand 'v'"},
                                          {getMask(), "operand 'mask'"},
                                          {getOutput(), "result 'output'"}};
  for (auto [value, name] : values) {
    if (!value)
      continue;
    if (failed(checkTensorOf(*this, value, name, TypeClass::Float)))
      return failure();
    if (!cast<RankedTensorType>(value.getType()).getElementType().isF32())
      return emitOpError() << name << " must have element type f32, but got "
                           << value.getType();
  }
  ArrayRef<int64_t> q = getDims(getQ()), k = getDims(getKT()),
                    v = getDims(getV());
  size_t rank = q.size();
  if (rank < 2 || k.size() != rank || v.size() != rank)
    return emitOpError() << "operands 'q', 'k_t' and 'v' must have one rank "
                            ">= 2, but got ranks "
                         << q.size() << ", " << k.size() << " and " << v.size();
  ArrayRef<int64_t> batch = q.drop_back(2);
  if (k.drop_back(2) != batch || v.drop_back(2) != batch)
    return emitOpError() << "batch dimensions " << formatDims(batch) << ", "
                         << formatDims(k.drop_back(2)) << " and "
                         << formatDims(v.drop_back(2)) << " differ";
  int64_t s = q[rank - 2], d = q.back(), t = k.back();
  if (k[rank - 2] != d)
    return emitOpError() << "operand 'q' has D = " << d
                         << ", but operand 'k_t' has D = " << k[rank - 2];
  if (v[rank - 2] != t)
    return emitOpError() << "operand 'k_t' has T = " << t
                         << ", but operand 'v' has T = " << v[rank - 2];
  if (Value mask = getMask()) {
    ArrayRef<int64_t> m = getDims(mask);
    bool batchOk =
        m.size() == rank &&
        (m.drop_back(2) == batch ||
         llvm::all_of(m.drop_back(2), [](int64_t dim) { return dim == 1; }));
    if (!batchOk || (m[rank - 2] != s && m[rank - 2] != 1) || m.back() != t)
      return emitOpError() << "operand 'mask' of shape " << formatDims(m)
                           << " must have the scores' rank and dimensions "
                              "(batch all 1 or "
                           << formatDims(batch) << ", then " << s
                           << " or 1, then " << t << ")";
  }
  SmallVector<int64_t> result(batch);
  result.append({s, v.back()});
  return checkResultDims(*this, result);
}

OpFoldResult AttentionOp::fold(FoldAdaptor adaptor) {
  auto type = dyn_cast<RankedTensorType>(getType());
  std::optional<TypedTensor> q = readTypedTensor(adaptor.getQ());
  std::optional<TypedTensor> k = readTypedTensor(adaptor.getKT());
  std::optional<TypedTensor> v = readTypedTensor(adaptor.getV());
  std::optional<TypedTensor> mask;
  if (getMask() && !(mask = readTypedTensor(adaptor.getMask())))
    return {};
  if (!type || !q || !k || !v || failed(verify()))
    return {};
  ArrayRef<int64_t> qs = q->getShape(), ks = k->getShape(), vs = v->getShape();
  size_t rank = qs.size();
  int64_t batch = llvm::product_of(qs.drop_back(2));
  int64_t s = qs[rank - 2], d = qs.back(), t = ks.back(), dv = vs.back();
  int64_t workDims[] = {batch, s, t, d + dv + 3};
  if (!withinFoldLimits({type.getNumElements(), t},
                        getCheckedNumElements(workDims)))
    return {};
  bool maskBatch = mask && llvm::product_of(mask->getShape().drop_back(2)) > 1;
  bool maskRows = mask && mask->getShape()[rank - 2] > 1;
  float scale = getScale().convertToFloat();
  TypedTensor out = TypedTensor::zeros(type);
  SmallVector<float> row(t), probabilities(t);
  int64_t shape[] = {t};
  // The unfused ops' order: each score sums over D, is scaled and masked;
  // the softmax of the row; each output sums over T.
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < s; ++i) {
      for (int64_t j = 0; j < t; ++j) {
        float acc = 0.0f;
        for (int64_t p = 0; p < d; ++p)
          acc = acc + q->get<float>((b * s + i) * d + p) *
                          k->get<float>((b * d + p) * t + j);
        acc = acc * scale;
        if (mask)
          acc =
              acc + mask->get<float>(((maskBatch ? b : 0) * (maskRows ? s : 1) +
                                      (maskRows ? i : 0)) *
                                         t +
                                     j);
        row[j] = acc;
      }
      ref::softmax(row, shape, 0, probabilities);
      for (int64_t c = 0; c < dv; ++c) {
        float acc = 0.0f;
        for (int64_t j = 0; j < t; ++j)
          acc = acc + probabilities[j] * v->get<float>((b * t + j) * dv + c);
        out.set<float>((b * s + i) * dv + c, acc);
      }
    }
  return out.toAttr();
}

//===----------------------------------------------------------------------===//
// graph.einsum
//===----------------------------------------------------------------------===//

/// The size of every letter of the equation, or an error.
static FailureOr<llvm::SmallDenseMap<char, int64_t>>
einsumSizes(EinsumOp op, const ref::EinsumEquation &equation) {
  llvm::SmallDenseMap<char, int64_t> sizes;
  for (auto [i, input] : llvm::enumerate(op.getInputs())) {
    ArrayRef<int64_t> shape = getDims(input);
    const std::string &letters = equation.inputs[i];
    if (letters.size() != shape.size())
      return op.emitOpError()
             << "operand 'inputs' #" << i << " has rank " << shape.size()
             << ", but the equation gives it " << letters.size()
             << " letters ('" << letters << "')";
    for (auto [letter, size] : llvm::zip(letters, shape)) {
      auto [it, inserted] = sizes.try_emplace(letter, size);
      if (!inserted && it->second != size)
        return op.emitOpError() << "letter '" << letter << "' has sizes "
                                << it->second << " and " << size;
    }
  }
  return sizes;
}

LogicalResult EinsumOp::verify() {
  if (getInputs().empty())
    return emitOpError() << "operand 'inputs' must hold at least one tensor";
  for (auto [i, input] : llvm::enumerate(getInputs()))
    if (failed(checkTensorOf(*this, input, "operand 'inputs' #" + Twine(i),
                             TypeClass::Numeric)) ||
        failed(checkSameElementType(*this, getInputs()[0],
                                    "operand 'inputs' #0", input,
                                    "operand 'inputs' #" + Twine(i))))
      return failure();
  if (failed(checkTensorOf(*this, getOutput(), "result 'output'",
                           TypeClass::Numeric)) ||
      failed(checkSameElementType(*this, getInputs()[0], "operand 'inputs' #0",
                                  getOutput(), "result 'output'")))
    return failure();
  std::optional<ref::EinsumEquation> equation = ref::parseEinsum(getEquation());
  if (!equation || equation->inputs.size() != getInputs().size())
    return emitOpError() << "attribute 'equation' ('" << getEquation()
                         << "') must be explicit, 'in0,...->out' with one "
                            "letter per dimension, distinct letters in the "
                            "output and one term per operand";
  FailureOr<llvm::SmallDenseMap<char, int64_t>> sizes =
      einsumSizes(*this, *equation);
  if (failed(sizes))
    return failure();
  SmallVector<int64_t> shape;
  for (char c : equation->output)
    shape.push_back(sizes->lookup(c));
  return checkResultDims(*this, shape);
}

OpFoldResult EinsumOp::fold(FoldAdaptor adaptor) {
  auto type = dyn_cast<RankedTensorType>(getType());
  if (!type || failed(verify()))
    return {};
  SmallVector<TypedTensor> inputs;
  for (Attribute attr : adaptor.getInputs()) {
    std::optional<TypedTensor> input = readTypedTensor(attr);
    if (!input)
      return {};
    inputs.push_back(*input);
  }
  ref::EinsumEquation equation = *ref::parseEinsum(getEquation());
  FailureOr<llvm::SmallDenseMap<char, int64_t>> sizes =
      einsumSizes(*this, equation);
  if (failed(sizes))
    return {};
  // Loops: the output letters, then the summed ones in order of appearance.
  std::string loops = equation.output;
  for (char c : equation.letters)
    if (loops.find(c) == std::string::npos)
      loops += c;
  SmallVector<int64_t> loopSizes;
  for (char c : loops)
    loopSizes.push_back(sizes->lookup(c));
  SmallVector<int64_t> summed(
      ArrayRef<int64_t>(loopSizes).drop_front(equation.output.size()));
  int64_t sumCount = llvm::product_of(summed);
  // The result and every splat operand are materialized.
  SmallVector<std::optional<int64_t>> materialized = {type.getNumElements()};
  for (const TypedTensor &input : inputs)
    if (input.isSplat())
      materialized.push_back(input.getNumElements());
  if (!withinFoldLimits(materialized,
                        checkedProduct({type.getNumElements(), sumCount,
                                        int64_t(inputs.size())})))
    return {};
  for (TypedTensor &input : inputs)
    input = input.expanded();
  // For each operand, the stride of each loop in it.
  SmallVector<SmallVector<int64_t>> loopStrides;
  for (auto [i, input] : llvm::enumerate(inputs)) {
    SmallVector<int64_t> strides = ref::rowMajorStrides(input.getShape());
    SmallVector<int64_t> perLoop(loops.size(), 0);
    for (auto [d, letter] : llvm::enumerate(equation.inputs[i]))
      perLoop[loops.find(letter)] += strides[d];
    loopStrides.push_back(std::move(perLoop));
  }
  TypedTensor out = TypedTensor::zeros(type);
  std::optional<bool> ok =
      dispatchKind(out.getKind(), [&](auto t) -> std::optional<bool> {
        using T = decltype(t);
        using C = ComputeType<T>;
        if constexpr (std::is_same_v<T, bool>) {
          return std::nullopt;
        } else {
          int64_t position = 0;
          size_t numOut = equation.output.size();
          ref::forEachIndex(type.getShape(), [&](ArrayRef<int64_t> outIndex) {
            C acc = 0;
            ref::forEachIndex(summed, [&](ArrayRef<int64_t> sumIndex) {
              C prod = 1;
              for (auto [i, input] : llvm::enumerate(inputs)) {
                int64_t offset = 0;
                for (size_t l = 0; l < loops.size(); ++l)
                  offset += (l < numOut ? outIndex[l] : sumIndex[l - numOut]) *
                            loopStrides[i][l];
                C v = widen(input.template get<T>(offset));
                if constexpr (isFloatCompute<C>)
                  prod = i == 0 ? v : prod * v;
                else
                  prod = i == 0 ? v : wrapMul(prod, v);
              }
              if constexpr (isFloatCompute<C>)
                acc = acc + prod;
              else
                acc = wrapAdd(acc, prod);
            });
            out.set<T>(position++, narrow<T>(acc));
          });
          return true;
        }
      });
  if (!ok)
    return {};
  return out.toAttr();
}
