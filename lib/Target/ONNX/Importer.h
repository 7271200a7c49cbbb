//===- Importer.h - State of one ONNX import --------------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The importer's state, shared by the model-level code (ImportONNX.cpp) and
// the per-operator builders (ImportOps.cpp): the ONNX values seen so far, as
// MLIR values and/or compile-time tensors, the diagnostics, and the helpers
// that the operator builders read their inputs and attributes through.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_TARGET_ONNX_IMPORTER_H
#define LIB_TARGET_ONNX_IMPORTER_H

#include "graph/Target/ONNX/ImportONNX.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"

#include "onnx/onnx_pb.h"

#include <deque>
#include <memory>
#include <optional>
#include <vector>

namespace mlir {
namespace graph {
namespace onnx_import {

/// A tensor whose contents are known at import time: an initializer, the
/// value of a Constant node, or an op the importer folded (shape arithmetic).
struct ConstantTensor {
  std::string name;
  /// An `onnx::TensorProto::DataType`.
  int32_t elementType = 0;
  SmallVector<int64_t> shape;
  /// The elements, little-endian and packed (a bool is a byte), pointing
  /// into the model or into storage that the importer owns. Empty for a
  /// tensor without elements.
  ArrayRef<char> bytes;

  int64_t getNumElements() const;
  bool isFloat() const { return elementType == onnx::TensorProto::FLOAT; }
  /// Any integer type, signed or unsigned (not bool).
  bool isInteger() const;
  bool isBool() const { return elementType == onnx::TensorProto::BOOL; }
  /// The elements of an integer or bool tensor as int64 (uint64 wraps).
  SmallVector<int64_t> getInts() const;
  /// The elements of a float tensor.
  SmallVector<float> getFloats() const;
  /// The elements of any numeric or bool tensor as double.
  SmallVector<double> getDoubles() const;
};

/// The MLIR element type of an ONNX data type (FLOAT f32, DOUBLE f64, FLOAT16
/// f16, BFLOAT16 bf16, INT8..INT64 i8..i64, UINT8..UINT64 ui8..ui64, BOOL
/// i1), or null for the others (STRING, complex, ...).
Type getMLIRElementType(MLIRContext *context, int32_t onnxType);
/// The ONNX data type of an MLIR element type (UNDEFINED if none).
int32_t getONNXElementType(Type type);
/// The size in bytes of one element, or 0 for element types the importer
/// does not read.
size_t getElementSize(int32_t elementType);

/// Returns the name of an ONNX element type, e.g. "INT64".
StringRef getElementTypeName(int32_t elementType);

/// Formats a shape as `1x3x224x224` (`scalar` for rank 0).
std::string formatShape(ArrayRef<int64_t> shape);

/// The attribute that carries the ONNX names of inputs and outputs.
inline constexpr llvm::StringLiteral kNameAttr = "graph.name";

/// Whether `domain` names the default ONNX operator set.
bool isDefaultDomain(StringRef domain);

/// Formats the shape of a TypeProto, with `?` for unknown dimensions.
std::string formatDeclaredShape(const onnx::TensorShapeProto &shape);

/// The state of one import.
class Importer {
public:
  Importer(MLIRContext *context, StringRef path, StringRef directory,
           const ONNXImportOptions &options);

  OwningOpRef<ModuleOp> importModel(const onnx::ModelProto &model);

  //===--------------------------------------------------------------------===//
  // For the operator builders
  //===--------------------------------------------------------------------===//

  MLIRContext *getContext() { return context; }
  OpBuilder &getBuilder() { return builder; }
  /// The version of the default domain that the model imports.
  int64_t getOpset() const { return opset; }
  /// The model file, the location of errors that are not an op's.
  Location getFileLoc() { return fileLoc; }
  /// The location of the ops built for `node`: its name inside the file.
  Location getLoc(const onnx::NodeProto &node);

  /// Reports `node 'NAME' (op type 'T', opset N): MESSAGE` and fails.
  LogicalResult nodeError(const onnx::NodeProto &node, const Twine &message);

