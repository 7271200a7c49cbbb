//===- GraphToLinalgPatterns.h - Shared pieces of GraphToLinalg -*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Private to lib/Conversion/GraphToLinalg: the per-family pattern lists and
// the small IR builders they share (elementwise linalg.generic with NumPy
// broadcasting, fills, transposes that fold constants, reshapes).
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_GRAPHTOLINALG_GRAPHTOLINALGPATTERNS_H
#define LIB_CONVERSION_GRAPHTOLINALG_GRAPHTOLINALGPATTERNS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace graph {

/// Builds the scalar body of an elementwise op from the block arguments of
/// its inputs (the output argument is not passed).
using ScalarBodyBuilder =
    function_ref<Value(OpBuilder &b, Location loc, ValueRange args)>;
using ScalarBodyBuilderFn = ScalarBodyBuilder;

//===----------------------------------------------------------------------===//
// Pattern lists, one per op family
//===----------------------------------------------------------------------===//

/// relu, clip, sigmoid, tanh, add, sub, mul, div, batch_norm.
void populateElementwiseToLinalgPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns);
/// conv2d.
void populateConvToLinalgPatterns(RewritePatternSet &patterns);
/// max_pool2d, avg_pool2d, global_avg_pool.
void populatePoolingToLinalgPatterns(RewritePatternSet &patterns);
/// matmul, gemm.
void populateLinalgOpsToLinalgPatterns(RewritePatternSet &patterns);
/// reshape, flatten, transpose, concat, constant, inference dropout.
void populateShapeOpsToLinalgPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);
/// softmax.
void populateSoftmaxToLinalgPatterns(RewritePatternSet &patterns);

/// layer_norm, rms_norm.
void populateNormalizationToLinalgPatterns(RewritePatternSet &patterns);

/// The typed elementwise ops of GraphElementwiseOps.td.
void populateTypedElementwiseToLinalgPatterns(const TypeConverter &converter,
                                              RewritePatternSet &patterns);
/// slice, gather, gather_elements, scatter_elements, broadcast, pad,
/// resize.
void populateDataMovementToLinalgPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns);
/// reduce_*, argmax, argmin, cumsum, log_softmax.
void populateReductionToLinalgPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns);
/// batch_matmul, einsum, conv, conv_transpose, max_pool, avg_pool,
/// conv_integer, matmul_integer.
/// graph.grid_sample: one generic reading the image with tensor.extract.
void populateGridSampleToLinalgPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns);
/// graph.roi_align: one generic, each bin's samples in scf.for loops.
void populateRoiAlignToLinalgPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);
/// graph.nonzero: loops that carry the count found so far.
void populateRunTimeSizeToLoopsPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns);
/// graph.rnn, graph.gru, graph.lstm: one loop over the time steps.
void populateRecurrentToLinalgPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns);
void populateNNToLinalgPatterns(const TypeConverter &converter,
                                RewritePatternSet &patterns);

//===----------------------------------------------------------------------===//
// Element types in the lowered code
//===----------------------------------------------------------------------===//

// A graph element type has a storage type, what its tensors hold after the
// conversion (i1 -> i8, so that a bool is a byte in memory and vectors of
// bools are never bit-packed; ui8..ui64 -> the signless i8..i64), and a
// compute type, what scalar bodies compute in (i1 for bools, f32 for f16 and
// bf16, which round back after every operation, as their folds do).

/// The converter of convert-graph-to-linalg: tensors of i1 and unsigned
/// integers become tensors of their storage types; everything else stays.
class GraphStorageTypeConverter : public TypeConverter {
public:
  GraphStorageTypeConverter();
};

Type getStorageElementType(Type graphType);
Type getComputeElementType(Type graphType);
RankedTensorType getStorageTensorType(RankedTensorType graphType);
/// The graph element type of a tensor value.
Type getElementTypeOf(Value value);
bool isUnsignedGraphType(Type graphType);

/// A storage scalar to its compute type.
Value loadScalar(OpBuilder &b, Location loc, Value value, Type graphType);
/// A compute scalar to its storage type.
Value storeScalar(OpBuilder &b, Location loc, Value value, Type graphType);
/// A scalar constant of an integer or float compute type (floats: `value`
/// rounded to the type; integers: truncated).
Value createScalarConstant(OpBuilder &b, Location loc, Type type, double value);
/// An integer or index constant.
Value createIntConstant(OpBuilder &b, Location loc, Type type, int64_t value);

/// Replaces `op`, an op of run-time size whose last result is its extent,
/// by `results` and the extent `count` (an index) as that tensor<i64>.
void replaceWithExtent(ConversionPatternRewriter &rewriter, Operation *op,
                       ValueRange results, Value count);

