//===- ImportControlFlow.cpp - If, Loop and Scan ----------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// ONNX If: its branches are subgraphs that read the values of the graph
// around them by name. A condition known at import time imports the branch
// it selects in place; otherwise each branch becomes a region of a graph.if,
// imported with the names of the enclosing scopes visible, and what a branch
// defines (or materializes from a constant) forgotten after it. Loop is a
// graph.loop whose body is its subgraph; Scan a graph.loop that reads a row
// of each scan input per iteration (opset 8's, batch-major, a loop over the
// batch around it).
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

/// `FLOAT 2x3`: what a diagnostic says of a value.
static std::string describe(Value value) {
  return typeName(value) + " " +
         formatShape(Importer::getType(value).getShape());
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

/// A tensor<i64> of rank 0 holding `value`.
static Value createI64(Importer &importer, const onnx::NodeProto &node,
                       int64_t value) {
  OpBuilder &b = importer.getBuilder();
  return importer.createConstant(
      node, DenseElementsAttr::get(importer.getTensorType({}, b.getI64Type()),
                                   b.getI64IntegerAttr(value)));
}

/// A tensor<i1> of rank 0 holding `value`.
static Value createBool(Importer &importer, const onnx::NodeProto &node,
                        bool value) {
  OpBuilder &b = importer.getBuilder();
  return importer.createConstant(
      node, DenseElementsAttr::get(importer.getTensorType({}, b.getI1Type()),
                                   b.getBoolAttr(value)));
}

/// Whether `value` is a tensor of one element of `elementType`.
static bool isScalarOf(Value value, Type elementType) {
  RankedTensorType type = Importer::getType(value);
  return type.getElementType() == elementType && type.getNumElements() == 1;
}

namespace {
/// A block that no region holds yet, freed with its ops unless released.
struct OwnedBlock {
  OwnedBlock() : block(new Block) {}
  OwnedBlock(const OwnedBlock &) = delete;
  ~OwnedBlock() {
    if (!block)
      return;
    block->dropAllReferences();
    delete block;
  }
  Block *release() { return std::exchange(block, nullptr); }

  Block *block;
};

/// The body of a loop being built: a block of its own until the op takes
/// it.
struct LoopBody : OwnedBlock {};

/// What a graph.loop built for a node computes.
struct BuiltLoop {
  SmallVector<Value> finals;
  /// Each scan output as the loop stacks it, along a new dimension 0.
  SmallVector<Value> scans;
  /// The number of iterations that ran, when a run decides it.
  Value count;
};
} // namespace

/// Builds the body of a loop at the end of its block, whose arguments are
/// `arguments` (the iteration number, the condition and the carried
/// values): returns what it yields (the next condition, the carried values
/// and the scan rows), or fails having reported why.
using LoopBodyBuilder =
    function_ref<FailureOr<SmallVector<Value>>(Block &block)>;

/// The body of ONNX Loop: `body` imported into the block, its inputs the
/// block's arguments (or, given `prepare`, what it makes of them at the
/// start of the block: Scan's rows); a subgraph without a condition output
/// (Scan's) passes the condition on.
static FailureOr<SmallVector<Value>>
importLoopBody(Importer &importer, const onnx::NodeProto &node,
               const onnx::GraphProto &body, Block &block,
               function_ref<SmallVector<Value>(ValueRange)> prepare = nullptr,
               bool yieldsCondition = true) {
  SmallVector<Value> inputs(block.getArguments());
  if (prepare)
    inputs = prepare(block.getArguments());
  FailureOr<Importer::SubgraphOutputs> outputs =
      importer.importIntoBlock(node, body, block, inputs);
  if (failed(outputs))
    return failure();
  for (auto [i, extent] : llvm::enumerate(outputs->extents))
    if (extent)
      return importer.nodeError(node, "output " + Twine(i) + " of subgraph '" +
                                          body.name() +
                                          "' is of run-time size, which a "
                                          "loop cannot carry or stack yet");
  SmallVector<Value> yielded = std::move(outputs->values);
  if (!yieldsCondition)
    yielded.insert(yielded.begin(), block.getArgument(1));
  if (yielded.size() < block.getNumArguments() - 1)
    return importer.nodeError(
        node, "subgraph '" + body.name() + "' has " +
                  Twine(body.output_size()) + " outputs, fewer than its " +
                  Twine(block.getNumArguments() - 2) + " carried values need");
  return yielded;
}

/// Builds a graph.loop for `node` whose body `buildBody` builds, run at most
/// `maxTrips` times (nullopt: the run decides) while `cond` holds, carrying
/// `inits`. `bodyName` names the body in diagnostics.
static FailureOr<BuiltLoop>
buildLoop(Importer &importer, const onnx::NodeProto &node, Value maxTripCount,
          std::optional<int64_t> maxTrips, Value cond, ValueRange inits,
          const Twine &bodyName, LoopBodyBuilder buildBody) {
  OpBuilder &b = importer.getBuilder();
  Location loc = importer.getLoc(node);
  Type i1 = b.getI1Type();
  size_t numCarried = inits.size();

  LoopBody loopBody;
  Block &block = *loopBody.block;
  block.addArgument(Importer::getType(maxTripCount), loc);
  block.addArgument(Importer::getType(cond), loc);
  for (Value init : inits)
    block.addArgument(init.getType(), loc);
  FailureOr<SmallVector<Value>> body;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(&block);
    body = buildBody(block);
  }
  if (failed(body))
    return failure();
  SmallVector<Value> &yielded = *body;
  size_t numScans = yielded.size() - 1 - numCarried;
  if (numScans > 0 && !maxTrips)
    return importer.nodeError(
        node, "its " + Twine(numScans) +
                  " scan outputs need a trip count known at import, their "
                  "size; this one only a run decides");
  if (!isScalarOf(yielded[0], i1))
    return importer.nodeError(node, bodyName + " yields a condition of " +
                                        describe(yielded[0]) +
                                        "; it must be a BOOL of one element");
  for (auto [i, init] : llvm::enumerate(inits))
    if (yielded[1 + i].getType() != init.getType())
      return importer.nodeError(
          node, "carried value " + Twine(i) + " starts as " + describe(init) +
                    " and " + bodyName + " yields " + describe(yielded[1 + i]) +
                    "; a value that changes type or shape from one "
                    "iteration to the next is not supported");

  // The iterations all run when only the count stops the loop: the
  // condition is true and the body passes it on or yields true.
  Value nextCond = yielded[0];
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(&block);
    nextCond = createReshape(importer, node, nextCond,
                             Importer::getType(cond).getShape());
    yielded[0] = nextCond;
    YieldOp::create(b, loc, yielded);
  }
  auto isTrue = [&](Value value) {
    auto known = dyn_cast_or_null<DenseElementsAttr>(importer.foldValue(value));
    return known && known.getValues<bool>()[0];
  };
  bool runsAll = maxTrips && isTrue(cond) &&
                 (nextCond == block.getArgument(1) || isTrue(nextCond));

  int64_t bound = maxTrips ? std::max<int64_t>(*maxTrips, 0) : 0;
  SmallVector<Type> resultTypes(ValueRange(inits).getTypes());
  for (Value row : ArrayRef<Value>(yielded).drop_front(1 + numCarried)) {
    RankedTensorType rowType = Importer::getType(row);
    SmallVector<int64_t> shape{bound};
    llvm::append_range(shape, rowType.getShape());
    resultTypes.push_back(
        importer.getTensorType(shape, rowType.getElementType()));
  }
  resultTypes.push_back(importer.getTensorType({}, b.getI64Type()));
  auto loop = LoopOp::create(b, loc, resultTypes, maxTripCount, cond, inits);
  loop.getBody().push_back(loopBody.release());
  BuiltLoop built;
  llvm::append_range(built.finals, loop.getFinalValues());
  llvm::append_range(built.scans, loop.getScanOutputs());
  if (!runsAll)
    built.count = loop.getIterationCount();
  return built;
}

