//===- GraphToLinalgPatterns.h - Shared pieces of GraphToLinalg -*- C++ -*-===//
//
// Private to lib/Conversion/GraphToLinalg: the per-family pattern lists and
// the small IR builders they share (elementwise linalg.generic with NumPy
// broadcasting, fills, transposes that fold constants, reshapes).
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_GRAPHTOLINALG_GRAPHTOLINALGPATTERNS_H
#define LIB_CONVERSION_GRAPHTOLINALG_GRAPHTOLINALGPATTERNS_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace graph {

//===----------------------------------------------------------------------===//
// Pattern lists, one per op family
//===----------------------------------------------------------------------===//

/// relu, clip, sigmoid, tanh, add, sub, mul, div, batch_norm.
void populateElementwiseToLinalgPatterns(RewritePatternSet &patterns);
/// conv2d.
void populateConvToLinalgPatterns(RewritePatternSet &patterns);
/// max_pool2d, avg_pool2d, global_avg_pool.
void populatePoolingToLinalgPatterns(RewritePatternSet &patterns);
/// matmul, gemm.
void populateLinalgOpsToLinalgPatterns(RewritePatternSet &patterns);
/// reshape, flatten, transpose, concat, constant, inference dropout.
void populateShapeOpsToLinalgPatterns(RewritePatternSet &patterns);
/// softmax.
void populateSoftmaxToLinalgPatterns(RewritePatternSet &patterns);

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

/// Builds the scalar body of an elementwise op from the block arguments of
/// its inputs (the output argument is not passed).
using ScalarBodyBuilder =
    function_ref<Value(OpBuilder &b, Location loc, ValueRange args)>;

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
