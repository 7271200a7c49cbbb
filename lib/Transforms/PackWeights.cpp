//===- PackWeights.cpp - Constant weights in the micro-kernels' layout ----===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The data-tiling decision of the graph (TVM's AlterOpLayout, IREE's
// materialized encodings): a matrix product by a constant K x N matrix
// (`graph.matmul`, `graph.gemm`, inside `graph.fused` bodies too) takes the
// matrix packed into the panels its micro-kernel streams, N/n0 x K x n0
// (`packed_b`), and a convolution of one group its weights as F/f0 x KH x KW
// x C x f0 (`packed_weight`), with n0 and f0 chosen for the target
// (KernelConfig). The packed
// constant is computed here, at compile time; a weight that is not a
// constant stays as it is. Packing is a permutation: the program's results
// do not change.
//
//===----------------------------------------------------------------------===//

#include "FusionPatterns.h"

#include "graph/Dialect/Graph/IR/ConstantTensor.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Target/CPU/KernelConfig.h"
#include "graph/Target/CPU/PassTarget.h"
#include "graph/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHPACKWEIGHTS
#define GEN_PASS_DEF_GRAPHPRINTKERNELCONFIG
#include "graph/Transforms/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

namespace {
/// The sizes of a matrix product: M x K by K x N.
struct ProductShape {
  int64_t m, k, n;
};

/// A matrix product whose K x N operand can be packed: the op, its sizes and
/// whether the operand holds the matrix transposed (gemm's trans_b).
struct PackableProduct {
  Operation *op;
  OpOperand *weight;
  ProductShape shape;
  bool transposed;
};
} // namespace

/// M, K and N of a graph.matmul or graph.gemm (packed or not), or nothing.
static std::optional<ProductShape> getProductShape(Operation *op) {
  Value a;
  bool transA = false;
  if (auto matmul = dyn_cast<MatMulOp>(op)) {
    a = matmul.getA();
  } else if (auto gemm = dyn_cast<GemmOp>(op)) {
    a = gemm.getA();
    transA = gemm.getTransA();
  } else {
    return std::nullopt;
  }
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  return ProductShape{
      result.getDimSize(0),
      cast<RankedTensorType>(a.getType()).getDimSize(transA ? 0 : 1),
      result.getDimSize(1)};
}

/// `op` as a packable product, or nothing: an f32 matmul or gemm whose
/// weight is not packed yet.
static std::optional<PackableProduct> getPackableProduct(Operation *op) {
  std::optional<ProductShape> shape = getProductShape(op);
  if (!shape || !cast<RankedTensorType>(op->getResult(0).getType())
                     .getElementType()
                     .isF32())
    return std::nullopt;
  if (auto matmul = dyn_cast<MatMulOp>(op)) {
    if (matmul.getPackedB())
      return std::nullopt;
    return PackableProduct{op, &matmul.getBMutable(), *shape, false};
  }
  auto gemm = cast<GemmOp>(op);
  if (gemm.getPackedB())
    return std::nullopt;
  return PackableProduct{op, &gemm.getBMutable(), *shape, gemm.getTransB()};
}

/// The constant that `value` holds: itself, or for a block argument of a
/// graph.fused body, the operand it stands for.
static Attribute getConstantWeight(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    if (auto fused = dyn_cast<FusedOp>(arg.getOwner()->getParentOp()))
      value = fused.getInputs()[arg.getArgNumber()];
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return {};
  return attr;
}

/// Packs the K x N matrix `weight` (N x K when `transposed`) into panels of
/// `n0` columns: packed[j][k][l] = matrix[k][j * n0 + l].
static DenseElementsAttr packMatrix(const ConstantTensor &weight, int64_t k,
                                    int64_t n, bool transposed, int64_t n0) {
  auto type = RankedTensorType::get({n / n0, k, n0},
                                    Float32Type::get(weight.type.getContext()));
  if (weight.isSplat)
    return makeSplatTensor(type, weight.splatValue);
  SmallVector<float> packed(weight.getNumElements());
  for (int64_t j = 0; j < n / n0; ++j)
    for (int64_t kk = 0; kk < k; ++kk)
      for (int64_t l = 0; l < n0; ++l) {
        int64_t column = j * n0 + l;
        packed[(j * k + kk) * n0 + l] =
            weight.values[transposed ? column * k + kk : kk * n + column];
      }
  return makeConstantTensor(type, packed);
}

