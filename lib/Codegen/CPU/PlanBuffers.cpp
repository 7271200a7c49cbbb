//===- PlanBuffers.cpp - One arena for a model's buffers --------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// After bufferization and deallocation, the buffers of static size that a
// function allocates in its body (not in a loop) become views into one
// arena, placed by liveness so that buffers alive at different times share
// bytes (TFLite's and TVM's greedy-by-size planning):
//  - a kernel's scratch (a padded input, a hoisted tile buffer) becomes a
//    view into a new last argument, the kernel's workspace; each call site
//    passes a buffer that lives for the call only;
//  - then each entry function plans its intermediates and its calls'
//    workspaces into one arena, a global of the module: allocated once per
//    loaded model, its pages touched on the first run and reused by every
//    run after. A run that finds the arena taken by a concurrent run of the
//    same model (a flag, exchanged atomically) allocates its own for the
//    call, so the code stays reentrant.
// Before that, the buffers that an OpenMP parallel region allocates per
// iteration (the per-tile buffers of a fused group) become per-thread
// slots of one scratch buffer of the function: each thread of the team
// reuses its slot for every tile it computes, so that a tile's
// intermediates stay at one address in its core's cache, and the team is
// capped at the number of slots (ONNX Runtime's per-thread scratch). The
// scratch is then planned like any other buffer of the function.
// Buffers in sequential loops outside parallel regions, of a size without a
// constant bound, or that leave through anything but a kernel call are left
// to malloc.
//
//===----------------------------------------------------------------------===//

#include "BufferBounds.h"
#include "graph/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHPLANBUFFERS
#include "graph/Codegen/CPU/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

/// Every view starts on a cache line, as the allocations it replaces did.
static constexpr int64_t kMinAlignment = 64;

namespace {
/// A buffer of a block and the ops of the block, by position, from its
/// allocation to its last use.
struct PlannedBuffer {
  /// Where its bytes come from: one allocation, or one in each branch of an
  /// scf.if that yields them (only one of them runs).
  SmallVector<memref::AllocOp, 2> allocs;
  SmallVector<memref::DeallocOp> deallocs;
  int64_t bytes = 0;
  int64_t alignment = kMinAlignment;
  unsigned first = 0, last = 0;
  int64_t offset = 0;

  bool overlapsInTime(const PlannedBuffer &other) const {
    return first <= other.last && other.first <= last;
  }
};
} // namespace

/// Whether `call` calls a kernel function of the module (`symbols`: a table
/// of the module, so that the lookup does not scan the module per call).
static bool isKernelCall(func::CallOp call, SymbolTable &symbols) {
  auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
  return callee && callee->hasAttr(kKernelAttr);
}

/// Follows the uses of `root` and its views in `body` (a buffer's
/// allocation, or an scf.if result that is one): extends `buffer.last` to
/// the last op of `body` that uses them and collects their deallocations
/// (direct, or of the base buffer, the form ownership-based deallocation
/// gives a buffer that comes out of an scf.if) in `body` itself, unless
/// `yield` is given: then none may be freed, and the buffer may leave only
/// as operand `yieldOperand` of `yield`. Fails when the address may leave
/// any other way. `position` numbers the ops of `body`.
static bool followUses(Value root, Block &body,
                       const llvm::DenseMap<Operation *, unsigned> &position,
                       SymbolTable &symbols, PlannedBuffer &buffer,
                       scf::YieldOp yield = nullptr,
                       unsigned yieldOperand = 0) {
  auto addDealloc = [&](Operation *user) {
    auto dealloc = dyn_cast<memref::DeallocOp>(user);
    // A conditional deallocation would decide at run time whether the bytes
    // are the buffer's.
    if (!dealloc || yield || dealloc->getBlock() != &body)
      return false;
    buffer.deallocs.push_back(dealloc);
    return true;
  };
  SmallVector<Value> aliases{root};
  while (!aliases.empty()) {
    Value value = aliases.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      Operation *top = body.findAncestorOpInBlock(*user);
      if (!top)
        return false;
      if (isa<memref::DeallocOp>(user)) {
        if (value != root || !addDealloc(user))
          return false;
        continue;
      }
      buffer.last = std::max(buffer.last, position.lookup(top));
      if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(user)) {
        // Its sizes and strides are numbers; its base buffer may only be
        // freed.
        for (Operation *baseUser : metadata.getBaseBuffer().getUsers())
          if (!addDealloc(baseUser))
            return false;
        continue;
      }
      if (isa<memref::CastOp, memref::SubViewOp, memref::ExpandShapeOp,
              memref::CollapseShapeOp, memref::ReinterpretCastOp,
              memref::TransposeOp, memref::ViewOp>(user)) {
        aliases.push_back(user->getResult(0));
        continue;
      }
      if (yield && user == yield.getOperation() &&
          use.getOperandNumber() == yieldOperand)
        continue;
      // What an scf.if yields is its result: an alias, whichever branch ran.
      if (auto branchYield = dyn_cast<scf::YieldOp>(user))
        if (auto ifOp = dyn_cast<scf::IfOp>(branchYield->getParentOp())) {
          aliases.push_back(ifOp.getResult(use.getOperandNumber()));
          continue;
        }
      // Anything that could keep the address past the body's own ops: a
      // terminator (a yield, a return), a call that is not a kernel's, an
      // op that makes another memref or reads the pointer.
      if (user->hasTrait<OpTrait::IsTerminator>() ||
          isa<memref::ExtractAlignedPointerAsIndexOp>(user))
        return false;
      if (auto call = dyn_cast<func::CallOp>(user)) {
        if (!isKernelCall(call, symbols))
          return false;
        continue;
      }
      if (llvm::any_of(user->getResultTypes(), llvm::IsaPred<MemRefType>))
        return false;
    }
  }
  return true;
}

