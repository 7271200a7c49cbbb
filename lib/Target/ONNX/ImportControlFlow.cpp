//===- ImportControlFlow.cpp - If -------------------------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// ONNX If: its branches are subgraphs that read the values of the graph
// around them by name. A condition known at import time imports the branch
// it selects in place; otherwise each branch becomes a region of a graph.if,
// imported with the names of the enclosing scopes visible, and what a branch
// defines (or materializes from a constant) forgotten after it.
//
//===----------------------------------------------------------------------===//

#include "ImportHelpers.h"

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::onnx_import;

/// The subgraph attribute `name` of `node`, or null (reported).
static const onnx::GraphProto *
getBranch(Importer &importer, const onnx::NodeProto &node, StringRef name) {
  for (const onnx::AttributeProto &attr : node.attribute())
    if (attr.name() == name && attr.has_g())
      return &attr.g();
  (void)importer.nodeError(node,
                           "attribute '" + name + "' (a graph) is missing");
  return nullptr;
}

static LogicalResult importIf(Importer &importer, const onnx::NodeProto &node) {
  const onnx::GraphProto *thenBranch = getBranch(importer, node, "then_branch");
  const onnx::GraphProto *elseBranch = getBranch(importer, node, "else_branch");
  if (!thenBranch || !elseBranch)
    return failure();
  for (const onnx::GraphProto *branch : {thenBranch, elseBranch})
    if (branch->output_size() != node.output_size())
      return importer.nodeError(node, "branch '" + branch->name() + "' has " +
                                          Twine(branch->output_size()) +
                                          " outputs, the node " +
                                          Twine(node.output_size()));
  if (const ConstantTensor *cond =
          importer.getConstantInput(node, 0, /*decidesShapes=*/false)) {
    if (cond->getNumElements() != 1)
      return importer.nodeError(node, "the condition has " +
                                          Twine(cond->getNumElements()) +
                                          " elements; it must have one");
    return importer.importBranchInPlace(
        node, cond->getDoubles()[0] != 0 ? *thenBranch : *elseBranch);
  }
  return importer.importBranches(node, *thenBranch, *elseBranch);
}

void mlir::graph::onnx_import::registerControlFlowOps(OpRegistry &registry) {
  registry.on("If", 1, importIf);
}

//===----------------------------------------------------------------------===//
// Subgraphs
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<Importer::Entry>>
Importer::importSubgraph(const onnx::NodeProto &node,
                         const onnx::GraphProto &graph) {
  if (graph.input_size() > 0)
    return nodeError(node, "branch '" + graph.name() + "' has inputs");
  if (failed(addInitializers(graph)))
    return failure();
  for (const onnx::ValueInfoProto &info : graph.value_info())
    declaredTypes[info.name()] = &info.type();
  size_t outerNode = currentNode;
  for (auto [i, inner] : llvm::enumerate(graph.node())) {
    currentNode = i;
    importNode(inner);
  }
  currentNode = outerNode;
  SmallVector<Entry> outputs;
  for (const onnx::ValueInfoProto &output : graph.output()) {
    auto it = values.find(output.name());
    if (it == values.end() ||
        (!it->second.value && !it->second.constant && !it->second.poisoned))
      return nodeError(node, "output '" + output.name() + "' of branch '" +
                                 graph.name() +
                                 "' is not computed by the branch");
    // A failed node has been reported.
    if (it->second.poisoned)
      return failure();
    if (it->second.runTimeShape)
      return nodeError(node, "output '" + output.name() + "' of branch '" +
                                 graph.name() +
                                 "' is a shape that only a run decides, "
                                 "which a branch cannot yield yet");
    outputs.push_back(it->second);
  }
  return outputs;
}

LogicalResult Importer::importBranchInPlace(const onnx::NodeProto &node,
                                            const onnx::GraphProto &branch) {
  FailureOr<SmallVector<Entry>> outputs = importSubgraph(node, branch);
  if (failed(outputs))
    return failure();
  for (auto [name, entry] : llvm::zip(node.output(), *outputs)) {
    if (name.empty())
      continue;
    Entry &defined = values[name];
    if (defined.value || defined.constant)
      return nodeError(node, "value '" + name + "' is defined twice");
    defined = entry;
  }
  return success();
}

/// `FLOAT 2x3`: what a diagnostic says of a value.
static std::string describe(Value value) {
  return typeName(value) + " " +
         formatShape(Importer::getType(value).getShape());
}

namespace {
/// A branch of an If imported into a block of its own, and what it yields.
struct ImportedBranch {
  ImportedBranch() : block(new Block) {}
  ~ImportedBranch() {
    if (!block)
      return;
    block->dropAllReferences();
    delete block;
  }
  /// Gives the block to a region, which owns it from then on.
  void moveInto(Region &region) {
    region.push_back(block);
    block = nullptr;
  }

  Block *block;
  SmallVector<Value> values;
  SmallVector<std::optional<Importer::RunTimeExtent>> extents;
};
} // namespace

