#!/usr/bin/python3
"""Quantized ONNX models against NumPy for quantized.test.

quantized_models.py write NAME OUT.onnx     writes one model
quantized_models.py check GRAPH_RUN DIR     runs every model through graph-run
                                            at -O0 and -O3 against NumPy

The references implement the ONNX operator definitions in NumPy: quantize
is saturate(rint(x / scale) + zero_point) (rint rounds half to even),
dequantize (x - zero_point) * scale in float32, the integer convolutions and
products exact in int64. A QLinear result is compared with the
definition's real-valued requantization, acc * (x_scale * w_scale /
y_scale): within one quantization step, and equal to the spec's two-step
form (dequantize with the product of the scales, then quantize) computed in
float32. The QDQ models (a float op between DequantizeLinear and
QuantizeLinear) are compared with their float path computed in float64.
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.dont_write_bytecode = True
from case_runner import close, exact, run_cases  # noqa: E402

ONNX_TYPE = {np.float32: TensorProto.FLOAT, np.int8: TensorProto.INT8,
             np.uint8: TensorProto.UINT8, np.int32: TensorProto.INT32}


def make(nodes, inputs, outputs, inits, opset=13):
    graph = helper.make_graph(
        nodes, "g",
        [helper.make_tensor_value_info(n, ONNX_TYPE[a.dtype.type], a.shape)
         for n, a in inputs],
        [helper.make_tensor_value_info(n, ONNX_TYPE[t], None)
         for n, t in outputs],
        [numpy_helper.from_array(a, n) for n, a in inits])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def quantize(x, scale, zero_point, dtype):
    info = np.iinfo(dtype)
    q = np.rint(x.astype(np.float32) / scale) + zero_point.astype(np.float32)
    return np.clip(q, info.min, info.max).astype(dtype)


def dequantize(q, scale, zero_point):
    return (q.astype(np.float32) - zero_point.astype(np.float32)) * scale


def conv_integer(x, w, groups, strides, pads, dilations):
    """N x C x H x W by F x C/g x KH x KW, int64, zero padding."""
    n, c, h, wd = x.shape
    f, cg, kh, kw = w.shape
    x = np.pad(x.astype(np.int64),
               ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    oh = (x.shape[2] - dilations[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (x.shape[3] - dilations[1] * (kw - 1) - 1) // strides[1] + 1
    out = np.zeros((n, f, oh, ow), np.int64)
    fg = f // groups
    for o in range(f):
        g = o // fg
        for i in range(kh):
            for j in range(kw):
                patch = x[:, g * cg:(g + 1) * cg,
                          i * dilations[0]:i * dilations[0] + strides[0] * (oh - 1) + 1:strides[0],
                          j * dilations[1]:j * dilations[1] + strides[1] * (ow - 1) + 1:strides[1]]
                out[:, o] += np.einsum("nchw,c->nhw", patch,
                                       w[o, :, i, j].astype(np.int64))
    return out


rng = np.random.default_rng(7)


def qdq_axis():
    """QuantizeLinear and DequantizeLinear per channel (axis 1 and -1), int8
    and uint8, with ties, saturation and infinities."""
    x = (rng.integers(-600, 600, (2, 3, 4, 5)) / 4).astype(np.float32)
    x[0, 0, 0, :4] = [np.inf, -np.inf, 2.5, -2.5]
    s1 = np.array([0.5, 1.0, 2.0], np.float32)
    z1 = np.array([0, -3, 5], np.int8)
    s2 = np.array([0.25, 1.5, 3.0, 0.75, 1.0], np.float32)
    z2 = np.array([128, 0, 255, 7, 100], np.uint8)
    q = np.array([[-128, 127, 0, 5], [1, 2, 3, -7]], np.int8)
    sq = np.array([0.1, 2.0], np.float32)
    zq = np.array([3, -2], np.int8)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "s1", "z1"], ["y1"], axis=1),
        helper.make_node("QuantizeLinear", ["x", "s2", "z2"], ["y2"], axis=-1),
        helper.make_node("DequantizeLinear", ["q", "sq", "zq"], ["d"], axis=0),
        helper.make_node("DequantizeLinear", ["y1", "s1", "z1"], ["r"], axis=1),
    ]
    refs = {
        "y1": quantize(x, s1.reshape(3, 1, 1), z1.reshape(3, 1, 1), np.int8),
        "y2": quantize(x, s2, z2, np.uint8),
        "d": dequantize(q, sq.reshape(2, 1), zq.reshape(2, 1)),
    }
    refs["r"] = dequantize(refs["y1"], s1.reshape(3, 1, 1), z1.reshape(3, 1, 1))
    m = make(nodes, [("x", x), ("q", q)],
             [("y1", np.int8), ("y2", np.uint8), ("d", np.float32),
              ("r", np.float32)],
             [("s1", s1), ("z1", z1), ("s2", s2), ("z2", z2), ("sq", sq),
              ("zq", zq)])
    return m, {"x": x, "q": q}, refs, {}


def qlinear_conv():
    """QLinearConv: uint8 activations with a zero point, int8 weights per
    output channel, groups, padding, strides, dilation and an int32 bias."""
    x = rng.integers(0, 256, (1, 4, 9, 8)).astype(np.uint8)
    w = rng.integers(-127, 128, (6, 2, 3, 3)).astype(np.int8)
    xs, xz = np.float32(0.02), np.uint8(131)
    ws = (rng.random(6) * 0.01 + 0.001).astype(np.float32)
    wz = np.zeros(6, np.int8)
    ys, yz = np.float32(0.05), np.uint8(120)
    b = rng.integers(-2000, 2000, 6).astype(np.int32)
    attrs = dict(group=2, pads=[1, 2, 0, 1], strides=[2, 1], dilations=[1, 2])
    nodes = [helper.make_node(
        "QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"],
        ["y"], **attrs)]
    acc = conv_integer(x.astype(np.int64) - np.int64(xz), w.astype(np.int64),
                       2, [2, 1], [1, 2, 0, 1], [1, 2])
    acc = acc + b.reshape(1, 6, 1, 1)
    two_step = quantize(dequantize(acc.astype(np.int32),
                                   (xs * ws).reshape(1, 6, 1, 1),
                                   np.zeros((), np.int32)), ys, yz, np.uint8)
    real = np.clip(np.rint(acc * (np.float64(xs) * ws.astype(np.float64)
                                  / np.float64(ys)).reshape(1, 6, 1, 1)) + yz,
                   0, 255)
    m = make(nodes, [("x", x)], [("y", np.uint8)],
             [("xs", np.array(xs)), ("xz", np.array(xz)), ("w", w), ("ws", ws),
              ("wz", wz), ("ys", np.array(ys)), ("yz", np.array(yz)),
              ("b", b)], opset=10)
    return m, {"x": x}, {"y": two_step}, {"y": real}


def conv_integer_1d():
    """ConvInteger on a 1-D signal (N x C x L), int8 input with a zero
    point, uint8 weights with a zero point per filter."""
    x = rng.integers(-128, 128, (2, 3, 11)).astype(np.int8)
    w = rng.integers(0, 256, (4, 3, 3)).astype(np.uint8)
    xz = np.int8(-5)
    wz = np.array([0, 128, 255, 17], np.uint8)
    nodes = [helper.make_node("ConvInteger", ["x", "w", "xz", "wz"], ["y"],
                              pads=[2, 1], dilations=[2], strides=[1])]
    acc = conv_integer((x.astype(np.int64) - xz)[:, :, None, :],
                       (w.astype(np.int64) - wz.reshape(4, 1, 1))[:, :, None, :],
                       1, [1, 1], [0, 2, 0, 1], [1, 2])[:, :, 0, :]
    m = make(nodes, [("x", x)], [("y", np.int32)],
             [("w", w), ("xz", np.array(xz)), ("wz", wz)], opset=10)
    return m, {"x": x}, {"y": acc.astype(np.int32)}, {}


def matmul_integer():
    """MatMulInteger: a 3-D uint8 a with a zero point per row by a 2-D int8
    b with one per column; a 1-D a by a batched b."""
    a = rng.integers(0, 256, (2, 3, 5)).astype(np.uint8)
    b = rng.integers(-128, 128, (5, 4)).astype(np.int8)
    az = np.array([0, 200, 31], np.uint8)
    bz = np.array([1, -1, 0, 127], np.int8)
    v = rng.integers(0, 256, 5).astype(np.uint8)
    bb = rng.integers(-128, 128, (2, 5, 3)).astype(np.int8)
    nodes = [helper.make_node("MatMulInteger", ["a", "b", "az", "bz"], ["y"]),
             helper.make_node("MatMulInteger", ["v", "bb"], ["z"])]
    y = (a.astype(np.int64) - az.reshape(3, 1)) @ (b.astype(np.int64) - bz)
    z = v.astype(np.int64) @ bb.astype(np.int64)
    m = make(nodes, [("a", a), ("v", v)], [("y", np.int32), ("z", np.int32)],
             [("b", b), ("az", az), ("bz", bz), ("bb", bb)], opset=10)
    return m, {"a": a, "v": v}, {"y": y.astype(np.int32),
                                 "z": z.astype(np.int32)}, {}


def qlinear_matmul():
    """QLinearMatMul: int8 operands, a scale per row of a and per column of
    b, int8 output."""
    a = rng.integers(-128, 128, (2, 3, 6)).astype(np.int8)
    b = rng.integers(-128, 128, (6, 4)).astype(np.int8)
    a_s = np.array([0.01, 0.02, 0.03], np.float32)
    az = np.array([0, 5, -5], np.int8)
    b_s = np.array([0.05, 0.01, 0.02, 0.04], np.float32)
    bz = np.zeros(4, np.int8)
    ys, yz = np.float32(0.08), np.int8(-10)
    nodes = [helper.make_node(
        "QLinearMatMul", ["a", "as", "az", "b", "bs", "bz", "ys", "yz"], ["y"])]
    acc = (a.astype(np.int64) - az.reshape(3, 1)) @ (b.astype(np.int64) - bz)
    scale = a_s.reshape(3, 1) * b_s
    two_step = quantize(dequantize(acc.astype(np.int32), scale,
                                   np.zeros((), np.int32)), ys, yz, np.int8)
    real = np.clip(np.rint(acc * (scale.astype(np.float64) / np.float64(ys)))
                   + yz, -128, 127)
    m = make(nodes, [("a", a)], [("y", np.int8)],
             [("b", b), ("as", a_s), ("az", az), ("bs", b_s), ("bz", bz),
              ("ys", np.array(ys)), ("yz", np.array(yz))], opset=10)
    return m, {"a": a}, {"y": two_step}, {"y": real}


def dynamic_quantize():
    """DynamicQuantizeLinear of data that does not contain zero."""
    x = (rng.random((3, 7)) * 5 + 1).astype(np.float32)
    low, high = min(0.0, x.min()), max(0.0, x.max())
    scale = np.float32((np.float32(high) - np.float32(low)) / np.float32(255))
    zp = np.uint8(np.clip(np.rint((np.float32(0) - np.float32(low)) / scale),
                          0, 255))
    y = quantize(x, scale, np.array(zp), np.uint8)
    nodes = [helper.make_node("DynamicQuantizeLinear", ["x"], ["y", "s", "z"])]
    m = make(nodes, [("x", x)],
             [("y", np.uint8), ("s", np.float32), ("z", np.uint8)], [],
             opset=11)
    return m, {"x": x}, {"y": y, "s": np.array(scale),
                         "z": np.array(zp)}, {}


def int8_gemm_tails():
    """MatMulInteger by constant int8 weights (the VNNI micro-kernel where
    the target has it): 26 rows (three blocks of 8 and 2 more), K = 37 (not
    a multiple of 4), N = 45 (masked past it), a zero point per column."""
    a = rng.integers(0, 256, (2, 13, 37)).astype(np.uint8)
    b = rng.integers(-100, 101, (37, 45)).astype(np.int8)
    az = np.uint8(7)
    bz = rng.integers(-20, 21, 45).astype(np.int8)
    nodes = [helper.make_node("MatMulInteger", ["a", "b", "az", "bz"], ["y"])]
    y = (a.astype(np.int64) - az) @ (b.astype(np.int64) - bz)
    m = make(nodes, [("a", a)], [("y", np.int32)],
             [("b", b), ("az", np.array(az)), ("bz", bz)], opset=10)
    return m, {"a": a}, {"y": y.astype(np.int32)}, {}


def int8_gemm_signed():
    """Signed activations (offset into u8 by the kernel) with a negative
    zero point; weights at both ends of int8."""
    a = rng.integers(-128, 128, (9, 64)).astype(np.int8)
    b = rng.integers(-128, 128, (64, 32)).astype(np.int8)
    b[0, :2] = [-128, 127]
    az = np.int8(-3)
    nodes = [helper.make_node("MatMulInteger", ["a", "b", "az"], ["y"])]
    y = (a.astype(np.int64) - az) @ b.astype(np.int64)
    m = make(nodes, [("a", a)], [("y", np.int32)],
             [("b", b), ("az", np.array(az))], opset=10)
    return m, {"a": a}, {"y": y.astype(np.int32)}, {}


def int8_gemm_wide_weights():
    """uint8 weights whose centered values leave int8 (200 - 0): the
    generic lowering, exact all the same."""
    a = rng.integers(0, 256, (5, 12)).astype(np.uint8)
    b = rng.integers(0, 256, (12, 20)).astype(np.uint8)
    nodes = [helper.make_node("MatMulInteger", ["a", "b"], ["y"])]
    y = a.astype(np.int64) @ b.astype(np.int64)
    m = make(nodes, [("a", a)], [("y", np.int32)], [("b", b)], opset=10)
    return m, {"a": a}, {"y": y.astype(np.int32)}, {}


def dynamic_quantize_matmul():
    """What quantize_dynamic writes for a linear layer: DynamicQuantizeLinear
    of the activations, MatMulInteger by int8 weights with the run-time zero
    point, the product scaled back to float."""
    x = rng.standard_normal((3, 20, 24)).astype(np.float32)
    w = rng.integers(-127, 128, (24, 40)).astype(np.int8)
    w_scale = np.float32(0.02)
    nodes = [
        helper.make_node("DynamicQuantizeLinear", ["x"], ["q", "s", "z"]),
        helper.make_node("MatMulInteger", ["q", "w", "z"], ["acc"]),
        helper.make_node("Cast", ["acc"], ["accf"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["s", "ws"], ["scale"]),
        helper.make_node("Mul", ["accf", "scale"], ["y"]),
    ]
    low, high = min(0.0, x.min()), max(0.0, x.max())
    scale = np.float32((np.float32(high) - np.float32(low)) / np.float32(255))
    zp = np.uint8(np.clip(np.rint((np.float32(0) - np.float32(low)) / scale),
                          0, 255))
    q = quantize(x, scale, np.array(zp), np.uint8)
    acc = (q.astype(np.int64) - zp) @ w.astype(np.int64)
    y = acc.astype(np.float32) * (scale * w_scale)
    m = make(nodes, [("x", x)], [("y", np.float32)],
             [("w", w), ("ws", np.array(w_scale))], opset=11)
    return m, {"x": x}, {"y": y}, {}


def qdq_reference(x, x_scale, x_zero, w, w_scale, w_zero):
    """The QDQ form's float path in float64: the dequantized activations
    and weights (per column) multiplied."""
    xq = quantize(x, x_scale, x_zero, x_zero.dtype.type)
    xd = (xq.astype(np.float64) - x_zero) * np.float64(x_scale)
    wd = (w.astype(np.float64) - w_zero) * w_scale.astype(np.float64)
    return xd, wd


def per_output(tolerances):
    """Each output within its absolute tolerance of the float64 reference."""
    def compare(name, got, want):
        return close(0.0, tolerances[name])(name, got, want.astype(got.dtype))
    return compare


def qdq_linear():
    """What quantize_static writes for a linear layer in the QDQ form: the
    uint8 activations with a zero point dequantized, MatMul by int8 weights
    dequantized with a scale and a zero point per column, a bias, Relu,
    then the result quantized and dequantized (graph-qdq-to-integer: an
    integer product). y within one step of the float64 definition (a tie
    may round either way), the product p close to it."""
    x = rng.standard_normal((2, 7, 33)).astype(np.float32)
    w = rng.integers(-120, 121, (33, 20)).astype(np.int8)
    ws = (rng.random(20) * 0.01 + 0.002).astype(np.float32)
    wz = rng.integers(-3, 4, 20).astype(np.int8)
    bias = rng.standard_normal(20).astype(np.float32)
    xs, xz, ys, yz = np.float32(0.03), np.uint8(97), np.float32(0.04), \
        np.uint8(10)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
        helper.make_node("DequantizeLinear", ["w", "ws", "wz"], ["wd"],
                         axis=1),
        helper.make_node("MatMul", ["xd", "wd"], ["p"]),
        helper.make_node("Add", ["p", "bias"], ["b"]),
        helper.make_node("Relu", ["b"], ["r"]),
        helper.make_node("QuantizeLinear", ["r", "ys", "yz"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "ys", "yz"], ["y"]),
    ]
    xd, wd = qdq_reference(x, xs, np.array(xz), w, ws, wz)
    p = xd @ wd
    r = np.maximum(p + bias, 0)
    y = (np.clip(np.rint(r / ys) + yz, 0, 255) - np.float64(yz)) * ys
    m = make(nodes, [("x", x)], [("y", np.float32), ("p", np.float32)],
             [("w", w), ("ws", ws), ("wz", wz), ("bias", bias),
              ("xs", np.array(xs)), ("xz", np.array(xz)),
              ("ys", np.array(ys)), ("yz", np.array(yz))])
    tolerances = {"y": ys * 1.001, "p": 1e-5 * np.abs(p).max()}
    return m, {"x": x}, {"y": y, "p": p}, per_output(tolerances)


def qdq_gemm():
    """A classifier's head in the QDQ form: Flatten of dequantized int8
    activations, Gemm by N x K int8 weights (transB, a scale per row of
    them, zero points 0) with a bias: the flatten moves before the
    dequantization and the weights are transposed at compile time."""
    x = rng.standard_normal((3, 4, 2, 3)).astype(np.float32)
    w = rng.integers(-127, 128, (10, 24)).astype(np.int8)
    ws = (rng.random(10) * 0.01 + 0.002).astype(np.float32)
    bias = rng.standard_normal(10).astype(np.float32)
    xs, xz = np.float32(0.02), np.int8(-5)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
        helper.make_node("Flatten", ["xd"], ["f"]),
        helper.make_node("DequantizeLinear", ["w", "ws", "wz"], ["wd"],
                         axis=0),
        helper.make_node("Gemm", ["f", "wd", "bias"], ["y"], transB=1),
    ]
    xd, wd = qdq_reference(x, xs, np.array(xz), w, ws[:, None], 0)
    y = xd.reshape(3, 24) @ wd.T + bias
    m = make(nodes, [("x", x)], [("y", np.float32)],
             [("w", w), ("ws", ws), ("wz", np.zeros(10, np.int8)),
              ("bias", bias), ("xs", np.array(xs)), ("xz", np.array(xz))])
    return m, {"x": x}, {"y": y}, per_output({"y": 1e-5 * np.abs(y).max()})


def qdq_conv():
    """A convolution in the QDQ form, as quantize_static writes it: uint8
    activations (one NaN, quantized to the lowest value), int8 filters with
    a scale each, an int32 bias at scale x_scale * w_scale, Relu, the
    result quantized and dequantized. The quantizations that go back to
    float become graph.fake_quantize, the output's the convolution's
    epilogue. Within one step of the float64 definition."""
    x = rng.standard_normal((1, 8, 10, 10)).astype(np.float32)
    x[0, 3, 4, 5] = np.nan
    w = rng.integers(-127, 128, (16, 8, 3, 3)).astype(np.int8)
    ws = (rng.random(16) * 0.005 + 0.001).astype(np.float32)
    xs, xz, ys, yz = np.float32(0.03), np.uint8(120), np.float32(0.05), \
        np.uint8(0)
    bs = (xs * ws).astype(np.float32)
    b = rng.integers(-2000, 2000, 16).astype(np.int32)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
        helper.make_node("DequantizeLinear", ["w", "ws", "wz"], ["wd"],
                         axis=0),
        helper.make_node("DequantizeLinear", ["b", "bs", "bz"], ["bd"],
                         axis=0),
        helper.make_node("Conv", ["xd", "wd", "bd"], ["c"],
                         pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("QuantizeLinear", ["r", "ys", "yz"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "ys", "yz"], ["y"]),
    ]
    xq = quantize(np.nan_to_num(x, nan=-1e9), xs, np.array(xz), np.uint8)
    acc = conv_integer(xq.astype(np.int64) - xz, w, 1, [1, 1], [1, 1, 1, 1],
                       [1, 1])
    real = acc * (np.float64(xs) * ws.astype(np.float64))[:, None, None] + \
        (b * bs.astype(np.float64))[:, None, None]
    r = np.maximum(real, 0)
    y = (np.clip(np.rint(r / ys) + yz, 0, 255) - np.float64(yz)) * ys
    m = make(nodes, [("x", x)], [("y", np.float32)],
             [("w", w), ("ws", ws), ("wz", np.zeros(16, np.int8)),
              ("b", b), ("bs", bs), ("bz", np.zeros(16, np.int32)),
              ("xs", np.array(xs)), ("xz", np.array(xz)),
              ("ys", np.array(ys)), ("yz", np.array(yz))])
    return m, {"x": x}, {"y": y}, per_output({"y": ys * 1.001})


def qdq_conv_chain(dtype=np.uint8):
    """Three convolutions in the QDQ form in a row, as a quantized CNN's
    blocks: 3 to 20 channels (3 x 3, stride 2, channels not a multiple of a
    word), 20 to 36 (1 x 1: 36 filters, not a multiple of two vectors), a
    max pool, 36 to 12 (3 x 3, dilation 2, uneven padding); Relu after the
    first and last. graph-convert-layout makes them NHWC integer
    convolutions between which the activations stay 8-bit, on the integer
    kernels: the output pixels (rows of 8, then 5) are the rows, the
    filters the columns; each kernel applies what follows it (the
    dequantization, bias, Relu, the quantization) to its sums in registers,
    and the second writes its result padded for the max pool (3 x 3,
    stride 2, padding 1) after it. The reference
    requantizes each layer's exact integer sums in float64; within one step
    of its output."""
    info = np.iinfo(dtype)
    x = rng.standard_normal((1, 3, 17, 15)).astype(np.float32)
    xs, xz = np.float32(0.025), dtype(int(info.min) + 100)
    layers = [  # filters, channels, kernel, strides, pads, dilations, relu
        (20, 3, 3, [2, 2], [1, 1, 1, 1], [1, 1], True),
        (36, 20, 1, [1, 1], [0, 0, 0, 0], [1, 1], False),
        (12, 36, 3, [1, 1], [2, 1, 1, 2], [2, 2], True),
    ]
    scales = [np.float32(0.04), np.float32(0.03), np.float32(0.05)]
    zeros = [dtype(int(info.min) + 10), dtype(int(info.min) + 128),
             dtype(int(info.min) + 3)]
    nodes = [helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["q0"])]
    inits = [("xs", np.array(xs)), ("xz", np.array(xz))]
    q = quantize(x, xs, np.array(xz), dtype)
    in_scale, in_zero = xs, xz
    for i, (f, c, k, strides, pads, dil, relu) in enumerate(layers):
        w = rng.integers(-127, 128, (f, c, k, k)).astype(np.int8)
        ws = (rng.random(f) * 0.004 + 0.001).astype(np.float32)
        b = rng.integers(-3000, 3000, f).astype(np.int32)
        bs = (in_scale * ws).astype(np.float32)
        names = [f"{n}{i}" for n in ("w", "ws", "wz", "b", "bs", "bz")]
        inits += list(zip(names, [w, ws, np.zeros(f, np.int8), b, bs,
                                  np.zeros(f, np.int32)]))
        prev = f"q{i}" if i != 2 else "pooled"
        if i == 2:
            nodes += [
                helper.make_node("DequantizeLinear", ["q2", f"ys1", f"yz1"],
                                 ["d_pool"]),
                helper.make_node("MaxPool", ["d_pool"], ["p"],
                                 kernel_shape=[3, 3], strides=[2, 2],
                                 pads=[1, 1, 1, 1]),
                helper.make_node("QuantizeLinear", ["p", "ys1", "yz1"],
                                 ["pooled"])]
            # 3 x 3, stride 2, padding 1 (never the maximum).
            n_, c_, h_, w_ = q.shape
            padded = np.pad(q.astype(np.int64), ((0, 0), (0, 0), (1, 1), (1, 1)),
                            constant_values=-1 << 20)
            oh_, ow_ = (h_ - 1) // 2 + 1, (w_ - 1) // 2 + 1
            q = np.stack([padded[:, :, i:i + 2 * oh_ - 1:2, j:j + 2 * ow_ - 1:2]
                          for i in range(3) for j in range(3)]).max(axis=0)
            q = q.astype(dtype)
        nodes += [
            helper.make_node("DequantizeLinear",
                             [prev, "xs" if i == 0 else f"ys{i - 1}",
                              "xz" if i == 0 else f"yz{i - 1}"], [f"d{i}"]),
            helper.make_node("DequantizeLinear", names[0:3], [f"wd{i}"],
                             axis=0),
            helper.make_node("DequantizeLinear", names[3:6], [f"bd{i}"],
                             axis=0),
            helper.make_node("Conv", [f"d{i}", f"wd{i}", f"bd{i}"], [f"c{i}"],
                             strides=strides, pads=pads, dilations=dil),
        ]
        out = f"c{i}"
        if relu:
            nodes.append(helper.make_node("Relu", [out], [f"r{i}"]))
            out = f"r{i}"
        nodes.append(helper.make_node(
            "QuantizeLinear", [out, f"ys{i}", f"yz{i}"], [f"q{i + 1}"]))
        inits += [(f"ys{i}", np.array(scales[i])),
                  (f"yz{i}", np.array(zeros[i]))]
        acc = conv_integer(q.astype(np.int64) - int(in_zero), w, 1, strides,
                           pads, dil)
        real = acc * (np.float64(in_scale) *
                      ws.astype(np.float64))[:, None, None] + \
            (b * bs.astype(np.float64))[:, None, None]
        if relu:
            real = np.maximum(real, 0)
        q = np.clip(np.rint(real / np.float64(scales[i])) + int(zeros[i]),
                    info.min, info.max).astype(dtype)
        in_scale, in_zero = scales[i], zeros[i]
    nodes.append(helper.make_node("DequantizeLinear", ["q3", "ys2", "yz2"],
                                  ["y"]))
    y = (q.astype(np.float64) - int(zeros[2])) * np.float64(scales[2])
    m = make(nodes, [("x", x)], [("y", np.float32)], inits)
    return m, {"x": x}, {"y": y}, per_output({"y": scales[2] * 1.001})


def qdq_conv_chain_signed():
    """The same with int8 activations: offset into u8 for vpdpbusd."""
    return qdq_conv_chain(np.int8)


def qdq_conv_depthwise():
    """A pointwise convolution in the QDQ form (on the integer kernel, its
    epilogue in registers) whose result, quantized and dequantized, feeds a
    depthwise 3 x 3 convolution with padding 1 (float: graph-qdq-to-integer
    leaves depthwise convolutions alone): the integer kernel writes its
    result with the zero border the depthwise convolution reads. Within one
    step of the float64 reference."""
    x = rng.standard_normal((1, 8, 9, 11)).astype(np.float32)
    xs, xz = np.float32(0.03), np.uint8(128)
    w = rng.integers(-127, 128, (24, 8, 1, 1)).astype(np.int8)
    ws = (rng.random(24) * 0.01 + 0.002).astype(np.float32)
    b = rng.integers(-500, 500, 24).astype(np.int32)
    bs = (xs * ws).astype(np.float32)
    ms, mz = np.float32(0.02), np.uint8(0)
    dw = rng.integers(-127, 128, (24, 1, 3, 3)).astype(np.int8)
    dws = (rng.random(24) * 0.01 + 0.002).astype(np.float32)
    ys, yz = np.float32(0.05), np.uint8(100)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
        helper.make_node("DequantizeLinear", ["w", "ws", "wz"], ["wd"], axis=0),
        helper.make_node("DequantizeLinear", ["b", "bs", "bz"], ["bd"], axis=0),
        helper.make_node("Conv", ["xd", "wd", "bd"], ["c"]),
        helper.make_node("Clip", ["c", "lo", "hi"], ["r"]),
        helper.make_node("QuantizeLinear", ["r", "ms", "mz"], ["mq"]),
        helper.make_node("DequantizeLinear", ["mq", "ms", "mz"], ["md"]),
        helper.make_node("DequantizeLinear", ["dw", "dws", "dwz"], ["dwd"],
                         axis=0),
        helper.make_node("Conv", ["md", "dwd"], ["d"], group=24,
                         pads=[1, 1, 1, 1]),
        helper.make_node("QuantizeLinear", ["d", "ys", "yz"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "ys", "yz"], ["y"]),
    ]
    xq = quantize(x, xs, np.array(xz), np.uint8)
    acc = conv_integer(xq.astype(np.int64) - int(xz), w, 1, [1, 1],
                       [0, 0, 0, 0], [1, 1])
    real = acc * (np.float64(xs) * ws.astype(np.float64))[:, None, None] + \
        (b * bs.astype(np.float64))[:, None, None]
    real = np.clip(real, 0.0, 6.0)
    mq = np.clip(np.rint(real / np.float64(ms)) + int(mz), 0, 255)
    md = (mq - int(mz)) * np.float64(ms)
    dwd = dw.astype(np.float64) * dws.astype(np.float64)[:, None, None, None]
    padded = np.pad(md, ((0, 0), (0, 0), (1, 1), (1, 1)))
    d = np.zeros_like(md)
    for i in range(3):
        for j in range(3):
            d += padded[:, :, i:i + 9, j:j + 11] * dwd[None, :, 0, i, j, None, None]
    y = (np.clip(np.rint(d / np.float64(ys)) + int(yz), 0, 255) - int(yz)) * \
        np.float64(ys)
    m = make(nodes, [("x", x)], [("y", np.float32)],
             [("w", w), ("ws", ws), ("wz", np.zeros(24, np.int8)),
              ("b", b), ("bs", bs), ("bz", np.zeros(24, np.int32)),
              ("lo", np.array(np.float32(0))), ("hi", np.array(np.float32(6))),
              ("dw", dw), ("dws", dws), ("dwz", np.zeros(24, np.int8)),
              ("xs", np.array(xs)), ("xz", np.array(xz)),
              ("ms", np.array(ms)), ("mz", np.array(mz)),
              ("ys", np.array(ys)), ("yz", np.array(yz))])
    return m, {"x": x}, {"y": y}, per_output({"y": ys * 1.001})


def qdq_residual():
    """A residual block in the QDQ form, as quantize_static writes ResNet's
    first: conv and Relu, a max pool (3 x 3, stride 1, padding 1) whose
    quantized output is the block's input, conv and Relu, conv, the block's
    input (dequantized) added, Relu, the sum quantized. The last
    convolution's kernel applies its dequantization, the bias, the
    quantization undone, the shortcut (read per element) and Relu in
    registers. Within one step of the float64 reference."""
    c = 16
    x = rng.standard_normal((1, c, 7, 9)).astype(np.float32)
    scales = {"x": (np.float32(0.04), np.uint8(120)),
              "a": (np.float32(0.03), np.uint8(0)),
              "p": (np.float32(0.03), np.uint8(0)),
              "m": (np.float32(0.03), np.uint8(0)),
              "c": (np.float32(0.05), np.uint8(128)),
              "y": (np.float32(0.06), np.uint8(0))}
    inits = []
    for name, (scale, zero) in scales.items():
        inits += [(name + "s", np.array(scale)), (name + "z", np.array(zero))]

    def qdq(src, name, out):
        return [helper.make_node("QuantizeLinear", [src, name + "s", name + "z"],
                                 [out + "_q"]),
                helper.make_node("DequantizeLinear",
                                 [out + "_q", name + "s", name + "z"], [out])]

    def requantize(real, name):
        scale, zero = scales[name]
        q = np.clip(np.rint(real / np.float64(scale)) + int(zero), 0, 255)
        return q.astype(np.int64)

    def real(q, name):
        scale, zero = scales[name]
        return (q - int(zero)) * np.float64(scale)

    nodes = qdq("x", "x", "xd")
    convs = []
    for i, (src, src_name) in enumerate([("xd", "x"), ("pd", "p"),
                                         ("md", "m")]):
        w = rng.integers(-127, 128, (c, c, 3, 3)).astype(np.int8)
        ws = (rng.random(c) * 0.003 + 0.001).astype(np.float32)
        b = rng.integers(-2000, 2000, c).astype(np.int32)
        bs = (scales[src_name][0] * ws).astype(np.float32)
        inits += [(f"w{i}", w), (f"ws{i}", ws), (f"wz{i}", np.zeros(c, np.int8)),
                  (f"b{i}", b), (f"bs{i}", bs), (f"bz{i}", np.zeros(c, np.int32))]
        convs.append((w, ws, b, bs, src_name))
        nodes += [
            helper.make_node("DequantizeLinear", [f"w{i}", f"ws{i}", f"wz{i}"],
                             [f"wd{i}"], axis=0),
            helper.make_node("DequantizeLinear", [f"b{i}", f"bs{i}", f"bz{i}"],
                             [f"bd{i}"], axis=0),
            helper.make_node("Conv", [src, f"wd{i}", f"bd{i}"], [f"c{i}"],
                             pads=[1, 1, 1, 1])]
        if i == 0:
            nodes += [helper.make_node("Relu", ["c0"], ["r0"])] + \
                qdq("r0", "a", "ad") + \
                [helper.make_node("MaxPool", ["ad"], ["pool"],
                                  kernel_shape=[3, 3], pads=[1, 1, 1, 1])] + \
                qdq("pool", "p", "pd")
        elif i == 1:
            nodes += [helper.make_node("Relu", ["c1"], ["r1"])] + \
                qdq("r1", "m", "md")
        else:
            nodes += qdq("c2", "c", "cd") + [
                helper.make_node("Add", ["cd", "pd"], ["s"]),
                helper.make_node("Relu", ["s"], ["r"])] + qdq("r", "y", "y")

    def conv(q, i):
        w, ws, b, bs, src_name = convs[i]
        acc = conv_integer(q - int(scales[src_name][1]), w, 1, [1, 1],
                           [1, 1, 1, 1], [1, 1])
        return acc * (np.float64(scales[src_name][0]) *
                      ws.astype(np.float64))[:, None, None] + \
            (b * bs.astype(np.float64))[:, None, None]

    xq = quantize(x, scales["x"][0], np.array(scales["x"][1]),
                  np.uint8).astype(np.int64)
    a = requantize(np.maximum(conv(xq, 0), 0), "a")
    padded = np.pad(a, ((0, 0), (0, 0), (1, 1), (1, 1)),
                    constant_values=-1 << 20)
    pool = np.stack([padded[:, :, i:i + 7, j:j + 9]
                     for i in range(3) for j in range(3)]).max(axis=0)
    p = requantize(real(pool, "a"), "p")
    m = requantize(np.maximum(conv(p, 1), 0), "m")
    cq = requantize(conv(m, 2), "c")
    y = real(requantize(np.maximum(real(cq, "c") + real(p, "p"), 0), "y"), "y")
    model = make(nodes, [("x", x)], [("y", np.float32)], inits)
    return model, {"x": x}, {"y": y}, per_output({"y": scales["y"][0] * 1.001})


def qdq_wide_weights():
    """uint8 weights with zero point 0 (centered values up to 255): taken
    for pmaddwd's 16 bits, left to the float path with VNNI's 8."""
    x = rng.standard_normal((6, 16)).astype(np.float32)
    w = rng.integers(0, 256, (16, 8)).astype(np.uint8)
    ws = np.float32(0.001)
    xs, xz = np.float32(0.05), np.uint8(128)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
        helper.make_node("DequantizeLinear", ["w", "ws"], ["wd"]),
        helper.make_node("MatMul", ["xd", "wd"], ["y"]),
    ]
    xd, wd = qdq_reference(x, xs, np.array(xz), w, np.array(ws), 0)
    y = xd @ wd
    m = make(nodes, [("x", x)], [("y", np.float32)],
             [("w", w), ("ws", np.array(ws)), ("xs", np.array(xs)),
              ("xz", np.array(xz))])
    return m, {"x": x}, {"y": y}, per_output({"y": 1e-5 * np.abs(y).max()})


def blocked():
    """Blocked quantization (opset 21's block_size), refused."""
    x = np.zeros((2, 4), np.float32)
    nodes = [helper.make_node("QuantizeLinear", ["x", "s"], ["y"], axis=1,
                              block_size=2)]
    m = make(nodes, [("x", x)], [("y", np.uint8)],
             [("s", np.ones((2, 2), np.float32))], opset=21)
    return m, {"x": x}, {}, {}


def wrong_axis():
    """A per-axis scale whose length is not the axis's, refused."""
    x = np.zeros((2, 4), np.float32)
    nodes = [helper.make_node("QuantizeLinear", ["x", "s"], ["y"], axis=0)]
    m = make(nodes, [("x", x)], [("y", np.uint8)],
             [("s", np.ones(4, np.float32))])
    return m, {"x": x}, {}, {}


MODELS = {f.__name__: f for f in [
    qdq_axis, qlinear_conv, conv_integer_1d, matmul_integer, qlinear_matmul,
    dynamic_quantize, int8_gemm_tails, int8_gemm_signed,
    int8_gemm_wide_weights, dynamic_quantize_matmul, qdq_linear, qdq_gemm,
    qdq_conv, qdq_conv_chain, qdq_conv_chain_signed, qdq_conv_depthwise,
    qdq_residual, qdq_wide_weights,
    blocked, wrong_axis]}
CHECKED = ["qdq_axis", "qlinear_conv", "conv_integer_1d", "matmul_integer",
           "qlinear_matmul", "dynamic_quantize", "int8_gemm_tails",
           "int8_gemm_signed", "int8_gemm_wide_weights",
           "dynamic_quantize_matmul", "qdq_linear", "qdq_gemm", "qdq_conv",
           "qdq_conv_chain", "qdq_conv_chain_signed", "qdq_conv_depthwise",
           "qdq_residual", "qdq_wide_weights"]
# This machine's code (vpdpbusd on an AVX-512 VNNI host), AVX2's (pmaddwd)
# and, on a VNNI host, its own without VNNI (AVX-512 pmaddwd).
VARIANTS = ((), ("--target-cpu=haswell",))
if " avx512_vnni" in open("/proc/cpuinfo").read():
    VARIANTS += (("--target-features=-avx512vnni",),)


def within_one_step(reals):
    """Exact against the two-step reference, and within one quantization
    step of the real-valued requantization where `reals` has one."""
    def compare(name, got, want):
        why = exact(name, got, want)
        if why or name not in reals:
            return why
        step = np.abs(got.astype(np.int64) - reals[name]).max()
        if step > 1:
            return "%s is %d steps from the real-valued requantization" % (
                name, step)
        return None
    return compare


def check(graph_run, directory):
    cases = []
    for name in CHECKED:
        model, inputs, refs, reals = MODELS[name]()
        compare = reals if callable(reals) else within_one_step(reals)
        cases.append((name, model, inputs, refs, compare))
    return run_cases(graph_run, directory, cases, VARIANTS)


def main():
    if sys.argv[1] == "write":
        onnx.save(MODELS[sys.argv[2]]()[0], sys.argv[3])
        return 0
    return check(sys.argv[2], sys.argv[3])


if __name__ == "__main__":
    sys.exit(main())
