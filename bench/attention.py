#!/usr/bin/python3
"""Fused attention against the unfused ops it replaces, side by side.

For each sequence length (default 128, 197, 512, 1024), 12 heads of 64,
with a causal mask of -inf (and, with --no-mask, without), writes the
attention as PyTorch exports it (batch_matmul of Q and K^T, div by 8, add of
the mask, softmax, batch_matmul by V) and optimizes it twice with graph-opt:
graph-fold-constants, graph-fuse and graph-eliminate-dead-code, once as is
(one graph.attention) and once with graph-fuse's `attention=false` (the ops
fuse as any others: the products, one div+add group, the softmax). Both run
under graph-run -O0 (no further graph passes; the lowering is the same)
with --bench N at the given thread counts, on the same random inputs; each
output is checked against NumPy (float64) within a relative 1e-5.

Prints per shape and thread count the median latencies, unfused / fused,
and the fused kernel's GFLOP/s (4 * heads * S * S * d flops, masked ones
included). Run on an idle machine; the figures vary by 10-20% between runs
on a shared one.

The mask is a constant of the model, as exported models hold it (a causal
mask is a buffer of the module): the fused kernel then skips the blocks of
keys it hides from a block of queries, about half of them. With
--mask-input it is an input instead, whose values the compiler does not
know: every block is visited.

--target-cpu NAME (graph-run's) times the code for another x86 level that
this host runs: x86-64-v3 gives the AVX2 code on an AVX-512 host.

Usage: bench/attention.py [--seq 128,197,512,1024] [--heads 12] [--dim 64]
                          [--threads 1,2] [--runs 10] [--no-mask]
                          [--mask-input] [--target-cpu NAME] [--build DIR]
                          [--work DIR]
"""
import argparse
import os
import re
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def model(heads, seq, dim, masked, constant_mask):
    shape = lambda *d: "tensor<%sxf32>" % "x".join(str(x) for x in d)
    q, kt, s = shape(1, heads, seq, dim), shape(1, heads, dim, seq), \
        shape(1, heads, seq, seq)
    args = "%%q: %s, %%k: %s, %%v: %s" % (q, kt, q)
    lines = ["  %%c = graph.constant dense<%s> : tensor<f32>" % float(dim) ** 0.5,
             "  %%s = graph.batch_matmul %%q, %%k : (%s, %s) -> %s" % (q, kt, s),
             "  %%d = graph.div %%s, %%c : (%s, tensor<f32>) -> %s" % (s, s)]
    x = "%d"
    if masked and constant_mask:
        mask = np.triu(np.full((seq, seq), -np.inf, np.float32), 1)
        lines.append('  %%m = graph.constant dense<"0x%s"> : %s'
                     % (mask.tobytes().hex().upper(), shape(seq, seq)))
    elif masked:
        args += ", %%m: %s" % shape(seq, seq)
    if masked:
        lines.append("  %%a = graph.add %%d, %%m : (%s, %s) -> %s"
                     % (s, shape(seq, seq), s))
        x = "%a"
    lines += ["  %%p = graph.softmax %s {axis = 3} : %s" % (x, s),
              "  %%o = graph.batch_matmul %%p, %%v : (%s, %s) -> %s" % (s, q, q),
              "  return %o : " + q]
    return "func.func @main(%s) -> %s {\n%s\n}\n" % (args, q, "\n".join(lines))


def reference(q, kt, v, mask, dim):
    s = np.matmul(q.astype(np.float64), kt.astype(np.float64))
    s = s / np.float64(np.float32(dim ** 0.5))
    if mask is not None:
        s = s + mask
    e = np.exp(s - s.max(-1, keepdims=True))
    return np.matmul(e / e.sum(-1, keepdims=True), v.astype(np.float64))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seq", default="128,197,512,1024")
    ap.add_argument("--heads", type=int, default=12)
    ap.add_argument("--dim", type=int, default=64)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--no-mask", action="store_true")
    ap.add_argument("--mask-input", action="store_true")
    ap.add_argument("--target-cpu", default="")
    ap.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    ap.add_argument("--work", default="/tmp/graph-attention-bench")
    args = ap.parse_args()
    bindir = os.path.join(args.build, "bin")
    os.makedirs(args.work, exist_ok=True)
    rng = np.random.RandomState(0)
    masked = not args.no_mask
    target = ["--target-cpu=" + args.target_cpu] if args.target_cpu else []
    print("attention, %d heads of %d, %s; graph-run -O0 %s--bench %d (median ms)"
          % (args.heads, args.dim,
             ("causal mask (%s)" % ("an input" if args.mask_input
                                    else "a constant")) if masked
             else "no mask", "".join(t + " " for t in target), args.runs))
    print("%6s %7s %10s %10s %9s %9s"
          % ("seq", "threads", "unfused", "fused", "ratio", "GFLOP/s"))
    failures = 0
    for seq in [int(s) for s in args.seq.split(",")]:
        base = os.path.join(args.work, "s%d" % seq)
        with open(base + ".mlir", "w") as f:
            f.write(model(args.heads, seq, args.dim, masked,
                          not args.mask_input))
        q = rng.uniform(-1, 1, (1, args.heads, seq, args.dim)).astype(np.float32)
        kt = rng.uniform(-1, 1, (1, args.heads, args.dim, seq)).astype(np.float32)
        v = rng.uniform(-1, 1, (1, args.heads, seq, args.dim)).astype(np.float32)
        inputs = [q, kt, v]
        mask = None
        if masked:
            mask = np.triu(np.full((seq, seq), -np.inf, np.float32), 1)
            if args.mask_input:
                inputs.append(mask)
        paths = []
        for i, x in enumerate(inputs):
            paths.append("%s.in%d.npy" % (base, i))
            np.save(paths[-1], x)
        want = reference(q, kt, v, mask, args.dim)
        for variant, fuse in (("unfused", "attention=false"),
                              ("fused", "attention=true")):
            subprocess.run([os.path.join(bindir, "graph-opt"), base + ".mlir",
                            "--graph-fold-constants", "--graph-fuse=" + fuse,
                            "--graph-eliminate-dead-code",
                            "-o", "%s.%s.mlir" % (base, variant)], check=True)
        for threads in [int(t) for t in args.threads.split(",")]:
            medians = {}
            for variant in ("unfused", "fused"):
                out = "%s.%s.out.npy" % (base, variant)
                run = subprocess.run(
                    [os.path.join(bindir, "graph-run"), "-O0", "--no-cache",
                     "--threads", str(threads), "--bench", str(args.runs)]
                    + target + ["%s.%s.mlir" % (base, variant)] + paths
                    + ["--output", out],
                    check=True, capture_output=True, text=True)
                medians[variant] = float(re.search(
                    r"median ([0-9.]+) ms", run.stdout + run.stderr).group(1))
                got = np.load(out).astype(np.float64)
                err = np.abs(got - want).max() / np.abs(want).max()
                if not err <= 1e-5:
                    print("FAIL %s seq %d: relative error %.3g"
                          % (variant, seq, err))
                    failures += 1
            flops = 4.0 * args.heads * seq * seq * args.dim
            print("%6d %7d %10.3f %10.3f %9.2f %9.1f"
                  % (seq, threads, medians["unfused"], medians["fused"],
                     medians["unfused"] / medians["fused"],
                     flops / medians["fused"] / 1e6))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
