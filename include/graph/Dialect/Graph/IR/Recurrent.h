//===- Recurrent.h - What the recurrent ops share ---------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The shape and options of a recurrent op in one struct, read once by its
// fold hook, its lowering and the ONNX importer, and the activation
// functions of its gates with their scalar definitions (the lowering builds
// the same operations in the same order).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_DIALECT_GRAPH_IR_RECURRENT_H
#define GRAPH_DIALECT_GRAPH_IR_RECURRENT_H

#include "graph/Support/ApproximateMath.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace mlir {
namespace graph {

enum class ActivationKind {
  Sigmoid,
  Tanh,
  Relu,
  Affine,
  LeakyRelu,
  ThresholdedRelu,
  ScaledTanh,
  HardSigmoid,
  Elu,
  Softsign,
  Softplus,
};

/// A gate's function with its parameters.
struct Activation {
  ActivationKind kind;
  float alpha = 0.0f, beta = 0.0f;
};

/// The kind named `name` in the dialect's spelling (`leaky_relu`).
std::optional<ActivationKind> parseActivationKind(llvm::StringRef name);
llvm::StringRef getActivationName(ActivationKind kind);
/// Whether the function reads alpha, beta (ONNX consumes `activation_alpha`
/// values only for those that do).
bool usesAlpha(ActivationKind kind);
bool usesBeta(ActivationKind kind);
/// ONNX's defaults: the attributes of the op of the same name.
Activation getDefaultActivation(ActivationKind kind);

/// The shape and options of a recurrent op that verified.
struct RecurrentLayer {
  enum Cell { RNN, GRU, LSTM } cell;
  int64_t gates;      // G: 1, 3 or 4
  int64_t directions; // D
  bool reverseOnly;   // the one direction is `reverse`
  int64_t steps, batch, inputSize, hidden;
  /// `functionsPerDirection` per direction, the forward one first.
  llvm::SmallVector<Activation> activations;
  int64_t functionsPerDirection;
  std::optional<float> clip;
  bool linearBeforeReset = false, inputForget = false;

  /// Whether direction `d` runs from the last step to the first.
  bool isReverse(int64_t d) const { return reverseOnly || d == 1; }
  const Activation &getActivation(int64_t d, int64_t i) const {
    return activations[d * functionsPerDirection + i];
  }
};

/// Reads `op` (graph.rnn, graph.gru or graph.lstm); emits the op's error
/// and fails when it does not verify.
FailureOr<RecurrentLayer> getRecurrentLayer(Operation *op);

/// The activation on one value, as the lowering computes it in `C`.
template <typename C> C applyActivation(const Activation &a, C x) {
  C alpha = a.alpha, beta = a.beta;
  switch (a.kind) {
  case ActivationKind::Sigmoid:
    return C(1) / (C(1) + kernelExp(-x));
  case ActivationKind::Tanh:
    return kernelTanh(x);
  case ActivationKind::Relu:
    return x > C(0) ? x : C(0);
  case ActivationKind::Affine:
    return alpha * x + beta;
  case ActivationKind::LeakyRelu:
    return x >= C(0) ? x : alpha * x;
  case ActivationKind::ThresholdedRelu:
    return x > alpha ? x : C(0);
  case ActivationKind::ScaledTanh:
    return alpha * kernelTanh(beta * x);
  case ActivationKind::HardSigmoid:
    return std::min(std::max(alpha * x + beta, C(0)), C(1));
  case ActivationKind::Elu:
    return x >= C(0) ? x : alpha * (kernelExp(x) - C(1));
  case ActivationKind::Softsign:
    return x / (C(1) + std::abs(x));
  case ActivationKind::Softplus:
    return std::log(C(1) + kernelExp(x));
  }
  return x;
}

} // namespace graph
} // namespace mlir

#endif // GRAPH_DIALECT_GRAPH_IR_RECURRENT_H