/// Defines the outputs of `node` as what `loop` computes, `scans` in the
/// place of its scan outputs.
static LogicalResult setLoopOutputs(Importer &importer,
                                    const onnx::NodeProto &node,
                                    const BuiltLoop &loop,
                                    ArrayRef<Value> scans) {
  for (auto [i, value] : llvm::enumerate(loop.finals))
    if (failed(importer.setOutput(node, i, value)))
      return failure();
  for (auto [k, value] : llvm::enumerate(scans)) {
    int index = loop.finals.size() + k;
    LogicalResult defined =
        loop.count
            ? importer.setRunTimeSizeOutput(node, index, value, 0, loop.count)
            : importer.setOutput(node, index, value);
    if (failed(defined))
      return failure();
  }
  return success();
}

/// The inputs of `node` from `first` on, or failure (reported).
static FailureOr<SmallVector<Value>>
getInputs(Importer &importer, const onnx::NodeProto &node, int first) {
  SmallVector<Value> inputs;
  for (int i = first; i < node.input_size(); ++i) {
    FailureOr<Value> input = importer.getInput(node, i);
    if (failed(input))
      return failure();
    inputs.push_back(*input);
  }
  return inputs;
}

/// Input `index` of `node`, a tensor of one element of `elementType`, as a
/// tensor of rank 0; failure (reported, naming it `what`) otherwise.
static FailureOr<Value> getScalarInput(Importer &importer,
                                       const onnx::NodeProto &node, int index,
                                       Type elementType, StringRef what) {
  FailureOr<Value> input = importer.getInput(node, index);
  if (failed(input))
    return failure();
  if (!isScalarOf(*input, elementType))
    return importer.nodeError(
        node, what + " must be " +
                  getElementTypeName(getONNXElementType(elementType)) +
                  " of one element, but it is " + describe(*input));
  return createReshape(importer, node, *input, {});
}

