//===- PackWeights.cpp - Constant weights in the micro-kernels' layout ----===//
//
// The data-tiling decision of the graph (TVM's AlterOpLayout, IREE's
// materialized encodings): a matrix product by a constant K x N matrix
// (`graph.matmul`, `graph.gemm`, inside `graph.fused` bodies too) takes the
// matrix packed into the panels its micro-kernel streams, N/n0 x K x n0
// (`packed_b`), with n0 chosen for the target (KernelConfig). The packed
// constant is computed here, at compile time; a weight that is not a
// constant stays as it is. Packing is a permutation: the program's results
// do not change.
//
//===----------------------------------------------------------------------===//

#include "graph/Dialect/Graph/IR/ConstantTensor.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Target/CPU/KernelConfig.h"
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
/// A matrix product whose K x N operand can be packed: the op, M, K, N and
/// whether the operand holds the matrix transposed (gemm's trans_b).
struct PackableProduct {
  Operation *op;
  OpOperand *weight;
  int64_t m, k, n;
  bool transposed;
};
} // namespace

static int64_t dimOf(Value value, unsigned dim) {
  return cast<RankedTensorType>(value.getType()).getDimSize(dim);
}

/// `op` as a packable product, or nothing: an f32 matmul or gemm whose
/// weight is not packed yet.
static std::optional<PackableProduct> getPackableProduct(Operation *op) {
  if (auto matmul = dyn_cast<MatMulOp>(op)) {
    if (matmul.getPackedB() || !matmul.getType().getElementType().isF32())
      return std::nullopt;
    return PackableProduct{op,
                           &matmul.getBMutable(),
                           dimOf(matmul.getA(), 0),
                           dimOf(matmul.getA(), 1),
                           dimOf(matmul.getB(), 1),
                           false};
  }
  if (auto gemm = dyn_cast<GemmOp>(op)) {
    if (gemm.getPackedB() || !gemm.getType().getElementType().isF32())
      return std::nullopt;
    bool transA = gemm.getTransA(), transB = gemm.getTransB();
    return PackableProduct{op,
                           &gemm.getBMutable(),
                           dimOf(gemm.getA(), transA ? 1 : 0),
                           dimOf(gemm.getA(), transA ? 0 : 1),
                           dimOf(gemm.getB(), transB ? 0 : 1),
                           transB};
  }
  return std::nullopt;
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

/// Makes `op` read `packed` through its weight operand. Inside a graph.fused
/// body the packed constant becomes a new operand of the group (the old one
/// is left for graph-eliminate-dead-code).
static void replaceWeight(RewriterBase &rewriter, PackableProduct &product,
                          DenseElementsAttr packed) {
  Value weight = product.weight->get();
  auto fused = dyn_cast<FusedOp>(product.op->getParentOp());
  Operation *outermost = fused ? fused.getOperation() : product.op;
  rewriter.setInsertionPoint(outermost);
  Value constant =
      ConstantOp::create(rewriter, weight.getLoc(), packed.getType(), packed)
          .getResult();
  if (fused) {
    Block &body = fused.getBody().front();
    rewriter.modifyOpInPlace(fused, [&] {
      fused.getInputsMutable().append(constant);
      constant = body.addArgument(packed.getType(), weight.getLoc());
    });
  }
  rewriter.modifyOpInPlace(product.op, [&] {
    product.weight->set(constant);
    product.op->setAttr("packed_b", rewriter.getUnitAttr());
    if (auto gemm = dyn_cast<GemmOp>(product.op))
      gemm.setTransB(false);
  });
}

/// Resolves the pass's target options into `target`, or emits an error.
static LogicalResult getTarget(MLIRContext *context, StringRef cpu,
                               StringRef features, StringRef pass,
                               CPUTarget &target) {
  llvm::Expected<CPUTarget> described = CPUTarget::get(cpu, features);
  if (!described)
    return emitError(UnknownLoc::get(context))
           << pass << ": " << llvm::toString(described.takeError());
  target = std::move(*described);
  return success();
}

/// A batch_matmul of an f32 [batch..., M, K] activation by a constant K x N
/// matrix (the linear layers of a transformer, [1, 197, 768] x [768, 3072])
/// becomes one matrix product over the flattened rows, between two
/// reshapes, so that it runs on the packed micro-kernel: the batch dimensions
/// add rows, not separate products. Returns the new graph.matmul.
static MatMulOp flattenBatchMatMul(RewriterBase &rewriter,
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
    return getTarget(context, targetCpu, targetFeatures, getArgument(), target);
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
      MatmulConfig config =
          chooseMatmulConfig(target, product.m, product.n, product.k);
      replaceWeight(rewriter, product,
                    packMatrix(*weight, product.k, product.n,
                               product.transposed, config.panelColumns));
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
    return getTarget(context, targetCpu, targetFeatures, getArgument(), target);
  }

  void runOnOperation() override {
    llvm::errs() << "kernel configuration for " << target.describe() << "\n";
    getOperation()->walk([&](Operation *op) {
      int64_t m, k, n;
      if (auto matmul = dyn_cast<MatMulOp>(op)) {
        m = dimOf(matmul.getA(), 0);
        k = dimOf(matmul.getA(), 1);
        n = cast<RankedTensorType>(matmul.getType()).getDimSize(1);
      } else if (auto gemm = dyn_cast<GemmOp>(op)) {
        m = cast<RankedTensorType>(gemm.getType()).getDimSize(0);
        k = dimOf(gemm.getA(), gemm.getTransA() ? 0 : 1);
        n = cast<RankedTensorType>(gemm.getType()).getDimSize(1);
      } else {
        return;
      }
      llvm::errs() << "  " << op->getName().getStringRef() << " " << m << "x"
                   << k << "x" << n << " at " << op->getLoc() << ": "
                   << chooseMatmulConfig(target, m, n, k).describe() << "\n";
    });
  }

private:
  CPUTarget target;
};
} // namespace
