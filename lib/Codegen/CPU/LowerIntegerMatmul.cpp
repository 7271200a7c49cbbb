//===- LowerIntegerMatmul.cpp - int8 products and convolutions -*- C++ -*-===//
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
// A convolution by constant filters is the same product as an implicit
// GEMM (ConvGeometry): row m is output pixel (n, oh, ow), K runs over the
// kernel taps and, in each, the channels rounded up to whole words; the
// filters are packed as that K x F matrix (zero for the rounding channels),
// and each row reads its words in place from the input, padded once with
// its zero point: no im2col copy. The taps' positions are computed once per
// tap, the rows' once per block.
//
//===----------------------------------------------------------------------===//

#include "PaddedBuffer.h"

#include "graph/Codegen/CPU/Passes.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Dialect/Graph/IR/TypedTensor.h"
#include "graph/Target/CPU/PassTarget.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

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

/// Packs the K x N matrix of centered weights `centered(row, column)` (zero
/// for rows that only pad) for `dot`, or nothing when a centered weight does
/// not fit its element type.
static std::optional<PackedWeights>
packWeights(int64_t k, int64_t n,
            function_ref<int64_t(int64_t, int64_t)> centered,
            const DotProduct &dot, MLIRContext *context) {
  int64_t lanes = dot.lanes, rowsPerWord = dot.rowsPerWord;
  int64_t bits = dot.getElementBits();
  int64_t lowest = -(int64_t(1) << (bits - 1)), highest = -lowest - 1;
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
      int64_t value = centered(row, column);
      if (value < lowest || value > highest)
        return std::nullopt;
      int64_t word =
          ((column / lanes) * packed.quads + row / rowsPerWord) * lanes +
          column % lanes;
      uint32_t element = uint32_t(value) & ((uint64_t(1) << bits) - 1);
      words[word] = int32_t(uint32_t(words[word]) |
                            (element << (bits * (row % rowsPerWord))));
      sums[column] += int32_t(value);
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

/// How an epilogue op reads one operand: the value the chain carries, one
/// value for every element, one per column (the result's last dimension),
/// or one per element of the rows x n result.
enum class OperandKind { Chain, Scalar, Column, Full };

struct EpilogueOperand {
  OperandKind kind = OperandKind::Chain;
  /// Scalar: the element (storage type); Column: a 1-D tensor of n; Full: a
  /// rows x n tensor.
  Value value;
  /// The operand's graph element type (ui8 and i8 share a storage type).
  Type graphType;
};

/// The elementwise ops a graph.fused group applies to the integer sums
/// (graph-fuse's integer epilogue: dequantize, bias and residual adds,
/// relu or clip, the quantization of the result), in order, applied to
/// each vector of sums in registers before it is stored: the i32 sums never
/// reach memory.
struct Epilogue {
  struct Step {
    Operation *op;
    SmallVector<EpilogueOperand> operands;
  };
  SmallVector<Step> steps;
  /// The storage element type of the stored result (f32, or i8 after a
  /// quantization).
  Type resultType;
  /// A convolution's result padded for the next kernel's window
  /// (graph-pad-in-producer): [top, left, bottom, right], and the value of
  /// the border.
  SmallVector<int64_t> padding = {0, 0, 0, 0};
  Attribute padValue;
};

/// Where the rows of an integer convolution read their words: its input
/// padded (with the input's zero point) and in the instruction's elements,
/// NHWC, channels rounded up to whole words. Row m of the product is output
/// pixel (n, oh, ow); its K words are those of the channels at each kernel
/// tap (kh, kw), at input pixel (oh * sh + kh * dh, ow * sw + kw * dw).
///
/// With few channels (an image's 3: most of a word would pad), a tap is a
/// whole row of the kernel instead (`rowTaps`, dilation 1 along W): its KW x
/// C elements are consecutive in the input, read as words from the padded
/// input's rows (W and C collapsed into one dimension, `padded` then 3-D).
struct ConvGeometry {
  Value padded;
  int64_t outH, outW, kernelW, strideH, strideW, dilationH, dilationW;
  /// Kernel taps (KH x KW, or KH with rowTaps) and words per tap.
  int64_t taps, quadsPerTap;
  bool rowTaps = false;
  /// Input channels (the elements of one input pixel, with rowTaps).
  int64_t channels = 0;
  /// The output: images and filters.
  int64_t images, filters;
};

/// An integer product's micro-kernel on packed weights: rows of `a` (a
/// matrix, or a convolution's output pixels) by the weights' columns.
class ProductEmitter {
public:
  ProductEmitter(OpBuilder &b, Location loc, const DotProduct &dot,
                 LLVM::LLVMFuncOp dotProduct, Value aZero, bool signedA,
                 const PackedWeights &weights, int64_t rows, int64_t n)
      : b(b), loc(loc), dot(dot), dotProduct(dotProduct), signedA(signedA),
        rows(rows), n(n), quads(weights.quads),
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

  /// Applies `epilogue` to the sums before they are stored: the result is
  /// then of its result type.
  void setEpilogue(const Epilogue *value) { epilogue = value; }

  /// rows x n, i32, for the rows x K matrix `a` (i8 storage).
  Value emitMatmul(Value a, int64_t k) {
    rowWords = packRows(a, k);
    return emit();
  }

  /// N x OH x OW x F (i32, or the epilogue's type, its padding around),
  /// for the convolution `geometry` describes. Blocks of rows stay in one
  /// row of the output image, so that each writes a slice of it (padded or
  /// not): blockRows output pixels at a time, then the rest of the image
  /// row in one block.
  Value emitConv(const ConvGeometry &geometry) {
    conv = geometry;
    SmallVector<int64_t> padding =
        epilogue ? epilogue->padding : SmallVector<int64_t>{0, 0, 0, 0};
    SmallVector<int64_t> interior = {conv->images, conv->outH, conv->outW,
                                     conv->filters};
    SmallVector<int64_t> shape = {
        conv->images, conv->outH + padding[0] + padding[2],
        conv->outW + padding[1] + padding[3], conv->filters};
    Value out = tensor::EmptyOp::create(b, loc, shape, getResultElementType());
    if (shape != interior) {
      Value padValue = arith::ConstantOp::create(
          b, loc, cast<TypedAttr>(epilogue->padValue));
      out = fillBorder(b, loc, out, padValue, {0, padding[0], padding[1], 0},
                       interior);
    }
    int64_t full = conv->outW / dot.blockRows;
    int64_t tail = conv->outW % dot.blockRows;
    if (full)
      out = emitImageBlocks(out, padding, full, dot.blockRows, 0);
    if (tail)
      out = emitImageBlocks(out, padding, 1, tail, full * dot.blockRows);
    return out;
  }

  /// `x` (i8 storage, N x H x W x C) as the words of ConvGeometry::padded:
  /// signed values offset into u8 for vpdpbusd, widened to i16 for pmaddwd,
  /// then padded with the zero point (so that padding adds nothing) on
  /// `padding` ([top, left, bottom, right]) and on the channels to
  /// `channels`, then `extraColumns` more columns on the right (the last
  /// word of a kernel row may read past its last pixel).
  Value padInput(Value x, Value aZero, ArrayRef<int64_t> padding,
                 int64_t channels, int64_t extraColumns = 0) {
    auto type = cast<RankedTensorType>(x.getType());
    Type element = operandType.getElementType();
    SmallVector<Value> origin(cast<RankedTensorType>(aZero.getType()).getRank(),
                              index(0));
    Value zero = toInstructionElement(
        b, loc, tensor::ExtractOp::create(b, loc, aZero, origin));
    if (signedA || !dot.isVNNI) {
      Value init = tensor::EmptyOp::create(b, loc, type.getShape(), element);
      AffineMap identity = AffineMap::getMultiDimIdentityMap(4, b.getContext());
      x = linalg::GenericOp::create(
              b, loc, TypeRange{init.getType()}, ValueRange{x},
              ValueRange{init}, ArrayRef<AffineMap>{identity, identity},
              SmallVector<utils::IteratorType>(4,
                                               utils::IteratorType::parallel),
              [&](OpBuilder &nested, Location l, ValueRange args) {
                OpBuilder::InsertionGuard guard(b);
                b.setInsertionPoint(nested.getInsertionBlock(),
                                    nested.getInsertionPoint());
                linalg::YieldOp::create(b, l,
                                        toInstructionElement(b, l, args[0]));
              })
              .getResult(0);
    }
    ArrayRef<int64_t> shape = type.getShape();
    SmallVector<int64_t> low = {0, padding[0], padding[1], 0};
    SmallVector<int64_t> high = {0, padding[2], padding[3] + extraColumns,
                                 channels - shape[3]};
    if (llvm::all_of(low, [](int64_t v) { return v == 0; }) &&
        llvm::all_of(high, [](int64_t v) { return v == 0; }))
      return x;
    SmallVector<int64_t> paddedShape(shape);
    for (int64_t d = 0; d < 4; ++d)
      paddedShape[d] += low[d] + high[d];
    return tensor::PadOp::create(
        b, loc, RankedTensorType::get(paddedShape, element), x,
        getAsIndexOpFoldResult(b.getContext(), low),
        getAsIndexOpFoldResult(b.getContext(), high), zero);
  }

private:
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }

  /// An 8-bit element of a (i8 storage) as the instruction reads it: u8
  /// for vpdpbusd (signed values offset by 128), i16 for pmaddwd.
  Value toInstructionElement(OpBuilder &builder, Location l, Value byte) {
    if (dot.isVNNI)
      return signedA ? Value(arith::XOrIOp::create(
                           builder, l, byte,
                           arith::ConstantIntOp::create(
                               builder, l, builder.getI8Type(), 0x80)))
                     : byte;
    Type i16 = builder.getI16Type();
    return signedA ? Value(arith::ExtSIOp::create(builder, l, i16, byte))
                   : Value(arith::ExtUIOp::create(builder, l, i16, byte));
  }

  Type getResultElementType() {
    return epilogue ? epilogue->resultType : b.getI32Type();
  }

  Value emit() {
    auto type = RankedTensorType::get({rows, n}, getResultElementType());
    Value out =
        tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
    int64_t blocks = rows / dot.blockRows, tail = rows % dot.blockRows;
    if (blocks)
      out = emitBlocks(out, 0, blocks, dot.blockRows);
    if (tail)
      out = emitBlocks(out, blocks * dot.blockRows, tail, 1);
    return out;
  }

  /// Where each row of a block reads: its row of a (matmul), or its output
  /// pixel's image and the input position of its first tap (conv).
  struct RowOrigin {
    Value row, image, inputH, inputW;
  };

  /// Where a block's rows go: its slice of the result (rank-reduced to
  /// blockRows x n) and where each row reads.
  struct BlockPlace {
    SmallVector<OpFoldResult> offsets, sizes;
    SmallVector<RowOrigin> origins;
  };

  /// An scf.forall over `count` blocks of `blockRows` rows of `out`, each
  /// placed by `place` from its index: the block's tile is computed and
  /// inserted in place.
  Value emitForall(Value out, int64_t count, int64_t blockRows,
                   function_ref<BlockPlace(Value)> place) {
    SmallVector<OpFoldResult> ubs = {b.getIndexAttr(count)};
    auto forall = scf::ForallOp::create(
        b, loc, ubs, ValueRange{out}, std::nullopt,
        [&](OpBuilder &nested, Location, ValueRange args) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
          BlockPlace block = place(args[0]);
          SmallVector<OpFoldResult> strides(block.offsets.size(),
                                            b.getIndexAttr(1));
          Value tile = tensor::ExtractSliceOp::create(
              b, loc,
              RankedTensorType::get({blockRows, n}, getResultElementType()),
              args[1], block.offsets, block.sizes, strides);
          tile = emitBlock(tile, block.origins);
          auto terminator = scf::InParallelOp::create(b, loc);
          b.setInsertionPointToStart(terminator.getBody());
          tensor::ParallelInsertSliceOp::create(
              b, loc, tile, args[1], block.offsets, block.sizes, strides);
        });
    return forall.getResult(0);
  }

  /// `count` blocks of `blockRows` rows of a matrix product from `first`.
  Value emitBlocks(Value out, int64_t first, int64_t count, int64_t blockRows) {
    return emitForall(out, count, blockRows, [&](Value block) {
      Value row0 = arith::AddIOp::create(
          b, loc, index(first),
          arith::MulIOp::create(b, loc, block, index(blockRows)));
      BlockPlace place;
      place.offsets = {row0, b.getIndexAttr(0)};
      place.sizes = {b.getIndexAttr(blockRows), b.getIndexAttr(n)};
      for (int64_t r = 0; r < blockRows; ++r) {
        RowOrigin origin;
        origin.row = arith::AddIOp::create(b, loc, row0, index(r));
        place.origins.push_back(origin);
      }
      return place;
    });
  }

  /// The output image's rows and, in each, `blocksPerRow` blocks of
  /// `blockRows` pixels from column `firstColumn`, at their place in the
  /// (padded) result.
  Value emitImageBlocks(Value out, ArrayRef<int64_t> padding,
                        int64_t blocksPerRow, int64_t blockRows,
                        int64_t firstColumn) {
    int64_t count = conv->images * conv->outH * blocksPerRow;
    return emitForall(out, count, blockRows, [&](Value position) {
      Value imageRow =
          arith::DivUIOp::create(b, loc, position, index(blocksPerRow));
      Value block =
          arith::RemUIOp::create(b, loc, position, index(blocksPerRow));
      Value image = arith::DivUIOp::create(b, loc, imageRow, index(conv->outH));
      Value oh = arith::RemUIOp::create(b, loc, imageRow, index(conv->outH));
      Value ow0 = arith::AddIOp::create(
          b, loc, index(firstColumn),
          arith::MulIOp::create(b, loc, block, index(blockRows)));
      BlockPlace place;
      Value rowBase = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, imageRow, index(conv->outW)),
          ow0);
      Value inputH = arith::MulIOp::create(b, loc, oh, index(conv->strideH));
      for (int64_t r = 0; r < blockRows; ++r) {
        RowOrigin origin;
        origin.row = arith::AddIOp::create(b, loc, rowBase, index(r));
        origin.image = image;
        origin.inputH = inputH;
        origin.inputW = arith::MulIOp::create(
            b, loc, arith::AddIOp::create(b, loc, ow0, index(r)),
            index(conv->strideW));
        place.origins.push_back(origin);
      }
      place.offsets = {
          image,
          arith::AddIOp::create(b, loc, oh, index(padding[0])).getResult(),
          arith::AddIOp::create(b, loc, ow0, index(padding[1])).getResult(),
          b.getIndexAttr(0)};
      place.sizes = {b.getIndexAttr(1), b.getIndexAttr(1),
                     b.getIndexAttr(blockRows), b.getIndexAttr(conv->filters)};
      return place;
    });
  }

  /// The block's rows of the result, kColumnVectors vectors of columns at a
  /// time.
  Value emitBlock(Value tile, ArrayRef<RowOrigin> origins) {
    auto loop = scf::ForOp::create(
        b, loc, index(0), index(columnPairs), index(1), ValueRange{tile},
        [&](OpBuilder &nested, Location, Value pair, ValueRange args) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
          Value result = emitColumns(args[0], origins, pair);
          scf::YieldOp::create(b, loc, result);
        });
    return loop.getResult(0);
  }

  /// One step of K for every row and vector of columns: the weight words of
  /// `quad`, then one instruction per row and vector.
  SmallVector<Value> emitStep(ValueRange acc, ArrayRef<Value> firstVector,
                              Value quad,
                              function_ref<Value(int64_t)> wordOfRow) {
    SmallVector<Value> weights;
    for (Value vector : firstVector)
      weights.push_back(vector::BitCastOp::create(
          b, loc, operandType,
          vector::TransferReadOp::create(
              b, loc, vectorType, words, ValueRange{vector, quad, index(0)},
              arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0),
              ArrayRef<bool>{true})));
    SmallVector<Value> next;
    int64_t blockRows = acc.size() / kColumnVectors;
    for (int64_t r = 0; r < blockRows; ++r) {
      Value broadcast = vector::BitCastOp::create(
          b, loc, operandType,
          vector::BroadcastOp::create(b, loc, vectorType, wordOfRow(r)));
      for (int64_t c = 0; c < kColumnVectors; ++c) {
        Value sum = acc[r * kColumnVectors + c];
        if (dot.isVNNI) {
          sum = LLVM::CallOp::create(b, loc, TypeRange{vectorType},
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
    return next;
  }

  /// An scf.for from 0 to `count` carrying `initial`, its body `body`.
  SmallVector<Value>
  emitLoop(int64_t count, ValueRange initial,
           function_ref<SmallVector<Value>(Value, ValueRange)> body) {
    auto loop = scf::ForOp::create(
        b, loc, index(0), index(count), index(1), initial,
        [&](OpBuilder &nested, Location, Value iv, ValueRange acc) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
          scf::YieldOp::create(b, loc, body(iv, acc));
        });
    return SmallVector<Value>(loop.getResults());
  }

  /// The sums over K of the block's rows by these columns: one loop over
  /// K's words for a matrix; for a convolution, one over the kernel taps
  /// and, in it, one over the words of a tap.
  SmallVector<Value> emitSums(ArrayRef<RowOrigin> origins,
                              ArrayRef<Value> firstVector, ValueRange initial) {
    if (!conv)
      return emitLoop(quads, initial, [&](Value quad, ValueRange acc) {
        return emitStep(acc, firstVector, quad, [&](int64_t r) -> Value {
          return tensor::ExtractOp::create(b, loc, rowWords,
                                           ValueRange{origins[r].row, quad});
        });
      });
    auto wordType =
        VectorType::get({dot.rowsPerWord}, operandType.getElementType());
    auto oneWord = VectorType::get({1}, b.getI32Type());
    return emitLoop(conv->taps, initial, [&](Value tap, ValueRange acc) {
      // A kernel row's words start at its first pixel's first element.
      Value kw = conv->rowTaps
                     ? index(0)
                     : arith::RemUIOp::create(b, loc, tap, index(conv->kernelW))
                           .getResult();
      Value kh = conv->rowTaps
                     ? tap
                     : arith::DivUIOp::create(b, loc, tap, index(conv->kernelW))
                           .getResult();
      Value offsetH = arith::MulIOp::create(b, loc, kh, index(conv->dilationH));
      Value offsetW = arith::MulIOp::create(b, loc, kw, index(conv->dilationW));
      SmallVector<Value> inputH, inputW;
      for (const RowOrigin &origin : origins) {
        inputH.push_back(arith::AddIOp::create(b, loc, origin.inputH, offsetH));
        Value w = arith::AddIOp::create(b, loc, origin.inputW, offsetW);
        if (conv->rowTaps)
          w = arith::MulIOp::create(b, loc, w, index(conv->channels));
        inputW.push_back(w);
      }
      Value firstQuad =
          arith::MulIOp::create(b, loc, tap, index(conv->quadsPerTap));
      return emitLoop(
          conv->quadsPerTap, acc, [&](Value quadOfTap, ValueRange acc) {
            Value quad = arith::AddIOp::create(b, loc, firstQuad, quadOfTap);
            Value channel = arith::MulIOp::create(b, loc, quadOfTap,
                                                  index(dot.rowsPerWord));
            return emitStep(acc, firstVector, quad, [&](int64_t r) -> Value {
              SmallVector<Value> indices = {origins[r].image, inputH[r],
                                            inputW[r], channel};
              if (conv->rowTaps)
                indices = {origins[r].image, inputH[r],
                           arith::AddIOp::create(b, loc, inputW[r], channel)};
              Value elements = vector::TransferReadOp::create(
                  b, loc, wordType, conv->padded, indices,
                  arith::ConstantIntOp::create(b, loc,
                                               operandType.getElementType(), 0),
                  ArrayRef<bool>{true});
              return vector::ExtractOp::create(
                  b, loc, vector::BitCastOp::create(b, loc, oneWord, elements),
                  ArrayRef<int64_t>{0});
            });
          });
    });
  }

  Value emitColumns(Value tile, ArrayRef<RowOrigin> origins, Value pair) {
    int64_t blockRows = origins.size();
    SmallVector<Value> firstVector;
    for (int64_t c = 0; c < kColumnVectors; ++c)
      firstVector.push_back(arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, pair, index(kColumnVectors)),
          index(c)));
    Value zeros = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vectorType, b.getI32IntegerAttr(0)));
    SmallVector<Value> initial(blockRows * kColumnVectors, zeros);
    SmallVector<Value> sums = emitSums(origins, firstVector, initial);

    // - az * colsum, then the block's rows of these columns; columns past N
    // are masked.
    Value zeroPointSplat =
        vector::BroadcastOp::create(b, loc, vectorType, zeroPoint);
    for (int64_t c = 0; c < kColumnVectors; ++c) {
      Value first =
          arith::MulIOp::create(b, loc, firstVector[c], index(dot.lanes));
      Value columnSum = vector::TransferReadOp::create(
          b, loc, vectorType, columnSums, ValueRange{first},
          arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0),
          ArrayRef<bool>{true});
      Value correction =
          arith::MulIOp::create(b, loc, zeroPointSplat, columnSum);
      for (int64_t r = 0; r < blockRows; ++r) {
        Value result = arith::SubIOp::create(
            b, loc, sums[r * kColumnVectors + c], correction);
        if (epilogue)
          result = applyEpilogue(result, origins[r].row, first);
        tile = vector::TransferWriteOp::create(
                   b, loc, result, tile, ValueRange{index(r), first},
                   ArrayRef<bool>{n % (dot.lanes * kColumnVectors) == 0})
                   .getResult();
      }
    }
    return tile;
  }

  /// `operand` as a vector of the lanes at columns `first`.. of `row`.
  Value readOperand(const EpilogueOperand &operand, Value row, Value first) {
    Type element = operand.value.getType();
    if (auto tensor = dyn_cast<RankedTensorType>(element))
      element = tensor.getElementType();
    auto type = VectorType::get({dot.lanes}, element);
    if (operand.kind == OperandKind::Scalar)
      return vector::BroadcastOp::create(b, loc, type, operand.value);
    Value padding = isa<FloatType>(element)
                        ? Value(arith::ConstantOp::create(
                              b, loc, b.getFloatAttr(element, 0.0)))
                        : Value(arith::ConstantOp::create(
                              b, loc, b.getIntegerAttr(element, 0)));
    bool inBounds = n % dot.lanes == 0;
    SmallVector<Value> indices = {first};
    if (operand.kind == OperandKind::Full)
      indices.insert(indices.begin(), row);
    return vector::TransferReadOp::create(b, loc, type, operand.value, indices,
                                          padding, ArrayRef<bool>{inBounds});
  }

  /// An 8-bit (or i32) integer vector of graph type `graphType` as f32.
  Value toFloat(Value value, Type graphType) {
    auto type = VectorType::get({dot.lanes}, b.getF32Type());
    if (graphType.isUnsignedInteger())
      return arith::UIToFPOp::create(b, loc, type, value);
    return arith::SIToFPOp::create(b, loc, type, value);
  }

  /// roundeven(x / scale) + zero point, clamped to the range of
  /// `quantizedType` by maxnumf and minnumf (NaN gives the lowest value):
  /// the quantized integer as a float, as graph.quantize's lowering.
  Value quantizeToFloat(Value x, Value scale, Value zero, Type quantizedType) {
    unsigned width = quantizedType.getIntOrFloatBitWidth();
    bool isUnsigned = quantizedType.isUnsignedInteger();
    double lowest = isUnsigned ? 0.0 : -std::ldexp(1.0, width - 1);
    double highest = isUnsigned ? std::ldexp(1.0, width) - 1
                                : std::ldexp(1.0, width - 1) - 1;
    auto splat = [&](double v) -> Value {
      return arith::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(cast<ShapedType>(x.getType()),
                                 b.getF32FloatAttr(float(v))));
    };
    Value scaled = arith::DivFOp::create(b, loc, x, scale);
    Value rounded = math::RoundEvenOp::create(b, loc, scaled);
    Value shifted =
        arith::AddFOp::create(b, loc, rounded, toFloat(zero, quantizedType));
    Value raised = arith::MaxNumFOp::create(b, loc, shifted, splat(lowest));
    return arith::MinNumFOp::create(b, loc, raised, splat(highest));
  }

  /// The epilogue's ops on the sums of one vector of columns of one row.
  Value applyEpilogue(Value sums, Value row, Value first) {
    Value value = sums;
    for (const Epilogue::Step &step : epilogue->steps) {
      SmallVector<Value> args;
      for (const EpilogueOperand &operand : step.operands)
        args.push_back(operand.kind == OperandKind::Chain
                           ? value
                           : readOperand(operand, row, first));
      Operation *op = step.op;
      auto floatSplat = [&](float v) -> Value {
        return arith::ConstantOp::create(
            b, loc,
            DenseElementsAttr::get(VectorType::get({dot.lanes}, b.getF32Type()),
                                   b.getF32FloatAttr(v)));
      };
      if (auto dequantize = dyn_cast<DequantizeOp>(op)) {
        Type graphType = step.operands[0].graphType;
        Value centered =
            arith::SubFOp::create(b, loc, toFloat(args[0], graphType),
                                  toFloat(args[2], step.operands[2].graphType));
        value = arith::MulFOp::create(b, loc, centered, args[1]);
      } else if (isa<AddOp>(op)) {
        value = isa<FloatType>(getElementTypeOrSelf(args[0].getType()))
                    ? Value(arith::AddFOp::create(b, loc, args[0], args[1]))
                    : Value(arith::AddIOp::create(b, loc, args[0], args[1]));
      } else if (isa<SubOp>(op)) {
        value = isa<FloatType>(getElementTypeOrSelf(args[0].getType()))
                    ? Value(arith::SubFOp::create(b, loc, args[0], args[1]))
                    : Value(arith::SubIOp::create(b, loc, args[0], args[1]));
      } else if (isa<MulOp>(op)) {
        value = isa<FloatType>(getElementTypeOrSelf(args[0].getType()))
                    ? Value(arith::MulFOp::create(b, loc, args[0], args[1]))
                    : Value(arith::MulIOp::create(b, loc, args[0], args[1]));
      } else if (isa<ReluOp>(op)) {
        value = arith::MaximumFOp::create(b, loc, args[0], floatSplat(0.0f));
      } else if (auto clip = dyn_cast<ClipOp>(op)) {
        Value raised = arith::MaximumFOp::create(
            b, loc, args[0], floatSplat(clip.getMin().convertToFloat()));
        value = arith::MinimumFOp::create(
            b, loc, raised, floatSplat(clip.getMax().convertToFloat()));
      } else if (isa<FakeQuantizeOp>(op)) {
        Type quantizedType = step.operands[2].graphType;
        Value zero = toFloat(args[2], quantizedType);
        Value quantized =
            quantizeToFloat(args[0], args[1], args[2], quantizedType);
        value = arith::MulFOp::create(
            b, loc, arith::SubFOp::create(b, loc, quantized, zero), args[1]);
      } else {
        auto quantize = cast<QuantizeOp>(op);
        Type quantizedType =
            getElementTypeOrSelf(quantize.getOutput().getType());
        Value clamped =
            quantizeToFloat(args[0], args[1], args[2], quantizedType);
        auto bytes = VectorType::get({dot.lanes}, epilogue->resultType);
        value = quantizedType.isUnsignedInteger()
                    ? Value(arith::FPToUIOp::create(b, loc, bytes, clamped))
                    : Value(arith::FPToSIOp::create(b, loc, bytes, clamped));
      }
    }
    return value;
  }

  /// a's rows as the instruction's words, rows x quads i32, made once
  /// before the blocks read each word many times: for vpdpbusd four u8 bytes
  /// (signed ones offset by 128), for pmaddwd two i16; zeros past K.
  Value packRows(Value a, int64_t k) {
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
            // Unsigned: the bits of the u8 (vpdpbusd) or i16 (pmaddwd).
            Value element = arith::ExtUIOp::create(
                b, l, i32, toInstructionElement(b, l, byte));
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
  bool signedA;
  int64_t rows, n, quads, columnPairs;
  VectorType vectorType, operandType;
  Value words, columnSums, zeroPoint, rowWords;
  std::optional<ConvGeometry> conv;
  const Epilogue *epilogue = nullptr;
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

/// The operands an integer anchor reads: its own outside a fused group,
/// inside one the group's operands that its block arguments stand for.
using OuterValue = function_ref<Value(Value)>;

/// `value` (graph type, static shape) collapsed to `shape`: all but its
/// last dimension into one (rows x n), or everything into one (n).
static Value collapseTo(OpBuilder &b, Location loc, Value value,
                        ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  SmallVector<ReassociationIndices> groups(shape.size());
  for (int64_t d = 0; d < type.getRank(); ++d)
    groups[shape.size() == 1 || d + 1 < type.getRank() ? 0 : 1].push_back(d);
  if (type.getRank() == 0)
    groups.clear();
  return tensor::CollapseShapeOp::create(b, loc, type.clone(shape), value,
                                         groups);
}

/// `result` (rows x n, storage type) as the graph value of type `type`.
static Value expandResult(OpBuilder &b, Location loc, Value result,
                          RankedTensorType type) {
  auto storage =
      type.clone(cast<RankedTensorType>(result.getType()).getElementType());
  if (type.getRank() != 2) {
    SmallVector<ReassociationIndices> groups(2);
    for (int64_t d = 0; d + 1 < type.getRank(); ++d)
      groups[0].push_back(d);
    groups[1].push_back(type.getRank() - 1);
    result = tensor::ExpandShapeOp::create(b, loc, storage, result, groups);
  }
  if (storage != type)
    result =
        UnrealizedConversionCastOp::create(b, loc, type, result).getResult(0);
  return result;
}

/// The kernel of `op` when it qualifies, of type `resultType` (the anchor's,
/// or its fused group's with `epilogue`), or null: the generic lowering
/// takes it then.
static Value lowerMatmul(IRRewriter &rewriter, MatMulIntegerOp op,
                         OuterValue outer, const DotProduct &dot,
                         const Epilogue *epilogue,
                         RankedTensorType resultType) {
  Attribute bAttr, bZeroAttr;
  if (!matchPattern(outer(op.getB()), m_Constant(&bAttr)) ||
      !matchPattern(outer(op.getBZeroPoint()), m_Constant(&bZeroAttr)))
    return {};
  std::optional<TypedTensor> bTensor = readTypedTensor(bAttr);
  std::optional<TypedTensor> bZero = readTypedTensor(bZeroAttr);
  auto aType = cast<RankedTensorType>(op.getA().getType());
  auto zeroType = cast<RankedTensorType>(op.getAZeroPoint().getType());
  if (!bTensor || !bZero || bTensor->getShape().size() != 2 ||
      zeroType.getNumElements() != 1 || !aType.hasStaticShape())
    return {};
  ArrayRef<int64_t> bShape = bTensor->getShape();
  // Per column: N values or one, on the last dimension.
  if (bZero->getNumElements() != 1 && bZero->getShape().back() != bShape[1])
    return {};
  int64_t k = bShape[0], n = bShape[1];
  bool perColumn = bZero->getNumElements() != 1;
  std::optional<PackedWeights> packed = packWeights(
      k, n,
      [&](int64_t row, int64_t column) {
        return bTensor->getInt(row * n + column) -
               bZero->getInt(perColumn ? column : 0);
      },
      dot, op.getContext());
  if (!packed)
    return {};

  Location loc = op.getLoc();
  ArrayRef<int64_t> aShape = aType.getShape();
  int64_t rows = aType.getNumElements() / std::max<int64_t>(k, 1);
  bool signedA = !aType.getElementType().isUnsignedInteger();
  Value a = toStorage(rewriter, loc, outer(op.getA()));
  if (aShape.size() != 2)
    a = collapseTo(rewriter, loc, a, {rows, k});
  Value aZero = toStorage(rewriter, loc, outer(op.getAZeroPoint()));
  ProductEmitter emitter(rewriter, loc, dot,
                         getDotProduct(op->getParentOfType<ModuleOp>(), dot),
                         aZero, signedA, *packed, rows, n);
  emitter.setEpilogue(epilogue);
  return expandResult(rewriter, loc, emitter.emitMatmul(a, k), resultType);
}

/// The same for a 2-D convolution of one group by constant filters (either
/// layout): an implicit GEMM whose rows are the output pixels and whose K is
/// the kernel taps' channels, read from the padded input in place (NCHW
/// operands are transposed to NHWC and back; an epilogue needs NHWC).
static Value lowerConv(IRRewriter &rewriter, ConvIntegerOp op, OuterValue outer,
                       const DotProduct &dot, const Epilogue *epilogue,
                       RankedTensorType resultType) {
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  auto zeroType = cast<RankedTensorType>(op.getInputZeroPoint().getType());
  bool nhwc = op.getLayout() == Layout::NHWC;
  Attribute wAttr, wZeroAttr;
  if (inputType.getRank() != 4 || op.getGroups() != 1 ||
      !inputType.hasStaticShape() || zeroType.getNumElements() != 1 ||
      (epilogue && !nhwc) ||
      !matchPattern(outer(op.getWeight()), m_Constant(&wAttr)) ||
      !matchPattern(outer(op.getWeightZeroPoint()), m_Constant(&wZeroAttr)))
    return {};
  std::optional<TypedTensor> w = readTypedTensor(wAttr);
  std::optional<TypedTensor> wZero = readTypedTensor(wZeroAttr);
  if (!w || !wZero)
    return {};
  ArrayRef<int64_t> ws = w->getShape();
  // KH, KW, C, F in either layout.
  int64_t kh = nhwc ? ws[0] : ws[2], kw = nhwc ? ws[1] : ws[3];
  int64_t c = nhwc ? ws[2] : ws[1], f = nhwc ? ws[3] : ws[0];
  bool perFilter = wZero->getNumElements() != 1;
  ArrayRef<int64_t> dilations = op.getDilations();
  // A tap per kernel row where channels would mostly pad a word.
  bool rowTaps = c % dot.rowsPerWord != 0 && kw > 1 && dilations[1] == 1;
  int64_t tapElements = rowTaps ? kw * c : c;
  int64_t quadsPerTap = (tapElements + dot.rowsPerWord - 1) / dot.rowsPerWord;
  int64_t wordsOfTap = quadsPerTap * dot.rowsPerWord;
  int64_t channels = rowTaps ? c : wordsOfTap;
  int64_t taps = rowTaps ? kh : kh * kw;
  std::optional<PackedWeights> packed = packWeights(
      taps * wordsOfTap, f,
      [&](int64_t row, int64_t filter) -> int64_t {
        int64_t tap = row / wordsOfTap, element = row % wordsOfTap;
        if (element >= tapElements)
          return 0;
        int64_t y = rowTaps ? tap : tap / kw;
        int64_t x = rowTaps ? element / c : tap % kw;
        int64_t channel = rowTaps ? element % c : element;
        int64_t position = nhwc ? ((y * kw + x) * c + channel) * f + filter
                                : ((filter * c + channel) * kh + y) * kw + x;
        return w->getInt(position) - wZero->getInt(perFilter ? filter : 0);
      },
      dot, op.getContext());
  if (!packed)
    return {};

  Location loc = op.getLoc();
  bool signedA = !inputType.getElementType().isUnsignedInteger();
  Value input = toStorage(rewriter, loc, outer(op.getInput()));
  auto transpose = [&](Value value, ArrayRef<int64_t> perm) -> Value {
    auto type = cast<RankedTensorType>(value.getType());
    SmallVector<int64_t> shape;
    for (int64_t p : perm)
      shape.push_back(type.getDimSize(p));
    Value init =
        tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType());
    return linalg::TransposeOp::create(rewriter, loc, value, init, perm)
        .getResult()[0];
  };
  if (!nhwc)
    input = transpose(input, {0, 2, 3, 1});
  ArrayRef<int64_t> out = cast<RankedTensorType>(op.getType()).getShape();
  int64_t outH = nhwc ? out[1] : out[2], outW = nhwc ? out[2] : out[3];
  int64_t rows = out[0] * outH * outW;
  if (epilogue && (epilogue->padding != ArrayRef<int64_t>{0, 0, 0, 0}) && !nhwc)
    return {};
  Value aZero = toStorage(rewriter, loc, outer(op.getInputZeroPoint()));
  ProductEmitter emitter(rewriter, loc, dot,
                         getDotProduct(op->getParentOfType<ModuleOp>(), dot),
                         aZero, signedA, *packed, rows, f);
  emitter.setEpilogue(epilogue);
  ArrayRef<int64_t> strides = op.getStrides();
  ConvGeometry geometry;
  // The last word of a kernel row reads up to wordsOfTap - tapElements
  // elements past it: whole pixels of padding more on the right.
  int64_t extraColumns = (wordsOfTap - tapElements + c - 1) / c;
  geometry.padded = emitter.padInput(input, aZero, op.getPadding(), channels,
                                     rowTaps ? extraColumns : 0);
  if (rowTaps) {
    auto paddedType = cast<RankedTensorType>(geometry.padded.getType());
    ArrayRef<int64_t> p = paddedType.getShape();
    geometry.padded = tensor::CollapseShapeOp::create(
        rewriter, loc, paddedType.clone({p[0], p[1], p[2] * p[3]}),
        geometry.padded, SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}});
  }
  geometry.rowTaps = rowTaps;
  geometry.channels = c;
  geometry.outH = outH;
  geometry.outW = outW;
  geometry.kernelW = kw;
  geometry.strideH = strides[0];
  geometry.strideW = strides[1];
  geometry.dilationH = dilations[0];
  geometry.dilationW = dilations[1];
  geometry.taps = taps;
  geometry.quadsPerTap = quadsPerTap;
  geometry.images = out[0];
  geometry.filters = f;
  Value result = emitter.emitConv(geometry);
  if (!nhwc)
    return transpose(result, {0, 3, 1, 2});
  if (result.getType() != resultType)
    result =
        UnrealizedConversionCastOp::create(rewriter, loc, resultType, result)
            .getResult(0);
  return result;
}

