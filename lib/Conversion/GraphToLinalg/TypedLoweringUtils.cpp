//===- TypedLoweringUtils.cpp - Element types in the lowering ---*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The storage and compute types of graph element types after the conversion
// to linalg, the type converter that applies them, and the builders of typed
// elementwise and gathering linalg.generic ops.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgPatterns.h"

#include "graph/Dialect/Graph/IR/TypedTensor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlir::graph;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

Type mlir::graph::getStorageElementType(Type graphType) {
  auto integer = dyn_cast<IntegerType>(graphType);
  if (!integer)
    return graphType;
  if (integer.getWidth() == 1)
    return IntegerType::get(graphType.getContext(), 8);
  if (!integer.isSignless())
    return IntegerType::get(graphType.getContext(), integer.getWidth());
  return graphType;
}

Type mlir::graph::getComputeElementType(Type graphType) {
  if (graphType.isF16() || graphType.isBF16())
    return Float32Type::get(graphType.getContext());
  auto integer = dyn_cast<IntegerType>(graphType);
  if (integer && !integer.isSignless())
    return IntegerType::get(graphType.getContext(), integer.getWidth());
  return graphType;
}

RankedTensorType mlir::graph::getStorageTensorType(RankedTensorType type) {
  return RankedTensorType::get(type.getShape(),
                               getStorageElementType(type.getElementType()));
}

Type mlir::graph::getElementTypeOf(Value value) {
  return cast<ShapedType>(value.getType()).getElementType();
}

bool mlir::graph::isUnsignedGraphType(Type graphType) {
  auto integer = dyn_cast<IntegerType>(graphType);
  return integer && integer.isUnsigned();
}

GraphStorageTypeConverter::GraphStorageTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion(
      [](RankedTensorType type) -> Type { return getStorageTensorType(type); });
  // Values of the old types stay reachable through casts while the
  // conversion runs; none is left once every graph op is converted.
  auto materialize = [](OpBuilder &b, Type type, ValueRange inputs,
                        Location loc) -> Value {
    return UnrealizedConversionCastOp::create(b, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(materialize);
  addTargetMaterialization(materialize);
}

//===----------------------------------------------------------------------===//
// Scalars
//===----------------------------------------------------------------------===//

Value mlir::graph::loadScalar(OpBuilder &b, Location loc, Value value,
                              Type graphType) {
  if (graphType.isInteger(1))
    return arith::TruncIOp::create(b, loc, b.getI1Type(), value);
  if (graphType.isF16() || graphType.isBF16())
    return arith::ExtFOp::create(b, loc, b.getF32Type(), value);
  return value;
}

Value mlir::graph::storeScalar(OpBuilder &b, Location loc, Value value,
                               Type graphType) {
  if (graphType.isInteger(1))
    return arith::ExtUIOp::create(b, loc, b.getI8Type(), value);
  if (graphType.isF16() || graphType.isBF16())
    return arith::TruncFOp::create(b, loc, graphType, value);
  return value;
}

Value mlir::graph::createScalarConstant(OpBuilder &b, Location loc, Type type,
                                        double value) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, value));
  return createIntConstant(b, loc, type, static_cast<int64_t>(value));
}

Value mlir::graph::createIntConstant(OpBuilder &b, Location loc, Type type,
                                     int64_t value) {
  if (type.isIndex())
    return arith::ConstantIndexOp::create(b, loc, value);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

TypedAttr mlir::graph::convertConstantAttr(ElementsAttr attr,
                                           RankedTensorType storageType) {
  if (attr.getType() == storageType)
    return cast<TypedAttr>(attr);
  Type graphType = attr.getElementType();
  if (graphType.isInteger(1)) {
    // Bools become bytes of 0 or 1.
    std::optional<TypedTensor> value = readTypedTensor(attr);
    assert(value && "a bool constant that TypedTensor cannot read");
    TypedTensor bytes(
        storageType, ElementKind::I8, value->isSplat(),
        std::vector<char>(value->getBytes().begin(), value->getBytes().end()));
    return bytes.toAttr();
  }
  // Unsigned to signless: the same bits.
  if (auto dense = dyn_cast<DenseElementsAttr>(attr))
    return dense.bitcast(storageType.getElementType());
  auto resource = cast<DenseResourceElementsAttr>(attr);
  return DenseResourceElementsAttr::get(storageType, resource.getRawHandle());
}

//===----------------------------------------------------------------------===//
// Generic ops
//===----------------------------------------------------------------------===//

Value mlir::graph::createTypedElementwise(OpBuilder &b, Location loc,
                                          RankedTensorType graphResultType,
                                          ValueRange inputs,
                                          ArrayRef<Type> inputTypes,
                                          ArrayRef<AffineMap> inputMaps,
                                          ScalarBodyBuilderFn body) {
  Type resultType = graphResultType.getElementType();
  return createElementwise(
      b, loc, getStorageTensorType(graphResultType), inputs, inputMaps,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        SmallVector<Value> computed;
        for (auto [arg, type] : llvm::zip_equal(args, inputTypes))
          computed.push_back(loadScalar(nested, nestedLoc, arg, type));
        Value result = body(nested, nestedLoc, computed);
        return storeScalar(nested, nestedLoc, result, resultType);
      });
}

ResultRange mlir::graph::buildCountedLoop(
    OpBuilder &b, Location loc, Value from, Value to, ValueRange state,
    function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)> body) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  return scf::ForOp::create(b, loc, from, to, one, state,
                            [&](OpBuilder &nested, Location nestedLoc, Value i,
                                ValueRange current) {
                              scf::YieldOp::create(nested, nestedLoc,
                                                   body(nested, i, current));
                            })
      .getResults();
}

Value mlir::graph::createFilledTensorWith(OpBuilder &b, Location loc,
                                          RankedTensorType storageType,
                                          Value value) {
  Value init = createEmptyTensor(b, loc, storageType);
  return linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{init})
      .getResult(0);
}

Value mlir::graph::createGather(OpBuilder &b, Location loc,
                                RankedTensorType storageType, Value source,
                                IndexMapBuilder indices) {
  MLIRContext *context = b.getContext();
  int64_t rank = storageType.getRank();
  Value init = createEmptyTensor(b, loc, storageType);
  SmallVector<AffineMap> maps = {
      AffineMap::getMultiDimIdentityMap(rank, context)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{storageType}, ValueRange{}, ValueRange{init},
             maps, iterators,
             [&](OpBuilder &nested, Location nestedLoc, ValueRange) {
               SmallVector<Value> outIndices;
               for (int64_t d = 0; d < rank; ++d)
                 outIndices.push_back(
                     linalg::IndexOp::create(nested, nestedLoc, d));
               SmallVector<Value> sourceIndices =
                   indices(nested, nestedLoc, outIndices);
               Value value = tensor::ExtractOp::create(nested, nestedLoc,
                                                       source, sourceIndices);
               linalg::YieldOp::create(nested, nestedLoc, value);
             })
      .getResult(0);
}