/// The buffer that `alloc` makes, when its bytes may live in an arena: a
/// bounded size (getMaxBytes), and uses that only read and write it (or its
/// views) or pass it to a kernel, with its deallocations in `body` itself.
static std::optional<PlannedBuffer>
analyzeBuffer(memref::AllocOp alloc, Block &body,
              const llvm::DenseMap<Operation *, unsigned> &position,
              SymbolTable &symbols) {
  std::optional<int64_t> bytes = getMaxBytes(alloc);
  if (!bytes)
    return std::nullopt;
  PlannedBuffer buffer;
  buffer.allocs.push_back(alloc);
  buffer.bytes = *bytes;
  if (std::optional<uint64_t> alignment = alloc.getAlignment())
    buffer.alignment = std::max<int64_t>(kMinAlignment, *alignment);
  buffer.first = buffer.last = position.lookup(alloc);
  if (!followUses(alloc.getResult(), body, position, symbols, buffer) ||
      buffer.deallocs.empty())
    return std::nullopt;
  return buffer;
}

/// The buffer that result `index` of `ifOp` is, when each branch allocates
/// one and yields it (a tile of a padded input: all padding, or padding
/// around data): one buffer of the larger size from the scf.if to its
/// deallocation, whichever branch runs, under the conditions of
/// analyzeBuffer.
static std::optional<PlannedBuffer>
analyzeYieldedBuffer(scf::IfOp ifOp, unsigned index, Block &body,
                     const llvm::DenseMap<Operation *, unsigned> &position,
                     SymbolTable &symbols) {
  if (ifOp.getElseRegion().empty())
    return std::nullopt;
  // Where the buffer is last used within a branch does not matter: the
  // scf.if's result lives on.
  const llvm::DenseMap<Operation *, unsigned> noPositions;
  PlannedBuffer buffer;
  for (Region *branch : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
    auto yield = cast<scf::YieldOp>(branch->front().getTerminator());
    Value yielded = yield.getOperand(index);
    while (auto cast = yielded.getDefiningOp<memref::CastOp>())
      yielded = cast.getSource();
    auto alloc = yielded.getDefiningOp<memref::AllocOp>();
    if (!alloc || alloc->getBlock() != &branch->front())
      return std::nullopt;
    std::optional<int64_t> bytes = getMaxBytes(alloc);
    PlannedBuffer inBranch;
    if (!bytes || !followUses(alloc.getResult(), branch->front(), noPositions,
                              symbols, inBranch, yield, index))
      return std::nullopt;
    buffer.allocs.push_back(alloc);
    buffer.bytes = std::max(buffer.bytes, *bytes);
    if (std::optional<uint64_t> alignment = alloc.getAlignment())
      buffer.alignment = std::max<int64_t>(buffer.alignment, *alignment);
  }
  buffer.first = buffer.last = position.lookup(ifOp);
  if (!followUses(ifOp.getResult(index), body, position, symbols, buffer) ||
      buffer.deallocs.empty())
    return std::nullopt;
  return buffer;
}

