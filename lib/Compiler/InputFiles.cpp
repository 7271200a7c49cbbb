//===- InputFiles.cpp - A model loaded for inputs given as files ----------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Compiler/InputFiles.h"

#include "graph/Runtime/Errors.h"
#include "graph/Runtime/TensorFiles.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::compiler;
using namespace mlir::graph::runtime;

/// The file given for each declared input, if any.
static llvm::Expected<std::vector<std::optional<std::string>>>
assignDeclaredInputs(const DeclaredSignature &declared,
                     const InputFileArguments &files) {
  llvm::SmallVector<TensorSpec> specs;
  for (const DeclaredTensor &input : declared.inputs)
    specs.emplace_back().name = input.name;
  return assignInputFiles(specs, files.positional, files.named, files.entry);
}

/// Reads input `i` from `file` into `arrays[i]`.
static llvm::Error
readInputArray(const DeclaredTensor &input, size_t i, const std::string &file,
               std::vector<std::optional<NpyArray>> &arrays) {
  llvm::Expected<NpyArray> array = readNpy(file);
  if (!array)
    return makeError("input '" + input.name + "' (argument " + llvm::Twine(i) +
                     "): '" + file + "': " + llvm::toString(array.takeError()));
  arrays[i] = std::move(*array);
  return llvm::Error::success();
}

/// For a model whose inputs have symbolic dimensions: their sizes, read
/// from the input files, as `NAME=AxBxC` entries (the arrays read are kept
/// in `arrays`).
static llvm::Expected<std::vector<std::string>>
bindShapesFromFiles(const DeclaredSignature &declared,
                    llvm::ArrayRef<std::optional<std::string>> files,
                    std::vector<std::optional<NpyArray>> &arrays) {
  if (llvm::none_of(files, [](auto &file) { return bool(file); })) {
    for (const DeclaredTensor &input : declared.inputs) {
      if (input.ranked && !llvm::is_contained(input.shape, kSymbolicDim))
        continue;
      llvm::SmallVector<std::string> example;
      for (int64_t dim : input.shape)
        example.push_back(std::to_string(dim == kSymbolicDim ? 1 : dim));
      return makeError(
          "input '" + input.name + "' has symbolic dimensions " +
          formatDeclaredShape(input) +
          ": give the inputs as .npy files, whose shapes fix them, or fix "
          "them with --input-shape " +
          input.name + "=" +
          (input.ranked ? llvm::join(example, "x") : "AxBx..."));
    }
  }
  arrays.clear();
  arrays.resize(declared.inputs.size());
  InputShapes shapes;
  for (auto [i, input] : llvm::enumerate(declared.inputs)) {
    if (!files[i])
      return makeError("missing input '" + input.name + "' (argument " +
                       llvm::Twine(i) + ") of shape " +
                       formatDeclaredShape(input));
    if (llvm::Error error = readInputArray(input, i, *files[i], arrays))
      return std::move(error);
    shapes.emplace_back(arrays[i]->shape.begin(), arrays[i]->shape.end());
  }
  return bindInputShapes(declared, shapes);
}

/// The values of the inputs `names`, which decide shapes, read from their
/// files (kept in `arrays`) as LoadOptions::inputValues.
static llvm::Expected<std::vector<std::string>>
valuesFromFiles(const DeclaredSignature &declared,
                llvm::ArrayRef<std::string> names,
                llvm::ArrayRef<std::optional<std::string>> files,
                std::vector<std::optional<NpyArray>> &arrays) {
  arrays.resize(declared.inputs.size());
  std::vector<std::string> values;
  for (auto [i, input] : llvm::enumerate(declared.inputs)) {
    if (!llvm::is_contained(names, input.name))
      continue;
    if (!files[i])
      return makeError("input '" + input.name +
                       "' decides shapes (an op needs its values when the "
                       "model is compiled): give it as a .npy file");
    if (!arrays[i])
      if (llvm::Error error = readInputArray(input, i, *files[i], arrays))
        return std::move(error);
    ElementType type = arrays[i]->buffer.getElementType();
    if (input.elementType && type != *input.elementType)
      return makeError("input '" + input.name + "' (argument " +
                       llvm::Twine(i) + "): '" + *files[i] + "' holds " +
                       getName(type) + ", expected " +
                       getName(*input.elementType));
    llvm::Expected<std::string> text =
        formatInputValues(input, arrays[i]->shape, arrays[i]->buffer.data());
    if (!text)
      return text.takeError();
    values.push_back(std::move(*text));
  }
  return values;
}

llvm::Expected<std::unique_ptr<Executable>>
mlir::graph::compiler::loadModelForInputFiles(
    MLIRContext &context, llvm::StringRef path, LoadOptions options,
    const InputFileArguments &files, TimingScope &timing, LoadReport &report,
    std::vector<std::optional<NpyArray>> &arrays,
    llvm::raw_ostream &diagnostics) {
  llvm::Expected<std::optional<DeclaredSignature>> declared =
      readDeclaredSignature(context, path, options, diagnostics);
  if (!declared)
    return declared.takeError();
  // The file of each declared input, assigned when the files are first
  // needed here (otherwise against the loaded model's signature).
  std::vector<std::optional<std::string>> inputFiles;
  auto assignFiles = [&]() -> llvm::Error {
    if (!inputFiles.empty() || (*declared)->inputs.empty())
      return llvm::Error::success();
    llvm::Expected<std::vector<std::optional<std::string>>> assigned =
        assignDeclaredInputs(**declared, files);
    if (!assigned)
      return assigned.takeError();
    inputFiles = std::move(*assigned);
    return llvm::Error::success();
  };
  if (*declared && (*declared)->isSymbolic()) {
    if (llvm::Error error = assignFiles())
      return std::move(error);
    llvm::Expected<std::vector<std::string>> bound =
        bindShapesFromFiles(**declared, inputFiles, arrays);
    if (!bound)
      return bound.takeError();
    llvm::append_range(options.inputShapes, *bound);
  }
  // An import that needs the values of inputs that decide shapes is tried
  // again with those of the input files (each try names at least one more).
  for (;;) {
    std::string attemptDiagnostics;
    llvm::raw_string_ostream os(attemptDiagnostics);
    llvm::Expected<std::unique_ptr<Executable>> model = [&] {
      TimingScope modelTimer = timing.nest(path.str());
      return loadModel(context, path, options, modelTimer, report, os);
    }();
    std::vector<std::string> needed;
    if (!model && *declared) {
      llvm::Error error = model.takeError();
      if (error.isA<InputValuesNeeded>())
        llvm::handleAllErrors(
            std::move(error),
            [&](const InputValuesNeeded &missing) { needed = missing.names; });
      model = error ? std::move(error) : makeReportedError();
    }
    bool given = llvm::all_of(needed, [&](const std::string &name) {
      return llvm::any_of(options.inputValues, [&](const std::string &v) {
        return llvm::StringRef(v).starts_with(name + "=");
      });
    });
    if (model || given) {
      diagnostics << attemptDiagnostics;
      return model;
    }
    // The needed names were taken out of the error: only its diagnostics go.
    llvm::consumeError(model.takeError());
    if (llvm::Error error = assignFiles())
      return std::move(error);
    llvm::Expected<std::vector<std::string>> values =
        valuesFromFiles(**declared, needed, inputFiles, arrays);
    if (!values)
      return values.takeError();
    llvm::append_range(options.inputValues, *values);
  }
}
