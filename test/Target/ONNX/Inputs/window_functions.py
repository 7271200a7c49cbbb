#!/usr/bin/python3
"""HannWindow, HammingWindow and BlackmanWindow for window-functions.test.

window_functions.py GRAPH_RUN DIR: each window, periodic and symmetric, its
size a model input (an input that decides shapes: graph-run imports the
model again with the value of the .npy file) read directly or through a
computation (Add of a constant), run at -O0 and -O3 and compared with
NumPy's evaluation of the ONNX definition in float64. Prints "ok NAME" or
"FAIL NAME: ...".
"""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

COEFFICIENTS = {"HannWindow": [0.5, -0.5],
                "HammingWindow": [25 / 46, -21 / 46],
                "BlackmanWindow": [0.42, -0.5, 0.08]}


def reference(op, size, periodic):
    n = np.arange(size, dtype=np.float64)
    period = size if periodic else size - 1
    return sum(a * np.cos(2 * np.pi * j * n / period)
               for j, a in enumerate(COEFFICIENTS[op])).astype(np.float32)


def main():
    graph_run, directory = sys.argv[1], sys.argv[2]
    status = 0
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
            path = os.path.join(directory, name + ".onnx")
            onnx.save(model, path)
            np.save(path + ".npy", np.array(12, np.int64))
            want = reference(op, 12, periodic)
            problems = []
            for level in ("0", "3"):
                out = "%s.O%s.npy" % (path, level)
                run = subprocess.run(
                    [graph_run, "-O" + level, "--no-cache", path,
                     path + ".npy", "--output=" + out],
                    capture_output=True, text=True)
                if run.returncode != 0:
                    problems.append("-O%s: %s" % (level, run.stderr.strip()))
                    continue
                got = np.load(out)
                if got.shape != want.shape or \
                        not np.allclose(got, want, rtol=1e-6, atol=1e-7):
                    problems.append("-O%s: %s, expected %s" % (level, got, want))
            if problems:
                status = 1
                print("FAIL %s: %s" % (name, "; ".join(problems)))
            else:
                print("ok %s" % name)
    return status


if __name__ == "__main__":
    sys.exit(main())
