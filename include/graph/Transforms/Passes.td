//===- Passes.td - Graph-level optimization passes ---------*- tablegen -*-===//
//
// The three classic graph optimizations (constant folding, operator fusion,
// dead code elimination) and the report. They are op-agnostic: they run on
// whatever op they are scheduled on (a module, a function).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_TRANSFORMS_PASSES_TD
#define GRAPH_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def GraphFoldConstants : Pass<"graph-fold-constants"> {
  let summary = "Evaluate at compile time every op whose operands are constant";
  let description = [{
    Replaces every op whose operands are all constants by a `graph.constant`
    holding its value, through the ops' fold hooks, to a fixed point. Identity
    folds (`x * 1`, inference `graph.dropout`, ...) run too, as they are fold
    hooks. A non-splat result with more than `max-elements` elements is left
    unfolded; splat results always fold and stay splat. Ops with side effects
    are never folded.
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t", "16777216",
           "Leave unfolded a non-splat result with more elements than this">
  ];
  let dependentDialects = ["::mlir::graph::GraphDialect"];
}

def GraphFuse : Pass<"graph-fuse"> {
  let summary = "Fuse ops into graph.fused groups: anchors with their "
                "epilogues, and trees of elementwise ops";
  let description = [{
    Every fusion of the compiler is decided here; the lowering fuses nothing
    else. An anchor (`graph.conv2d`, `graph.matmul` or `graph.gemm`) followed
    by the longest chain of one or more elementwise epilogue ops
    (`batch_norm`, `relu`, `clip`, `sigmoid`, `tanh`, `add`/`sub`/`mul`/`div`
    whose other operand is defined outside the chain, and every other op
    with the elementwise trait) becomes one `graph.fused` whose `kind` is the
    ops' mnemonics joined by `_`. Then the elementwise ops left form groups
    without an anchor (TVM's injective fusion): an op and, recursively, each
    elementwise producer whose result only it uses, a chain or a tree
    (`"add_relu"`, `"mul_add_sigmoid"`), `kind` listing producers before
    their users. Either way a group stops before an intermediate that has
    another live user or whose element type differs, and values the group
    reads from outside, constants included, become operands of the fused op.
    The pass takes time linear in the graph: liveness is computed once.

    With `fold-batch-norm`, a `batch_norm` that is the only live user of a
    `conv2d` whose weight, bias and normalization parameters are constants is
    first folded into new convolution weights and bias.
  }];
  let options = [
    Option<"foldBatchNorm", "fold-batch-norm", "bool", "true",
           "Fold a batch_norm into the constant weights of the conv before it">
  ];
  let dependentDialects = ["::mlir::graph::GraphDialect"];
}

def GraphEliminateDeadCode : Pass<"graph-eliminate-dead-code"> {
  let summary = "Erase every op whose results no live op uses";
  let description = [{
    Canonicalization: erases, transitively, every op without side effects
    whose results no live op uses, `graph.fused` and constants included. Ops
    with side effects stay; function signatures are never changed.
  }];
}

def GraphReport : Pass<"graph-report", "::mlir::ModuleOp"> {
  let summary = "Print op counts, constants and fusion savings to stderr";
  let description = [{
    Prints, without changing the IR: op counts by name, the number of
    constants and their bytes, fused groups by kind, and the bytes fusion
    keeps off memory: the sum of |T_k| over the intermediate tensors inside
    fused bodies and Saving = 2 * sum |T_k|. With `json`, one JSON object
    with keys `ops`, `constants`, `fused`, `intermediate_bytes` and
    `saving_bytes`.
  }];
  let options = [
    Option<"json", "json", "bool", "false", "Print one JSON object">
  ];
}

#endif // GRAPH_TRANSFORMS_PASSES_TD
