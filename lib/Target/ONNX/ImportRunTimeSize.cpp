//===- ImportRunTimeSize.cpp - Nodes that read values of run-time size ----===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A value of run-time size (Importer::setRunTimeSizeOutput) is its bound and
// the extent of one of its dimensions. A node that reads such values is
// built on their bounds, as any node, and its operator's rule here says what
// becomes of the extent: elementwise operators, gathers, transposes, reshapes
// that keep the dimension whole and the operators that work along another
// axis leave each row where it was, so their outputs carry the same extent
// along the dimension the rule names; a slice of the dimension computes its
// new extent; Shape and Size read the extent (their importers ask
// Importer::getRunTimeExtent). The rows past the extent hold whatever the
// ops compute from the bound's padding, and no rule lets them reach a row
// before it: an operator that would mix them (a reduction or a sort along
// the dimension, NonZero) is refused until it masks them.
//
//===----------------------------------------------------------------------===//

#include "ImportHelpers.h"

#include "llvm/ADT/StringSet.h"

#include <numeric>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::onnx_import;

namespace {

/// The inputs of a node that have run-time size, all of one extent.
struct SizedInputs {
  Value count;
  /// Per input that has run-time size: its index and the dimension.
  SmallVector<std::pair<int, int64_t>> dims;

  std::optional<int64_t> getDim(int input) const {
    for (auto [index, dim] : dims)
      if (index == input)
        return dim;
    return std::nullopt;
  }
};

/// Where one output of a node keeps the extent, or why it cannot.
struct OutputExtent {
  int64_t dim = -1;
  /// The output's extent when the node changes it (a slice); else the
  /// inputs'.
  Value count;
  std::string refusal;