  /// Whether input `index` of `node` is given (optional inputs may be absent
  /// or have an empty name).
  static bool hasInput(const onnx::NodeProto &node, int index) {
    return index < node.input_size() && !node.input(index).empty();
  }
  /// Input `index` as a tensor value, making a `graph.constant` for a
  /// compile-time tensor. Reports an error naming the node otherwise (an
  /// element type the dialect has no type for).
  FailureOr<Value> getInput(const onnx::NodeProto &node, int index);
  /// The dimension of a value of run-time size whose extent a run decides,
  /// and the tensor<i64> of rank 0 that holds the extent.
  struct RunTimeExtent {
    int64_t dim;
    Value count;
  };
  /// The extent of input `index` of `node` when it has run-time size, or
  /// nullopt. Only the importers that ImportRunTimeSize.cpp lets read such
  /// a value see one.
  std::optional<RunTimeExtent> getRunTimeExtent(const onnx::NodeProto &node,
                                                int index) const;
  /// The sum of two extents (tensor<i64> of rank 0), built once per pair:
  /// the rules compare extents by identity, so sums of the same extents
  /// (two Concats of one set of selections) must be one value.
  Value addExtents(const onnx::NodeProto &node, Value a, Value b);
  /// The extent `size` as a constant, built once per size.
  Value getConstantExtent(const onnx::NodeProto &node, int64_t size);
  /// A shape that only a run decides: the shape of a value of run-time
  /// size (Shape of it), which is `bounds` but for element `dim`, the
  /// extent `count`.
  struct RunTimeShape {
    SmallVector<int64_t> bounds;
    int64_t dim;
    Value count;
  };
  /// Input `index` of `node` when it is such a shape, or nullopt.
  std::optional<RunTimeShape> getRunTimeShape(const onnx::NodeProto &node,
                                              int index) const;
  /// Defines output `index` of `node` as `value`, the run-time `shape`.
  LogicalResult setRunTimeShapeOutput(const onnx::NodeProto &node, int index,
                                      Value value, RunTimeShape shape);
  /// The type of input `index` of `node`, defined (importNode checked it);
  /// null for a compile-time tensor of a type the dialect has no type for.
  RankedTensorType getInputType(const onnx::NodeProto &node, int index);
  /// Input `index` as a compile-time tensor, or null when it is not one: an
  /// initializer or Constant, or a value whose ops fold (shape arithmetic on
  /// static shapes, through the dialect's fold hooks). By default a value
  /// that is not one decides shapes: the model inputs it is computed from
  /// are recorded as needed (ONNXImportOptions::neededInputValues); an If
  /// only prefers a constant condition.
  const ConstantTensor *getConstantInput(const onnx::NodeProto &node, int index,
                                         bool decidesShapes = true);
  /// The type of a value (all values have static ranked types).
  static RankedTensorType getType(Value value) {
    return cast<RankedTensorType>(value.getType());
  }
  /// An f32 tensor type.
  RankedTensorType getTensorType(ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, builder.getF32Type());
  }
  RankedTensorType getTensorType(ArrayRef<int64_t> shape, Type elementType) {
    return RankedTensorType::get(shape, elementType);
  }
  /// A `graph.constant` of `attr` at the insertion point, located at `node`.
  Value createConstant(const onnx::NodeProto &node, ElementsAttr attr);
  /// The value of `value` if its ops fold to a constant, or null.
  Attribute foldValue(Value value);

  /// Whether output `index` of `node` exists and is read by a later node or is
  /// a model output.
  bool isOutputUsed(const onnx::NodeProto &node, int index) const;
  /// Defines output `index` of `node`. Fails (reporting it) when the model
  /// declares a type for it that differs.
  LogicalResult setOutput(const onnx::NodeProto &node, int index, Value value);
  /// Output `index` of `node` is `value`, of its bound's shape, whose
  /// dimension `dim` has the run-time extent `count` (a tensor<i64> of rank
  /// 0; see GraphShapeOps.td). When `count` folds, it is the value's first
  /// `count` along `dim`, of static shape; otherwise only a model output may
  /// take it (getInput refuses it to other nodes).
  LogicalResult setRunTimeSizeOutput(const onnx::NodeProto &node, int index,
                                     Value value, int64_t dim, Value count);
  /// Defines output `index` of `node` as a compile-time tensor.
  void setConstantOutput(const onnx::NodeProto &node, int index,
                         const ConstantTensor *tensor);
  /// Keeps a compile-time tensor made by a builder, e.g. from a Constant
  /// node's `value_floats`, alive for the import.
  const ConstantTensor *addConstant(ConstantTensor tensor,
                                    std::vector<char> storage);
  /// A compile-time tensor holding the value of a dense attribute, or null
  /// for an element type that ONNX has no name for.
  const ConstantTensor *addConstant(StringRef name, Attribute attr);
  /// Reads a TensorProto (raw, typed fields or external data) into a
  /// compile-time tensor named `name` (by default the TensorProto's name), or
  /// reports why it cannot.
  FailureOr<const ConstantTensor *> readTensor(const onnx::TensorProto &tensor,
                                               Location loc,
                                               StringRef name = {});

