"""Convolutions by constant weights, which graph-optimize packs into the
micro-kernel's panels at -O3 (graph-pack-weights: NHWC, one group), against
NumPy.

usage:
  packed_convs.py --graph-run PATH --graph-opt PATH --work DIR [--sample N]
                  [--cases NAME,...]

For each case below, writes an NCHW model (conv2d with constant weights and
bias, then its epilogue) whose weights come from np.random.RandomState(0),
and random inputs, then checks:
  - graph-optimize packs the convolution (`packed_weight` in its output) for
    every instruction-set level this machine can run when the case is one
    that packs (one group), and -O0 packs none;
  - graph-run's outputs at -O3 for each of those levels, and at -O0 for the
    host's, agree with NumPy (float64) within a relative 1e-5 of the
    output's largest value;
  - the same bits at 1, 2, 3 and 4 threads (-O3, host level), for the cases
    with 2^20 multiply-adds or more.
Prints one line per check and exits 1 if any fails.
"""

import argparse
import os
import sys

import numpy as np

from packed_common import (Checks, hex_dense, host_levels, run,
                           sampled_levels, ttype)

# (name, N, C, H, W, F, KH, KW, stride, pad [t, l, b, r], dilation, groups,
#  epilogue): epilogue is "relu", "bn_relu" (batch_norm then relu, which -O3
# folds into the weights), "add_relu" (a residual input added, then relu)
# or "" (none).
CASES = [
    ("c1x1", 1, 16, 8, 8, 32, 1, 1, 1, [0, 0, 0, 0], 1, 1, "relu"),
    ("c3x3", 1, 8, 10, 12, 16, 3, 3, 1, [1, 1, 1, 1], 1, 1, "bn_relu"),
    ("c3x3_s2", 1, 16, 15, 15, 32, 3, 3, 2, [1, 1, 1, 1], 1, 1, "bn_relu"),
    ("map7x7", 1, 64, 7, 7, 128, 3, 3, 1, [1, 1, 1, 1], 1, 1, "add_relu"),
    ("map14x14", 1, 32, 14, 14, 64, 3, 3, 1, [1, 1, 1, 1], 1, 1, "relu"),
    ("out1x1", 1, 32, 3, 3, 48, 3, 3, 1, [0, 0, 0, 0], 1, 1, "relu"),
    ("odd_channels", 1, 5, 9, 11, 20, 3, 3, 1, [1, 0, 2, 1], 1, 1, "bn_relu"),
    ("prime_filters", 1, 7, 6, 6, 13, 2, 2, 1, [0, 0, 0, 0], 1, 1, ""),
    ("stem7x7_s2", 1, 3, 32, 32, 64, 7, 7, 2, [3, 3, 3, 3], 1, 1, "bn_relu"),
    ("dilated", 1, 8, 12, 12, 16, 3, 3, 1, [2, 2, 2, 2], 2, 1, "relu"),
    ("batch2", 2, 8, 8, 8, 24, 3, 3, 1, [1, 1, 1, 1], 1, 1, "relu"),
    ("large_parallel", 1, 64, 28, 28, 128, 3, 3, 1, [1, 1, 1, 1], 1, 1, "bn_relu"),
    ("grouped", 1, 16, 8, 8, 32, 3, 3, 1, [1, 1, 1, 1], 1, 4, "relu"),
    ("depthwise_s2", 1, 32, 14, 14, 32, 3, 3, 2, [1, 1, 1, 1], 1, 32, "relu"),
    ("depthwise5x5", 1, 24, 10, 10, 24, 5, 5, 1, [2, 2, 2, 2], 1, 24, "relu"),
]

def conv2d(x, w, b, stride, pad, dilation, groups):
    """NCHW x FCHW convolution in float64, zero padding."""
    n, c, h, wd = x.shape
    f, cg, kh, kw = w.shape
    xp = np.zeros((n, c, h + pad[0] + pad[2], wd + pad[1] + pad[3]))
    xp[:, :, pad[0]:pad[0] + h, pad[1]:pad[1] + wd] = x
    oh = (xp.shape[2] - dilation * (kh - 1) - 1) // stride + 1
    ow = (xp.shape[3] - dilation * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, f, oh, ow))
    fg = f // groups
    for g in range(groups):
        for i in range(kh):
            for j in range(kw):
                window = xp[:, g * cg:(g + 1) * cg,
                            i * dilation:i * dilation + stride * (oh - 1) + 1:stride,
                            j * dilation:j * dilation + stride * (ow - 1) + 1:stride]
                out[:, g * fg:(g + 1) * fg] += np.einsum(
                    "nchw,fc->nfhw", window, w[g * fg:(g + 1) * fg, :, i, j])
    return out + b[None, :, None, None]


