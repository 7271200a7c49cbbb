//===- GraphCanonicalize.cpp - Canonicalization patterns --------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Canonicalization patterns of the graph ops.
//  - graph.fused (collected by graph-eliminate-dead-code, whose driver erases
//    unused ops without side effects): shrink a `graph.fused` whose interface
//    carries dead weight (unused results, unused or repeated operands), so
//    that the values behind them can die too. None of them changes `kind`.
//  - graph.transpose (collected by graph-convert-layout): layout changes
//    cancel pairwise and move past the elementwise ops after them, toward
//    where they cancel; one that moves only unit dimensions is a reshape.
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/ConstantTensor.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/ReferenceKernels.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/BitVector.h"

using namespace mlir;
using namespace mlir::graph;

namespace {

/// Drops the results of a `graph.fused` that have no uses: the op is rebuilt
/// with fewer results and its body yields fewer values. The body ops that only
/// fed a dropped result are then trivially dead and the driver erases them.
struct DropUnusedFusedResults : public OpRewritePattern<FusedOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(FusedOp op,
                                PatternRewriter &rewriter) const override {
    // A fused op without any used result is erased whole by the driver when
    // its body is pure; with side effects it must stay, results and all, so
    // there is nothing to gain from rebuilding it.
    if (op->use_empty())
      return failure();

    SmallVector<unsigned> kept;
    for (OpResult result : op->getResults())
      if (!result.use_empty())
        kept.push_back(result.getResultNumber());
    if (kept.size() == op->getNumResults())
      return failure();

    YieldOp yield = op.getYield();
    SmallVector<Type> resultTypes;
    SmallVector<Value> yielded;
    for (unsigned index : kept) {
      resultTypes.push_back(op->getResult(index).getType());
      yielded.push_back(yield.getValues()[index]);
    }

    auto newOp = FusedOp::create(rewriter, op.getLoc(), resultTypes,
                                 op.getInputs(), op->getAttrs());
    rewriter.inlineRegionBefore(op.getBody(), newOp.getBody(),
                                newOp.getBody().end());
    rewriter.modifyOpInPlace(yield, [&] { yield->setOperands(yielded); });

    // Unused results get no replacement value: nothing refers to them.
    SmallVector<Value> replacements(op->getNumResults(), Value());
    for (auto [newIndex, oldIndex] : llvm::enumerate(kept))
      replacements[oldIndex] = newOp->getResult(newIndex);
    rewriter.replaceOp(op, replacements);
    return success();
  }
};

/// Erases the operands of a `graph.fused` listed in `dead` together with
/// their block arguments, which must have no uses left.
static void eraseFusedOperands(PatternRewriter &rewriter, FusedOp op,
                               const llvm::BitVector &dead) {
  Block &body = op.getBody().front();
  rewriter.modifyOpInPlace(op, [&] {
    op->eraseOperands(dead);
    body.eraseArguments(dead);
  });
}

/// Drops the operands of a `graph.fused` whose block argument the body never
/// reads, so that the value passed in may die.
struct DropUnusedFusedOperands : public OpRewritePattern<FusedOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(FusedOp op,
                                PatternRewriter &rewriter) const override {
    Block &body = op.getBody().front();
    llvm::BitVector dead(body.getNumArguments());
    for (BlockArgument arg : body.getArguments())
      if (arg.use_empty())
        dead.set(arg.getArgNumber());
    if (dead.none())
      return failure();
    eraseFusedOperands(rewriter, op, dead);
    return success();
  }
};

/// Merges the operands of a `graph.fused` that pass the same value more than
/// once: the body reads the first block argument for that value instead.
struct DeduplicateFusedOperands : public OpRewritePattern<FusedOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(FusedOp op,
                                PatternRewriter &rewriter) const override {
    Block &body = op.getBody().front();
    llvm::SmallDenseMap<Value, unsigned> firstIndex;
    llvm::BitVector duplicate(op->getNumOperands());
    for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
      auto [it, inserted] = firstIndex.try_emplace(operand, index);
      if (inserted)
        continue;
      rewriter.replaceAllUsesWith(body.getArgument(index),
                                  body.getArgument(it->second));
      duplicate.set(index);
    }
    if (duplicate.none())
      return failure();
    eraseFusedOperands(rewriter, op, duplicate);
    return success();
  }
};

} // namespace

void FusedOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<DropUnusedFusedResults, DropUnusedFusedOperands,
              DeduplicateFusedOperands>(context);
}

//===----------------------------------------------------------------------===//
// graph.transpose
//===----------------------------------------------------------------------===//

/// The inverse permutation: inverse[perm[i]] = i.
static SmallVector<int64_t> invertPermutation(ArrayRef<int64_t> perm) {
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  return inverse;
}

/// `shape` permuted: dim i of the result is dim perm[i] of `shape`.
static SmallVector<int64_t> permuteShape(ArrayRef<int64_t> shape,
                                         ArrayRef<int64_t> perm) {
  return llvm::map_to_vector(perm, [&](int64_t p) { return shape[p]; });
}

/// `value` reshaped to `shape` (itself when it already has it).
static Value reshapeTo(PatternRewriter &rewriter, Location loc, Value value,
                       ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  return ReshapeOp::create(rewriter, loc,
                           RankedTensorType::get(shape, type.getElementType()),
                           value, shape);
}

/// Whether `value` is an input of the graph: an argument of the function
/// (or of another region that is not a fused body).
static bool isGraphInput(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && !isa_and_present<FusedOp>(arg.getOwner()->getParentOp());
}

/// How `operand` reads before a transpose by `perm` (an operand of rank
/// below perm.size() broadcast by leading 1s, as in NumPy), when that costs
/// no layout change inside the graph: the input of a transpose by the same
/// `perm`, a constant permuted at compile time, a reshape of `operand` when
/// the permutation only moves unit dimensions, or a transpose of a graph
/// input (a layout change at the graph's edge, where they belong).
class UnpermutedOperand {
public:
  UnpermutedOperand(Value operand, ArrayRef<int64_t> perm)
      : operand(operand), perm(perm) {
    if (auto transpose = operand.getDefiningOp<TransposeOp>();
        transpose && transpose.getPerm() == perm) {
      kind = Kind::TransposeInput;
      return;
    }
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    int64_t rank = perm.size();
    if (!type || !type.hasStaticShape() || type.getRank() > rank)
      return;
    shape.assign(rank - type.getRank(), 1);
    llvm::append_range(shape, type.getShape());
    inverse = invertPermutation(perm);
    SmallVector<int64_t> unpermuted = permuteShape(shape, inverse);
    // An operand whose permutation moves only unit dimensions and keeps
    // the shape (a scalar, say) reads the same on either side.
    if (unpermuted == shape && reference::isReshapeLike(shape, inverse)) {
      kind = Kind::Same;
      return;
    }
    // Leading 1s broadcast away, as in NumPy: the operand keeps its rank
    // ([C, 1, 1] in NCHW is [1, 1, C] in NHWC).
    ArrayRef<int64_t> trimmed(unpermuted);
    while (static_cast<int64_t>(trimmed.size()) > type.getRank() &&
           trimmed.front() == 1)
      trimmed = trimmed.drop_front();
    unpermutedType = RankedTensorType::get(trimmed, type.getElementType());
    Attribute attr;
    if (matchPattern(operand, m_Constant(&attr))) {
      constant = readConstantTensor(attr);
      if (constant)
        kind = Kind::Constant;
      return;
    }
    if (reference::isReshapeLike(shape, inverse)) {
      kind = Kind::Reshape;
      return;
    }
    if (isGraphInput(operand) && type.getRank() == rank) {
      unpermutedType = RankedTensorType::get(unpermuted, type.getElementType());
      kind = Kind::InputTranspose;
    }
  }

  /// Whether there is such a form.
  explicit operator bool() const { return kind != Kind::None; }

