//===- Graphviz.h - Layout with Graphviz's dot ------------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Runs Graphviz's `dot` (Debian's graphviz package) on DOT graphs, several
// processes at a time, and returns their SVGs.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_VIZ_GRAPHVIZ_H
#define GRAPH_VIZ_GRAPHVIZ_H

#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
namespace graph {
namespace viz {

/// Lays out each graph of `dots` into an SVG document (from its `<svg>`
/// element on, ready to embed in HTML). `jobs` processes run at once (0:
/// one per core). Fails when `dot` is not installed or rejects a graph.
llvm::Expected<std::vector<std::string>> renderSvgs(ArrayRef<std::string> dots,
                                                    unsigned jobs = 0);

} // namespace viz
} // namespace graph
} // namespace mlir

#endif // GRAPH_VIZ_GRAPHVIZ_H
