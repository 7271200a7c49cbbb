//===- Dot.cpp - A step of the pipeline as a Graphviz graph ---------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Labels are Graphviz HTML-like labels (bold names, struck-out ops that the
// next pass erases). Colors: green for what the previous pass made, orange
// for what the next pass folds, blue for fused groups, red for what it
// erases.
//
//===----------------------------------------------------------------------===//

#include "graph/Viz/Dot.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::viz;

/// `text` escaped for an HTML-like label or a quoted attribute.
static std::string escape(StringRef text) {
  std::string escaped;
  for (char c : text) {
    switch (c) {
    case '&':
      escaped += "&amp;";
      break;
    case '<':
      escaped += "&lt;";
      break;
    case '>':
      escaped += "&gt;";
      break;
    case '"':
      escaped += "&quot;";
      break;
    case '\n':
      escaped += " ";
      break;
    default:
      escaped += c;
    }
  }
  return escaped;
}

/// `text` cut in the middle to at most `max` characters, so that long ONNX
/// names do not widen their boxes (the tooltip has the whole name).
static std::string shorten(StringRef text, size_t max = 44) {
  if (text.size() <= max)
    return text.str();
  size_t head = (max - 1) / 2, tail = max - 1 - head;
  return (text.take_front(head) + "\u2026" + text.take_back(tail)).str();
}

