//===- Importer.cpp - The values of an ONNX import ------------------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the operator builders call on the Importer: a node's inputs (constant
// or not, with the values of shape-deciding inputs bound), its outputs
// (checked against declared types, folded where small and constant), and
// its diagnostics. The model-level walk is in ImportONNX.cpp.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"
#include "ImportHelpers.h"
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

/// Integer and bool values (shape arithmetic) with at most this many
/// elements are folded at import when their operands are constants, so that
/// they leave no code behind even at -O0.
static constexpr int64_t kMaxImportFoldElements = 1 << 16;

Importer::Importer(MLIRContext *context, StringRef path, StringRef directory,
                   const ONNXImportOptions &options)
    : context(context), builder(context), path(path.str()),
      directory(directory.str()), options(options),
      fileLoc(FileLineColLoc::get(context, path, 0, 0)) {}

/// The node's first output that the model names (optional outputs it does
/// not ask for have empty names).
static StringRef getFirstOutputName(const onnx::NodeProto &node) {
  for (const std::string &name : node.output())
    if (!name.empty())
      return name;
  return "";
}

Location Importer::getLoc(const onnx::NodeProto &node) {
  StringRef name = node.name();
  if (name.empty())
    name = getFirstOutputName(node);
  return NameLoc::get(builder.getStringAttr(name), fileLoc);
}

LogicalResult Importer::nodeError(const onnx::NodeProto &node,
                                  const Twine &message) {
  InFlightDiagnostic diag = emitError();
  if (!node.name().empty())
    diag << "node '" << node.name() << "'";
  else if (node.output_size() > 0)
    diag << "node #" << currentNode << " (output '" << getFirstOutputName(node)
         << "')";
  else
    diag << "node #" << currentNode;
  diag << " (op type '" << node.op_type() << "', ";
  if (isDefaultDomain(node.domain()))
    diag << "opset " << opset;
  else
    diag << "domain '" << node.domain() << "'";
  diag << "): " << message;
  hadError = true;
  return failure();
}

const ConstantTensor *Importer::getConstantInput(const onnx::NodeProto &node,
                                                 int index,
                                                 bool decidesShapes) {
  if (!hasInput(node, index))
    return nullptr;
  auto it = values.find(node.input(index));
  if (it == values.end())
    return nullptr;
  Entry &entry = it->second;
  if (entry.constant || !entry.value)
    return entry.constant;
  // A value computed by ops whose operands are constants: fold it now.
  auto folded = foldedValues.find(entry.value);
  if (folded != foldedValues.end())
    return folded->second;
  Attribute attr = foldValue(entry.value);
  const ConstantTensor *tensor =
      attr ? addConstant(node.input(index), attr) : nullptr;
  foldedValues[entry.value] = tensor;
  if (!tensor && decidesShapes)
    noteNeededInputs(entry.value);
  return tensor;
}

void Importer::noteNeededInputs(Value value) {
  if (!options.neededInputValues)
    return;
  llvm::SmallPtrSet<Operation *, 16> visited;
  SmallVector<Value> worklist{value};
  while (!worklist.empty()) {
    Value next = worklist.pop_back_val();
    if (auto argument = dyn_cast<BlockArgument>(next)) {
      // The body of a loop being imported is in no region yet; its
      // arguments change from one iteration to the next.
      Block *owner = argument.getOwner();
      auto func = owner->getParent()
                      ? dyn_cast<func::FuncOp>(owner->getParentOp())
                      : func::FuncOp();
      if (auto name = func ? func.getArgAttrOfType<StringAttr>(
                                 argument.getArgNumber(), kNameAttr)
                           : StringAttr())
        options.neededInputValues->insert(name.getValue());
      continue;
    }
    Operation *op = next.getDefiningOp();
    if (op && visited.insert(op).second && visited.size() <= 256)
      llvm::append_range(worklist, op->getOperands());
  }
}

