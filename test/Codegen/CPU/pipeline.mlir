// RUN: graph-opt %s --graph-lower-to-llvm \
// RUN:   --mlir-print-ir-after=graph-merge-kernels \
// RUN:   --mlir-disable-threading -o /dev/null 2>&1 \
// RUN: | FileCheck %s --check-prefix=KERNELS
// RUN: graph-opt %s --graph-lower-to-llvm | FileCheck %s --check-prefix=LLVM

// The lowering fuses nothing that graph-fuse did not group: each graph op
// outside any graph.fused is a kernel of its own (a function that the model
// calls, with one linalg.generic, its own loop nest), and a group is one
// kernel. exp and tanh become the polynomials the fold hooks compute, not
// libm calls, and the result is written into a caller-allocated
// out-parameter of a function with a C wrapper.

// Two elementwise ops, no group: two kernels.
// KERNELS-LABEL: func.func private @two_kernels_kernel0_add
// KERNELS-SAME:    attributes {graph.kernel = "add", no_inline}
// KERNELS:         linalg.generic
// KERNELS:         arith.addf
// KERNELS-NOT:     linalg.generic
// KERNELS:         return
// KERNELS-LABEL: func.func private @two_kernels_kernel1_tanh
// KERNELS:         linalg.generic
// KERNELS:         math.tanh
// KERNELS-NOT:     linalg.generic
// KERNELS:         return
// KERNELS-LABEL: func.func @two_kernels
// KERNELS-NOT:     linalg.generic
// KERNELS:         call @two_kernels_kernel0_add
// KERNELS:         call @two_kernels_kernel1_tanh
// KERNELS-NOT:     linalg.generic
// KERNELS:         return
func.func @two_kernels(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = graph.add %x, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = graph.tanh %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// The same ops and more in one group (a tree: add -> tanh and sigmoid into
// mul): one kernel, whose one linalg.generic computes all of them per
// element.
// KERNELS-LABEL: func.func private @model_kernel0_add_tanh_sigmoid_mul
// KERNELS: linalg.generic
// KERNELS: arith.addf
// KERNELS: math.tanh
// KERNELS: math.exp
// KERNELS: arith.mulf
// KERNELS: linalg.yield
// KERNELS-NOT: linalg.generic
// KERNELS: return
// KERNELS-LABEL: func.func @model
// KERNELS-NOT:     linalg.generic
// KERNELS:         call @model_kernel0_add_tanh_sigmoid_mul
// KERNELS-NOT:     linalg.generic
// KERNELS:         return

// tanh and the sigmoid's exp are polynomials, not calls.
// LLVM-NOT: math.
// LLVM-NOT: @expf
// LLVM-NOT: @tanhf
// LLVM: llvm.func @model(
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