/// Packs convolution weights, KH x KW x C x F (HWCF) or F x C x KH x KW
/// (FCHW), into panels of `f0` filters: packed[j][h][w][c][l] = the weight
/// of filter j * f0 + l at (h, w, c).
static DenseElementsAttr packFilters(const ConstantTensor &weight, bool fchw,
                                     int64_t f0) {
  ArrayRef<int64_t> shape = weight.getShape();
  int64_t kh = shape[fchw ? 2 : 0], kw = shape[fchw ? 3 : 1];
  int64_t c = shape[fchw ? 1 : 2], f = shape[fchw ? 0 : 3];
  auto type = RankedTensorType::get({f / f0, kh, kw, c, f0},
                                    Float32Type::get(weight.type.getContext()));
  if (weight.isSplat)
    return makeSplatTensor(type, weight.splatValue);
  SmallVector<float> packed(weight.getNumElements());
  int64_t i = 0;
  for (int64_t j = 0; j < f / f0; ++j)
    for (int64_t h = 0; h < kh; ++h)
      for (int64_t w = 0; w < kw; ++w)
        for (int64_t cc = 0; cc < c; ++cc)
          for (int64_t l = 0; l < f0; ++l) {
            int64_t filter = j * f0 + l;
            packed[i++] =
                weight.values[fchw ? ((filter * c + cc) * kh + h) * kw + w
                                   : ((h * kw + w) * c + cc) * f + filter];
          }
  return makeConstantTensor(type, packed);
}

/// Makes `op` read `packed` through its `weight` operand and marks it with
/// the unit attribute `packedAttr`. Inside a graph.fused body the packed
/// constant becomes a new operand of the group (the old one is left for
/// graph-eliminate-dead-code).
static void replaceWeight(RewriterBase &rewriter, Operation *op,
                          OpOperand &weight, DenseElementsAttr packed,
                          StringRef packedAttr) {
  auto fused = dyn_cast<FusedOp>(op->getParentOp());
  Operation *outermost = fused ? fused.getOperation() : op;
  rewriter.setInsertionPoint(outermost);
  Location loc = weight.get().getLoc();
  Value constant =
      ConstantOp::create(rewriter, loc, packed.getType(), packed).getResult();
  if (fused) {
    Block &body = fused.getBody().front();
    rewriter.modifyOpInPlace(fused, [&] {
      fused.getInputsMutable().append(constant);
      constant = body.addArgument(packed.getType(), loc);
    });
  }
  rewriter.modifyOpInPlace(op, [&] {
    weight.set(constant);
    op->setAttr(packedAttr, rewriter.getUnitAttr());
    if (auto gemm = dyn_cast<GemmOp>(op))
      gemm.setTransB(false);
  });
}

/// The configuration of an f32 convolution of one group, packed or not
/// (then for the f0 it was packed with), or nothing.
static std::optional<ConvConfig> getConvConfig(const CPUTarget &target,
                                               Conv2DOp conv) {
  auto type = dyn_cast<RankedTensorType>(conv.getType());
  auto weight = dyn_cast<RankedTensorType>(conv.getWeight().getType());
  bool packed = conv.getPackedWeight(), nhwc = conv.getLayout() == Layout::NHWC;
  if (conv.getGroups() != 1 || !type || !weight || !type.hasStaticShape() ||
      !weight.hasStaticShape() || weight.getRank() != (packed ? 5 : 4) ||
      !type.getElementType().isF32() || !weight.getElementType().isF32())
    return std::nullopt;
  // Packed: F/f0 x KH x KW x C x f0; HWCF; FCHW.
  int64_t channels = weight.getDimSize(packed ? 3 : nhwc ? 2 : 1);
  return chooseConvConfig(target, type.getDimSize(nhwc ? 1 : 2),
                          type.getDimSize(nhwc ? 2 : 3),
                          type.getDimSize(nhwc ? 3 : 1), channels,
                          packed ? weight.getDimSize(4) : 0);
}

/// A batch_matmul of an f32 [batch..., M, K] activation by a constant K x N
/// matrix (the linear layers of a transformer, [1, 197, 768] x [768, 3072])
/// becomes one matrix product over the flattened rows, between two
/// reshapes, so that it runs on the packed micro-kernel: the batch dimensions
/// add rows, not separate products. Returns the new graph.matmul. (graph-fuse
/// does it first, to give the product its epilogue.)
MatMulOp mlir::graph::flattenBatchMatMul(RewriterBase &rewriter,
                                         BatchMatMulOp batch) {
  auto aType = dyn_cast<RankedTensorType>(batch.getA().getType());
  auto bType = dyn_cast<RankedTensorType>(batch.getB().getType());
  auto type = dyn_cast<RankedTensorType>(batch.getType());
  if (!aType || !bType || !type || !aType.getElementType().isF32() ||
      !type.getElementType().isF32() || !bType.getElementType().isF32() ||
      !aType.hasStaticShape() || !type.hasStaticShape() ||
      aType.getRank() < 3 ||
      llvm::any_of(bType.getShape().drop_back(2),
                   [](int64_t d) { return d != 1; }) ||
      !getConstantWeight(batch.getB()))
    return {};
  int64_t k = aType.getShape().back(), n = bType.getShape().back();
  int64_t rows = aType.getNumElements() / std::max<int64_t>(k, 1);
  // Every row of the result comes from one row of `a`: no batch dimension
  // of `b` broadcasts `a`.
  if (rows * n != type.getNumElements())
    return {};
  Location loc = batch.getLoc();
  rewriter.setInsertionPoint(batch);
  Value weight = batch.getB();
  if (bType.getRank() != 2) {
    // [1, ..., K, N]: the same constant as K x N.
    std::optional<ConstantTensor> constant =
        readConstantTensor(getConstantWeight(weight));
    if (!constant)
      return {};
    auto matrixType = RankedTensorType::get({k, n}, rewriter.getF32Type());
    DenseElementsAttr matrix =
        constant->isSplat ? makeSplatTensor(matrixType, constant->splatValue)
                          : makeConstantTensor(matrixType, constant->values);
    weight = ConstantOp::create(rewriter, loc, matrixType, matrix).getResult();
  }
  Value rowsOfA = ReshapeOp::create(
      rewriter, loc, RankedTensorType::get({rows, k}, rewriter.getF32Type()),
      batch.getA(), rewriter.getDenseI64ArrayAttr({rows, k}));
  auto matmul = MatMulOp::create(
      rewriter, loc, RankedTensorType::get({rows, n}, rewriter.getF32Type()),
      rowsOfA, weight);
  Value result =
      ReshapeOp::create(rewriter, loc, type, matmul.getResult(),
                        rewriter.getDenseI64ArrayAttr(type.getShape()));
  rewriter.replaceOp(batch, result);
  return matmul;
}

