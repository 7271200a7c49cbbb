//===- Snapshot.cpp - A graph as drawn at one step of a pipeline ----------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Taking the picture of a module, and telling what a pass did by following
// the tags that the recorder puts into the ops' locations before it runs:
// a pass that replaces an op hands its location on (a folded constant takes
// the op's location, a fused group the fused locations of its ops, a body op
// is a clone), so the tags say where each op went.
//
//===----------------------------------------------------------------------===//

#include "graph/Viz/Snapshot.h"

#include "graph/Dialect/Graph/IR/ConstantTensor.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::viz;

//===----------------------------------------------------------------------===//
// Tags
//===----------------------------------------------------------------------===//

/// The TypeID that marks the recorder's OpaqueLocs.
static TypeID getTagTypeID() {
  static char key;
  return TypeID::getFromOpaquePointer(&key);
}

static std::optional<int64_t> getOwnTag(Location loc) {
  auto opaque = dyn_cast<OpaqueLoc>(loc);
  if (!opaque || opaque.getUnderlyingTypeID() != getTagTypeID())
    return std::nullopt;
  return static_cast<int64_t>(opaque.getUnderlyingLocation());
}

static void collectTags(Location loc, SmallVectorImpl<int64_t> &tags) {
  loc->walk([&](Location nested) {
    if (std::optional<int64_t> tag = getOwnTag(nested))
      tags.push_back(*tag);
    return WalkResult::advance();
  });
}

/// `loc` without the recorder's tags.
static Location stripTags(Location loc) {
  if (auto opaque = dyn_cast<OpaqueLoc>(loc);
      opaque && opaque.getUnderlyingTypeID() == getTagTypeID())
    return stripTags(opaque.getFallbackLocation());
  return loc;
}

std::vector<Operation *> mlir::graph::viz::tagOps(Operation *root) {
  std::vector<Operation *> ops;
  TypeID id = getTagTypeID();
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == root || isa<ModuleOp, func::FuncOp>(op))
      return;
    op->setLoc(OpaqueLoc::get(static_cast<uintptr_t>(ops.size()), id,
                              stripTags(op->getLoc())));
    ops.push_back(op);
  });
  return ops;
}

void mlir::graph::viz::untagOps(Operation *root) {
  AttrTypeReplacer replacer;
  replacer.addReplacement(
      [](OpaqueLoc loc) -> std::optional<std::pair<Attribute, WalkResult>> {
        if (loc.getUnderlyingTypeID() != getTagTypeID())
          return std::nullopt;
        return std::make_pair(Attribute(stripTags(loc)), WalkResult::skip());
      });
  replacer.recursivelyReplaceElementsIn(root, /*replaceAttrs=*/false,
                                        /*replaceLocs=*/true,
                                        /*replaceTypes=*/false);
}

//===----------------------------------------------------------------------===//
// Names and labels
//===----------------------------------------------------------------------===//

std::string mlir::graph::viz::getLocationName(Location loc) {
  loc = stripTags(loc);
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    std::vector<std::string> names;
    std::set<std::string> seen;
    for (Location part : fused.getLocations())
      if (std::string name = getLocationName(part);
          !name.empty() && seen.insert(name).second)
        names.push_back(name);
    return llvm::join(names, "+");
  }
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return getLocationName(callSite.getCallee());
  if (auto opaque = dyn_cast<OpaqueLoc>(loc))
    return getLocationName(opaque.getFallbackLocation());
  if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    std::string name = llvm::sys::path::filename(file.getFilename()).str();
    if (file.getLine() > 0)
      name += ":" + std::to_string(file.getLine());
    return name;
  }
  return "";
}

static std::string formatShape(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << type;
    return text;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      shaped.getShape(), os,
      [&](int64_t dim) {
        if (ShapedType::isDynamic(dim))
          os << "?";
        else
          os << dim;
      },
      "x");
  if (shaped.getRank() == 0)
    os << "scalar";
  if (!shaped.getElementType().isF32())
    os << " " << shaped.getElementType();
  return text;
}

static std::string formatFloat(float value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("%.4g", static_cast<double>(value));
  return text;
}

/// A constant's value, if it is small enough to read in a box.
static std::string formatValue(ElementsAttr value) {
  constexpr int64_t kMaxShown = 4;
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return "";
  // A splat is read from its one value, whatever its size.
  if (!value.isSplat() && type.getNumElements() > kMaxShown)
    return "";
  std::optional<ConstantTensor> tensor = readConstantTensor(value);
  if (!tensor)
    return "";
  if (tensor->isSplat)
    return type.getNumElements() == 1
               ? formatFloat(tensor->splatValue)
               : "all " + formatFloat(tensor->splatValue);
  SmallVector<std::string> elements;
  for (int64_t i = 0, e = tensor->getNumElements(); i < e; ++i)
    elements.push_back(formatFloat((*tensor)[i]));
  return elements.size() == 1 ? elements.front()
                              : "[" + llvm::join(elements, ", ") + "]";
}

