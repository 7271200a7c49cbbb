#!/usr/bin/python3
"""ONNX Unique, for unique.test: unique.py GRAPH_RUN DIR [GRAPH_COMPILE]
runs each case through graph-run at -O0 and -O3 (and, given GRAPH_COMPILE,
from a shared library) against NumPy's np.unique; unique.py --models DIR
writes a model whose input is a constant (unique.test checks that it
folds).

Cases: the elements of a float tensor, sorted and in the order they first
occur; the rows of an int64 matrix (axis 0); slices along axis 1 and -1 of
a 3-D tensor; all elements distinct; all equal; a single element.
"""
import os
import sys

import numpy as np

sys.dont_write_bytecode = True
import case_runner  # noqa: E402
from case_runner import exact  # noqa: E402

OUTPUTS = ("y", "indices", "inverse_indices", "counts")


def model(x, axis, sorted_, initializer=False):
    from onnx import helper, numpy_helper
    from onnx.mapping import NP_TYPE_TO_TENSOR_TYPE
    kind = NP_TYPE_TO_TENSOR_TYPE[x.dtype]
    attrs = {"sorted": sorted_}
    if axis is not None:
        attrs["axis"] = axis
    inputs = [] if initializer else [
        helper.make_tensor_value_info("x", kind, list(x.shape))]
    graph = helper.make_graph(
        [helper.make_node("Unique", ["x"], list(OUTPUTS), **attrs)],
        "unique", inputs,
        [helper.make_tensor_value_info(name, kind if name == "y"
                                       else 7, None) for name in OUTPUTS],
        initializer=[numpy_helper.from_array(x, "x")] if initializer else [])
    return helper.make_model(graph,
                             opset_imports=[helper.make_opsetid("", 11)])


def reference(x, axis, sorted_):
    y, indices, inverse, counts = np.unique(
        x, return_index=True, return_inverse=True, return_counts=True,
        axis=axis)
    inverse = inverse.reshape(-1)
    if not sorted_:
        order = np.argsort(indices, kind="stable")
        place = np.empty_like(order)
        place[order] = np.arange(len(order))
        y = np.take(y, order, axis=0 if axis is None else axis)
        indices, counts, inverse = indices[order], counts[order], place[inverse]
    return {"y": y.astype(x.dtype), "indices": indices.astype(np.int64),
            "inverse_indices": inverse.astype(np.int64),
            "counts": counts.astype(np.int64)}


def case(name, x, axis=None, sorted_=1):
    return (name, model(x, axis, sorted_), {"x": x},
            reference(x, axis, sorted_), exact)


def cases():
    rng = np.random.default_rng(23)
    f = np.array([2, 1, 1, 3, 4, 3, -1.5, 2], np.float32)
    rows = rng.integers(-2, 2, (7, 3)).astype(np.int64)
    rows[5] = rows[1]
    cube = rng.integers(0, 2, (2, 6, 2)).astype(np.int32)
    return [
        case("elements_sorted", f),
        case("elements_unsorted", f, sorted_=0),
        case("rows", rows, axis=0),
        case("rows_unsorted", rows, axis=0, sorted_=0),
        case("slices_axis1", cube, axis=1),
        case("slices_last_axis", cube.transpose(0, 2, 1).copy(), axis=-1),
        case("distinct", rng.permutation(10).astype(np.float32)),
        case("all_equal", np.full((3, 4), 7, np.int64)),
        case("single", np.array([5.5], np.float32)),
    ]


def write_models(directory):
    import onnx
    x = np.array([3, 1, 3, 2], np.int64)
    onnx.save(model(x, None, 1, initializer=True),
              os.path.join(directory, "constant.onnx"))
    return 0


if __name__ == "__main__":
    sys.exit(case_runner.main(sys.argv, cases, {"--models": write_models}))
