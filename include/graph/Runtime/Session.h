//===- Session.h - A model file at any shape --------------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the C API, the Python package and graph-run hold for a model file. A
// model of static shapes is loaded once. A model whose inputs have symbolic
// dimensions (a batch `N`, a sequence length) is specialized for each set of
// input shapes it is run with: loaded (or compiled) on first use, then kept,
// the most recently used first, up to a bound.
//
// Where the models come from is a ModelSource: a library made by
// graph-compile (LibraryLoader.h: its specializations, chosen by shape), or
// with the compiler linked in, an ONNX or MLIR model compiled through the
// compile cache (graph/Compiler/ModelLoader.h).
//
// The declared signature names the symbols; a symbol that two inputs share
// must have one value, and a dimension the model fixes must match.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_RUNTIME_SESSION_H
#define GRAPH_RUNTIME_SESSION_H

#include "graph/Runtime/Executable.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace graph {
namespace runtime {

/// A dimension bound when the model runs.
constexpr int64_t kSymbolicDim = -1;

/// An input or output as the model declares it.
struct DeclaredTensor {
  std::string name;
  /// None when the model file leaves it undeclared.
  std::optional<ElementType> elementType;
  /// False when the model declares no shape (an output left to inference).
  bool ranked = true;
  /// kSymbolicDim where the value is bound at run time.
  llvm::SmallVector<int64_t> shape;
  /// The symbol of each dimension of kSymbolicDim, "" for the others.
  llvm::SmallVector<std::string> symbols;

  /// A tensor of static shape as declared.
  static DeclaredTensor fromSpec(const TensorSpec &spec);
};

struct DeclaredSignature {
  llvm::SmallVector<DeclaredTensor> inputs;
  llvm::SmallVector<DeclaredTensor> outputs;
  /// Whether an input has a symbolic dimension.
  bool isSymbolic() const;
};

/// The shape as the model declares it: `(N, 3, 224, 224)`, `(8,)`, or
/// `(any shape)`.
std::string formatDeclaredShape(const DeclaredTensor &tensor);

/// One set of input shapes, in input order.
using InputShapes = std::vector<llvm::SmallVector<int64_t>>;

/// Checks `shapes` against `signature` (one per input, its rank, the
/// dimensions the model fixes, one value per symbol) and returns them as
/// ModelSource::load's `inputShapes` (`NAME=AxBxC`) for the inputs with
/// symbolic dimensions. Errors name the input and what it expects.
llvm::Expected<std::vector<std::string>>
bindInputShapes(const DeclaredSignature &signature, const InputShapes &shapes);

/// The values of an input that decides shapes, as ModelSource::load takes
/// them (`NAME=v0,v1,...`): `data` holds the dense C-order elements
/// of `input` at `shape`. Errors for element types and sizes not taken.
llvm::Expected<std::string> formatInputValues(const DeclaredTensor &input,
                                              llvm::ArrayRef<int64_t> shape,
                                              const void *data);

/// How a model was obtained.
struct LoadReport {
  enum class Source { SharedLibrary, CacheHit, CacheMiss, JIT };
  Source source = Source::JIT;
  /// The cache entry, on a hit or a miss.
  std::string cacheEntry;
  /// Why the cache was not used although it was asked for (no directory,
  /// an entry that could not be written), or empty.
  std::string cacheProblem;
  /// The compile time that made the code (for a cache hit, recorded when
  /// the entry was made), and the time to load it from the cache (for a
  /// miss, measured by loading the new entry once more), in milliseconds.
  std::optional<double> coldMillis;
  std::optional<double> warmMillis;
};

/// A model compiled or loaded, with what its code may refer to (the JIT's
/// MLIR context), which outlives it.
struct LoadedModel {
  std::shared_ptr<void> owner;
  std::unique_ptr<Executable> executable;
  LoadReport report;
  ~LoadedModel();
};

/// Where a session's models come from.
class ModelSource {
public:
  virtual ~ModelSource();

