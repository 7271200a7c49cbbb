//===- ModelMetadata.h - The C entry ABI of a compiled model ----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every compiled model, JIT-compiled or ahead of time, exports the same
// symbols, and nothing else:
//
//   int graph_model_run(const void *const *inputs, void *const *outputs);
//       Runs the model: `inputs[i]` and `outputs[j]` point at the dense,
//       C-order elements of input i and output j, in signature order, the
//       outputs allocated by the caller. Returns 0.
//       An output of run-time size (NonZero's indices) is allocated at its
//       bound, the shape in the metadata; for each dimension whose extent
//       the run decides, its `extents` in the metadata name the output (an
//       i64 of rank 0, after the model's own outputs) that the run writes
//       the extent to. The run leaves the output in its bound's layout,
//       zeros past the extents; the runtime (Executable::run) moves the
//       elements of the true shape to the front of the buffer.
//   const char graph_model_metadata[];
//       A JSON object: `format` ("graph-model"), `abi` (kModelABIVersion),
//       the compiler that made it, the target triple and CPU, the CPU
//       features the code needs, and the signature (each input and output
//       with its name, dtype and shape). A loader reads it from the file
//       before running any of the code.
//   void *graph_model_hook_<f>;
//       For each C allocation function f (malloc, free, ...) that the code
//       calls: the function it calls, initially the C library's. A host may
//       store its own (graph-run counts the bytes allocated) before a run.
//
// Everything else in the module (the lowered entry function, the kernels,
// the weights) has internal linkage: two models in one process never clash.
//
// A library that holds several specializations of one model (graph-compile
// with several sets of --input-shape) has specialization 0 under the names
// above, its metadata saying how many there are (`specializations`) and the
// symbols of the inputs' dimensions, and specialization i > 0 as
// graph_model_run_<i> and graph_model_metadata_<i>; the hooks are shared
// (weak definitions, one per function). A loader that knows one model sees
// specialization 0.
//
// The loader's side of the ABI: the symbols' names and the metadata. The
// compiler adds them to a module (graph/Compiler/ModelABI.h).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_RUNTIME_MODELMETADATA_H
#define GRAPH_RUNTIME_MODELMETADATA_H

#include "graph/Runtime/Executable.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
namespace graph {
namespace runtime {

/// Changes whenever the meaning of the symbols above changes. Version 2 added
/// outputs of run-time size; the loader still reads version 1.
constexpr unsigned kModelABIVersion = 2;

constexpr llvm::StringLiteral kModelRunSymbol = "graph_model_run";
constexpr llvm::StringLiteral kModelMetadataSymbol = "graph_model_metadata";
constexpr llvm::StringLiteral kModelHookPrefix = "graph_model_hook_";
constexpr llvm::StringLiteral kModelFormat = "graph-model";

/// The run function and metadata of specialization `index` of a library.
std::string getModelRunSymbol(unsigned index);
std::string getModelMetadataSymbol(unsigned index);

/// The signature of graph_model_run.
using ModelRunFn = int (*)(const void *const *, void *const *);

/// What graph_model_metadata says.
struct ModelMetadata {
  unsigned abiVersion = kModelABIVersion;
  /// The compiler that made the code (CompilerVersion.h).
  std::string compiler;
  /// The entry function of the source model and its graph-optimize level.
  std::string entry;
  unsigned optLevel = 3;
  std::string triple;
  std::string cpu;
  /// The features the code may use, LLVM's names without `+`, sorted.
  std::vector<std::string> features;
  /// The target as the compiler describes it (CPUTarget::describe): the
  /// ISA and register tiles the code was made for. Empty in libraries of
  /// older compilers.
  std::string targetDescription;
  /// The bytes of the model's arena (graph-plan-buffers): allocated once,
  /// when the code is loaded, and used by every run.
  uint64_t arenaBytes = 0;
  /// The most threads its parallel tile loops run on (graph-compile
  /// --max-threads); 0 when not known (a custom lowering pipeline).
  unsigned maxThreads = 0;
  ModelSignature signature;
  /// Which specialization of how many the library holds (ABI above).
  unsigned specialization = 0;
  unsigned numSpecializations = 1;
  /// With several: for each input, the symbol of each dimension that the
  /// specializations bind ("" for the fixed ones).
  std::vector<std::vector<std::string>> inputSymbols;
};

std::string serializeModelMetadata(const ModelMetadata &metadata);

/// Parses graph_model_metadata; errors say what is wrong (not JSON, not a
/// graph model, another ABI version, a bad tensor description).
llvm::Expected<ModelMetadata> parseModelMetadata(llvm::StringRef text);

/// The features of `metadata` that this host's CPU lacks (none when the code
/// can run here), or an error when it was compiled for another architecture.
llvm::Expected<std::vector<std::string>>
getMissingHostFeatures(const ModelMetadata &metadata);

/// The C allocation functions that get a graph_model_hook_ symbol.
llvm::ArrayRef<llvm::StringRef> getHookedAllocationFunctions();

} // namespace runtime
} // namespace graph
} // namespace mlir

#endif // GRAPH_RUNTIME_MODELMETADATA_H
