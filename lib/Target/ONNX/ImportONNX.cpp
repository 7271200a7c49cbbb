//===- ImportONNX.cpp - ONNX model to graph dialect import ----------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The model-level part of the importer: parsing the protobuf, the opset, the
// graph's inputs, initializers and outputs, the values and the walk over the
// nodes. The Importer's values (inputs, outputs, folding, diagnostics) are
// in Importer.cpp, tensors read in Tensors.cpp, the operators built in the
// Import*.cpp of each family.
//
//===----------------------------------------------------------------------===//

#include "ImportHelpers.h"
#include "Importer.h"
#include "ShapeInference.h"

#include "graph/Dialect/Graph/IR/GraphDialect.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Runtime/Tensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

#include <google/protobuf/io/coded_stream.h>

#include <climits>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::onnx_import;

/// The versions of the default ONNX domain whose operators the importer
/// implements with their exact semantics.
static constexpr int64_t kMinOpset = 1;
static constexpr int64_t kMaxOpset = 21;

bool mlir::graph::onnx_import::isDefaultDomain(StringRef domain) {
  return domain.empty() || domain == "ai.onnx";
}

//===----------------------------------------------------------------------===//
// Importer: the model
//===----------------------------------------------------------------------===//

LogicalResult Importer::readOpset(const onnx::ModelProto &model) {
  bool found = false;
  for (const onnx::OperatorSetIdProto &entry : model.opset_import()) {
    if (!isDefaultDomain(entry.domain()))
      continue;
    opset = entry.version();
    found = true;
  }
  if (!found)
    return emitError() << "the model imports no version of the default ONNX "
                          "domain";
  if (opset < kMinOpset || opset > kMaxOpset)
    return emitError() << "opset " << opset
                       << " of the default ONNX domain is not supported "
                          "(supported: "
                       << kMinOpset << " to " << kMaxOpset << ")";
  return success();
}

LogicalResult Importer::addInitializers(const onnx::GraphProto &graph) {
  if (graph.sparse_initializer_size() > 0)
    return emitError() << "sparse initializer '"
                       << graph.sparse_initializer(0).values().name()
                       << "' is not supported";
  bool ok = true;
  for (const onnx::TensorProto &initializer : graph.initializer()) {
    if (values.count(initializer.name())) {
      emitError() << "initializer '" << initializer.name()
                  << "' is defined twice";
      ok = false;
      continue;
    }
    FailureOr<const ConstantTensor *> tensor = readTensor(initializer, fileLoc);
    if (failed(tensor)) {
      ok = false;
      continue;
    }
    values[initializer.name()].constant = *tensor;
  }
  return success(ok);
}

/// The shape to suggest for --input-shape: the model's, with 1 for each
/// dimension that is not a number.
static std::string suggestShape(const onnx::TensorShapeProto &shape) {
  SmallVector<std::string> dims;
  for (const onnx::TensorShapeProto::Dimension &dim : shape.dim())
    dims.push_back(dim.has_dim_value() && dim.dim_value() > 0
                       ? std::to_string(dim.dim_value())
                       : "1");
  return llvm::join(dims, "x");
}

FailureOr<RankedTensorType> Importer::checkInputShape(StringRef name,
                                                      ArrayRef<int64_t> shape,
                                                      Type elementType) {
  if (!isValidShape(shape, /*allowEmpty=*/true))
    return emitError() << "input '" << name << "' of shape "
                       << formatShape(shape)
                       << " is too large, which is not supported";
  return getTensorType(shape, elementType);
}

