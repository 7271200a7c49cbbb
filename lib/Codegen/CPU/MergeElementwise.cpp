//===- MergeElementwise.cpp - Elementwise trees as one generic ------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The elementwise linalg.generics of a fused group merged into one generic
// per tree (one loop nest, no intermediate at all), in one step for the
// whole tree rather than pair by pair, whose bodies would be cloned again at
// every step (quadratic in the length of a chain).
//
//===----------------------------------------------------------------------===//

#include "FusedGroup.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::graph;

bool mlir::graph::isMergeableElementwise(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumDpsInits() != 1 || generic->getNumResults() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      generic.hasIndexSemantics())
    return false;
  OpOperand *init = generic.getDpsInitOperand(0);
  return generic.getMatchingIndexingMap(init).isPermutation() &&
         !generic.payloadUsesValueFromOperand(init);
}

/// The number of iterations of `generic`'s loops, or nullopt if dynamic.
static std::optional<int64_t> getIterationCount(linalg::GenericOp generic) {
  int64_t count = 1;
  for (int64_t range : generic.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return std::nullopt;
    count *= range;
  }
  return count;
}

/// The group's generic that `producer` merges into, or null: `producer`
/// and its user are mergeable generics of the group, the user is its only
/// user and reads it through one indexing map (mul(x, x) reads x once per
/// element), and it does not broadcast it: merged, a producer would compute
/// each of its elements again for every element it is broadcast to (the
/// sigmoid of a squeeze-excitation's 144 channel scales, 3136 times each).
static linalg::GenericOp
getMergeConsumer(Operation *producer,
                 const llvm::SetVector<Operation *> &group) {
  if (!group.contains(producer) || !isMergeableElementwise(producer))
    return {};
  Value result = producer->getResult(0);
  if (result.use_empty())
    return {};
  Operation *user = *result.getUsers().begin();
  if (!group.contains(user) || !isMergeableElementwise(user) ||
      llvm::any_of(result.getUsers(),
                   [&](Operation *other) { return other != user; }))
    return {};
  auto consumer = cast<linalg::GenericOp>(user);
  std::optional<AffineMap> map;
  for (OpOperand &use : result.getUses()) {
    if (consumer.isDpsInit(&use))
      return {};
    AffineMap useMap = consumer.getMatchingIndexingMap(&use);
    if (map && *map != useMap)
      return {};
    map = useMap;
  }
  std::optional<int64_t> produced =
      getIterationCount(cast<linalg::GenericOp>(producer));
  std::optional<int64_t> consumed = getIterationCount(consumer);
  if (produced && consumed && *produced < *consumed)
    return {};
  return consumer;
}