/// The plannable buffers of `body`, with their offsets in an arena of the
/// returned size. Greedy by size: largest first, each at the lowest aligned
/// offset that no buffer alive at the same time occupies.
static int64_t planBlock(Block &body, SymbolTable &symbols,
                         SmallVectorImpl<PlannedBuffer> &buffers) {
  llvm::DenseMap<Operation *, unsigned> position;
  for (auto [index, op] : llvm::enumerate(body))
    position[&op] = index;
  for (Operation &op : body) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      if (std::optional<PlannedBuffer> buffer =
              analyzeBuffer(alloc, body, position, symbols))
        buffers.push_back(*buffer);
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      for (auto [index, result] : llvm::enumerate(ifOp.getResults()))
        if (isa<MemRefType>(result.getType()))
          if (std::optional<PlannedBuffer> buffer =
                  analyzeYieldedBuffer(ifOp, index, body, position, symbols))
            buffers.push_back(*buffer);
  }

  SmallVector<PlannedBuffer *> bySize =
      llvm::map_to_vector(buffers, [](PlannedBuffer &b) { return &b; });
  llvm::stable_sort(bySize, [](PlannedBuffer *a, PlannedBuffer *b) {
    return a->bytes > b->bytes;
  });
  SmallVector<PlannedBuffer *> placed;
  int64_t arenaBytes = 0;
  for (PlannedBuffer *buffer : bySize) {
    SmallVector<PlannedBuffer *> conflicts;
    for (PlannedBuffer *other : placed)
      if (buffer->overlapsInTime(*other))
        conflicts.push_back(other);
    llvm::sort(conflicts, [](PlannedBuffer *a, PlannedBuffer *b) {
      return a->offset < b->offset;
    });
    int64_t offset = 0;
    for (PlannedBuffer *other : conflicts) {
      if (offset + buffer->bytes <= other->offset)
        break;
      offset =
          std::max<int64_t>(offset, llvm::alignTo(other->offset + other->bytes,
                                                  buffer->alignment));
    }
    buffer->offset = offset;
    arenaBytes = std::max(arenaBytes, offset + buffer->bytes);
    placed.push_back(buffer);
  }
  return llvm::alignTo(arenaBytes, kMinAlignment);
}

static int64_t planBuffers(func::FuncOp func, SymbolTable &symbols,
                           SmallVectorImpl<PlannedBuffer> &buffers) {
  return planBlock(func.getBody().front(), symbols, buffers);
}

/// Replaces each planned allocation by a view of `arena` (at `base` plus its
/// offset, when `base` is given) and drops its deallocations.
static void rewriteIntoArena(MutableArrayRef<PlannedBuffer> buffers,
                             Value arena, Value base = Value()) {
  for (PlannedBuffer &buffer : buffers) {
    for (memref::AllocOp alloc : buffer.allocs) {
      OpBuilder builder(alloc);
      Location loc = alloc.getLoc();
      Value offset =
          arith::ConstantIndexOp::create(builder, loc, buffer.offset);
      if (base)
        offset = arith::AddIOp::create(builder, loc, base, offset);
      Value view = memref::ViewOp::create(builder, loc, alloc.getType(), arena,
                                          offset, alloc.getDynamicSizes());
      alloc.getResult().replaceAllUsesWith(view);
      alloc.erase();
    }
    for (memref::DeallocOp dealloc : buffer.deallocs)
      dealloc.erase();
  }
}

static MemRefType getArenaType(MLIRContext *context, int64_t bytes) {
  return MemRefType::get({bytes}, IntegerType::get(context, 8));
}

/// The function `name` of type () -> i32 from the OpenMP runtime, declared
/// in the module when it is not yet.
static func::FuncOp getOpenMPQuery(ModuleOp module, SymbolTable &symbols,
                                   StringRef name) {
  if (auto existing = symbols.lookup<func::FuncOp>(name))
    return existing;
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  auto decl =
      func::FuncOp::create(builder, module.getLoc(), name,
                           builder.getFunctionType({}, {builder.getI32Type()}));
  decl.setPrivate();
  symbols.insert(decl);
  return decl;
}

