//===- Snapshot.h - A graph as drawn at one step of a pipeline --*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph-viz draws the graph before the first pass and after each pass. A
// Step is that picture's content, taken from the IR at the time: one node
// per op (and per model input and output), the tensors between them, the
// fused groups with their bodies, the graph-report figures, and the marks
// that say what the previous pass made and what the next pass will do.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_VIZ_SNAPSHOT_H
#define GRAPH_VIZ_SNAPSHOT_H

#include "graph/Transforms/Report.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace mlir {
namespace graph {
namespace viz {

enum class NodeKind { Input, Output, Op, Constant, Fused };

/// What the next pass will do to a node.
enum class Change {
  None,
  /// Replaced by a constant, or by one of its operands (identity folds).
  Fold,
  /// Becomes part of a new graph.fused.
  Fuse,
  /// Erased, nothing taking its place.
  Erase,
  /// Replaced by a new op that is neither a constant nor a fused group (a
  /// conv whose weights absorb a batch_norm).
  Rewrite,
};

struct Node {
  NodeKind kind = NodeKind::Op;
  /// The model's name for it: the ONNX node or tensor name, the SSA name in
  /// the source, `graph.name` for inputs and outputs; may be empty.
  std::string name;
  /// The op's full name (`graph.conv2d`); empty for inputs and outputs.
  std::string opName;
  /// A constant's shape and, when small, its value; a fused group's kind;
  /// an input's or output's tensor type.
  std::string detail;
  /// The fused node whose body holds this op, or -1 at the top level.
  int parent = -1;
  /// The graph.if or graph.loop node one of whose regions holds this op
  /// (drawn in a cluster of its own), and which region (0 then, 1 else; 0
  /// a loop's body); -1 outside.
  int branch = -1;
  int region = -1;
  /// For a graph.if or graph.loop: the names of its regions.
  std::vector<std::string> regionNames;
  /// The index of its function in Step::funcs.
  int func = 0;

  /// What the next pass will do (Step::nextPass).
  Change change = Change::None;
  /// The planned group (Step::groups) for Change::Fuse, else -1.
  int group = -1;
  /// Made by the previous pass.
  bool isNew = false;
  /// A short explanation of the mark: the value it folds to, what it was
  /// folded or fused from.
  std::string note;

  /// While recording only: the op, and the recorder's tags in its location
  /// (`tag` its own, `origins` every tag it holds, for ops that a pass
  /// derived from others).
  Operation *op = nullptr;
  int64_t tag = -1;
  SmallVector<int64_t, 2> origins;
};

/// A tensor from one node to another, labelled with its shape.
struct Edge {
  int from;
  int to;
  std::string label;
};

/// The ops that the next pass will wrap into one graph.fused.
struct PlannedGroup {
  std::string kind;
  std::vector<int> members;
};

struct Step {
  /// "input", or the pass that produced this state (its argument).
  std::string title;
  /// The pass with its options, as a textual pipeline element.
  std::string passText;
  /// The pass's one-line summary.
  std::string summary;
  /// The names of the functions drawn, in order.
  std::vector<std::string> funcs;
  std::vector<Node> nodes;
  /// Edges with each fused group as one box.
  std::vector<Edge> collapsedEdges;
  /// Edges with the ops of fused bodies drawn inside their group.
  std::vector<Edge> expandedEdges;
  GraphStatistics stats;

  /// The pass that runs next (its argument), empty for the last step.
  std::string nextPass;
  std::vector<PlannedGroup> groups;
  int numFold = 0, numFuse = 0, numErase = 0, numRewrite = 0, numNew = 0;
};

/// Takes the picture of the functions in `root` (a module, or a function).
/// Nodes record their op and the recorder tags in its location.
Step takeSnapshot(Operation *root);

/// Marks on `before` what the pass that turned it into `after` did, from
/// the tags that the recorder put on the ops of `before` (see tagOps), and
/// marks on `after` the nodes that pass made.
void markChanges(Step &before, Step &after);

/// Puts the tags 0, 1, ... into the locations of the ops nested in `root`
/// (OpaqueLocs that print as the original location), so that what a pass
/// derives from an op carries its tag. Returns the tagged ops in order.
std::vector<Operation *> tagOps(Operation *root);

/// Removes the tags from every location nested in `root`.
void untagOps(Operation *root);

/// The name a location gives its op: a NameLoc's name, the names in a
/// FusedLoc joined by '+', `file:line` otherwise; empty when unknown.
std::string getLocationName(Location loc);

} // namespace viz
} // namespace graph
} // namespace mlir

#endif // GRAPH_VIZ_SNAPSHOT_H
