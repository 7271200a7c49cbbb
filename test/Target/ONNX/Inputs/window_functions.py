#!/usr/bin/python3
"""HannWindow, HammingWindow and BlackmanWindow for window-functions.test.

window_functions.py GRAPH_RUN DIR: each window, periodic and symmetric, its
size a model input (an input that decides shapes: graph-run imports the
model again with the value of the .npy file) read directly or through a
computation (Add of a constant), run at -O0 and -O3 and compared with
NumPy's evaluation of the ONNX definition in float64. Prints "ok NAME" or
"FAIL NAME: ...".
"""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

sys.dont_write_bytecode = True
from case_runner import close, run_cases  # noqa: E402

COEFFICIENTS = {"HannWindow": [0.5, -0.5],
                "HammingWindow": [25 / 46, -21 / 46],
                "BlackmanWindow": [0.42, -0.5, 0.08]}


def reference(op, size, periodic):
    n = np.arange(size, dtype=np.float64)
    period = size if periodic else size - 1
    return sum(a * np.cos(2 * np.pi * j * n / period)
               for j, a in enumerate(COEFFICIENTS[op])).astype(np.float32)


def main():
    cases = []
    for op in COEFFICIENTS:
        for periodic in (1, 0):
            name = "%s_%s" % (op, "periodic" if periodic else "symmetric")
            # The size goes through an Add, so the window's input is computed
            # from the model input, not the input itself.
            nodes = [helper.make_node("Add", ["size", "zero"], ["n"]),
                     helper.make_node(op, ["n"], ["y"], periodic=periodic)]
            graph = helper.make_graph(
                nodes, name,
                [helper.make_tensor_value_info("size", TensorProto.INT64, [])],
                [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                [numpy_helper.from_array(np.array(0, np.int64), "zero")])
            model = helper.make_model(
                graph, opset_imports=[helper.make_opsetid("", 17)])
            model.ir_version = 8
            cases.append((name, model, {"size": np.array(12, np.int64)},
                          {"y": reference(op, 12, periodic)},
                          close(rtol=1e-6, atol=1e-7)))
    return run_cases(sys.argv[1], sys.argv[2], cases)


if __name__ == "__main__":
    sys.exit(main())