/// Replaces the tree of mergeable generics rooted at `root` (`tree`: every
/// op after the producers it reads, `root` last) by one linalg.generic over
/// the root's loops. Each op's loops are reached from the root's through
/// `access` (root: identity; producer P read by C through map M:
/// inverse(P's output map) o M o access(C)); the tree's inputs are read
/// through their own maps composed with that, and the bodies are cloned one
/// after the other, each producer's yielded value standing for its result.
static linalg::GenericOp mergeElementwiseTree(RewriterBase &rewriter,
                                              ArrayRef<Operation *> tree) {
  auto root = cast<linalg::GenericOp>(tree.back());
  llvm::SmallPtrSet<Operation *, 8> inTree(llvm::from_range, tree);
  llvm::DenseMap<Operation *, AffineMap> access;
  access[root] = AffineMap::getMultiDimIdentityMap(root.getNumLoops(),
                                                   rewriter.getContext());
  for (Operation *op : llvm::reverse(tree)) {
    auto consumer = cast<linalg::GenericOp>(op);
    for (OpOperand *operand : consumer.getDpsInputOperands()) {
      auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
      if (!producer || !inTree.contains(producer))
        continue;
      AffineMap outMap =
          producer.getMatchingIndexingMap(producer.getDpsInitOperand(0));
      access[producer] = inversePermutation(outMap).compose(
          consumer.getMatchingIndexingMap(operand).compose(access[op]));
    }
  }

  // The inputs from outside the tree, each (value, map) once.
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  llvm::DenseMap<std::pair<Value, AffineMap>, unsigned> inputIndex;
  for (Operation *op : tree) {
    auto generic = cast<linalg::GenericOp>(op);
    for (OpOperand *operand : generic.getDpsInputOperands()) {
      Operation *def = operand->get().getDefiningOp();
      if (def && inTree.contains(def))
        continue;
      AffineMap map =
          generic.getMatchingIndexingMap(operand).compose(access[op]);
      auto [it, inserted] =
          inputIndex.try_emplace({operand->get(), map}, inputs.size());
      if (inserted) {
        inputs.push_back(operand->get());
        maps.push_back(map);
      }
    }
  }
  OpOperand *init = root.getDpsInitOperand(0);
  maps.push_back(root.getMatchingIndexingMap(init));

  rewriter.setInsertionPoint(root);
  auto merged = linalg::GenericOp::create(
      rewriter, root.getLoc(), root->getResultTypes(), inputs,
      ValueRange{init->get()}, maps, root.getIteratorTypesArray(),
      [&](OpBuilder &b, Location loc, ValueRange args) {
        llvm::DenseMap<Operation *, Value> yielded;
        for (Operation *op : tree) {
          auto generic = cast<linalg::GenericOp>(op);
          IRMapping mapping;
          for (OpOperand *operand : generic.getDpsInputOperands()) {
            BlockArgument arg = generic.getMatchingBlockArgument(operand);
            Operation *def = operand->get().getDefiningOp();
            if (def && inTree.contains(def)) {
              mapping.map(arg, yielded.lookup(def));
              continue;
            }
            AffineMap map =
                generic.getMatchingIndexingMap(operand).compose(access[op]);
            mapping.map(arg, args[inputIndex.lookup({operand->get(), map})]);
          }
          Block *body = generic.getBody();
          for (Operation &inner : body->without_terminator())
            b.clone(inner, mapping);
          Value result = body->getTerminator()->getOperand(0);
          yielded[op] = mapping.lookupOrDefault(result);
        }
        linalg::YieldOp::create(b, loc, yielded.lookup(root));
      });
  rewriter.replaceOp(root, merged->getResults());
  for (Operation *op : llvm::reverse(tree.drop_back()))
    rewriter.eraseOp(op);
  return merged;
}

void mlir::graph::mergeElementwiseOps(RewriterBase &rewriter,
                                      llvm::SetVector<Operation *> &group) {
  // Each producer has at most one consumer: the trees are the connected
  // pieces, each reached from its root (a generic merged into no consumer).
  llvm::DenseMap<Operation *, SmallVector<Operation *>> producers;
  SmallVector<Operation *> roots;
  for (Operation *op : group) {
    if (!isMergeableElementwise(op))
      continue;
    if (linalg::GenericOp consumer = getMergeConsumer(op, group))
      producers[consumer].push_back(op);
    else
      roots.push_back(op);
  }
  llvm::DenseSet<Operation *> mergedOps;
  for (Operation *root : roots) {
    if (!producers.count(root))
      continue;
    // Post-order from the root: every op after its producers.
    SmallVector<Operation *> tree;
    SmallVector<std::pair<Operation *, unsigned>> stack{{root, 0}};
    while (!stack.empty()) {
      auto &[op, next] = stack.back();
      auto it = producers.find(op);
      if (it == producers.end() || next == it->second.size()) {
        tree.push_back(op);
        stack.pop_back();
        continue;
      }
      Operation *producer = it->second[next++];
      stack.emplace_back(producer, 0);
    }
    mergedOps.insert(tree.begin(), tree.end());
    group.insert(mergeElementwiseTree(rewriter, tree));
  }
  group.remove_if([&](Operation *op) { return mergedOps.contains(op); });
}