  static OutputExtent at(int64_t dim) { return {dim, {}, {}}; }
  /// The output has no run-time size (a reduction over the extent's
  /// dimension, which the node's importer masked).
  static OutputExtent none() { return {-1, {}, {}}; }
  static OutputExtent refuse(const Twine &why) { return {-1, {}, why.str()}; }
};

/// A rule: where output `output` of `node` (built, of type `type`) keeps the
/// extent of `sized`.
using Rule = OutputExtent (*)(Importer &, const onnx::NodeProto &,
                              const SizedInputs &, int output,
                              RankedTensorType type);

/// Each input of run-time size gives the output dimension it broadcasts to;
/// every other input must broadcast along that dimension (size 1 there).
OutputExtent elementwiseExtent(Importer &importer, const onnx::NodeProto &node,
                               const SizedInputs &sized, int,
                               RankedTensorType type) {
  int64_t rank = type.getRank(), dim = -1;
  for (auto [input, d] : sized.dims) {
    int64_t at = d + rank - importer.getInputType(node, input).getRank();
    if (dim >= 0 && at != dim)
      return OutputExtent::refuse("its inputs of run-time size would meet "
                                  "along different dimensions");
    dim = at;
  }
  for (int i = 0; i < node.input_size(); ++i) {
    if (!Importer::hasInput(node, i) || sized.getDim(i))
      continue;
    RankedTensorType other = importer.getInputType(node, i);
    int64_t at = dim - (rank - other.getRank());
    if (at >= 0 && other.getDimSize(at) != 1)
      return OutputExtent::refuse("input '" + node.input(i) +
                                  "' would have to match its size along "
                                  "dimension " +
                                  Twine(dim) + ", which only a run decides");
  }
  return OutputExtent::at(dim);
}

/// An operator whose output is its first input's elements, converted
/// (CastLike's second input gives only a type).
OutputExtent firstInputExtent(Importer &, const onnx::NodeProto &,
                              const SizedInputs &sized, int, RankedTensorType) {
  if (std::optional<int64_t> dim = sized.getDim(0))
    return OutputExtent::at(*dim);
  return OutputExtent::refuse("its output does not take the size of that "
                              "input");
}

OutputExtent transposeExtent(Importer &importer, const onnx::NodeProto &node,
                             const SizedInputs &sized, int,
                             RankedTensorType type) {
  NodeAttributes attrs(importer, node);
  SmallVector<int64_t> reversed;
  for (int64_t d = type.getRank() - 1; d >= 0; --d)
    reversed.push_back(d);
  FailureOr<SmallVector<int64_t>> perm = attrs.getInts("perm", reversed);
  if (failed(perm))
    return OutputExtent::refuse("perm is not readable");
  return OutputExtent::at(llvm::find(*perm, sized.dims[0].second) -
                          perm->begin());
}

/// Gather: rows of data keep their places around the gathered axis; indices
/// of run-time size give the gathered rows' extent.
OutputExtent gatherExtent(Importer &importer, const onnx::NodeProto &node,
                          const SizedInputs &sized, int, RankedTensorType) {
  if (sized.dims.size() > 1)
    return OutputExtent::refuse("both its inputs have run-time size");
  NodeAttributes attrs(importer, node);
  int64_t dataRank = importer.getInputType(node, 0).getRank();
  int64_t indicesRank = importer.getInputType(node, 1).getRank();
  FailureOr<int64_t> axis = attrs.getInt("axis", 0);
  if (failed(axis))
    return OutputExtent::refuse("axis is not readable");
  if (*axis < 0)
    *axis += dataRank;
  auto [input, dim] = sized.dims[0];
  if (input == 1)
    return OutputExtent::at(*axis + dim);
  // Along the axis, importGatherAlongExtent has taken the node.
  return OutputExtent::at(dim < *axis ? dim : dim + indicesRank - 1);
}

/// GatherND: the rows of indices (all but its last dimension) are the rows
/// of the output.
OutputExtent gatherNDExtent(Importer &importer, const onnx::NodeProto &node,
                            const SizedInputs &sized, int, RankedTensorType) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> batchDims = attrs.getInt("batch_dims", 0);
  auto [input, dim] = sized.dims[0];
  int64_t indicesRank = importer.getInputType(node, 1).getRank();
  if (sized.dims.size() > 1 || input != 1 || failed(batchDims) ||
      *batchDims != 0 || dim == indicesRank - 1)
    return OutputExtent::refuse("only the rows of its indices, without batch "
                                "dimensions, may have run-time size");
  return OutputExtent::at(dim);
}

/// Reshape, Flatten, Squeeze, Unsqueeze, Identity: the dimension must stay
/// whole, with the same elements before and after it.
OutputExtent reshapeExtent(Importer &importer, const onnx::NodeProto &node,
                           const SizedInputs &sized, int,
                           RankedTensorType type) {
  auto [input, dim] = sized.dims[0];
  if (input != 0)
    return OutputExtent::refuse("its shape would depend on the run");
  ArrayRef<int64_t> in = importer.getInputType(node, 0).getShape();
  if (node.op_type() == "Identity")
    return OutputExtent::at(dim);
  int64_t before = 1;
  for (int64_t d = 0; d < dim; ++d)
    before *= in[d];
  SmallVector<int64_t> candidates;
  int64_t product = 1;
  for (int64_t p = 0; p < type.getRank(); ++p) {
    if (product == before && type.getDimSize(p) == in[dim])
      candidates.push_back(p);
    product *= type.getDimSize(p);
  }
  if (candidates.size() == 1)
    return OutputExtent::at(candidates.front());
  return OutputExtent::refuse(candidates.empty()
                                  ? "it would merge or split the dimension "
                                    "whose size only a run decides"
                                  : "the dimension whose size only a run "
                                    "decides is not told apart from others "
                                    "of the same size");
}