FailureOr<RankedTensorType>
Importer::getGraphInputType(const onnx::ValueInfoProto &input) {
  StringRef name = input.name();
  const onnx::TypeProto &type = input.type();
  if (!type.has_tensor_type())
    return emitError() << "input '" << name
                       << "' is not a tensor; only tensor inputs are "
                          "supported";
  const onnx::TypeProto::Tensor &tensorType = type.tensor_type();
  Type elementType = getMLIRElementType(context, tensorType.elem_type());
  if (!elementType)
    return emitError() << "input '" << name << "' has element type "
                       << getElementTypeName(tensorType.elem_type())
                       << ", which is not supported (supported: FLOAT, "
                          "DOUBLE, FLOAT16, BFLOAT16, INT8..INT64, "
                          "UINT8..UINT64, BOOL)";

  auto overridden = options.inputShapes.find(name);
  if (overridden != options.inputShapes.end()) {
    ArrayRef<int64_t> shape = overridden->second;
    if (tensorType.has_shape()) {
      const onnx::TensorShapeProto &declared = tensorType.shape();
      if (declared.dim_size() != int64_t(shape.size()))
        return emitError() << "--input-shape " << name << "="
                           << formatShape(shape) << " has rank " << shape.size()
                           << ", but input '" << name << "' has rank "
                           << declared.dim_size() << " ("
                           << formatDeclaredShape(declared) << ")";
      for (auto [i, dim] : llvm::enumerate(shape))
        if (declared.dim(i).has_dim_value() &&
            declared.dim(i).dim_value() != dim)
          inputShapesChanged = true;
    }
    return checkInputShape(name, shape, elementType);
  }

  if (!tensorType.has_shape())
    return emitError() << "input '" << name
                       << "' has no shape; give it with --input-shape " << name
                       << "=...";
  const onnx::TensorShapeProto &shape = tensorType.shape();
  SmallVector<int64_t> dims;
  // Dimensions that are not numbers: an index, and the parameter's name
  // when it has one.
  SmallVector<std::pair<size_t, std::string>> symbolic;
  for (auto [i, dim] : llvm::enumerate(shape.dim())) {
    if (dim.has_dim_value() && dim.dim_value() >= 0)
      dims.push_back(dim.dim_value());
    else
      symbolic.emplace_back(i, dim.has_dim_param() ? dim.dim_param() : "");
  }
  if (symbolic.empty())
    return checkInputShape(name, dims, elementType);
  InFlightDiagnostic diag = emitError();
  diag << "input '" << name << "' ";
  if (symbolic.size() == 1) {
    diag << "dimension " << symbolic[0].first;
    if (symbolic[0].second.empty())
      diag << " is unknown";
    else
      diag << " is symbolic ('" << symbolic[0].second << "')";
  } else {
    diag << "dimensions ";
    for (auto [i, dim] : llvm::enumerate(symbolic)) {
      if (i > 0)
        diag << (i + 1 == symbolic.size() ? " and " : ", ");
      diag << dim.first;
      if (!dim.second.empty())
        diag << " ('" << dim.second << "')";
    }
    diag << " are symbolic";
  }
  diag << "; fix it with --input-shape " << name << "=" << suggestShape(shape);
  return diag;
}

void Importer::countUses(const onnx::GraphProto &graph) {
  for (const onnx::NodeProto &node : graph.node()) {
    for (const std::string &input : node.input())
      if (!input.empty())
        ++useCounts[input];
    // A subgraph (an If's branch) reads the values around it by name.
    for (const onnx::AttributeProto &attr : node.attribute()) {
      if (attr.has_g())
        countUses(attr.g());
      for (const onnx::GraphProto &subgraph : attr.graphs())
        countUses(subgraph);
    }
  }
  for (const onnx::ValueInfoProto &output : graph.output())
    ++useCounts[output.name()];
}

void OpRegistry::on(StringRef opType, int64_t since, OpImporter importer) {
  auto &versions = importers[opType];
  auto position =
      llvm::lower_bound(versions, since, [](const auto &entry, int64_t opset) {
        return entry.first < opset;
      });
  assert((position == versions.end() || position->first != since) &&
         "an operator registered twice at one opset");
  versions.insert(position, {since, importer});
}

void OpRegistry::on(ArrayRef<StringRef> opTypes, int64_t since,
                    OpImporter importer) {
  for (StringRef opType : opTypes)
    on(opType, since, importer);
}

OpImporter OpRegistry::lookup(StringRef opType, int64_t opset) const {
  auto it = importers.find(opType);
  if (it == importers.end())
    return nullptr;
  OpImporter found = nullptr;
  for (const auto &[since, importer] : it->second)
    if (since <= opset)
      found = importer;
  return found;
}

std::optional<int64_t> OpRegistry::getFirstOpset(StringRef opType) const {
  auto it = importers.find(opType);
  if (it == importers.end())
    return std::nullopt;
  return it->second.front().first;
}

const OpRegistry &mlir::graph::onnx_import::getOpRegistry() {
  static const OpRegistry registry = [] {
    OpRegistry registry;
    registerCoreOps(registry);
    registerElementwiseOps(registry);
    registerShapeOps(registry);
    registerSliceOps(registry);
    registerIndexingOps(registry);
    registerGeneratorOps(registry);
    registerReductionOps(registry);
    registerNNOps(registry);
    registerSamplingOps(registry);
    registerRecurrentOps(registry);
    registerQuantOps(registry);
    registerLossOps(registry);
    registerControlFlowOps(registry);
    registerSpectralOps(registry);
    return registry;
  }();
  return registry;
}

