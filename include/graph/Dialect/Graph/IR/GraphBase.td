//===- GraphBase.td - The graph dialect and its shared pieces -*- tablegen -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The `graph` dialect models deep-learning computation graphs: tensors in,
// tensors out, every compute op pure (save the random ones) and foldable.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_DIALECT_GRAPH_IR_GRAPHBASE_TD
#define GRAPH_DIALECT_GRAPH_IR_GRAPHBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Graph_Dialect : Dialect {
  let name = "graph";
  let cppNamespace = "::mlir::graph";
  let summary = "Deep-learning computation graphs on static f32 tensors";
  let description = [{
    Operators of an inference graph (convolution, normalization, activations,
    pooling, linear algebra and shape manipulation) on statically shaped
    `f32` tensors in NCHW layout, plus `graph.fused`, a region that groups an
    anchor op and its epilogue into one kernel. Every compute op has a fold
    hook that evaluates it when all operands are constants.
  }];
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let useDefaultAttributePrinterParser = 1;
}

// The random number generator state that `graph.random_uniform` and training
// `graph.dropout` read and advance. Ops that touch it are never folded, erased
// or fused.
def Graph_RNGResource : Resource<"::mlir::graph::RNGResource">;

// An op whose every output element depends only on the input elements at the
// same index (after NumPy broadcasting), the values of per-channel parameters
// included: relu, add, batch_norm, ... Fusion groups chains of such ops into
// one loop nest, so a new op that computes this way carries the trait. Such
// an op also commutes with a permutation of the dimensions of all its
// operands and its result, which is how layout changes move through it;
// an op that reads parameters along a fixed dimension (batch_norm's
// per-channel ones) is the exception and says so with a `layout` of its own.
def Graph_Elementwise : NativeOpTrait<"ElementwiseTrait"> {
  let cppNamespace = "::mlir::graph::trait";
}

// The spec's scalar integers (`axis`, `groups`, `seed`, ...): a signless i64
// IntegerAttr (`-1 : i64`) read as the signed value it stands for. ODS's
// I64Attr reads it zero-extended, so an axis of -1 came back as 2^64 - 1.
def Graph_I64Attr : TypedSignlessIntegerAttrBase<I64, "int64_t",
    "64-bit signless integer attribute"> {
  let convertFromStorage = "$_self.getValue().getSExtValue()";
}

class Graph_Op<string mnemonic, list<Trait> traits = []>
    : Op<Graph_Dialect, mnemonic, traits>;

#endif // GRAPH_DIALECT_GRAPH_IR_GRAPHBASE_TD
