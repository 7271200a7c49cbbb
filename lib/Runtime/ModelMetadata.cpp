//===- ModelMetadata.cpp - The C entry ABI of a compiled model ------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Runtime/ModelMetadata.h"

#include "graph/Runtime/Errors.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdio>

using namespace mlir::graph::runtime;

//===----------------------------------------------------------------------===//
// Metadata
//===----------------------------------------------------------------------===//

static llvm::json::Value tensorToJSON(const TensorSpec &spec) {
  llvm::json::Array shape;
  for (int64_t dim : spec.shape)
    shape.push_back(dim);
  llvm::json::Object object{{"name", spec.name},
                            {"dtype", getName(spec.elementType)},
                            {"shape", std::move(shape)}};
  if (spec.hasRunTimeShape())
    object["extents"] = llvm::json::Array(spec.extentOutputs);
  return object;
}

std::string mlir::graph::runtime::getModelRunSymbol(unsigned index) {
  return index == 0 ? kModelRunSymbol.str()
                    : (kModelRunSymbol + "_" + llvm::Twine(index)).str();
}

std::string mlir::graph::runtime::getModelMetadataSymbol(unsigned index) {
  return index == 0 ? kModelMetadataSymbol.str()
                    : (kModelMetadataSymbol + "_" + llvm::Twine(index)).str();
}

std::string
mlir::graph::runtime::serializeModelMetadata(const ModelMetadata &metadata) {
  llvm::json::Array inputs, outputs, features;
  for (const TensorSpec &spec : metadata.signature.inputs)
    inputs.push_back(tensorToJSON(spec));
  for (const TensorSpec &spec : metadata.signature.outputs)
    outputs.push_back(tensorToJSON(spec));
  for (const std::string &feature : metadata.features)
    features.push_back(feature);
  llvm::json::Object object{{"format", kModelFormat},
                            {"abi", int64_t(metadata.abiVersion)},
                            {"compiler", metadata.compiler},
                            {"entry", metadata.entry},
                            {"opt_level", int64_t(metadata.optLevel)},
                            {"triple", metadata.triple},
                            {"cpu", metadata.cpu},
                            {"features", std::move(features)},
                            {"target", metadata.targetDescription},
                            {"arena_bytes", int64_t(metadata.arenaBytes)},
                            {"max_threads", int64_t(metadata.maxThreads)},
                            {"inputs", std::move(inputs)},
                            {"outputs", std::move(outputs)}};
  if (metadata.numSpecializations > 1) {
    object["specialization"] = int64_t(metadata.specialization);
    object["specializations"] = int64_t(metadata.numSpecializations);
    llvm::json::Array symbols;
    for (const std::vector<std::string> &input : metadata.inputSymbols) {
      llvm::json::Array dims;
      for (const std::string &symbol : input)
        dims.push_back(symbol);
      symbols.push_back(std::move(dims));
    }
    object["input_symbols"] = std::move(symbols);
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(object));
  return text;
}

static std::optional<ElementType> parseElementTypeName(llvm::StringRef name) {
  for (unsigned i = 0; i <= unsigned(ElementType::BF16); ++i)
    if (getName(ElementType(i)) == name)
      return ElementType(i);
  return std::nullopt;
}

static llvm::Error parseTensors(const llvm::json::Object &object,
                                llvm::StringRef key,
                                llvm::SmallVectorImpl<TensorSpec> &specs) {
  const llvm::json::Array *array = object.getArray(key);
  if (!array)
    return makeError("no '" + key + "' list");
  for (auto [i, value] : llvm::enumerate(*array)) {
    const llvm::json::Object *tensor = value.getAsObject();
    std::optional<llvm::StringRef> name =
        tensor ? tensor->getString("name") : std::nullopt;
    std::optional<llvm::StringRef> dtype =
        tensor ? tensor->getString("dtype") : std::nullopt;
    const llvm::json::Array *shape =
        tensor ? tensor->getArray("shape") : nullptr;
    std::optional<ElementType> type =
        dtype ? parseElementTypeName(*dtype) : std::nullopt;
    if (!name || !type || !shape)
      return makeError("bad description of " + key + " " + llvm::Twine(i));
    TensorSpec spec;
    spec.name = name->str();
    spec.elementType = *type;
    for (const llvm::json::Value &dim : *shape) {
      std::optional<int64_t> size = dim.getAsInteger();
      if (!size || *size < 0 ||
          llvm::MulOverflow(spec.numElements, *size, spec.numElements) ||
          spec.numElements > INT64_MAX / int64_t(getByteSize(*type)))
        return makeError("bad shape of " + key + " '" + spec.name + "'");
      spec.shape.push_back(*size);
    }
    if (const llvm::json::Array *extents = tensor->getArray("extents")) {
      for (const llvm::json::Value &extent : *extents)
        spec.extentOutputs.push_back(extent.getAsInteger().value_or(-2));
      if (spec.extentOutputs.size() != spec.shape.size())
        return makeError("bad extents of " + key + " '" + spec.name + "'");
    }
    specs.push_back(std::move(spec));
  }
  return llvm::Error::success();
}