static LogicalResult importLoop(Importer &importer,
                                const onnx::NodeProto &node) {
  const onnx::GraphProto *body = getBranch(importer, node, "body");
  if (!body)
    return failure();
  OpBuilder &b = importer.getBuilder();
  Type i64 = b.getI64Type(), i1 = b.getI1Type();
  int numCarried = node.input_size() - 2;
  if (numCarried < 0)
    return importer.nodeError(node, "has " + Twine(node.input_size()) +
                                        " inputs; it needs at least the trip "
                                        "count and the condition (named or "
                                        "empty)");
  int numScans = node.output_size() - numCarried;
  if (numScans < 0 || body->output_size() != node.output_size() + 1)
    return importer.nodeError(
        node, "has " + Twine(node.output_size()) + " outputs and " +
                  Twine(numCarried) + " carried values, but subgraph '" +
                  body->name() + "' has " + Twine(body->output_size()) +
                  " outputs; it must have one more than the node");

  // The trip count: none when absent; known at import when the loop has
  // scan outputs, as their size.
  std::optional<int64_t> maxTrips;
  Value maxTripCount;
  if (Importer::hasInput(node, 0)) {
    if (const ConstantTensor *m = importer.getConstantInput(
            node, 0, /*decidesShapes=*/numScans > 0)) {
      if (m->getNumElements() != 1 || !m->isInteger())
        return importer.nodeError(node, "the trip count must be one integer");
      maxTrips = m->getInts()[0];
    } else {
      FailureOr<Value> count =
          getScalarInput(importer, node, 0, i64, "the trip count");
      if (failed(count))
        return failure();
      maxTripCount = *count;
    }
  } else {
    maxTrips = std::numeric_limits<int64_t>::max();
  }
  if (!maxTripCount)
    maxTripCount = createI64(importer, node, *maxTrips);
  if (maxTrips == std::numeric_limits<int64_t>::max() && numScans > 0)
    return importer.nodeError(node, "its scan outputs need a trip count, "
                                    "their size; it has none");

  FailureOr<Value> cond =
      Importer::hasInput(node, 1)
          ? getScalarInput(importer, node, 1, i1, "the condition")
          : FailureOr<Value>(createBool(importer, node, true));
  FailureOr<SmallVector<Value>> inits = getInputs(importer, node, 2);
  if (failed(cond) || failed(inits))
    return failure();

  FailureOr<BuiltLoop> loop =
      buildLoop(importer, node, maxTripCount, maxTrips, *cond, *inits,
                "subgraph '" + body->name() + "'", [&](Block &block) {
                  return importLoopBody(importer, node, *body, block);
                });
  if (failed(loop))
    return failure();
  return setLoopOutputs(importer, node, *loop, loop->scans);
}