/// Whether `parallel` is the only parallel region on its path: the thread
/// numbers of its team then name its threads.
static bool isOutermostParallel(omp::ParallelOp parallel) {
  if (parallel->getParentOfType<omp::ParallelOp>())
    return false;
  WalkResult nested = parallel.getRegion().walk(
      [](omp::ParallelOp) { return WalkResult::interrupt(); });
  return !nested.wasInterrupted();
}

/// The most threads that can find work in `parallel`: the iterations of
/// its worksharing loops when they are known, at most `maxThreads`.
static int64_t getUsefulThreads(omp::ParallelOp parallel, int64_t maxThreads) {
  int64_t iterations = 0;
  WalkResult unknown = parallel.getRegion().walk([&](omp::LoopNestOp nest) {
    int64_t count = 1;
    for (auto [lower, upper, step] :
         llvm::zip(nest.getLoopLowerBounds(), nest.getLoopUpperBounds(),
                   nest.getLoopSteps())) {
      std::optional<int64_t> l = getConstantIntValue(lower);
      std::optional<int64_t> u = getConstantIntValue(upper);
      std::optional<int64_t> st = getConstantIntValue(step);
      if (!l || !u || !st || *st <= 0)
        return WalkResult::interrupt();
      int64_t range = *u - *l + (nest.getLoopInclusive() ? 1 : 0);
      int64_t trips = range > 0 ? llvm::divideCeil(range, *st) : 0;
      count = std::min(count * std::min(trips, maxThreads), maxThreads);
    }
    iterations = std::max(iterations, count);
    return WalkResult::advance();
  });
  if (unknown.wasInterrupted() || iterations == 0)
    return maxThreads;
  return std::min(iterations, maxThreads);
}

/// Turns the buffers that the parallel regions of `func` allocate inside
/// them into slots of one scratch buffer allocated in the function's body,
/// one slot per thread: each thread takes the slot of its thread number,
/// once on entry to the region, and the region's team is capped at the
/// number of slots so that the number stays in range. A region gets as many
/// slots as threads can find work in it, at most `maxThreads`. Each
/// block of a region gets its own part of the slot (the blocks of nested
/// loops are alive at once), planned by liveness within the block.
static void planThreadScratch(func::FuncOp func, SymbolTable &symbols,
                              int64_t maxThreads) {
  struct RegionPlan {
    omp::ParallelOp parallel;
    int64_t threads = 0;
    int64_t slotBytes = 0;
    SmallVector<std::pair<int64_t, SmallVector<PlannedBuffer>>> blocks;
  };
  SmallVector<RegionPlan> plans;
  int64_t scratchBytes = 0;
  int64_t scratchAlignment = kMinAlignment;
  func.walk([&](omp::ParallelOp parallel) {
    if (!isOutermostParallel(parallel))
      return;
    RegionPlan plan{parallel, getUsefulThreads(parallel, maxThreads), 0, {}};
    int64_t alignment = kMinAlignment;
    parallel.getRegion().walk([&](Block *block) {
      SmallVector<PlannedBuffer> buffers;
      int64_t bytes = planBlock(*block, symbols, buffers);
      if (buffers.empty())
        return;
      for (const PlannedBuffer &buffer : buffers)
        alignment = std::max(alignment, buffer.alignment);
      plan.slotBytes = llvm::alignTo(plan.slotBytes, alignment);
      plan.blocks.emplace_back(plan.slotBytes, std::move(buffers));
      plan.slotBytes += bytes;
    });
    if (plan.blocks.empty())
      return;
    plan.slotBytes = llvm::alignTo(plan.slotBytes, alignment);
    scratchAlignment = std::max(scratchAlignment, alignment);
    scratchBytes = std::max(scratchBytes, plan.threads * plan.slotBytes);
    plans.push_back(std::move(plan));
  });
  if (plans.empty())
    return;

  auto module = func->getParentOfType<ModuleOp>();
  func::FuncOp threadNumQuery =
      getOpenMPQuery(module, symbols, "omp_get_thread_num");
  func::FuncOp maxThreadsQuery =
      getOpenMPQuery(module, symbols, "omp_get_max_threads");

  Block &body = func.getBody().front();
  Location loc = func.getLoc();
  OpBuilder builder = OpBuilder::atBlockBegin(&body);
  Value scratch = memref::AllocOp::create(
      builder, loc, getArenaType(func.getContext(), scratchBytes),
      builder.getI64IntegerAttr(scratchAlignment));
  builder.setInsertionPoint(body.getTerminator());
  memref::DeallocOp::create(builder, loc, scratch);

  for (RegionPlan &plan : plans) {
    omp::ParallelOp parallel = plan.parallel;
    Location regionLoc = parallel.getLoc();
    // No more threads than slots: the team gets at most that many.
    builder.setInsertionPoint(parallel);
    Value requested = parallel.getNumThreads();
    if (!requested)
      requested = func::CallOp::create(builder, regionLoc, maxThreadsQuery)
                      .getResult(0);
    Value limit = arith::ConstantOp::create(
        builder, regionLoc,
        builder.getIntegerAttr(requested.getType(), plan.threads));
    Value threads =
        arith::MinSIOp::create(builder, regionLoc, requested, limit);
    parallel.getNumThreadsMutable().assign(threads);

    builder.setInsertionPointToStart(&parallel.getRegion().front());
    Value thread =
        func::CallOp::create(builder, regionLoc, threadNumQuery).getResult(0);
    Value index = arith::IndexCastOp::create(builder, regionLoc,
                                             builder.getIndexType(), thread);
    Value stride =
        arith::ConstantIndexOp::create(builder, regionLoc, plan.slotBytes);
    Value slot = arith::MulIOp::create(builder, regionLoc, index, stride);
    for (auto &[offset, buffers] : plan.blocks) {
      Value blockBase = slot;
      if (offset != 0) {
        Value blockOffset =
            arith::ConstantIndexOp::create(builder, regionLoc, offset);
        blockBase =
            arith::AddIOp::create(builder, regionLoc, slot, blockOffset);
      }
      rewriteIntoArena(buffers, scratch, blockBase);
      builder.setInsertionPointAfterValue(blockBase);
    }
  }
}

