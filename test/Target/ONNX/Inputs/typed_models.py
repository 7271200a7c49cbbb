#!/usr/bin/python3
"""ONNX models for typed-import.test: typed_models.py NAME OUT.onnx"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def value(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def model(nodes, inputs, outputs, inits=(), opset=17):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def shape_subgraph():
    """A PyTorch-style shape computation: the batch size from Shape, the rest
    of the target computed with integer ops and a Cast, a Reshape to it, then
    a Slice whose end comes from Shape too, and an Expand to a computed shape:
    everything but the data ops folds at import."""
    i64 = lambda name, v: numpy_helper.from_array(np.array(v, np.int64), name)
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
        helper.make_node("Gather", ["s", "one"], ["c"], axis=0),
        helper.make_node("Gather", ["s", "two"], ["w"], axis=0),
        helper.make_node("Mul", ["c", "w"], ["cw"]),
        helper.make_node("Unsqueeze", ["n", "axes0"], ["n1"]),
        helper.make_node("Unsqueeze", ["cw", "axes0"], ["cw1"]),
        helper.make_node("Concat", ["n1", "cw1"], ["target"], axis=0),
        helper.make_node("Cast", ["target"], ["target32"], to=TensorProto.INT32),
        helper.make_node("Cast", ["target32"], ["target64"], to=TensorProto.INT64),
        helper.make_node("Reshape", ["x", "target64"], ["flat"]),
        helper.make_node("Div", ["cw1", "two1"], ["half"]),
        helper.make_node("Slice", ["flat", "zero1", "half", "one1"], ["y"]),
        helper.make_node("ConstantOfShape", ["one1"], ["ones"],
                         value=numpy_helper.from_array(np.array([1], np.int64))),
        helper.make_node("Concat", ["ones", "half"], ["eshape"], axis=0),
        helper.make_node("Expand", ["bias", "eshape"], ["z"]),
    ]
    inits = [i64("zero", 0), i64("one", 1), i64("two", 2), i64("axes0", [0]),
             i64("two1", [2]), i64("zero1", [0]), i64("one1", [1]),
             numpy_helper.from_array(np.array([0.5], np.float32), "bias")]
    return model(nodes, [value("x", TensorProto.FLOAT, [2, 3, 4])],
                 [value("y", TensorProto.FLOAT, [2, 6]),
                  value("z", TensorProto.FLOAT, [1, 6])], inits)


def typed():
    """Integer, bool, f16, f64 and uint8 inputs and outputs."""
    nodes = [
        helper.make_node("Add", ["i", "i"], ["i2"]),
        helper.make_node("Div", ["i2", "j"], ["q"]),
        helper.make_node("Greater", ["q", "j"], ["g"]),
        helper.make_node("And", ["g", "p"], ["b"]),
        helper.make_node("Where", ["b", "i", "q"], ["w"]),
        helper.make_node("Cast", ["h"], ["hf"], to=TensorProto.FLOAT),
        helper.make_node("Sqrt", ["d"], ["ds"]),
        helper.make_node("Max", ["u", "u2"], ["um"]),
        helper.make_node("ReduceSum", ["w", "axes"], ["rs"], keepdims=0),
        helper.make_node("ArgMax", ["hf"], ["am"], axis=1, keepdims=0),
    ]
    inits = [numpy_helper.from_array(np.array([200, 3], np.uint8), "u2"),
             numpy_helper.from_array(np.array([1], np.int64), "axes")]
    return model(nodes,
                 [value("i", TensorProto.INT64, [2, 3]), value("j", TensorProto.INT64, [3]),
                  value("p", TensorProto.BOOL, [2, 3]), value("h", TensorProto.FLOAT16, [2, 3]),
                  value("d", TensorProto.DOUBLE, [4]), value("u", TensorProto.UINT8, [2])],
                 [value("w", TensorProto.INT64, [2, 3]), value("b", TensorProto.BOOL, [2, 3]),
                  value("hf", TensorProto.FLOAT, [2, 3]), value("ds", TensorProto.DOUBLE, [4]),
                  value("um", TensorProto.UINT8, [2]), value("rs", TensorProto.INT64, [2]),
                  value("am", TensorProto.INT64, [2])], inits)


def unsupported21():
    """Opset 21: two unsupported operators, a shape that is only known at run
    time, and a STRING cast, all reported at once."""
    nodes = [
        helper.make_node("Relu", ["x"], ["a"], name="relu"),
        helper.make_node("TfIdfVectorizer", ["t"], ["tf"], name="tfidf", mode="TF",
                         min_gram_length=1, max_gram_length=1, max_skip_count=0,
                         ngram_counts=[0], ngram_indexes=[0], pool_int64s=[1]),
        helper.make_node("Reshape", ["a", "s"], ["r"], name="reshape"),
        helper.make_node("MaxRoiPool", ["m", "m"], ["dt"], name="roi_pool",
                         pooled_shape=[1, 1]),
        helper.make_node("Cast", ["x"], ["str"], name="cast", to=TensorProto.STRING),
    ]
    return model(nodes,
                 [value("x", TensorProto.FLOAT, [2, 3]), value("t", TensorProto.INT64, [4]),
                  value("s", TensorProto.INT64, [2]), value("m", TensorProto.FLOAT, [3, 3])],
                 [value("tf", TensorProto.FLOAT, [1]), value("r", TensorProto.FLOAT, [3, 2]),
                  value("dt", TensorProto.FLOAT, []), value("str", TensorProto.STRING, [2, 3])],
                 opset=21)


def legacy():
    """Opset 1 Not and GlobalAveragePool, opset 5 attribute forms of Reshape,
    Squeeze and Slice, opset 4 Add with `broadcast` and `axis`."""
    m1 = model([helper.make_node("Not", ["b"], ["nb"])],
               [value("b", TensorProto.BOOL, [3])], [value("nb", TensorProto.BOOL, [3])],
               opset=1)
    return m1


def legacy_attributes():
    nodes = [
        helper.make_node("Reshape", ["x"], ["r"], shape=[3, 2, 1]),
        helper.make_node("Squeeze", ["r"], ["s"], axes=[2]),
        helper.make_node("Slice", ["s"], ["sl"], starts=[1], ends=[100], axes=[0]),
        helper.make_node("Add", ["sl", "v"], ["y"], broadcast=1, axis=0),
    ]
    inits = [numpy_helper.from_array(np.array([10.0, 20.0], np.float32), "v")]
    return model(nodes, [value("x", TensorProto.FLOAT, [2, 3])],
                 [value("y", TensorProto.FLOAT, [2, 2])], inits, opset=4)


def main():
    name, out = sys.argv[1], sys.argv[2]
    m = {"shape_subgraph": shape_subgraph, "typed": typed, "unsupported21": unsupported21,
         "legacy": legacy, "legacy_attributes": legacy_attributes}[name]()
    onnx.save(m, out)


if __name__ == "__main__":
    main()
