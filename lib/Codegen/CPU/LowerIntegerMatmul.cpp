//===- LowerIntegerMatmul.cpp - int8 products on VNNI ----------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The graph-lower-integer-matmul pass: a graph.matmul_integer by constant
// int8 weights becomes a micro-kernel on weights packed at compile time, on
// the target's integer dot product. With b' = b - b_zero_point and az a's
// zero point:
//
//   sum_k (a[m, k] - az) * b'[k, n] = sum_k a[m, k] * b'[k, n] - az * colsum[n]
//
// Two instructions serve (DotProduct below): AVX-512 VNNI's `vpdpbusd` adds
// four u8 x s8 products into each i32 lane (a as u8: signed activations are
// offset by 128, their zero point with them; b' must fit in i8), and, on
// AVX-512 without VNNI and on AVX2, `pmaddwd` gives two i16 x i16 products
// per i32 lane, which are added (a and b' widened to i16: exact, and never
// saturating for 8-bit operands). The weights are packed as words of the
// instruction's rows of one column, a vector of columns at a time:
// packed[n / lanes][k / rows][n % lanes] holds b'[rows (k / rows) ..][n],
// zero past K and N. Each broadcast word of a row of `a` meets a vector of
// weight words in one instruction. An scf.forall runs over blocks of rows of
// `a` (its batch flattened); each block walks the columns kColumnVectors
// vectors at a time, its accumulators in registers across K, and subtracts
// az * colsum at the end. K past the end reads zeros; columns past N are
// masked.
//
//===----------------------------------------------------------------------===//

#include "graph/Codegen/CPU/Passes.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/TypedTensor.h"
#include "graph/Target/CPU/PassTarget.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
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

/// Vectors of columns per step of the micro-kernel.
constexpr int64_t kColumnVectors = 2;

/// The integer dot-product instruction of a target.
struct DotProduct {
  llvm::StringLiteral intrinsic;
  /// i32 lanes of a vector, and rows of a column (elements of a) per lane.
  int64_t lanes, rowsPerWord;
  /// Rows of a block: blockRows x kColumnVectors accumulators, the weights
  /// and the broadcast word fit the register file.
  int64_t blockRows;
  /// vpdpbusd: u8 x s8, added into its first operand. pmaddwd: i16 x i16,
  /// the products returned.
  bool isVNNI;

  int64_t getElementBits() const { return 32 / rowsPerWord; }
};

static std::optional<DotProduct> chooseDotProduct(const CPUTarget &target) {
  switch (target.getIntegerDotWeightBits()) {
  case 8:
    return DotProduct{"llvm.x86.avx512.vpdpbusd.512", 16, 4, 8, true};
  case 16:
    if (target.isa == VectorISA::AVX512)
      return DotProduct{"llvm.x86.avx512.pmaddw.d.512", 16, 2, 8, false};
    return DotProduct{"llvm.x86.avx2.pmadd.wd", 8, 2, 4, false};
  default:
    return std::nullopt;
  }
}

/// The weights of one product, packed, with their column sums.
struct PackedWeights {
  DenseElementsAttr words;      // [column vectors] x [words] x lanes, i32
  DenseElementsAttr columnSums; // [column vectors * lanes], i32
  int64_t columnVectors = 0;
  /// Words per column: K / rowsPerWord, rounded up.
  int64_t quads = 0;
};

