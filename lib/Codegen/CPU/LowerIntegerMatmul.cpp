//===- LowerIntegerMatmul.cpp - int8 products on VNNI ------------*- C++
//-*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The graph-lower-integer-matmul pass: a graph.matmul_integer by constant
// int8 weights on an AVX-512 VNNI target becomes a micro-kernel on weights
// packed at compile time. With b' = b - b_zero_point (i8) and a the
// activations as u8 (signed ones offset by 128, their zero point with them):
//
//   sum_k (a[m, k] - az) * b'[k, n] = sum_k a[m, k] * b'[k, n] - az * colsum[n]
//
// The weights are packed as words of four rows of one column, 16 columns a
// vector: packed[n / 16][k / 4][n % 16] holds b'[4(k/4) .. 4(k/4) + 3][n],
// zero past K and N. One `vpdpbusd` then adds, in each of 16 i32 lanes, the
// four products of a broadcast word of a row of `a` by a word of weights.
// An scf.forall runs over blocks of kRows rows of `a` (its batch flattened);
// each block walks the columns kColumnVectors vectors at a time, its
// accumulators in registers across K, and subtracts az * colsum at the end.
// Rows and K past the end read zeros; columns past N are masked.
//
//===----------------------------------------------------------------------===//

#include "graph/Codegen/CPU/Passes.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/TypedTensor.h"
#include "graph/Target/CPU/CPUTarget.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHLOWERINTEGERMATMUL
#include "graph/Codegen/CPU/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

namespace {

/// i32 lanes of one 64-byte vector, and bytes of `a` per lane and step.
constexpr int64_t kLanes = 16;
constexpr int64_t kBytesPerWord = 4;
/// Rows of a block and vectors of columns per step: 8 x 2 accumulators, two
/// vectors of weights and the broadcast row word fit the 32 registers.
constexpr int64_t kRows = 8;
constexpr int64_t kColumnVectors = 2;

/// The weights of one product, packed, with their column sums.
struct PackedWeights {
  DenseElementsAttr words;      // [column vectors] x [K / 4] x kLanes, i32
  DenseElementsAttr columnSums; // [column vectors * kLanes], i32
  int64_t columnVectors = 0;
  int64_t quads = 0;
};

/// Packs b - bZero (b: K x N, bZero one value or one per column), or
/// nothing when a centered weight does not fit in i8.
static std::optional<PackedWeights> packWeights(const TypedTensor &b,
                                                const TypedTensor &bZero,
                                                MLIRContext *context) {
  ArrayRef<int64_t> shape = b.getShape();
  int64_t k = shape[0], n = shape[1];
  bool perColumn = bZero.getNumElements() != 1;
  PackedWeights packed;
  packed.quads = (k + kBytesPerWord - 1) / kBytesPerWord;
  packed.columnVectors = (n + kLanes - 1) / kLanes;
  // An even count: the micro-kernel takes kColumnVectors at a time.
  packed.columnVectors = llvm::alignTo(packed.columnVectors, kColumnVectors);
  int64_t columns = packed.columnVectors * kLanes;
  std::vector<int32_t> words(packed.columnVectors * packed.quads * kLanes, 0);
  std::vector<int32_t> sums(columns, 0);
  for (int64_t row = 0; row < k; ++row) {
    for (int64_t column = 0; column < n; ++column) {
      int64_t centered =
          b.getInt(row * n + column) - bZero.getInt(perColumn ? column : 0);
      if (centered < -128 || centered > 127)
        return std::nullopt;
      int64_t word =
          ((column / kLanes) * packed.quads + row / kBytesPerWord) * kLanes +
          column % kLanes;
      uint32_t byte = uint8_t(int8_t(centered));
      words[word] = int32_t(uint32_t(words[word]) |
                            (byte << (8 * (row % kBytesPerWord))));
      sums[column] += int32_t(centered);
    }
  }
  Type i32 = IntegerType::get(context, 32);
  packed.words = DenseElementsAttr::get(
      RankedTensorType::get({packed.columnVectors, packed.quads, kLanes}, i32),
      ArrayRef<int32_t>(words));
  packed.columnSums = DenseElementsAttr::get(
      RankedTensorType::get({columns}, i32), ArrayRef<int32_t>(sums));
  return packed;
}

/// The storage value of a graph tensor: unsigned integers as signless ones
/// (the bits unchanged), as convert-graph-to-linalg stores them.
static Value toStorage(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  auto integer = dyn_cast<IntegerType>(type.getElementType());
  if (!integer || integer.isSignless())
    return value;
  auto storage =
      type.clone(IntegerType::get(b.getContext(), integer.getWidth()));
  return UnrealizedConversionCastOp::create(b, loc, storage, value)
      .getResult(0);
}

class MatmulEmitter {
public:
  MatmulEmitter(OpBuilder &b, Location loc, LLVM::LLVMFuncOp dotProduct,
                Value a, Value aZero, bool signedA,
                const PackedWeights &weights, int64_t rows, int64_t k,
                int64_t n)
      : b(b), loc(loc), dotProduct(dotProduct), a(a), signedA(signedA),
        rows(rows), k(k), n(n), quads(weights.quads),
        columnPairs(weights.columnVectors / kColumnVectors) {
    vectorType = VectorType::get({kLanes}, b.getI32Type());
    byteVectorType = VectorType::get({kLanes * kBytesPerWord}, b.getI8Type());
    words = arith::ConstantOp::create(b, loc, weights.words);
    columnSums = arith::ConstantOp::create(b, loc, weights.columnSums);
    // The zero point of a as i32, in u8 terms.
    SmallVector<Value> origin(cast<RankedTensorType>(aZero.getType()).getRank(),
                              index(0));
    Value zero = tensor::ExtractOp::create(b, loc, aZero, origin);
    zeroPoint =
        signedA ? Value(arith::ExtSIOp::create(b, loc, b.getI32Type(), zero))
                : Value(arith::ExtUIOp::create(b, loc, b.getI32Type(), zero));
    if (signedA)
      zeroPoint = arith::AddIOp::create(
          b, loc, zeroPoint,
          arith::ConstantIntOp::create(b, loc, b.getI32Type(), 128));
  }