def write_case(work, case, rng):
    """Writes NAME.mlir and its inputs; returns (input paths, expected)."""
    (name, n, c, h, w, f, kh, kw, stride, pad, dilation, groups,
     epilogue) = case
    x = rng.standard_normal((n, c, h, w)).astype(np.float32)
    weight = rng.standard_normal((f, c // groups, kh, kw)).astype(np.float32)
    bias = rng.standard_normal(f).astype(np.float32)
    y = conv2d(x.astype(np.float64), weight.astype(np.float64),
               bias.astype(np.float64), stride, pad, dilation, groups)
    y_shape = y.shape
    inputs = {"x": x}
    args = ["%%x: %s" % ttype(x.shape)]
    body = [
        "  %%w = graph.constant dense<%s> : %s" % (hex_dense(weight), ttype(weight.shape)),
        "  %%b = graph.constant dense<%s> : %s" % (hex_dense(bias), ttype((f,))),
        "  %%conv = graph.conv2d %%x, %%w, %%b {strides = array<i64: %d, %d>, "
        "padding = array<i64: %s>, dilations = array<i64: %d, %d>, groups = %d : i64}"
        " : (%s, %s, %s) -> %s"
        % (stride, stride, ", ".join(map(str, pad)), dilation, dilation, groups,
           ttype(x.shape), ttype(weight.shape), ttype((f,)), ttype(y_shape)),
    ]
    last = "%conv"
    if epilogue == "bn_relu":
        params = [rng.standard_normal(f).astype(np.float32) for _ in range(3)]
        variance = rng.uniform(0.5, 2.0, f).astype(np.float32)
        scale, shift, mean = params
        for pname, value in zip(("scale", "shift", "mean", "var"),
                                (scale, shift, mean, variance)):
            body.append("  %%%s = graph.constant dense<%s> : %s"
                        % (pname, hex_dense(value), ttype((f,))))
        body.append("  %%bn = graph.batch_norm %%conv, %%scale, %%shift, %%mean, %%var"
                    " : (%s) -> %s" % (", ".join([ttype(y_shape)] + [ttype((f,))] * 4),
                                       ttype(y_shape)))
        last = "%bn"
        s = scale.astype(np.float64) / np.sqrt(variance.astype(np.float64) + 1e-5)
        y = (y - mean[None, :, None, None]) * s[None, :, None, None] \
            + shift[None, :, None, None]
    if epilogue == "add_relu":
        residual = rng.standard_normal(y_shape).astype(np.float32)
        inputs["residual"] = residual
        args.append("%%residual: %s" % ttype(y_shape))
        body.append("  %%sum = graph.add %s, %%residual : (%s, %s) -> %s"
                    % (last, ttype(y_shape), ttype(y_shape), ttype(y_shape)))
        last = "%sum"
        y = y + residual
    if epilogue in ("relu", "bn_relu", "add_relu"):
        body.append("  %%y = graph.relu %s : %s" % (last, ttype(y_shape)))
        last = "%y"
        y = np.maximum(y, 0)
    text = "func.func @main(%s) -> %s {\n%s\n  return %s : %s\n}\n" % (
        ", ".join(args), ttype(y_shape), "\n".join(body), last, ttype(y_shape))
    with open(os.path.join(work, name + ".mlir"), "w") as f_out:
        f_out.write(text)
    paths = []
    # A .mlir model's inputs are named arg0, arg1, ... in order.
    for i, (arg, value) in enumerate(inputs.items()):
        path = os.path.join(work, "%s.%s.npy" % (name, arg))
        np.save(path, value)
        paths.append("--input=arg%d=%s" % (i, path))
    return paths, y


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--graph-run", required=True)
    parser.add_argument("--graph-opt", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--sample", type=int, default=1,
                        help="run the levels below the host's for one case "
                             "in N (default: every case)")
    parser.add_argument("--cases", default="",
                        help="comma-separated case names (default: all)")
    args = parser.parse_args()
    levels = host_levels()
    rng = np.random.RandomState(0)
    checks = Checks()
    selected = set(filter(None, args.cases.split(",")))
    for index, case in enumerate(CASES):
        inputs, expected = write_case(args.work, case, rng)
        name, groups = case[0], case[11]
        if selected and name not in selected:
            continue
        model = os.path.join(args.work, name + ".mlir")
        o0 = run([args.graph_opt, "--graph-optimize=opt-level=0", model])
        checks.report("packed_weight" not in o0, "%s: -O0 packs nothing" % name)
        for cpu in sampled_levels(levels, index, args.sample):
            optimized = run([args.graph_opt,
                             "--graph-optimize=target-cpu=%s" % cpu, model])
            packed = "packed_weight" in optimized
            checks.report(packed == (groups == 1), "%s: %s for %s"
                          % (name, "packed" if packed else "not packed", cpu))
            # -O0 packs nothing: once, on the host's level (the last).
            for level in ("-O0", "-O3") if cpu == levels[-1] else ("-O3",):
                checks.against_reference(args.graph_run, args.work, name, model,
                                         inputs, expected, cpu, level)
        # The thread count matters where the work is split (parallel
        # kernels): the larger cases.
        if np.prod(expected.shape) * case[2] * case[6] * case[7] < (1 << 20):
            continue
        checks.same_bits_at_thread_counts(args.graph_run, args.work, name,
                                          model, inputs)
    return checks.finish()

if __name__ == "__main__":
    sys.exit(main())
