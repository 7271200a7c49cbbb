//===- Runtime.cpp - Compile and run models from C ------------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The C API over the runtime's sessions. Where the models come from is
// openModel's (OpenModel.h): libGraphRuntime runs compiled libraries only,
// libGraphCAPI compiles the others too.
//
//===----------------------------------------------------------------------===//

#include "graph-c/Runtime.h"

#include "OpenModel.h"

#include "graph/Runtime/Errors.h"
#include "graph/Runtime/Executable.h"
#include "graph/Runtime/Session.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <mutex>
#include <string>

using namespace mlir::graph::runtime;

namespace {
/// What a GraphModel points at: a session, and the model it runs, which is
/// the session's static model or one of its specializations (none for the
/// handle of a model with symbolic dimensions).
struct Model {
  std::shared_ptr<Session> session;
  std::shared_ptr<LoadedModel> loaded;
};
} // namespace

static thread_local std::string lastError;

static Model *unwrap(GraphModel model) {
  return static_cast<Model *>(model.ptr);
}

static bool fail(const llvm::Twine &message) {
  lastError = message.str();
  return false;
}

static GraphModel failModel(const llvm::Twine &message) {
  fail(message);
  return GraphModel{nullptr};
}

GraphCompileOptions graphCompileOptionsGetDefault(void) {
  GraphCompileOptions options = {};
  options.optLevel = 3;
  options.useCache = true;
  return options;
}

GraphModel graphModelLoad(const char *path,
                          const GraphCompileOptions *options) {
  lastError.clear();
  if (!path)
    return failModel("graphModelLoad: no path");
  GraphCompileOptions defaults = graphCompileOptionsGetDefault();
  if (!options)
    options = &defaults;

  if (options->optLevel < 0 || options->optLevel > 3)
    return failModel("opt-level must be 0, 1, 2 or 3, got " +
                     llvm::Twine(options->optLevel));
  if (options->maxThreads < 0)
    return failModel("maxThreads must be 0 (the default) or a count, got " +
                     llvm::Twine(options->maxThreads));
  if (options->maxSpecializations < 0)
    return failModel(
        "maxSpecializations must be 0 (the default) or a count, got " +
        llvm::Twine(options->maxSpecializations));

  llvm::Expected<std::unique_ptr<Session>> session =
      mlir::graph::capi::openModel(path, *options,
                                   options->maxSpecializations
                                       ? unsigned(options->maxSpecializations)
                                       : Session::kDefaultMaxSpecializations);
  if (!session)
    return failModel(llvm::toString(session.takeError()));
  auto model = std::make_unique<Model>();
  model->session = std::move(*session);
  model->loaded = model->session->getStaticModel();
  return GraphModel{model.release()};
}

void graphModelDestroy(GraphModel model) { delete unwrap(model); }

/// The signature of the model a handle runs, or the declared one.
static const DeclaredSignature &getDeclared(const Model &model) {
  return model.session->getDeclaredSignature();
}

intptr_t graphModelGetNumInputs(GraphModel model) {
  return model.ptr ? getDeclared(*unwrap(model)).inputs.size() : 0;
}

intptr_t graphModelGetNumOutputs(GraphModel model) {
  return model.ptr ? getDeclared(*unwrap(model)).outputs.size() : 0;
}

/// The model's own outputs: the extents of those of run-time size follow
/// them, and the C API keeps those to itself.
static llvm::ArrayRef<TensorSpec>
getModelOutputs(const ModelSignature &signature) {
  return llvm::ArrayRef<TensorSpec>(signature.outputs)
      .take_while([](const TensorSpec &spec) { return !spec.isExtent; });
}

static bool describe(llvm::ArrayRef<TensorSpec> specs, intptr_t index,
                     GraphTensorInfo *info, const char *kind) {
  if (index < 0 || index >= intptr_t(specs.size()) || !info)
    return fail(llvm::Twine("no ") + kind + " " + llvm::Twine(index));
  const TensorSpec &spec = specs[index];
  info->name = spec.name.c_str();
  info->elementType = GraphElementType(spec.elementType);
  info->rank = spec.shape.size();
  info->shape = spec.shape.data();
  info->numElements = spec.numElements;
  info->byteSize = spec.getByteSize();
  return true;
}

