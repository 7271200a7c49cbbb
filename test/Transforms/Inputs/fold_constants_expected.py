#!/usr/bin/python3
"""Independent NumPy reference for the CHECK lines of fold-constants*.mlir.

Not run by lit: run it by hand (`/usr/bin/python3 fold_constants_expected.py`)
to recompute the expected constants. Every computation is in float32, with
NumPy's own conv/pool loops written out from the ONNX definitions.
"""

import numpy as np

f32 = np.float32


def fmt(v):
    """A float as MLIR prints it: %e with 6 digits if that is exact."""
    v = f32(v)
    if np.isnan(v):
        return "0x7FC00000"
    short = "%.6e" % v
    if float(short) == float(v):
        return short
    return "%.9g" % v


def show(name, a):
    a = np.asarray(a, dtype=f32)
    print("%s %s: [%s]" % (name, "x".join(map(str, a.shape)),
                           ", ".join(fmt(v) for v in a.ravel())))


def conv2d(x, w, b, strides, pads, dilations, groups):
    n, c, h, wd = x.shape
    f, cg, kh, kw = w.shape
    top, left, bottom, right = pads
    xp = np.zeros((n, c, h + top + bottom, wd + left + right), f32)
    xp[:, :, top:top + h, left:left + wd] = x
    dh, dw = dilations
    sh, sw = strides
    oh = (h + top + bottom - dh * (kh - 1) - 1) // sh + 1
    ow = (wd + left + right - dw * (kw - 1) - 1) // sw + 1
    fg = f // groups
    out = np.zeros((n, f, oh, ow), f32)
    for ni in range(n):
        for fi in range(f):
            g = fi // fg
            for i in range(oh):
                for j in range(ow):
                    win = xp[ni, g * cg:(g + 1) * cg,
                             i * sh:i * sh + dh * (kh - 1) + 1:dh,
                             j * sw:j * sw + dw * (kw - 1) + 1:dw]
                    out[ni, fi, i, j] = np.sum(win * w[fi], dtype=f32)
            if b is not None:
                out[ni, fi] += b[fi]
    return out


def pool(x, k, strides, pads, mode, count_include_pad=False):
    n, c, h, w = x.shape
    top, left, bottom, right = pads
    oh = (h + top + bottom - k[0]) // strides[0] + 1
    ow = (w + left + right - k[1]) // strides[1] + 1
    out = np.zeros((n, c, oh, ow), f32)
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * strides[0] - top, j * strides[1] - left
            rs = slice(max(r0, 0), min(r0 + k[0], h))
            cs = slice(max(c0, 0), min(c0 + k[1], w))
            win = x[:, :, rs, cs]
            if mode == "max":
                out[:, :, i, j] = win.max(axis=(2, 3))
            else:
                cnt = k[0] * k[1] if count_include_pad else \
                    win.shape[2] * win.shape[3]
                out[:, :, i, j] = win.sum(axis=(2, 3), dtype=f32) / f32(cnt)
    return out


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True, dtype=f32)


ar = lambda *s: np.arange(1, np.prod(s) + 1, dtype=f32).reshape(s)

# fold-constants.mlir
c1, c2 = f32(2), f32(3)
show("chain", np.maximum(c1 * np.array([3, -4], f32) + c2, f32(0)))
show("splat_chain", [np.tanh(f32(2) * f32(3) - f32(6.5))])
show("fused", np.maximum(ar(2, 2) @ np.array([[1, -1], [0, 2]], f32), 0))

# fold-constants-ops.mlir
x = ar(1, 1, 4, 4)
w = np.array([[[[1, 0, -1], [2, 1, 0], [0, 1, 1]]]], f32)
show("conv_pad_stride", conv2d(x, w, np.array([0.5], f32), (2, 2),
                               (1, 1, 1, 1), (1, 1), 1))
show("conv_asym_dilated", conv2d(x, np.array([[[[1, -1], [2, 1]]]], f32),
                                 None, (1, 1), (0, 1, 1, 0), (2, 2), 1))
show("conv_grouped", conv2d(ar(1, 4, 2, 2),
                            np.array([1, 2, 3, -1], f32).reshape(2, 2, 1, 1),
                            np.array([10, 20], f32), (1, 1), (0, 0, 0, 0),
                            (1, 1), 2))
xb = np.array([1, 3, 5, 7, 2, 6, 10, -2], f32).reshape(1, 2, 2, 2)
sc, bi = np.array([2, 0.5], f32), np.array([1, -1], f32)
me, va = np.array([1, 2], f32), np.array([3, 15], f32)
bn = (xb - me[None, :, None, None]) / np.sqrt(va + f32(1))[None, :, None, None]
show("batch_norm", bn * sc[None, :, None, None] + bi[None, :, None, None])
show("batch_norm_splat",
     [(f32(5) - f32(1)) / np.sqrt(f32(3) + f32(1)) * f32(3) + f32(0.5)])
a = np.array([[1, 2, 3], [4, 5, 6]], f32)            # stored K x M (trans_a)
b = np.array([[1, 0], [-1, 2], [0.5, 1], [2, -2]], f32)  # stored N x K
cc = np.array([1, 2, 3, 4], f32)
show("gemm", f32(2) * (a.T @ b.T) + f32(0.5) * cc)
show("matmul", np.array([[1, 2], [3, 4]], f32) @ np.array([[5, 6, 7], [8, 9, 10]], f32))
show("max_pool_neg", pool(-ar(1, 1, 3, 3), (2, 2), (2, 2), (1, 1, 1, 1), "max"))
show("avg_pool", pool(ar(1, 1, 4, 4), (2, 2), (2, 2), (1, 1, 1, 1), "avg"))
show("avg_pool_incl", pool(ar(1, 1, 4, 4), (2, 2), (2, 2), (1, 1, 1, 1), "avg",
                           True))
show("global_avg_pool", ar(1, 2, 2, 2).mean(axis=(2, 3), dtype=f32))
# exp-based results: computed in float64 and rounded once (NumPy's float32
# exp may be 1 ulp off); the CHECK lines match them to fewer digits.
f64 = np.float64
show("softmax", softmax(np.array([[1, 2, 3], [0, 0, 0]], f64), -1))
show("softmax_axis0", softmax(np.array([[1, 2], [1, 0]], f64), 0))
show("softmax_splat", softmax(np.full((2, 4), 7, f32), 1))
show("transpose", ar(2, 3).T)
show("transpose3", ar(2, 3, 2).transpose(2, 0, 1))
show("concat", np.concatenate([np.array([[1], [2]], f32),
                               np.array([[3, 4], [5, 6]], f32)], axis=1))
show("relu", np.where(np.isnan(v := np.array([-2, -0.0, 3, np.nan], f32)), v,
                      np.maximum(v, f32(0)) + f32(0)))
show("clip", np.minimum(np.maximum(np.array([-1, 0.5, 7, -0.0], f32), f32(0)) + f32(0), f32(6)))
show("sigmoid", 1 / (1 + np.exp(-np.array([0, 1, -1], f64))))
show("tanh", np.tanh(np.array([0, 0.5, -20], f64)))
show("sub_bcast", np.array([[1, 2], [3, 4]], f32) - np.array([10, 20], f32))
show("div_bcast", np.array([[1], [2]], f32) / np.array([4, -8], f32))
show("resource_add", np.array([1, 2, 3, 4], f32) + f32(0.5))