/// The operators that work along one axis (or concatenate along it), which
/// must not be the dimension of run-time size.
OutputExtent axisExtent(Importer &importer, const onnx::NodeProto &node,
                        const SizedInputs &sized, int, RankedTensorType type) {
  StringRef op = node.op_type();
  int64_t rank = importer.getInputType(node, 0).getRank();
  bool softmax = op == "Softmax" || op == "LogSoftmax" || op == "Hardmax";
  bool flattensAtAxis = softmax && importer.getOpset() < 13;
  int64_t defaultAxis = 0;
  if (softmax)
    defaultAxis = flattensAtAxis ? 1 : -1;
  else if (op == "TopK" || op == "LpNormalization")
    defaultAxis = -1;
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> axis = attrs.getInt("axis", defaultAxis);
  if (failed(axis))
    return OutputExtent::refuse("axis is not readable");
  if (*axis < 0)
    *axis += rank;
  int64_t dim = sized.dims[0].second;
  if (op == "Concat") {
    for (int i = 0; i < node.input_size(); ++i)
      if (sized.getDim(i) != dim)
        return OutputExtent::refuse("every input it concatenates must have "
                                    "the same run-time extent");
  } else if (sized.dims.size() != 1 || sized.dims[0].first != 0) {
    return OutputExtent::refuse("only its first input may have run-time size");
  }
  // importArgReduce masked the padding: one index, of static size.
  if ((op == "ArgMax" || op == "ArgMin") && dim == *axis)
    return OutputExtent::none();
  if (flattensAtAxis ? dim >= *axis : dim == *axis)
    return OutputExtent::refuse(
        "it works along the dimension whose size only a run decides");
  // ArgMax and ArgMin without keepdims drop the axis.
  bool dropsAxis = type.getRank() < rank;
  return OutputExtent::at(dropsAxis && *axis < dim ? dim - 1 : dim);
}

/// The reductions: along other dimensions the rows stay; over the extent's
/// dimension (importReduce masks the padding) the output is static.
OutputExtent reduceExtent(Importer &importer, const onnx::NodeProto &node,
                          const SizedInputs &sized, int,
                          RankedTensorType type) {
  auto [input, dim] = sized.dims[0];
  if (input != 0)
    return OutputExtent::refuse("its axes would depend on the run");
  NodeAttributes attrs(importer, node);
  int64_t rank = importer.getInputType(node, 0).getRank();
  bool identity = false;
  FailureOr<SmallVector<int64_t>> axes =
      readReduceAxes(importer, node, attrs, rank, identity);
  if (failed(axes))
    return OutputExtent::refuse("its axes are not readable");
  if (llvm::is_contained(*axes, dim))
    return OutputExtent::none();
  if (type.getRank() == rank)
    return OutputExtent::at(dim);
  return OutputExtent::at(
      dim - llvm::count_if(*axes, [&](int64_t axis) { return axis < dim; }));
}

/// Slice: along other dimensions the rows stay; along the dimension of
/// run-time size a slice from a non-negative start with step 1 keeps the
/// rows from `start` up to `end` (from the extent's end when negative).
OutputExtent sliceExtent(Importer &importer, const onnx::NodeProto &node,
                         const SizedInputs &sized, int, RankedTensorType type) {
  auto [input, dim] = sized.dims[0];
  if (sized.dims.size() != 1 || input != 0)
    return OutputExtent::refuse("its starts, ends, axes and steps would "
                                "depend on the run");
  int64_t rank = type.getRank();
  SmallVector<int64_t> starts, ends, axes, steps;
  if (importer.getOpset() < 10) {
    NodeAttributes attrs(importer, node);
    starts = *attrs.getInts("starts", {});
    ends = *attrs.getInts("ends", {});
    axes = *attrs.getInts("axes", {});
  } else {
    // The node was built: its inputs are constants.
    starts = **getConstantInts(importer, node, 1, "starts");
    ends = **getConstantInts(importer, node, 2, "ends");
    if (auto a = getConstantInts(importer, node, 3, "axes"); *a)
      axes = **a;
    if (auto st = getConstantInts(importer, node, 4, "steps"); *st)
      steps = **st;
  }
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t axis = i < axes.size() ? axes[i] : int64_t(i);
    if ((axis < 0 ? axis + rank : axis) != dim)
      continue;
    int64_t step = i < steps.size() ? steps[i] : 1;
    if (step != 1 || starts[i] < 0)
      return OutputExtent::refuse(
          "along the dimension whose size only a run decides, only a slice "
          "from a start that does not count from the end, with step 1, is "
          "supported");
    // extent' = max(0, min(end, extent) - start); a negative end counts
    // from the extent.
    OpBuilder &b = importer.getBuilder();
    Location loc = importer.getLoc(node);
    RankedTensorType scalar = importer.getTensorType({}, b.getI64Type());
    auto constant = [&](int64_t v) {
      return importer.createConstant(
          node, DenseElementsAttr::get(scalar, b.getI64IntegerAttr(v)));
    };
    Value count = sized.count;
    Value end = ends[i] < 0
                    ? AddOp::create(b, loc, scalar, count, constant(ends[i]))
                          .getResult()
                    : MinOp::create(b, loc, scalar, count, constant(ends[i]))
                          .getResult();
    Value kept = SubOp::create(b, loc, scalar, end, constant(starts[i]));
    OutputExtent result = OutputExtent::at(dim);
    result.count = MaxOp::create(b, loc, scalar, kept, constant(0));
    return result;
  }
  return OutputExtent::at(dim);
}

