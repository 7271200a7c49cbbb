//===- InstrumentKernels.cpp - Time each kernel call ------------*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph-instrument-kernels: each call to an outlined kernel is wrapped in
// calls to the runtime's graph_profile_enter/graph_profile_exit with the
// call site's number, and the module records what each number is (its name,
// kernel, FLOPs and bytes), computed here from the graph ops' static shapes,
// while they are still graph ops.
//
//===----------------------------------------------------------------------===//

#include "graph/Codegen/CPU/Passes.h"
#include "graph/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <set>

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHINSTRUMENTKERNELS
#include "graph/Codegen/CPU/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

static constexpr llvm::StringLiteral kProfileAttr = "graph.profile";
static constexpr llvm::StringLiteral kEnterName = "graph_profile_enter";
static constexpr llvm::StringLiteral kExitName = "graph_profile_exit";

/// The names a location carries, for a person: the ONNX node names of its
/// NameLocs (joined by `+` for a fused group), else `file:line`s.
static void
collectLocationNames(Location loc,
                     llvm::SetVector<std::string, std::vector<std::string>,
                                     std::set<std::string>> &names,
                     llvm::SetVector<std::string, std::vector<std::string>,
                                     std::set<std::string>> &lines) {
  if (auto name = dyn_cast<NameLoc>(loc)) {
    names.insert(name.getName().str());
    return;
  }
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location part : fused.getLocations())
      collectLocationNames(part, names, lines);
    return;
  }
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return collectLocationNames(callSite.getCallee(), names, lines);
  if (auto opaque = dyn_cast<OpaqueLoc>(loc))
    return collectLocationNames(opaque.getFallbackLocation(), names, lines);
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    lines.insert(llvm::sys::path::filename(file.getFilename()).str() + ":" +
                 std::to_string(file.getLine()));
}

static std::string getLocationName(Location loc) {
  llvm::SetVector<std::string, std::vector<std::string>, std::set<std::string>>
      names, lines;
  collectLocationNames(loc, names, lines);
  if (!names.empty())
    return llvm::join(names, "+");
  // `file:12+14`: the file named once for lines that follow in it.
  std::string text, lastFile;
  for (const std::string &line : lines) {
    auto [file, number] = llvm::StringRef(line).rsplit(':');
    if (!text.empty())
      text += "+";
    text += file == lastFile ? number.str() : line;
    lastFile = file.str();
  }
  return text;
}

/// The elements of a static-shaped tensor, or 0.
static uint64_t getNumElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return 0;
  return uint64_t(shaped.getNumElements());
}

static uint64_t getByteSize(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.getElementType().isIntOrFloat())
    return 0;
  // Booleans are stored as bytes.
  uint64_t elementBytes =
      llvm::divideCeil(shaped.getElementType().getIntOrFloatBitWidth(), 8);
  return getNumElements(type) * elementBytes;
}

static int64_t getDim(Value value, int64_t index) {
  auto shaped = dyn_cast<ShapedType>(value.getType());
  if (!shaped || !shaped.hasRank() || shaped.getRank() <= index ||
      shaped.isDynamicDim(index))
    return 0;
  return shaped.getDimSize(index);
}

/// Multiply-adds of a convolution, matrix product (float or integer) or
/// recurrent layer, times two; 0 for other ops and dynamic shapes.
static uint64_t getFlops(Operation *op) {
  // A convolution: 2 * |output| * (C/groups * KH * KW), the weight's
  // elements per output channel F.
  auto conv = [](Value output, Value weight, int64_t outputChannels) {
    if (outputChannels <= 0)
      return uint64_t(0);
    return 2 * getNumElements(output.getType()) *
           (getNumElements(weight.getType()) / uint64_t(outputChannels));
  };
  if (auto op2d = dyn_cast<Conv2DOp>(op)) {
    auto weight = cast<ShapedType>(op2d.getWeight().getType());
    if (!weight.hasRank() ||
        weight.getRank() != (op2d.getPackedWeight() ? 5 : 4))
      return 0;
    // Packed: F/f0 x KH x KW x C x f0.
    int64_t f = op2d.getPackedWeight()
                    ? getDim(op2d.getWeight(), 0) * getDim(op2d.getWeight(), 4)
                    : getDim(op2d.getWeight(),
                             op2d.getLayout() == Layout::NHWC ? 3 : 0);
    return conv(op2d.getOutput(), op2d.getWeight(), f);
  }
  if (auto convNd = dyn_cast<ConvOp>(op))
    return conv(convNd.getOutput(), convNd.getWeight(),
                getDim(convNd.getWeight(), 0));
  // Integer multiply-adds count as the float ones (the profiler's GFLOP/s
  // are then integer GOP/s).
  if (auto integer = dyn_cast<ConvIntegerOp>(op))
    return conv(integer.getOutput(), integer.getWeight(),
                getDim(integer.getWeight(),
                       integer.getLayout() == Layout::NHWC ? 3 : 0));
  if (auto transposed = dyn_cast<ConvTransposeOp>(op)) {
    // Each input element meets F/groups * K1..Kk weights.
    int64_t c = getDim(transposed.getWeight(), 0);
    if (c <= 0)
      return 0;
    return 2 * getNumElements(transposed.getInput().getType()) *
           (getNumElements(transposed.getWeight().getType()) / uint64_t(c));
  }
  // A matrix product: 2 * |output| * K.
  auto product = [](Value output, int64_t k) {
    return 2 * getNumElements(output.getType()) *
           uint64_t(std::max<int64_t>(k, 0));
  };
  if (auto matmul = dyn_cast<MatMulOp>(op))
    return product(matmul.getOutput(), getDim(matmul.getA(), 1));
  if (auto gemm = dyn_cast<GemmOp>(op))
    return product(gemm.getOutput(),
                   getDim(gemm.getA(), gemm.getTransA() ? 0 : 1));
  if (auto integer = dyn_cast<MatMulIntegerOp>(op)) {
    auto a = dyn_cast<ShapedType>(integer.getA().getType());
    if (!a || !a.hasRank())
      return 0;
    return product(integer.getOutput(),
                   getDim(integer.getA(), a.getRank() - 1));
  }
  if (auto batch = dyn_cast<BatchMatMulOp>(op)) {
    auto a = dyn_cast<ShapedType>(batch.getA().getType());
    if (!a || !a.hasRank())
      return 0;
    return product(batch.getOutput(), getDim(batch.getA(), a.getRank() - 1));
  }
  // A recurrent layer: every step's products with w and with r.
  if (isa<RNNOp, GRUOp, LSTMOp>(op)) {
    Value x = op->getOperand(0), w = op->getOperand(1), r = op->getOperand(2);
    return 2 * uint64_t(std::max<int64_t>(getDim(x, 0) * getDim(x, 1), 0)) *
           (getNumElements(w.getType()) + getNumElements(r.getType()));
  }
  return 0;
}

