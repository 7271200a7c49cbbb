//===- Session.cpp - A model file loaded for running, at any shape --------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "graph/Runtime/Session.h"

#include "graph/Runtime/Errors.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"

using namespace mlir::graph::runtime;

bool DeclaredSignature::isSymbolic() const {
  return llvm::any_of(inputs, [](const DeclaredTensor &input) {
    return !input.ranked || llvm::is_contained(input.shape, kSymbolicDim);
  });
}

LoadedModel::~LoadedModel() {
  // The code may refer to its owner: it goes first.
  executable.reset();
}

ModelSource::~ModelSource() = default;

std::string
mlir::graph::runtime::formatDeclaredShape(const DeclaredTensor &tensor) {
  if (!tensor.ranked)
    return "(any shape)";
  llvm::SmallVector<std::string> dims;
  for (auto [dim, symbol] : llvm::zip_equal(tensor.shape, tensor.symbols))
    dims.push_back(dim == kSymbolicDim ? symbol : std::to_string(dim));
  if (dims.size() == 1)
    return "(" + dims[0] + ",)";
  return "(" + llvm::join(dims, ", ") + ")";
}

DeclaredTensor DeclaredTensor::fromSpec(const TensorSpec &spec) {
  DeclaredTensor tensor;
  tensor.name = spec.name;
  tensor.elementType = spec.elementType;
  tensor.shape.assign(spec.shape.begin(), spec.shape.end());
  tensor.symbols.assign(spec.shape.size(), "");
  return tensor;
}

llvm::Expected<std::vector<std::string>>
mlir::graph::runtime::bindInputShapes(const DeclaredSignature &signature,
                                      const InputShapes &shapes) {
  if (shapes.size() != signature.inputs.size())
    return makeError(llvm::Twine(shapes.size()) + " input shapes given; the " +
                     "model has " + llvm::Twine(signature.inputs.size()) +
                     " inputs");
  // Each symbol's value and the input that gave it.
  llvm::StringMap<std::pair<int64_t, llvm::StringRef>> bound;
  std::vector<std::string> specs;
  for (auto [input, shape] : llvm::zip_equal(signature.inputs, shapes)) {
    auto mismatch = [&, &input = input, &shape = shape] {
      return makeError("input '" + input.name + "' has shape " +
                       formatShape(shape) + "; the model expects " +
                       formatDeclaredShape(input));
    };
    if (input.ranked && shape.size() != input.shape.size())
      return mismatch();
    bool symbolic = !input.ranked;
    for (auto [i, size] : llvm::enumerate(shape)) {
      if (input.ranked && input.shape[i] != kSymbolicDim) {
        if (size != input.shape[i])
          return mismatch();
        continue;
      }
      symbolic = true;
      if (size < 1)
        return makeError("input '" + input.name + "' has shape " +
                         formatShape(shape) + ": dimension " + llvm::Twine(i) +
                         " is " + llvm::Twine(size) +
                         ", and the compiler takes sizes of 1 or more");
      if (!input.ranked)
        continue;
      auto [it, inserted] = bound.try_emplace(
          input.symbols[i], std::make_pair(size, llvm::StringRef(input.name)));
      if (!inserted && it->second.first != size)
        return makeError("dimension '" + input.symbols[i] + "' is " +
                         llvm::Twine(it->second.first) + " in input '" +
                         it->second.second + "' and " + llvm::Twine(size) +
                         " in input '" + input.name + "'");
    }
    if (!symbolic)
      continue;
    llvm::SmallVector<std::string> dims;
    for (int64_t size : shape)
      dims.push_back(std::to_string(size));
    if (dims.empty())
      return makeError("input '" + input.name +
                       "' is a scalar; a model of unknown input shapes needs "
                       "them fixed with --input-shape");
    specs.push_back(input.name + "=" + llvm::join(dims, "x"));
  }
  return specs;
}

