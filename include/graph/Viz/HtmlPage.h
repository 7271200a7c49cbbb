//===- HtmlPage.h - A self-contained page of the pipeline -------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The page embeds one SVG per step and view (fused groups open or as one
// box), the graph-report figures of each step with the change against the
// previous one, and a script for stepping (buttons, arrow keys, a step
// list), zoom and pan. It loads nothing: no network, no other file.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_VIZ_HTMLPAGE_H
#define GRAPH_VIZ_HTMLPAGE_H

#include "graph/Viz/Snapshot.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir {
namespace graph {
namespace viz {

struct PageInfo {
  /// The model, as named on the command line.
  std::string model;
  /// The pipeline that ran, as text.
  std::string pipeline;
};

/// Writes the page. `expandedSvgs[i]` and `collapsedSvgs[i]` are the
/// pictures of `steps[i]`.
void printHtmlPage(ArrayRef<Step> steps, ArrayRef<std::string> expandedSvgs,
                   ArrayRef<std::string> collapsedSvgs, const PageInfo &info,
                   raw_ostream &os);

/// Lays out every step in both views with Graphviz and writes the page to
/// `path` (`-` for stdout) through a temporary file, so that a failure
/// leaves no partial page. `jobs`: Graphviz processes at once (0: one per
/// core).
llvm::Error writeHtmlPage(ArrayRef<Step> steps, const PageInfo &info,
                          StringRef path, unsigned jobs = 0);

} // namespace viz
} // namespace graph
} // namespace mlir

#endif // GRAPH_VIZ_HTMLPAGE_H