/// Concat along the dimension of run-time size: graph.concat_prefixes of
/// the inputs' valid slices (a static input's are all of it), whose extents
/// may differ. False when it concatenates along another axis (its rule
/// applies then).
FailureOr<bool> importConcatOfPrefixes(Importer &importer,
                                       const onnx::NodeProto &node) {
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> axis = attrs.getInt("axis", 0);
  if (failed(axis))
    return failure();
  int64_t rank = importer.getInputType(node, 0).getRank();
  if (*axis < 0)
    *axis += rank;
  if (llvm::none_of(llvm::seq(node.input_size()), [&](int i) {
        std::optional<Importer::RunTimeExtent> extent =
            importer.getRunTimeExtent(node, i);
        return extent && extent->dim == *axis;
      }))
    return false;
  OpBuilder &b = importer.getBuilder();
  Location loc = importer.getLoc(node);
  RankedTensorType scalar = importer.getTensorType({}, b.getI64Type());
  SmallVector<Value> inputs, counts;
  SmallVector<int64_t> shape;
  Type elementType;
  for (int i = 0; i < node.input_size(); ++i) {
    FailureOr<Value> input = importer.getInput(node, i);
    if (failed(input))
      return failure();
    RankedTensorType type = Importer::getType(*input);
    std::optional<Importer::RunTimeExtent> extent =
        importer.getRunTimeExtent(node, i);
    if (extent && extent->dim != *axis)
      return importer.nodeError(
          node, "input '" + node.input(i) +
                    "' has a size that only a run decides along another "
                    "dimension than the axis it is concatenated along");
    if (i == 0) {
      shape.assign(type.getShape().begin(), type.getShape().end());
      shape[*axis] = 0;
      elementType = type.getElementType();
    }
    bool matches =
        type.getRank() == rank && type.getElementType() == elementType;
    for (int64_t d = 0; matches && d < rank; ++d)
      matches = d == *axis || type.getDimSize(d) == shape[d];
    if (!matches)
      return importer.nodeError(node, "input '" + node.input(i) +
                                          "' does not concatenate with the "
                                          "others along axis " +
                                          Twine(*axis));
    shape[*axis] += type.getDimSize(*axis);
    inputs.push_back(*input);
    counts.push_back(
        extent ? extent->count
               : importer.getConstantExtent(node, type.getDimSize(*axis)));
  }
  auto op = ConcatPrefixesOp::create(
      b, loc, TypeRange{importer.getTensorType(shape, elementType), scalar},
      inputs, counts, b.getI64IntegerAttr(*axis));
  // The op's count, as one value for every Concat of the same extents.
  Value count = counts.front();
  for (Value next : ArrayRef(counts).drop_front())
    count = importer.addExtents(node, count, next);
  if (failed(
          importer.setRunTimeSizeOutput(node, 0, op.getOutput(), *axis, count)))
    return failure();
  return true;
}