  /// Imports the branch of an If (`node`) that a constant selects in place:
  /// its outputs become the node's.
  LogicalResult importBranchInPlace(const onnx::NodeProto &node,
                                    const onnx::GraphProto &branch);
  /// Imports an If whose condition only a run decides as a graph.if, each
  /// branch a region (ImportControlFlow.cpp).
  LogicalResult importBranches(const onnx::NodeProto &node,
                               const onnx::GraphProto &thenBranch,
                               const onnx::GraphProto &elseBranch);
  /// What a subgraph imported into a block of its own yields: its outputs
  /// as values, and the extent of those of run-time size.
  struct SubgraphOutputs {
    SmallVector<Value> values;
    SmallVector<std::optional<RunTimeExtent>> extents;
  };
  /// Imports `graph`, a subgraph of `node`, at the end of `block`, its
  /// inputs being `inputs` and the names of the enclosing scopes visible;
  /// what it defines (and the constants it materializes) is forgotten after
  /// it, so that nothing of the block leaks out (ImportControlFlow.cpp).
  FailureOr<SubgraphOutputs> importIntoBlock(const onnx::NodeProto &node,
                                             const onnx::GraphProto &graph,
                                             Block &block,
                                             ValueRange inputs = {});

private:
  /// An ONNX value: an MLIR value once one exists, and its contents when
  /// they are known at import time.
  struct Entry {
    Value value;
    const ConstantTensor *constant = nullptr;
    /// The node that defines it failed; its users are skipped silently, the
    /// failure having been reported.
    bool poisoned = false;
    /// For a value of run-time size: the dimension whose extent a run
    /// decides, and that extent.
    std::optional<RunTimeExtent> runTimeExtent;
    /// For a shape tensor computed from such an extent: what it holds.
    std::optional<RunTimeShape> runTimeShape;
  };

  LogicalResult readOpset(const onnx::ModelProto &model);
  LogicalResult addInitializers(const onnx::GraphProto &graph);
  FailureOr<RankedTensorType>
  getGraphInputType(const onnx::ValueInfoProto &input);
  FailureOr<RankedTensorType>
  checkInputShape(StringRef name, ArrayRef<int64_t> shape, Type elementType);
  void countUses(const onnx::GraphProto &graph);
  /// The entry of input `index` of `node`, or null when it has none.
  const Entry *findInput(const onnx::NodeProto &node, int index) const;
  void importNode(const onnx::NodeProto &node);
  /// Imports the nodes of a subgraph of `node` at the insertion point, its
  /// inputs being `inputs`, and returns the entries of its outputs.
  FailureOr<SmallVector<Entry>> importSubgraph(const onnx::NodeProto &node,
                                               const onnx::GraphProto &graph,
                                               ValueRange inputs = {});
  /// Imports `node`, some of whose inputs have run-time size, through
  /// `build` on their bounds, and gives its outputs their extents by the
  /// rules of ImportRunTimeSize.cpp; refuses an operator without a rule.
  LogicalResult importRunTimeSized(
      const onnx::NodeProto &node,
      LogicalResult (*build)(Importer &, const onnx::NodeProto &));
  void poisonOutputs(const onnx::NodeProto &node);
  /// The entry of `name`, defined as `value`; null (reported) when `node`
  /// defines it a second time.
  Entry *defineEntry(const onnx::NodeProto &node, StringRef name, Value value);
  Value materialize(Entry &entry);
  LogicalResult checkDeclaredType(const onnx::NodeProto &node, StringRef name,
                                  RankedTensorType type,
                                  int64_t runTimeDim = -1);
  Attribute foldValue(Value value, unsigned depth);
  /// Records the model inputs that `value` is computed from as inputs whose
  /// values are needed (ONNXImportOptions::neededInputValues).
  void noteNeededInputs(Value value);
  /// Gives the arguments of `options.inputValues` their constants.
  LogicalResult bindInputValues(ArrayRef<const onnx::ValueInfoProto *> inputs,
                                Block &body);
  void eraseDeadOps(Block &body);
  FailureOr<ArrayRef<char>> readExternalData(const onnx::TensorProto &tensor,
                                             size_t numBytes, Location loc);
  InFlightDiagnostic emitError() { return mlir::emitError(fileLoc); }

