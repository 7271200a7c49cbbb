//===- LowerToLLVMPipeline.cpp - graph-lower-to-llvm ------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The pipeline from graph ops on tensors to the LLVM dialect. Upstream passes
// do all the work but three of ours: the conversion to linalg, the
// single-kernel lowering of graph.fused and the tiling/vectorization for the
// host. It fuses no op of its own accord: each graph.fused is one kernel and
// each op outside one is one kernel. The ABI it produces: every function with
// tensor results becomes `func(inputs..., outputs...)` with no results, the
// outputs being caller-allocated memrefs with the identity layout, and every
// public function gets a C interface wrapper (`_mlir_ciface_<name>`).
//
//===----------------------------------------------------------------------===//

#include "graph/Codegen/CPU/Passes.h"
#include "graph/Conversion/Passes.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::graph;

namespace {
/// Asks func-to-llvm for a C wrapper of every public function, the entry
/// points that graph-run and C callers use.
struct EmitCInterfacePass
    : public PassWrapper<EmitCInterfacePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(EmitCInterfacePass)

  StringRef getArgument() const final { return "graph-emit-c-interface"; }
  StringRef getDescription() const final {
    return "Mark public functions llvm.emit_c_interface";
  }

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal())
        func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                      UnitAttr::get(&getContext()));
  }
};

/// Gives every result of a function its own buffer: a buffer returned twice
/// (a value returned twice, or two results that bufferized in place into the
/// same buffer) is copied into a new one for the second. Each result then
/// becomes its own out-parameter (upstream's buffer-results-to-out-params
/// expects distinct buffers when it hoists their allocations).
struct DistinctResultBuffersPass
    : public PassWrapper<DistinctResultBuffersPass,
                         OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DistinctResultBuffersPass)

  StringRef getArgument() const final {
    return "graph-distinct-result-buffers";
  }
  StringRef getDescription() const final {
    return "Copy a buffer returned more than once";
  }

  void runOnOperation() override {
    getOperation().walk([](func::ReturnOp ret) {
      OpBuilder builder(ret);
      llvm::SmallDenseSet<Value> seen;
      for (OpOperand &operand : ret->getOpOperands()) {
        auto type = dyn_cast<MemRefType>(operand.get().getType());
        if (!type || seen.insert(operand.get()).second)
          continue;
        SmallVector<Value> dynamicSizes;
        for (auto [dim, size] : llvm::enumerate(type.getShape()))
          if (ShapedType::isDynamic(size))
            dynamicSizes.push_back(memref::DimOp::create(builder, ret.getLoc(),
                                                         operand.get(), dim));
        auto copyType = MemRefType::get(type.getShape(), type.getElementType());
        Value copy = memref::AllocOp::create(builder, ret.getLoc(), copyType,
                                             dynamicSizes);
        memref::CopyOp::create(builder, ret.getLoc(), operand.get(), copy);
        if (copyType != type)
          copy = memref::CastOp::create(builder, ret.getLoc(), type, copy);
        operand.set(copy);
      }
    });
  }
};
/// Returns the buffer a function computed its result in, not a view of it:
/// a result computed over packed panels (N x OH x OW x F/f0 x f0) is
/// returned as its collapse to N x OH x OW x F, which hides the allocation
/// from buffer-results-to-out-params (it would copy the result into the
/// out-parameter). The buffer is allocated in the returned shape instead,
/// and the computation writes into its expanded view.
struct ReturnBuffersNotViewsPass
    : public PassWrapper<ReturnBuffersNotViewsPass,
                         OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ReturnBuffersNotViewsPass)

  StringRef getArgument() const final {
    return "graph-return-buffers-not-views";
  }
  StringRef getDescription() const final {
    return "Allocate a returned collapse_shape's buffer in the returned shape";
  }

  void runOnOperation() override {
    getOperation().walk([](func::ReturnOp ret) {
      for (OpOperand &operand : ret->getOpOperands()) {
        auto collapse = operand.get().getDefiningOp<memref::CollapseShapeOp>();
        if (!collapse)
          continue;
        auto alloc = collapse.getSrc().getDefiningOp<memref::AllocOp>();
        MemRefType type = collapse.getResultType();
        if (!alloc || !type.hasStaticShape() ||
            !type.getLayout().isIdentity() ||
            !alloc.getType().getLayout().isIdentity())
          continue;
        OpBuilder builder(alloc);
        auto buffer = memref::AllocOp::create(builder, alloc.getLoc(), type,
                                              alloc.getAlignmentAttr());
        auto view = memref::ExpandShapeOp::create(
            builder, alloc.getLoc(), alloc.getType(), buffer,
            collapse.getReassociationIndices());
        alloc->replaceAllUsesWith(ValueRange{view.getResult()});
        alloc.erase();
        operand.set(buffer);
      }
    });
  }
};

