/*===-- graph-c/Runtime.h - Compile and run models from C ---------*- C -*-===*\
|*                                                                            *|
|* Part of the graph compiler, under the Apache License v2.0 with LLVM        *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|* The graph runtime for C: load a model (a .mlir or .onnx model, compiled    *|
|* with the compile cache or the JIT, or a shared library or object file      *|
|* made by graph-compile), ask for its inputs and outputs, run it on the      *|
|* caller's buffers. No C++ and no MLIR header is needed.                     *|
|*                                                                            *|
|* Two libraries implement it: libGraphCAPI.so loads every kind of model,     *|
|* compiling with the compiler it holds; libGraphRuntimeC.so, for programs    *|
|* that only run compiled models, loads libraries made by graph-compile and   *|
|* needs no LLVM or MLIR library (a model to compile or an object file is     *|
|* refused with a message; the compile options are not used, except           *|
|* inputShapes and maxSpecializations).                                       *|
|*                                                                            *|
|* Every function that can fail returns a null handle or false and leaves a   *|
|* message for graphGetLastError(), per thread.                               *|
|*                                                                            *|
|* Threads: every function may be called from several threads at once, on     *|
|* one model too. Runs of one model from several threads are safe and give    *|
|* the same results as serial runs: a run that finds the model's buffers      *|
|* (its arena) taken by another run allocates its own for that run.           *|
|*                                                                            *|
|* Symbolic dimensions: an ONNX model whose inputs have symbolic dimensions   *|
|* (a batch "N") loads without compiling; graphModelSpecialize gives the      *|
|* model for a set of input shapes, compiled on first use (through the        *|
|* compile cache) and kept, the most recently used first, up to               *|
|* maxSpecializations.                                                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GRAPH_C_RUNTIME_H
#define GRAPH_C_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>

#if defined(GRAPH_CAPI_BUILDING_LIBRARY)
#define GRAPH_CAPI_EXPORTED __attribute__((visibility("default")))
#else
#define GRAPH_CAPI_EXPORTED
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// A loaded model, ready to run. Opaque.
typedef struct GraphModel {
  void *ptr;
} GraphModel;

/// The element type of an input or output. Booleans are one byte each,
/// float16 values their IEEE bits, bfloat16 values the upper 16 bits of
/// the float32 they are.
typedef enum GraphElementType {
  GraphElementTypeF16,
  GraphElementTypeF32,
  GraphElementTypeF64,
  GraphElementTypeI8,
  GraphElementTypeI16,
  GraphElementTypeI32,
  GraphElementTypeI64,
  GraphElementTypeU8,
  GraphElementTypeU16,
  GraphElementTypeU32,
  GraphElementTypeU64,
  GraphElementTypeBool,
  GraphElementTypeBF16,
} GraphElementType;

/// How to compile a .mlir or .onnx model. Strings may be null (the default).
typedef struct GraphCompileOptions {
  /// graph-optimize's opt-level, 0 to 3.
  int optLevel;
  /// The function to compile; null for "main".
  const char *entry;
  /// An LLVM CPU name and features (`+avx2,-avx512f`); null for the host's.
  const char *targetCpu;
  const char *targetFeatures;
  /// For .onnx models: input shapes, `NAME=AxBxC`, comma-separated.
  const char *inputShapes;
  /// Whether to use the compile cache, and its directory (null for
  /// $XDG_CACHE_HOME/graph, else ~/.cache/graph).
  bool useCache;
  const char *cacheDirectory;
  /// The most threads the parallel tile loops of the code run on (each gets
  /// a slot of per-thread scratch); 0 for the default, 8.
  int maxThreads;
  /// For models with symbolic input dimensions: how many specializations
  /// (one per set of input shapes) to keep loaded; 0 for the default, 8.
  int maxSpecializations;
} GraphCompileOptions;

/// The defaults: -O3, @main, the host, the compile cache in its default
/// directory.
GRAPH_CAPI_EXPORTED GraphCompileOptions graphCompileOptionsGetDefault(void);

/// Loads the model at `path`: compiles a .mlir or .onnx model with
/// `options` (null for the defaults), or loads a shared library or object
/// file made by graph-compile after checking that it is one and that this
/// CPU can run it. Null on failure.
GRAPH_CAPI_EXPORTED GraphModel
graphModelLoad(const char *path, const GraphCompileOptions *options);

static inline bool graphModelIsNull(GraphModel model) { return !model.ptr; }

/// Frees the model. A null model is ignored.
GRAPH_CAPI_EXPORTED void graphModelDestroy(GraphModel model);

/// One input or output. The strings and the shape live as long as the
/// model. For a model with symbolic dimensions, a dimension bound at run
/// time is -1 (graphModelGetInputSymbol names it), and so are numElements
/// and byteSize; an output whose shape the model does not declare has rank
/// -1 and a null shape.
typedef struct GraphTensorInfo {
  const char *name;
  GraphElementType elementType;
  intptr_t rank;
  const int64_t *shape;
  int64_t numElements;
  int64_t byteSize;
} GraphTensorInfo;

GRAPH_CAPI_EXPORTED intptr_t graphModelGetNumInputs(GraphModel model);
GRAPH_CAPI_EXPORTED intptr_t graphModelGetNumOutputs(GraphModel model);

/// Describes input or output `index`; false when there is none.
GRAPH_CAPI_EXPORTED bool graphModelGetInput(GraphModel model, intptr_t index,
                                            GraphTensorInfo *info);
GRAPH_CAPI_EXPORTED bool graphModelGetOutput(GraphModel model, intptr_t index,
                                             GraphTensorInfo *info);

/// Whether the model's inputs have symbolic dimensions (or decide shapes):
/// then it runs only as the model that graphModelSpecialize returns.
GRAPH_CAPI_EXPORTED bool graphModelHasSymbolicShapes(GraphModel model);

/// The symbol of dimension `dim` of input or output `index` ("N"), or null
/// when the dimension is a number (or there is no such dimension).
GRAPH_CAPI_EXPORTED const char *
graphModelGetInputSymbol(GraphModel model, intptr_t index, intptr_t dim);
GRAPH_CAPI_EXPORTED const char *
graphModelGetOutputSymbol(GraphModel model, intptr_t index, intptr_t dim);

/// The model for inputs of the shapes `shapes[i]` (of rank `ranks[i]`), one
/// per input: for a model with symbolic dimensions, its specialization for
/// them, compiled on first use (one at a time; the caller waits) and taken
/// from the loaded ones after; for another model, a new handle to it when
/// the shapes are its own. Destroy it with graphModelDestroy; it stays valid
/// after `model` is destroyed or lets the specialization go. Null (with a
/// message naming the input and what it expects) when the shapes do not fit
/// the model: a wrong rank, a fixed dimension that differs, a symbol with
/// two values.
///
/// An ONNX model whose inputs decide shapes (a Reshape's `shape`, Slice's
/// `starts` given as inputs rather than initializers) loads like one with
/// symbolic dimensions and is specialized on those inputs' values as well:
/// `inputs` (the data of each input, as for graphModelRun) gives them. It
/// may be null for other models.
GRAPH_CAPI_EXPORTED GraphModel
graphModelSpecialize(GraphModel model, const intptr_t *ranks,
                     const int64_t *const *shapes, const void *const *inputs);

/// Whether input `index` is known to decide shapes: its values are part of
/// what graphModelSpecialize specializes on.
GRAPH_CAPI_EXPORTED bool graphModelInputDecidesShapes(GraphModel model,
                                                      intptr_t index);

/// The specializations that a model with symbolic dimensions holds, the most
/// recently used first: `*specialization` is a new handle to number `index`
/// (destroy it). False when there is none.
GRAPH_CAPI_EXPORTED intptr_t graphModelGetNumSpecializations(GraphModel model);
GRAPH_CAPI_EXPORTED bool
graphModelGetSpecialization(GraphModel model, intptr_t index,
                            GraphModel *specialization);

/// NumPy's name of an element type: "float32", "int64", "bool", ...
GRAPH_CAPI_EXPORTED const char *graphElementTypeGetName(GraphElementType type);

/// Runs the model: `inputs[i]` and `outputs[j]` point at the dense, C-order
/// elements of input i and output j, the outputs allocated by the caller.
/// Buffers aligned to 64 bytes are best. False (with a message) on a null
/// model or buffer, or a model with symbolic dimensions (run its
/// specialization).
GRAPH_CAPI_EXPORTED bool graphModelRun(GraphModel model,
                                       const void *const *inputs,
                                       void *const *outputs);

/// graphModelRun that also gives each output's shape after the run:
/// `outputShapes[i]` (may be null, as may the array) receives output i's
/// rank dimensions. An output of run-time size (the indices of NonZero:
/// graphModelOutputHasRunTimeShape) has a buffer of its bound's size, the
/// shape graphModelGetOutput gives; the run writes its elements at the front
/// of the buffer, in the C order of the shape it returns here.
GRAPH_CAPI_EXPORTED bool graphModelRunShaped(GraphModel model,
                                             const void *const *inputs,
                                             void *const *outputs,
                                             int64_t *const *outputShapes);

/// Whether output `index` has a size that each run decides (its shape from
/// graphModelGetOutput is a bound). False for a model with symbolic input
/// dimensions: ask its specialization.
GRAPH_CAPI_EXPORTED bool graphModelOutputHasRunTimeShape(GraphModel model,
                                                         intptr_t index);

/// The time it took to get the model ready (compile, or load from the
/// cache or a library), in milliseconds.
GRAPH_CAPI_EXPORTED double graphModelGetLoadMillis(GraphModel model);

/// The message of the last failure on this thread, or "".
GRAPH_CAPI_EXPORTED const char *graphGetLastError(void);

#ifdef __cplusplus
}
#endif

#endif /* GRAPH_C_RUNTIME_H */