/// The kernel of an integer anchor (with `epilogue`, of type `resultType`).
static Value lowerAnchor(IRRewriter &rewriter, Operation *anchor,
                         OuterValue outer, const DotProduct &dot,
                         const Epilogue *epilogue,
                         RankedTensorType resultType) {
  if (auto matmul = dyn_cast<MatMulIntegerOp>(anchor))
    return lowerMatmul(rewriter, matmul, outer, dot, epilogue, resultType);
  return lowerConv(rewriter, cast<ConvIntegerOp>(anchor), outer, dot, epilogue,
                   resultType);
}

/// The epilogue of a fused group whose first op is an integer anchor, its
/// operands prepared before the kernel (scalars read, columns and full
/// operands collapsed), or nothing when an op or an operand is not one the
/// kernel applies in registers.
static std::optional<Epilogue> buildEpilogue(OpBuilder &b, FusedOp fused,
                                             OuterValue outer) {
  Block &body = fused.getBody().front();
  Operation *anchor = &body.front();
  auto anchorType = cast<RankedTensorType>(anchor->getResult(0).getType());
  ArrayRef<int64_t> shape = anchorType.getShape();
  int64_t n = shape.back();
  int64_t rows = anchorType.getNumElements() / std::max<int64_t>(n, 1);
  Location loc = fused.getLoc();
  Epilogue epilogue;
  Value chain = anchor->getResult(0);
  for (Operation &op : llvm::drop_begin(body.without_terminator())) {
    // Constants the ops below read as attributes (the padding value).
    if (isa<ConstantOp>(op))
      continue;
    // The padding of a float result, last (graph-pad-in-producer): pads of
    // the image's rows and columns, NHWC.
    if (auto pad = dyn_cast<PadOp>(op)) {
      ArrayRef<int64_t> pads = pad.getPads();
      Attribute value;
      if (Value padValue = pad.getValue()) {
        DenseElementsAttr elements;
        if (!matchPattern(padValue, m_Constant(&elements)) ||
            !elements.isSplat())
          return std::nullopt;
        value = elements.getSplatValue<Attribute>();
      } else {
        value = b.getF32FloatAttr(0.0f);
      }
      if (pad.getX() != chain || pad.getMode() != "constant" ||
          shape.size() != 4 || pads.size() != 8 || pads[0] || pads[3] ||
          pads[4] || pads[7] ||
          !getElementTypeOrSelf(chain.getType()).isF32() ||
          &op != body.getTerminator()->getPrevNode())
        return std::nullopt;
      epilogue.padding = {pads[1], pads[2], pads[5], pads[6]};
      epilogue.padValue = value;
      chain = pad.getOutput();
      continue;
    }
    if (!isIntegerEpilogueOp(&op, chain, shape) || op.getNumResults() != 1 ||
        llvm::count(op.getOperands(), chain) != 1)
      return std::nullopt;
    Epilogue::Step step{&op, {}};
    for (Value operand : op.getOperands()) {
      EpilogueOperand prepared;
      auto type = cast<RankedTensorType>(operand.getType());
      prepared.graphType = type.getElementType();
      if (operand == chain) {
        step.operands.push_back(prepared);
        continue;
      }
      if (!type.hasStaticShape() ||
          (operand.getDefiningOp() &&
           operand.getDefiningOp()->getBlock() == &body))
        return std::nullopt;
      Value value = toStorage(b, loc, outer(operand));
      ArrayRef<int64_t> dims = type.getShape();
      if (type.getNumElements() == 1) {
        prepared.kind = OperandKind::Scalar;
        SmallVector<Value> origin(dims.size(),
                                  arith::ConstantIndexOp::create(b, loc, 0));
        prepared.value = tensor::ExtractOp::create(b, loc, value, origin);
      } else if (dims.back() == n && type.getNumElements() == n) {
        prepared.kind = OperandKind::Column;
        prepared.value = collapseTo(b, loc, value, {n});
      } else if (dims == shape) {
        prepared.kind = OperandKind::Full;
        prepared.value = collapseTo(b, loc, value, {rows, n});
      } else {
        return std::nullopt;
      }
      step.operands.push_back(prepared);
    }
    epilogue.steps.push_back(step);
    chain = op.getResult(0);
  }
  Type resultType = getElementTypeOrSelf(chain.getType());
  // The sums stay i32 only without a dequantization: nothing to gain.
  if (!resultType.isF32() && !resultType.isInteger(8))
    return std::nullopt;
  epilogue.resultType =
      resultType.isF32() ? resultType : IntegerType::get(b.getContext(), 8);
  return epilogue;
}

