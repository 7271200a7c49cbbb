//===- GraphFolds.cpp - Fold hooks of the graph ops -------------*- C++ -*-===//

#include "graph/Dialect/Graph/IR/GraphOps.h"

using namespace mlir;
using namespace mlir::graph;

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }
OpFoldResult Conv2DOp::fold(FoldAdaptor) { return {}; }
OpFoldResult BatchNormOp::fold(FoldAdaptor) { return {}; }
OpFoldResult ReluOp::fold(FoldAdaptor) { return {}; }
OpFoldResult ClipOp::fold(FoldAdaptor) { return {}; }
OpFoldResult SigmoidOp::fold(FoldAdaptor) { return {}; }
OpFoldResult TanhOp::fold(FoldAdaptor) { return {}; }
OpFoldResult AddOp::fold(FoldAdaptor) { return {}; }
OpFoldResult SubOp::fold(FoldAdaptor) { return {}; }
OpFoldResult MulOp::fold(FoldAdaptor) { return {}; }
OpFoldResult DivOp::fold(FoldAdaptor) { return {}; }
OpFoldResult MatMulOp::fold(FoldAdaptor) { return {}; }
OpFoldResult GemmOp::fold(FoldAdaptor) { return {}; }
OpFoldResult MaxPool2DOp::fold(FoldAdaptor) { return {}; }
OpFoldResult AvgPool2DOp::fold(FoldAdaptor) { return {}; }
OpFoldResult GlobalAvgPoolOp::fold(FoldAdaptor) { return {}; }
OpFoldResult ReshapeOp::fold(FoldAdaptor) { return {}; }
OpFoldResult FlattenOp::fold(FoldAdaptor) { return {}; }
OpFoldResult TransposeOp::fold(FoldAdaptor) { return {}; }
OpFoldResult ConcatOp::fold(FoldAdaptor) { return {}; }
OpFoldResult SoftmaxOp::fold(FoldAdaptor) { return {}; }
OpFoldResult DropoutOp::fold(FoldAdaptor) { return {}; }
LogicalResult FusedOp::fold(FoldAdaptor, SmallVectorImpl<OpFoldResult> &) {
  return failure();
}