/// Gives `kernel` a workspace argument holding its planned scratch, and each
/// of its call sites a buffer for it that lives for the call.
static void planKernel(func::FuncOp kernel, ArrayRef<func::CallOp> calls,
                       SymbolTable &symbols) {
  SmallVector<PlannedBuffer> buffers;
  int64_t bytes = planBuffers(kernel, symbols, buffers);
  if (buffers.empty())
    return;
  MemRefType type = getArenaType(kernel.getContext(), bytes);
  unsigned index = kernel.getNumArguments();
  if (failed(kernel.insertArgument(index, type, DictionaryAttr(),
                                   kernel.getLoc())))
    return;
  rewriteIntoArena(buffers, kernel.getArgument(index));
  for (func::CallOp call : calls) {
    OpBuilder builder(call);
    Location loc = call.getLoc();
    Value workspace = memref::AllocOp::create(
        builder, loc, type, builder.getI64IntegerAttr(kMinAlignment));
    call.getOperandsMutable().append(workspace);
    builder.setInsertionPointAfter(call);
    memref::DeallocOp::create(builder, loc, workspace);
  }
}

/// Plans the buffers of an entry function into one arena. Up to
/// `maxGlobalBytes`, the arena is a global guarded by a flag, and a run that
/// finds the flag set allocates an arena of its own; a larger arena is
/// allocated by each run (a global that large could not be mapped when the
/// code is loaded, where no error can be reported). Returns the bytes of the
/// global arena.
static int64_t planEntry(func::FuncOp func, SymbolTable &symbols,
                         int64_t maxGlobalBytes) {
  SmallVector<PlannedBuffer> buffers;
  int64_t bytes = planBuffers(func, symbols, buffers);
  if (buffers.empty())
    return 0;
  MLIRContext *context = func.getContext();
  Location loc = func.getLoc();
  MemRefType arenaType = getArenaType(context, bytes);
  auto flagType = MemRefType::get({}, IntegerType::get(context, 32));
  Block &body = func.getBody().front();
  OpBuilder builder(context);
  auto allocateArena = [&] {
    return memref::AllocOp::create(builder, loc, arenaType,
                                   builder.getI64IntegerAttr(kMinAlignment));
  };

  if (bytes > maxGlobalBytes) {
    builder.setInsertionPointToStart(&body);
    Value arena = allocateArena();
    rewriteIntoArena(buffers, arena);
    builder.setInsertionPoint(body.getTerminator());
    memref::DeallocOp::create(builder, loc, arena);
    return 0;
  }

  builder.setInsertionPoint(func);
  auto arenaGlobal = memref::GlobalOp::create(
      builder, loc, ("graph_arena_" + func.getSymName()).str(),
      builder.getStringAttr("private"), arenaType,
      /*uninitialized*/ builder.getUnitAttr(), /*constant=*/false,
      builder.getI64IntegerAttr(kMinAlignment));
  symbols.insert(arenaGlobal);
  auto flagGlobal = memref::GlobalOp::create(
      builder, loc, ("graph_arena_busy_" + func.getSymName()).str(),
      builder.getStringAttr("private"), flagType,
      DenseElementsAttr::get(RankedTensorType::get({}, builder.getI32Type()),
                             ArrayRef<Attribute>{builder.getI32IntegerAttr(0)}),
      /*constant=*/false, IntegerAttr());
  symbols.insert(flagGlobal);

  builder.setInsertionPointToStart(&body);
  Value flag = memref::GetGlobalOp::create(builder, loc, flagType,
                                           flagGlobal.getSymName());
  Value zero = arith::ConstantIntOp::create(builder, loc, 0, 32);
  Value one = arith::ConstantIntOp::create(builder, loc, 1, 32);
  Value previous = memref::AtomicRMWOp::create(
      builder, loc, arith::AtomicRMWKind::assign, one, flag, ValueRange());
  Value acquired = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                         previous, zero);
  auto select = scf::IfOp::create(builder, loc, arenaType, acquired,
                                  /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(select.thenBlock());
    Value global = memref::GetGlobalOp::create(builder, loc, arenaType,
                                               arenaGlobal.getSymName());
    scf::YieldOp::create(builder, loc, global);
    builder.setInsertionPointToStart(select.elseBlock());
    Value own = allocateArena();
    scf::YieldOp::create(builder, loc, own);
  }
  Value arena = select.getResult(0);
  rewriteIntoArena(buffers, arena);

  // Hand the arena back before returning.
  builder.setInsertionPoint(body.getTerminator());
  auto release = scf::IfOp::create(builder, loc, TypeRange(), acquired,
                                   /*withElseRegion=*/true);
  builder.setInsertionPointToStart(release.thenBlock());
  memref::AtomicRMWOp::create(builder, loc, arith::AtomicRMWKind::assign, zero,
                              flag, ValueRange());
  builder.setInsertionPointToStart(release.elseBlock());
  memref::DeallocOp::create(builder, loc, arena);
  return bytes;
}

