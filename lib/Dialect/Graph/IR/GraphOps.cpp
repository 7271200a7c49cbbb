//===- GraphOps.cpp - Verifiers and interfaces of the graph ops -*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Op verifiers (one per rule of the spec, naming the operand or attribute at
// fault), memory effects and the assembly hooks that ODS leaves to C++.
//
//===----------------------------------------------------------------------===//

#include "VerifyUtils.h"

#include "graph/Dialect/Graph/IR/FoldLimits.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/ReferenceKernels.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::graph;

//===----------------------------------------------------------------------===//
// Verifier helpers
//===----------------------------------------------------------------------===//

/// Prints a shape as `[2, 3]`, so that a rank-0 shape still shows (`[]`).
static std::string formatShape(ArrayRef<int64_t> shape) {
  std::string str;
  llvm::raw_string_ostream os(str);
  os << '[';
  llvm::interleaveComma(shape, os);
  os << ']';
  return str;
}

static ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

/// Checks that `value` (described by `what`, e.g. "operand 'weight'") is a
/// statically shaped ranked tensor of f32, the only type compute ops take,
/// of a size that fits int64.
static LogicalResult checkStaticF32(Operation *op, Value value,
                                    const Twine &what) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (type && type.hasStaticShape() && type.getElementType().isF32())
    return checkTensorSize(op, type, what);
  return op->emitOpError() << what
                           << " must be a statically shaped tensor of f32, "
                              "but got "
                           << value.getType();
}

/// Applies checkStaticF32 to the operands, named one for one by `names`
/// (optional operands come last and may be absent), and to the result.
static LogicalResult checkComputeTypes(Operation *op,
                                       ArrayRef<StringRef> names) {
  assert(op->getNumOperands() <= names.size() && "an operand has no name");
  for (auto [operand, name] : llvm::zip(op->getOperands(), names))
    if (failed(checkStaticF32(op, operand, "operand '" + name + "'")))
      return failure();
  return checkStaticF32(op, op->getResult(0), "result 'output'");
}

static LogicalResult checkRank(Operation *op, Value value, StringRef name,
                               int64_t rank, StringRef layout = "") {
  int64_t actual = shapeOf(value).size();
  if (actual == rank)
    return success();
  InFlightDiagnostic diag = op->emitOpError() << "operand '" << name
                                              << "' must have rank " << rank;
  if (!layout.empty())
    diag << " (" << layout << ")";
  return diag << ", but got rank " << actual;
}

/// Checks that the array attribute `name` has `size` entries, each >= `min`.
static LogicalResult checkArray(Operation *op, StringRef name,
                                ArrayRef<int64_t> values, size_t size,
                                int64_t min) {
  if (values.size() != size)
    return op->emitOpError() << "attribute '" << name << "' must have " << size
                             << " elements, but got " << values.size();
  if (llvm::any_of(values, [&](int64_t v) { return v < min; }))
    return op->emitOpError()
           << "attribute '" << name << "' must have elements >= " << min
           << ", but got " << formatShape(values);
  return success();
}

/// Checks that the result has shape `expected` (its element type is already
/// known to be f32).
static LogicalResult checkResultShape(Operation *op,
                                      ArrayRef<int64_t> expected) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  if (type.getShape() == expected)
    return success();
  return op->emitOpError() << "result type " << type << " does not match "
                           << "the expected "
                           << RankedTensorType::get(expected,
                                                    type.getElementType());
}

