//===- FoldConstants.cpp - Compile-time evaluation of graph ops -*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Replaces every graph op whose operands are constants by the constant its
// fold hook computes, and applies the identity folds, to a fixed point. A
// walk of its own rather than the greedy driver, which would also erase
// every trivially dead op: dead code is graph-eliminate-dead-code's to erase.
// It leaves large non-splat results unfolded (`max-elements`) and never
// touches ops with side effects.
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/FoldLimits.h"
#include "graph/Dialect/Graph/IR/GraphDialect.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHFOLDCONSTANTS
#include "graph/Transforms/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

/// The number of elements of a shaped type, or nullopt when it is not static.
static std::optional<int64_t> getNumElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return std::nullopt;
  return shaped.getNumElements();
}

namespace {

/// Folds graph ops through their fold hooks, walking the IR in order. It
/// replaces the ops it folds and erases nothing of the input besides: the
/// operands that a fold leaves unused, like any other dead op, are for
/// graph-eliminate-dead-code to sweep, so that each pass of the pipeline
/// shows only its own part (the seed's `c1 * c2` becomes 6 here, and `c1`,
/// `c2` and `dead` go in DCE). Its own scratch values do go: a constant it
/// made that a later fold consumed entirely (`(c1 * c2) + c3` leaves one
/// new constant, not two).
class ConstantFolder {
public:
  explicit ConstantFolder(int64_t maxElements) : maxElements(maxElements) {}

  /// Folds every op nested in `root` to a fixed point.
  void run(Operation *root) {
    // An op comes after the ops defining its operands, so one walk in order
    // sees each op with its operands already folded. Another walk is needed
    // only if a fold fed an op already visited (possible across the blocks
    // of a CFG, never in a graph function's single block).
    do {
      visited.clear();
      revisit = false;
      for (Region &region : root->getRegions())
        foldRegion(region);
      // A graph.fused whose result lost its last user to a later fold may
      // fold now: a result nobody uses need not be computed (FusedOp::fold).
      while (!retry.empty())
        (void)tryFold(retry.pop_back_val());
    } while (revisit);
  }

private:
  void foldRegion(Region &region) {
    for (Block &block : region)
      for (Operation &op : llvm::make_early_inc_range(block)) {
        visited.insert(&op);
        if (succeeded(tryFold(&op)) || op.getNumRegions() == 0)
          continue;
        // A graph.if that a constant decides is the region it selects.
        if (auto branch = dyn_cast<IfOp>(op)) {
          if (Region *taken = branch.getDecidedRegion()) {
            foldRegion(*taken);
            IRRewriter rewriter(op.getContext());
            branch.replaceByRegion(rewriter, *taken);
            continue;
          }
        }
        // A graph.loop that a constant keeps from running is its initial
        // values.
        if (auto loop = dyn_cast<LoopOp>(op); loop && loop.neverRuns()) {
          IRRewriter rewriter(op.getContext());
          loop.replaceByInitialValues(rewriter);
          continue;
        }
        for (Region &nested : op.getRegions())
          foldRegion(nested);
        // Folding the body may let the op fold (a graph.fused whose body
        // became the identity), which a second run would otherwise do.
        if (succeeded(tryFold(&op)))
          continue;
        if (auto fused = dyn_cast<FusedOp>(op))
          forwardKnownResults(fused);
      }
  }

  /// Replaces the uses of each result of `op` that is known without running
  /// it: by the operand it passes through, or by a constant that its body
  /// computes from constant inputs. That holds whatever the other results
  /// are, where folding the op needs every used result known; and a second
  /// run, after graph-eliminate-dead-code dropped the results that only dead
  /// ops used, must not find more to fold (random graphs 1176 and 1584).
  void forwardKnownResults(FusedOp op) {
    SmallVector<Attribute> inputs;
    for (Value input : op.getInputs()) {
      Attribute attr;
      inputs.push_back(matchPattern(input, m_Constant(&attr)) ? attr
                                                              : Attribute());
    }
    SmallVector<bool> wanted = llvm::map_to_vector(
        op->getResults(), [](OpResult result) { return !result.use_empty(); });
    SmallVector<OpFoldResult> known;
    op.evaluateResults(inputs, wanted, known);
    for (auto [result, value] : llvm::zip(op->getResults(), known)) {
      if (!value || result.use_empty())
        continue;
      Value replacement = dyn_cast<Value>(value);
      if (!replacement) {
        Attribute attr = cast<Attribute>(value);
        if (!canHold(attr, result.getType()))
          continue;
        OpBuilder builder(op);
        replacement = createConstant(builder, attr, result, op->getLoc());
        if (!replacement)
          continue;
      }
      for (Operation *user : result.getUsers())
        revisit |= visited.contains(user);
      result.replaceAllUsesWith(replacement);
    }
  }