  /// Creates it (a constant or a reshape) before `user`, where the
  /// rewriter's insertion point is.
  Value materialize(PatternRewriter &rewriter, Location loc,
                    Operation *user) const {
    switch (kind) {
    case Kind::Same:
      return operand;
    case Kind::InputTranspose: {
      // One transpose per graph input and permutation, at the top.
      auto arg = cast<BlockArgument>(operand);
      for (Operation *other : arg.getUsers()) {
        auto transpose = dyn_cast<TransposeOp>(other);
        if (transpose && transpose.getPerm() == ArrayRef<int64_t>(inverse) &&
            transpose->getBlock() == user->getBlock() &&
            transpose->isBeforeInBlock(user))
          return transpose;
      }
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(arg.getOwner());
      return TransposeOp::create(rewriter, arg.getLoc(), unpermutedType, arg,
                                 inverse);
    }
    case Kind::TransposeInput:
      return operand.getDefiningOp<TransposeOp>().getX();
    case Kind::Constant: {
      DenseElementsAttr value;
      if (constant->isSplat) {
        value = makeSplatTensor(unpermutedType, constant->splatValue);
      } else {
        SmallVector<float> values(constant->getNumElements());
        reference::transpose(constant->values, shape, inverse, values);
        value = makeConstantTensor(unpermutedType, values);
      }
      return ConstantOp::create(rewriter, loc, unpermutedType, value);
    }
    case Kind::Reshape:
      return reshapeTo(rewriter, loc, operand, unpermutedType.getShape());
    case Kind::None:
      break;
    }
    llvm_unreachable("no unpermuted form");
  }

private:
  enum class Kind {
    None,
    Same,
    TransposeInput,
    Constant,
    Reshape,
    InputTranspose
  };
  Kind kind = Kind::None;
  Value operand;
  ArrayRef<int64_t> perm;
  SmallVector<int64_t> shape, inverse;
  RankedTensorType unpermutedType;
  std::optional<ConstantTensor> constant;
};

namespace {

/// transpose(transpose(x, p1), p2) is transpose(x, p1[p2[i]]), and x itself
/// when that is the identity.
struct ComposeTransposes : public OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto producer = op.getX().getDefiningOp<TransposeOp>();
    if (!producer)
      return failure();
    SmallVector<int64_t> perm = permuteShape(producer.getPerm(), op.getPerm());
    if (llvm::equal(perm, llvm::seq<int64_t>(perm.size()))) {
      rewriter.replaceOp(op, producer.getX());
      return success();
    }
    rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(), producer.getX(),
                                             perm);
    return success();
  }
};

/// A transpose that keeps the elements in order is a reshape (a view, not a
/// layout change); the identity is its operand.
struct TransposeToReshape : public OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getX().getType());
    if (!type || !type.hasStaticShape() ||
        !reference::isReshapeLike(type.getShape(), op.getPerm()))
      return failure();
    rewriter.replaceOp(op, reshapeTo(rewriter, op.getLoc(), op.getX(),
                                     op.getType().getShape()));
    return success();
  }
};

/// The users of `op`'s result that count, each once.
static SmallVector<Operation *> getCountedUsers(Operation *op,
                                                const CountsAsUser &counts) {
  SmallVector<Operation *> users;
  for (Operation *user : op->getUsers())
    if (!llvm::is_contained(users, user) && counts(user))
      users.push_back(user);
  return users;
}

/// The only user of `op`'s result that counts (used once or more), or null.
static Operation *getOnlyUser(Operation *op, const CountsAsUser &counts) {
  SmallVector<Operation *> users = getCountedUsers(op, counts);
  return users.size() == 1 ? users.front() : nullptr;
}

/// Whether a transpose by `perm` can move past `user`: an elementwise op
/// without per-channel parameters whose result has the permutation's rank.
static bool canSinkInto(Operation *user, ArrayRef<int64_t> perm) {
  if (!isElementwise(user) || isa<BatchNormOp>(user) ||
      user->getNumResults() != 1 || user->getNumRegions() != 0 ||
      !isMemoryEffectFree(user))
    return false;
  auto resultType = dyn_cast<RankedTensorType>(user->getResult(0).getType());
  return resultType &&
         resultType.getRank() == static_cast<int64_t>(perm.size());
}

