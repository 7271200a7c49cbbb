//===- PlanBuffers.cpp - One arena for a model's buffers --------*- C++ -*-===//
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
// Buffers in loops, of dynamic size, or that leave through anything but a
// kernel call are left to malloc.
//
//===----------------------------------------------------------------------===//

#include "graph/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHPLANBUFFERS
#include "graph/Conversion/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

/// Every view starts on a cache line, as the allocations it replaces did.
static constexpr int64_t kMinAlignment = 64;

namespace {
/// A buffer of the function's body and the ops of the body, by position,
/// from its allocation to its last use.
struct PlannedBuffer {
  memref::AllocOp alloc;
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

/// The buffer that `alloc` makes, when its bytes may live in an arena: a
/// static size, and uses that only read and write it (or its views) or pass
/// it to a kernel, with its deallocations in `body` itself. `position` numbers
/// the ops of `body`.
static std::optional<PlannedBuffer>
analyzeBuffer(memref::AllocOp alloc, Block &body,
              const llvm::DenseMap<Operation *, unsigned> &position,
              SymbolTable &symbols) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace() || !type.getElementType().isIntOrFloat() ||
      type.getElementTypeBitWidth() % 8 != 0)
    return std::nullopt;

  PlannedBuffer buffer;
  buffer.alloc = alloc;
  buffer.bytes = type.getNumElements() * (type.getElementTypeBitWidth() / 8);
  if (std::optional<uint64_t> alignment = alloc.getAlignment())
    buffer.alignment = std::max<int64_t>(kMinAlignment, *alignment);
  buffer.first = buffer.last = position.lookup(alloc);

  SmallVector<Value> aliases{alloc.getResult()};
  while (!aliases.empty()) {
    Value value = aliases.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      Operation *top = body.findAncestorOpInBlock(*user);
      if (!top)
        return std::nullopt;
      if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
        // A conditional deallocation would decide at run time whether the
        // bytes are the buffer's.
        if (value != alloc.getResult() || dealloc->getBlock() != &body)
          return std::nullopt;
        buffer.deallocs.push_back(dealloc);
        continue;
      }
      buffer.last = std::max(buffer.last, position.lookup(top));
      if (isa<memref::CastOp, memref::SubViewOp, memref::ExpandShapeOp,
              memref::CollapseShapeOp, memref::ReinterpretCastOp,
              memref::TransposeOp>(user)) {
        aliases.push_back(user->getResult(0));
        continue;
      }
      // Anything that could keep the address past the body's own ops: a
      // terminator (a yield, a return), a call that is not a kernel's, an
      // op that makes another memref or reads the pointer.
      if (user->hasTrait<OpTrait::IsTerminator>() ||
          isa<memref::ExtractAlignedPointerAsIndexOp,
              memref::ExtractStridedMetadataOp>(user))
        return std::nullopt;
      if (auto call = dyn_cast<func::CallOp>(user)) {
        if (!isKernelCall(call, symbols))
          return std::nullopt;
        continue;
      }
      if (llvm::any_of(user->getResultTypes(), llvm::IsaPred<MemRefType>))
        return std::nullopt;
    }
  }
  if (buffer.deallocs.empty())
    return std::nullopt;
  return buffer;
}

/// The plannable buffers of `func`'s body, with their offsets in an arena of
/// the returned size. Greedy by size: largest first, each at the lowest
/// aligned offset that no buffer alive at the same time occupies.
static int64_t planBuffers(func::FuncOp func, SymbolTable &symbols,
                           SmallVectorImpl<PlannedBuffer> &buffers) {
  Block &body = func.getBody().front();
  llvm::DenseMap<Operation *, unsigned> position;
  for (auto [index, op] : llvm::enumerate(body))
    position[&op] = index;
  for (auto alloc : body.getOps<memref::AllocOp>())
    if (std::optional<PlannedBuffer> buffer =
            analyzeBuffer(alloc, body, position, symbols))
      buffers.push_back(*buffer);

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

/// Replaces each planned allocation by a view of `arena` and drops its
/// deallocations.
static void rewriteIntoArena(MutableArrayRef<PlannedBuffer> buffers,
                             Value arena) {
  for (PlannedBuffer &buffer : buffers) {
    OpBuilder builder(buffer.alloc);
    Location loc = buffer.alloc.getLoc();
    Value offset = arith::ConstantIndexOp::create(builder, loc, buffer.offset);
    Value view = memref::ViewOp::create(builder, loc, buffer.alloc.getType(),
                                        arena, offset, ValueRange());
    buffer.alloc.getResult().replaceAllUsesWith(view);
    for (memref::DeallocOp dealloc : buffer.deallocs)
      dealloc.erase();
    buffer.alloc.erase();
  }
}

static MemRefType getArenaType(MLIRContext *context, int64_t bytes) {
  return MemRefType::get({bytes}, IntegerType::get(context, 8));
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
    SymbolTable symbols(module);
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
