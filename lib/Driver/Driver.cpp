//===- Driver.cpp - Shared by the driver's functions ----------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Driver/Driver.h"

void mlir::graph::driver::printSourceDiagnostic(
    const llvm::SMDiagnostic &diagnostic, void *stream) {
  diagnostic.print(nullptr, *static_cast<llvm::raw_ostream *>(stream));
}
