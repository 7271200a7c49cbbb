"""Runs an ONNX model with plain NumPy, as the ONNX operator specification
describes each operator, and compares the result with graph-run's outputs.

Usage: numpy_reference.py MODEL.onnx NAME=INPUT.npy... OUTPUT.npy...

The inputs are given by name; the OUTPUT files are the model outputs in
order. Exits 1 when any output differs beyond rtol = atol = 1e-5.
"""

import sys

import numpy as np
import onnx
from onnx import numpy_helper


def window_pads(attrs, spatial, kernel, strides, dilations):
    """[top, left, bottom, right] from pads or auto_pad, per the spec."""
    auto_pad = attrs.get("auto_pad", b"NOTSET").decode()
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        pads = [0, 0, 0, 0]
        for i in range(2):
            out = -(-spatial[i] // strides[i])
            needed = max((out - 1) * strides[i] +
                         (kernel[i] - 1) * dilations[i] + 1 - spatial[i], 0)
            head = needed // 2 if auto_pad == "SAME_UPPER" else needed - needed // 2
            pads[i], pads[i + 2] = head, needed - head
        return pads
    if auto_pad == "VALID":
        return [0, 0, 0, 0]
    return list(attrs.get("pads", [0, 0, 0, 0]))


def conv(x, w, b, attrs):
    n, c, h, wd = x.shape
    f, cg, kh, kw = w.shape
    s = attrs.get("strides", [1, 1])
    d = attrs.get("dilations", [1, 1])
    g = attrs.get("group", 1)
    p = window_pads(attrs, (h, wd), (kh, kw), s, d)
    xp = np.pad(x, ((0, 0), (0, 0), (p[0], p[2]), (p[1], p[3])))
    oh = (h + p[0] + p[2] - d[0] * (kh - 1) - 1) // s[0] + 1
    ow = (wd + p[1] + p[3] - d[1] * (kw - 1) - 1) // s[1] + 1
    y = np.zeros((n, f, oh, ow), np.float64)
    for fi in range(f):
        gi = fi // (f // g)
        for i in range(oh):
            for j in range(ow):
                patch = xp[:, gi * cg:(gi + 1) * cg,
                           i * s[0]:i * s[0] + d[0] * (kh - 1) + 1:d[0],
                           j * s[1]:j * s[1] + d[1] * (kw - 1) + 1:d[1]]
                y[:, fi, i, j] = np.sum(patch * w[fi], axis=(1, 2, 3))
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y


def pool(x, attrs, kind):
    n, c, h, wd = x.shape
    k = attrs["kernel_shape"]
    s = attrs.get("strides", [1, 1])
    p = window_pads(attrs, (h, wd), k, s, [1, 1])
    ceil = attrs.get("ceil_mode", 0)
    size = []
    for i, dim in enumerate((h, wd)):
        span = dim + p[i] + p[i + 2] - k[i]
        size.append((-(-span // s[i]) if ceil else span // s[i]) + 1)
    y = np.zeros((n, c, size[0], size[1]), np.float64)
    for i in range(size[0]):
        for j in range(size[1]):
            # The window in input coordinates, before clipping.
            h0, w0 = i * s[0] - p[0], j * s[1] - p[1]
            h1, w1 = h0 + k[0], w0 + k[1]
            cells = x[:, :, max(h0, 0):min(h1, h), max(w0, 0):min(w1, wd)]
            if kind == "max":
                y[:, :, i, j] = cells.max(axis=(2, 3))
            else:
                if attrs.get("count_include_pad", 0):
                    # The window clipped to the padded input.
                    count = ((min(h1, h + p[2]) - max(h0, -p[0])) *
                             (min(w1, wd + p[3]) - max(w0, -p[1])))
                else:
                    count = cells.shape[2] * cells.shape[3]
                y[:, :, i, j] = cells.sum(axis=(2, 3)) / count
    return y


def softmax(x, axis, opset):
    if opset < 13:
        shape = x.shape
        axis = axis % x.ndim
        x = x.reshape(int(np.prod(shape[:axis])), -1)
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return (e / e.sum(axis=1, keepdims=True)).reshape(shape)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def run(model, feeds):
    opset = [o.version for o in model.opset_import if o.domain in ("", "ai.onnx")][0]
    env = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    env.update(feeds)
    for node in model.graph.node:
        a = {at.name: onnx.helper.get_attribute_value(at) for at in node.attribute}
        i = [env[name] if name else None for name in node.input]
        i += [None] * 5
        op = node.op_type
        if op == "Conv":
            y = conv(i[0], i[1], i[2], a)
        elif op == "BatchNormalization":
            x, sc, b, m, v = i[:5]
            r = lambda t: t.reshape(1, -1, *([1] * (x.ndim - 2)))
            y = (x - r(m)) / np.sqrt(r(v) + a.get("epsilon", 1e-5)) * r(sc) + r(b)
        elif op == "Relu":
            y = np.maximum(i[0], 0)
        elif op == "Sigmoid":
            y = 1 / (1 + np.exp(-i[0]))
        elif op == "Tanh":
            y = np.tanh(i[0])
        elif op == "Clip":
            # Absent bounds: numeric_limits<float>::lowest() and max().
            big = np.finfo(np.float32).max
            lo = a.get("min", -big) if opset < 11 else (-big if i[1] is None else i[1])
            hi = a.get("max", big) if opset < 11 else (big if i[2] is None else i[2])
            y = np.minimum(np.maximum(i[0], lo), hi)
        elif op in ("Add", "Sub", "Mul", "Div"):
            y = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply,
                 "Div": np.divide}[op](i[0], i[1])
        elif op == "MatMul":
            y = i[0] @ i[1]
        elif op == "Gemm":
            A = i[0].T if a.get("transA", 0) else i[0]
            B = i[1].T if a.get("transB", 0) else i[1]
            y = a.get("alpha", 1.0) * (A @ B)
            if i[2] is not None:
                y = y + a.get("beta", 1.0) * i[2]
        elif op == "MaxPool":
            y = pool(i[0], a, "max")
        elif op == "AveragePool":
            y = pool(i[0], a, "avg")
        elif op == "GlobalAveragePool":
            y = i[0].mean(axis=(2, 3), keepdims=True)
        elif op == "Flatten":
            ax = a.get("axis", 1) % (i[0].ndim + 1)
            y = i[0].reshape(int(np.prod(i[0].shape[:ax])), -1)
        elif op == "Reshape":
            shape = [d if d != 0 else i[0].shape[k] for k, d in enumerate(i[1])]
            y = i[0].reshape(shape)
        elif op == "Slice":
            # ONNX's Slice (opset 10+): starts, ends, optional axes and steps.
            axes = range(len(i[1])) if i[3] is None else i[3]
            steps = [1] * len(i[1]) if i[4] is None else i[4]
            index = [slice(None)] * i[0].ndim
            for start, end, axis, step in zip(i[1], i[2], axes, steps):
                index[axis] = slice(int(start), int(end), int(step))
            y = i[0][tuple(index)]
        elif op == "Transpose":
            y = np.transpose(i[0], a.get("perm"))
        elif op == "Concat":
            y = np.concatenate([t for t in i if t is not None], axis=a["axis"])
        elif op == "Softmax":
            y = softmax(i[0], a.get("axis", 1 if opset < 13 else -1), opset)
        elif op in ("Identity", "Dropout"):
            y = i[0]
        elif op == "Constant":
            y = numpy_helper.to_array(a["value"]) if "value" in a else np.array(
                a.get("value_float", a.get("value_floats")), np.float32)
        else:
            sys.exit("numpy_reference.py: no reference for " + op)
        env[node.output[0]] = np.asarray(y)
    return [env[o.name] for o in model.graph.output]


def main():
    model = onnx.load(sys.argv[1])
    feeds = {}
    outputs = []
    for arg in sys.argv[2:]:
        if "=" in arg:
            name, path = arg.split("=", 1)
            array = np.load(path)
            # Floats in double precision; integers (shapes, indices) as they are.
            feeds[name] = (array.astype(np.float64)
                           if array.dtype.kind == "f" else array)
        else:
            outputs.append(arg)
    expected = run(model, feeds)
    if len(outputs) != len(expected):
        sys.exit(f"{len(expected)} outputs, {len(outputs)} files")
    ok = True
    for info, want, path in zip(model.graph.output, expected, outputs):
        got = np.load(path)
        if got.shape != want.shape or not np.allclose(got, want, rtol=1e-5,
                                                      atol=1e-5):
            print(f"{info.name}: MISMATCH, max abs diff "
                  f"{np.max(np.abs(got - want)) if got.shape == want.shape else got.shape}")
            ok = False
        else:
            print(f"{info.name}: OK {list(got.shape)}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