/// `value` with dimension 0 moved to `axis` (Scan's scan_output_axes).
static Value moveLeadingDim(Importer &importer, const onnx::NodeProto &node,
                            Value value, int64_t axis) {
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < Importer::getType(value).getRank(); ++d)
    perm.push_back(d < axis ? d + 1 : d == axis ? 0 : d);
  return createTranspose(importer, node, value, perm);
}

/// `value` reversed along dimension 0.
static Value reverseLeadingDim(Importer &importer, const onnx::NodeProto &node,
                               Value value) {
  ArrayRef<int64_t> shape = Importer::getType(value).getShape();
  if (shape[0] <= 1)
    return value;
  SmallVector<int64_t> starts(shape.size(), 0), steps(shape.size(), 1);
  starts[0] = shape[0] - 1;
  steps[0] = -1;
  return createSlice(importer, node, value, starts, steps, shape);
}

/// A graph.loop over the rows of `scanInputs` along `axes` (all of one
/// length), running `body` (ONNX Scan's: the states and a row of each scan
/// input in, the states and the scan rows out) per row: each iteration
/// reads row i (or L - 1 - i where `directions` says reversed) of each
/// scan input with a graph.gather. The scan outputs come out stacked along
/// dimension 0, in iteration order.
static FailureOr<BuiltLoop>
buildScan(Importer &importer, const onnx::NodeProto &node,
          const onnx::GraphProto &body, ValueRange states,
          ArrayRef<Value> scanInputs, ArrayRef<int64_t> axes,
          ArrayRef<int64_t> directions) {
  if (body.input_size() != static_cast<int>(states.size() + scanInputs.size()))
    return importer.nodeError(
        node, "subgraph '" + body.name() + "' has " + Twine(body.input_size()) +
                  " inputs; it must have one per state "
                  "and scan input, " +
                  Twine(states.size() + scanInputs.size()));
  int64_t length = -1;
  for (auto [input, axis] : llvm::zip(scanInputs, axes)) {
    int64_t rows = Importer::getType(input).getDimSize(axis);
    if (length >= 0 && rows != length)
      return importer.nodeError(node, "the scan inputs have " + Twine(length) +
                                          " and " + Twine(rows) + " rows");
    length = rows;
  }
  Location loc = importer.getLoc(node);
  OpBuilder &b = importer.getBuilder();
  auto readRows = [&](ValueRange arguments) {
    SmallVector<Value> inputs(arguments.drop_front(2));
    Value iteration = arguments[0];
    Value reversed;
    for (auto [j, input] : llvm::enumerate(scanInputs)) {
      Value index = iteration;
      if (directions[j]) {
        if (!reversed)
          reversed =
              SubOp::create(b, loc, iteration.getType(),
                            createI64(importer, node, length - 1), iteration);
        index = reversed;
      }
      RankedTensorType type = Importer::getType(input);
      SmallVector<int64_t> rowShape(type.getShape());
      rowShape.erase(rowShape.begin() + axes[j]);
      inputs.push_back(GatherOp::create(
          b, loc, importer.getTensorType(rowShape, type.getElementType()),
          input, index, b.getI64IntegerAttr(axes[j])));
    }
    return inputs;
  };
  return buildLoop(importer, node, createI64(importer, node, length), length,
                   createBool(importer, node, true), states,
                   "subgraph '" + body.name() + "'", [&](Block &block) {
                     return importLoopBody(importer, node, body, block,
                                           readRows,
                                           /*yieldsCondition=*/false);
                   });
}