/// Lets the kernel that computes a function's result write it straight into
/// the caller's out-parameter. After buffer-results-to-out-params, a result
/// that a kernel call produced is a buffer the function allocates, passes to
/// the call and then copies into its out-parameter:
///   %a = memref.alloc(); call @kernel(..., %a); memref.copy %a, %out;
///   memref.dealloc %a
/// When the function touches %out nowhere else and %a has no other use,
/// %out replaces %a: one allocation and one pass over the result fewer.
struct ForwardResultBuffersPass
    : public PassWrapper<ForwardResultBuffersPass,
                         OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ForwardResultBuffersPass)

  StringRef getArgument() const final { return "graph-forward-result-buffers"; }
  StringRef getDescription() const final {
    return "Write results into out-parameters instead of copying them there";
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    SmallVector<memref::CopyOp> copies;
    func.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      auto out = dyn_cast<BlockArgument>(copy.getTarget());
      auto alloc = copy.getSource().getDefiningOp<memref::AllocOp>();
      if (!out || !alloc || out.getOwner() != &func.getBody().front() ||
          !out.hasOneUse() || alloc.getType() != out.getType() ||
          alloc->getBlock() != copy->getBlock())
        continue;
      // Every other use of the buffer comes before the copy, in its block,
      // but its deallocation, which goes with it.
      SmallVector<Operation *> deallocs;
      bool forwardable = true;
      for (OpOperand &use : alloc->getUses()) {
        Operation *user = use.getOwner();
        if (user == copy)
          continue;
        if (isa<memref::DeallocOp>(user)) {
          deallocs.push_back(user);
          continue;
        }
        Operation *ancestor = copy->getBlock()->findAncestorOpInBlock(*user);
        if (!ancestor || !ancestor->isBeforeInBlock(copy)) {
          forwardable = false;
          break;
        }
      }
      if (!forwardable)
        continue;
      // The out-parameter is a function argument: it dominates the buffer.
      alloc->replaceAllUsesWith(ValueRange{out});
      copy.erase();
      for (Operation *dealloc : deallocs)
        dealloc->erase();
      alloc.erase();
    }
  }
};

/// Turns copies between strided views (a tile into its padded buffer, say)
/// into linalg.copy, which becomes loops that LLVM vectorizes along the
/// contiguous innermost dimension. finalize-memref-to-llvm would call the
/// runner library's generic memrefCopy instead, one element at a time.
/// Copies between contiguous buffers stay memref.copy: they become memcpy.
struct StridedCopiesToLoopsPass
    : public PassWrapper<StridedCopiesToLoopsPass,
                         OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(StridedCopiesToLoopsPass)

  StringRef getArgument() const final {
    return "graph-strided-copies-to-loops";
  }
  StringRef getDescription() const final {
    return "Rewrite memref.copy between strided views into linalg.copy";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<linalg::LinalgDialect>();
  }

  void runOnOperation() override {
    getOperation().walk([](memref::CopyOp copy) {
      auto source = cast<MemRefType>(copy.getSource().getType());
      auto target = cast<MemRefType>(copy.getTarget().getType());
      if (source.getLayout().isIdentity() && target.getLayout().isIdentity())
        return;
      OpBuilder builder(copy);
      linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    });
  }
};

