//===- Dot.h - A step of the pipeline as a Graphviz graph -------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One box per op (its name and kind), one per model input and output, edges
// labelled with tensor shapes; fused groups as clusters named by their kind
// (or, collapsed, as one box); the marks of what the previous pass made and
// what the next one changes. Element ids and classes are set for the page's
// script and for tests: `<prefix>n<index>` for nodes, `<prefix>g<index>`
// for fused groups, `<prefix>p<index>` for planned groups.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_VIZ_DOT_H
#define GRAPH_VIZ_DOT_H

#include "graph/Viz/Snapshot.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir {
namespace graph {
namespace viz {

struct DotOptions {
  /// Draw each fused group as one box rather than a cluster of its ops.
  bool collapseFused = false;
  /// Prepended to every element id, to keep ids unique in one page.
  std::string idPrefix;
  /// Leave the shapes off the edges (faster layouts of large graphs).
  bool edgeLabels = true;
};

void printDot(const Step &step, const DotOptions &options, raw_ostream &os);

} // namespace viz
} // namespace graph
} // namespace mlir

#endif // GRAPH_VIZ_DOT_H