//===----------------------------------------------------------------------===//
// Snapshot
//===----------------------------------------------------------------------===//

namespace {
class SnapshotBuilder {
public:
  explicit SnapshotBuilder(Step &step) : step(step) {}

  void addFunction(func::FuncOp func);

private:
  int addNode(Node node) {
    step.nodes.push_back(std::move(node));
    return step.nodes.size() - 1;
  }
  int addOp(Operation *op, int parent);
  /// The node that computes `value` when fused groups are drawn as boxes.
  int getCollapsedSource(Value value) const;
  /// The node that computes `value` when fused bodies are drawn open: a
  /// fused result is its body's yielded value, a body argument the operand
  /// of the group.
  int getExpandedSource(Value value) const;
  void addEdges(int node, ValueRange operands, bool collapsed, bool expanded);

  Step &step;
  int func = 0;
  llvm::DenseMap<Operation *, int> nodeOfOp;
  llvm::DenseMap<Value, int> nodeOfArgument;
};
} // namespace

int SnapshotBuilder::addOp(Operation *op, int parent) {
  Node node;
  node.opName = op->getName().getStringRef().str();
  node.name = getLocationName(op->getLoc());
  node.parent = parent;
  node.func = func;
  node.op = op;
  if (std::optional<int64_t> tag = getOwnTag(op->getLoc()))
    node.tag = *tag;
  collectTags(op->getLoc(), node.origins);

  if (auto fused = dyn_cast<FusedOp>(op)) {
    node.kind = NodeKind::Fused;
    node.detail = fused.getKind().str();
  } else if (op->hasTrait<OpTrait::ConstantLike>()) {
    node.kind = NodeKind::Constant;
    // A one-element constant reads as its value, a small one as its shape
    // and value, a large one as its shape.
    Type type = op->getNumResults() == 1 ? op->getResult(0).getType() : Type();
    std::string shape = type ? formatShape(type) : "";
    std::string value;
    if (auto constant = dyn_cast<ConstantOp>(op))
      value = formatValue(constant.getValue());
    auto shaped = dyn_cast_or_null<ShapedType>(type);
    if (!value.empty() && shaped && shaped.hasStaticShape() &&
        shaped.getNumElements() == 1)
      node.detail = value;
    else
      node.detail = value.empty() ? shape : shape + " = " + value;
  }
  int index = addNode(std::move(node));
  nodeOfOp[op] = index;

  if (auto fused = dyn_cast<FusedOp>(op))
    for (Operation &inner : fused.getBody().front())
      if (!isa<YieldOp>(inner))
        addOp(&inner, index);
  // The regions of a graph.if or graph.loop hold ops of the graph, drawn
  // beside it; what a loop carries into its body comes from its box.
  if (isa<IfOp, LoopOp>(op)) {
    step.nodes[index].regionNames =
        isa<IfOp>(op) ? std::vector<std::string>{"then", "else"}
                      : std::vector<std::string>{"body"};
    for (auto [r, region] : llvm::enumerate(op->getRegions()))
      for (Operation &inner : region.front()) {
        if (isa<YieldOp>(inner))
          continue;
        int innerIndex = addOp(&inner, parent);
        step.nodes[innerIndex].branch = index;
        step.nodes[innerIndex].region = r;
      }
    if (auto loop = dyn_cast<LoopOp>(op))
      for (BlockArgument argument : loop.getBody().getArguments())
        nodeOfArgument[argument] = index;
  }
  return index;
}

int SnapshotBuilder::getCollapsedSource(Value value) const {
  if (auto it = nodeOfArgument.find(value); it != nodeOfArgument.end())
    return it->second;
  Operation *def = value.getDefiningOp();
  if (!def)
    return -1;
  auto it = nodeOfOp.find(def);
  return it == nodeOfOp.end() ? -1 : it->second;
}

int SnapshotBuilder::getExpandedSource(Value value) const {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (auto fused = dyn_cast_or_null<FusedOp>(arg.getOwner()->getParentOp()))
      return getExpandedSource(fused->getOperand(arg.getArgNumber()));
    return getCollapsedSource(value);
  }
  auto result = cast<OpResult>(value);
  if (auto fused = dyn_cast<FusedOp>(result.getOwner())) {
    Operation *yield = fused.getBody().front().getTerminator();
    return getExpandedSource(yield->getOperand(result.getResultNumber()));
  }
  return getCollapsedSource(value);
}

