// RUN: graph-opt %s --split-input-file --allow-unregistered-dialect --graph-plan-buffers | FileCheck %s
// RUN: graph-opt %s --split-input-file --allow-unregistered-dialect --graph-plan-buffers="max-global-bytes=128" \
// RUN: | FileCheck %s --check-prefix=LARGE
// RUN: graph-opt %s --split-input-file --allow-unregistered-dialect --graph-plan-buffers="max-threads=2" \
// RUN: | FileCheck %s --check-prefix=TWO
// RUN: not graph-opt %s --split-input-file --allow-unregistered-dialect --graph-plan-buffers="max-threads=0" 2>&1 \
// RUN: | FileCheck %s --check-prefix=ZERO
// ZERO: graph-plan-buffers: max-threads must be at least 1, got 0

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

// -----

// In a parallel region, a buffer allocated and freed by each iteration
// becomes a slot of one scratch buffer, a slot per thread: the thread takes
// its slot on entry to the region, and the team is capped at the slots (the
// 16 iterations could keep 16 threads busy: max-threads, 8 by default, or
// 2). The scratch is then a buffer of the kernel like any other: a view of
// its workspace.
// CHECK-LABEL: func.func private @tiles
// CHECK-SAME: %[[WS:[^:]*]]: memref<512xi8>)
// CHECK: %[[SCRATCH:.*]] = memref.view %[[WS]][%{{.*}}][] : memref<512xi8> to memref<512xi8>
// CHECK: %[[MAX:.*]] = call @omp_get_max_threads() : () -> i32
// CHECK: %[[LIMIT:.*]] = arith.constant 8 : i32
// CHECK: %[[N:.*]] = arith.minsi %[[MAX]], %[[LIMIT]] : i32
// CHECK: omp.parallel num_threads(%[[N]] : i32) {
// CHECK-NEXT: %[[T:.*]] = func.call @omp_get_thread_num() : () -> i32
// CHECK-NEXT: %[[TI:.*]] = arith.index_cast %[[T]] : i32 to index
// CHECK-NEXT: %[[STRIDE:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[SLOT:.*]] = arith.muli %[[TI]], %[[STRIDE]] : index
// CHECK-NOT: memref.alloc
// CHECK: omp.loop_nest
// CHECK: %[[OFF:.*]] = arith.addi %[[SLOT]], %{{.*}} : index
// CHECK-NEXT: %[[TILE:.*]] = memref.view %[[SCRATCH]][%[[OFF]]][] : memref<512xi8> to memref<4xf32>
// CHECK-NEXT: "test.fill"(%[[TILE]])
// CHECK-NOT: memref.dealloc
// CHECK: omp.yield
// TWO-LABEL: func.func private @tiles
// TWO-SAME: memref<128xi8>)
// TWO: arith.constant 2 : i32
// TWO: omp.parallel num_threads
func.func private @tiles(%out: memref<16x4xf32>) attributes {graph.kernel = "tiles", no_inline} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        %tile = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
        "test.fill"(%tile) : (memref<4xf32>) -> ()
        %row = memref.subview %out[%i, 0] [1, 4] [1, 1] : memref<16x4xf32> to memref<4xf32, strided<[1], offset: ?>>
        memref.copy %tile, %row : memref<4xf32> to memref<4xf32, strided<[1], offset: ?>>
        memref.dealloc %tile : memref<4xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
func.func @tiles_main(%y: memref<16x4xf32>) {
  call @tiles(%y) : (memref<16x4xf32>) -> ()
  return
}

// -----

// A tile at the edge of the input: an scf.if yields one of two buffers
// (all padding, or padding around a part of dynamic size), and the result's
// base buffer is freed. The two share one place, of the larger size; the
// part gets the most its size can be (4: an affine.min over the loop's
// iterations). Three iterations: teams of at most three threads.
// CHECK-LABEL: func.func private @edges
// CHECK-NOT: memref.alloc
// CHECK: arith.constant 3 : i32
// CHECK: omp.parallel num_threads
// CHECK-NOT: memref.alloc
// CHECK: scf.if
// CHECK: memref.view %{{.*}}[%{{.*}}][] : memref<{{[0-9]+}}xi8> to memref<4xf32>
// CHECK: } else {
// CHECK: %[[PART:.*]] = memref.view %{{.*}}[%{{.*}}][%{{.*}}] : memref<{{[0-9]+}}xi8> to memref<?xf32>
// CHECK: memref.view %{{.*}}[%{{.*}}][] : memref<{{[0-9]+}}xi8> to memref<4xf32>
// CHECK-NOT: memref.dealloc
// CHECK: omp.yield
func.func private @edges(%in: memref<10xf32>, %out: memref<12xf32>) attributes {graph.kernel = "edges", no_inline} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c12) step (%c4) {
        %n = affine.min affine_map<(d0) -> (4, -d0 + 10)>(%i)
        %m = affine.max affine_map<(d0) -> (0, d0)>(%n)
        %empty = arith.cmpi eq, %m, %c0 : index
        %tile = scf.if %empty -> (memref<4xf32, strided<[?], offset: ?>>) {
          %zeros = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
          "test.fill"(%zeros) : (memref<4xf32>) -> ()
          %cast = memref.cast %zeros : memref<4xf32> to memref<4xf32, strided<[?], offset: ?>>
          scf.yield %cast : memref<4xf32, strided<[?], offset: ?>>
        } else {
          %part = memref.alloc(%m) {alignment = 64 : i64} : memref<?xf32>
          "test.fill"(%part) : (memref<?xf32>) -> ()
          %padded = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
          "test.copy"(%part, %padded) : (memref<?xf32>, memref<4xf32>) -> ()
          memref.dealloc %part : memref<?xf32>
          %cast = memref.cast %padded : memref<4xf32> to memref<4xf32, strided<[?], offset: ?>>
          scf.yield %cast : memref<4xf32, strided<[?], offset: ?>>
        }
        %window = memref.subview %out[%i] [4] [1] : memref<12xf32> to memref<4xf32, strided<[1], offset: ?>>
        memref.copy %tile, %window : memref<4xf32, strided<[?], offset: ?>> to memref<4xf32, strided<[1], offset: ?>>
        %base, %offset, %size, %stride = memref.extract_strided_metadata %tile : memref<4xf32, strided<[?], offset: ?>> -> memref<f32>, index, index, index
        memref.dealloc %base : memref<f32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
func.func @edges_main(%x: memref<10xf32>, %y: memref<12xf32>) {
  call @edges(%x, %y) : (memref<10xf32>, memref<12xf32>) -> ()
  return
}

// -----

// Left to malloc: buffers in a parallel region nested in another (its
// thread numbers do not name the outer team's threads), of a size without
// a bound, or that an iteration keeps (yielded out of the loop).
// CHECK-LABEL: func.func @unplannable_parallel
// CHECK-NOT: omp_get_thread_num
// CHECK-COUNT-2: memref.alloc
// CHECK-NOT: omp_get_thread_num
// CHECK: return
func.func @unplannable_parallel(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  omp.parallel {
    omp.parallel {
      %inner = memref.alloc() : memref<4xf32>
      "test.use"(%inner) : (memref<4xf32>) -> ()
      memref.dealloc %inner : memref<4xf32>
      omp.terminator
    }
    omp.terminator
  }
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c4) step (%c1) {
        %unbounded = memref.alloc(%n) : memref<?xf32>
        "test.use"(%unbounded) : (memref<?xf32>) -> ()
        memref.dealloc %unbounded : memref<?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
