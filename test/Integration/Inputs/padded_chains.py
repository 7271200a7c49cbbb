"""Chains of convolutions whose padding the lowering moves into the kernel
that produces the padded input (graph-pad-in-producer, on graph-optimize's
NHWC groups at -O3), against NumPy.

usage:
  padded_chains.py --graph-run PATH --graph-opt PATH --work DIR [--sample N]

Each case is an NCHW model of two or three convolutions with constant
weights (np.random.RandomState(0)), the first fused with its epilogue and
read by the next, padded, convolution. Checks:
  - graph-pad-in-producer after graph-optimize at -O3 gives the producing
    group a padded result (a graph.pad ending its body) exactly where that
    group's result has no other user, and after -O0 moves nothing;
  - graph-run's outputs at -O3 for every x86 level this machine runs, and
    at -O0 for the host's, agree with NumPy (float64) within a relative
    1e-5 of the output's largest value;
  - the same bits at 1, 2, 3 and 4 threads (-O3, host level).
Prints one line per check and exits 1 if any fails.
"""

import argparse
import os
import sys

import numpy as np

from packed_common import (Checks, hex_dense, host_levels, run,
                           sampled_levels, ttype)
from packed_convs import conv2d

# A layer: (filters, kernel, stride, pad [t, l, b, r], groups ("dw": one per
# channel; "maxpool": a max pooling, not a conv), epilogue "relu", "relu6",
# "clip3" (clip to [-3, 3]) or ""). A case: (name, input NCHW shape,
# layers, residual, moved): with `residual` the model's input is added to
# the last layer's result (and relu follows); `moved` is how many producing
# groups take their consumer's padding.
CASES = [
    # MobileNetV2's inverted residual: expand, depthwise, project, add.
    ("inverted_residual", (1, 16, 20, 20),
     [(48, 1, 1, [0, 0, 0, 0], 1, "relu6"),
      (48, 3, 1, [1, 1, 1, 1], "dw", "relu6"),
      (16, 1, 1, [0, 0, 0, 0], 1, "")], True, 1),
    # Its strided form, on an odd map, with 5x5 windows.
    ("inverted_residual_s2", (1, 24, 15, 15),
     [(72, 1, 1, [0, 0, 0, 0], 1, "relu6"),
      (72, 5, 2, [2, 2, 2, 2], "dw", "relu6"),
      (40, 1, 1, [0, 0, 0, 0], 1, "")], False, 1),
    # ResNet's basic block: 3x3, relu, 3x3, add, relu.
    ("basic_block", (1, 32, 14, 14),
     [(32, 3, 1, [1, 1, 1, 1], 1, "relu"),
      (32, 3, 1, [1, 1, 1, 1], 1, "")], True, 1),
    # ResNet's stem: conv, an epilogue that keeps negative values, a padded
    # 3x3 stride-2 max pooling (its border -inf, which never wins), then a
    # conv on the pooled map (read by nothing else here).
    ("stem_max_pool", (1, 3, 22, 22),
     [(24, 3, 2, [1, 1, 1, 1], 1, "clip3"),
      (24, 3, 2, [1, 1, 1, 1], "maxpool", ""),
      (20, 3, 1, [1, 1, 1, 1], 1, "relu")], False, 1),
    # Asymmetric padding, channels no vector divides, three in a row.
    ("asymmetric", (1, 5, 9, 11),
     [(20, 3, 1, [1, 0, 2, 1], 1, "relu"),
      (12, 3, 2, [0, 1, 1, 2], 1, "relu6"),
      (12, 3, 1, [2, 2, 0, 1], "dw", "relu")], False, 2),
]


def max_pool(x, k, stride, pad):
    """NCHW max pooling in float64, -inf padding."""
    n, c, h, w = x.shape
    xp = np.full((n, c, h + pad[0] + pad[2], w + pad[1] + pad[3]), -np.inf)
    xp[:, :, pad[0]:pad[0] + h, pad[1]:pad[1] + w] = x
    oh = (xp.shape[2] - k) // stride + 1
    ow = (xp.shape[3] - k) // stride + 1
    out = np.full((n, c, oh, ow), -np.inf)
    for i in range(k):
        for j in range(k):
            out = np.maximum(out, xp[:, :, i:i + stride * oh:stride,
                                     j:j + stride * ow:stride])
    return out


