/*===-- graph-c/Runtime.h - Compile and run models from C ---------*- C -*-===*\
|*                                                                            *|
|* The graph runtime for C: load a model (a .mlir or .onnx model, compiled    *|
|* with the compile cache or the JIT, or a shared library or object file      *|
|* made by graph-compile), ask for its inputs and outputs, run it on the      *|
|* caller's buffers. No C++ and no MLIR header is needed.                     *|
|*                                                                            *|
|* Every function that can fail returns a null handle or false and leaves a   *|
|* message for graphGetLastError(), per thread.                               *|
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
/// float16 values their IEEE bits.
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
/// model.
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

/// NumPy's name of an element type: "float32", "int64", "bool", ...
GRAPH_CAPI_EXPORTED const char *graphElementTypeGetName(GraphElementType type);

/// Runs the model: `inputs[i]` and `outputs[j]` point at the dense, C-order
/// elements of input i and output j, the outputs allocated by the caller.
/// Buffers aligned to 64 bytes are best. False (with a message) on a null
/// model or buffer.
GRAPH_CAPI_EXPORTED bool graphModelRun(GraphModel model,
                                       const void *const *inputs,
                                       void *const *outputs);

/// The time it took to get the model ready (compile, or load from the
/// cache or a library), in milliseconds.
GRAPH_CAPI_EXPORTED double graphModelGetLoadMillis(GraphModel model);

/// The message of the last failure on this thread, or "".
GRAPH_CAPI_EXPORTED const char *graphGetLastError(void);

#ifdef __cplusplus
}
#endif

#endif /* GRAPH_C_RUNTIME_H */