llvm::Expected<std::string>
mlir::graph::runtime::formatInputValues(const DeclaredTensor &input,
                                        llvm::ArrayRef<int64_t> shape,
                                        const void *data) {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  // Each value is part of the specialization's key and of its code.
  constexpr int64_t kMaxValues = 1 << 16;
  if (count > kMaxValues)
    return makeError("input '" + input.name + "' decides shapes, and its " +
                     llvm::Twine(count) +
                     " elements are too many to specialize the model on");
  if (!input.elementType || *input.elementType == ElementType::F16 ||
      *input.elementType == ElementType::BF16)
    return makeError("input '" + input.name +
                     "' decides shapes, and values of its element type "
                     "cannot be specialized on");
  if (count > 0 && !data)
    return makeError("input '" + input.name +
                     "' decides shapes: its data is needed to choose the "
                     "model's specialization");
  std::string text = input.name + "=";
  llvm::raw_string_ostream os(text);
  for (int64_t i = 0; i < count; ++i) {
    if (i)
      os << ',';
    switch (*input.elementType) {
    case ElementType::F32:
      os << llvm::format("%.9g", double(static_cast<const float *>(data)[i]));
      break;
    case ElementType::F64:
      os << llvm::format("%.17g", static_cast<const double *>(data)[i]);
      break;
    case ElementType::I8:
      os << int64_t(static_cast<const int8_t *>(data)[i]);
      break;
    case ElementType::I16:
      os << int64_t(static_cast<const int16_t *>(data)[i]);
      break;
    case ElementType::I32:
      os << int64_t(static_cast<const int32_t *>(data)[i]);
      break;
    case ElementType::I64:
      os << static_cast<const int64_t *>(data)[i];
      break;
    case ElementType::U8:
    case ElementType::Bool:
      os << uint64_t(static_cast<const uint8_t *>(data)[i]);
      break;
    case ElementType::U16:
      os << uint64_t(static_cast<const uint16_t *>(data)[i]);
      break;
    case ElementType::U32:
      os << uint64_t(static_cast<const uint32_t *>(data)[i]);
      break;
    case ElementType::U64:
      os << static_cast<const uint64_t *>(data)[i];
      break;
    case ElementType::F16:
    case ElementType::BF16:
      break;
    }
  }
  return text;
}

llvm::Expected<std::unique_ptr<Session>>
Session::open(std::unique_ptr<ModelSource> source,
              std::vector<std::string> inputShapes,
              unsigned maxSpecializations) {
  std::unique_ptr<Session> session(new Session());
  session->source = std::move(source);
  session->inputShapes = std::move(inputShapes);
  session->maxSpecializations = std::max(1u, maxSpecializations);

  llvm::Expected<std::optional<DeclaredSignature>> declared =
      session->source->readDeclaredSignature();
  if (!declared)
    return declared.takeError();
  if (*declared)
    session->shapeDeciding.assign((*declared)->inputs.size(), false);
  if (*declared && (*declared)->isSymbolic()) {
    session->declared = std::move(**declared);
    return std::move(session);
  }

  llvm::Expected<std::shared_ptr<LoadedModel>> model =
      session->source->load(session->inputShapes, {});
  if (!model) {
    // Inputs that decide shapes: specialized on their values when run.
    llvm::Error error = model.takeError();
    if (*declared && error.isA<InputValuesNeeded>()) {
      session->declared = std::move(**declared);
      llvm::handleAllErrors(std::move(error),
                            [&](const InputValuesNeeded &needed) {
                              session->markShapeDeciding(needed.names);
                            });
      return std::move(session);
    }
    return std::move(error);
  }
  session->staticModel = std::move(*model);
  const ModelSignature &signature =
      session->staticModel->executable->getSignature();
  for (const TensorSpec &spec : signature.inputs)
    session->declared.inputs.push_back(DeclaredTensor::fromSpec(spec));
  // The extents of outputs of run-time size are the runtime's, not the
  // caller's: the outputs declared are the model's own.
  for (const TensorSpec &spec : signature.outputs)
    if (!spec.isExtent)
      session->declared.outputs.push_back(DeclaredTensor::fromSpec(spec));
  session->shapeDeciding.assign(signature.inputs.size(), false);
  return std::move(session);
}

