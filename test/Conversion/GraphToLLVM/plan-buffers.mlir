// RUN: graph-opt %s --split-input-file --allow-unregistered-dialect --graph-plan-buffers | FileCheck %s
// RUN: graph-opt %s --split-input-file --allow-unregistered-dialect --graph-plan-buffers="max-global-bytes=128" \
// RUN: | FileCheck %s --check-prefix=LARGE

// A kernel's scratch becomes a view of its workspace, a new last argument;
// each call passes a workspace that lives for the call. The model's
// intermediates and the calls' workspaces share one arena by liveness: %c
// is allocated after the last use of %a, so it takes %a's bytes (offset 64),
// and the 32-byte workspaces (64 with alignment) all take offset 0.
// CHECK: module attributes {graph.arena_bytes = 192 : i64}
// CHECK-LABEL: func.func private @kernel
// CHECK-SAME: %[[WS:[^:]*]]: memref<64xi8>)
// CHECK-NOT: memref.alloc
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: memref.view %[[WS]][%[[C0]]][] : memref<64xi8> to memref<8xf32>
// CHECK-NOT: memref.dealloc
// CHECK: return
// CHECK: memref.global "private" @graph_arena_main : memref<192xi8> = uninitialized {alignment = 64 : i64}
// CHECK: memref.global "private" @graph_arena_busy_main : memref<i32> = dense<0>
// CHECK-LABEL: func.func @main
// A run takes the global arena, or allocates its own when a concurrent run
// holds it.
// CHECK: %[[FLAG:.*]] = memref.get_global @graph_arena_busy_main
// CHECK: %[[PREV:.*]] = memref.atomic_rmw assign %{{.*}}, %[[FLAG]][]
// CHECK: %[[GOT:.*]] = arith.cmpi eq, %[[PREV]]
// CHECK: %[[ARENA:.*]] = scf.if %[[GOT]] -> (memref<192xi8>) {
// CHECK:   memref.get_global @graph_arena_main
// CHECK: } else {
// CHECK:   memref.alloc() {alignment = 64 : i64} : memref<192xi8>
// CHECK: }
// CHECK: %[[A:.*]] = memref.view %[[ARENA]][%c64{{.*}}][] : memref<192xi8> to memref<4xf32>
// CHECK: %[[W1:.*]] = memref.view %[[ARENA]][%c0{{.*}}][] : memref<192xi8> to memref<64xi8>
// CHECK: call @kernel(%arg0, %[[A]], %[[W1]])
// CHECK: %[[B:.*]] = memref.view %[[ARENA]][%c128{{.*}}][] : memref<192xi8> to memref<4xf32>
// CHECK: call @kernel(%[[A]], %[[B]], %{{.*}})
// CHECK: %[[C:.*]] = memref.view %[[ARENA]][%c64{{.*}}][] : memref<192xi8> to memref<4xf32>
// CHECK: call @kernel(%[[B]], %[[C]], %{{.*}})
// CHECK: call @kernel(%[[C]], %arg1, %{{.*}})
// CHECK-NOT: memref.dealloc %{{.*}} : memref<4xf32>
// CHECK: scf.if %[[GOT]] {
// CHECK:   memref.atomic_rmw assign %{{.*}}, %[[FLAG]][]
// CHECK: } else {
// CHECK:   memref.dealloc %[[ARENA]] : memref<192xi8>
// CHECK: }
// CHECK-NEXT: return

// An arena above max-global-bytes is allocated by each run, without a
// global or a flag.
// LARGE: module {
// LARGE-NOT: memref.global
// LARGE-LABEL: func.func @main
// LARGE-NEXT: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<192xi8>
// LARGE-NOT: memref.atomic_rmw
// LARGE: memref.dealloc %[[ARENA]] : memref<192xi8>
// LARGE-NEXT: return
func.func private @kernel(%in: memref<4xf32>, %out: memref<4xf32>) attributes {graph.kernel = "relu", no_inline} {
  %pad = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
  %sub = memref.subview %pad[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  memref.copy %in, %sub : memref<4xf32> to memref<4xf32, strided<[1], offset: 2>>
  memref.copy %sub, %out : memref<4xf32, strided<[1], offset: 2>> to memref<4xf32>
  memref.dealloc %pad : memref<8xf32>
  return
}
func.func @main(%x: memref<4xf32>, %y: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  call @kernel(%x, %a) : (memref<4xf32>, memref<4xf32>) -> ()
  %b = memref.alloc() : memref<4xf32>
  call @kernel(%a, %b) : (memref<4xf32>, memref<4xf32>) -> ()
  %c = memref.alloc() : memref<4xf32>
  call @kernel(%b, %c) : (memref<4xf32>, memref<4xf32>) -> ()
  call @kernel(%c, %y) : (memref<4xf32>, memref<4xf32>) -> ()
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  memref.dealloc %c : memref<4xf32>
  return
}

// -----

// Left to malloc: a buffer in a loop, one of dynamic size, one passed to a
// function that is not a kernel (it might keep the address), one freed
// only on some path, one whose pointer is read; and a kernel also named
// by something other than a call keeps its signature.
// CHECK-LABEL: func.func private @kernel_taken
// CHECK-SAME: (%{{[^:]*}}: memref<4xf32>)
// CHECK: memref.alloc() : memref<16xf32>
// CHECK-LABEL: func.func @unplannable
// CHECK-NOT: memref.global
// CHECK-NOT: memref.view
// CHECK-COUNT-5: memref.alloc
// CHECK-NOT: memref.view
// CHECK: return
func.func private @opaque(memref<4xf32>)
func.func private @kernel_taken(%out: memref<4xf32>) attributes {graph.kernel = "k", no_inline} {
  %scratch = memref.alloc() : memref<16xf32>
  "test.use"(%scratch) : (memref<16xf32>) -> ()
  memref.dealloc %scratch : memref<16xf32>
  return
}
func.func @unplannable(%n: index, %cond: i1, %y: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %in_loop = memref.alloc() : memref<4xf32>
    func.call @kernel_taken(%in_loop) : (memref<4xf32>) -> ()
    memref.dealloc %in_loop : memref<4xf32>
  }
  %dynamic = memref.alloc(%n) : memref<?xf32>
  "test.use"(%dynamic) : (memref<?xf32>) -> ()
  memref.dealloc %dynamic : memref<?xf32>
  %escapes = memref.alloc() : memref<4xf32>
  func.call @opaque(%escapes) : (memref<4xf32>) -> ()
  memref.dealloc %escapes : memref<4xf32>
  %conditional = memref.alloc() : memref<4xf32>
  func.call @kernel_taken(%conditional) : (memref<4xf32>) -> ()
  scf.if %cond {
    memref.dealloc %conditional : memref<4xf32>
  }
  %pointer = memref.alloc() : memref<4xf32>
  %p = memref.extract_aligned_pointer_as_index %pointer : memref<4xf32> -> index
  "test.use"(%p) : (index) -> ()
  memref.dealloc %pointer : memref<4xf32>
  %f = "test.symbol_user"() {callee = @kernel_taken} : () -> index
  return
}
