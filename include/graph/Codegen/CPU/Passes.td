//===- Passes.td - Code generation for CPUs ----------------*- tablegen -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// From linalg on tensors to LLVM for a CPU: the single-kernel lowering of
// graph.fused and graph.attention, the tiling and vectorization of the
// compute-heavy ops, kernels outlined, merged and instrumented, buffers
// planned, and the graph-lower-to-llvm pipeline that strings them together
// with bufferization. The target's facts come from graph/Target/CPU.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_CODEGEN_CPU_PASSES_TD
#define GRAPH_CODEGEN_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def GraphOutlineKernels : Pass<"graph-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Make each graph op and each graph.fused a kernel function "
                "of its own";
  let description = [{
    The first step of `graph-lower-to-llvm`. In every function with a body,
    each top-level graph compute op, and each `graph.fused`, moves into a
    private `func.func` (a kernel) that the function calls: its operands
    become the kernel's arguments, the constants it reads are cloned into the
    kernel. Kernels with the same body (op for op, attributes and constants
    included) are one function called from each place.

    A kernel is the unit of everything after: it is lowered, optimized and
    compiled on its own (LLVM's loop passes and code generation scale with
    the size of a function, and functions compile in parallel), it is what
    the profiler times, and it is what `-O0` runs one per graph op. Kernels
    are marked `no_inline` so that LLVM keeps them apart.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def GraphInstrumentKernels
    : Pass<"graph-instrument-kernels", "::mlir::ModuleOp"> {
  let summary = "Time each kernel call: wrap it in calls to the runtime's "
                "profiler";
  let description = [{
    Runs after `graph-outline-kernels`, when `graph-lower-to-llvm` is given
    `profile=true` (`graph-run --profile`). Every call to a kernel (a
    function marked `graph.kernel`) gets a number, its call site's, and is
    wrapped in `func.call @graph_profile_enter(%id)` and
    `func.call @graph_profile_exit(%id)`, external functions that the
    runtime (lib/Runtime/Profiler.cpp) defines. The module gets the table
    of call sites in the attribute `graph.profile`, one dictionary per
    number: `name` (the call's location: its ONNX node names, else
    file:line, else the kernel's name), `kernel` (the function), `kind`,
    `flops` (of its convolutions and matrix products, from the static
    shapes: 2*N*F*OH*OW*C/groups*KH*KW, 2*M*N*K) and `bytes` (the sizes of
    the kernel's operands and results). Without this pass, no profiling
    code is generated.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
  ];
}

def GraphLowerAttention : Pass<"graph-lower-attention"> {
  let summary = "Lower each graph.attention to one loop nest that never holds "
                "the scores in memory";
  let description = [{
    Runs after `convert-graph-to-linalg`, which leaves `graph.attention` as
    it is. Each one becomes an `scf.forall` over the flattened batch and
    blocks of query rows, whose body walks the keys one vector at a time
    with an online softmax (FlashAttention): the running maximum, sum and
    the rows' accumulators stay in vector registers, sized from the
    target's lanes and register file.
  }];
  let options = [
    Option<"targetCpu", "target-cpu", "std::string", /*default=*/"\"\"",
           "The LLVM CPU to generate for (default: this machine's)">,
    Option<"targetFeatures", "target-features", "std::string",
           /*default=*/"\"\"",
           "Target features to add or remove, e.g. +avx2,-avx512f">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def GraphLowerIntegerMatmul
    : Pass<"graph-lower-integer-matmul", "::mlir::ModuleOp"> {
  let summary = "Lower graph.matmul_integer and graph.conv_integer by "
                "constant int8 weights to a micro-kernel on the target's "
                "integer dot product, the weights packed at compile time";
  let description = [{
    Runs before `convert-graph-to-linalg`. Each `graph.matmul_integer` whose
    `b` is a constant matrix (no batch) and whose `a` has one zero point
    becomes an `scf.forall` over blocks of rows of `a` (its batch
    flattened). The weights, centered on their zero point, are packed at
    compile time into words of the instruction's rows of one column, a
    vector of columns at a time, with their column sums; `a`'s rows are
    packed into words once per run; each block keeps i32 accumulators in
    registers across K, and the zero points come in as `- a_zero_point *
    column sums`. The instruction: AVX-512 VNNI's `vpdpbusd` (four u8 x s8
    products per i32 lane: signed activations are offset by 128, and the
    centered weights must fit in i8), else `pmaddwd` on AVX-512 or AVX2 (two
    i16 x i16 products per lane, added). Both are called through their
    intrinsic's declaration, which the pass adds to the module. The sums are
    exact, as the op's. Other targets and other matmul_integer ops keep the
    generic lowering.

    A 2-D `graph.conv_integer` of one group by constant filters (either
    layout; NCHW is transposed to NHWC and back) runs on the same kernel as
    an implicit GEMM: its rows are the output pixels, its K the channels of
    each kernel tap. The filters are packed as a K x F matrix at compile
    time; the input is padded once per run with its zero point (so that
    padding adds nothing) and its channels to whole words, and each row
    reads its words in place, a loop over the taps around a loop over a
    tap's words.
  }];
  let options = [
    Option<"targetCpu", "target-cpu", "std::string", /*default=*/"\"\"",
           "The LLVM CPU to generate for (default: this machine's)">,
    Option<"targetFeatures", "target-features", "std::string",
           /*default=*/"\"\"",
           "Target features to add or remove, e.g. +avx2,-avx512f">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def GraphLowerFused : Pass<"graph-lower-fused"> {
  let summary = "Make each graph.fused one kernel: tile its result and fuse "
                "its producers into the tile loops, then inline it";
  let description = [{
    Runs after `convert-graph-to-linalg`. In each `graph.fused` body, the op
    that produces the yielded value is tiled and every producer inside the
    body is fused into the tile loops, so that the group's intermediates only
    ever exist as tiles. The body is then inlined in place of the op. The
    tile size follows the target's L2 cache.
  }];
  let options = [
    Option<"targetCpu", "target-cpu", "std::string", /*default=*/"\"\"",
           "The LLVM CPU to tile for (default: this machine's)">,
    Option<"targetFeatures", "target-features", "std::string",
           /*default=*/"\"\"",
           "Target features to add or remove, e.g. +avx2,-avx512f">,
  ];
  let dependentDialects = [
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::affine::AffineDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def GraphVectorize : Pass<"graph-vectorize"> {
  let summary = "Tile and vectorize convolutions, matmuls and elementwise ops "
                "for the host CPU";
  let description = [{
    Tiles the compute-heavy linalg ops to register-sized tiles and vectorizes
    them, on tensors, before bufferization. `linalg.conv_2d_nhwc_hwcf`: output
    tiles [1, 1, OW-tile, F-tile] with KH and KW tiled to 1 and C tiled,
    decomposed into 1-D convolutions and vectorized, so that the contraction
    over C becomes broadcast-FMAs into OW-tile x F-tile accumulators held in
    registers across the reduction loops. Depthwise convolutions likewise with
    channel tiles, `linalg.matmul` with M x N x K tiles and the same
    micro-kernel, elementwise ops with one vector per innermost row, and
    `tensor.pad` as a filled buffer the padded value is written into. Tile
    sizes divide the dimensions, so every tile has a static shape.

    A contraction by packed weights takes what initializes its accumulators
    (a fill, a bias's broadcast) and the elementwise ops that consume its
    result (a group's epilogue) into its register tiles (`fuse-epilogues`):
    the tile goes from the bias through the FMAs to the epilogue in
    registers and is written once.

    Every size comes from the target description (`CPUTarget`): the f32
    lanes of a vector, the number of vector registers that accumulators,
    weight rows and broadcasts must share, the transpose block. The target is
    this machine unless `target-cpu` / `target-features` name another.
  }];
  let options = [
    Option<"targetCpu", "target-cpu", "std::string", /*default=*/"\"\"",
           "The LLVM CPU to tile for (default: this machine's)">,
    Option<"targetFeatures", "target-features", "std::string",
           /*default=*/"\"\"",
           "Target features to add or remove, e.g. +avx2,-avx512f">,
    Option<"fuseEpilogues", "fuse-epilogues", "bool", /*default=*/"true",
           "Fuse the initializer and the elementwise consumers of each "
           "contraction by packed weights into its register tiles">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def GraphFullRankTensorWrites : Pass<"graph-full-rank-tensor-writes"> {
  let summary = "Write vectors into tensors with the identity map and as many "
                "dimensions as the tensor, before bufferization";
  let description = [{
    Rewrites every unmasked `vector.transfer_write` into a tensor whose
    permutation map is not the identity (fewer vector dimensions than tensor
    dimensions, or permuted ones) into an equivalent write of a full-rank
    vector with the identity map: the vector is transposed into the tensor's
    dimension order and unit dimensions are inserted where the tensor has
    dimensions that the write does not span.

    Why: one-shot bufferization asks each write whether it also reads its
    destination, and a write at offset zero that covers the whole tensor
    does not. In LLVM 22 that check pairs the vector's dimensions with the
    tensor's *leading* ones, so a `vector<2xf32>` written at `[0, 0]` into a
    `tensor<2x4xf32>` counts as covering it. When such a write then goes out
    of place (its destination has another use, as when CSE merged the zero
    fills of two padded convolutions), the new buffer gets no copy of the
    destination: everything around the written vector is garbage. With the
    identity map the check compares matching dimensions and is exact.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect"];
}

def GraphPadInProducer : Pass<"graph-pad-in-producer"> {
  let summary = "Let the kernel producing a convolution's or a max "
                "pooling's input write it padded";
  let description = [{
    Runs on graph-optimize's output, before graph-outline-kernels. An NHWC
    `graph.conv2d` (zero padding) or `graph.max_pool2d` (-inf) that pads its
    input, the only reader of it (of its group's block argument, for a conv
    inside a `graph.fused`), where that input is the single result of
    another `graph.fused` and used nowhere else, takes the input already
    padded: the producer's body ends in a `graph.pad` of what it yielded (by
    a rank-0 constant for -inf), its result type is the padded one, and the
    reader's padding becomes zero. Each kernel is a function of its own, so
    an op padding its input copies it whole into a padded buffer;
    graph-lower-fused makes the producer's tile loops write the interior of
    its padded result instead, its border alone filled. NCHW ops (which
    transpose their input inside the kernel) and results with other users
    are left as they are.
  }];
  let dependentDialects = ["::mlir::graph::GraphDialect"];
}

def GraphMergeKernels : Pass<"graph-merge-kernels", "::mlir::ModuleOp"> {
  let summary = "Compile kernels that differ only in their weights once";
  let description = [{
    Runs on linalg on tensors, after the conversion to linalg and the
    lowering of graph.fused, when every weight transpose or reshape has
    been folded into a constant. Kernel functions (`graph.kernel`, private,
    called only by `func.call`) whose bodies are identical but for the
    values of their constant tensors (not splats; of at least
    `min-constant-bytes`, by default any) become one: those constants, in the entry block,
    become new trailing arguments of the first kernel, and every call of
    each kernel of the class calls the first with its own constants. A
    model that repeats a layer shape with different weights (the blocks of
    a stage of MobileNetV2 or ResNet) then compiles that layer once. A
    kernel with no twin keeps its constants.
  }];
  let options = [
    Option<"minConstantBytes", "min-constant-bytes", "int64_t",
           /*default=*/"0",
           "Constants of fewer bytes stay in the kernel body (and a kernel "
           "that differs in one stays apart)">,
  ];
}

def GraphPlanBuffers : Pass<"graph-plan-buffers", "::mlir::ModuleOp"> {
  let summary = "Place the buffers of static size in one arena, planned by "
                "liveness, allocated once per loaded model";
  let description = [{
    Runs after bufferization, deallocation and the conversion of parallel
    loops to OpenMP. First, in every function, the buffers of static size
    that an `omp.parallel` region allocates and frees inside it (the
    per-tile buffers of a fused group's parallel tile loop) become slots of
    one scratch buffer allocated in the function's body: a slot per thread,
    which the thread takes once on entry to the region
    (`omp_get_thread_num`) and reuses for every iteration it runs, so that
    those buffers stay at one address in the core's cache instead of being
    allocated per tile. A region gets as many slots as threads can find
    work in it, at most `max-threads`, and its `num_threads` is capped at
    that number. The blocks of a region each get their own part of the
    slot, planned by liveness within the block.

    Then, in every kernel function
    (`graph.kernel`, private, called only by `func.call`), the buffers of
    static size allocated in the function's body (outside loops) become views
    into a new last argument, the kernel's workspace, and each call passes a
    buffer that lives for the call. Then in every public function the same
    kind of buffer (intermediates between kernels and the calls'
    workspaces) becomes a view into one arena, each at an offset chosen
    greedily by size so that buffers alive at different times share bytes.

    Up to `max-global-bytes`, the arena is a private global of the module
    (`graph_arena_<function>`),
    so it is allocated once per loaded model and its pages are reused by
    every run. A flag (`graph_arena_busy_<function>`), exchanged atomically
    on entry and cleared on return, keeps the code reentrant: a run that finds
    the arena taken allocates an arena of its own for that call. A larger
    arena is allocated by each run: a global that large might not be mapped
    when the code is loaded, where no error could be reported. The module
    gets `graph.arena_bytes`, the bytes of its global arenas.

    A buffer stays a `memref.alloc` when it is inside a sequential loop
    outside any parallel region, in a nested parallel region, of dynamic
    size, deallocated conditionally, or when its address may leave through
    anything but a kernel call (a return, a yield, another call, a pointer
    extraction).
  }];
  let options = [
    Option<"maxGlobalBytes", "max-global-bytes", "int64_t",
           /*default=*/"int64_t(1) << 28",
           "The largest arena kept as a global (256 MiB); a larger one is "
           "allocated by each run">,
    Option<"maxThreads", "max-threads", "int64_t",
           /*default=*/"::mlir::graph::kDefaultMaxThreads",
           "The most threads a parallel region with per-thread scratch runs "
           "on: the slots it gets">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

#endif // GRAPH_CODEGEN_CPU_PASSES_TD
