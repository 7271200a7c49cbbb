// RUN: graph-opt %s --graph-lower-to-llvm \
// RUN:   --mlir-print-ir-after=graph-fuse-elementwise-ops -o /dev/null 2>&1 \
// RUN: | FileCheck %s --check-prefix=FUSED
// RUN: graph-opt %s --graph-lower-to-llvm | FileCheck %s --check-prefix=LLVM

// Elementwise ops outside fused groups become one loop nest (upstream's
// elementwise fusion patterns), exp and tanh become the libm calls the fold hooks
// make (expf, tanhf), and the result is written into a caller-allocated
// out-parameter of a function with a C wrapper.

// FUSED-LABEL: func.func @model
// FUSED: linalg.generic
// FUSED: math.exp
// FUSED: math.tanh
// FUSED: arith.mulf
// FUSED: linalg.yield
// FUSED-NOT: linalg.generic
// FUSED: return

// LLVM-NOT: math.
// LLVM-DAG: llvm.func @expf(f32) -> f32
// LLVM-DAG: llvm.func @tanhf(f32) -> f32
// LLVM: llvm.func @model(
// LLVM: llvm.call @expf
// LLVM: llvm.call @tanhf
// The C wrapper takes the descriptors of %x, %b and the result; it returns
// nothing.
// LLVM: llvm.func @_mlir_ciface_model(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {llvm.emit_c_interface}
// LLVM-NOT: math.
func.func @model(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = graph.add %x, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = graph.tanh %0 : tensor<4x8xf32>
  %2 = graph.sigmoid %x : tensor<4x8xf32>
  %3 = graph.mul %1, %2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}