namespace {
/// What both forms of Scan start from: the body, and how many of the
/// inputs are scan inputs and how many states (those before them).
struct ScanNode {
  const onnx::GraphProto *body;
  int64_t numScanInputs;
  int numStates;
};
} // namespace

/// Reads Scan's body and num_scan_inputs; the states are the inputs from
/// `first` up to the scan inputs. Failure (reported) when they do not fit.
static FailureOr<ScanNode> readScanNode(Importer &importer,
                                        const onnx::NodeProto &node,
                                        NodeAttributes &attrs, int first) {
  const onnx::GraphProto *body = getBranch(importer, node, "body");
  FailureOr<int64_t> numScanInputs = attrs.getInt("num_scan_inputs", -1);
  if (!body || failed(numScanInputs))
    return failure();
  int numStates = node.input_size() - first - *numScanInputs;
  if (*numScanInputs < 1 || numStates < 0)
    return importer.nodeError(node, "num_scan_inputs is " +
                                        Twine(*numScanInputs) + " for " +
                                        Twine(node.input_size()) + " inputs");
  return ScanNode{body, *numScanInputs, numStates};
}

/// ONNX Scan from opset 9 on: buildScan, then the scan outputs reversed and
/// moved to their axes as the attributes say.
static LogicalResult importScan(Importer &importer,
                                const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<ScanNode> scan = readScanNode(importer, node, attrs, 0);
  if (failed(scan))
    return failure();
  const onnx::GraphProto *body = scan->body;
  int64_t numScanInputs = scan->numScanInputs;
  int numStates = scan->numStates;
  int numScans = node.output_size() - numStates;
  if (numScans < 0)
    return importer.nodeError(node, "has fewer outputs than its " +
                                        Twine(numStates) + " states");
  FailureOr<SmallVector<int64_t>> inputAxes =
      attrs.getInts("scan_input_axes", SmallVector<int64_t>(numScanInputs, 0));
  FailureOr<SmallVector<int64_t>> inputDirections = attrs.getInts(
      "scan_input_directions", SmallVector<int64_t>(numScanInputs, 0));
  FailureOr<SmallVector<int64_t>> outputAxes =
      attrs.getInts("scan_output_axes", SmallVector<int64_t>(numScans, 0));
  FailureOr<SmallVector<int64_t>> outputDirections = attrs.getInts(
      "scan_output_directions", SmallVector<int64_t>(numScans, 0));
  FailureOr<SmallVector<Value>> inputs = getInputs(importer, node, 0);
  if (failed(inputAxes) || failed(inputDirections) || failed(outputAxes) ||
      failed(outputDirections) || failed(inputs))
    return failure();
  if (inputAxes->size() != static_cast<size_t>(numScanInputs) ||
      inputDirections->size() != static_cast<size_t>(numScanInputs) ||
      outputAxes->size() != static_cast<size_t>(numScans) ||
      outputDirections->size() != static_cast<size_t>(numScans))
    return importer.nodeError(node, "the axes and directions must have one "
                                    "entry per scan input and per scan "
                                    "output");
  ArrayRef<Value> scanInputs = ArrayRef<Value>(*inputs).drop_front(numStates);
  SmallVector<int64_t> axes;
  for (auto [input, axis] : llvm::zip(scanInputs, *inputAxes)) {
    FailureOr<int64_t> normalized =
        normalizeAxis(importer, node, axis, Importer::getType(input).getRank());
    if (failed(normalized))
      return failure();
    axes.push_back(*normalized);
  }
  FailureOr<BuiltLoop> loop =
      buildScan(importer, node, *body,
                ValueRange(ArrayRef<Value>(*inputs).take_front(numStates)),
                scanInputs, axes, *inputDirections);
  if (failed(loop))
    return failure();
  SmallVector<Value> scans;
  for (auto [k, scan] : llvm::enumerate(loop->scans)) {
    Value value = scan;
    if ((*outputDirections)[k])
      value = reverseLeadingDim(importer, node, value);
    FailureOr<int64_t> axis = normalizeAxis(importer, node, (*outputAxes)[k],
                                            Importer::getType(value).getRank());
    if (failed(axis))
      return failure();
    scans.push_back(moveLeadingDim(importer, node, value, *axis));
  }
  return setLoopOutputs(importer, node, *loop, scans);
}