  /// rows x n, i32.
  Value emit() {
    auto type = RankedTensorType::get({rows, n}, b.getI32Type());
    Value out =
        tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
    int64_t blocks = rows / kRows, tail = rows % kRows;
    if (blocks)
      out = emitBlocks(out, 0, blocks, kRows);
    if (tail)
      out = emitBlocks(out, blocks * kRows, tail, 1);
    return out;
  }

private:
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }

  /// An scf.forall over `count` blocks of `blockRows` rows from `first`.
  Value emitBlocks(Value out, int64_t first, int64_t count, int64_t blockRows) {
    SmallVector<OpFoldResult> ubs = {b.getIndexAttr(count)};
    auto forall = scf::ForallOp::create(
        b, loc, ubs, ValueRange{out}, std::nullopt,
        [&](OpBuilder &nested, Location, ValueRange args) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
          Value row0 = arith::AddIOp::create(
              b, loc, index(first),
              arith::MulIOp::create(b, loc, args[0], index(blockRows)));
          SmallVector<OpFoldResult> offsets = {row0, b.getIndexAttr(0)};
          SmallVector<OpFoldResult> sizes = {b.getIndexAttr(blockRows),
                                             b.getIndexAttr(n)};
          SmallVector<OpFoldResult> strides(2, b.getIndexAttr(1));
          Value tile = tensor::ExtractSliceOp::create(
              b, loc, RankedTensorType::get({blockRows, n}, b.getI32Type()),
              args[1], offsets, sizes, strides);
          tile = emitBlock(tile, row0, blockRows);
          auto terminator = scf::InParallelOp::create(b, loc);
          b.setInsertionPointToStart(terminator.getBody());
          tensor::ParallelInsertSliceOp::create(b, loc, tile, args[1], offsets,
                                                sizes, strides);
        });
    return forall.getResult(0);
  }

  /// The block's rows of the result, kColumnVectors vectors of columns at a
  /// time.
  Value emitBlock(Value tile, Value row0, int64_t blockRows) {
    auto loop = scf::ForOp::create(
        b, loc, index(0), index(columnPairs), index(1), ValueRange{tile},
        [&](OpBuilder &nested, Location, Value pair, ValueRange args) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
          Value result = emitColumns(args[0], row0, blockRows, pair);
          scf::YieldOp::create(b, loc, result);
        });
    return loop.getResult(0);
  }

  Value emitColumns(Value tile, Value row0, int64_t blockRows, Value pair) {
    SmallVector<Value> firstVector;
    for (int64_t c = 0; c < kColumnVectors; ++c)
      firstVector.push_back(arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, pair, index(kColumnVectors)),
          index(c)));
    Value zeros = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vectorType, b.getI32IntegerAttr(0)));
    SmallVector<Value> initial(blockRows * kColumnVectors, zeros);
    Type i8 = b.getI8Type();
    auto wordType = VectorType::get({kBytesPerWord}, i8);
    Value zeroByte = arith::ConstantIntOp::create(b, loc, i8, 0);
    auto loop = scf::ForOp::create(
        b, loc, index(0), index(quads), index(1), initial,
        [&](OpBuilder &nested, Location, Value quad, ValueRange acc) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
          SmallVector<Value> weights;
          for (int64_t c = 0; c < kColumnVectors; ++c)
            weights.push_back(vector::BitCastOp::create(
                b, loc, byteVectorType,
                vector::TransferReadOp::create(
                    b, loc, vectorType, words,
                    ValueRange{firstVector[c], quad, index(0)},
                    arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0),
                    ArrayRef<bool>{true})));
          Value column =
              arith::MulIOp::create(b, loc, quad, index(kBytesPerWord));
          SmallVector<Value> next;
          for (int64_t r = 0; r < blockRows; ++r) {
            Value row = arith::AddIOp::create(b, loc, row0, index(r));
            // Past K: zeros, which the zero weights there ignore anyway.
            Value bytes = vector::TransferReadOp::create(
                b, loc, wordType, a, ValueRange{row, column}, zeroByte,
                ArrayRef<bool>{k % kBytesPerWord == 0});
            if (signedA)
              bytes = arith::XOrIOp::create(
                  b, loc, bytes,
                  arith::ConstantOp::create(
                      b, loc,
                      DenseElementsAttr::get(wordType,
                                             b.getIntegerAttr(i8, 0x80))));
            Value word = vector::BitCastOp::create(
                b, loc, VectorType::get({1}, b.getI32Type()), bytes);
            Value broadcast = vector::BitCastOp::create(
                b, loc, byteVectorType,
                vector::BroadcastOp::create(
                    b, loc, vectorType,
                    vector::ExtractOp::create(b, loc, word,
                                              ArrayRef<int64_t>{0})));
            for (int64_t c = 0; c < kColumnVectors; ++c)
              next.push_back(
                  LLVM::CallOp::create(b, loc, TypeRange{vectorType},
                                       dotProduct.getSymName(),
                                       ValueRange{acc[r * kColumnVectors + c],
                                                  broadcast, weights[c]})
                      .getResult());
          }
          scf::YieldOp::create(b, loc, next);
        });

    // - az * colsum, then the block's rows of these columns; columns past N
    // are masked.
    Value zeroPointSplat =
        vector::BroadcastOp::create(b, loc, vectorType, zeroPoint);
    for (int64_t c = 0; c < kColumnVectors; ++c) {
      Value first =
          arith::MulIOp::create(b, loc, firstVector[c], index(kLanes));
      Value sums = vector::TransferReadOp::create(
          b, loc, vectorType, columnSums, ValueRange{first},
          arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0),
          ArrayRef<bool>{true});
      Value correction = arith::MulIOp::create(b, loc, zeroPointSplat, sums);
      for (int64_t r = 0; r < blockRows; ++r) {
        Value result = arith::SubIOp::create(
            b, loc, loop.getResult(r * kColumnVectors + c), correction);
        tile = vector::TransferWriteOp::create(
                   b, loc, result, tile, ValueRange{index(r), first},
                   ArrayRef<bool>{n % kLanes == 0 &&
                                  n % (kLanes * kColumnVectors) == 0})
                   .getResult();
      }
    }
    return tile;
  }

  OpBuilder &b;
  Location loc;
  LLVM::LLVMFuncOp dotProduct;
  Value a;
  bool signedA;
  int64_t rows, k, n, quads, columnPairs;
  VectorType vectorType, byteVectorType;
  Value words, columnSums, zeroPoint;
};

