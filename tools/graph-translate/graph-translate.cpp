//===- graph-translate.cpp - Translations into the graph dialect ----------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph-translate --import-onnx model.onnx [-o out.mlir]
//                 [--input-shape NAME=AxBxC]...
//
// An mlir-translate driver with the `import-onnx` translation. It exits 1
// on any error and then writes no output file.
//
//===----------------------------------------------------------------------===//

#include "graph/Target/ONNX/ImportONNX.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::graph::registerImportONNXTranslation();
  return mlir::failed(mlir::mlirTranslateMain(
      argc, argv, "graph-translate: translations into the graph dialect"));
}
