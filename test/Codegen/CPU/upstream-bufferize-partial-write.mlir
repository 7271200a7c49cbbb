// RUN: %mlir_opt %s --one-shot-bufferize="bufferize-function-boundaries" \
// RUN: | FileCheck %s --check-prefix=UPSTREAM
// RUN: graph-opt %s --graph-full-rank-tensor-writes \
// RUN: | %mlir_opt --one-shot-bufferize="bufferize-function-boundaries" \
// RUN: | FileCheck %s --check-prefix=FIXED

// Documents an LLVM 22 bufferization behaviour that graph-full-rank-tensor-
// writes works around. A zero-filled tensor<2x4xf32> gets two writes of a
// vector<2xf32>, at rows 0 and 1. One write must go out of place, into a new
// buffer holding a copy of the zeros. Upstream decides whether a write reads
// its destination by pairing the vector's dims with the tensor's LEADING
// dims (2 <= 2: "covers the tensor"), so the write at [0, 0] gets a new
// buffer with no copy: its row 1 is garbage. If the UPSTREAM checks start
// failing, upstream has fixed it; the workaround may then go.

// UPSTREAM-LABEL: func.func @two_rows
// UPSTREAM:         %[[FILL:.+]] = memref.alloc()
// UPSTREAM:         linalg.fill {{.*}} outs(%[[FILL]]
// UPSTREAM:         %[[OUT:.+]] = memref.alloc()
// UPSTREAM-NOT:     memref.copy
// UPSTREAM:         vector.transfer_write %{{.+}}, %[[OUT]][%c0, %c0]
// UPSTREAM-NOT:     memref.copy
// UPSTREAM:         return

// With the write made full rank (vector<1x2xf32>), the new buffer gets its
// copy of the zeros.
// FIXED-LABEL: func.func @two_rows
// FIXED:         %[[FILL:.+]] = memref.alloc()
// FIXED:         linalg.fill {{.*}} outs(%[[FILL]]
// FIXED:         %[[OUT:.+]] = memref.alloc()
// FIXED:         memref.copy %[[FILL]], %[[OUT]]
// FIXED:         vector.transfer_write %{{.+}}, %[[OUT]][%c0, %c0] {{.*}} : vector<1x2xf32>
func.func @two_rows(%v: vector<2xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %a = vector.transfer_write %v, %f[%c0, %c0] {in_bounds = [true]} : vector<2xf32>, tensor<2x4xf32>
  %b = vector.transfer_write %v, %f[%c1, %c0] {in_bounds = [true]} : vector<2xf32>, tensor<2x4xf32>
  return %a, %b : tensor<2x4xf32>, tensor<2x4xf32>
}

// tensor.insert_slice, checked the same way, is judged right upstream: the
// out-of-place insert gets its copy.
// UPSTREAM-LABEL: func.func @insert_slice_two_rows
// UPSTREAM:         %[[FILL:.+]] = memref.alloc()
// UPSTREAM:         %[[OUT:.+]] = memref.alloc()
// UPSTREAM:         memref.copy %[[FILL]], %[[OUT]]
func.func @insert_slice_two_rows(%v: tensor<2xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %a = tensor.insert_slice %v into %f[0, 0] [1, 2] [1, 1] : tensor<2xf32> into tensor<2x4xf32>
  %b = tensor.insert_slice %v into %f[1, 0] [1, 2] [1, 1] : tensor<2xf32> into tensor<2x4xf32>
  return %a, %b : tensor<2x4xf32>, tensor<2x4xf32>
}