static bool describe(llvm::ArrayRef<DeclaredTensor> tensors, intptr_t index,
                     GraphTensorInfo *info, const char *kind) {
  if (index < 0 || index >= intptr_t(tensors.size()) || !info)
    return fail(llvm::Twine("no ") + kind + " " + llvm::Twine(index));
  const DeclaredTensor &tensor = tensors[index];
  info->name = tensor.name.c_str();
  info->elementType =
      GraphElementType(tensor.elementType.value_or(ElementType::F32));
  info->rank = tensor.ranked ? intptr_t(tensor.shape.size()) : -1;
  info->shape = tensor.ranked ? tensor.shape.data() : nullptr;
  info->numElements = -1;
  info->byteSize = -1;
  return true;
}

bool graphModelGetInput(GraphModel model, intptr_t index,
                        GraphTensorInfo *info) {
  if (!model.ptr)
    return fail("graphModelGetInput: null model");
  if (const auto &loaded = unwrap(model)->loaded)
    return describe(loaded->executable->getSignature().inputs, index, info,
                    "input");
  return describe(getDeclared(*unwrap(model)).inputs, index, info, "input");
}

bool graphModelGetOutput(GraphModel model, intptr_t index,
                         GraphTensorInfo *info) {
  if (!model.ptr)
    return fail("graphModelGetOutput: null model");
  if (const auto &loaded = unwrap(model)->loaded)
    return describe(getModelOutputs(loaded->executable->getSignature()), index,
                    info, "output");
  return describe(getDeclared(*unwrap(model)).outputs, index, info, "output");
}

bool graphModelHasSymbolicShapes(GraphModel model) {
  return model.ptr && !unwrap(model)->loaded;
}

static const char *getSymbol(llvm::ArrayRef<DeclaredTensor> tensors,
                             intptr_t index, intptr_t dim) {
  if (index < 0 || index >= intptr_t(tensors.size()))
    return nullptr;
  const DeclaredTensor &tensor = tensors[index];
  if (dim < 0 || dim >= intptr_t(tensor.symbols.size()) ||
      tensor.symbols[dim].empty())
    return nullptr;
  return tensor.symbols[dim].c_str();
}

const char *graphModelGetInputSymbol(GraphModel model, intptr_t index,
                                     intptr_t dim) {
  if (!model.ptr || unwrap(model)->loaded)
    return nullptr;
  return getSymbol(getDeclared(*unwrap(model)).inputs, index, dim);
}

const char *graphModelGetOutputSymbol(GraphModel model, intptr_t index,
                                      intptr_t dim) {
  if (!model.ptr || unwrap(model)->loaded)
    return nullptr;
  return getSymbol(getDeclared(*unwrap(model)).outputs, index, dim);
}

GraphModel graphModelSpecialize(GraphModel model, const intptr_t *ranks,
                                const int64_t *const *shapes,
                                const void *const *inputs) {
  lastError.clear();
  if (!model.ptr)
    return failModel("graphModelSpecialize: null model");
  Model &parent = *unwrap(model);
  size_t numInputs = getDeclared(parent).inputs.size();
  if (numInputs > 0 && (!ranks || !shapes))
    return failModel("graphModelSpecialize: null shape array");
  InputShapes inputShapes;
  for (size_t i = 0; i < numInputs; ++i) {
    if (ranks[i] < 0 || (ranks[i] > 0 && !shapes[i]))
      return failModel("graphModelSpecialize: input '" +
                       getDeclared(parent).inputs[i].name + "' has no shape");
    inputShapes.emplace_back(shapes[i], shapes[i] + ranks[i]);
  }
  llvm::Expected<std::shared_ptr<LoadedModel>> loaded =
      parent.session->getModel(inputShapes, inputs);
  if (!loaded)
    return failModel(llvm::toString(loaded.takeError()));
  return GraphModel{new Model{parent.session, std::move(*loaded)}};
}

