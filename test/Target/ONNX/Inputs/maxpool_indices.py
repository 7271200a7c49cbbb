#!/usr/bin/python3
"""MaxPool's Indices output, for maxpool-indices.test:
maxpool_indices.py GRAPH_RUN DIR runs each case through graph-run at -O0
and -O3 against a NumPy MaxPool written from the operator's definition
(the first maximum of each window, padding never chosen; the flat index
over N x C x spatial, the spatial part column-major with storage_order 1).

Cases: 2-D with padding and strides (the float32 2-D kernel), the same
with storage_order 1, ceil_mode, dilations, 1-D, 3-D, int8 windows whose
every real cell equals the padding's value (the first real cell wins),
and SegNet's pattern: the indices feeding MaxUnpool.
"""
import itertools
import sys

import numpy as np

sys.dont_write_bytecode = True
import case_runner  # noqa: E402
from case_runner import exact  # noqa: E402


def reference(x, kernel, strides, pads, dilations, ceil_mode, storage_order):
    n, c = x.shape[:2]
    spatial = x.shape[2:]
    rank = len(spatial)
    out = []
    for d in range(rank):
        span = (kernel[d] - 1) * dilations[d] + 1
        size = spatial[d] + pads[d] + pads[rank + d] - span
        o = (-(-size // strides[d]) if ceil_mode else size // strides[d]) + 1
        if ceil_mode and (o - 1) * strides[d] >= spatial[d] + pads[d]:
            o -= 1
        out.append(o)
    y = np.zeros((n, c) + tuple(out), x.dtype)
    idx = np.zeros((n, c) + tuple(out), np.int64)
    cells = int(np.prod(spatial))
    for b, ch in itertools.product(range(n), range(c)):
        for o in itertools.product(*[range(s) for s in out]):
            best, where = None, None
            for t in itertools.product(*[range(k) for k in kernel]):
                at = [o[d] * strides[d] - pads[d] + t[d] * dilations[d]
                      for d in range(rank)]
                if any(a < 0 or a >= spatial[d] for d, a in enumerate(at)):
                    continue
                v = x[(b, ch) + tuple(at)]
                if best is None or v > best:
                    best, where = v, at
            if storage_order:
                flat, stride = 0, 1
                for d in range(rank):
                    flat += where[d] * stride
                    stride *= spatial[d]
            else:
                flat = int(np.ravel_multi_index(where, spatial))
            y[(b, ch) + o] = best
            idx[(b, ch) + o] = (b * c + ch) * cells + flat
    return y, idx


def model(x, attrs, unpool=False):
    from onnx import TensorProto as T, helper
    from onnx.mapping import NP_TYPE_TO_TENSOR_TYPE
    kind = NP_TYPE_TO_TENSOR_TYPE[x.dtype]
    nodes = [helper.make_node("MaxPool", ["x"], ["y", "i"], **attrs)]
    outputs = [helper.make_tensor_value_info("y", kind, None),
               helper.make_tensor_value_info("i", T.INT64, None)]
    if unpool:
        nodes.append(helper.make_node(
            "MaxUnpool", ["y", "i", "shape"], ["u"],
            kernel_shape=attrs["kernel_shape"], strides=attrs["strides"]))
        outputs.append(helper.make_tensor_value_info("u", kind, None))
    inits = []
    if unpool:
        from onnx import numpy_helper
        inits.append(numpy_helper.from_array(np.array(x.shape, np.int64),
                                             "shape"))
    graph = helper.make_graph(
        nodes, "maxpool",
        [helper.make_tensor_value_info("x", kind, list(x.shape))], outputs,
        initializer=inits)
    return helper.make_model(graph,
                             opset_imports=[helper.make_opsetid("", 13)])


def case(name, x, kernel, strides=None, pads=None, dilations=None,
         ceil_mode=0, storage_order=0, unpool=False):
    rank = len(kernel)
    strides = strides or [1] * rank
    pads = pads or [0] * (2 * rank)
    dilations = dilations or [1] * rank
    attrs = {"kernel_shape": kernel, "strides": strides, "pads": pads,
             "ceil_mode": ceil_mode, "storage_order": storage_order}
    if any(d != 1 for d in dilations):
        attrs["dilations"] = dilations
    y, idx = reference(x, kernel, strides, pads, dilations, ceil_mode,
                       storage_order)
    want = {"y": y, "i": idx}
    if unpool:
        u = np.zeros(x.size, x.dtype)
        u[idx.reshape(-1)] = y.reshape(-1)
        want["u"] = u.reshape(x.shape)
    return (name, model(x, attrs, unpool), {"x": x}, want, exact)


def cases():
    rng = np.random.default_rng(31)
    f32 = np.float32
    image = rng.standard_normal((2, 3, 7, 6)).astype(f32)
    return [
        case("pads_strides", image, [3, 3], [2, 2], [1, 1, 1, 1]),
        case("storage_order", image, [3, 3], [2, 2], [1, 1, 1, 1],
             storage_order=1),
        case("ceil_mode", image, [2, 2], [2, 2], ceil_mode=1),
        case("dilations", image, [2, 2], [1, 1], dilations=[2, 2]),
        case("one_d", rng.standard_normal((1, 2, 9)).astype(f32), [3], [2],
             [1, 1]),
        case("three_d", rng.standard_normal((1, 1, 4, 5, 3)).astype(f32),
             [2, 2, 2], [2, 2, 1]),
        case("int8_ties", np.full((1, 1, 4, 4), -128, np.int8), [3, 3],
             [2, 2], [1, 1, 1, 1]),
        case("unpool", rng.standard_normal((1, 2, 6, 6)).astype(f32), [2, 2],
             [2, 2], unpool=True),
    ]


if __name__ == "__main__":
    sys.exit(case_runner.main(sys.argv, cases, {}))
