//===- VerifyUtils.h - Shared checks of the op verifiers --------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Private to lib/Dialect/Graph/IR: the checks that the verifiers of the ops
// beyond the f32 core share. Every message names the operand, result or
// attribute at fault, as the core verifiers' do.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_DIALECT_GRAPH_IR_VERIFYUTILS_H
#define LIB_DIALECT_GRAPH_IR_VERIFYUTILS_H

#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/TypedTensor.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include <optional>
#include <string>

namespace mlir {
namespace graph {

/// The element types an operand or result may have.
enum class TypeClass {
  /// f32 only, the core ops' type.
  F32,
  /// f16, bf16, f32, f64.
  Float,
  /// Floats and integers (signed and unsigned), not bool.
  Numeric,
  /// Floats and signed integers.
  SignedNumeric,
  /// Signed and unsigned integers.
  Integer,
  /// Unsigned integers.
  Unsigned,
  /// i32 or i64, the index types.
  Index,
  /// i1.
  Bool,
  /// Any kind of TypedTensor.h.
  Any,
};

/// Whether `kind` belongs to `cls`.
bool isInClass(ElementKind kind, TypeClass cls);

/// Checks that the size in bytes of the static tensor `type` fits int64, so
/// that no element count or offset computed from it (by a fold, the lowering
/// or the runtime) overflows.
LogicalResult checkTensorSize(Operation *op, RankedTensorType type,
                              const Twine &what);

/// Checks that `value` (described by `what`, e.g. "operand 'x'") is a
/// statically shaped ranked tensor whose element type is in `cls`, of a size
/// that fits int64. The F32
/// message is the core ops' own.
LogicalResult checkTensorOf(Operation *op, Value value, const Twine &what,
                            TypeClass cls);

/// Checks `data`-like operand and result: any kind, one element type.
LogicalResult checkDataAndResult(Operation *op, Value data, StringRef name,
                                 TypeClass cls);

/// Checks the operands of `op`, named one for one by `names` (optional
/// operands last, maybe absent), and its result 0 ('output'): tensors of
/// `cls`, all of one element type.
LogicalResult checkOperandsOf(Operation *op, ArrayRef<StringRef> names,
                              TypeClass cls);

/// Checks that `other` has the element type of `value`.
LogicalResult checkSameElementType(Operation *op, Value value,
                                   const Twine &what, Value other,
                                   const Twine &otherWhat);

/// Prints a shape as `[2, 3]`.
std::string formatDims(ArrayRef<int64_t> shape);

/// The shape of a ranked tensor value.
ArrayRef<int64_t> getDims(Value value);

/// Checks that result 0 has shape `expected`.
LogicalResult checkResultDims(Operation *op, ArrayRef<int64_t> expected);

/// Normalizes attribute `name`'s `axis` into [0, rank + extra).
FailureOr<int64_t> checkAxisIn(Operation *op, StringRef name, int64_t axis,
                               int64_t rank, int64_t extra = 0);

/// `axis` (an I64Attr's value, read as signed) in [0, rank).
inline int64_t normalizedAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

/// Checks an array attribute: `size` entries, each >= `min`.
LogicalResult checkArrayAttr(Operation *op, StringRef name,
                             ArrayRef<int64_t> values, size_t size,
                             int64_t min);

/// The NumPy broadcast of the shapes of `op`'s operands (named `names`),
/// or an error naming them.
FailureOr<SmallVector<int64_t>> broadcastOperands(Operation *op,
                                                  ArrayRef<StringRef> names);

/// Checks that `value` broadcasts NumPy style to `shape` and leaves it as it
/// is (a per-axis parameter with ones on the other dimensions).
LogicalResult checkBroadcastsOnto(Operation *op, Value value, const Twine &what,
                                  ArrayRef<int64_t> shape);

/// The shape checks of an N-d convolution (graph.conv, graph.conv_integer):
/// the window attributes, the weight's F x C/groups x kernel, and the
/// result's N x F x O_1..O_k. In NHWC (2-D only) the input is N x H x W x C,
/// the weight KH x KW x C/groups x F and the result N x OH x OW x F; the
/// dimension numbers of the messages are those of the NCHW order.
LogicalResult verifyConvShapes(Operation *op, Value input, Value weight,
                               ArrayRef<int64_t> strides,
                               ArrayRef<int64_t> padding,
                               ArrayRef<int64_t> dilations, int64_t groups,
                               Layout layout = Layout::NCHW);

/// The shape checks of a batched matrix product (graph.batch_matmul,
/// graph.matmul_integer): ranks >= 2, equal K, broadcast batches, and the
/// result's [batch..., M, N].
LogicalResult verifyMatMulShapes(Operation *op, Value a, Value b);

} // namespace graph
} // namespace mlir

#endif // LIB_DIALECT_GRAPH_IR_VERIFYUTILS_H