/// Computes the N x C x OH x OW result shape of a 2-D sliding window op on the
/// N x C x H x W `input`: OH = floor((H + top + bottom - extent) / stride) + 1,
/// likewise OW, where `extent` is the (dilated) window size per axis. The
/// numerator is checked before dividing, since C++ division truncates toward
/// zero and would turn a small negative numerator into OH = 1.
static FailureOr<SmallVector<int64_t>>
windowOutputShape(Operation *op, ArrayRef<int64_t> input, int64_t channels,
                  ArrayRef<int64_t> extent, ArrayRef<int64_t> strides,
                  ArrayRef<int64_t> padding, StringRef window) {
  SmallVector<int64_t> shape = {input[0], channels};
  for (int axis : {0, 1}) {
    StringRef dim = axis ? "width" : "height";
    std::optional<int64_t> padded =
        llvm::checkedAdd(input[2 + axis], padding[axis]);
    if (padded)
      padded = llvm::checkedAdd(*padded, padding[2 + axis]);
    if (!padded)
      return op->emitOpError() << "attribute 'padding' overflows the padded "
                                  "input "
                               << dim;
    if (*padded < extent[axis])
      return op->emitOpError()
             << "padded input " << dim << " (" << input[2 + axis] << " + "
             << padding[axis] << " + " << padding[2 + axis]
             << ") is smaller than the " << window << " (" << extent[axis]
             << "): the output would be empty";
    shape.push_back((*padded - extent[axis]) / strides[axis] + 1);
  }
  return shape;
}

/// The product of `dims`, or nullopt on overflow.
static std::optional<int64_t> product(ArrayRef<int64_t> dims) {
  std::optional<int64_t> result = 1;
  for (int64_t dim : dims)
    if (!(result = llvm::checkedMul(*result, dim)))
      return std::nullopt;
  return result;
}

/// Normalizes `axis` into [0, rank) when it lies in [-rank, rank + extra).
static FailureOr<int64_t> checkAxis(Operation *op, int64_t axis, int64_t rank,
                                    int64_t extra = 0) {
  if (axis >= -rank && axis < rank + extra)
    return axis < 0 ? axis + rank : axis;
  return op->emitOpError() << "attribute 'axis' must be in [" << -rank << ", "
                           << rank + extra - 1 << "], but got " << axis;
}

/// An N x C x H x W shape in NHWC order.
static SmallVector<int64_t> toNHWC(ArrayRef<int64_t> nchw) {
  return {nchw[0], nchw[2], nchw[3], nchw[1]};
}

/// An N x H x W x C shape in NCHW order.
static SmallVector<int64_t> toNCHW(ArrayRef<int64_t> nhwc) {
  return {nhwc[0], nhwc[3], nhwc[1], nhwc[2]};
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

void ConstantOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "cst");
}

LogicalResult ConstantOp::verify() {
  // ODS checks that the value has the result's static tensor type. What it
  // cannot see is a type too large to count its bytes, or a resource blob
  // whose size disagrees with that type, which would make every reader of
  // the constant go out of bounds.
  auto type = dyn_cast<RankedTensorType>(getType());
  if (type && type.hasStaticShape() &&
      failed(checkTensorSize(*this, type, "result 'output'")))
    return failure();
  auto resource = dyn_cast<DenseResourceElementsAttr>(getValue());
  if (!resource)
    return success();
  const AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  Type elementType = resource.getType().getElementType();
  if (!blob || !elementType.isIntOrFloat() ||
      elementType.getIntOrFloatBitWidth() % 8 != 0)
    return success();
  int64_t expected = resource.getType().getNumElements() *
                     (elementType.getIntOrFloatBitWidth() / 8);
  if (static_cast<int64_t>(blob->getData().size()) == expected)
    return success();
  return emitOpError() << "attribute 'value' holds " << blob->getData().size()
                       << " bytes, but its type " << resource.getType()
                       << " needs " << expected;
}

//===----------------------------------------------------------------------===//
// Convolution and normalization
//===----------------------------------------------------------------------===//