LogicalResult
Importer::bindInputValues(ArrayRef<const onnx::ValueInfoProto *> inputs,
                          Block &body) {
  for (const auto &given : options.inputValues) {
    StringRef name = given.getKey();
    const auto *input =
        llvm::find_if(inputs, [&](const onnx::ValueInfoProto *v) {
          return v->name() == name;
        });
    if (input == inputs.end())
      return emitError() << "a value is given for '" << name
                         << "', which is not an input of the model";
    auto type = cast<RankedTensorType>(
        body.getArgument(input - inputs.begin()).getType());
    SmallVector<StringRef> items;
    if (!StringRef(given.getValue()).empty())
      StringRef(given.getValue()).split(items, ',');
    if (int64_t(items.size()) != type.getNumElements())
      return emitError() << "input '" << name << "' of shape "
                         << formatShape(type.getShape()) << " has "
                         << type.getNumElements() << " elements, but "
                         << items.size() << " values are given";
    Type elementType = type.getElementType();
    DenseElementsAttr attr;
    if (auto floatType = dyn_cast<FloatType>(elementType)) {
      SmallVector<APFloat> elements;
      for (StringRef item : items) {
        double number;
        if (item.trim().getAsDouble(number))
          return emitError()
                 << "input '" << name << "': '" << item << "' is not a number";
        APFloat element(number);
        bool lost;
        element.convert(floatType.getFloatSemantics(),
                        APFloat::rmNearestTiesToEven, &lost);
        elements.push_back(element);
      }
      attr = DenseElementsAttr::get(type, elements);
    } else if (auto intType = dyn_cast<IntegerType>(elementType)) {
      SmallVector<APInt> elements;
      for (StringRef item : items) {
        // APInt's parser takes no sign.
        StringRef digits = item.trim();
        bool negative = digits.consume_front("-");
        APInt element;
        if (digits.getAsInteger(10, element))
          return emitError() << "input '" << name << "': '" << item
                             << "' is not an integer";
        element = element.zext(std::max(element.getBitWidth() + 1, 65u));
        if (negative)
          element.negate();
        elements.push_back(element.trunc(intType.getWidth()));
      }
      attr = DenseElementsAttr::get(type, elements);
    } else {
      return emitError() << "input '" << name
                         << "' has an element type whose values cannot be "
                            "given";
    }
    // Every use reads the constant, so that what is computed from it folds
    // too; the argument stays in the signature.
    Entry &entry = values[name];
    entry.constant = addConstant(name, attr);
    entry.value = Value();
  }
  return success();
}

Attribute Importer::foldValue(Value value) { return foldValue(value, 0); }

Attribute Importer::foldValue(Value value, unsigned depth) {
  Operation *op = value.getDefiningOp();
  if (!op || depth > 64 || !isa<GraphDialect>(op->getDialect()) ||
      !isMemoryEffectFree(op) || op->getNumRegions() != 0)
    return {};
  if (auto constant = dyn_cast<ConstantOp>(op))
    return constant.getValue();
  SmallVector<Attribute> operands;
  for (Value operand : op->getOperands()) {
    Attribute attr = foldValue(operand, depth + 1);
    if (!attr)
      return {};
    operands.push_back(attr);
  }
  SmallVector<OpFoldResult> results;
  if (failed(op->fold(operands, results)) ||
      results.size() != op->getNumResults())
    return {};
  OpFoldResult result = results[cast<OpResult>(value).getResultNumber()];
  if (auto attr = dyn_cast<Attribute>(result))
    return attr;
  return foldValue(cast<Value>(result), depth + 1);
}

Value Importer::createConstant(const onnx::NodeProto &node, ElementsAttr attr) {
  return ConstantOp::create(builder, getLoc(node), attr.getShapedType(), attr);
}

