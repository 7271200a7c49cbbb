#!/usr/bin/python3
"""GatherND and ScatterND for gather-scatter-nd.test.

gather_scatter_nd.py GRAPH_RUN DIR: each case through graph-run at -O0 and
-O3 against NumPy loops written from the ONNX definitions (negative index
components count from the end of their dimension), exact.
"""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

sys.dont_write_bytecode = True
from case_runner import run_cases  # noqa: E402

TYPES = {np.float32: TensorProto.FLOAT, np.int32: TensorProto.INT32,
         np.int64: TensorProto.INT64}
rng = np.random.default_rng(3)


def gather_nd(data, indices, batch_dims):
    batch = indices.shape[:batch_dims]
    out = []
    for b in np.ndindex(batch):
        rows = indices[b].reshape(-1, indices.shape[-1])
        for row in rows:
            position = tuple(int(i) + (data.shape[batch_dims + j] if i < 0 else 0)
                             for j, i in enumerate(row))
            out.append(data[b + position])
    shape = indices.shape[:-1] + data.shape[batch_dims + indices.shape[-1]:]
    return np.array(out, data.dtype).reshape(shape)


def scatter_nd(data, indices, updates, reduction):
    out = data.copy()
    combine = {"none": lambda old, new: new, "add": np.add,
               "mul": np.multiply, "max": np.maximum, "min": np.minimum}
    for i in np.ndindex(indices.shape[:-1]):
        position = tuple(int(k) + (data.shape[j] if k < 0 else 0)
                         for j, k in enumerate(indices[i]))
        out[position] = combine[reduction](out[position], updates[i])
    return out


def model(op, data, indices, updates=None, **attrs):
    inputs = ["data", "indices"] + (["updates"] if updates is not None else [])
    graph = helper.make_graph(
        [helper.make_node(op, inputs, ["y"], **attrs)], op,
        [helper.make_tensor_value_info("data", TYPES[data.dtype.type],
                                       data.shape)],
        [helper.make_tensor_value_info("y", TYPES[data.dtype.type], None)],
        [numpy_helper.from_array(indices, "indices")] +
        ([numpy_helper.from_array(updates, "updates")]
         if updates is not None else []))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    m.ir_version = 8
    return m


def cases():
    result = []
    # Slices of two leading dimensions, negative components.
    data = rng.standard_normal((3, 4, 5)).astype(np.float32)
    idx = np.array([[[0, -1], [2, 1]], [[-3, 0], [1, 3]]], np.int64)
    result.append(("gathernd_slices", model("GatherND", data, idx),
                   {"data": data}, {"y": gather_nd(data, idx, 0)}, None))
    # Every dimension indexed: scalars; int32 indices and data.
    data = rng.integers(-100, 100, (2, 3, 4)).astype(np.int32)
    idx = np.array([[1, 2, 3], [0, -1, -4], [1, 0, 2]], np.int32)
    result.append(("gathernd_elements", model("GatherND", data, idx),
                   {"data": data}, {"y": gather_nd(data, idx, 0)}, None))
    # Two batch dimensions.
    data = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    idx = rng.integers(-4, 4, (2, 3, 6, 1)).astype(np.int64)
    result.append(("gathernd_batch2",
                   model("GatherND", data, idx, batch_dims=2),
                   {"data": data}, {"y": gather_nd(data, idx, 2)}, None))
    # Rows replaced.
    data = rng.standard_normal((5, 3)).astype(np.float32)
    idx = np.array([[4], [0], [-3]], np.int64)
    upd = rng.standard_normal((3, 3)).astype(np.float32)
    result.append(("scatternd_rows", model("ScatterND", data, idx, upd),
                   {"data": data}, {"y": scatter_nd(data, idx, upd, "none")},
                   None))
    # Repeated indices accumulate (integer-valued floats: exact in any
    # order).
    data = rng.integers(-5, 5, (4, 4, 4)).astype(np.float32)
    idx = np.array([[0], [2], [0], [-4]], np.int64)
    upd = rng.integers(-5, 5, (4, 4, 4)).astype(np.float32)
    result.append(("scatternd_add",
                   model("ScatterND", data, idx, upd, reduction="add"),
                   {"data": data}, {"y": scatter_nd(data, idx, upd, "add")},
                   None))
    # Elements, max and min, int64.
    data = rng.integers(-50, 50, (3, 4)).astype(np.int64)
    idx = np.array([[0, 1], [2, -1], [0, 1], [1, 0]], np.int64)
    upd = rng.integers(-50, 50, 4).astype(np.int64)
    for reduction in ("max", "min"):
        result.append(("scatternd_" + reduction,
                       model("ScatterND", data, idx, upd, reduction=reduction),
                       {"data": data},
                       {"y": scatter_nd(data, idx, upd, reduction)}, None))
    return result


if __name__ == "__main__":
    sys.exit(run_cases(sys.argv[1], sys.argv[2], cases()))