void SnapshotBuilder::addEdges(int node, ValueRange operands, bool collapsed,
                               bool expanded) {
  for (Value operand : operands) {
    std::string label = formatShape(operand.getType());
    // A loop's body passing on what the loop gave it (its condition) would
    // draw an edge from the loop's box to itself.
    if (collapsed)
      if (int from = getCollapsedSource(operand); from >= 0 && from != node)
        step.collapsedEdges.push_back({from, node, label});
    if (expanded)
      if (int from = getExpandedSource(operand); from >= 0 && from != node)
        step.expandedEdges.push_back({from, node, label});
  }
}

void SnapshotBuilder::addFunction(func::FuncOp funcOp) {
  func = step.funcs.size();
  step.funcs.push_back(funcOp.getSymName().str());
  if (funcOp.isExternal())
    return;

  for (BlockArgument arg : funcOp.getArguments()) {
    Node node;
    node.kind = NodeKind::Input;
    if (auto name = funcOp.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                        "graph.name"))
      node.name = name.str();
    else
      node.name = "arg" + std::to_string(arg.getArgNumber());
    node.detail = formatShape(arg.getType());
    node.func = func;
    nodeOfArgument[arg] = addNode(std::move(node));
  }

  size_t first = step.nodes.size();
  SmallVector<Operation *> returns;
  for (Block &block : funcOp.getBody())
    for (Operation &op : block) {
      if (op.hasTrait<OpTrait::ReturnLike>()) {
        returns.push_back(&op);
        continue;
      }
      addOp(&op, /*parent=*/-1);
    }
  size_t last = step.nodes.size();

  // Edges into ops: a fused group (collapsed) or the ops of its body
  // (expanded); every other op in both pictures.
  for (size_t i = first; i < last; ++i) {
    Operation *op = step.nodes[i].op;
    bool isFused = step.nodes[i].kind == NodeKind::Fused;
    bool inBody = step.nodes[i].parent >= 0;
    addEdges(i, op->getOperands(), /*collapsed=*/!inBody,
             /*expanded=*/!isFused);
    // What a region of a graph.if or graph.loop yields flows into it.
    if (isa<IfOp, LoopOp>(op))
      for (Region &region : op->getRegions())
        addEdges(i, region.front().getTerminator()->getOperands(),
                 /*collapsed=*/true, /*expanded=*/true);
  }

  for (Operation *op : returns)
    for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
      Node node;
      node.kind = NodeKind::Output;
      if (auto name =
              funcOp.getResultAttrOfType<StringAttr>(index, "graph.name"))
        node.name = name.str();
      else
        node.name = "result" + std::to_string(index);
      node.detail = formatShape(operand.getType());
      node.func = func;
      int output = addNode(std::move(node));
      addEdges(output, operand, true, true);
    }
}

Step mlir::graph::viz::takeSnapshot(Operation *root) {
  Step step;
  SmallVector<func::FuncOp> funcs;
  if (auto func = dyn_cast<func::FuncOp>(root))
    funcs.push_back(func);
  else
    root->walk([&](func::FuncOp func) { funcs.push_back(func); });
  SnapshotBuilder builder(step);
  for (func::FuncOp func : funcs)
    builder.addFunction(func);
  step.stats = collectGraphStatistics(root);
  return step;
}

//===----------------------------------------------------------------------===//
// What a pass did
//===----------------------------------------------------------------------===//

static bool isOpNode(const Node &node) {
  return node.kind == NodeKind::Op || node.kind == NodeKind::Constant ||
         node.kind == NodeKind::Fused;
}

/// The names of the nodes of `step` at `indices`, for notes.
static std::string joinNames(const Step &step, ArrayRef<int> indices) {
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (int index : indices) {
    const Node &node = step.nodes[index];
    std::string name = node.name.empty() ? node.opName : node.name;
    if (seen.insert(name).second)
      names.push_back(name);
  }
  constexpr size_t kMaxNames = 4;
  if (names.size() <= kMaxNames)
    return llvm::join(names, ", ");
  return llvm::join(ArrayRef(names).take_front(kMaxNames), ", ") + " and " +
         std::to_string(names.size() - kMaxNames) + " more";
}