FailureOr<Value> Importer::getInput(const onnx::NodeProto &node, int index) {
  if (!hasInput(node, index)) {
    (void)nodeError(node, "input " + Twine(index) + " is missing");
    return failure();
  }
  // importNode has checked that every input is defined.
  Entry &entry = values[node.input(index)];
  if (entry.runTimeExtent && !readingRunTimeSize) {
    (void)nodeError(node, "input '" + node.input(index) +
                              "' has a size that only a run decides; " +
                              node.op_type() +
                              " cannot take such a value yet (a model "
                              "output can)");
    return failure();
  }
  if (entry.value)
    return entry.value;
  const ConstantTensor *constant = entry.constant;
  if (!getMLIRElementType(context, constant->elementType) ||
      getElementSize(constant->elementType) == 0) {
    (void)nodeError(node, "input '" + node.input(index) + "' is a " +
                              getElementTypeName(constant->elementType) +
                              " tensor, which is not supported");
    return failure();
  }
  return materialize(entry);
}

const Importer::Entry *Importer::findInput(const onnx::NodeProto &node,
                                           int index) const {
  if (!hasInput(node, index))
    return nullptr;
  auto it = values.find(node.input(index));
  return it == values.end() ? nullptr : &it->second;
}

std::optional<Importer::RunTimeExtent>
Importer::getRunTimeExtent(const onnx::NodeProto &node, int index) const {
  const Entry *entry = findInput(node, index);
  return entry ? entry->runTimeExtent : std::nullopt;
}

std::optional<Importer::RunTimeShape>
Importer::getRunTimeShape(const onnx::NodeProto &node, int index) const {
  const Entry *entry = findInput(node, index);
  return entry ? entry->runTimeShape : std::nullopt;
}

Value Importer::addExtents(const onnx::NodeProto &node, Value a, Value b) {
  Value &sum = extentSums[{a, b}];
  if (!sum)
    sum = AddOp::create(builder, getLoc(node), a.getType(), a, b);
  return sum;
}

Value Importer::getConstantExtent(const onnx::NodeProto &node, int64_t size) {
  Value &extent = constantExtents[size];
  if (!extent)
    extent = createConstant(
        node, DenseElementsAttr::get(getTensorType({}, builder.getI64Type()),
                                     builder.getI64IntegerAttr(size)));
  return extent;
}

LogicalResult Importer::setRunTimeShapeOutput(const onnx::NodeProto &node,
                                              int index, Value value,
                                              RunTimeShape shape) {
  if (failed(setOutput(node, index, value)))
    return failure();
  if (!node.output(index).empty())
    values[node.output(index)].runTimeShape = std::move(shape);
  return success();
}

RankedTensorType Importer::getInputType(const onnx::NodeProto &node,
                                        int index) {
  Entry &entry = values[node.input(index)];
  if (entry.value)
    return getType(entry.value);
  Type elementType = getMLIRElementType(context, entry.constant->elementType);
  if (!elementType)
    return {};
  return getTensorType(entry.constant->shape, elementType);
}

bool Importer::isOutputUsed(const onnx::NodeProto &node, int index) const {
  if (index >= node.output_size() || node.output(index).empty())
    return false;
  auto it = useCounts.find(node.output(index));
  return it != useCounts.end() && it->second > 0;
}

std::string mlir::graph::onnx_import::formatDeclaredShape(
    const onnx::TensorShapeProto &shape) {
  if (shape.dim_size() == 0)
    return "scalar";
  SmallVector<std::string> dims;
  for (const onnx::TensorShapeProto::Dimension &dim : shape.dim())
    dims.push_back(dim.has_dim_value() ? std::to_string(dim.dim_value()) : "?");
  return llvm::join(dims, "x");
}

