//===- CompilerModule.h - The compiler side of graph_compiler ---*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_PYTHON_COMPILERMODULE_H
#define GRAPH_PYTHON_COMPILERMODULE_H

#include <pybind11/pybind11.h>

namespace graph_python {

/// Defines compile, optimize, report and visualize in `m`, raising `error`
/// (graph_compiler.Error) with the compiler's diagnostics.
void defineCompilerModule(pybind11::module_ &m, pybind11::object error);

} // namespace graph_python

#endif // GRAPH_PYTHON_COMPILERMODULE_H
