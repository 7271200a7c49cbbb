#!/usr/bin/python3
"""TopK for top-k.test: top_k.py GRAPH_RUN DIR.

Each case through graph-run at -O0 and -O3 against a Python sort written
from the definition: the largest (or smallest) first, equal values in index
order, NaN ranked above every number; values and indices exact.
"""
import functools
import math
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

sys.dont_write_bytecode = True
from case_runner import run_cases  # noqa: E402

TYPES = {np.float32: TensorProto.FLOAT, np.int32: TensorProto.INT32,
         np.uint8: TensorProto.UINT8, np.int64: TensorProto.INT64}


def top_k(x, k, axis, largest):
    def rank(a, b):
        (va, ia), (vb, ib) = a, b
        na = isinstance(va, float) and math.isnan(va)
        nb = isinstance(vb, float) and math.isnan(vb)
        if na != nb:
            return -1 if na == largest else 1
        if not na and va != vb:
            return -1 if (va > vb) == largest else 1
        return -1 if ia < ib else 1
    moved = np.moveaxis(x, axis, -1)
    values = np.empty(moved.shape[:-1] + (k,), x.dtype)
    indices = np.empty(moved.shape[:-1] + (k,), np.int64)
    for row in np.ndindex(moved.shape[:-1]):
        items = sorted(((v.item(), i) for i, v in enumerate(moved[row])),
                       key=functools.cmp_to_key(rank))[:k]
        values[row] = [v for v, _ in items]
        indices[row] = [i for _, i in items]
    return np.moveaxis(values, -1, axis), np.moveaxis(indices, -1, axis)


def case(name, x, k, axis, largest, opset=11):
    inputs = ["x", "k"] if opset >= 10 else ["x"]
    attrs = dict(axis=axis, largest=largest) if opset >= 11 else dict(axis=axis)
    if opset < 10:
        attrs["k"] = k
    graph = helper.make_graph(
        [helper.make_node("TopK", inputs, ["values", "indices"], **attrs)],
        name,
        [helper.make_tensor_value_info("x", TYPES[x.dtype.type], x.shape)],
        [helper.make_tensor_value_info("values", TYPES[x.dtype.type], None),
         helper.make_tensor_value_info("indices", TensorProto.INT64, None)],
        [numpy_helper.from_array(np.array([k], np.int64), "k")]
        if opset >= 10 else [])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    values, indices = top_k(x, k, axis, largest)
    return (name, model, {"x": x}, {"values": values, "indices": indices},
            None)


def main():
    rng = np.random.default_rng(5)
    ties = rng.integers(-3, 4, (3, 9, 4)).astype(np.float32)
    ties[0, 2, 1] = ties[1, 5, 3] = ties[2, 0, 0] = np.nan
    ties[2, 4, 0] = np.nan
    cases = [
        # Ties and NaNs along a middle axis, largest and smallest.
        case("ties_largest", ties, 4, 1, 1),
        case("ties_smallest", ties, 5, -2, 0),
        # The whole axis: a full stable sort.
        case("full_sort", rng.standard_normal((2, 6)).astype(np.float32), 6,
             -1, 1),
        # Integers, the default axis; opset 1's attribute k.
        case("int32", rng.integers(-5, 5, (4, 10)).astype(np.int32), 3, -1,
             1),
        case("uint8_smallest", rng.integers(0, 256, (2, 8)).astype(np.uint8),
             2, 1, 0),
        case("opset1", rng.standard_normal((3, 5)).astype(np.float32), 2, -1,
             1, opset=1),
    ]
    return run_cases(sys.argv[1], sys.argv[2], cases)


if __name__ == "__main__":
    sys.exit(main())
