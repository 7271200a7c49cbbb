// RUN: graph-opt %s --graph-lower-to-llvm="plan-buffers=false" \
// RUN:   --mlir-print-ir-after=convert-linalg-to-loops --mlir-print-ir-module-scope \
// RUN:   --mlir-disable-threading -o /dev/null 2>&1 \
// RUN: | FileCheck %s

// Every buffer graph-lower-to-llvm allocates is freed on every path, so that
// repeated runs do not grow memory: the IR right after bufferization and the
// ownership-based deallocation. Each graph op and each graph.fused is a
// kernel function; the model allocates the buffers passed between kernels.
// (plan-buffers=false: the buffers as deallocation leaves them, before
// graph-plan-buffers places them in an arena; plan-buffers.mlir.)

// Inside a fused kernel, the tile buffers of static size are allocated once,
// before the tile loop, and freed after it; the padded input tile, which an
// scf.if yields (zeros where the tile lies wholly in the padding; the input
// rows, transposed straight into the interior of a zero-filled buffer,
// elsewhere), is allocated and freed once per tile.
// CHECK-LABEL: func.func private @fused_kernel0_conv2d_relu
// CHECK-SAME: %{{.*}}: memref<1x4x8x6xf32>) attributes
// CHECK: %[[W:.*]] = memref.alloc() {{.*}} : memref<3x3x2x4xf32>
// CHECK: %[[CONV:.*]] = memref.alloc() {{.*}} : memref<1x4x6x4xf32>
// CHECK: %[[NCHW:.*]] = memref.alloc() {{.*}} : memref<1x4x4x6xf32>
// CHECK: scf.for
// CHECK:   %[[IN:.*]] = scf.if
// CHECK:     %[[ZEROS:.*]] = memref.alloc() {{.*}} : memref<1x6x8x2xf32>
// CHECK:     %[[CAST0:.*]] = memref.cast %[[ZEROS]]
// CHECK:     scf.yield %[[CAST0]]
// CHECK:   } else {
// CHECK:     %[[PADDED:.*]] = memref.alloc() {{.*}} : memref<1x6x8x2xf32>
// CHECK:     %[[CAST1:.*]] = memref.cast %[[PADDED]]
// CHECK:     scf.yield %[[CAST1]]
// CHECK:   %[[BASE:[^,]*]], %{{.*}} = memref.extract_strided_metadata %[[IN]]
// CHECK:   memref.dealloc %[[BASE]]
// CHECK: }
// CHECK-DAG: memref.dealloc %[[W]]
// CHECK-DAG: memref.dealloc %[[CONV]]
// CHECK-DAG: memref.dealloc %[[NCHW]]
// CHECK-NEXT: return
func.func @fused(%x: tensor<1x2x8x6xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x8x6xf32> {
  %0 = graph.fused "conv2d_relu" (%x, %w) : (tensor<1x2x8x6xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x8x6xf32> {
  ^bb0(%a0: tensor<1x2x8x6xf32>, %a1: tensor<4x2x3x3xf32>):
    %1 = graph.conv2d %a0, %a1 {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x8x6xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x8x6xf32>
    %2 = graph.relu %1 : tensor<1x4x8x6xf32>
    graph.yield %2 : tensor<1x4x8x6xf32>
  }
  return %0 : tensor<1x4x8x6xf32>
}

// Unfused, every intermediate is a whole buffer, freed before returning:
// inside the convolution's kernel (padded input, NHWC result, weights) and
// between the two kernels.
// CHECK-LABEL: func.func private @unfused_kernel0_conv2d
// CHECK-DAG: %[[A1:.*]] = memref.alloc() {{.*}} : memref<1x10x8x2xf32>
// CHECK-DAG: %[[A2:.*]] = memref.alloc() {{.*}} : memref<1x8x6x4xf32>
// CHECK-DAG: %[[A3:.*]] = memref.alloc() {{.*}} : memref<3x3x2x4xf32>
// CHECK-NOT: memref.alloc
// CHECK-DAG: memref.dealloc %[[A1]]
// CHECK-DAG: memref.dealloc %[[A2]]
// CHECK-DAG: memref.dealloc %[[A3]]
// CHECK-NEXT: return
// CHECK-LABEL: func.func @unfused(
// CHECK-SAME: %[[OUT:[^:]*]]: memref<1x4x8x6xf32>) {
// CHECK-NEXT: %[[A4:.*]] = memref.alloc() : memref<1x4x8x6xf32>
// CHECK-NEXT: call @unfused_kernel0_conv2d(%{{.*}}, %{{.*}}, %[[A4]])
// CHECK-NEXT: call @unfused_kernel1_relu(%[[A4]], %[[OUT]])
// CHECK-NEXT: memref.dealloc %[[A4]]
// CHECK-NEXT: return
func.func @unfused(%x: tensor<1x2x8x6xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x8x6xf32> {
  %1 = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x8x6xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x8x6xf32>
  %2 = graph.relu %1 : tensor<1x4x8x6xf32>
  return %2 : tensor<1x4x8x6xf32>
}

// Results are written into the caller's buffers: a matmul and an add_tanh
// group (one kernel each) giving two results write straight into the
// out-parameters and need no buffer of their own.
// CHECK-LABEL: func.func @in_place
// CHECK-SAME: %[[OUT0:[^:]*]]: memref<6x7xf32>, %[[OUT1:[^:]*]]: memref<6x7xf32>) {
// CHECK-NEXT: call @in_place_kernel0_matmul(%{{.*}}, %{{.*}}, %[[OUT1]])
// CHECK-NEXT: call @in_place_kernel1_add_tanh(%[[OUT1]], %{{.*}}, %[[OUT0]])
// CHECK-NEXT: return
func.func @in_place(%a: tensor<6x5xf32>, %b: tensor<5x7xf32>, %c: tensor<7xf32>) -> (tensor<6x7xf32>, tensor<6x7xf32>) {
  %0 = graph.matmul %a, %b : (tensor<6x5xf32>, tensor<5x7xf32>) -> tensor<6x7xf32>
  %2 = graph.fused "add_tanh"(%0, %c) : (tensor<6x7xf32>, tensor<7xf32>) -> tensor<6x7xf32> {
  ^bb0(%m: tensor<6x7xf32>, %bias: tensor<7xf32>):
    %1 = graph.add %m, %bias : (tensor<6x7xf32>, tensor<7xf32>) -> tensor<6x7xf32>
    %t = graph.tanh %1 : tensor<6x7xf32>
    graph.yield %t : tensor<6x7xf32>
  }
  return %2, %0 : tensor<6x7xf32>, tensor<6x7xf32>
}

// The caller allocates the results and frees them after their last use.
// CHECK-LABEL: func.func @caller
// CHECK: %[[R0:.*]] = memref.alloc() : memref<6x7xf32>
// CHECK: %[[R1:.*]] = memref.alloc() : memref<6x7xf32>
// CHECK: call @in_place(%{{.*}}, %{{.*}}, %{{.*}}, %[[R0]], %[[R1]])
// CHECK-DAG: memref.dealloc %[[R0]]
// CHECK-DAG: memref.dealloc %[[R1]]
// CHECK: return
func.func @caller(%a: tensor<6x5xf32>, %b: tensor<5x7xf32>, %c: tensor<7xf32>) -> tensor<6x7xf32> {
  %0:2 = call @in_place(%a, %b, %c) : (tensor<6x5xf32>, tensor<5x7xf32>, tensor<7xf32>) -> (tensor<6x7xf32>, tensor<6x7xf32>)
  %1 = graph.add %0#0, %0#1 : (tensor<6x7xf32>, tensor<6x7xf32>) -> tensor<6x7xf32>
  return %1 : tensor<6x7xf32>
}

// Two identical products are one kernel, called twice. A buffer returned
// more than once is copied into each further out-parameter.
// CHECK-LABEL: func.func @same_result_twice
// CHECK-SAME: %[[OUT0:[^:]*]]: memref<45xf32>, %[[OUT1:[^:]*]]: memref<45xf32>, %[[OUT2:[^:]*]]: memref<45xf32>) {
// CHECK-NOT: memref.alloc
// CHECK: call @same_result_twice_kernel0_mul(%{{.*}}, %{{.*}}, %[[OUT0]])
// CHECK-NEXT: call @same_result_twice_kernel0_mul(%{{.*}}, %{{.*}}, %[[OUT1]])
// CHECK-NEXT: memref.copy %[[OUT0]], %[[OUT2]]
// CHECK-NEXT: return
func.func @same_result_twice(%x: tensor<45xf32>, %y: tensor<45xf32>) -> (tensor<45xf32>, tensor<45xf32>, tensor<45xf32>) {
  %0 = graph.mul %x, %y : (tensor<45xf32>, tensor<45xf32>) -> tensor<45xf32>
  %1 = graph.mul %x, %y : (tensor<45xf32>, tensor<45xf32>) -> tensor<45xf32>
  return %0, %1, %0 : tensor<45xf32>, tensor<45xf32>, tensor<45xf32>
}
