//===- LowerToLLVMPipeline.cpp - graph-lower-to-llvm ------------*- C++ -*-===//
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

#include "graph/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
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
} // namespace

void mlir::graph::buildGraphLowerToLLVMPipeline(OpPassManager &pm) {
  // Graph ops to linalg on tensors; each graph.fused becomes one kernel.
  // Nothing else is fused here: graph-fuse decides every fusion, so an op
  // outside a group stays a kernel of its own (-O0 is one kernel per op).
  pm.addPass(createConvertGraphToLinalg());
  pm.addPass(createGraphLowerFused());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Register tiles and vectors for the compute-heavy ops, still on tensors.
  pm.addPass(createGraphVectorize());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Buffers: results become caller-allocated out-parameters, and every buffer
  // is freed by the ownership-based deallocation.
  bufferization::OneShotBufferizePassOptions bufferizeOptions;
  bufferizeOptions.bufferizeFunctionBoundaries = true;
  bufferizeOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  // Vector writes that bufferization cannot misjudge as covering their whole
  // destination (it would then copy nothing into an out-of-place buffer).
  pm.addPass(createGraphFullRankTensorWrites());
  pm.addPass(bufferization::createOneShotBufferizePass(bufferizeOptions));
  // Loops that carried a tensor now carry the same buffer; folding them lets
  // the allocation of a result be hoisted into the caller's out-parameter.
  // A value written in place into a view (a padded input's interior) leaves
  // a copy of that view onto an identical one: CSE makes them one, and the
  // self-copy folds away.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(std::make_unique<DistinctResultBuffersPass>());
  bufferization::BufferResultsToOutParamsPassOptions outParamsOptions;
  outParamsOptions.hoistStaticAllocs = true;
  outParamsOptions.modifyPublicFunctions = true;
  pm.addPass(
      bufferization::createBufferResultsToOutParamsPass(outParamsOptions));
  // A tile buffer of static size is allocated once, before the tile loops,
  // rather than once per tile.
  pm.addNestedPass<func::FuncOp>(bufferization::createBufferLoopHoistingPass());
  bufferization::buildBufferDeallocationPipeline(pm);

  // Loops and vectors. math.tanh/exp go to libm calls first (vectors of them
  // element by element), so that they compute what the fold hooks'
  // std::tanh/std::exp compute; the rest of math goes to LLVM intrinsics.
  pm.addPass(createConvertMathToLibmPass());
  pm.addNestedPass<func::FuncOp>(std::make_unique<StridedCopiesToLoopsPass>());
  pm.addPass(createConvertLinalgToLoopsPass());
  // n-D transfers unrolled into 1-D ones, not staged through a stack buffer:
  // an alloca per loop iteration overflows the stack when LLVM does not
  // optimize it away (at -O0).
  pm.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll()));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // LLVM.
  pm.addPass(std::make_unique<EmitCInterfacePass>());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::graph::registerGraphLowerToLLVMPipeline() {
  // The pipeline's own small steps, registered so that they can be named in
  // --mlir-print-ir-after and run alone while debugging.
  PassRegistration<DistinctResultBuffersPass>();
  PassRegistration<StridedCopiesToLoopsPass>();
  PassRegistration<EmitCInterfacePass>();
  PassPipelineRegistration<>(
      "graph-lower-to-llvm",
      "Lower graph ops to the LLVM dialect, runnable by mlir-runner and "
      "graph-run",
      buildGraphLowerToLLVMPipeline);
}