/// f32 tanh as Cephes' tanhf (approximateTanh in ApproximateMath.h, one op
/// per line there): MLIR's own approximation is 4 ulp off, this one within
/// 1. The exp it creates is approximated in turn.
struct TanhApproximation : public OpRewritePattern<math::TanhOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::TanhOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return failure();
    Location loc = op.getLoc();
    auto constant = [&](float value) -> Value {
      Attribute attr = rewriter.getF32FloatAttr(value);
      if (auto vector = dyn_cast<VectorType>(type))
        attr = SplatElementsAttr::get(vector, attr);
      return arith::ConstantOp::create(rewriter, loc, cast<TypedAttr>(attr));
    };
    Value x = op.getOperand();
    Value a = math::AbsFOp::create(rewriter, loc, x);
    Value z = arith::MulFOp::create(rewriter, loc, x, x);
    Value p =
        math::FmaOp::create(rewriter, loc, z, constant(-5.70498872745E-3f),
                            constant(2.06390887954E-2f));
    for (float c : {-5.37397155531E-2f, 1.33314422036E-1f, -3.33332819422E-1f})
      p = math::FmaOp::create(rewriter, loc, p, z, constant(c));
    Value pz = arith::MulFOp::create(rewriter, loc, p, z);
    Value small = math::FmaOp::create(rewriter, loc, pz, x, x);
    Value twiceA = arith::AddFOp::create(rewriter, loc, a, a);
    Value e = math::ExpOp::create(rewriter, loc, twiceA);
    Value ePlusOne = arith::AddFOp::create(rewriter, loc, e, constant(1.0f));
    Value quotient =
        arith::DivFOp::create(rewriter, loc, constant(2.0f), ePlusOne);
    Value magnitude =
        arith::SubFOp::create(rewriter, loc, constant(1.0f), quotient);
    Value large = math::CopySignOp::create(rewriter, loc, magnitude, x);
    Value isSmall = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OLT, a, constant(0.625f));
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, isSmall, small, large);
    return success();
  }
};

/// f32 exp, erf and tanh (sigmoid, softmax, SiLU, GELU) become polynomial
/// approximations, computed in registers: libm has no vector entry points,
/// so each lane of a vector would otherwise be a call (EfficientNet's SiLU
/// ran at 2 GB/s, GPT-2's tanh GELU at 0.3). Scalars too, so that a value
/// does not depend on whether its loop was vectorized, and the fold hooks
/// compute the same arithmetic (ApproximateMath.h): folded or run, at any
/// level, the bits agree. exp and erf are MLIR's approximations: exp within
/// 1 ulp of the correctly rounded result up to e^80 (5 beyond), flushing
/// results below 2^-126 to zero; erf within 4 ulp. tanh is our own
/// (TanhApproximation), within 1 ulp.
struct ApproximateMathPass
    : public PassWrapper<ApproximateMathPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ApproximateMathPass)

  StringRef getArgument() const final { return "graph-approximate-math"; }
  StringRef getDescription() const final {
    return "Rewrite f32 math.exp/erf/tanh into polynomial approximations";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, math::MathDialect,
                    vector::VectorDialect>();
  }

  /// The ops MLIR's patterns approximate.
  static bool isApproximated(StringRef name) {
    name.consume_front("math.");
    return name == "exp" || name == "erf";
  }

  void runOnOperation() override {
    // Only these ops and what their rewrites create: a greedy rewrite of
    // the whole function would also fold and simplify the rest.
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (op->getNumResults() == 1 &&
          getElementTypeOrSelf(op->getResult(0).getType()).isF32() &&
          isa<math::MathDialect>(op->getDialect()) &&
          (isa<math::TanhOp>(op) ||
           isApproximated(op->getName().getStringRef())))
        ops.push_back(op);
    });
    if (ops.empty())
      return;
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    patterns.add<TanhApproximation>(&getContext());
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    config.enableFolding(false);
    if (failed(applyOpPatternsGreedily(ops, std::move(patterns), config)))
      signalPassFailure();
  }
};