/// op(transpose(x, p), y...) -> transpose(op(x, y'...), p) for an
/// elementwise op without per-channel parameters that is the transpose's
/// only user, each other operand y' taken through the inverse permutation
/// when that costs nothing (UnpermutedOperand). The transpose moves toward
/// where it cancels, and the count of layout changes inside the graph never
/// grows. A transpose of a graph input stays at the input, where it was
/// put; every other one only moves down, which is what makes the patterns
/// end. Users that do not count (dead ones) keep reading the transpose.
static LogicalResult sinkThroughElementwiseUser(TransposeOp op,
                                                PatternRewriter &rewriter,
                                                const CountsAsUser &counts) {
  if (op->use_empty() || isGraphInput(op.getX()))
    return failure();
  Operation *user = getOnlyUser(op, counts);
  if (!user || !canSinkInto(user, op.getPerm()))
    return failure();
  auto resultType = cast<RankedTensorType>(user->getResult(0).getType());
  ArrayRef<int64_t> perm = op.getPerm();

  // Check every operand before creating anything.
  SmallVector<std::optional<UnpermutedOperand>, 2> others;
  for (Value operand : user->getOperands()) {
    if (operand == op.getResult()) {
      others.emplace_back();
      continue;
    }
    others.emplace_back(UnpermutedOperand(operand, perm));
    if (!*others.back())
      return rewriter.notifyMatchFailure(user, "an operand would need a "
                                               "layout change");
  }

  rewriter.setInsertionPoint(user);
  SmallVector<Value> operands;
  for (auto [operand, other] : llvm::zip(user->getOperands(), others))
    operands.push_back(
        other ? other->materialize(rewriter, user->getLoc(), user) : op.getX());

  auto newType = RankedTensorType::get(
      permuteShape(resultType.getShape(), invertPermutation(perm)),
      resultType.getElementType());
  OperationState state(user->getLoc(), user->getName(), operands, {newType},
                       user->getAttrs());
  Operation *moved = rewriter.create(state);
  rewriter.replaceOpWithNewOp<TransposeOp>(user, resultType,
                                           moved->getResult(0), perm);
  return success();
}

/// Moves a transpose past the elementwise op that is its only user (see
/// sinkThroughElementwiseUser), matched at the transpose.
struct SinkTransposeThroughElementwise : public OpRewritePattern<TransposeOp> {
  SinkTransposeThroughElementwise(MLIRContext *context, CountsAsUser counts)
      : OpRewritePattern(context), counts(std::move(counts)) {}

  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    return sinkThroughElementwiseUser(op, rewriter, counts);
  }

  CountsAsUser counts;
};

/// The same, matched at the elementwise op: a rewriter revisits an op whose
/// operands changed, and a change of its other operand (which becomes a
/// transpose, say) is what makes the move possible.
struct SinkOperandTransposes
    : public OpTraitRewritePattern<trait::ElementwiseTrait> {
  SinkOperandTransposes(MLIRContext *context, CountsAsUser counts)
      : OpTraitRewritePattern(context), counts(std::move(counts)) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    for (Value operand : op->getOperands())
      if (auto transpose = operand.getDefiningOp<TransposeOp>())
        if (succeeded(sinkThroughElementwiseUser(transpose, rewriter, counts)))
          return success();
    return failure();
  }

  CountsAsUser counts;
};

/// batch_norm(transpose(x, NHWC to NCHW)) with channels on dim 1 is
/// transpose(batch_norm(x) with channels on dim 3), and the other way
/// round: batch_norm has a layout of its own.
struct SinkTransposeThroughBatchNorm : public OpRewritePattern<TransposeOp> {
  SinkTransposeThroughBatchNorm(MLIRContext *context, CountsAsUser counts)
      : OpRewritePattern(context), counts(std::move(counts)) {}

  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto bn = dyn_cast_or_null<BatchNormOp>(getOnlyUser(op, counts));
    if (!bn || bn.getInput() != op.getResult())
      return failure();
    ArrayRef<int64_t> perm = op.getPerm();
    Layout layout;
    if (perm == ArrayRef<int64_t>{0, 3, 1, 2} && bn.getLayout() == Layout::NCHW)
      layout = Layout::NHWC;
    else if (perm == ArrayRef<int64_t>{0, 2, 3, 1} &&
             bn.getLayout() == Layout::NHWC)
      layout = Layout::NCHW;
    else
      return failure();
    if (llvm::is_contained(ValueRange{bn.getScale(), bn.getBias(), bn.getMean(),
                                      bn.getVariance()},
                           op.getResult()))
      return failure();
    rewriter.setInsertionPoint(bn);
    auto moved = BatchNormOp::create(
        rewriter, bn.getLoc(), op.getX().getType(), op.getX(), bn.getScale(),
        bn.getBias(), bn.getMean(), bn.getVariance(), bn.getEpsilonAttr(),
        LayoutAttr::get(rewriter.getContext(), layout));
    rewriter.replaceOpWithNewOp<TransposeOp>(bn, bn.getType(), moved, perm);
    return success();
  }

  CountsAsUser counts;
};

