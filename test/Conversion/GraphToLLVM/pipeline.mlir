// RUN: graph-opt %s --graph-lower-to-llvm \
// RUN:   --mlir-print-ir-after=graph-lower-fused -o /dev/null 2>&1 \
// RUN: | FileCheck %s --check-prefix=KERNELS
// RUN: graph-opt %s --graph-lower-to-llvm | FileCheck %s --check-prefix=LLVM

// The lowering fuses nothing that graph-fuse did not group: elementwise ops
// outside any graph.fused stay one kernel (one linalg.generic, its own loop
// nest) each, and a group of them is one kernel. exp and tanh become the
// libm calls the fold hooks make (expf, tanhf), and the result is written
// into a caller-allocated out-parameter of a function with a C wrapper.

// Two elementwise ops, no group: two kernels, the first one's result a
// whole tensor that the second reads.
// KERNELS-LABEL: func.func @two_kernels
// KERNELS: %[[ADD:.*]] = linalg.generic
// KERNELS: arith.addf
// KERNELS-NOT: math.tanh
// KERNELS: } -> tensor<4x8xf32>
// KERNELS: linalg.generic {{.*}} ins(%[[ADD]] : tensor<4x8xf32>)
// KERNELS: math.tanh
// KERNELS: } -> tensor<4x8xf32>
// KERNELS-NOT: linalg.generic
// KERNELS: return
func.func @two_kernels(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = graph.add %x, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = graph.tanh %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// The same ops and more in one group (a tree: add -> tanh and sigmoid into
// mul): one linalg.generic computes all of them per element.
// KERNELS-LABEL: func.func @model
// KERNELS: linalg.generic
// KERNELS: arith.addf
// KERNELS: math.tanh
// KERNELS: math.exp
// KERNELS: arith.mulf
// KERNELS: linalg.yield
// KERNELS-NOT: linalg.generic
// KERNELS: return

// LLVM-NOT: math.
// LLVM-DAG: llvm.func @expf(f32) -> f32
// LLVM-DAG: llvm.func @tanhf(f32) -> f32
// LLVM: llvm.func @model(
// LLVM: llvm.call @tanhf
// LLVM: llvm.call @expf
// The C wrapper takes the descriptors of %x, %b and the result; it returns
// nothing.
// LLVM: llvm.func @_mlir_ciface_model(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {llvm.emit_c_interface}
// LLVM-NOT: math.
func.func @model(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = graph.fused "add_tanh_sigmoid_mul"(%x, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a0: tensor<4x8xf32>, %a1: tensor<8xf32>):
    %1 = graph.add %a0, %a1 : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %2 = graph.tanh %1 : tensor<4x8xf32>
    %3 = graph.sigmoid %a0 : tensor<4x8xf32>
    %4 = graph.mul %2, %3 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    graph.yield %4 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}
