"""Matrix products by constant weights, which graph-optimize packs into the
micro-kernels' panels (graph-pack-weights), against NumPy.

usage:
  packed_weights.py --graph-run PATH --graph-opt PATH --work DIR

For each case below, writes a model whose weights are graph.constant values
(np.random.RandomState(0)) and random inputs, then checks:
  - graph-optimize packs every weight of the case (`packed_b` in its output)
    for every instruction-set level this machine can run, and -O0 packs none;
  - graph-run's outputs at -O0 and -O3, for each of those levels, agree with
    NumPy (float64) within a relative 1e-5 of the output's largest value;
  - the same bits at 1, 2, 3 and 4 threads (-O3, host level).
Prints one line per check and exits 1 if any fails.
"""

import argparse
import os
import sys

import numpy as np

from packed_common import Checks, hex_dense, host_levels, run, ttype

# (name, M, K, N, how): how the weight is used.
#   matmul       graph.matmul a x W
#   gemm_t       graph.gemm a, W^T (trans_b, as nn.Linear), + c[N], relu
#   gemm_ab      graph.gemm a^T (trans_a) x W, alpha 0.5, beta 2, c[M, N]
#   matmul_add   graph.matmul a x W, + bias[N] input, sigmoid
#   batch        graph.batch_matmul [3, M, K] x W (a transformer's linear
#                layer): one product over the 3 * M rows
CASES = [
    ("gemv_classifier", 1, 160, 1000, "gemm_t"),   # N no multiple of 16
    ("gemv_parallel", 1, 1024, 640, "matmul"),     # 2^19 MACs: parallel
    ("gemm_odd", 33, 65, 17, "matmul"),            # no vector divides N
    ("gemm_rows", 12, 32, 48, "matmul_add"),       # fused epilogue, input
    ("gemm_tall", 197, 64, 96, "gemm_t"),          # M prime, parallel
    ("gemm_trans_a", 6, 64, 32, "gemm_ab"),
    ("batch_rows", 7, 48, 40, "batch"),            # [3, 7, 48] x [48, 40]
]

def write_case(work, name, m, k, n, how, rng):
    """Writes NAME.mlir and its inputs; returns (input paths, expected)."""
    w_shape = (n, k) if how == "gemm_t" else (k, n)
    w = rng.standard_normal(w_shape).astype(np.float32)
    a_shape = {"gemm_ab": (k, m), "batch": (3, m, k)}.get(how, (m, k))
    y_shape = (3, m, n) if how == "batch" else (m, n)
    a = rng.standard_normal(a_shape).astype(np.float32)
    inputs = {"a": a}
    args = ["%%a: %s" % ttype(a_shape)]
    body = ["  %%w = graph.constant dense<%s> : %s" % (hex_dense(w), ttype(w_shape))]
    a64, w64 = a.astype(np.float64), w.astype(np.float64)
    if how == "matmul":
        body.append("  %%y = graph.matmul %%a, %%w : (%s, %s) -> %s"
                    % (ttype(a_shape), ttype(w_shape), ttype((m, n))))
        expected = a64 @ w64
    elif how == "batch":
        body.append("  %%y = graph.batch_matmul %%a, %%w : (%s, %s) -> %s"
                    % (ttype(a_shape), ttype(w_shape), ttype(y_shape)))
        expected = a64 @ w64
    elif how == "gemm_t":
        c = rng.standard_normal(n).astype(np.float32)
        body.append("  %%c = graph.constant dense<%s> : %s" % (hex_dense(c), ttype((n,))))
        body.append("  %%g = graph.gemm %%a, %%w, %%c {trans_b} : (%s, %s, %s) -> %s"
                    % (ttype(a_shape), ttype(w_shape), ttype((n,)), ttype((m, n))))
        body.append("  %%y = graph.relu %%g : %s" % ttype((m, n)))
        expected = np.maximum(a64 @ w64.T + c, 0)
    elif how == "gemm_ab":
        c = rng.standard_normal((m, n)).astype(np.float32)
        inputs["c"] = c
        args.append("%%c: %s" % ttype((m, n)))
        body.append("  %%y = graph.gemm %%a, %%w, %%c {alpha = 0.5 : f32, beta = 2.0 : f32, trans_a}"
                    " : (%s, %s, %s) -> %s"
                    % (ttype(a_shape), ttype(w_shape), ttype((m, n)), ttype((m, n))))
        expected = 0.5 * (a64.T @ w64) + 2.0 * c
    elif how == "matmul_add":
        bias = rng.standard_normal(n).astype(np.float32)
        inputs["bias"] = bias
        args.append("%%bias: %s" % ttype((n,)))
        body.append("  %%p = graph.matmul %%a, %%w : (%s, %s) -> %s"
                    % (ttype(a_shape), ttype(w_shape), ttype((m, n))))
        body.append("  %%q = graph.add %%p, %%bias : (%s, %s) -> %s"
                    % (ttype((m, n)), ttype((n,)), ttype((m, n))))
        body.append("  %%y = graph.sigmoid %%q : %s" % ttype((m, n)))
        expected = 1 / (1 + np.exp(-(a64 @ w64 + bias)))
    else:
        raise ValueError(how)
    text = "func.func @main(%s) -> %s {\n%s\n  return %%y : %s\n}\n" % (
        ", ".join(args), ttype(y_shape), "\n".join(body), ttype(y_shape))
    with open(os.path.join(work, name + ".mlir"), "w") as f:
        f.write(text)
    paths = []
    # A .mlir model's inputs are named arg0, arg1, ... in order.
    for i, (arg, value) in enumerate(inputs.items()):
        path = os.path.join(work, "%s.%s.npy" % (name, arg))
        np.save(path, value)
        paths.append("--input=arg%d=%s" % (i, path))
    return paths, expected


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--graph-run", required=True)
    parser.add_argument("--graph-opt", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    levels = host_levels()
    rng = np.random.RandomState(0)
    checks = Checks()
    for name, m, k, n, how in CASES:
        inputs, expected = write_case(args.work, name, m, k, n, how, rng)
        model = os.path.join(args.work, name + ".mlir")
        o0 = run([args.graph_opt, "--graph-optimize=opt-level=0", model])
        checks.report("packed_b" not in o0, "%s: -O0 packs nothing" % name)
        for cpu in levels:
            optimized = run([args.graph_opt,
                             "--graph-optimize=target-cpu=%s" % cpu, model])
            checks.report("packed_b" in optimized,
                          "%s: packed for %s" % (name, cpu))
            for level in ("-O0", "-O3"):
                checks.against_reference(args.graph_run, args.work, name, model,
                                         inputs, expected, cpu, level)
        checks.same_bits_at_thread_counts(args.graph_run, args.work, name,
                                          model, inputs)
    return checks.finish()

if __name__ == "__main__":
    sys.exit(main())