bool Session::markShapeDeciding(llvm::ArrayRef<std::string> names) {
  std::lock_guard<std::mutex> lock(mutex);
  bool marked = false;
  for (const std::string &name : names)
    for (auto [i, input] : llvm::enumerate(declared.inputs))
      if (input.name == name && !shapeDeciding[i])
        shapeDeciding[i] = marked = true;
  return marked;
}

bool Session::decidesShapes(size_t index) const {
  std::lock_guard<std::mutex> lock(mutex);
  return index < shapeDeciding.size() && shapeDeciding[index];
}

llvm::Expected<std::shared_ptr<LoadedModel>>
Session::getModel(const InputShapes &shapes, const void *const *inputs) {
  if (staticModel) {
    const ModelSignature &signature = staticModel->executable->getSignature();
    if (shapes.size() != signature.inputs.size())
      return makeError(llvm::Twine(shapes.size()) +
                       " input shapes given; the model has " +
                       llvm::Twine(signature.inputs.size()) + " inputs");
    for (auto [spec, shape] : llvm::zip_equal(signature.inputs, shapes))
      if (llvm::ArrayRef<int64_t>(spec.shape) != llvm::ArrayRef<int64_t>(shape))
        return makeError("input '" + spec.name + "' has shape " +
                         formatShape(shape) + "; the model expects " +
                         formatShape(spec.shape));
    return staticModel;
  }

  llvm::Expected<std::vector<std::string>> specs =
      bindInputShapes(declared, shapes);
  if (!specs)
    return specs.takeError();
  auto find = [&](const Key &key) -> std::shared_ptr<LoadedModel> {
    std::lock_guard<std::mutex> lock(mutex);
    for (auto it = specializations.begin(); it != specializations.end(); ++it)
      if (it->first == key) {
        specializations.splice(specializations.begin(), specializations, it);
        return it->second;
      }
    return nullptr;
  };
  // Each import that needs more input values names them; a few rounds at
  // most, as each marks at least one more input.
  for (;;) {
    Key key{shapes, {}};
    for (size_t i = 0; i < declared.inputs.size(); ++i) {
      if (!decidesShapes(i))
        continue;
      llvm::Expected<std::string> values = formatInputValues(
          declared.inputs[i], shapes[i], inputs ? inputs[i] : nullptr);
      if (!values)
        return values.takeError();
      key.values.push_back(std::move(*values));
    }
    if (std::shared_ptr<LoadedModel> model = find(key))
      return model;

    std::lock_guard<std::mutex> loading(loadMutex);
    // Another thread may have made it meanwhile.
    if (std::shared_ptr<LoadedModel> model = find(key))
      return model;
    std::vector<std::string> shapeSpecs = inputShapes;
    shapeSpecs.insert(shapeSpecs.end(), specs->begin(), specs->end());
    llvm::Expected<std::shared_ptr<LoadedModel>> model =
        source->load(shapeSpecs, key.values);
    if (!model) {
      llvm::Error error = model.takeError();
      bool more = false;
      error = llvm::handleErrors(
          std::move(error), [&](std::unique_ptr<InputValuesNeeded> needed) {
            more = markShapeDeciding(needed->names);
            return more ? llvm::Error::success()
                        : makeError(needed->diagnostics.empty()
                                        ? needed->message()
                                        : needed->diagnostics);
          });
      if (error)
        return std::move(error);
      continue;
    }
    std::lock_guard<std::mutex> lock(mutex);
    specializations.emplace_front(std::move(key), *model);
    while (specializations.size() > maxSpecializations)
      specializations.pop_back();
    return *model;
  }
}

std::vector<std::pair<InputShapes, std::shared_ptr<LoadedModel>>>
Session::getSpecializations() const {
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<std::pair<InputShapes, std::shared_ptr<LoadedModel>>> held;
  for (const auto &[key, model] : specializations)
    held.emplace_back(key.shapes, model);
  return held;
}