/// ONNX Scan of opset 8: batch-major (the batch along dimension 0, the
/// sequence along 1), the body run per batch element. A graph.loop over the
/// batch whose body reads the element's states and scan inputs and runs
/// buildScan over them; its scan outputs stack the final states and the
/// scan outputs of each element.
static LogicalResult importScan8(Importer &importer,
                                 const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<ScanNode> scan = readScanNode(importer, node, attrs, 1);
  if (failed(scan))
    return failure();
  if (Importer::hasInput(node, 0))
    return importer.nodeError(node, "sequence_lens (rows of different "
                                    "lengths) is not supported");
  const onnx::GraphProto *body = scan->body;
  int64_t numScanInputs = scan->numScanInputs;
  int numStates = scan->numStates;
  FailureOr<SmallVector<int64_t>> directions =
      attrs.getInts("directions", SmallVector<int64_t>(numScanInputs, 0));
  FailureOr<SmallVector<Value>> inputs = getInputs(importer, node, 1);
  if (failed(directions) || failed(inputs))
    return failure();
  if (directions->size() != static_cast<size_t>(numScanInputs))
    return importer.nodeError(node, "directions must have one entry per "
                                    "scan input");
  int64_t batch = -1;
  for (auto [i, input] : llvm::enumerate(*inputs)) {
    RankedTensorType type = Importer::getType(input);
    int64_t minRank = i < static_cast<size_t>(numStates) ? 1 : 2;
    if (type.getRank() < minRank || (batch >= 0 && type.getDimSize(0) != batch))
      return importer.nodeError(
          node, "input " + Twine(i + 1) + " is " + describe(input) +
                    "; every input must have the "
                    "batch along dimension 0" +
                    (minRank == 2 ? " and a sequence along 1" : ""));
    batch = type.getDimSize(0);
  }

  Location loc = importer.getLoc(node);
  OpBuilder &b = importer.getBuilder();
  auto perElement = [&](Block &block) -> FailureOr<SmallVector<Value>> {
    SmallVector<Value> rows;
    for (Value input : *inputs) {
      RankedTensorType type = Importer::getType(input);
      rows.push_back(GatherOp::create(
          b, loc,
          importer.getTensorType(type.getShape().drop_front(),
                                 type.getElementType()),
          input, block.getArgument(0), b.getI64IntegerAttr(0)));
    }
    SmallVector<int64_t> axes(numScanInputs, 0);
    FailureOr<BuiltLoop> inner = buildScan(
        importer, node, *body,
        ValueRange(ArrayRef<Value>(rows).take_front(numStates)),
        ArrayRef<Value>(rows).drop_front(numStates), axes, *directions);
    if (failed(inner))
      return failure();
    SmallVector<Value> yielded{block.getArgument(1)};
    llvm::append_range(yielded, inner->finals);
    llvm::append_range(yielded, inner->scans);
    return yielded;
  };
  FailureOr<BuiltLoop> loop =
      buildLoop(importer, node, createI64(importer, node, batch), batch,
                createBool(importer, node, true), {}, "the loop over the batch",
                perElement);
  if (failed(loop))
    return failure();
  for (auto [i, value] : llvm::enumerate(loop->scans))
    if (failed(importer.setOutput(node, i, value)))
      return failure();
  return success();
}