/// Whether input 0 of `node` has run-time size along the node's `axis`
/// attribute (`defaultAxis` when absent).
FailureOr<bool> isAlongExtent(Importer &importer, const onnx::NodeProto &node,
                              int64_t defaultAxis) {
  std::optional<Importer::RunTimeExtent> extent =
      importer.getRunTimeExtent(node, 0);
  NodeAttributes attrs(importer, node);
  FailureOr<int64_t> axis = attrs.getInt("axis", defaultAxis);
  if (failed(axis))
    return failure();
  if (*axis < 0)
    *axis += importer.getInputType(node, 0).getRank();
  return extent && extent->dim == *axis;
}

/// The operator's own importer when input 0 has run-time size along the
/// node's axis; false otherwise (the operator's rule applies).
template <OpImporter build, int64_t defaultAxis>
FailureOr<bool> importAlongExtent(Importer &importer,
                                  const onnx::NodeProto &node) {
  FailureOr<bool> along = isAlongExtent(importer, node, defaultAxis);
  if (failed(along) || !*along)
    return along;
  if (failed(build(importer, node)))
    return failure();
  return true;
}

/// An importer for nodes that read values of run-time size in a way the
/// operator's own importer does not know; false leaves the node to it and
/// the operator's rule.
using ExtentImporter = FailureOr<bool> (*)(Importer &, const onnx::NodeProto &);

struct RuleTable {
  llvm::StringMap<Rule> rules;
  /// Operators whose importers read the extent themselves.
  llvm::StringSet<> readers;
  llvm::StringMap<ExtentImporter> importers;