bool graphModelInputDecidesShapes(GraphModel model, intptr_t index) {
  return model.ptr && index >= 0 &&
         unwrap(model)->session->decidesShapes(size_t(index));
}

intptr_t graphModelGetNumSpecializations(GraphModel model) {
  return model.ptr ? unwrap(model)->session->getSpecializations().size() : 0;
}

bool graphModelGetSpecialization(GraphModel model, intptr_t index,
                                 GraphModel *specialization) {
  if (!model.ptr || !specialization)
    return fail("graphModelGetSpecialization: null model");
  auto held = unwrap(model)->session->getSpecializations();
  if (index < 0 || index >= intptr_t(held.size()))
    return fail("no specialization " + llvm::Twine(index));
  *specialization =
      GraphModel{new Model{unwrap(model)->session, held[index].second}};
  return true;
}

const char *graphElementTypeGetName(GraphElementType type) {
  if (type < GraphElementTypeF16 || type > GraphElementTypeBF16)
    return "unknown";
  return getName(ElementType(type)).data();
}

bool graphModelRun(GraphModel model, const void *const *inputs,
                   void *const *outputs) {
  return graphModelRunShaped(model, inputs, outputs, nullptr);
}

bool graphModelOutputHasRunTimeShape(GraphModel model, intptr_t index) {
  if (!model.ptr || !unwrap(model)->loaded)
    return false;
  llvm::ArrayRef<TensorSpec> outputs =
      getModelOutputs(unwrap(model)->loaded->executable->getSignature());
  return index >= 0 && index < intptr_t(outputs.size()) &&
         outputs[index].hasRunTimeShape();
}

bool graphModelRunShaped(GraphModel model, const void *const *inputs,
                         void *const *outputs, int64_t *const *outputShapes) {
  if (!model.ptr)
    return fail("graphModelRun: null model");
  if (!unwrap(model)->loaded)
    return fail("graphModelRun: the model has symbolic input dimensions: run "
                "the model that graphModelSpecialize gives for the shapes of "
                "the inputs");
  Executable &executable = *unwrap(model)->loaded->executable;
  const ModelSignature &signature = executable.getSignature();
  if ((!inputs && !signature.inputs.empty()) ||
      (!outputs && !signature.outputs.empty()))
    return fail("graphModelRun: null buffer array");
  for (size_t i = 0; i < signature.inputs.size(); ++i)
    if (!inputs[i])
      return fail("graphModelRun: input '" + signature.inputs[i].name +
                  "' is null");
  size_t numOutputs = getModelOutputs(signature).size();
  for (size_t i = 0; i < numOutputs; ++i)
    if (!outputs[i])
      return fail("graphModelRun: output '" + signature.outputs[i].name +
                  "' is null");
  // The caller's outputs, then the extents of those of run-time size.
  llvm::SmallVector<int64_t, 4> extents(signature.outputs.size() - numOutputs);
  llvm::SmallVector<void *, 16> buffers(outputs, outputs + numOutputs);
  for (int64_t &extent : extents)
    buffers.push_back(&extent);
  executable.run(inputs, buffers.data());
  if (outputShapes) {
    std::vector<TensorSpec> specs = executable.getOutputSpecs(buffers.data());
    for (size_t i = 0; i < numOutputs; ++i)
      if (outputShapes[i])
        llvm::copy(specs[i].shape, outputShapes[i]);
  }
  return true;
}

double graphModelGetLoadMillis(GraphModel model) {
  return model.ptr && unwrap(model)->loaded
             ? unwrap(model)->loaded->executable->getCompileMillis()
             : 0;
}

const char *graphGetLastError(void) { return lastError.c_str(); }

static_assert(int(ElementType::F16) == GraphElementTypeF16 &&
                  int(ElementType::F32) == GraphElementTypeF32 &&
                  int(ElementType::I64) == GraphElementTypeI64 &&
                  int(ElementType::U64) == GraphElementTypeU64 &&
                  int(ElementType::Bool) == GraphElementTypeBool &&
                  int(ElementType::BF16) == GraphElementTypeBF16,
              "GraphElementType follows ElementType");