void mlir::graph::onnx_import::registerControlFlowOps(OpRegistry &registry) {
  registry.on("If", 1, importIf);
  registry.on("Loop", 1, importLoop);
  registry.on("Scan", 8, importScan8);
  registry.on("Scan", 9, importScan);
}

//===----------------------------------------------------------------------===//
// Subgraphs
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<Importer::Entry>>
Importer::importSubgraph(const onnx::NodeProto &node,
                         const onnx::GraphProto &graph, ValueRange inputs) {
  if (graph.input_size() != static_cast<int>(inputs.size()))
    return nodeError(node, "subgraph '" + graph.name() + "' has " +
                               Twine(graph.input_size()) +
                               " inputs; it must have " + Twine(inputs.size()));
  // An input hides a value of the same name around the subgraph.
  for (auto [info, input] : llvm::zip(graph.input(), inputs)) {
    Entry &entry = values[info.name()];
    entry = Entry();
    entry.value = input;
  }
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
      return nodeError(node, "output '" + output.name() + "' of subgraph '" +
                                 graph.name() +
                                 "' is not computed by the subgraph");
    // A failed node has been reported.
    if (it->second.poisoned)
      return failure();
    if (it->second.runTimeShape)
      return nodeError(node, "output '" + output.name() + "' of subgraph '" +
                                 graph.name() +
                                 "' is a shape that only a run decides, "
                                 "which a subgraph cannot yield yet");
    outputs.push_back(it->second);
  }
  return outputs;
}

FailureOr<Importer::SubgraphOutputs>
Importer::importIntoBlock(const onnx::NodeProto &node,
                          const onnx::GraphProto &graph, Block &block,
                          ValueRange inputs) {
  OpBuilder::InsertionGuard guard(builder);
  llvm::StringMap<Entry> outerValues = values;
  auto outerFolded = foldedValues;
  auto outerSums = extentSums;
  auto outerExtents = constantExtents;
  auto outerTypes = declaredTypes;
  builder.setInsertionPointToEnd(&block);
  SubgraphOutputs yielded;
  FailureOr<SmallVector<Entry>> outputs = importSubgraph(node, graph, inputs);
  if (succeeded(outputs)) {
    for (Entry &entry : *outputs) {
      if (!entry.value &&
          !getMLIRElementType(context, entry.constant->elementType)) {
        outputs = nodeError(
            node, "subgraph '" + graph.name() + "' yields a " +
                      getElementTypeName(entry.constant->elementType) +
                      " tensor, which is not supported");
        break;
      }
      yielded.values.push_back(entry.value ? entry.value : materialize(entry));
      yielded.extents.push_back(entry.runTimeExtent);
    }
  }
  values = std::move(outerValues);
  foldedValues = std::move(outerFolded);
  extentSums = std::move(outerSums);
  constantExtents = std::move(outerExtents);
  declaredTypes = std::move(outerTypes);
  if (failed(outputs))
    return failure();
  return yielded;
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

namespace {
/// A branch of an If imported into a block of its own, and what it yields.
struct ImportedBranch : OwnedBlock {
  /// Gives the block to a region, which owns it from then on.
  void moveInto(Region &region) { region.push_back(release()); }

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
    FailureOr<SubgraphOutputs> outputs =
        importIntoBlock(node, *graph, *branch.block);
    if (failed(outputs))
      return failure();
    branch.values = std::move(outputs->values);
    branch.extents = std::move(outputs->extents);
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