namespace {
struct GraphPackWeightsPass
    : public graph::impl::GraphPackWeightsBase<GraphPackWeightsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    FailureOr<CPUTarget> described =
        getPassTarget(context, getArgument(), targetCpu, targetFeatures);
    if (failed(described))
      return failure();
    target = std::move(*described);
    return success();
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Batch dimensions of activations by a constant matrix are rows.
    SmallVector<BatchMatMulOp> batches;
    getOperation()->walk([&](BatchMatMulOp op) {
      if (!isa<FusedOp>(op->getParentOp()))
        batches.push_back(op);
    });
    for (BatchMatMulOp batch : batches)
      (void)flattenBatchMatMul(rewriter, batch);

    SmallVector<PackableProduct> products;
    getOperation()->walk([&](Operation *op) {
      if (std::optional<PackableProduct> product = getPackableProduct(op))
        if (getConstantWeight(product->weight->get()))
          products.push_back(*product);
    });
    for (PackableProduct &product : products) {
      std::optional<ConstantTensor> weight =
          readConstantTensor(getConstantWeight(product.weight->get()));
      if (!weight)
        continue;
      auto [m, k, n] = product.shape;
      MatmulConfig config = chooseMatmulConfig(target, m, n, k);
      replaceWeight(
          rewriter, product.op, *product.weight,
          packMatrix(*weight, k, n, product.transposed, config.panelColumns),
          "packed_b");
    }

    SmallVector<Conv2DOp> convs;
    getOperation()->walk([&](Conv2DOp conv) { convs.push_back(conv); });
    for (Conv2DOp conv : convs) {
      std::optional<ConvConfig> config = getConvConfig(target, conv);
      if (!config || conv.getPackedWeight())
        continue;
      std::optional<ConstantTensor> weight =
          readConstantTensor(getConstantWeight(conv.getWeight()));
      if (!weight)
        continue;
      replaceWeight(rewriter, conv, conv.getWeightMutable(),
                    packFilters(*weight, conv.getLayout() != Layout::NHWC,
                                config->panelColumns),
                    "packed_weight");
    }
  }

private:
  CPUTarget target;
};

/// Prints, for every contraction, the configuration KernelConfig chooses.
struct GraphPrintKernelConfigPass
    : public graph::impl::GraphPrintKernelConfigBase<
          GraphPrintKernelConfigPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    FailureOr<CPUTarget> described =
        getPassTarget(context, getArgument(), targetCpu, targetFeatures);
    if (failed(described))
      return failure();
    target = std::move(*described);
    return success();
  }

  void runOnOperation() override {
    llvm::errs() << "kernel configuration for " << target.describe() << "\n";
    getOperation()->walk([&](Operation *op) {
      if (auto conv = dyn_cast<Conv2DOp>(op)) {
        if (std::optional<ConvConfig> config = getConvConfig(target, conv)) {
          // Output rows x columns x filters.
          ArrayRef<int64_t> shape =
              cast<RankedTensorType>(conv.getType()).getShape();
          bool nhwc = conv.getLayout() == Layout::NHWC;
          llvm::errs() << "  graph.conv2d " << shape[nhwc ? 1 : 2] << "x"
                       << shape[nhwc ? 2 : 3] << "x" << shape[nhwc ? 3 : 1]
                       << " at " << op->getLoc() << ": " << config->describe()
                       << "\n";
        }
        return;
      }
      std::optional<ProductShape> shape = getProductShape(op);
      if (!shape)
        return;
      auto [m, k, n] = *shape;
      llvm::errs() << "  " << op->getName().getStringRef() << " " << m << "x"
                   << k << "x" << n << " at " << op->getLoc() << ": "
                   << chooseMatmulConfig(target, m, n, k).describe() << "\n";
    });
  }

private:
  CPUTarget target;
};
} // namespace