namespace {
struct GraphPlanBuffersPass
    : public graph::impl::GraphPlanBuffersBase<GraphPlanBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (maxThreads < 1) {
      emitError(module.getLoc(),
                "graph-plan-buffers: max-threads must be at least 1, got ")
          << int64_t(maxThreads);
      return signalPassFailure();
    }
    SymbolTable symbols(module);
    // Per-thread scratch first: it becomes a buffer of its function's body.
    SmallVector<func::FuncOp> functions;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && func.getBody().hasOneBlock())
        functions.push_back(func);
    for (func::FuncOp func : functions)
      planThreadScratch(func, symbols, maxThreads);
    // Kernels first: their workspaces become buffers of their callers.
    llvm::MapVector<func::FuncOp, SmallVector<func::CallOp>> calls;
    SmallVector<func::FuncOp> entries;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || !func.getBody().hasOneBlock())
        continue;
      if (func->hasAttr(kKernelAttr) && func.isPrivate())
        calls[func];
      else if (func.isPublic())
        entries.push_back(func);
    }
    // Each kernel's symbol uses must all be calls that can pass a workspace.
    // One walk of the module finds every use (a walk per kernel made the
    // pass quadratic in the number of kernels).
    SymbolTableCollection tables;
    SymbolUserMap users(tables, module);
    for (auto &[kernel, sites] : calls) {
      bool plannable = true;
      for (Operation *user : users.getUsers(kernel)) {
        auto call = dyn_cast<func::CallOp>(user);
        if (!call) {
          plannable = false;
          break;
        }
        sites.push_back(call);
      }
      if (plannable)
        planKernel(kernel, sites, symbols);
    }

    int64_t arenaBytes = 0;
    for (func::FuncOp entry : entries)
      arenaBytes += planEntry(entry, symbols, maxGlobalBytes);
    if (arenaBytes > 0)
      module->setAttr(
          kArenaBytesAttr,
          IntegerAttr::get(IntegerType::get(&getContext(), 64), arenaBytes));
  }
};
} // namespace
