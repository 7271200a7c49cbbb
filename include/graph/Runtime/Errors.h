//===- Errors.h - How the runtime library reports failures ------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The library never prints on its own and never exits: it returns an
// llvm::Error whose message a tool prints after its own name. Problems at a
// place in the model (an op, a function) are reported through the MLIR
// context's diagnostic handlers with their location, and the returned error
// is then a `ReportedError`, which says only that: the caller adds nothing.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_RUNTIME_ERRORS_H
#define GRAPH_RUNTIME_ERRORS_H

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
namespace graph {
namespace runtime {

/// A failure already reported through the context's diagnostic handlers.
class ReportedError : public llvm::ErrorInfo<ReportedError> {
public:
  static char ID;
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;
};

/// A failure to import a model without the values of some of its inputs,
/// which decide shapes (a Reshape's `shape` given as an input): reported
/// like any, and naming those inputs, so that a caller that holds the data
/// can import again with their values (LoadOptions::inputValues).
class InputValuesNeeded
    : public llvm::ErrorInfo<InputValuesNeeded, ReportedError> {
public:
  static char ID;
  explicit InputValuesNeeded(std::vector<std::string> names,
                             std::string diagnostics = "")
      : names(std::move(names)), diagnostics(std::move(diagnostics)) {}
  /// The diagnostics when they were captured, else what is missing.
  void log(llvm::raw_ostream &os) const override;
  std::vector<std::string> names;
  std::string diagnostics;
};

/// An error with `message`, for the caller to print.
llvm::Error makeError(const llvm::Twine &message);

/// A failure already reported through the context's diagnostic handlers.
llvm::Error makeReportedError();

/// Prints `error` after `tool: error: ` on stderr, unless it was reported
/// already. For tools.
void printError(llvm::Error error, llvm::StringRef tool);

} // namespace runtime
} // namespace graph
} // namespace mlir

#endif // GRAPH_RUNTIME_ERRORS_H