/// Scalar float arithmetic in the compute type `type` at `loc`: the
/// vocabulary of the bodies that compute positions and interpolate
/// (grid_sample, roi_align).
class FloatScalarBuilder {
public:
  FloatScalarBuilder(OpBuilder &b, Location loc, Type type)
      : b(b), loc(loc), type(type) {}

  Value constant(double value);
  Value add(Value p, Value q);
  Value sub(Value p, Value q);
  Value mul(Value p, Value q);
  Value div(Value p, Value q);
  Value cmp(arith::CmpFPredicate predicate, Value p, Value q);
  Value select(Value c, Value p, Value q);
  Value floor(Value v);
  /// Clamped to [lo, hi], a NaN to lo (fmax, fmin).
  Value clamp(Value v, Value lo, Value hi);

protected:
  OpBuilder &b;
  Location loc;
  Type type;
};

struct Activation;
/// A recurrent op's gate function `activation` on the scalar `x` of float
/// compute type `type` (RecurrentActivations.cpp).
Value buildRecurrentActivation(OpBuilder &b, Location loc, Type type,
                               const Activation &activation, Value x);

/// The attribute of `attr` with the element type of `storageType` (bools
/// become bytes, unsigned integers signless; the bits do not change).
TypedAttr convertConstantAttr(ElementsAttr attr, RankedTensorType storageType);

/// An elementwise linalg.generic over `graphResultType` (its storage type)
/// whose inputs are storage tensors of the graph element types
/// `inputTypes`: the body gets the inputs in their compute types and returns
/// the result in the result's compute type. Maps as createElementwise.
Value createTypedElementwise(OpBuilder &b, Location loc,
                             RankedTensorType graphResultType,
                             ValueRange inputs, ArrayRef<Type> inputTypes,
                             ArrayRef<AffineMap> inputMaps,
                             ScalarBodyBuilderFn body);

/// `for (i = from; i < to; ++i)` carrying `state` (an scf.for of step 1):
/// `body` builds one iteration and gives the next state; the final state.
ResultRange buildCountedLoop(
    OpBuilder &b, Location loc, Value from, Value to, ValueRange state,
    function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)> body);

/// `linalg.fill` of a fresh tensor of `storageType` with the scalar `value`.
Value createFilledTensorWith(OpBuilder &b, Location loc,
                             RankedTensorType storageType, Value value);

/// A linalg.generic over the storage type of `graphResultType` without
/// inputs, whose body computes the source indices of `source` (a storage
/// tensor) from the output indices and reads it with tensor.extract: the
/// general gather, for data movement that is not affine.
using IndexMapBuilder = function_ref<SmallVector<Value>(
    OpBuilder &b, Location loc, ArrayRef<Value> outIndices)>;
Value createGather(OpBuilder &b, Location loc, RankedTensorType storageType,
                   Value source, IndexMapBuilder indices);

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

/// An f32 `arith.constant`.
Value createF32Constant(OpBuilder &b, Location loc, float value);

/// `tensor.empty` of `type`.
Value createEmptyTensor(OpBuilder &b, Location loc, RankedTensorType type);

/// `linalg.fill` of a fresh tensor of `type` with `value`.
Value createFilledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                         float value);

/// The indexing map that reads an operand of shape `shape` broadcast NumPy
/// style to `outShape`: missing leading dimensions are dropped and size-1
/// dimensions that are broadcast read index 0.
AffineMap getBroadcastMap(ArrayRef<int64_t> shape, ArrayRef<int64_t> outShape,
                          MLIRContext *context);

/// A `linalg.generic` with parallel iterators over `resultType` whose body is
/// built by `body`. Inputs are read through `inputMaps`, or through their
/// NumPy broadcast maps when `inputMaps` is empty.
Value createElementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                        ValueRange inputs, ArrayRef<AffineMap> inputMaps,
                        ScalarBodyBuilder body);

/// `value` with its dimensions permuted (result dim i = input dim perm[i]).
/// A constant operand is transposed at compile time into a new
/// `arith.constant`; anything else gets a `linalg.transpose`.
Value createTranspose(OpBuilder &b, Location loc, Value value,
                      ArrayRef<int64_t> perm);

/// `value` reshaped to `type` (same element count, row-major order): one
/// `tensor.collapse_shape` or `tensor.expand_shape` when that suffices, else a
/// collapse to 1-D followed by an expand. A dense constant is reshaped at
/// compile time.
Value createReshape(OpBuilder &b, Location loc, Value value,
                    RankedTensorType type);

/// `tensor.pad` of `value` with `padValue`; `value` itself when `low` and
/// `high` are all zero.
Value createPad(OpBuilder &b, Location loc, Value value, ArrayRef<int64_t> low,
                ArrayRef<int64_t> high, float padValue);

} // namespace graph
} // namespace mlir

#endif // LIB_CONVERSION_GRAPHTOLINALG_GRAPHTOLINALGPATTERNS_H