void Importer::importNode(const onnx::NodeProto &node) {
  if (!isDefaultDomain(node.domain())) {
    (void)nodeError(node, "unsupported operator");
    poisonOutputs(node);
    return;
  }
  const OpRegistry &registry = getOpRegistry();
  OpImporter build = registry.lookup(node.op_type(), opset);
  if (!build) {
    std::optional<int64_t> first = registry.getFirstOpset(node.op_type());
    if (first)
      (void)nodeError(node, "the operator appears in opset " + Twine(*first) +
                                "; the model imports opset " + Twine(opset));
    else
      (void)nodeError(node, "unsupported operator");
    poisonOutputs(node);
    return;
  }
  if (llvm::all_of(node.output(),
                   [](const std::string &name) { return name.empty(); })) {
    (void)nodeError(node, "the node has no output");
    return;
  }
  for (const std::string &input : node.input()) {
    if (input.empty())
      continue;
    auto it = values.find(input);
    if (it == values.end() ||
        (!it->second.value && !it->second.constant && !it->second.poisoned)) {
      (void)nodeError(node, "input '" + input +
                                "' is not a graph input, an initializer or "
                                "the output of an earlier node");
      poisonOutputs(node);
      return;
    }
    if (it->second.poisoned) {
      // Its producer's failure has been reported already.
      poisonOutputs(node);
      return;
    }
  }
  bool readsRunTimeSize =
      llvm::any_of(llvm::seq(node.input_size()), [&](int i) {
        return getRunTimeExtent(node, i).has_value();
      });
  if (failed(readsRunTimeSize ? importRunTimeSized(node, build)
                              : build(*this, node)))
    poisonOutputs(node);
}

OwningOpRef<ModuleOp> Importer::importModel(const onnx::ModelProto &model) {
  if (failed(readOpset(model)))
    return nullptr;
  const onnx::GraphProto &graph = model.graph();
  if (failed(addInitializers(graph)))
    return nullptr;
  for (const onnx::ValueInfoProto &info : graph.value_info())
    declaredTypes[info.name()] = &info.type();
  for (const onnx::ValueInfoProto &info : graph.output())
    declaredTypes[info.name()] = &info.type();
  countUses(graph);

  // The arguments: the inputs that are not initializers (an initializer
  // listed as an input is a constant).
  SmallVector<const onnx::ValueInfoProto *> inputs;
  for (const onnx::ValueInfoProto &input : graph.input()) {
    auto it = values.find(input.name());
    if (it == values.end() || !it->second.constant)
      inputs.push_back(&input);
  }
  bool ok = true;
  for (const auto &entry : options.inputShapes) {
    if (llvm::any_of(inputs, [&](const onnx::ValueInfoProto *input) {
          return input->name() == entry.getKey();
        }))
      continue;
    SmallVector<std::string> names;
    for (const onnx::ValueInfoProto *input : inputs)
      names.push_back("'" + input->name() + "'");
    emitError() << "--input-shape names '" << entry.getKey()
                << "', which is not an input of the model (its inputs: "
                << (names.empty() ? "none" : llvm::join(names, ", ")) << ")";
    ok = false;
  }
  SmallVector<const onnx::ValueInfoProto *> arguments;
  SmallVector<Type> argumentTypes;
  for (const onnx::ValueInfoProto *input : inputs) {
    if (values.count(input->name())) {
      emitError() << "input '" << input->name() << "' is listed twice";
      ok = false;
      continue;
    }
    FailureOr<RankedTensorType> type = getGraphInputType(*input);
    if (failed(type)) {
      ok = false;
      continue;
    }
    arguments.push_back(input);
    argumentTypes.push_back(*type);
    values[input->name()];
  }
  if (!ok)
    return nullptr;

  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(builder, fileLoc, "main",
                                   builder.getFunctionType(argumentTypes, {}));
  Block *body = func.addEntryBlock();
  for (auto [i, argument] : llvm::enumerate(arguments)) {
    func.setArgAttr(i, kNameAttr, builder.getStringAttr(argument->name()));
    values[argument->name()].value = body->getArgument(i);
  }
  builder.setInsertionPointToEnd(body);
  if (failed(bindInputValues(arguments, *body)))
    return nullptr;

  for (auto [i, node] : llvm::enumerate(graph.node())) {
    currentNode = i;
    importNode(node);
  }

  SmallVector<Value> results;
  struct ExtentResult {
    size_t output;
    int64_t dim;
    Value count;
  };
  SmallVector<ExtentResult> runTimeExtents;
  for (const onnx::ValueInfoProto &output : graph.output()) {
    auto it = values.find(output.name());
    if (it == values.end() ||
        (!it->second.value && !it->second.constant && !it->second.poisoned)) {
      emitError() << "output '" << output.name()
                  << "' is not computed by the graph";
      hadError = true;
      continue;
    }
    Entry &entry = it->second;
    if (entry.poisoned)
      continue;
    if (!entry.value &&
        !getMLIRElementType(context, entry.constant->elementType)) {
      emitError() << "output '" << output.name() << "' is a "
                  << getElementTypeName(entry.constant->elementType)
                  << " tensor, which is not supported";
      hadError = true;
      continue;
    }
    results.push_back(entry.value ? entry.value : materialize(entry));
    if (entry.runTimeExtent)
      runTimeExtents.push_back({results.size() - 1, entry.runTimeExtent->dim,
                                entry.runTimeExtent->count});
  }
  if (hadError)
    return nullptr;
  // The extents of outputs of run-time size follow the model's outputs
  // (docs/architecture.md, "Outputs of run-time size").
  for (const ExtentResult &extent : runTimeExtents)
    results.push_back(extent.count);

  auto ret = func::ReturnOp::create(builder, fileLoc, results);
  // The patterns may replace an output's op (and the sweep erase it): the
  // types are read from the return, not from `results`.
  recognizeExportPatterns(*body);
  eraseDeadOps(*body);
  func.setFunctionType(
      builder.getFunctionType(argumentTypes, ret.getOperandTypes()));
  for (auto [i, output] : llvm::enumerate(graph.output()))
    func.setResultAttr(i, kNameAttr, builder.getStringAttr(output.name()));
  for (auto [i, extent] : llvm::enumerate(runTimeExtents)) {
    size_t resultIndex = graph.output_size() + i;
    int64_t rank = Importer::getType(results[extent.output]).getRank();
    SmallVector<int64_t> extentResults(rank, -1);
    extentResults[extent.dim] = resultIndex;
    func.setResultAttr(extent.output, kRunTimeExtentsAttrName,
                       builder.getDenseI64ArrayAttr(extentResults));
    func.setResultAttr(
        resultIndex, kNameAttr,
        builder.getStringAttr(graph.output(extent.output).name() + ".extent" +
                              std::to_string(extent.dim)));
  }

  if (failed(verify(*module)))
    return nullptr;
  return module;
}