/// Checks that each output of run-time size names, for each of its
/// dimensions of run-time extent, an i64 output of rank 0, and marks those.
static llvm::Error checkExtents(llvm::MutableArrayRef<TensorSpec> outputs) {
  for (auto [i, spec] : llvm::enumerate(outputs))
    for (int64_t extent : spec.extentOutputs) {
      if (extent == -1)
        continue;
      if (extent < 0 || extent >= int64_t(outputs.size()) ||
          size_t(extent) == i ||
          outputs[extent].elementType != ElementType::I64 ||
          !outputs[extent].shape.empty() || outputs[extent].hasRunTimeShape())
        return makeError("bad extents of output '" + spec.name + "'");
      outputs[extent].isExtent = true;
    }
  for (size_t i = 1; i < outputs.size(); ++i)
    if (outputs[i - 1].isExtent && !outputs[i].isExtent)
      return makeError("output '" + outputs[i].name +
                       "' follows an extent: the extents must come last");
  return llvm::Error::success();
}

llvm::Expected<ModelMetadata>
mlir::graph::runtime::parseModelMetadata(llvm::StringRef text) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(text);
  if (!value) {
    llvm::consumeError(value.takeError());
    return makeError("its model description is not valid JSON");
  }
  const llvm::json::Object *object = value->getAsObject();
  if (!object || object->getString("format") != kModelFormat)
    return makeError("its model description is not a graph model's");
  ModelMetadata metadata;
  std::optional<int64_t> abi = object->getInteger("abi");
  // Version 1 had no outputs of run-time size; its libraries mean the same.
  if (!abi || *abi < 1 || *abi > kModelABIVersion)
    return makeError("it has ABI version " +
                     (abi ? llvm::Twine(*abi) : llvm::Twine("(none)")) +
                     " but this runtime reads version " +
                     llvm::Twine(kModelABIVersion) +
                     "; compile the model again with this graph-compile");
  metadata.abiVersion = *abi;
  auto getString = [&](llvm::StringRef key) {
    return object->getString(key).value_or("").str();
  };
  metadata.compiler = getString("compiler");
  metadata.entry = getString("entry");
  metadata.optLevel = unsigned(object->getInteger("opt_level").value_or(3));
  metadata.triple = getString("triple");
  metadata.cpu = getString("cpu");
  metadata.targetDescription = getString("target");
  metadata.arenaBytes = uint64_t(
      std::max<int64_t>(0, object->getInteger("arena_bytes").value_or(0)));
  metadata.maxThreads = unsigned(std::clamp<int64_t>(
      object->getInteger("max_threads").value_or(0), 0, INT32_MAX));
  if (const llvm::json::Array *features = object->getArray("features"))
    for (const llvm::json::Value &feature : *features)
      if (std::optional<llvm::StringRef> name = feature.getAsString())
        metadata.features.push_back(name->str());
  if (llvm::Error error =
          parseTensors(*object, "inputs", metadata.signature.inputs))
    return std::move(error);
  if (llvm::Error error =
          parseTensors(*object, "outputs", metadata.signature.outputs))
    return std::move(error);
  if (llvm::Error error = checkExtents(metadata.signature.outputs))
    return std::move(error);
  metadata.specialization = unsigned(std::clamp<int64_t>(
      object->getInteger("specialization").value_or(0), 0, INT32_MAX));
  metadata.numSpecializations = unsigned(std::clamp<int64_t>(
      object->getInteger("specializations").value_or(1), 1, INT32_MAX));
  if (metadata.specialization >= metadata.numSpecializations)
    return makeError("its model description names specialization " +
                     llvm::Twine(metadata.specialization) + " of " +
                     llvm::Twine(metadata.numSpecializations));
  if (const llvm::json::Array *symbols = object->getArray("input_symbols")) {
    for (const llvm::json::Value &input : *symbols) {
      std::vector<std::string> &dims = metadata.inputSymbols.emplace_back();
      if (const llvm::json::Array *array = input.getAsArray())
        for (const llvm::json::Value &dim : *array)
          dims.push_back(dim.getAsString().value_or("").str());
    }
  }
  return metadata;
}

llvm::Expected<std::vector<std::string>>
mlir::graph::runtime::getMissingHostFeatures(const ModelMetadata &metadata) {
  llvm::Triple model(metadata.triple), host(llvm::sys::getProcessTriple());
  if (model.getArch() != host.getArch() || model.getOS() != host.getOS())
    return makeError("it was compiled for " + metadata.triple +
                     ", and this host is " + host.str());
  llvm::StringMap<bool> hostFeatures = llvm::sys::getHostCPUFeatures();
  std::vector<std::string> missing;
  for (const std::string &feature : metadata.features)
    if (!hostFeatures.lookup(feature))
      missing.push_back(feature);
  return missing;
}

llvm::ArrayRef<llvm::StringRef>
mlir::graph::runtime::getHookedAllocationFunctions() {
  static const llvm::StringRef names[] = {
      "malloc", "calloc", "realloc", "free", "aligned_alloc", "posix_memalign"};
  return names;
}