LogicalResult Importer::checkDeclaredType(const onnx::NodeProto &node,
                                          StringRef name, RankedTensorType type,
                                          int64_t runTimeDim) {
  auto it = declaredTypes.find(name);
  if (it == declaredTypes.end() || !it->second->has_tensor_type())
    return success();
  const onnx::TypeProto::Tensor &declared = it->second->tensor_type();
  int32_t computed = getONNXElementType(type.getElementType());
  if (declared.elem_type() != onnx::TensorProto::UNDEFINED &&
      declared.elem_type() != computed)
    return nodeError(node, "value '" + name + "': the model declares it " +
                               getElementTypeName(declared.elem_type()) +
                               ", the importer computed " +
                               getElementTypeName(computed));
  if (!declared.has_shape())
    return success();
  const onnx::TensorShapeProto &shape = declared.shape();
  bool matches = shape.dim_size() == type.getRank();
  for (int i = 0; matches && i < shape.dim_size(); ++i)
    // Input shapes changed with --input-shape make the declared sizes stale;
    // only ranks are compared then.
    if (shape.dim(i).has_dim_value() && !inputShapesChanged && i != runTimeDim)
      matches = shape.dim(i).dim_value() == type.getDimSize(i);
  if (matches)
    return success();
  return nodeError(node, "value '" + name + "': the model declares shape " +
                             formatDeclaredShape(shape) +
                             ", the importer computed " +
                             formatShape(type.getShape()));
}

LogicalResult Importer::setRunTimeSizeOutput(const onnx::NodeProto &node,
                                             int index, Value value,
                                             int64_t dim, Value count) {
  RankedTensorType type = getType(value);
  if (auto extent = dyn_cast_or_null<DenseIntElementsAttr>(foldValue(count))) {
    // Known now (a constant operand): the first `extent` along `dim`.
    SmallVector<int64_t> shape(type.getShape());
    shape[dim] = (*extent.getValues<APInt>().begin()).getSExtValue();
    SmallVector<int64_t> zeros(shape.size(), 0), ones(shape.size(), 1);
    Value exact = SliceOp::create(builder, getLoc(node),
                                  getTensorType(shape, type.getElementType()),
                                  value, builder.getDenseI64ArrayAttr(zeros),
                                  builder.getDenseI64ArrayAttr(ones));
    return setOutput(node, index, exact);
  }
  StringRef name = node.output(index);
  if (name.empty())
    return success();
  Entry *entry = defineEntry(node, name, value);
  if (!entry)
    return failure();
  entry->runTimeExtent = RunTimeExtent{dim, count};
  return checkDeclaredType(node, name, type, dim);
}

Importer::Entry *Importer::defineEntry(const onnx::NodeProto &node,
                                       StringRef name, Value value) {
  Entry &entry = values[name];
  if (entry.value || entry.constant) {
    (void)nodeError(node, "value '" + name + "' is defined twice");
    return nullptr;
  }
  entry.value = value;
  return &entry;
}

LogicalResult Importer::setOutput(const onnx::NodeProto &node, int index,
                                  Value value) {
  StringRef name = node.output(index);
  // An optional output the model does not ask for.
  if (name.empty())
    return success();
  Entry *defined = defineEntry(node, name, value);
  if (!defined)
    return failure();
  Entry &entry = *defined;
  if (deferOutputChecks)
    return success();
  if (failed(checkDeclaredType(node, name, getType(value))))
    return failure();
  // Shape arithmetic on constants (integers and bools) becomes a constant
  // now: nothing of it is left to run, and later nodes can read its value.
  RankedTensorType type = getType(value);
  if (!isa<FloatType>(type.getElementType()) &&
      type.getNumElements() <= kMaxImportFoldElements &&
      !isa_and_nonnull<ConstantOp>(value.getDefiningOp())) {
    if (Attribute attr = foldValue(value)) {
      if (const ConstantTensor *tensor = addConstant(name, attr)) {
        entry.value = nullptr;
        entry.constant = tensor;
      }
    }
  }
  return success();
}

void Importer::setConstantOutput(const onnx::NodeProto &node, int index,
                                 const ConstantTensor *tensor) {
  StringRef name = node.output(index);
  // An optional output the model does not ask for.
  if (name.empty())
    return;
  Entry &entry = values[name];
  if (entry.value || entry.constant) {
    (void)nodeError(node, "value '" + name + "' is defined twice");
    return;
  }
  entry.constant = tensor;
}

void Importer::poisonOutputs(const onnx::NodeProto &node) {
  for (const std::string &output : node.output())
    if (!output.empty())
      values[output].poisoned = true;
}