  /// Whether a new constant may hold `attr` as a value of `type`: elements
  /// of that type, splat or within the size limit.
  bool canHold(Attribute attr, Type type) const {
    auto elements = dyn_cast<ElementsAttr>(attr);
    return elements && elements.getType() == type &&
           (elements.isSplat() || fitsLimit(type));
  }

  /// A new constant of `attr` for `result`, remembered as this pass's own;
  /// null when the dialect cannot make one.
  Value createConstant(OpBuilder &builder, Attribute attr, Value result,
                       Location loc) {
    Operation *constant =
        result.getDefiningOp()->getDialect()->materializeConstant(
            builder, attr, result.getType(), loc);
    if (!constant)
      return Value();
    created.insert(constant);
    return constant->getResult(0);
  }

  /// Whether a result of this type may be held by a new constant.
  bool fitsLimit(Type type) const {
    std::optional<int64_t> n = getNumElements(type);
    return n && *n <= maxElements;
  }

  /// Replaces `op` by what its fold hook returns: new constants or existing
  /// values. Leaves the IR untouched on failure.
  LogicalResult tryFold(Operation *op);

  int64_t maxElements;
  /// The constants this pass made and that are still there.
  llvm::DenseSet<Operation *> created;
  /// The ops seen by the current walk. Only constants are created here, and
  /// constants use nothing, so a reused address never misleads the check.
  llvm::DenseSet<Operation *> visited;
  bool revisit = false;
  /// Visited graph.fused ops that a fold took a user from.
  llvm::SetVector<Operation *> retry;
};

} // namespace

LogicalResult ConstantFolder::tryFold(Operation *op) {
  if (!isa_and_present<GraphDialect>(op->getDialect()) ||
      op->hasTrait<OpTrait::ConstantLike>() || !isMemoryEffectFree(op))
    return failure();

  SmallVector<Attribute> operands;
  bool anyNonSplat = false;
  for (Value operand : op->getOperands()) {
    Attribute attr;
    if (matchPattern(operand, m_Constant(&attr))) {
      auto elements = dyn_cast<ElementsAttr>(attr);
      anyNonSplat |= !elements || !elements.isSplat();
    }
    operands.push_back(attr);
  }
  // Only splat operands can give a splat result cheaply; do not evaluate a
  // result that would be dropped for its size anyway.
  if (anyNonSplat && !llvm::all_of(op->getResultTypes(),
                                   [&](Type type) { return fitsLimit(type); }))
    return failure();

  SmallVector<OpFoldResult> folded;
  if (failed(op->fold(operands, folded)) || folded.empty())
    return failure();
  if (folded.size() != op->getNumResults())
    return failure();

  // Check every result before creating anything, so that a rejected fold
  // leaves the IR untouched.
  for (auto [result, foldResult] : llvm::zip(op->getResults(), folded)) {
    if (auto value = dyn_cast<Value>(foldResult)) {
      if (value.getType() != result.getType())
        return failure();
      continue;
    }
    if (!canHold(cast<Attribute>(foldResult), result.getType()))
      return failure();
  }

  IRRewriter rewriter(op->getContext());
  rewriter.setInsertionPoint(op);
  SmallVector<Value> replacements;
  for (auto [result, foldResult] : llvm::zip(op->getResults(), folded)) {
    if (auto value = dyn_cast<Value>(foldResult)) {
      replacements.push_back(value);
      continue;
    }
    // The constant keeps the op's location: it is what the op became.
    Value constant = createConstant(rewriter, cast<Attribute>(foldResult),
                                    result, op->getLoc());
    // Checked above: the graph dialect materializes any ElementsAttr of the
    // result's type.
    assert(constant && "graph dialect failed to materialize a constant");
    replacements.push_back(constant);
  }
  for (Operation *user : op->getUsers())
    revisit |= visited.contains(user);
  SmallVector<Operation *> producers;
  for (Value operand : op->getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (def && created.contains(def))
      producers.push_back(def);
    if (isa_and_present<FusedOp>(def) && visited.contains(def))
      retry.insert(def);
  }
  rewriter.replaceOp(op, replacements);
  for (Operation *producer : producers)
    if (created.contains(producer) && producer->use_empty()) {
      created.erase(producer);
      rewriter.eraseOp(producer);
    }
  return success();
}

namespace {
struct GraphFoldConstantsPass
    : public graph::impl::GraphFoldConstantsBase<GraphFoldConstantsPass> {
  using Base::Base;

  void runOnOperation() override {
    // The fold hooks check these before they evaluate anything.
    ScopedFoldLimits limits({maxElements, maxWork});
    ConstantFolder(maxElements).run(getOperation());
  }
};
} // namespace