/// convert-math-to-libm, except for the correctly rounded ops (floor, sqrt,
/// fma, ...), scalars and vectors: those become LLVM intrinsics, one
/// instruction each where the target has it (a libm call where it has not),
/// where libm would be a call per lane, or per scalar (the exp
/// approximations floor their argument and chain fmas). Every result is the
/// same.
struct MathToLibmPass
    : public PassWrapper<MathToLibmPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MathToLibmPass)

  StringRef getArgument() const final { return "graph-math-to-libm"; }
  StringRef getDescription() const final {
    return "Convert math ops to libm calls, except correctly rounded ops";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, func::FuncDialect,
                    vector::VectorDialect>();
  }

  static bool isCorrectlyRounded(Operation *op) {
    return isa<math::FloorOp, math::CeilOp, math::TruncOp, math::RoundOp,
               math::RoundEvenOp, math::SqrtOp, math::FmaOp, math::AbsFOp,
               math::CopySignOp>(op);
  }

  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (!isa<math::MathDialect>(op->getDialect()))
        return;
      if (!isCorrectlyRounded(op))
        ops.push_back(op);
    });
    if (ops.empty())
      return;
    RewritePatternSet patterns(&getContext());
    populateMathToLibmConversionPatterns(patterns);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    config.enableFolding(false);
    if (failed(applyOpPatternsGreedily(ops, std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace

void mlir::graph::buildGraphLowerToLLVMPipeline(
    OpPassManager &pm, const GraphLowerToLLVMOptions &options) {
  // Passes that change one function and nothing outside it run on each
  // function: the pass manager runs them on several functions at once when
  // the context is multithreaded (the kernels of a model are independent).
  // Passes that add declarations or globals to the module, or change
  // signatures across calls, stay on the module.
  auto onFunctions = [&pm](std::unique_ptr<Pass> pass) {
    pm.addNestedPass<func::FuncOp>(std::move(pass));
  };
  auto cleanUp = [&] {
    onFunctions(createCanonicalizerPass());
    onFunctions(createCSEPass());
  };

  // One function per kernel (each graph op and each graph.fused), then graph
  // ops to linalg on tensors; each graph.fused becomes one tiled loop nest.
  // Nothing else is fused here: graph-fuse decides every fusion, so an op
  // outside a group stays a kernel of its own (-O0 is one kernel per op).
  // A convolution's padded input written padded by the kernel producing it,
  // while both are still graph.fused groups.
  if (options.padInProducer)
    pm.addPass(createGraphPadInProducer());
  pm.addPass(createGraphOutlineKernels());
  // Profiling code only when asked for: otherwise the code is unchanged.
  if (options.profile)
    pm.addPass(createGraphInstrumentKernels());
  // Products by constant int8 weights on the target's integer dot products,
  // before the generic lowering takes the others.
  GraphLowerIntegerMatmulOptions integerMatmulOptions;
  integerMatmulOptions.targetCpu = options.targetCpu;
  integerMatmulOptions.targetFeatures = options.targetFeatures;
  pm.addPass(createGraphLowerIntegerMatmul(integerMatmulOptions));
  onFunctions(createConvertGraphToLinalg());
  GraphLowerAttentionOptions attentionOptions;
  attentionOptions.targetCpu = options.targetCpu;
  attentionOptions.targetFeatures = options.targetFeatures;
  onFunctions(createGraphLowerAttention(attentionOptions));
  GraphLowerFusedOptions lowerFusedOptions;
  lowerFusedOptions.targetCpu = options.targetCpu;
  lowerFusedOptions.targetFeatures = options.targetFeatures;
  onFunctions(createGraphLowerFused(lowerFusedOptions));
  cleanUp();
  // Kernels that differ only in their weights (now folded into the layout
  // the kernels read) are compiled once from here on.
  pm.addPass(createGraphMergeKernels());

  // Register tiles and vectors for the compute-heavy ops, still on tensors.
  GraphVectorizeOptions vectorizeOptions;
  vectorizeOptions.targetCpu = options.targetCpu;
  vectorizeOptions.targetFeatures = options.targetFeatures;
  vectorizeOptions.fuseEpilogues = options.fuseEpilogues;
  onFunctions(createGraphVectorize(vectorizeOptions));
  cleanUp();

  // Buffers: results become caller-allocated out-parameters, and every buffer
  // is freed by the ownership-based deallocation.
  bufferization::OneShotBufferizePassOptions bufferizeOptions;
  bufferizeOptions.bufferizeFunctionBoundaries = true;
  // What a graph.loop carries from one iteration to the next is a kernel's
  // new result, not its iteration argument updated in place.
  bufferizeOptions.allowReturnAllocsFromLoops = true;
  bufferizeOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  onFunctions(bufferization::createEmptyTensorEliminationPass());
  // Vector writes that bufferization cannot misjudge as covering their whole
  // destination (it would then copy nothing into an out-of-place buffer).
  onFunctions(createGraphFullRankTensorWrites());
  pm.addPass(bufferization::createOneShotBufferizePass(bufferizeOptions));
  // Loops that carried a tensor now carry the same buffer; folding them lets
  // the allocation of a result be hoisted into the caller's out-parameter.
  // A value written in place into a view (a padded input's interior) leaves
  // a copy of that view onto an identical one: CSE makes them one, and the
  // self-copy folds away.
  cleanUp();
  onFunctions(createCanonicalizerPass());
  onFunctions(std::make_unique<ReturnBuffersNotViewsPass>());
  onFunctions(std::make_unique<DistinctResultBuffersPass>());
  bufferization::BufferResultsToOutParamsPassOptions outParamsOptions;
  outParamsOptions.hoistStaticAllocs = true;
  outParamsOptions.modifyPublicFunctions = true;
  pm.addPass(
      bufferization::createBufferResultsToOutParamsPass(outParamsOptions));
  // A tile buffer of static size is allocated once, before the tile loops,
  // rather than once per tile.
  onFunctions(std::make_unique<ForwardResultBuffersPass>());
  onFunctions(bufferization::createBufferLoopHoistingPass());
  bufferization::buildBufferDeallocationPipeline(pm);

  // Parallel loops over independent slices become OpenMP worksharing loops
  // (libomp runs them; the thread count is the runtime's to set).
  onFunctions(createForallToParallelLoopPass());
  pm.addPass(createConvertSCFToOpenMPPass());
  // The conversion wraps each loop body in a memref.alloca_scope; ours
  // allocate nothing on the stack, and canonicalization inlines such scopes
  // (a scope must be one block, which the lowering of scf to branches below
  // would break).
  onFunctions(createCanonicalizerPass());
  // One arena per model, planned by liveness, instead of a malloc and free
  // per buffer and run; the per-tile buffers of the parallel loops become
  // per-thread slots in it (thread numbers exist from here on).
  if (options.planBuffers) {
    GraphPlanBuffersOptions planOptions;
    planOptions.maxThreads = options.maxThreads;
    pm.addPass(createGraphPlanBuffers(planOptions));
  }

  // Loops and vectors. f32 exp, erf and tanh become polynomials, as in the
  // fold hooks; the other functions go to libm calls, so that they compute
  // what the fold hooks' std::log/std::sin compute; vectors of correctly
  // rounded ops (floor, sqrt) and the rest of math go to LLVM intrinsics.
  onFunctions(std::make_unique<ApproximateMathPass>());
  pm.addPass(std::make_unique<MathToLibmPass>());
  onFunctions(std::make_unique<StridedCopiesToLoopsPass>());
  onFunctions(createConvertLinalgToLoopsPass());
  // n-D transfers unrolled into 1-D ones, not staged through a stack buffer:
  // an alloca per loop iteration overflows the stack when LLVM does not
  // optimize it away (at -O0).
  onFunctions(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll()));
  onFunctions(createLowerAffinePass());
  onFunctions(createSCFToControlFlowPass());
  cleanUp();

  // LLVM. The conversion turns the functions into llvm.func: the
  // per-function passes come before it. What is left (OpenMP, math, memref,
  // arith, cf, func, index, ub; omp.declare_reduction sits outside any
  // function) converts in one walk of the module, with the patterns each
  // dialect registers for convert-to-llvm, rather than one pass each.
  pm.addPass(std::make_unique<EmitCInterfacePass>());
  onFunctions(createConvertVectorToLLVMPass());
  onFunctions(memref::createExpandStridedMetadataPass());
  onFunctions(createLowerAffinePass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::graph::registerGraphLowerToLLVMPipeline() {
  // The pipeline's own small steps, registered so that they can be named in
  // --mlir-print-ir-after and run alone while debugging.
  PassRegistration<DistinctResultBuffersPass>();
  PassRegistration<ForwardResultBuffersPass>();
  PassRegistration<StridedCopiesToLoopsPass>();
  PassRegistration<ApproximateMathPass>();
  PassRegistration<MathToLibmPass>();
  PassRegistration<EmitCInterfacePass>();
  PassPipelineRegistration<GraphLowerToLLVMOptions>(
      "graph-lower-to-llvm",
      "Lower graph ops to the LLVM dialect, runnable by mlir-runner and "
      "graph-run",
      buildGraphLowerToLLVMPipeline);
}
