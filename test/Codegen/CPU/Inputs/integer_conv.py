#!/usr/bin/python3
"""graph.conv_integer on graph-lower-integer-matmul's kernels against NumPy.

integer_conv.py GRAPH_RUN DIR

Each case is a function of one graph.conv_integer by constant filters,
written as MLIR and run by graph-run with random 8-bit inputs: at this
machine's CPU (vpdpbusd with AVX-512 VNNI), at haswell (AVX2 pmaddwd), on a
VNNI host also without VNNI, and at x86-64-v2, which has no integer dot
product: the generic lowering (in NHWC, the NCHW convolution between
transposes). Every result must equal NumPy's exact int64 convolution.
Prints `ok NAME VARIANT` or `FAIL ...`.
"""
import os
import subprocess
import sys

import numpy as np

rng = np.random.default_rng(11)

# name, layout, input dtype, N, C, H, W, F, KH, KW, strides, padding
# [top, left, bottom, right], dilations, per-filter zero points
CASES = [
    ("nhwc_3x3_pad", "NHWC", np.uint8, 1, 8, 9, 7, 33, 3, 3, (1, 1),
     (1, 1, 1, 1), (1, 1), False),
    ("nhwc_stride_dilation", "NHWC", np.int8, 2, 5, 7, 6, 9, 2, 2, (2, 1),
     (1, 0, 0, 1), (1, 2), True),
    ("nhwc_1x1", "NHWC", np.uint8, 1, 20, 4, 5, 70, 1, 1, (1, 1),
     (0, 0, 0, 0), (1, 1), False),
    ("nchw_single", "NCHW", np.uint8, 1, 3, 11, 10, 16, 3, 3, (2, 2),
     (1, 2, 0, 1), (1, 1), True),
    # Few channels: a tap per kernel row (its KW x C elements read as words).
    ("nhwc_image_7x7", "NHWC", np.uint8, 1, 3, 19, 21, 40, 7, 7, (2, 2),
     (3, 3, 3, 3), (1, 1), False),
    ("nhwc_rows_signed", "NHWC", np.int8, 2, 5, 6, 7, 20, 3, 3, (1, 2),
     (0, 1, 2, 0), (2, 1), True),
]
VARIANTS = [("native", []), ("haswell", ["--target-cpu=haswell"]),
            ("generic", ["--target-cpu=x86-64-v2"])]
if " avx512_vnni" in open("/proc/cpuinfo").read():
    VARIANTS.append(("no-vnni", ["--target-features=-avx512vnni"]))


def mlir_type(shape, dtype):
    element = {np.uint8: "ui8", np.int8: "i8", np.int32: "i32"}[dtype]
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), element)


def dense(array):
    return "dense<%s>" % np.array2string(
        array, separator=", ", threshold=sys.maxsize).replace("\n", "")


def reference(x, xz, w, wz, strides, pads, dilations):
    """NCHW by FCHW, exact, padding with the zero point (adds nothing)."""
    x = x.astype(np.int64) - int(xz)
    w = w.astype(np.int64) - wz.astype(np.int64).reshape(-1, 1, 1, 1)
    x = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    n, _, h, wd = x.shape
    f, _, kh, kw = w.shape
    oh = (h - dilations[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (wd - dilations[1] * (kw - 1) - 1) // strides[1] + 1
    out = np.zeros((n, f, oh, ow), np.int64)
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i * dilations[0]:
                      i * dilations[0] + strides[0] * (oh - 1) + 1:strides[0],
                      j * dilations[1]:
                      j * dilations[1] + strides[1] * (ow - 1) + 1:strides[1]]
            out += np.einsum("nchw,fc->nfhw", patch, w[:, :, i, j])
    return out.astype(np.int32)


def main():
    graph_run, directory = sys.argv[1], sys.argv[2]
    failed = 0
    for (name, layout, dtype, n, c, h, wd, f, kh, kw, strides, pads,
         dilations, per_filter) in CASES:
        info = np.iinfo(dtype)
        x = rng.integers(info.min, int(info.max) + 1, (n, c, h, wd)).astype(dtype)
        xz = dtype(rng.integers(info.min, int(info.max) + 1))
        w = rng.integers(-127, 128, (f, c, kh, kw)).astype(np.int8)
        wz = (rng.integers(-1, 2, f) if per_filter else np.zeros(f)).astype(np.int8)
        want = reference(x, xz, w, wz, strides, pads, dilations)
        if layout == "NHWC":
            x_in, w_in = x.transpose(0, 2, 3, 1), w.transpose(2, 3, 1, 0)
            wz_in = wz.reshape(1, 1, 1, f)
            want = want.transpose(0, 2, 3, 1)
        else:
            x_in, w_in, wz_in = x, w, wz.reshape(f, 1, 1, 1)
        x_in = np.ascontiguousarray(x_in)
        x_type = mlir_type(x_in.shape, dtype)
        w_type = mlir_type(w_in.shape, np.int8)
        z_type = mlir_type((), dtype)
        wz_type = mlir_type(wz_in.shape, np.int8)
        y_type = mlir_type(want.shape, np.int32)
        layout_attr = ", layout = #graph<layout NHWC>" if layout == "NHWC" else ""
        attrs = ("{dilations = array<i64: %d, %d>%s, padding = array<i64: "
                 "%d, %d, %d, %d>, strides = array<i64: %d, %d>}" %
                 (*dilations, layout_attr, *pads, *strides))
        source = "\n".join([
            "func.func @main(%%x: %s) -> %s {" % (x_type, y_type),
            "  %%xz = graph.constant dense<%d> : %s" % (int(xz), z_type),
            "  %%w = graph.constant %s : %s" % (dense(w_in), w_type),
            "  %%wz = graph.constant %s : %s" % (dense(wz_in), wz_type),
            "  %%y = graph.conv_integer %%x, %%w, %%xz, %%wz %s : (%s, %s, %s, %s) -> %s"
            % (attrs, x_type, w_type, z_type, wz_type, y_type),
            "  return %%y : %s" % y_type,
            "}", ""])
        path = os.path.join(directory, name + ".mlir")
        with open(path, "w") as f_:
            f_.write(source)
        np.save(os.path.join(directory, name + ".x.npy"), x_in)
        for variant, options in VARIANTS:
            out = os.path.join(directory, "%s.%s.npy" % (name, variant))
            run = subprocess.run(
                [graph_run, path, "-O3", os.path.join(directory, name + ".x.npy"),
                 "--output", out] + options, capture_output=True, text=True)
            if run.returncode != 0:
                print("FAIL %s %s: %s" % (name, variant, run.stderr.strip()))
                failed = 1
                continue
            got = np.load(out)
            if got.dtype != want.dtype or not np.array_equal(got, want):
                print("FAIL %s %s: differs from NumPy" % (name, variant))
                failed = 1
            else:
                print("ok %s %s" % (name, variant))
    return failed


if __name__ == "__main__":
    sys.exit(main())