/// A fused group's names: the first op's, and how many more.
static std::string getGroupName(StringRef names) {
  SmallVector<StringRef> parts;
  names.split(parts, '+', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (parts.size() <= 1)
    return names.str();
  return parts.front().str() + " +" + std::to_string(parts.size() - 1);
}

/// An op's kind as drawn: the name without the `graph.` prefix.
static std::string getKind(const Node &node) {
  StringRef name = node.opName;
  name.consume_front("graph.");
  return name.str();
}

namespace {
struct Style {
  const char *fill = "#ffffff";
  const char *border = "#444444";
  const char *noteColor = "#555555";
  const char *shape = "box";
  std::string style = "rounded,filled";
  double penwidth = 1.0;
};
} // namespace

static Style getStyle(const Node &node) {
  Style s;
  switch (node.kind) {
  case NodeKind::Input:
    s.shape = "invhouse";
    s.style = "filled";
    s.fill = "#e4f1e4";
    break;
  case NodeKind::Output:
    s.shape = "house";
    s.style = "filled";
    s.fill = "#e4ebf7";
    break;
  case NodeKind::Constant:
    s.fill = "#fbf6e3";
    s.border = "#9a8a55";
    break;
  case NodeKind::Fused:
    s.fill = "#dfe8fb";
    s.border = "#3358a8";
    s.penwidth = 1.5;
    break;
  case NodeKind::Op:
    break;
  }
  switch (node.change) {
  case Change::Fold:
    s.fill = "#ffe3bf";
    s.border = "#d06a00";
    s.noteColor = "#b35a00";
    s.penwidth = 2;
    break;
  case Change::Fuse:
    s.border = "#3358a8";
    s.noteColor = "#3358a8";
    s.penwidth = 2;
    break;
  case Change::Erase:
    s.fill = "#f6f6f6";
    s.border = "#c0392b";
    s.noteColor = "#c0392b";
    s.style += ",dashed";
    s.penwidth = 2;
    break;
  case Change::Rewrite:
    s.fill = "#efe2fb";
    s.border = "#7a3fb0";
    s.noteColor = "#7a3fb0";
    s.penwidth = 2;
    break;
  case Change::None:
    break;
  }
  if (node.isNew && node.change == Change::None) {
    s.border = "#1e8a3c";
    s.noteColor = "#1e8a3c";
    s.penwidth = 2.5;
  }
  return s;
}

static const char *getKindClass(NodeKind kind) {
  switch (kind) {
  case NodeKind::Input:
    return "k_input";
  case NodeKind::Output:
    return "k_output";
  case NodeKind::Op:
    return "opnode k_op";
  case NodeKind::Constant:
    return "opnode k_const";
  case NodeKind::Fused:
    return "opnode k_fused";
  }
  return "";
}

static std::string getMarkClasses(const Node &node) {
  std::string classes;
  if (node.isNew)
    classes += " m_new";
  switch (node.change) {
  case Change::Fold:
    classes += " m_fold";
    break;
  case Change::Fuse:
    classes += " m_fuse";
    break;
  case Change::Erase:
    classes += " m_erase";
    break;
  case Change::Rewrite:
    classes += " m_rewrite";
    break;
  case Change::None:
    break;
  }
  return classes;
}

/// The note line under a box: what the previous pass made of it, or what
/// the next pass does.
static std::string getNote(const Node &node, const Step &step) {
  std::string pass = step.nextPass.empty() ? "the next pass" : step.nextPass;
  switch (node.change) {
  case Change::Fold:
    return node.note;
  case Change::Fuse:
    return "fuses " + node.note;
  case Change::Erase:
    return "erased by " + pass;
  case Change::Rewrite:
    return node.note;
  case Change::None:
    break;
  }
  if (node.isNew)
    return node.note.empty() ? "new" : "new, " + node.note;
  return "";
}

static std::string getLabel(const Node &node, const Step &step) {
  std::string title, subtitle;
  switch (node.kind) {
  case NodeKind::Input:
    title = node.name;
    subtitle = "input " + node.detail;
    break;
  case NodeKind::Output:
    title = node.name;
    subtitle = "output " + node.detail;
    break;
  case NodeKind::Constant:
    title = node.name.empty() ? "constant" : node.name;
    subtitle = "constant " + node.detail;
    break;
  case NodeKind::Fused:
    // The kind first: it is what the group is.
    title = node.detail;
    subtitle =
        node.name.empty() ? "fused" : "fused: " + getGroupName(node.name);
    break;
  case NodeKind::Op:
    title = node.name.empty() ? getKind(node) : node.name;
    subtitle = title == getKind(node) ? "" : getKind(node);
    break;
  }
  // A group's kind stays whole: it is what the group is.
  if (node.kind != NodeKind::Fused)
    title = shorten(title);
  subtitle = shorten(subtitle);
  bool strike = node.change == Change::Erase;
  std::string label = "<B>";
  label += strike ? "<S>" + escape(title) + "</S>" : escape(title);
  label += "</B>";
  if (!subtitle.empty()) {
    label += "<BR/><FONT POINT-SIZE=\"9\" COLOR=\"#555555\">";
    label += strike ? "<S>" + escape(subtitle) + "</S>" : escape(subtitle);
    label += "</FONT>";
  }
  if (std::string note = getNote(node, step); !note.empty())
    label += "<BR/><FONT POINT-SIZE=\"9\" COLOR=\"" +
             std::string(getStyle(node).noteColor) + "\"><I>" + escape(note) +
             "</I></FONT>";
  return label;
}

namespace {
class DotPrinter {
public:
  DotPrinter(const Step &step, const DotOptions &options, raw_ostream &os)
      : step(step), options(options), os(os) {}

  void print();

private:
  void printNode(int index);
  /// A fused group drawn open: a cluster with its body's ops.
  void printFusedCluster(int index);
  /// A graph.if or graph.loop: a cluster with its box and one cluster per
  /// region.
  void printBranchCluster(int index);
  /// A node, or its cluster when it is a fused group drawn open or a
  /// graph.if.
  void printTopLevel(int index) {
    if (!options.collapseFused && step.nodes[index].kind == NodeKind::Fused)
      printFusedCluster(index);
    else if (isBranch(index))
      printBranchCluster(index);
    else
      printNode(index);
  }
  bool isBranch(int index) const {
    return llvm::any_of(step.nodes,
                        [&](const Node &node) { return node.branch == index; });
  }
  /// The nodes of function `func` directly in region `region` of the
  /// graph.if `branch` (-1, -1: at the function's top level), and the
  /// groups the next pass plans there.
  void printScope(int func, int branch, int region);

  const Step &step;
  const DotOptions &options;
  raw_ostream &os;
};
} // namespace

void DotPrinter::printNode(int index) {
  const Node &node = step.nodes[index];
  Style s = getStyle(node);
  os << "  n" << index << " [id=\"" << options.idPrefix << "n" << index
     << "\" class=\"" << getKindClass(node.kind) << getMarkClasses(node)
     << "\" shape=" << s.shape << " style=\"" << s.style << "\" fillcolor=\""
     << s.fill << "\" color=\"" << s.border
     << "\" penwidth=" << llvm::format("%.1f", s.penwidth) << " label=<"
     << getLabel(node, step) << ">";
  if (!node.opName.empty())
    os << " tooltip=\"" << escape(node.name) << (node.name.empty() ? "" : " ")
       << escape(node.opName) << "\"";
  os << "];\n";
}

void DotPrinter::printFusedCluster(int index) {
  const Node &node = step.nodes[index];
  Style s = getStyle(node);
  os << "  subgraph cluster_g" << index << " {\n";
  os << "  id=\"" << options.idPrefix << "g" << index << "\" class=\"fusedgroup"
     << getMarkClasses(node) << "\" style=\"rounded,filled"
     << (node.change == Change::Erase ? ",dashed" : "")
     << "\" fillcolor=\"#eef3fd\" color=\"" << s.border
     << "\" penwidth=" << llvm::format("%.1f", s.penwidth) << " label=<"
     << getLabel(node, step) << ">;\n";
  for (auto [inner, innerNode] : llvm::enumerate(step.nodes))
    if (innerNode.parent == index)
      printNode(inner);
  os << "  }\n";
}

void DotPrinter::printBranchCluster(int index) {
  const Node &node = step.nodes[index];
  StringRef opName = node.opName;
  opName.consume_front("graph.");
  os << "  subgraph cluster_b" << index << " {\n  id=\"" << options.idPrefix
     << "b" << index
     << "\" class=\"branch\" style=\"rounded\" color=\"#7a7a7a\" "
        "label=<<I>"
     << opName << "</I>>;\n";
  printNode(index);
  for (auto [region, regionName] : llvm::enumerate(node.regionNames)) {
    os << "  subgraph cluster_b" << index << "r" << region << " {\n  id=\""
       << options.idPrefix << "b" << index << "r" << region
       << "\" class=\"region\" style=\"rounded,dashed\" color=\"#999999\" "
          "label=<<I>"
       << regionName << "</I>>;\n";
    printScope(node.func, index, region);
    os << "  }\n";
  }
  os << "  }\n";
}

void DotPrinter::printScope(int func, int branch, int region) {
  auto inScope = [&](const Node &node) {
    return node.func == func && node.parent < 0 && node.branch == branch &&
           node.region == region;
  };
  for (auto [index, node] : llvm::enumerate(step.nodes))
    if (inScope(node) && node.group < 0)
      printTopLevel(index);
  for (auto [group, planned] : llvm::enumerate(step.groups)) {
    if (planned.members.empty() ||
        !inScope(step.nodes[planned.members.front()]))
      continue;
    os << "  subgraph cluster_p" << group << " {\n  id=\"" << options.idPrefix
       << "p" << group
       << "\" class=\"plannedgroup\" style=\"rounded,dashed\" "
          "color=\"#3358a8\" penwidth=2 fontcolor=\"#3358a8\" "
          "label=<<I>"
       << escape(step.nextPass) << " fuses:</I> <B>" << escape(planned.kind)
       << "</B>>;\n";
    for (int member : planned.members)
      printTopLevel(member);
    os << "  }\n";
  }
}

void DotPrinter::print() {
  os << "digraph \"" << escape(step.title) << "\" {\n";
  os << "  graph [rankdir=TB fontname=\"DejaVu Sans\" fontsize=10 "
        "nodesep=0.25 ranksep=0.35 bgcolor=\"transparent\" labeljust=l];\n";
  os << "  node [fontname=\"DejaVu Sans\" fontsize=10 "
        "margin=\"0.10,0.04\" height=0.3];\n";
  os << "  edge [fontname=\"DejaVu Sans\" fontsize=8 fontcolor=\"#666666\" "
        "color=\"#777777\" arrowsize=0.6];\n";

  bool clusterFuncs = step.funcs.size() > 1;
  for (auto [func, name] : llvm::enumerate(step.funcs)) {
    if (clusterFuncs)
      os << "  subgraph cluster_f" << func << " {\n  id=\"" << options.idPrefix
         << "f" << func
         << "\" class=\"function\" style=\"rounded\" color=\"#bbbbbb\" "
            "label=<<B>@"
         << escape(name) << "</B>>;\n";
    printScope(func, /*branch=*/-1, /*region=*/-1);
    if (clusterFuncs)
      os << "  }\n";
  }

  const std::vector<Edge> &edges =
      options.collapseFused ? step.collapsedEdges : step.expandedEdges;
  for (const Edge &edge : edges) {
    bool erased = step.nodes[edge.from].change == Change::Erase ||
                  step.nodes[edge.to].change == Change::Erase;
    os << "  n" << edge.from << " -> n" << edge.to << " ["
       << (options.edgeLabels ? "label" : "tooltip") << "=\""
       << escape(edge.label) << "\"";
    // Tensors between ops pull harder than weights: the data path stays a
    // straight column, the constants beside it.
    if (step.nodes[edge.from].kind != NodeKind::Constant)
      os << " weight=8";
    if (erased)
      os << " style=dashed color=\"#c0392b\"";
    os << "];\n";
  }
  os << "}\n";
}

void mlir::graph::viz::printDot(const Step &step, const DotOptions &options,
                                raw_ostream &os) {
  DotPrinter(step, options, os).print();
}