/// Whether `op` is a transpose that undoes the permutation `perm`: the two
/// compose to the identity.
static bool undoes(Operation *op, ArrayRef<int64_t> perm) {
  auto transpose = dyn_cast<TransposeOp>(op);
  if (!transpose || transpose.getPerm().size() != perm.size())
    return false;
  for (auto [i, q] : llvm::enumerate(transpose.getPerm()))
    if (q < 0 || q >= int64_t(perm.size()) || perm[q] != int64_t(i))
      return false;
  return true;
}

/// A transpose read by several ops, each of which it could move past on its
/// own, becomes one transpose per user, each of which then sinks: SiLU
/// reads a layout change twice (x * sigmoid(x)), and a squeeze-excitation's
/// input feeds both its global pool and the product that rescales it. Taken
/// only when every user's other operands either cost no layout change or come
/// from another of the users (which sink too), and at most one user's result
/// leaves the users (a global pool's does for free: a layout change of its
/// N x C x 1 x 1 result is a reshape), so that the sunk ops leave at most
/// the one layout change there was. A transpose whose copy could not sink
/// after all is merged back by the pass that uses the pattern.
struct SplitTransposeAmongUsers : public OpRewritePattern<TransposeOp> {
  SplitTransposeAmongUsers(MLIRContext *context, CountsAsUser counts)
      : OpRewritePattern(context), counts(std::move(counts)) {}

  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (op->use_empty() || isGraphInput(op.getX()))
      return failure();
    SmallVector<Operation *> users = getCountedUsers(op, counts);
    if (users.size() < 2)
      return failure();
    ArrayRef<int64_t> perm = op.getPerm();
    llvm::SmallPtrSet<Operation *, 4> userSet(llvm::from_range, users);
    int64_t leaving = 0;
    for (Operation *user : users) {
      if (auto pool = dyn_cast<GlobalAvgPoolOp>(user)) {
        if (perm != ArrayRef<int64_t>{0, 3, 1, 2} ||
            pool.getLayout() != Layout::NCHW)
          return failure();
        continue;
      }
      if (!canSinkInto(user, perm))
        return failure();
      for (Value operand : user->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (operand == op.getResult() || (def && userSet.contains(def)))
          continue;
        if (!UnpermutedOperand(operand, perm))
          return failure();
      }
      // A transpose that undoes `perm` does not count: once `user` has
      // sunk the layout change, the two cancel (a quantization of a value
      // that a convolution in the other layout reads).
      if (llvm::any_of(getCountedUsers(user, counts), [&](Operation *next) {
            return !userSet.contains(next) && !undoes(next, perm);
          }))
        ++leaving;
    }
    if (leaving > 1)
      return failure();
    for (Operation *user : llvm::drop_begin(users)) {
      rewriter.setInsertionPointAfter(op);
      auto copy = TransposeOp::create(rewriter, op.getLoc(), op.getType(),
                                      op.getX(), op.getPermAttr());
      rewriter.modifyOpInPlace(user, [&] {
        for (OpOperand &use : user->getOpOperands())
          if (use.get() == op.getResult())
            use.set(copy);
      });
    }
    // Now with one user, `op` is to be visited again, to sink.
    rewriter.modifyOpInPlace(op, [] {});
    return success();
  }

  CountsAsUser counts;
};

} // namespace

void mlir::graph::populateTransposeSplittingPatterns(
    RewritePatternSet &patterns, CountsAsUser countsAsUser) {
  patterns.add<SplitTransposeAmongUsers>(patterns.getContext(), countsAsUser);
}

void mlir::graph::populateTransposeSinkingPatterns(RewritePatternSet &patterns,
                                                   CountsAsUser countsAsUser) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ComposeTransposes, TransposeToReshape>(context);
  patterns.add<SinkTransposeThroughElementwise, SinkOperandTransposes,
               SinkTransposeThroughBatchNorm>(context, countsAsUser);
}

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  populateTransposeSinkingPatterns(results, [](Operation *) { return true; });
}