LogicalResult Conv2DOp::verify() {
  bool nhwc = getLayout() == Layout::NHWC;
  if (failed(checkComputeTypes(*this, {"input", "weight", "bias"})) ||
      failed(checkRank(*this, getInput(), "input", 4,
                       nhwc ? "N x H x W x C" : "N x C x H x W")))
    return failure();
  if (getPackedWeight()) {
    if (getGroups() != 1)
      return emitOpError() << "'packed_weight' needs groups = 1";
    if (failed(checkRank(*this, getWeight(), "weight", 5,
                         "F/f0 x KH x KW x C x f0 (packed_weight)")))
      return failure();
  } else if (failed(checkRank(*this, getWeight(), "weight", 4,
                              nhwc ? "KH x KW x C/groups x F"
                                   : "F x C/groups x KH x KW"))) {
    return failure();
  }
  // The checks below read NCHW and FCHW; an NHWC conv's shapes are permuted
  // into those orders first, and the dimension numbers of the messages
  // follow its own order.
  SmallVector<int64_t> input(shapeOf(getInput()));
  SmallVector<int64_t> weight(shapeOf(getWeight()));
  if (getPackedWeight()) {
    if (nhwc)
      input = toNCHW(input);
    ArrayRef<int64_t> packed = shapeOf(getWeight());
    weight = {packed[0] * packed[4], packed[3], packed[1], packed[2]};
  } else if (nhwc) {
    input = toNCHW(input);
    ArrayRef<int64_t> hwcf = shapeOf(getWeight());
    weight = {hwcf[3], hwcf[2], hwcf[0], hwcf[1]};
  }
  int64_t weightChannelDim = getPackedWeight() ? 3 : nhwc ? 2 : 1;
  int64_t channels = input[1], filters = weight[0], groups = getGroups();
  if (groups < 1)
    return emitOpError() << "attribute 'groups' must be >= 1, but got "
                         << groups;
  if (channels % groups != 0)
    return emitOpError() << "attribute 'groups' (" << groups
                         << ") must divide the input channels (" << channels
                         << ")";
  if (filters % groups != 0)
    return emitOpError() << "attribute 'groups' (" << groups
                         << ") must divide the output channels (" << filters
                         << ")";
  if (weight[1] != channels / groups)
    return emitOpError() << "operand 'weight' dim " << weightChannelDim
                         << " must be C/groups = " << channels / groups
                         << ", but got " << weight[1];
  if (Value bias = getBias()) {
    if (shapeOf(bias) != ArrayRef<int64_t>(filters))
      return emitOpError() << "operand 'bias' must be 1-D of size " << filters
                           << " (the output channels), but got "
                           << bias.getType();
  }
  ArrayRef<int64_t> strides = getStrides(), dilations = getDilations(),
                    padding = getPadding();
  if (failed(checkArray(*this, "strides", strides, 2, 1)) ||
      failed(checkArray(*this, "dilations", dilations, 2, 1)) ||
      failed(checkArray(*this, "padding", padding, 4, 0)))
    return failure();
  if (weight[2] < 1 || weight[3] < 1)
    return emitOpError() << "operand 'weight' must have a non-empty kernel, "
                            "but got "
                         << getWeight().getType();
  SmallVector<int64_t> extent;
  for (int axis : {0, 1}) {
    std::optional<int64_t> span =
        llvm::checkedMul(dilations[axis], weight[2 + axis] - 1);
    if (span)
      span = llvm::checkedAdd(*span, int64_t(1));
    if (!span)
      return emitOpError() << "attribute 'dilations' makes the kernel extent "
                              "overflow";
    extent.push_back(*span);
  }
  FailureOr<SmallVector<int64_t>> shape =
      windowOutputShape(*this, input, filters, extent, strides, padding,
                        "dilated kernel of operand 'weight'");
  if (failed(shape))
    return failure();
  return checkResultShape(*this, nhwc ? toNHWC(*shape) : *shape);
}

