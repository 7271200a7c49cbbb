//===- Report.cpp - Op counts, constants and fusion savings -----*- C++ -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// graph-report: prints to stderr, without changing the IR, the op counts at
// graph level, the constants and their bytes, the fused groups by kind, the
// bytes that fusion keeps off memory: the intermediate tensors of fused
// bodies, which a fused kernel never writes out nor reads back
// (Saving = 2 * sum |T_k|), and the layout changes left (transposes).
//
//===----------------------------------------------------------------------===//

#include "graph/Transforms/Report.h"

#include "graph/Dialect/Graph/IR/GraphOps.h"
#include "graph/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/JSON.h"

namespace mlir {
namespace graph {
#define GEN_PASS_DEF_GRAPHREPORT
#include "graph/Transforms/Passes.h.inc"
} // namespace graph
} // namespace mlir

using namespace mlir;
using namespace mlir::graph;

/// Bytes of one element of `type` as stored in memory (whole bytes), or 0
/// for a type without a fixed size.
static int64_t getElementBytes(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    return 2 * getElementBytes(complex.getElementType());
  if (type.isIntOrFloat())
    return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
  if (type.isIndex())
    return 8;
  return 0;
}

/// |T|: the logical size in bytes of a statically shaped tensor (a splat
/// counts as many bytes as its elements); 0 for anything else.
static int64_t getTensorBytes(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return 0;
  return shaped.getNumElements() * getElementBytes(shaped.getElementType());
}

/// Whether `value`, defined in a fused body, is an intermediate tensor: used
/// inside the body but not yielded, so that it never reaches memory.
static bool isIntermediate(Value value) {
  if (value.use_empty())
    return false;
  return llvm::none_of(value.getUsers(),
                       [](Operation *user) { return isa<YieldOp>(user); });
}

int64_t mlir::graph::GraphStatistics::getNumOps() const {
  int64_t total = 0;
  for (const auto &[name, count] : ops)
    total += count;
  return total;
}

/// Counts `op`'s weight if it reads it packed (graph-pack-weights).
static void countPackedWeights(Operation *op, GraphStatistics &stats) {
  Value packed;
  if (auto matmul = dyn_cast<MatMulOp>(op); matmul && matmul.getPackedB())
    packed = matmul.getB();
  else if (auto gemm = dyn_cast<GemmOp>(op); gemm && gemm.getPackedB())
    packed = gemm.getB();
  else if (auto conv = dyn_cast<Conv2DOp>(op); conv && conv.getPackedWeight())
    packed = conv.getWeight();
  if (!packed)
    return;
  ++stats.packedWeights;
  stats.packedWeightBytes += getTensorBytes(packed.getType());
}

GraphStatistics mlir::graph::collectGraphStatistics(Operation *root) {
  GraphStatistics stats;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == root || isa<ModuleOp, func::FuncOp>(op))
      return WalkResult::advance();
    ++stats.ops[op->getName().getStringRef().str()];
    if (isa<TransposeOp>(op))
      ++stats.layoutChanges;
    countPackedWeights(op, stats);
    if (auto constant = dyn_cast<ConstantOp>(op)) {
      ++stats.constants;
      stats.constantBytes += getTensorBytes(constant.getType());
      return WalkResult::advance();
    }
    auto fused = dyn_cast<FusedOp>(op);
    if (!fused)
      return WalkResult::advance();
    // A fused body counts as its group, not as ops of the graph.
    ++stats.fused[fused.getKind().str()];
    for (Operation &inner : fused.getBody().front()) {
      if (isa<TransposeOp>(inner))
        ++stats.layoutChanges;
      countPackedWeights(&inner, stats);
      if (inner.hasTrait<OpTrait::ConstantLike>())
        continue;
      for (Value result : inner.getResults())
        if (isIntermediate(result))
          stats.intermediateBytes += getTensorBytes(result.getType());
    }
    return WalkResult::skip();
  });
  return stats;
}

void mlir::graph::printGraphStatistics(const GraphStatistics &stats,
                                       raw_ostream &os) {
  os << "=== graph-report ===\n";
  os << "ops:\n";
  for (const auto &[name, count] : stats.ops)
    os << "  " << name << ": " << count << "\n";
  os << "constants: " << stats.constants << " (" << stats.constantBytes
     << " bytes)\n";
  os << "fused groups:\n";
  for (const auto &[kind, count] : stats.fused)
    os << "  " << kind << ": " << count << "\n";
  os << "intermediate bytes: " << stats.intermediateBytes << "\n";
  os << "saving (2 x intermediate bytes): " << stats.getSavingBytes() << "\n";
  os << "layout changes: " << stats.layoutChanges << "\n";
  os << "packed weights: " << stats.packedWeights << " ("
     << stats.packedWeightBytes << " bytes)\n";
}

void mlir::graph::printGraphStatisticsJson(const GraphStatistics &stats,
                                           raw_ostream &os) {
  llvm::json::OStream json(os);
  json.object([&] {
    json.attributeObject("ops", [&] {
      for (const auto &[name, count] : stats.ops)
        json.attribute(name, count);
    });
    json.attributeObject("constants", [&] {
      json.attribute("count", stats.constants);
      json.attribute("bytes", stats.constantBytes);
    });
    json.attributeObject("fused", [&] {
      for (const auto &[kind, count] : stats.fused)
        json.attribute(kind, count);
    });
    json.attribute("intermediate_bytes", stats.intermediateBytes);
    json.attribute("saving_bytes", stats.getSavingBytes());
    json.attribute("layout_changes", stats.layoutChanges);
    json.attributeObject("packed_weights", [&] {
      json.attribute("count", stats.packedWeights);
      json.attribute("bytes", stats.packedWeightBytes);
    });
  });
  os << "\n";
}

namespace {
struct GraphReportPass : public graph::impl::GraphReportBase<GraphReportPass> {
  using Base::Base;

  void runOnOperation() override {
    GraphStatistics stats = collectGraphStatistics(getOperation());
    if (json)
      printGraphStatisticsJson(stats, llvm::errs());
    else
      printGraphStatistics(stats, llvm::errs());
    markAllAnalysesPreserved();
  }
};

} // namespace