  RuleTable() {
    for (StringRef op : {"Add",         "Sub",
                         "Mul",         "Div",
                         "Pow",         "Mod",
                         "BitShift",    "Min",
                         "Max",         "Sum",
                         "Mean",        "Neg",
                         "Abs",         "Reciprocal",
                         "Exp",         "Log",
                         "Sqrt",        "Floor",
                         "Ceil",        "Relu",
                         "Sigmoid",     "Tanh",
                         "Sin",         "Cos",
                         "Tan",         "Asin",
                         "Acos",        "Atan",
                         "Sign",        "Erf",
                         "Sinh",        "Cosh",
                         "Asinh",       "Acosh",
                         "Atanh",       "Round",
                         "Softplus",    "IsNaN",
                         "IsInf",       "Equal",
                         "Less",        "Greater",
                         "LessOrEqual", "GreaterOrEqual",
                         "And",         "Or",
                         "Xor",         "Not",
                         "Where",       "Cast",
                         "Clip",        "LeakyRelu",
                         "Elu",         "Selu",
                         "HardSigmoid", "Softsign",
                         "Shrink",      "ThresholdedRelu",
                         "Celu",        "HardSwish",
                         "Mish",        "Gelu",
                         "PRelu"})
      rules[op] = elementwiseExtent;
    rules["CastLike"] = firstInputExtent;
    rules["Transpose"] = transposeExtent;
    rules["Gather"] = gatherExtent;
    rules["GatherND"] = gatherNDExtent;
    for (StringRef op :
         {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity"})
      rules[op] = reshapeExtent;
    for (StringRef op : {"Concat", "Split", "Softmax", "LogSoftmax", "Hardmax",
                         "TopK", "ArgMax", "ArgMin", "LpNormalization"})
      rules[op] = axisExtent;
    for (StringRef op : {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin",
                         "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum",
                         "ReduceLogSumExp", "ReduceSumSquare"})
      rules[op] = reduceExtent;
    rules["Slice"] = sliceExtent;
    importers["Concat"] = importConcatOfPrefixes;
    // TopK becomes graph.top_k_prefix over the valid elements; Gather
    // counts negative indices from the extent (and its output takes the
    // indices' extent, if any).
    importers["TopK"] = importAlongExtent<importTopK, -1>;
    importers["Gather"] = importAlongExtent<importGather, 0>;
    readers.insert("Shape");
    readers.insert("Size");
    readers.insert("NonZero");
    readers.insert("NonMaxSuppression");
  }
};

const RuleTable &getRuleTable() {
  static const RuleTable table;
  return table;
}

} // namespace

Value mlir::graph::onnx_import::maskPastExtent(Importer &importer,
                                               const onnx::NodeProto &node,
                                               Value x, int64_t dim,
                                               Value count, double fill) {
  RankedTensorType type = Importer::getType(x);
  OpBuilder &b = importer.getBuilder();
  SmallVector<int64_t> shape(type.getRank(), 1);
  shape[dim] = type.getDimSize(dim);
  SmallVector<int64_t> positions(shape[dim]);
  std::iota(positions.begin(), positions.end(), 0);
  Value iota = importer.createConstant(
      node,
      DenseElementsAttr::get(importer.getTensorType(shape, b.getI64Type()),
                             ArrayRef<int64_t>(positions)));
  Value valid = createCompare<LessOp>(importer, node, iota, count);
  return createWhere(
      importer, node, valid, x,
      createSplat(importer, node, {}, type.getElementType(), fill));
}

LogicalResult Importer::importRunTimeSized(
    const onnx::NodeProto &node,
    LogicalResult (*build)(Importer &, const onnx::NodeProto &)) {
  const RuleTable &table = getRuleTable();
  auto buildReading = [&](auto build, bool defer) {
    readingRunTimeSize = true;
    deferOutputChecks = defer;
    auto built = build(*this, node);
    readingRunTimeSize = deferOutputChecks = false;
    return built;
  };
  if (auto importer = table.importers.find(node.op_type());
      importer != table.importers.end()) {
    FailureOr<bool> imported = buildReading(importer->second, /*defer=*/false);
    if (failed(imported) || *imported)
      return imported;
  }
  // They read the extents of their inputs themselves.
  if (table.readers.contains(node.op_type()))
    return buildReading(build, /*defer=*/false);
  SizedInputs sized;
  std::string first;
  for (int i = 0; i < node.input_size(); ++i) {
    std::optional<RunTimeExtent> extent = getRunTimeExtent(node, i);
    if (!extent)
      continue;
    if (first.empty())
      first = node.input(i);
    if (sized.count && sized.count != extent->count)
      return nodeError(node, "inputs '" + first + "' and '" + node.input(i) +
                                 "' have sizes that a run decides "
                                 "separately, which is not supported");
    sized.count = extent->count;
    sized.dims.push_back({i, extent->dim});
  }
  auto refuse = [&](const Twine &why) {
    return nodeError(node, "input '" + first +
                               "' has a size that only a run decides; " + why);
  };
  auto rule = table.rules.find(node.op_type());
  if (rule == table.rules.end())
    return refuse(node.op_type() + " cannot take such a value yet (a model "
                                   "output can)");
  if (failed(buildReading(build, /*defer=*/true)))
    return failure();
  for (int i = 0; i < node.output_size(); ++i) {
    StringRef name = node.output(i);
    if (name.empty())
      continue;
    Entry &entry = values[name];
    // An output the node computes from static sizes only (a constant).
    if (!entry.value)
      continue;
    RankedTensorType type = getType(entry.value);
    OutputExtent extent = rule->second(*this, node, sized, i, type);
    if (!extent.refusal.empty())
      return refuse(extent.refusal);
    if (extent.dim < 0) {
      if (failed(checkDeclaredType(node, name, type)))
        return failure();
      continue;
    }
    entry.runTimeExtent =
        RunTimeExtent{extent.dim, extent.count ? extent.count : sized.count};
    if (failed(checkDeclaredType(node, name, type, extent.dim)))
      return failure();
  }
  return success();
}