void mlir::graph::viz::markChanges(Step &before, Step &after) {
  // An op survives the pass when the same op, with the same tag and name,
  // is still there.
  llvm::DenseMap<Operation *, int> afterOfOp;
  for (auto [index, node] : llvm::enumerate(after.nodes))
    if (node.op)
      afterOfOp[node.op] = index;
  std::vector<int> survivor(before.nodes.size(), -1);
  llvm::DenseSet<int> survived;
  llvm::DenseMap<int64_t, int> beforeOfTag;
  for (auto [index, node] : llvm::enumerate(before.nodes)) {
    if (!isOpNode(node)) {
      survivor[index] = index; // Inputs and outputs stay.
      continue;
    }
    if (node.tag < 0)
      continue;
    beforeOfTag[node.tag] = index;
    auto it = afterOfOp.find(node.op);
    if (it == afterOfOp.end())
      continue;
    // An op moved into a fused body (graph-fuse moves the ops of a group)
    // did not survive as an op of the graph: it was fused.
    const Node &candidate = after.nodes[it->second];
    if (candidate.tag == node.tag && candidate.opName == node.opName &&
        (candidate.parent >= 0) == (node.parent >= 0)) {
      survivor[index] = it->second;
      survived.insert(it->second);
    }
  }

  // Where the tag of each vanished op went.
  llvm::DenseMap<int64_t, SmallVector<int>> afterOfOrigin;
  for (auto [index, node] : llvm::enumerate(after.nodes))
    if (!survived.contains(index))
      for (int64_t tag : node.origins)
        afterOfOrigin[tag].push_back(index);

  // Which ops read each op's results (the picture with fused boxes).
  std::vector<SmallVector<int>> users(before.nodes.size());
  for (const Edge &edge : before.collapsedEdges)
    users[edge.from].push_back(edge.to);

  std::map<int, int> groupOfFused;
  for (auto [index, node] : llvm::enumerate(before.nodes)) {
    if (!isOpNode(node) || node.tag < 0 || node.parent >= 0 ||
        survivor[index] >= 0)
      continue;
    // lookup returns a copy: an ArrayRef of it would dangle.
    SmallVector<int> targets = afterOfOrigin.lookup(node.tag);
    auto findTarget = [&](auto predicate) -> int {
      for (int target : targets)
        if (predicate(after.nodes[target]))
          return target;
      return -1;
    };
    int fused = findTarget([](const Node &target) {
      return target.parent >= 0 || target.kind == NodeKind::Fused;
    });
    if (fused >= 0 && node.kind != NodeKind::Fused) {
      while (after.nodes[fused].parent >= 0)
        fused = after.nodes[fused].parent;
      auto [it, inserted] = groupOfFused.try_emplace(fused, 0);
      if (inserted) {
        it->second = before.groups.size();
        before.groups.push_back({after.nodes[fused].detail, {}});
      }
      node.change = Change::Fuse;
      node.group = it->second;
      before.groups[it->second].members.push_back(index);
      node.note = "into " + after.nodes[fused].detail;
      ++before.numFuse;
      continue;
    }
    // A new op of another kind took its place (a batch_norm absorbed into
    // the weights of a new conv): rewritten, even if new constants carry
    // its location too.
    if (int other = fused >= 0 ? fused : findTarget([](const Node &target) {
          return target.kind != NodeKind::Constant;
        });
        other >= 0) {
      node.change = Change::Rewrite;
      node.note = "becomes a new " + after.nodes[other].opName;
      ++before.numRewrite;
      continue;
    }
    if (int constant = findTarget([](const Node &target) {
          return target.kind == NodeKind::Constant;
        });
        constant >= 0 && node.kind != NodeKind::Constant) {
      node.change = Change::Fold;
      node.note = "folds to " + after.nodes[constant].detail;
      ++before.numFold;
      continue;
    }
    // Gone without a trace: replaced by one of its operands if an op that
    // read it is still there (an identity fold), erased otherwise.
    if (llvm::any_of(users[index], [&](int user) {
          return before.nodes[user].kind == NodeKind::Output ||
                 survivor[user] >= 0;
        })) {
      node.change = Change::Fold;
      node.note = "replaced by its operand";
      ++before.numFold;
      continue;
    }
    node.change = Change::Erase;
    ++before.numErase;
  }

  // What the pass made.
  for (auto [index, node] : llvm::enumerate(after.nodes)) {
    if (!isOpNode(node) || node.parent >= 0 || survived.contains(index))
      continue;
    node.isNew = true;
    ++after.numNew;
    SmallVector<int> sources;
    for (int64_t tag : node.origins)
      if (auto it = beforeOfTag.find(tag); it != beforeOfTag.end())
        sources.push_back(it->second);
    if (!sources.empty() && node.kind != NodeKind::Fused)
      node.note = "from " + joinNames(before, sources);
  }
}