LogicalResult BatchNormOp::verify() {
  if (failed(checkComputeTypes(*this,
                               {"input", "scale", "bias", "mean", "variance"})))
    return failure();
  bool nhwc = getLayout() == Layout::NHWC;
  ArrayRef<int64_t> input = shapeOf(getInput());
  if (nhwc && failed(checkRank(*this, getInput(), "input", 4, "N x H x W x C")))
    return failure();
  if (input.size() < 2)
    return emitOpError() << "operand 'input' must have rank >= 2 (channels "
                            "on dim 1), but got rank "
                         << input.size();
  int64_t channelDim = nhwc ? 3 : 1;
  std::pair<Value, StringRef> params[] = {{getScale(), "scale"},
                                          {getBias(), "bias"},
                                          {getMean(), "mean"},
                                          {getVariance(), "variance"}};
  for (auto [param, name] : params)
    if (shapeOf(param) != ArrayRef<int64_t>(input[channelDim]))
      return emitOpError() << "operand '" << name << "' must be 1-D of size "
                           << input[channelDim] << " (input dim " << channelDim
                           << "), but got " << param.getType();
  return checkResultShape(*this, input);
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

// The result type equals the input type by AllTypesMatch; only the tensor
// type itself is left to check.
LogicalResult ReluOp::verify() { return checkComputeTypes(*this, {"x"}); }
LogicalResult ClipOp::verify() { return checkComputeTypes(*this, {"x"}); }
LogicalResult SigmoidOp::verify() { return checkComputeTypes(*this, {"x"}); }
LogicalResult TanhOp::verify() { return checkComputeTypes(*this, {"x"}); }

/// Verifies an elementwise binary op: NumPy broadcasting of lhs and rhs, and
/// a result of the broadcast shape.
static LogicalResult verifyBroadcastOp(Operation *op) {
  // Widened beyond f32: every numeric type (integers wrap).
  if (failed(checkOperandsOf(op, {"lhs", "rhs"}, TypeClass::Numeric)))
    return failure();
  ArrayRef<int64_t> lhs = shapeOf(op->getOperand(0));
  ArrayRef<int64_t> rhs = shapeOf(op->getOperand(1));
  std::optional<SmallVector<int64_t>> shape =
      reference::broadcastShapes(lhs, rhs);
  if (!shape)
    return op->emitOpError()
           << "operands 'lhs' of shape " << formatShape(lhs)
           << " and 'rhs' of shape " << formatShape(rhs) << " do not broadcast";
  return checkResultShape(op, *shape);
}

LogicalResult AddOp::verify() { return verifyBroadcastOp(*this); }
LogicalResult SubOp::verify() { return verifyBroadcastOp(*this); }
LogicalResult MulOp::verify() { return verifyBroadcastOp(*this); }
LogicalResult DivOp::verify() { return verifyBroadcastOp(*this); }

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

/// Checks a `packed_b` operand, N/n0 x K x n0, against K and sets `n` to
/// the matrix's N.
static LogicalResult checkPackedB(Operation *op, Value b, int64_t k,
                                  int64_t &n) {
  if (failed(checkRank(op, b, "b", 3, "N/n0 x K x n0 (packed_b)")))
    return failure();
  ArrayRef<int64_t> packed = shapeOf(b);
  if (packed[1] != k)
    return op->emitOpError() << "operand 'b' (packed_b) dim 1 must be K = " << k
                             << ", not " << packed[1];
  n = packed[0] * packed[2];
  return success();
}

LogicalResult MatMulOp::verify() {
  if (failed(checkComputeTypes(*this, {"a", "b"})) ||
      failed(checkRank(*this, getA(), "a", 2, "M x K")))
    return failure();
  ArrayRef<int64_t> a = shapeOf(getA());
  int64_t n;
  if (getPackedB()) {
    if (failed(checkPackedB(*this, getB(), a[1], n)))
      return failure();
    return checkResultShape(*this, {a[0], n});
  }
  if (failed(checkRank(*this, getB(), "b", 2, "K x N")))
    return failure();
  ArrayRef<int64_t> b = shapeOf(getB());
  if (a[1] != b[0])
    return emitOpError() << "operand 'a' dim 1 (K = " << a[1]
                         << ") must equal operand 'b' dim 0 (" << b[0] << ")";
  return checkResultShape(*this, {a[0], b[1]});
}

LogicalResult GemmOp::verify() {
  if (failed(checkComputeTypes(*this, {"a", "b", "c"})) ||
      failed(checkRank(*this, getA(), "a", 2)))
    return failure();
  ArrayRef<int64_t> a = shapeOf(getA());
  int64_t m = getTransA() ? a[1] : a[0], k = getTransA() ? a[0] : a[1];
  int64_t kb = k, n;
  if (getPackedB()) {
    if (getTransB())
      return emitOpError() << "'packed_b' and 'trans_b' exclude each other: "
                              "a packed 'b' is packed from b'";
    if (failed(checkPackedB(*this, getB(), k, n)))
      return failure();
  } else {
    if (failed(checkRank(*this, getB(), "b", 2)))
      return failure();
    ArrayRef<int64_t> b = shapeOf(getB());
    kb = getTransB() ? b[1] : b[0];
    n = getTransB() ? b[0] : b[1];
  }
  if (k != kb)
    return emitOpError() << "operand 'a' gives K = " << k
                         << " but operand 'b' gives K = " << kb
                         << " (after 'trans_a' and 'trans_b')";
  if (Value c = getC()) {
    // Unidirectional broadcasting: c aligns from the right with M x N.
    ArrayRef<int64_t> cShape = shapeOf(c);
    int64_t mn[] = {m, n};
    bool ok = cShape.size() <= 2;
    for (size_t i = 0; ok && i < cShape.size(); ++i) {
      int64_t dim = cShape[cShape.size() - 1 - i];
      ok = dim == 1 || dim == mn[1 - i];
    }
    if (!ok)
      return emitOpError() << "operand 'c' of shape " << formatShape(cShape)
                           << " does not broadcast to M x N = "
                           << formatShape(mn);
  }
  return checkResultShape(*this, {m, n});
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// Verifies max_pool2d and avg_pool2d, which share their sizes.
static LogicalResult verifyPool2D(Operation *op, Value x,
                                  ArrayRef<int64_t> kernel,
                                  ArrayRef<int64_t> strides,
                                  ArrayRef<int64_t> padding, Layout layout) {
  bool nhwc = layout == Layout::NHWC;
  if (failed(checkComputeTypes(op, {"x"})) ||
      failed(
          checkRank(op, x, "x", 4, nhwc ? "N x H x W x C" : "N x C x H x W")) ||
      failed(checkArray(op, "kernel", kernel, 2, 1)) ||
      failed(checkArray(op, "strides", strides, 2, 1)) ||
      failed(checkArray(op, "padding", padding, 4, 0)))
    return failure();
  // A pad as large as the kernel would allow a window of padding only.
  for (int i = 0; i < 4; ++i)
    if (padding[i] >= kernel[i % 2])
      return op->emitOpError()
             << "attribute 'padding' must be smaller than the kernel on its "
                "axis, but got "
             << padding[i] << " for a kernel of " << kernel[i % 2];
  SmallVector<int64_t> input(shapeOf(x));
  if (nhwc)
    input = toNCHW(input);
  FailureOr<SmallVector<int64_t>> shape = windowOutputShape(
      op, input, input[1], kernel, strides, padding, "attribute 'kernel'");
  if (failed(shape))
    return failure();
  return checkResultShape(op, nhwc ? toNHWC(*shape) : *shape);
}

LogicalResult MaxPool2DOp::verify() {
  return verifyPool2D(*this, getX(), getKernel(), getStrides(), getPadding(),
                      getLayout());
}

LogicalResult AvgPool2DOp::verify() {
  return verifyPool2D(*this, getX(), getKernel(), getStrides(), getPadding(),
                      getLayout());
}

LogicalResult GlobalAvgPoolOp::verify() {
  bool nhwc = getLayout() == Layout::NHWC;
  if (failed(checkComputeTypes(*this, {"x"})) ||
      failed(checkRank(*this, getX(), "x", 4,
                       nhwc ? "N x H x W x C" : "N x C x H x W")))
    return failure();
  ArrayRef<int64_t> x = shapeOf(getX());
  if (nhwc)
    return checkResultShape(*this, {x[0], 1, 1, x[3]});
  return checkResultShape(*this, {x[0], x[1], 1, 1});
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  // Widened beyond f32: data movement takes any element type.
  if (failed(checkOperandsOf(*this, {"x"}, TypeClass::Any)))
    return failure();
  ArrayRef<int64_t> shape = getShape();
  for (auto [i, dim] : llvm::enumerate(shape))
    if (dim < 0)
      return emitOpError() << "attribute 'shape' must be static, but entry "
                           << i << " is " << dim << " (-1 is not inferred)";
  std::optional<int64_t> count = product(shape);
  int64_t expected = cast<RankedTensorType>(getX().getType()).getNumElements();
  if (count != expected)
    return emitOpError() << "attribute 'shape' " << formatShape(shape)
                         << " must hold as many elements as operand 'x' ("
                         << expected << ")";
  return checkResultShape(*this, shape);
}

LogicalResult FlattenOp::verify() {
  // Widened beyond f32: data movement takes any element type.
  if (failed(checkOperandsOf(*this, {"x"}, TypeClass::Any)))
    return failure();
  ArrayRef<int64_t> x = shapeOf(getX());
  FailureOr<int64_t> axis = checkAxis(*this, getAxis(), x.size(), 1);
  if (failed(axis))
    return failure();
  std::optional<int64_t> outer = product(x.take_front(*axis));
  std::optional<int64_t> inner = product(x.drop_front(*axis));
  if (!outer || !inner)
    return emitOpError() << "flattened size overflows";
  return checkResultShape(*this, {*outer, *inner});
}

LogicalResult TransposeOp::verify() {
  // Widened beyond f32: data movement takes any element type.
  if (failed(checkOperandsOf(*this, {"x"}, TypeClass::Any)))
    return failure();
  ArrayRef<int64_t> x = shapeOf(getX()), perm = getPerm();
  if (perm.size() != x.size())
    return emitOpError() << "attribute 'perm' must have " << x.size()
                         << " elements (the rank of operand 'x'), but got "
                         << perm.size();
  SmallVector<bool> seen(x.size(), false);
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(x.size()) || seen[p])
      return emitOpError() << "attribute 'perm' must be a permutation of 0.."
                           << x.size() - 1 << ", but got " << formatShape(perm);
    seen[p] = true;
    shape.push_back(x[p]);
  }
  return checkResultShape(*this, shape);
}

