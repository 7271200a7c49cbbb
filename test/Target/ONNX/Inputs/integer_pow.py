#!/usr/bin/python3
"""Pow with integer operands for integer-pow.test, against NumPy and Python.

integer_pow.py GRAPH_RUN DIR: builds the models, runs each through graph-run
at -O0 and -O3, and prints "ok NAME" or "FAIL NAME: ..." per model.

Integer powers wrap modulo 2^bits (Python's exact power reduced to the type);
a negative exponent gives 0 unless the base is 1 or -1 (NumPy refuses it;
the dialect defines it so). An integer base with a float exponent is NumPy's
float64 power truncated to the base's type, as ONNX's reference computes.
"""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

sys.dont_write_bytecode = True
from case_runner import run_cases  # noqa: E402

TYPES = {np.int8: TensorProto.INT8, np.int32: TensorProto.INT32,
         np.int64: TensorProto.INT64, np.uint8: TensorProto.UINT8,
         np.float32: TensorProto.FLOAT}


def wrapped_power(base, exponent, dtype):
    bits = np.iinfo(dtype).bits
    out = []
    for b, e in zip(base.ravel().tolist(), exponent.ravel().tolist()):
        if e < 0:
            r = 1 if b == 1 else (-1 if e % 2 else 1) if b == -1 else 0
        else:
            r = pow(b, e, 1 << bits)
        out.append(r % (1 << bits))
    return np.array(out, np.uint64).astype(dtype).reshape(base.shape)


CASES = {
    # Wrapping, negative exponents, 0^0.
    "int32_int32": (np.array([3, -1, -1, 2, 1, 0, -7, 5], np.int32),
                    np.array([40, -3, -4, -1, -9, 0, 3, 13], np.int32)),
    # A 64-bit exponent that a 32-bit one would wrap: 2^(2^32 + 3).
    "int32_int64": (np.array([2, 3, -2], np.int32),
                    np.array([(1 << 32) + 3, 5, 7], np.int64)),
    "uint8_int64": (np.array([255, 2, 16], np.uint8),
                    np.array([3, 7, 2], np.int64)),
    "int8_int8": (np.array([-128, 127, 3, -3], np.int8),
                  np.array([2, 2, 5, 3], np.int8)),
    "int64_float": (np.array([4, 9, 2, -8], np.int64),
                    np.array([0.5, 0.5, 10.0, 1.0], np.float32)),
}


def reference(base, exponent):
    if exponent.dtype == np.float32:
        return np.power(base.astype(np.float64),
                        exponent.astype(np.float64)).astype(base.dtype)
    return wrapped_power(base.astype(np.int64), exponent.astype(np.int64),
                         base.dtype.type)


def main():
    cases = []
    for name, (base, exponent) in CASES.items():
        graph = helper.make_graph(
            [helper.make_node("Pow", ["x", "y"], ["z"])], name,
            [helper.make_tensor_value_info("x", TYPES[base.dtype.type],
                                           base.shape)],
            [helper.make_tensor_value_info("z", TYPES[base.dtype.type],
                                           base.shape)],
            [numpy_helper.from_array(exponent, "y")])
        model = helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", 15)])
        model.ir_version = 8
        cases.append((name, model, {"x": base},
                      {"z": reference(base, exponent)}, None))
    return run_cases(sys.argv[1], sys.argv[2], cases)


if __name__ == "__main__":
    sys.exit(main())