/// Packs b - bZero (b: K x N, bZero one value or one per column) for `dot`,
/// or nothing when a centered weight does not fit its element type.
static std::optional<PackedWeights> packWeights(const TypedTensor &b,
                                                const TypedTensor &bZero,
                                                const DotProduct &dot,
                                                MLIRContext *context) {
  int64_t lanes = dot.lanes, rowsPerWord = dot.rowsPerWord;
  int64_t bits = dot.getElementBits();
  int64_t lowest = -(int64_t(1) << (bits - 1)), highest = -lowest - 1;
  ArrayRef<int64_t> shape = b.getShape();
  int64_t k = shape[0], n = shape[1];
  bool perColumn = bZero.getNumElements() != 1;
  PackedWeights packed;
  packed.quads = (k + rowsPerWord - 1) / rowsPerWord;
  packed.columnVectors = (n + lanes - 1) / lanes;
  // An even count: the micro-kernel takes kColumnVectors at a time.
  packed.columnVectors = llvm::alignTo(packed.columnVectors, kColumnVectors);
  int64_t columns = packed.columnVectors * lanes;
  std::vector<int32_t> words(packed.columnVectors * packed.quads * lanes, 0);
  std::vector<int32_t> sums(columns, 0);
  for (int64_t row = 0; row < k; ++row) {
    for (int64_t column = 0; column < n; ++column) {
      int64_t centered =
          b.getInt(row * n + column) - bZero.getInt(perColumn ? column : 0);
      if (centered < lowest || centered > highest)
        return std::nullopt;
      int64_t word =
          ((column / lanes) * packed.quads + row / rowsPerWord) * lanes +
          column % lanes;
      uint32_t element = uint32_t(centered) & ((uint64_t(1) << bits) - 1);
      words[word] = int32_t(uint32_t(words[word]) |
                            (element << (bits * (row % rowsPerWord))));
      sums[column] += int32_t(centered);
    }
  }
  Type i32 = IntegerType::get(context, 32);
  packed.words = DenseElementsAttr::get(
      RankedTensorType::get({packed.columnVectors, packed.quads, lanes}, i32),
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

/// A vector of `dot`'s operand elements: 4 x lanes bytes or 2 x lanes i16.
static VectorType getOperandType(MLIRContext *context, const DotProduct &dot) {
  return VectorType::get({dot.lanes * dot.rowsPerWord},
                         IntegerType::get(context, dot.getElementBits()));
}

class MatmulEmitter {
public:
  MatmulEmitter(OpBuilder &b, Location loc, const DotProduct &dot,
                LLVM::LLVMFuncOp dotProduct, Value a, Value aZero, bool signedA,
                const PackedWeights &weights, int64_t rows, int64_t k,
                int64_t n)
      : b(b), loc(loc), dot(dot), dotProduct(dotProduct), a(a),
        signedA(signedA), rows(rows), k(k), n(n), quads(weights.quads),
        columnPairs(weights.columnVectors / kColumnVectors) {
    vectorType = VectorType::get({dot.lanes}, b.getI32Type());
    operandType = getOperandType(b.getContext(), dot);
    words = arith::ConstantOp::create(b, loc, weights.words);
    columnSums = arith::ConstantOp::create(b, loc, weights.columnSums);
    // The zero point of a as i32 (in u8 terms for vpdpbusd).
    SmallVector<Value> origin(cast<RankedTensorType>(aZero.getType()).getRank(),
                              index(0));
    Value zero = tensor::ExtractOp::create(b, loc, aZero, origin);
    zeroPoint =
        signedA ? Value(arith::ExtSIOp::create(b, loc, b.getI32Type(), zero))
                : Value(arith::ExtUIOp::create(b, loc, b.getI32Type(), zero));
    if (signedA && dot.isVNNI)
      zeroPoint = arith::AddIOp::create(
          b, loc, zeroPoint,
          arith::ConstantIntOp::create(b, loc, b.getI32Type(), 128));
  }

  /// rows x n, i32.
  Value emit() {
    rowWords = packRows();
    auto type = RankedTensorType::get({rows, n}, b.getI32Type());
    Value out =
        tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
    int64_t blocks = rows / dot.blockRows, tail = rows % dot.blockRows;
    if (blocks)
      out = emitBlocks(out, 0, blocks, dot.blockRows);
    if (tail)
      out = emitBlocks(out, blocks * dot.blockRows, tail, 1);
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
    auto loop = scf::ForOp::create(
        b, loc, index(0), index(quads), index(1), initial,
        [&](OpBuilder &nested, Location, Value quad, ValueRange acc) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
          SmallVector<Value> weights;
          for (int64_t c = 0; c < kColumnVectors; ++c)
            weights.push_back(vector::BitCastOp::create(
                b, loc, operandType,
                vector::TransferReadOp::create(
                    b, loc, vectorType, words,
                    ValueRange{firstVector[c], quad, index(0)},
                    arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0),
                    ArrayRef<bool>{true})));
          SmallVector<Value> next;
          for (int64_t r = 0; r < blockRows; ++r) {
            Value row = arith::AddIOp::create(b, loc, row0, index(r));
            Value word = tensor::ExtractOp::create(b, loc, rowWords,
                                                   ValueRange{row, quad});
            Value broadcast = vector::BitCastOp::create(
                b, loc, operandType,
                vector::BroadcastOp::create(b, loc, vectorType, word));
            for (int64_t c = 0; c < kColumnVectors; ++c) {
              Value sum = acc[r * kColumnVectors + c];
              if (dot.isVNNI) {
                sum =
                    LLVM::CallOp::create(b, loc, TypeRange{vectorType},
                                         dotProduct.getSymName(),
                                         ValueRange{sum, broadcast, weights[c]})
                        .getResult();
              } else {
                Value products =
                    LLVM::CallOp::create(b, loc, TypeRange{vectorType},
                                         dotProduct.getSymName(),
                                         ValueRange{broadcast, weights[c]})
                        .getResult();
                sum = arith::AddIOp::create(b, loc, sum, products);
              }
              next.push_back(sum);
            }
          }
          scf::YieldOp::create(b, loc, next);
        });

    // - az * colsum, then the block's rows of these columns; columns past N
    // are masked.
    Value zeroPointSplat =
        vector::BroadcastOp::create(b, loc, vectorType, zeroPoint);
    for (int64_t c = 0; c < kColumnVectors; ++c) {
      Value first =
          arith::MulIOp::create(b, loc, firstVector[c], index(dot.lanes));
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
                   ArrayRef<bool>{n % (dot.lanes * kColumnVectors) == 0})
                   .getResult();
      }
    }
    return tile;
  }

  /// a's rows as the instruction's words, rows x quads i32, made once
  /// before the blocks read each word many times: for vpdpbusd four u8 bytes
  /// (signed ones offset by 128), for pmaddwd two i16; zeros past K.
  Value packRows() {
    auto type = RankedTensorType::get({rows, quads}, b.getI32Type());
    Value empty =
        tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
    MLIRContext *context = b.getContext();
    AffineMap identity = AffineMap::getMultiDimIdentityMap(2, context);
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{type}, ValueRange{}, ValueRange{empty},
        ArrayRef<AffineMap>{identity},
        ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                      utils::IteratorType::parallel},
        [&](OpBuilder &nested, Location l, ValueRange) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
          Value row = linalg::IndexOp::create(b, l, 0);
          Value quad = linalg::IndexOp::create(b, l, 1);
          Type i32 = b.getI32Type();
          int64_t bits = dot.getElementBits();
          Value word = arith::ConstantIntOp::create(b, l, i32, 0);
          for (int64_t t = 0; t < dot.rowsPerWord; ++t) {
            Value column = arith::AddIOp::create(
                b, l, arith::MulIOp::create(b, l, quad, index(dot.rowsPerWord)),
                index(t));
            Value inside = arith::CmpIOp::create(
                b, l, arith::CmpIPredicate::ult, column, index(k));
            Value clamped = arith::MinUIOp::create(b, l, column, index(k - 1));
            Value byte =
                tensor::ExtractOp::create(b, l, a, ValueRange{row, clamped});
            Value element;
            if (dot.isVNNI) {
              if (signedA)
                byte = arith::XOrIOp::create(
                    b, l, byte,
                    arith::ConstantIntOp::create(b, l, b.getI8Type(), 0x80));
              element = arith::ExtUIOp::create(b, l, i32, byte);
            } else {
              Value wide = signedA ? Value(arith::ExtSIOp::create(
                                         b, l, b.getI16Type(), byte))
                                   : Value(arith::ExtUIOp::create(
                                         b, l, b.getI16Type(), byte));
              element = arith::ExtUIOp::create(b, l, i32, wide);
            }
            element = arith::SelectOp::create(
                b, l, inside, element,
                arith::ConstantIntOp::create(b, l, i32, 0));
            if (t)
              element = arith::ShLIOp::create(
                  b, l, element,
                  arith::ConstantIntOp::create(b, l, i32, bits * t));
            word = arith::OrIOp::create(b, l, word, element);
          }
          linalg::YieldOp::create(b, l, word);
        });
    return generic.getResult(0);
  }

  OpBuilder &b;
  Location loc;
  const DotProduct &dot;
  LLVM::LLVMFuncOp dotProduct;
  Value a;
  bool signedA;
  int64_t rows, k, n, quads, columnPairs;
  VectorType vectorType, operandType;
  Value words, columnSums, zeroPoint, rowWords;
};

