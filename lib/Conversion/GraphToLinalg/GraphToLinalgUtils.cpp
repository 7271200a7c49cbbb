//===- GraphToLinalgUtils.cpp - Builders shared by the patterns -*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Small IR builders used by every op family of the graph-to-linalg
// conversion.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"

#include "graph/Dialect/Graph/IR/ConstantTensor.h"
#include "graph/Dialect/Graph/IR/ReferenceKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::graph;

Value mlir::graph::createF32Constant(OpBuilder &b, Location loc, float value) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
}

Value mlir::graph::createEmptyTensor(OpBuilder &b, Location loc,
                                     RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

Value mlir::graph::createFilledTensor(OpBuilder &b, Location loc,
                                      RankedTensorType type, float value) {
  Value init = createEmptyTensor(b, loc, type);
  Value scalar = createF32Constant(b, loc, value);
  return linalg::FillOp::create(b, loc, ValueRange{scalar}, ValueRange{init})
      .getResult(0);
}

AffineMap mlir::graph::getBroadcastMap(ArrayRef<int64_t> shape,
                                       ArrayRef<int64_t> outShape,
                                       MLIRContext *context) {
  unsigned offset = outShape.size() - shape.size();
  SmallVector<AffineExpr> exprs;
  for (auto [i, size] : llvm::enumerate(shape)) {
    if (size == 1 && outShape[offset + i] != 1)
      exprs.push_back(getAffineConstantExpr(0, context));
    else
      exprs.push_back(getAffineDimExpr(offset + i, context));
  }
  return AffineMap::get(outShape.size(), 0, exprs, context);
}

Value mlir::graph::createElementwise(OpBuilder &b, Location loc,
                                     RankedTensorType resultType,
                                     ValueRange inputs,
                                     ArrayRef<AffineMap> inputMaps,
                                     ScalarBodyBuilder body) {
  MLIRContext *context = b.getContext();
  ArrayRef<int64_t> outShape = resultType.getShape();
  SmallVector<AffineMap> maps(inputMaps);
  if (maps.empty()) {
    for (Value input : inputs)
      maps.push_back(
          getBroadcastMap(cast<RankedTensorType>(input.getType()).getShape(),
                          outShape, context));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(outShape.size(), context));
  SmallVector<utils::IteratorType> iterators(outShape.size(),
                                             utils::IteratorType::parallel);
  Value init = createEmptyTensor(b, loc, resultType);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = body(nested, nestedLoc, args.drop_back());
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  return generic.getResult(0);
}

Value mlir::graph::createTranspose(OpBuilder &b, Location loc, Value value,
                                   ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  auto resultType = RankedTensorType::get(shape, type.getElementType());

  // Weights are usually constants: permute them now rather than at run time.
  Attribute attr;
  if (matchPattern(value, m_Constant(&attr))) {
    if (std::optional<ConstantTensor> constant = readConstantTensor(attr)) {
      DenseElementsAttr permuted;
      if (constant->isSplat) {
        permuted = makeSplatTensor(resultType, constant->splatValue);
      } else {
        SmallVector<float> values(constant->getNumElements());
        reference::transpose(constant->values, type.getShape(), perm, values);
        permuted = makeConstantTensor(resultType, values);
      }
      return arith::ConstantOp::create(b, loc, permuted);
    }
  }

  Value init = createEmptyTensor(b, loc, resultType);
  return linalg::TransposeOp::create(b, loc, value, init, perm).getResult()[0];
}

Value mlir::graph::createReshape(OpBuilder &b, Location loc, Value value,
                                 RankedTensorType type) {
  auto sourceType = cast<RankedTensorType>(value.getType());
  if (sourceType == type)
    return value;

  DenseElementsAttr dense;
  if (matchPattern(value, m_Constant(&dense)))
    return arith::ConstantOp::create(b, loc, dense.reshape(type));

  ArrayRef<int64_t> from = sourceType.getShape(), to = type.getShape();
  if (from.size() > to.size()) {
    if (auto reassociation = getReassociationIndicesForCollapse(from, to))
      return tensor::CollapseShapeOp::create(b, loc, type, value,
                                             *reassociation);
  } else if (from.size() < to.size()) {
    if (auto reassociation = getReassociationIndicesForCollapse(to, from))
      return tensor::ExpandShapeOp::create(b, loc, type, value, *reassociation);
  }

  // Neither a pure collapse nor a pure expand: go through 1-D.
  auto flatType = RankedTensorType::get({sourceType.getNumElements()},
                                        type.getElementType());
  auto allDims = [](int64_t rank) {
    ReassociationIndices dims;
    for (int64_t d = 0; d < rank; ++d)
      dims.push_back(d);
    return SmallVector<ReassociationIndices>{dims};
  };
  Value flat = value;
  if (sourceType.getRank() == 0)
    flat = tensor::ExpandShapeOp::create(b, loc, flatType, value,
                                         ArrayRef<ReassociationIndices>{});
  else if (sourceType.getRank() != 1)
    flat = tensor::CollapseShapeOp::create(b, loc, flatType, value,
                                           allDims(sourceType.getRank()));
  if (type.getRank() == 0)
    return tensor::CollapseShapeOp::create(b, loc, type, flat,
                                           ArrayRef<ReassociationIndices>{});
  if (type.getRank() == 1)
    return flat;
  return tensor::ExpandShapeOp::create(b, loc, type, flat,
                                       allDims(type.getRank()));
}

Value mlir::graph::createPad(OpBuilder &b, Location loc, Value value,
                             ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                             float padValue) {
  auto isZero = [](int64_t v) { return v == 0; };
  if (llvm::all_of(low, isZero) && llvm::all_of(high, isZero))
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  for (size_t d = 0; d < shape.size(); ++d)
    shape[d] += low[d] + high[d];
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  SmallVector<OpFoldResult> lowSizes =
      getAsIndexOpFoldResult(b.getContext(), low);
  SmallVector<OpFoldResult> highSizes =
      getAsIndexOpFoldResult(b.getContext(), high);
  Value scalar = createF32Constant(b, loc, padValue);
  return tensor::PadOp::create(b, loc, resultType, value, lowSizes, highSizes,
                               scalar);
}

Value FloatScalarBuilder::constant(double value) {
  return createScalarConstant(b, loc, type, value);
}
Value FloatScalarBuilder::add(Value p, Value q) {
  return arith::AddFOp::create(b, loc, p, q);
}
Value FloatScalarBuilder::sub(Value p, Value q) {
  return arith::SubFOp::create(b, loc, p, q);
}
Value FloatScalarBuilder::mul(Value p, Value q) {
  return arith::MulFOp::create(b, loc, p, q);
}
Value FloatScalarBuilder::div(Value p, Value q) {
  return arith::DivFOp::create(b, loc, p, q);
}
Value FloatScalarBuilder::cmp(arith::CmpFPredicate predicate, Value p,
                              Value q) {
  return arith::CmpFOp::create(b, loc, predicate, p, q);
}
Value FloatScalarBuilder::select(Value c, Value p, Value q) {
  return arith::SelectOp::create(b, loc, c, p, q);
}
Value FloatScalarBuilder::floor(Value v) {
  return math::FloorOp::create(b, loc, v);
}
Value FloatScalarBuilder::clamp(Value v, Value lo, Value hi) {
  return arith::MinNumFOp::create(b, loc,
                                  arith::MaxNumFOp::create(b, loc, v, lo), hi);
}

void mlir::graph::replaceWithExtent(ConversionPatternRewriter &rewriter,
                                    Operation *op, ValueRange results,
                                    Value count) {
  Location loc = op->getLoc();
  Value countI64 =
      arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), count);
  Value extent = tensor::FromElementsOp::create(
      rewriter, loc, cast<RankedTensorType>(op->getResults().back().getType()),
      ValueRange{countI64});
  SmallVector<Value> replacements(results);
  replacements.push_back(extent);
  rewriter.replaceOp(op, replacements);
}