LogicalResult Importer::importBranches(const onnx::NodeProto &node,
                                       const onnx::GraphProto &thenBranch,
                                       const onnx::GraphProto &elseBranch) {
  FailureOr<Value> cond = getInput(node, 0);
  if (failed(cond))
    return failure();
  RankedTensorType condType = getType(*cond);
  if (!condType.getElementType().isInteger(1) || condType.getNumElements() != 1)
    return nodeError(node, "the condition must be a bool tensor of one "
                           "element, but it is " +
                               describe(*cond));

  // Each branch sees the values of the scopes around it; what it defines,
  // and the constants it materializes, stay in its block.
  OpBuilder::InsertionGuard guard(builder);
  OpBuilder::InsertPoint outside = builder.saveInsertionPoint();
  ImportedBranch branches[2];
  const onnx::GraphProto *graphs[] = {&thenBranch, &elseBranch};
  for (auto [branch, graph] : llvm::zip(branches, graphs)) {
    llvm::StringMap<Entry> outerValues = values;
    auto outerFolded = foldedValues;
    auto outerSums = extentSums;
    auto outerExtents = constantExtents;
    builder.setInsertionPointToEnd(branch.block);
    FailureOr<SmallVector<Entry>> outputs = importSubgraph(node, *graph);
    if (succeeded(outputs)) {
      for (Entry &entry : *outputs) {
        if (!entry.value &&
            !getMLIRElementType(context, entry.constant->elementType)) {
          outputs = nodeError(
              node, "a branch yields a " +
                        getElementTypeName(entry.constant->elementType) +
                        " tensor, which is not supported");
          break;
        }
        branch.values.push_back(entry.value ? entry.value : materialize(entry));
        branch.extents.push_back(entry.runTimeExtent);
      }
    }
    values = std::move(outerValues);
    foldedValues = std::move(outerFolded);
    extentSums = std::move(outerSums);
    constantExtents = std::move(outerExtents);
    if (failed(outputs))
      return failure();
  }

  // The results: one per output, and after them an extent for each output
  // whose size differs between the branches along one dimension (or is of
  // run-time size in either), which each branch yields padded to the larger
  // size.
  Location loc = getLoc(node);
  SmallVector<Type> resultTypes;
  SmallVector<int64_t> runTimeDims;
  SmallVector<Value> extentYields[2];
  for (int i = 0; i < node.output_size(); ++i) {
    RankedTensorType types[2] = {getType(branches[0].values[i]),
                                 getType(branches[1].values[i])};
    if (types[0].getElementType() != types[1].getElementType() ||
        types[0].getRank() != types[1].getRank())
      return nodeError(node, "output " + Twine(i) + ": the branches yield " +
                                 describe(branches[0].values[i]) + " and " +
                                 describe(branches[1].values[i]));
    SmallVector<int64_t> differing;
    for (int64_t d = 0; d < types[0].getRank(); ++d) {
      bool sized = llvm::any_of(branches, [&](const ImportedBranch &branch) {
        return branch.extents[i] && branch.extents[i]->dim == d;
      });
      if (sized || types[0].getDimSize(d) != types[1].getDimSize(d))
        differing.push_back(d);
    }
    if (differing.size() > 1)
      return nodeError(node, "output " + Twine(i) + ": the branches yield " +
                                 describe(branches[0].values[i]) + " and " +
                                 describe(branches[1].values[i]) +
                                 ", whose sizes differ in more than one "
                                 "dimension");
    if (differing.empty()) {
      resultTypes.push_back(types[0]);
      runTimeDims.push_back(-1);
      continue;
    }
    int64_t dim = differing.front();
    SmallVector<int64_t> bound(types[0].getShape());
    bound[dim] = std::max(types[0].getDimSize(dim), types[1].getDimSize(dim));
    RankedTensorType boundType =
        getTensorType(bound, types[0].getElementType());
    for (auto [b, branch] : llvm::enumerate(branches)) {
      builder.setInsertionPoint(branch.block, branch.block->end());
      Value &value = branch.values[i];
      int64_t size = types[b].getDimSize(dim);
      Value extent =
          branch.extents[i]
              ? branch.extents[i]->count
              : createConstant(node,
                               DenseElementsAttr::get(
                                   getTensorType({}, builder.getI64Type()),
                                   builder.getI64IntegerAttr(size)));
      if (size == 0) {
        value = createSplat(*this, node, bound, boundType.getElementType(), 0);
      } else if (size < bound[dim]) {
        SmallVector<int64_t> rest(bound);
        rest[dim] = bound[dim] - size;
        Value padding =
            createSplat(*this, node, rest, boundType.getElementType(), 0);
        value = ConcatOp::create(builder, loc, boundType,
                                 ValueRange{value, padding},
                                 builder.getI64IntegerAttr(dim));
      }
      extentYields[b].push_back(extent);
    }
    resultTypes.push_back(boundType);
    runTimeDims.push_back(dim);
  }
  for (auto [b, branch] : llvm::enumerate(branches)) {
    builder.setInsertionPoint(branch.block, branch.block->end());
    SmallVector<Value> yielded(branch.values);
    llvm::append_range(yielded, extentYields[b]);
    YieldOp::create(builder, loc, yielded);
  }
  for (Value extent : extentYields[0])
    resultTypes.push_back(extent.getType());

  builder.restoreInsertionPoint(outside);
  auto op = IfOp::create(builder, loc, resultTypes, *cond);
  branches[0].moveInto(op.getThenRegion());
  branches[1].moveInto(op.getElseRegion());
  unsigned nextExtent = node.output_size();
  for (int i = 0; i < node.output_size(); ++i) {
    LogicalResult defined =
        runTimeDims[i] < 0
            ? setOutput(node, i, op.getResult(i))
            : setRunTimeSizeOutput(node, i, op.getResult(i), runTimeDims[i],
                                   op.getResult(nextExtent++));
    if (failed(defined))
      return failure();
  }
  return success();
}