LogicalResult ConcatOp::verify() {
  OperandRange inputs = getInputs();
  if (inputs.empty())
    return emitOpError() << "operand 'inputs' must hold at least one tensor";
  // Widened beyond f32: any element type, one for all inputs and the result.
  for (auto [i, input] : llvm::enumerate(inputs))
    if (failed(checkTensorOf(*this, input, "operand 'inputs' #" + Twine(i),
                             TypeClass::Any)) ||
        failed(checkSameElementType(*this, inputs[0], "operand 'inputs' #0",
                                    input, "operand 'inputs' #" + Twine(i))))
      return failure();
  if (failed(checkTensorOf(*this, getOutput(), "result 'output'",
                           TypeClass::Any)) ||
      failed(checkSameElementType(*this, inputs[0], "operand 'inputs' #0",
                                  getOutput(), "result 'output'")))
    return failure();
  SmallVector<int64_t> shape(shapeOf(inputs[0]));
  FailureOr<int64_t> axis = checkAxis(*this, getAxis(), shape.size());
  if (failed(axis))
    return failure();
  for (auto [i, input] : llvm::enumerate(inputs.drop_front())) {
    ArrayRef<int64_t> other = shapeOf(input);
    if (other.size() != shape.size())
      return emitOpError() << "operand 'inputs' #" << i + 1 << " has rank "
                           << other.size() << ", but operand 'inputs' #0 has "
                           << "rank " << shape.size();
    for (size_t d = 0; d < shape.size(); ++d)
      if (d != static_cast<size_t>(*axis) && other[d] != shape[d])
        return emitOpError()
               << "operand 'inputs' #" << i + 1 << " has dim " << d << " = "
               << other[d] << ", but operand 'inputs' #0 has " << shape[d];
    std::optional<int64_t> sum = llvm::checkedAdd(shape[*axis], other[*axis]);
    if (!sum)
      return emitOpError() << "concatenated size overflows";
    shape[*axis] = *sum;
  }
  return checkResultShape(*this, shape);
}

