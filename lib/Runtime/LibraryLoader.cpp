//===- LibraryLoader.cpp - Run the libraries graph-compile makes ----------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Runtime/LibraryLoader.h"

#include "graph/Runtime/Errors.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

#include <chrono>

using namespace mlir::graph::runtime;

llvm::Expected<unsigned> mlir::graph::runtime::selectSpecialization(
    llvm::StringRef path, llvm::ArrayRef<std::string> inputShapes) {
  if (inputShapes.empty())
    return 0;
  llvm::Expected<ModelMetadata> first = readModelMetadata(path);
  if (!first)
    return first.takeError();
  if (first->numSpecializations <= 1)
    return makeError("--input-shape applies to .onnx models only; '" + path +
                     "' is compiled already");
  llvm::StringMap<llvm::SmallVector<int64_t>> wanted;
  for (const std::string &spec : inputShapes) {
    std::string error;
    if (!parseInputShapes(spec, wanted, error))
      return makeError(error);
  }
  const auto &inputs = first->signature.inputs;
  for (const auto &entry : wanted)
    if (!findTensor(inputs, entry.getKey(), "arg"))
      return makeError("--input-shape names '" + entry.getKey() +
                       "', which is not an input of '" + path + "'");
  // An input that some specialization binds, named with its shape.
  auto describe = [&](const ModelSignature &signature) {
    llvm::SmallVector<std::string> shapes;
    for (auto [i, spec] : llvm::enumerate(signature.inputs)) {
      bool bound =
          i >= first->inputSymbols.size() ||
          llvm::any_of(first->inputSymbols[i],
                       [](const std::string &s) { return !s.empty(); });
      if (!bound)
        continue;
      llvm::SmallVector<std::string> dims;
      for (int64_t dim : spec.shape)
        dims.push_back(std::to_string(dim));
      shapes.push_back(spec.name + "=" + llvm::join(dims, "x"));
    }
    return llvm::join(shapes, ",");
  };
  llvm::SmallVector<std::string> held;
  for (unsigned i = 0; i < first->numSpecializations; ++i) {
    llvm::Expected<ModelMetadata> metadata =
        i == 0 ? llvm::Expected<ModelMetadata>(*first)
               : readModelMetadata(path, i);
    if (!metadata)
      return metadata.takeError();
    bool matches = llvm::all_of(wanted, [&](const auto &entry) {
      std::optional<size_t> index =
          findTensor(metadata->signature.inputs, entry.getKey(), "arg");
      return index && llvm::ArrayRef<int64_t>(
                          metadata->signature.inputs[*index].shape) ==
                          llvm::ArrayRef<int64_t>(entry.getValue());
    });
    if (matches)
      return i;
    held.push_back(describe(metadata->signature));
  }
  return makeError("'" + path + "' holds no specialization for " +
                   llvm::join(inputShapes, ",") + "; it holds " +
                   llvm::join(held, "; "));
}

llvm::Expected<std::optional<DeclaredSignature>>
mlir::graph::runtime::readLibrarySignature(
    llvm::StringRef path, llvm::ArrayRef<std::string> inputShapes) {
  llvm::Expected<ModelMetadata> first = readModelMetadata(path);
  if (!first)
    return first.takeError();
  if (first->numSpecializations <= 1)
    return std::nullopt;
  DeclaredSignature declared;
  for (auto [i, spec] : llvm::enumerate(first->signature.inputs)) {
    DeclaredTensor &input =
        declared.inputs.emplace_back(DeclaredTensor::fromSpec(spec));
    if (i >= first->inputSymbols.size())
      continue;
    for (auto [d, symbol] : llvm::enumerate(first->inputSymbols[i]))
      if (d < input.shape.size() && !symbol.empty()) {
        input.shape[d] = kSymbolicDim;
        input.symbols[d] = symbol;
      }
  }
  // --input-shape fixes the dimensions it names (and so chooses among the
  // specializations).
  llvm::StringMap<llvm::SmallVector<int64_t>> fixed;
  for (const std::string &spec : inputShapes) {
    std::string error;
    if (!parseInputShapes(spec, fixed, error))
      return makeError(error);
  }
  for (DeclaredTensor &input : declared.inputs) {
    auto it = fixed.find(input.name);
    if (it == fixed.end() || it->second.size() != input.shape.size())
      continue;
    input.shape.assign(it->second.begin(), it->second.end());
    input.symbols.assign(input.shape.size(), "");
  }
  for (const TensorSpec &spec : first->signature.outputs)
    declared.outputs.push_back(DeclaredTensor::fromSpec(spec));
  for (unsigned i = 1; i < first->numSpecializations; ++i) {
    llvm::Expected<ModelMetadata> other = readModelMetadata(path, i);
    if (!other)
      return other.takeError();
    for (auto [output, spec] :
         llvm::zip(declared.outputs, other->signature.outputs))
      for (auto [d, dim] : llvm::enumerate(spec.shape))
        if (d < output.shape.size() && output.shape[d] != dim) {
          output.shape[d] = kSymbolicDim;
          output.symbols[d] = output.name + "_dim" + std::to_string(d);
        }
  }
  return declared;
}

llvm::Expected<std::unique_ptr<SharedLibraryModel>>
mlir::graph::runtime::loadLibrary(llvm::StringRef path,
                                  llvm::ArrayRef<std::string> inputShapes,
                                  bool countAllocations) {
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<unsigned> specialization =
      selectSpecialization(path, inputShapes);
  if (!specialization)
    return specialization.takeError();
  llvm::Expected<std::unique_ptr<SharedLibraryModel>> model =
      SharedLibraryModel::load(path, countAllocations, *specialization);
  if (!model)
    return model.takeError();
  std::chrono::duration<double, std::milli> elapsed =
      std::chrono::steady_clock::now() - start;
  (*model)->setCompileMillis(elapsed.count());
  return model;
}

namespace {
class LibrarySource : public ModelSource {
public:
  LibrarySource(llvm::StringRef path, bool countAllocations)
      : path(path.str()), countAllocations(countAllocations) {}

  llvm::Expected<std::optional<DeclaredSignature>>
  readDeclaredSignature() override {
    if (!isSharedLibrary(path)) {
      if (isObjectFile(path))
        return makeError("'" + path +
                         "' is an object file: link it into a shared "
                         "library to run it with this runtime");
      return makeError("'" + path +
                       "' is not a library made by graph-compile: this "
                       "runtime runs compiled models only (compile it with "
                       "graph-compile, or load it through the compiler's "
                       "runtime, libGraphCAPI)");
    }
    return readLibrarySignature(path, {});
  }

  llvm::Expected<std::shared_ptr<LoadedModel>>
  load(const std::vector<std::string> &inputShapes,
       const std::vector<std::string> &) override {
    llvm::Expected<std::unique_ptr<SharedLibraryModel>> library =
        loadLibrary(path, inputShapes, countAllocations);
    if (!library)
      return library.takeError();
    auto model = std::make_shared<LoadedModel>();
    model->executable = std::move(*library);
    model->report.source = LoadReport::Source::SharedLibrary;
    return model;
  }

private:
  std::string path;
  bool countAllocations;
};
} // namespace

std::unique_ptr<ModelSource>
mlir::graph::runtime::createLibrarySource(llvm::StringRef path,
                                          bool countAllocations) {
  return std::make_unique<LibrarySource>(path, countAllocations);
}