/// Erases the ops that import-time folding left without users (their
/// values became constants), so that they do not run even at -O0.
void Importer::eraseDeadOps(Block &body) {
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
    if (isa<GraphDialect>(op.getDialect()) && op.use_empty() &&
        isMemoryEffectFree(&op))
      op.erase();
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

/// Parses the serialized model in `data` into `model`, or reports at
/// `fileLoc` why it is not one.
static LogicalResult parseModel(StringRef data, Location fileLoc,
                                onnx::ModelProto &model) {
  if (data.empty())
    return emitError(fileLoc) << "not an ONNX model: the file is empty";
  if (data.size() > size_t(INT_MAX))
    return emitError(fileLoc)
           << "the model is larger than 2 GB, the limit of protobuf; store "
              "its weights as external data";
  google::protobuf::io::CodedInputStream stream(
      reinterpret_cast<const uint8_t *>(data.data()), int(data.size()));
  stream.SetTotalBytesLimit(INT_MAX);
  if (!model.ParseFromCodedStream(&stream) || !stream.ConsumedEntireMessage())
    return emitError(fileLoc) << "not a valid ONNX model: the file is "
                                 "truncated, corrupt or not an ONNX protobuf";
  if (!model.has_graph())
    return emitError(fileLoc) << "not an ONNX model: it has no graph";
  if (model.opset_import_size() == 0)
    return emitError(fileLoc) << "not an ONNX model: it imports no opset";
  return success();
}

OwningOpRef<ModuleOp>
mlir::graph::importONNX(llvm::MemoryBufferRef buffer, MLIRContext *context,
                        const ONNXImportOptions &options) {
  context->loadDialect<GraphDialect, func::FuncDialect>();
  StringRef path = buffer.getBufferIdentifier();
  Location fileLoc = FileLineColLoc::get(context, path, 0, 0);
  onnx::ModelProto model;
  if (failed(parseModel(buffer.getBuffer(), fileLoc, model)))
    return nullptr;
  StringRef directory = llvm::sys::path::parent_path(path);
  Importer importer(context, path, directory.empty() ? "." : directory,
                    options);
  return importer.importModel(model);
}

static ONNXDeclaredValue declare(const onnx::ValueInfoProto &value,
                                 MLIRContext *context) {
  ONNXDeclaredValue declared;
  declared.name = value.name();
  if (!value.type().has_tensor_type())
    return declared;
  const onnx::TypeProto::Tensor &tensorType = value.type().tensor_type();
  if (tensorType.has_elem_type())
    declared.elementType = getMLIRElementType(context, tensorType.elem_type());
  if (!tensorType.has_shape())
    return declared;
  declared.hasShape = true;
  for (auto [i, dim] : llvm::enumerate(tensorType.shape().dim())) {
    if (dim.has_dim_value() && dim.dim_value() >= 0) {
      declared.shape.push_back(dim.dim_value());
      declared.symbols.push_back("");
      continue;
    }
    declared.shape.push_back(ShapedType::kDynamic);
    declared.symbols.push_back(dim.has_dim_param() && !dim.dim_param().empty()
                                   ? dim.dim_param()
                                   : value.name() + "_dim" + std::to_string(i));
  }
  return declared;
}

FailureOr<ONNXSignature>
mlir::graph::readONNXSignature(llvm::MemoryBufferRef buffer,
                               MLIRContext *context,
                               const ONNXImportOptions &options) {
  Location fileLoc =
      FileLineColLoc::get(context, buffer.getBufferIdentifier(), 0, 0);
  onnx::ModelProto model;
  if (failed(parseModel(buffer.getBuffer(), fileLoc, model)))
    return failure();
  const onnx::GraphProto &graph = model.graph();
  llvm::StringSet<> initializers;
  for (const onnx::TensorProto &initializer : graph.initializer())
    initializers.insert(initializer.name());

  ONNXSignature signature;
  SmallVector<std::string> names;
  for (const onnx::ValueInfoProto &input : graph.input()) {
    if (initializers.contains(input.name()))
      continue;
    names.push_back("'" + input.name() + "'");
    ONNXDeclaredValue &declared =
        signature.inputs.emplace_back(declare(input, context));
    auto fixed = options.inputShapes.find(input.name());
    if (fixed == options.inputShapes.end())
      continue;
    if (declared.hasShape && declared.shape.size() != fixed->second.size())
      return emitError(fileLoc)
             << "--input-shape " << input.name() << "="
             << formatShape(fixed->second) << " has rank "
             << fixed->second.size() << ", but input '" << input.name()
             << "' has rank " << declared.shape.size() << " ("
             << formatDeclaredShape(input.type().tensor_type().shape()) << ")";
    declared.hasShape = true;
    declared.shape.assign(fixed->second.begin(), fixed->second.end());
    declared.symbols.assign(declared.shape.size(), "");
  }
  for (const auto &entry : options.inputShapes)
    if (!llvm::any_of(signature.inputs, [&](const ONNXDeclaredValue &input) {
          return input.name == entry.getKey();
        }))
      return emitError(fileLoc)
             << "--input-shape names '" << entry.getKey()
             << "', which is not an input of the model (its inputs: "
             << (names.empty() ? "none" : llvm::join(names, ", ")) << ")";
  for (const onnx::ValueInfoProto &output : graph.output())
    signature.outputs.push_back(declare(output, context));
  return signature;
}

OwningOpRef<ModuleOp>
mlir::graph::importONNXFile(StringRef path, MLIRContext *context,
                            const ONNXImportOptions &options) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!file) {
    emitError(FileLineColLoc::get(context, path, 0, 0))
        << "cannot read the file: " << file.getError().message();
    return nullptr;
  }
  return importONNX((*file)->getMemBufferRef(), context, options);
}

LogicalResult mlir::graph::parseONNXInputValues(StringRef spec,
                                                ONNXImportOptions &options,
                                                std::string &error) {
  auto [name, values] = spec.split('=');
  if (!spec.contains('=') || name.empty()) {
    error =
        "an input value is given as NAME=v0,v1,..., not '" + spec.str() + "'";
    return failure();
  }
  options.inputValues[name] = values.str();
  return success();
}

LogicalResult mlir::graph::parseONNXInputShapes(StringRef spec,
                                                ONNXImportOptions &options,
                                                std::string &error) {
  return success(runtime::parseInputShapes(spec, options.inputShapes, error));
}