LogicalResult SoftmaxOp::verify() {
  if (failed(checkComputeTypes(*this, {"x"})))
    return failure();
  return checkAxis(*this, getAxis(), shapeOf(getX()).size());
}

/// Checks a normalization over the dimensions of `x` from `axis` on: f32
/// operands, the optional `params` of the row's shape, the result of x's
/// type.
static LogicalResult
verifyNormalization(Operation *op, Value x, int64_t axis,
                    ArrayRef<std::pair<Value, StringRef>> params) {
  if (failed(checkStaticF32(op, x, "operand 'x'")) ||
      failed(checkStaticF32(op, op->getResult(0), "result 'output'")))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(x);
  if (shape.empty())
    return op->emitOpError() << "operand 'x' must have rank >= 1";
  FailureOr<int64_t> first = checkAxis(op, axis, shape.size());
  if (failed(first))
    return failure();
  ArrayRef<int64_t> row = shape.drop_front(*first);
  for (auto [value, name] : params) {
    if (!value)
      continue;
    if (failed(checkStaticF32(op, value, "operand '" + name + "'")))
      return failure();
    if (shapeOf(value) != row)
      return op->emitOpError()
             << "operand '" << name << "' must have the shape of a row, "
             << formatShape(row) << ", but got " << formatShape(shapeOf(value));
  }
  return checkResultShape(op, shape);
}