/// A fused group of an integer anchor and its epilogue as one kernel, when
/// both qualify; left to graph-lower-fused otherwise.
static void lowerFusedGroup(IRRewriter &rewriter, FusedOp fused,
                            const DotProduct &dot) {
  Block &body = fused.getBody().front();
  Operation *anchor = &body.front();
  auto outer = [&](Value value) -> Value {
    if (auto arg = dyn_cast<BlockArgument>(value);
        arg && arg.getOwner() == &body)
      return fused.getOperand(arg.getArgNumber());
    return value;
  };
  rewriter.setInsertionPoint(fused);
  // Built first, as the kernel reads what it prepares; erased when the
  // kernel does not qualify.
  Operation *before = fused->getPrevNode();
  std::optional<Epilogue> epilogue = buildEpilogue(rewriter, fused, outer);
  Value result;
  if (epilogue)
    result = lowerAnchor(rewriter, anchor, outer, dot, &*epilogue,
                         cast<RankedTensorType>(fused.getType(0)));
  if (result) {
    rewriter.replaceOp(fused, result);
    return;
  }
  // Nothing made is used: erase it, last first.
  for (Operation *op = fused->getPrevNode(); op && op != before;) {
    Operation *previous = op->getPrevNode();
    rewriter.eraseOp(op);
    op = previous;
  }
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
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (auto fused = dyn_cast<FusedOp>(op)) {
        Block &body = fused.getBody().front();
        if (fused->getNumResults() == 1 && !body.empty() &&
            isa<MatMulIntegerOp, ConvIntegerOp>(body.front()))
          ops.push_back(op);
        return;
      }
      if (isa<MatMulIntegerOp, ConvIntegerOp>(op) &&
          !op->getParentOfType<FusedOp>())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops) {
      if (auto fused = dyn_cast<FusedOp>(op)) {
        lowerFusedGroup(rewriter, fused, *dot);
        continue;
      }
      rewriter.setInsertionPoint(op);
      Value result = lowerAnchor(
          rewriter, op, [](Value value) { return value; }, *dot, nullptr,
          cast<RankedTensorType>(op->getResult(0).getType()));
      if (result)
        rewriter.replaceOp(op, result);
    }
  }

  CPUTarget target;
};

} // namespace
