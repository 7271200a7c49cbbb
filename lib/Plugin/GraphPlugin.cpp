//===- GraphPlugin.cpp - Dialect and pass plugin for mlir-opt ---*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Lets the stock mlir-opt load the graph dialect and its passes:
//   mlir-opt --load-dialect-plugin=GraphPlugin.so \
//            --load-pass-plugin=GraphPlugin.so \
//            --pass-pipeline='builtin.module(graph-optimize)'
//
//===----------------------------------------------------------------------===//

#include "graph/Codegen/CPU/Passes.h"
#include "graph/Conversion/Passes.h"
#include "graph/Dialect/Graph/IR/GraphDialect.h"
#include "graph/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Graph", LLVM_VERSION_STRING,
          [](DialectRegistry *registry) {
            registry->insert<graph::GraphDialect>();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "GraphPasses", LLVM_VERSION_STRING, []() {
            graph::registerAllGraphPasses();
            graph::registerAllGraphConversionPasses();
            graph::registerAllGraphCPUCodegenPasses();
          }};
}