namespace {
struct GraphInstrumentKernelsPass
    : public graph::impl::GraphInstrumentKernelsBase<
          GraphInstrumentKernelsPass> {
  using Base::Base;

  void runOnOperation() override;
};
} // namespace

/// Declares `func.func private @name(i64)`, or checks that the module's
/// symbol of that name is that declaration.
static FailureOr<func::FuncOp>
declareHook(ModuleOp module, SymbolTable &symbols, StringRef name) {
  OpBuilder builder(module.getBodyRegion());
  auto type = builder.getFunctionType(builder.getI64Type(), {});
  if (Operation *existing = symbols.lookup(name)) {
    auto func = dyn_cast<func::FuncOp>(existing);
    if (!func || !func.isExternal() || func.getFunctionType() != type) {
      existing->emitError()
          << "symbol @" << name << " clashes with the profiler's function";
      return failure();
    }
    return func;
  }
  auto func = func::FuncOp::create(builder, module.getLoc(), name, type);
  func.setPrivate();
  symbols.insert(func);
  return func;
}

void GraphInstrumentKernelsPass::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTable symbols(module);
  MLIRContext *context = &getContext();

  // The call sites, in order.
  SmallVector<func::CallOp> calls;
  for (auto function : module.getOps<func::FuncOp>()) {
    if (function.isExternal() || function->hasAttr(kKernelAttr))
      continue;
    function.walk([&](func::CallOp call) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (callee && callee->hasAttr(kKernelAttr) && !callee.isExternal())
        calls.push_back(call);
    });
  }
  if (calls.empty()) {
    module->setAttr(kProfileAttr, ArrayAttr::get(context, {}));
    return;
  }

  FailureOr<func::FuncOp> enter = declareHook(module, symbols, kEnterName);
  FailureOr<func::FuncOp> exit = declareHook(module, symbols, kExitName);
  if (failed(enter) || failed(exit))
    return signalPassFailure();

  SmallVector<Attribute> table;
  OpBuilder builder(context);
  for (func::CallOp call : calls) {
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    uint64_t flops = 0, bytes = 0;
    for (Operation &op : callee.getBody().front()) {
      if (op.hasTrait<OpTrait::ConstantLike>() ||
          op.hasTrait<OpTrait::IsTerminator>())
        continue;
      // What the kernel reads (its arguments and the weights cloned into
      // it) and writes.
      for (Value operand : op.getOperands())
        bytes += getByteSize(operand.getType());
      for (Type type : op.getResultTypes())
        bytes += getByteSize(type);
      op.walk([&](Operation *inner) { flops += getFlops(inner); });
    }
    std::string name = getLocationName(call.getLoc());
    if (name.empty())
      name = call.getCallee().str();

    int64_t id = table.size();
    NamedAttribute entries[] = {
        builder.getNamedAttr("name", builder.getStringAttr(name)),
        builder.getNamedAttr("kernel", builder.getStringAttr(call.getCallee())),
        builder.getNamedAttr("kind", callee->getAttr(kKernelAttr)),
        builder.getNamedAttr("flops", builder.getI64IntegerAttr(flops)),
        builder.getNamedAttr("bytes", builder.getI64IntegerAttr(bytes)),
    };
    table.push_back(builder.getDictionaryAttr(entries));

    builder.setInsertionPoint(call);
    Value idValue = arith::ConstantIntOp::create(builder, call.getLoc(),
                                                 builder.getI64Type(), id);
    func::CallOp::create(builder, call.getLoc(), *enter, idValue);
    builder.setInsertionPointAfter(call);
    func::CallOp::create(builder, call.getLoc(), *exit, idValue);
  }
  module->setAttr(kProfileAttr, ArrayAttr::get(context, table));
}
