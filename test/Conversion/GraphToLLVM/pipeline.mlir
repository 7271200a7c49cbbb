// RUN: graph-opt %s --graph-lower-to-llvm --mlir-disable-threading \
// RUN:   --mlir-print-ir-after=graph-fuse-elementwise-ops -o /dev/null 2>&1 \
// RUN: | FileCheck %s --check-prefix=KERNELS
// RUN: graph-opt %s --graph-lower-to-llvm | FileCheck %s --check-prefix=LLVM

// graph-lower-to-llvm fuses nothing that graph-fuse did not: each graph op
// outside a fused group is a kernel of its own, a function that the model
// calls, and the lowering's elementwise fusion only merges the loops of one
// kernel (sigmoid's exp, add and divide, say). exp and tanh become the libm
// calls the fold hooks make (expf, tanhf), and the result is written into a
// caller-allocated out-parameter of a function with a C wrapper.

// KERNELS-LABEL: func.func private @model_kernel0_add
// KERNELS-SAME:    attributes {graph.kernel = "add", no_inline}
// KERNELS:         linalg.generic
// KERNELS:         arith.addf
// KERNELS-NOT:     linalg.generic
// KERNELS:         return
// KERNELS-LABEL: func.func private @model_kernel1_tanh
// KERNELS:         linalg.generic
// KERNELS:         math.tanh
// KERNELS-NOT:     linalg.generic
// KERNELS-LABEL: func.func private @model_kernel2_sigmoid
// KERNELS:         linalg.generic
// KERNELS:         math.exp
// KERNELS-NOT:     linalg.generic
// KERNELS-LABEL: func.func private @model_kernel3_mul
// KERNELS:         linalg.generic
// KERNELS:         arith.mulf
// KERNELS-NOT:     linalg.generic
// The model: four calls, one per op, and no loops of its own.
// KERNELS-LABEL: func.func @model
// KERNELS-NOT:     linalg.generic
// KERNELS:         call @model_kernel0_add
// KERNELS:         call @model_kernel1_tanh
// KERNELS:         call @model_kernel2_sigmoid
// KERNELS:         call @model_kernel3_mul
// KERNELS-NOT:     linalg.generic
// KERNELS:         return

// LLVM-NOT: math.
// LLVM-DAG: llvm.func @expf(f32) -> f32
// LLVM-DAG: llvm.func @tanhf(f32) -> f32
// LLVM: llvm.call @tanhf
// LLVM: llvm.call @expf
// LLVM: llvm.func @model(
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
