//===- RecurrentActivations.cpp - Gate functions of graph.rnn/gru/lstm ---===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The scalar functions ONNX's recurrent ops name in their `activations`
// attribute, built as arith and math ops on one element, in the order of
// RecurrentOps.cpp's applyActivation, which folds them.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"
#include "graph/Dialect/Graph/IR/Recurrent.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::graph;

Value mlir::graph::buildRecurrentActivation(OpBuilder &b, Location loc,
                                            Type type, const Activation &a,
                                            Value x) {
  auto constant = [&](double value) {
    return createScalarConstant(b, loc, type, value);
  };
  Value alpha = constant(a.alpha), beta = constant(a.beta);
  Value zero = constant(0.0), one = constant(1.0);
  auto cmp = [&](arith::CmpFPredicate predicate, Value p, Value q) {
    return arith::CmpFOp::create(b, loc, predicate, p, q);
  };
  auto mul = [&](Value p, Value q) {
    return arith::MulFOp::create(b, loc, p, q).getResult();
  };
  auto add = [&](Value p, Value q) {
    return arith::AddFOp::create(b, loc, p, q).getResult();
  };
  auto exp = [&](Value v) { return math::ExpOp::create(b, loc, v); };
  auto tanh = [&](Value v) { return math::TanhOp::create(b, loc, v); };
  switch (a.kind) {
  case ActivationKind::Sigmoid:
    return arith::DivFOp::create(
        b, loc, one, add(one, exp(arith::NegFOp::create(b, loc, x))));
  case ActivationKind::Tanh:
    return tanh(x);
  case ActivationKind::Relu:
    return arith::SelectOp::create(
        b, loc, cmp(arith::CmpFPredicate::OGT, x, zero), x, zero);
  case ActivationKind::Affine:
    return add(mul(alpha, x), beta);
  case ActivationKind::LeakyRelu:
    return arith::SelectOp::create(
        b, loc, cmp(arith::CmpFPredicate::OGE, x, zero), x, mul(alpha, x));
  case ActivationKind::ThresholdedRelu:
    return arith::SelectOp::create(
        b, loc, cmp(arith::CmpFPredicate::OGT, x, alpha), x, zero);
  case ActivationKind::ScaledTanh:
    return mul(alpha, tanh(mul(beta, x)));
  case ActivationKind::HardSigmoid:
    return arith::MinimumFOp::create(
        b, loc,
        arith::MaximumFOp::create(b, loc, add(mul(alpha, x), beta), zero), one);
  case ActivationKind::Elu:
    return arith::SelectOp::create(
        b, loc, cmp(arith::CmpFPredicate::OGE, x, zero), x,
        mul(alpha, arith::SubFOp::create(b, loc, exp(x), one)));
  case ActivationKind::Softsign:
    return arith::DivFOp::create(b, loc, x,
                                 add(one, math::AbsFOp::create(b, loc, x)));
  case ActivationKind::Softplus:
    return math::LogOp::create(b, loc, add(one, exp(x)));
  }
  return x;
}