/// The declaration of `dot`'s intrinsic (its call is a call op, whose
/// effects bufferization's deallocation knows, where llvm.call_intrinsic
/// declares none): vpdpbusd (<16 x i32>, <64 x i8>, <64 x i8>) -> <16 x
/// i32>, pmaddwd (<2n x i16>, <2n x i16>) -> <n x i32>.
static LLVM::LLVMFuncOp getDotProduct(ModuleOp module, const DotProduct &dot) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(dot.intrinsic))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto sums = VectorType::get({dot.lanes}, b.getI32Type());
  Type operand = getOperandType(b.getContext(), dot);
  SmallVector<Type> arguments = {operand, operand};
  if (dot.isVNNI)
    arguments.insert(arguments.begin(), sums);
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), dot.intrinsic,
                                  LLVM::LLVMFunctionType::get(sums, arguments));
}

/// Rewrites `op` when it qualifies; the generic lowering takes it otherwise.
static void lowerMatmul(IRRewriter &rewriter, MatMulIntegerOp op,
                        const DotProduct &dot) {
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
      packWeights(*bTensor, *bZero, dot, op.getContext());
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
  Value result =
      MatmulEmitter(rewriter, loc, dot,
                    getDotProduct(op->getParentOfType<ModuleOp>(), dot), a,
                    aZero, signedA, *packed, rows, k, n)
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
    FailureOr<CPUTarget> result =
        getPassTarget(context, getArgument(), targetCpu, targetFeatures);
    if (failed(result))
      return failure();
    target = *result;
    return success();
  }

  void runOnOperation() override {
    std::optional<DotProduct> dot = chooseDotProduct(target);
    if (!dot)
      return;
    SmallVector<MatMulIntegerOp> ops;
    getOperation()->walk([&](MatMulIntegerOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (MatMulIntegerOp op : ops)
      lowerMatmul(rewriter, op, *dot);
  }

  CPUTarget target;
};

} // namespace
