//===- Passes.h - Lowering the graph dialect --------------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The conversion of graph ops to linalg on tensors (the code generation that
// follows: graph/Codegen/CPU/Passes.h).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_CONVERSION_PASSES_H
#define GRAPH_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
class TypeConverter;

namespace graph {

#define GEN_PASS_DECL
#include "graph/Conversion/Passes.h.inc"

/// Adds the patterns that rewrite graph compute ops into linalg, tensor,
/// arith, math and scf ops on tensors. `converter` gives tensors their
/// storage types (bools as bytes, unsigned integers signless).
void populateGraphToLinalgConversionPatterns(const TypeConverter &converter,
                                             RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "graph/Conversion/Passes.h.inc"

/// Registers the conversion passes.
inline void registerAllGraphConversionPasses() {
  registerGraphConversionPasses();
}

} // namespace graph
} // namespace mlir

#endif // GRAPH_CONVERSION_PASSES_H