def write_case(work, case, rng):
    """Writes NAME.mlir and its input; returns (input paths, expected)."""
    name, shape, layers, residual, _ = case
    x = rng.standard_normal(shape).astype(np.float32)
    y = x.astype(np.float64)
    body, last, last_shape = [], "%x", shape
    for i, (f, k, stride, pad, groups, epilogue) in enumerate(layers):
        c = last_shape[1]
        if groups == "maxpool":
            y = max_pool(y, k, stride, pad)
            body.append(
                "  %%pool%d = graph.max_pool2d %s {kernel = array<i64: %d, %d>, "
                "strides = array<i64: %d, %d>, padding = array<i64: %s>} : (%s) -> %s"
                % (i, last, k, k, stride, stride, ", ".join(map(str, pad)),
                   ttype(last_shape), ttype(y.shape)))
            last, last_shape = "%%pool%d" % i, y.shape
            continue
        groups = c if groups == "dw" else groups
        weight = rng.standard_normal((f, c // groups, k, k)).astype(np.float32)
        weight *= np.float32(1.0 / np.sqrt(c // groups * k * k))
        bias = rng.standard_normal(f).astype(np.float32)
        y = conv2d(y, weight.astype(np.float64), bias.astype(np.float64),
                   stride, pad, 1, groups)
        body += [
            "  %%w%d = graph.constant dense<%s> : %s"
            % (i, hex_dense(weight), ttype(weight.shape)),
            "  %%b%d = graph.constant dense<%s> : %s" % (i, hex_dense(bias), ttype((f,))),
            "  %%conv%d = graph.conv2d %s, %%w%d, %%b%d {strides = array<i64: %d, %d>, "
            "padding = array<i64: %s>, groups = %d : i64} : (%s, %s, %s) -> %s"
            % (i, last, i, i, stride, stride, ", ".join(map(str, pad)), groups,
               ttype(last_shape), ttype(weight.shape), ttype((f,)), ttype(y.shape)),
        ]
        last, last_shape = "%%conv%d" % i, y.shape
        if epilogue == "relu":
            body.append("  %%act%d = graph.relu %s : %s" % (i, last, ttype(y.shape)))
            y = np.maximum(y, 0)
        elif epilogue == "clip3":
            body.append("  %%act%d = graph.clip %s {min = -3.0 : f32, max = 3.0 : f32}"
                        " : %s" % (i, last, ttype(y.shape)))
            y = np.clip(y, -3, 3)
        elif epilogue == "relu6":
            body.append("  %%act%d = graph.clip %s {min = 0.0 : f32, max = 6.0 : f32}"
                        " : %s" % (i, last, ttype(y.shape)))
            y = np.clip(y, 0, 6)
        if epilogue:
            last = "%%act%d" % i
    if residual:
        body.append("  %%sum = graph.add %s, %%x : (%s, %s) -> %s"
                    % (last, ttype(y.shape), ttype(shape), ttype(y.shape)))
        body.append("  %%out = graph.relu %%sum : %s" % ttype(y.shape))
        last = "%out"
        y = np.maximum(y + x, 0)
    text = "func.func @main(%%x: %s) -> %s {\n%s\n  return %s : %s\n}\n" % (
        ttype(shape), ttype(y.shape), "\n".join(body), last, ttype(y.shape))
    with open(os.path.join(work, name + ".mlir"), "w") as f_out:
        f_out.write(text)
    path = os.path.join(work, name + ".x.npy")
    np.save(path, x)
    return ["--input=arg0=%s" % path], y


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--graph-run", required=True)
    parser.add_argument("--graph-opt", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--sample", type=int, default=1,
                        help="run the levels below the host's for one case "
                             "in N (default: every case)")
    args = parser.parse_args()
    levels = host_levels()
    rng = np.random.RandomState(0)
    checks = Checks()
    for index, case in enumerate(CASES):
        name, moved = case[0], case[4]
        inputs, expected = write_case(args.work, case, rng)
        model = os.path.join(args.work, name + ".mlir")
        o0 = run([args.graph_opt, "--graph-optimize=opt-level=0",
                  "--graph-pad-in-producer", model])
        checks.report("graph.pad" not in o0, "%s: -O0 moves no padding" % name)
        o3 = run([args.graph_opt, "--graph-optimize", "--graph-pad-in-producer",
                  model])
        count = o3.count("graph.pad ")
        checks.report(count == moved, "%s: %d padded producer(s), %d expected"
                      % (name, count, moved))
        for cpu in sampled_levels(levels, index, args.sample):
            for level in ("-O0", "-O3") if cpu == levels[-1] else ("-O3",):
                checks.against_reference(args.graph_run, args.work, name, model,
                                         inputs, expected, cpu, level)
        checks.same_bits_at_thread_counts(args.graph_run, args.work, name,
                                          model, inputs)
    return checks.finish()

if __name__ == "__main__":
    sys.exit(main())
