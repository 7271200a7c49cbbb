//===- Driver.cpp - Shared by the driver's functions ----------------------===//

#include "graph/Driver/Driver.h"

void mlir::graph::driver::printSourceDiagnostic(
    const llvm::SMDiagnostic &diagnostic, void *stream) {
  diagnostic.print(nullptr, *static_cast<llvm::raw_ostream *>(stream));
}