bool LayerNormOp::isRowShaped(ArrayRef<int64_t> shape, ArrayRef<int64_t> input,
                              int64_t axis) {
  ArrayRef<int64_t> row = input.drop_front(axis);
  return shape.size() >= row.size() && shape.size() <= input.size() &&
         shape.take_back(row.size()) == row &&
         llvm::all_of(shape.drop_back(row.size()),
                      [](int64_t d) { return d == 1; });
}

LogicalResult LayerNormOp::verify() {
  return verifyNormalization(*this, getX(), getAxis(),
                             {{getScale(), "scale"}, {getBias(), "bias"}});
}

LogicalResult RMSNormOp::verify() {
  return verifyNormalization(*this, getX(), getAxis(), {{getScale(), "scale"}});
}

//===----------------------------------------------------------------------===//
// Random ops
//===----------------------------------------------------------------------===//

void DropoutOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // Only training dropout draws random numbers; inference dropout is the
  // identity and may be folded or erased like any pure op.
  if (!getTraining())
    return;
  effects.emplace_back(MemoryEffects::Read::get(), RNGResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), RNGResource::get());
}

LogicalResult DropoutOp::verify() {
  if (failed(checkComputeTypes(*this, {"x"})))
    return failure();
  float ratio = getRatio().convertToFloat();
  // Written so that NaN fails too.
  if (!(ratio >= 0.0f && ratio < 1.0f))
    return emitOpError() << "attribute 'ratio' must be in [0, 1), but got "
                         << ratio;
  return success();
}

LogicalResult RandomUniformOp::verify() {
  ArrayRef<int64_t> shape = getShape();
  if (failed(checkArray(*this, "shape", shape, shape.size(), 0)) ||
      failed(checkStaticF32(*this, getOutput(), "result 'output'")) ||
      failed(checkResultShape(*this, shape)))
    return failure();
  float low = getLow().convertToFloat(), high = getHigh().convertToFloat();
  if (!(low <= high))
    return emitOpError() << "attribute 'low' (" << low
                         << ") must not exceed attribute 'high' (" << high
                         << ")";
  return success();
}

#define GET_OP_CLASSES
#include "graph/Dialect/Graph/IR/GraphOps.cpp.inc"
