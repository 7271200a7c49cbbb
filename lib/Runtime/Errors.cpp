//===- Errors.cpp - How the runtime library reports failures --------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Runtime/Errors.h"

#include "llvm/Support/WithColor.h"

using namespace mlir::graph::runtime;

char ReportedError::ID = 0;

void ReportedError::log(llvm::raw_ostream &os) const {
  os << "reported through the diagnostic handlers";
}

std::error_code ReportedError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

char InputValuesNeeded::ID = 0;

void InputValuesNeeded::log(llvm::raw_ostream &os) const {
  if (!diagnostics.empty()) {
    os << diagnostics;
    return;
  }
  os << "the import needs the values of inputs";
  for (const std::string &name : names)
    os << " '" << name << "'";
}

llvm::Error mlir::graph::runtime::makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Error mlir::graph::runtime::makeReportedError() {
  return llvm::make_error<ReportedError>();
}

void mlir::graph::runtime::printError(llvm::Error error, llvm::StringRef tool) {
  llvm::handleAllErrors(
      std::move(error), [](const ReportedError &) {},
      [&](const llvm::ErrorInfoBase &info) {
        llvm::WithColor::error(llvm::errs(), tool) << info.message() << "\n";
      });
}