  MLIRContext *context;
  OpBuilder builder;
  std::string path;
  std::string directory;
  const ONNXImportOptions &options;
  Location fileLoc;
  int64_t opset = 0;

  llvm::StringMap<Entry> values;
  /// The value types that the model declares (value_info and outputs).
  llvm::StringMap<const onnx::TypeProto *> declaredTypes;
  /// How many times each name is read by a node or returned.
  llvm::StringMap<unsigned> useCounts;
  std::deque<ConstantTensor> constants;
  std::deque<std::vector<char>> ownedStorage;
  /// Values the importer folded, by value: their constants.
  llvm::DenseMap<Value, const ConstantTensor *> foldedValues;
  /// addExtents and getConstantExtent's values.
  llvm::DenseMap<std::pair<Value, Value>, Value> extentSums;
  llvm::DenseMap<int64_t, Value> constantExtents;
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> externalFiles;
  /// The index of the node being imported, to name a node without a name.
  size_t currentNode = 0;
  /// --input-shape changed a static input dimension: the sizes that the model
  /// declares for other values may no longer hold.
  bool inputShapesChanged = false;
  /// A node with inputs of run-time size is being built: getInput gives
  /// their bounds.
  bool readingRunTimeSize = false;
  /// ... and its outputs' extents follow (importRunTimeSized): setOutput
  /// neither checks their declared types nor folds them.
  bool deferOutputChecks = false;
  bool hadError = false;
};

/// Builds the ops of one node. Reports its errors through the importer.
using OpImporter = LogicalResult (*)(Importer &, const onnx::NodeProto &);

/// The importers of the default domain's operators. Each Import*.cpp
/// registers its operators with the opset each appeared in (torch-mlir's
/// `patterns.onOp("Add", 7, ...)`), and a node of a model importing opset N
/// takes the importer registered at the latest opset <= N.
class OpRegistry {
public:
  /// `importer` builds `opType` from opset `since` on.
  void on(StringRef opType, int64_t since, OpImporter importer);
  void on(ArrayRef<StringRef> opTypes, int64_t since, OpImporter importer);

  /// The importer of `opType` in a model of `opset`, or null.
  OpImporter lookup(StringRef opType, int64_t opset) const;
  /// The opset `opType` first appears in, or nullopt for an operator that
  /// is not registered.
  std::optional<int64_t> getFirstOpset(StringRef opType) const;

private:
  /// Per operator, (since, importer) by increasing opset.
  llvm::StringMap<SmallVector<std::pair<int64_t, OpImporter>, 1>> importers;
};

/// Every operator's importer: built once, on first use (thread-safe), and
/// read-only afterwards. ImportONNX.cpp owns it.
const OpRegistry &getOpRegistry();

// What each file registers.
void registerCoreOps(OpRegistry &registry);        // ImportOps.cpp
void registerElementwiseOps(OpRegistry &registry); // ImportElementwise.cpp
void registerShapeOps(OpRegistry &registry);       // ImportShapes.cpp
void registerSliceOps(OpRegistry &registry);       // ImportSlices.cpp
void registerIndexingOps(OpRegistry &registry);    // ImportIndexing.cpp
void registerGeneratorOps(OpRegistry &registry);   // ImportGenerators.cpp
void registerReductionOps(OpRegistry &registry);   // ImportReductions.cpp
void registerNNOps(OpRegistry &registry);          // ImportNN.cpp
void registerSamplingOps(OpRegistry &registry);    // ImportSampling.cpp
void registerRecurrentOps(OpRegistry &registry);   // ImportRecurrent.cpp
void registerQuantOps(OpRegistry &registry);       // ImportQuant.cpp
void registerLossOps(OpRegistry &registry);        // ImportLosses.cpp
void registerControlFlowOps(OpRegistry &registry); // ImportControlFlow.cpp
void registerSpectralOps(OpRegistry &registry);    // ImportSpectral.cpp

} // namespace onnx_import
} // namespace graph
} // namespace mlir

#endif // LIB_TARGET_ONNX_IMPORTER_H
