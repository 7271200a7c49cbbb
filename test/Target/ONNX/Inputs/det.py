#!/usr/bin/python3
"""ONNX Det, for det.test: det.py GRAPH_RUN DIR runs each case through
graph-run at -O0 and -O3 against NumPy's np.linalg.det (LAPACK, float64).

Cases: one 2x2 matrix; a batch of 2x3 5x5 matrices; a matrix with zeros
on its diagonal (the pivots come from other rows); a singular matrix (a
row repeated: exactly 0); a 1x1 matrix; float64; a 12x12 matrix of large
magnitude.
"""
import sys

import numpy as np

sys.dont_write_bytecode = True
import case_runner  # noqa: E402
from case_runner import close  # noqa: E402


def model(shape, dtype):
    from onnx import TensorProto as T, helper
    kind = T.DOUBLE if dtype == np.float64 else T.FLOAT
    graph = helper.make_graph(
        [helper.make_node("Det", ["x"], ["y"])], "det",
        [helper.make_tensor_value_info("x", kind, list(shape))],
        [helper.make_tensor_value_info("y", kind, list(shape[:-2]))])
    return helper.make_model(graph,
                             opset_imports=[helper.make_opsetid("", 13)])


def case(name, x, rtol=1e-5):
    want = np.linalg.det(x.astype(np.float64))
    scale = float(np.max(np.abs(want))) if want.size else 1.0
    return (name, model(x.shape, x.dtype), {"x": x},
            {"y": np.asarray(want, x.dtype)}, close(rtol, rtol * scale))


def cases():
    rng = np.random.default_rng(19)
    f32 = np.float32
    pivots = np.array([[0, 2, 1, 3], [1, 0, 4, 1], [2, 5, 0, 1],
                       [3, 1, 2, 0]], f32)
    singular = rng.standard_normal((4, 4)).astype(f32)
    singular[2] = singular[0]
    return [
        case("det_2x2", np.array([[1, 2], [3, 4]], f32)),
        case("det_batch", rng.standard_normal((2, 3, 5, 5)).astype(f32)),
        case("det_pivots", pivots),
        case("det_singular", singular),
        case("det_1x1", np.array([[-2.5]], f32)),
        case("det_f64", rng.standard_normal((3, 6, 6)), rtol=1e-12),
        case("det_large", (rng.standard_normal((12, 12)) * 40).astype(f32),
             rtol=1e-4),
    ]


if __name__ == "__main__":
    sys.exit(case_runner.main(sys.argv, cases, {}))
