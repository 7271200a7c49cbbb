#!/usr/bin/python3
"""NonZero for nonzero.test, an output of run-time size:
nonzero.py GRAPH_RUN DIR [GRAPH_COMPILE] runs each case through graph-run at
-O0 and -O3 (and, given GRAPH_COMPILE, through a shared library made by
graph-compile) against np.nonzero; nonzero.py --models DIR writes the
models the other checks of nonzero.test read.

Cases: floats with NaN, -0.0 and inf; no nonzero element (an empty
result); every element nonzero (the bound itself); int32, uint8 and bool;
ranks 1 to 4 and a scalar (one element, as ONNX Runtime reads it); NonZero
as the second of two outputs.
"""
import os
import sys

import numpy as np

sys.dont_write_bytecode = True
import case_runner  # noqa: E402
from case_runner import exact  # noqa: E402


def make_model(x_shape, onnx_type, second_output=False):
    from onnx import TensorProto, helper
    nodes = [helper.make_node("NonZero", ["x"], ["indices"])]
    outputs = [helper.make_tensor_value_info("indices", TensorProto.INT64,
                                             [len(x_shape) or 1, "n"])]
    if second_output:
        nodes.insert(0, helper.make_node("Neg", ["y"], ["negated"]))
        outputs.insert(0, helper.make_tensor_value_info(
            "negated", TensorProto.FLOAT, [3]))
    inputs = [helper.make_tensor_value_info("x", onnx_type, x_shape)]
    if second_output:
        inputs.append(helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                                    [3]))
    graph = helper.make_graph(nodes, "nonzero", inputs, outputs)
    return helper.make_model(graph,
                             opset_imports=[helper.make_opsetid("", 13)])


def reference(x):
    # ONNX Runtime reads a scalar as a tensor of one element.
    return np.array(np.nonzero(x.reshape(-1) if x.ndim == 0 else x),
                    dtype=np.int64)


def cases():
    from onnx import TensorProto
    rng = np.random.default_rng(3)
    floats = rng.standard_normal((3, 5)).astype(np.float32)
    floats[floats < 0.3] = 0.0
    floats[0, 1], floats[1, 2], floats[2, 0] = np.nan, -0.0, np.inf
    ints = rng.integers(-2, 3, size=(2, 3, 4)).astype(np.int32)
    bytes_ = rng.integers(0, 3, size=(7,)).astype(np.uint8)
    bools = rng.integers(0, 2, size=(2, 2, 2, 3)).astype(bool)
    result = []
    for name, x, onnx_type in [
            ("float_nan_negative_zero", floats, TensorProto.FLOAT),
            ("float_all_zero", np.zeros((4, 2), np.float32),
             TensorProto.FLOAT),
            ("float_all_nonzero", np.ones((2, 3), np.float32),
             TensorProto.FLOAT),
            ("int32_rank3", ints, TensorProto.INT32),
            ("uint8_rank1", bytes_, TensorProto.UINT8),
            ("bool_rank4", bools, TensorProto.BOOL),
            ("float_scalar", np.array(2.5, np.float32), TensorProto.FLOAT),
    ]:
        result.append((name, make_model(list(x.shape), onnx_type),
                       {"x": x}, {"indices": reference(x)}, exact))
    y = np.array([1.0, -2.0, 0.5], np.float32)
    result.append(("second_of_two_outputs",
                   make_model([3, 5], TensorProto.FLOAT, second_output=True),
                   {"x": floats, "y": y},
                   {"negated": -y, "indices": reference(floats)}, exact))
    return result


def write_models(directory):
    """The models that other checks read: NonZero of a [3, 5] float input,
    and of a constant."""
    import onnx
    from onnx import TensorProto, helper
    onnx.save(make_model([3, 5], TensorProto.FLOAT),
              os.path.join(directory, "nonzero.onnx"))
    np.save(os.path.join(directory, "x.npy"),
            np.array([[0, 1, 0, 2, 0], [0, 0, 0, 0, 0], [3, 0, 0, 0, 4]],
                     np.float32))
    # A constant input: NonZero folds, to an output of static shape.
    constant = helper.make_tensor("c", TensorProto.FLOAT, [2, 3],
                                  [0, 1, 0, 2, 0, 3])
    graph = helper.make_graph(
        [helper.make_node("NonZero", ["c"], ["i"])], "constant", [],
        [helper.make_tensor_value_info("i", TensorProto.INT64, None)],
        initializer=[constant])
    onnx.save(helper.make_model(graph,
                                opset_imports=[helper.make_opsetid("", 13)]),
              os.path.join(directory, "constant.onnx"))
    return 0


if __name__ == "__main__":
    sys.exit(case_runner.main(sys.argv, cases, {"--models": write_models}))