  /// The signature as the file declares it when its inputs may be symbolic
  /// (an ONNX model, a library of several specializations); None for a
  /// model whose signature is that of its one compiled form (load it to
  /// know it). Errors carry the diagnostics about the model.
  virtual llvm::Expected<std::optional<DeclaredSignature>>
  readDeclaredSignature() = 0;

  /// The model with `inputShapes` (`NAME=AxBxC` each) and the values of the
  /// inputs that decide shapes (`NAME=v0,v1,...`, formatInputValues) fixed.
  /// An InputValuesNeeded error names the inputs whose values it needs and
  /// carries the diagnostics; other errors carry them in their message.
  virtual llvm::Expected<std::shared_ptr<LoadedModel>>
  load(const std::vector<std::string> &inputShapes,
       const std::vector<std::string> &inputValues) = 0;
};

class Session {
public:
  /// Opens the model of `source`: a model of static shapes is loaded now;
  /// one with symbolic input dimensions when it is first run at a shape.
  /// `inputShapes` (`NAME=AxBxC` each) fix inputs for every load. Errors
  /// carry the diagnostics about the model.
  static llvm::Expected<std::unique_ptr<Session>>
  open(std::unique_ptr<ModelSource> source,
       std::vector<std::string> inputShapes = {},
       unsigned maxSpecializations = kDefaultMaxSpecializations);

  static constexpr unsigned kDefaultMaxSpecializations = 8;

  bool isSymbolic() const { return !staticModel; }
  const DeclaredSignature &getDeclaredSignature() const { return declared; }

  /// The model of static shapes, or null when the session specializes.
  std::shared_ptr<LoadedModel> getStaticModel() const { return staticModel; }

  /// The model for inputs of `shapes`: for a symbolic model, the
  /// specialization for them, compiled or loaded on first use (one at a
  /// time); the static model when its shapes are these. The model stays
  /// valid while held, even once the session lets it go.
  ///
  /// An ONNX model with inputs that decide shapes (a Reshape's `shape` given
  /// as an input) is specialized on their values too, read from `inputs`
  /// (the data of each input, in order; may be null for a model without
  /// such inputs). The session learns which inputs they are from the first
  /// import that needs them.
  llvm::Expected<std::shared_ptr<LoadedModel>>
  getModel(const InputShapes &shapes, const void *const *inputs = nullptr);

  /// Whether input `index` is known to decide shapes.
  bool decidesShapes(size_t index) const;

  /// The specializations held and their input shapes, the most recently
  /// used first (without making them more recent).
  std::vector<std::pair<InputShapes, std::shared_ptr<LoadedModel>>>
  getSpecializations() const;

private:
  Session() = default;

  /// What a specialization is made for.
  struct Key {
    InputShapes shapes;
    /// The values of the inputs that decide shapes (formatInputValues).
    std::vector<std::string> values;
    bool operator==(const Key &other) const {
      return shapes == other.shapes && values == other.values;
    }
  };

  /// Marks the inputs of `names` as deciding shapes; whether one was new.
  bool markShapeDeciding(llvm::ArrayRef<std::string> names);

  std::unique_ptr<ModelSource> source;
  std::vector<std::string> inputShapes;
  unsigned maxSpecializations = kDefaultMaxSpecializations;
  DeclaredSignature declared;
  std::shared_ptr<LoadedModel> staticModel;

  mutable std::mutex mutex;
  /// Most recently used first.
  std::list<std::pair<Key, std::shared_ptr<LoadedModel>>> specializations;
  /// For each input, whether it decides shapes (under `mutex`).
  std::vector<bool> shapeDeciding;
  /// Held while compiling: one specialization at a time, each with the
  /// cores to itself, and never the same twice.
  std::mutex loadMutex;
};

} // namespace runtime
} // namespace graph
} // namespace mlir

#endif // GRAPH_RUNTIME_SESSION_H