/// The declaration of the intrinsic `vpdpbusd` (512-bit): a call to it is a
/// call op, whose effects bufferization's deallocation knows (none here),
/// where llvm.call_intrinsic declares none.
static LLVM::LLVMFuncOp getDotProduct(ModuleOp module) {
  constexpr llvm::StringLiteral name = "llvm.x86.avx512.vpdpbusd.512";
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  // <16 x i32> accumulators, <64 x i8> operands (LLVM 22's signature).
  auto sums = VectorType::get({kLanes}, b.getI32Type());
  auto bytes = VectorType::get({kLanes * kBytesPerWord}, b.getI8Type());
  return LLVM::LLVMFuncOp::create(
      b, module.getLoc(), name,
      LLVM::LLVMFunctionType::get(sums, {sums, bytes, bytes}));
}

/// Rewrites `op` when it qualifies; the generic lowering takes it otherwise.
static void lowerMatmul(IRRewriter &rewriter, MatMulIntegerOp op) {
  Attribute bAttr, bZeroAttr;
  if (!matchPattern(op.getB(), m_Constant(&bAttr)) ||
      !matchPattern(op.getBZeroPoint(), m_Constant(&bZeroAttr)))
    return;
  std::optional<TypedTensor> bTensor = readTypedTensor(bAttr);
  std::optional<TypedTensor> bZero = readTypedTensor(bZeroAttr);
  auto aType = cast<RankedTensorType>(op.getA().getType());
  auto zeroType = cast<RankedTensorType>(op.getAZeroPoint().getType());
  if (!bTensor || !bZero || bTensor->getShape().size() != 2 ||
      zeroType.getNumElements() != 1)
    return;
  ArrayRef<int64_t> bShape = bTensor->getShape();
  // Per column: N values or one, on the last dimension.
  if (bZero->getNumElements() != 1 && bZero->getShape().back() != bShape[1])
    return;
  std::optional<PackedWeights> packed =
      packWeights(*bTensor, *bZero, op.getContext());
  if (!packed)
    return;

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  ArrayRef<int64_t> aShape = aType.getShape();
  int64_t k = aShape.back(), n = bShape[1];
  int64_t rows = aType.getNumElements() / std::max<int64_t>(k, 1);
  bool signedA = !aType.getElementType().isUnsignedInteger();
  Value a = toStorage(rewriter, loc, op.getA());
  if (aShape.size() != 2) {
    SmallVector<ReassociationIndices> groups(2);
    for (int64_t d = 0; d + 1 < int64_t(aShape.size()); ++d)
      groups[0].push_back(d);
    groups[1].push_back(aShape.size() - 1);
    a = tensor::CollapseShapeOp::create(
        rewriter, loc, RankedTensorType::get({rows, k}, rewriter.getI8Type()),
        a, groups);
  }
  Value aZero = toStorage(rewriter, loc, op.getAZeroPoint());
  Value result = MatmulEmitter(rewriter, loc,
                               getDotProduct(op->getParentOfType<ModuleOp>()),
                               a, aZero, signedA, *packed, rows, k, n)
                     .emit();
  auto resultType = cast<RankedTensorType>(op.getType());
  if (resultType.getRank() != 2) {
    SmallVector<ReassociationIndices> groups(2);
    for (int64_t d = 0; d + 1 < resultType.getRank(); ++d)
      groups[0].push_back(d);
    groups[1].push_back(resultType.getRank() - 1);
    result = tensor::ExpandShapeOp::create(rewriter, loc, resultType, result,
                                           groups);
  }
  rewriter.replaceOp(op, result);
}

struct GraphLowerIntegerMatmulPass
    : public graph::impl::GraphLowerIntegerMatmulBase<
          GraphLowerIntegerMatmulPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    llvm::Expected<CPUTarget> result =
        CPUTarget::get(targetCpu, targetFeatures);
    if (!result)
      return emitError(UnknownLoc::get(context))
             << "graph-lower-integer-matmul: "
             << llvm::toString(result.takeError());
    target = *result;
    return success();
  }

  void runOnOperation() override {
    if (!target.hasVNNI)
      return;
    SmallVector<MatMulIntegerOp> ops;
    getOperation()->walk([&](MatMulIntegerOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (MatMulIntegerOp op : ops)
      lowerMatmul(rewriter, op);
  }

  CPUTarget target;
};

} // namespace
