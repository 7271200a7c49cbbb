"""Writes the small ONNX models of the importer tests.

Usage: make_model.py NAME OUT.onnx

Each model is built with onnx.helper at test time, so that no binary file is
committed. Weights are seeded NumPy values.
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)


def tensor(name, shape, low=-1.0, high=1.0):
    return numpy_helper.from_array(
        rng.uniform(low, high, size=shape).astype(np.float32), name)


def value(name, shape, elem=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, elem, shape)


def model(nodes, inputs, outputs, initializers=(), opset=13, value_info=()):
    graph = helper.make_graph(nodes, "test", inputs, outputs,
                              initializer=list(initializers),
                              value_info=list(value_info))
    m = helper.make_model(graph, producer_name="graph-tests",
                          opset_imports=[helper.make_opsetid("", opset)])
    # An IR version that onnx 1.12's checker accepts for every opset here.
    m.ir_version = 8
    return m


def conv_bn_relu_gemm():
    """x -> Conv(pads) -> BN -> Relu -> MaxPool -> GAP -> Flatten -> Gemm."""
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["conv"], name="conv1",
                         pads=[1, 0, 2, 1], strides=[1, 1]),
        helper.make_node("BatchNormalization",
                         ["conv", "scale", "bias", "mean", "var"], ["bn"],
                         name="bn1", epsilon=1e-3),
        helper.make_node("Relu", ["bn"], ["relu"], name="relu1"),
        helper.make_node("MaxPool", ["relu"], ["pool"], name="pool1",
                         kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("GlobalAveragePool", ["pool"], ["gap"], name="gap1"),
        helper.make_node("Flatten", ["gap"], ["flat"], name="flatten1"),
        helper.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["y"], name="fc1",
                         transB=1, alpha=0.5),
    ]
    inits = [
        tensor("w", [4, 3, 3, 3]), tensor("b", [4]),
        tensor("scale", [4]), tensor("bias", [4]), tensor("mean", [4]),
        tensor("var", [4], 0.5, 1.5),
        tensor("fc_w", [10, 4]), tensor("fc_b", [10]),
    ]
    return model(nodes, [value("x", [1, 3, 8, 8])], [value("y", [1, 10])],
                 inits)


def auto_pad():
    """Conv with SAME_UPPER, SAME_LOWER (stride 2: odd total padding) and
    VALID; kernel_shape absent on the first."""
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["upper"], name="upper",
                         auto_pad="SAME_UPPER", strides=[2, 2]),
        helper.make_node("Conv", ["x", "w"], ["lower"], name="lower",
                         auto_pad="SAME_LOWER", strides=[2, 2],
                         kernel_shape=[4, 4]),
        helper.make_node("Conv", ["x", "w"], ["valid"], name="valid",
                         auto_pad="VALID", dilations=[2, 1]),
        helper.make_node("AveragePool", ["x"], ["avg"], name="avg",
                         kernel_shape=[3, 3], auto_pad="SAME_UPPER",
                         count_include_pad=1),
        helper.make_node("MaxPool", ["x"], ["ceil"], name="ceil",
                         kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1),
    ]
    return model(nodes, [value("x", [1, 2, 7, 7])],
                 [value("upper", [1, 3, 4, 4]), value("lower", [1, 3, 4, 4]),
                  value("valid", [1, 3, 1, 4]), value("avg", [1, 2, 7, 7]),
                  value("ceil", [1, 2, 4, 4])],
                 [tensor("w", [3, 2, 4, 4])])


def clip(opset):
    if opset < 11:
        nodes = [helper.make_node("Clip", ["x"], ["y"], name="clip", min=0.0,
                                  max=6.0),
                 helper.make_node("Clip", ["x"], ["z"], name="clip_default")]
        inits = []
    else:
        nodes = [helper.make_node("Clip", ["x", "lo", "hi"], ["y"],
                                  name="clip"),
                 helper.make_node("Clip", ["x", "", "hi"], ["z"],
                                  name="clip_max_only")]
        inits = [numpy_helper.from_array(np.array(0.0, np.float32), "lo"),
                 numpy_helper.from_array(np.array(6.0, np.float32), "hi")]
    return model(nodes, [value("x", [2, 3])],
                 [value("y", [2, 3]), value("z", [2, 3])], inits, opset=opset)


def softmax(opset):
    nodes = [helper.make_node("Softmax", ["x"], ["y"], name="softmax"),
             helper.make_node("Softmax", ["x"], ["z"], name="softmax_last",
                              axis=-1)]
    return model(nodes, [value("x", [2, 3, 4])],
                 [value("y", [2, 3, 4]), value("z", [2, 3, 4])], opset=opset)


def shapes():
    """Reshape with 0 and -1 (shape from an initializer and from a Constant
    node), Transpose (default and explicit perm), Concat, Identity."""
    nodes = [
        helper.make_node("Constant", [], ["shape2"], name="shape_const",
                         value=numpy_helper.from_array(
                             np.array([-1, 6], np.int64), "ignored")),
        helper.make_node("Reshape", ["x", "shape1"], ["r1"], name="reshape1"),
        helper.make_node("Reshape", ["x", "shape2"], ["r2"], name="reshape2"),
        helper.make_node("Transpose", ["x"], ["t1"], name="transpose1"),
        helper.make_node("Transpose", ["x"], ["t2"], name="transpose2",
                         perm=[0, 2, 1]),
        helper.make_node("Concat", ["x", "x"], ["c"], name="concat",
                         axis=-1),
        helper.make_node("Identity", ["c"], ["id"], name="identity"),
    ]
    inits = [numpy_helper.from_array(np.array([0, -1], np.int64), "shape1")]
    return model(nodes, [value("x", [2, 3, 4])],
                 [value("r1", [2, 12]), value("r2", [4, 6]),
                  value("t1", [4, 3, 2]), value("t2", [2, 4, 3]),
                  value("id", [2, 3, 8])], inits)


def constants():
    """Constant nodes (value, value_float, value_floats), an initializer that
    is also listed as an input, and a large initializer (dense_resource)."""
    nodes = [
        helper.make_node("Constant", [], ["k"], name="k",
                         value=numpy_helper.from_array(
                             np.full([1, 4], 2.0, np.float32))),
        helper.make_node("Constant", [], ["s"], name="s", value_float=0.5),
        helper.make_node("Constant", [], ["v"], name="v",
                         value_floats=[1.0, 2.0, 3.0, 4.0]),
        helper.make_node("Mul", ["x", "k"], ["m"], name="mul"),
        helper.make_node("Add", ["m", "s"], ["a"], name="add"),
        helper.make_node("Sub", ["a", "v"], ["d"], name="sub"),
        helper.make_node("Div", ["d", "both"], ["q"], name="div"),
        helper.make_node("MatMul", ["q", "big"], ["y"], name="matmul"),
    ]
    inits = [tensor("both", [3, 4], 1.0, 2.0), tensor("big", [4, 32])]
    return model(nodes,
                 [value("x", [3, 4]), value("both", [3, 4])],
                 [value("y", [3, 32])], inits)


def misc():
    """Sigmoid, Tanh, Dropout (inference), RandomUniform."""
    nodes = [
        helper.make_node("Sigmoid", ["x"], ["s"], name="sigmoid"),
        helper.make_node("Tanh", ["s"], ["t"], name="tanh"),
        helper.make_node("Dropout", ["t", "ratio"], ["d"], name="dropout"),
        helper.make_node("RandomUniform", [], ["r"], name="random",
                         shape=[2, 3], low=-1.0, high=2.0, seed=7.0),
        helper.make_node("Add", ["d", "r"], ["y"], name="add"),
    ]
    inits = [numpy_helper.from_array(np.array(0.25, np.float32), "ratio")]
    return model(nodes, [value("x", [2, 3])], [value("y", [2, 3])], inits)


def squares():
    """Pow by a constant 2 (a scalar, and a row that broadcasts without
    changing x's shape), by 3, and by a 2 that broadcasts x to more rows."""
    nodes = [
        helper.make_node("Pow", ["x", "two"], ["a"], name="square"),
        helper.make_node("Pow", ["a", "twos"], ["b"], name="square_row"),
        helper.make_node("Pow", ["b", "three"], ["c"], name="cube"),
        helper.make_node("Pow", ["c", "tall"], ["y"], name="broadcast"),
    ]
    inits = [numpy_helper.from_array(np.array(2.0, np.float32), "two"),
             numpy_helper.from_array(np.full((1, 4), 2.0, np.float32), "twos"),
             numpy_helper.from_array(np.array(3.0, np.float32), "three"),
             numpy_helper.from_array(np.full((2, 3, 4), 2.0, np.float32), "tall")]
    return model(nodes, [value("x", [3, 4])], [value("y", [2, 3, 4])], inits)


def tanh_gelu():
    """GELU's tanh form as PyTorch exports it (x * (x * x), ...,
    (x * (tanh(.) + 1)) * 0.5), and as HuggingFace's NewGELU writes it
    (0.5 * x first, Pow(x, 3)): a different order of operations."""
    def const(name, v):
        return numpy_helper.from_array(np.array(v, np.float32), name)
    nodes = [
        helper.make_node("Mul", ["x", "x"], ["sq"]),
        helper.make_node("Mul", ["x", "sq"], ["cube"]),
        helper.make_node("Mul", ["k", "cube"], ["term"]),
        helper.make_node("Add", ["x", "term"], ["arg"]),
        helper.make_node("Mul", ["c", "arg"], ["scaled"]),
        helper.make_node("Tanh", ["scaled"], ["t"]),
        helper.make_node("Add", ["one", "t"], ["shifted"]),
        helper.make_node("Mul", ["x", "shifted"], ["prod"]),
        helper.make_node("Mul", ["prod", "half"], ["y"]),
        helper.make_node("Mul", ["half", "x"], ["hx"]),
        helper.make_node("Pow", ["x", "three"], ["cube2"]),
        helper.make_node("Mul", ["k", "cube2"], ["term2"]),
        helper.make_node("Add", ["x", "term2"], ["arg2"]),
        helper.make_node("Mul", ["c", "arg2"], ["scaled2"]),
        helper.make_node("Tanh", ["scaled2"], ["t2"]),
        helper.make_node("Add", ["one", "t2"], ["shifted2"]),
        helper.make_node("Mul", ["hx", "shifted2"], ["z"]),
    ]
    inits = [const("k", 0.044715), const("c", 0.7978845608028654), const("one", 1.0),
             const("half", 0.5), const("three", 3.0)]
    return model(nodes, [value("x", [2, 5])], [value("y", [2, 5]), value("z", [2, 5])],
                 inits)


def norms():
    """Opset 17. LayerNormalization over the last axis and over the last two
    (the op), and with its Mean output used (written out); LayerNorm as
    PyTorch exports it before opset 17 (c), RMSNorm as LLaMA's (d: Pow,
    rsqrt as 1 / Sqrt, Mul, Mul by the weight), and three look-alikes that
    are not normalizations of a row: epsilon added after the square root
    (e), a scale that varies between rows (f), a mean over a leading axis
    (g)."""
    def const(name, v):
        return numpy_helper.from_array(np.asarray(v, np.float32), name)
    rng = np.random.RandomState(0)
    nodes = [
        helper.make_node("LayerNormalization", ["x", "s6", "b6"], ["a"],
                         epsilon=1e-3),
        helper.make_node("LayerNormalization", ["x", "s56"], ["b"], axis=1),
        helper.make_node("LayerNormalization", ["x", "s6"], ["m", "mean"]),
        helper.make_node("Add", ["m", "mean"], ["h"]),
        # c: PyTorch's nn.LayerNorm at opset 13 (eps 1e-12, as BERT's).
        helper.make_node("ReduceMean", ["x"], ["c_mean"], axes=[-1]),
        helper.make_node("Sub", ["x", "c_mean"], ["c_d"]),
        helper.make_node("Pow", ["c_d", "two"], ["c_dd"]),
        helper.make_node("ReduceMean", ["c_dd"], ["c_var"], axes=[-1]),
        helper.make_node("Add", ["c_var", "eps12"], ["c_ve"]),
        helper.make_node("Sqrt", ["c_ve"], ["c_s"]),
        helper.make_node("Div", ["c_d", "c_s"], ["c_n"]),
        helper.make_node("Mul", ["c_n", "s6"], ["c_sc"]),
        helper.make_node("Add", ["c_sc", "b6"], ["c"]),
        # d: RMSNorm.
        helper.make_node("Pow", ["x", "two"], ["d_sq"]),
        helper.make_node("ReduceMean", ["d_sq"], ["d_ms"], axes=[2]),
        helper.make_node("Add", ["d_ms", "eps6"], ["d_me"]),
        helper.make_node("Sqrt", ["d_me"], ["d_s"]),
        helper.make_node("Div", ["one", "d_s"], ["d_r"]),
        helper.make_node("Mul", ["x", "d_r"], ["d_n"]),
        helper.make_node("Mul", ["s6", "d_n"], ["d"]),
        # e: sqrt(var) + eps.
        helper.make_node("ReduceMean", ["x"], ["e_mean"], axes=[-1]),
        helper.make_node("Sub", ["x", "e_mean"], ["e_d"]),
        helper.make_node("Mul", ["e_d", "e_d"], ["e_dd"]),
        helper.make_node("ReduceMean", ["e_dd"], ["e_var"], axes=[-1]),
        helper.make_node("Sqrt", ["e_var"], ["e_s"]),
        helper.make_node("Add", ["e_s", "eps6"], ["e_se"]),
        helper.make_node("Div", ["e_d", "e_se"], ["e"]),
        # f: a scale of one value per element, not per row position.
        helper.make_node("ReduceMean", ["x"], ["f_mean"], axes=[-1]),
        helper.make_node("Sub", ["x", "f_mean"], ["f_d"]),
        helper.make_node("Mul", ["f_d", "f_d"], ["f_dd"]),
        helper.make_node("ReduceMean", ["f_dd"], ["f_var"], axes=[-1]),
        helper.make_node("Add", ["f_var", "eps6"], ["f_ve"]),
        helper.make_node("Sqrt", ["f_ve"], ["f_s"]),
        helper.make_node("Div", ["f_d", "f_s"], ["f_n"]),
        helper.make_node("Mul", ["f_n", "s256"], ["f"]),
        # g: normalized over axis 1, a leading one.
        helper.make_node("ReduceMean", ["x"], ["g_mean"], axes=[1]),
        helper.make_node("Sub", ["x", "g_mean"], ["g_d"]),
        helper.make_node("Mul", ["g_d", "g_d"], ["g_dd"]),
        helper.make_node("ReduceMean", ["g_dd"], ["g_var"], axes=[1]),
        helper.make_node("Add", ["g_var", "eps6"], ["g_ve"]),
        helper.make_node("Sqrt", ["g_ve"], ["g_s"]),
        helper.make_node("Div", ["g_d", "g_s"], ["g"]),
    ]
    inits = [const("s6", rng.uniform(0.5, 1.5, 6)),
             const("b6", rng.uniform(-1, 1, 6)),
             const("s56", rng.uniform(0.5, 1.5, (5, 6))),
             const("s256", rng.uniform(0.5, 1.5, (2, 5, 6))),
             const("two", 2.0), const("one", 1.0), const("eps12", 1e-12),
             const("eps6", 1e-6)]
    outputs = [value(n, [2, 5, 6]) for n in "abhcdefg"]
    return model(nodes, [value("x", [2, 5, 6])], outputs, inits, opset=17)


def unsupported():
    """Two unsupported operators, and one node downstream of them."""
    nodes = [
        helper.make_node("Relu", ["x"], ["a"], name="ok"),
        helper.make_node("StringNormalizer", ["a"], ["b"], name="normalize"),
        helper.make_node("Relu", ["b"], ["c"], name="after"),
        helper.make_node("MaxRoiPool", ["c", "c"], ["y"], name="roi_pool",
                         pooled_shape=[1, 1]),
    ]
    return model(nodes, [value("x", [2, 3])], [value("y", [2, 3])])


def later_opset():
    """Operators of later opsets than the model imports (12): Gelu (20) and
    Trilu (14), and one it has (Relu)."""
    nodes = [
        helper.make_node("Gelu", ["x"], ["a"], name="gelu"),
        helper.make_node("Relu", ["x"], ["b"], name="relu"),
        helper.make_node("Trilu", ["b"], ["y"], name="trilu"),
    ]
    return model(nodes, [value("x", [2, 3])], [value("y", [2, 3])], opset=12)


def symbolic():
    nodes = [helper.make_node("Relu", ["x"], ["y"], name="relu")]
    return model(nodes, [value("x", ["batch", 3, 4, 4])],
                 [value("y", ["batch", 3, 4, 4])])


def symbolic_shared():
    """Two inputs that share the symbol N."""
    nodes = [helper.make_node("Add", ["x", "z"], ["y"], name="add")]
    return model(nodes, [value("x", ["N", 4]), value("z", ["N", 4])],
                 [value("y", ["N", 4])])


def shape_input():
    """A Reshape whose target shape is a model input, then a Slice whose
    ends are one: their values decide the shapes."""
    nodes = [helper.make_node("Reshape", ["x", "shape"], ["r"], name="reshape"),
             helper.make_node("Slice", ["r", "starts", "ends"], ["y"],
                              name="slice")]
    return model(nodes, [value("x", [2, 3, 4]),
                         value("shape", [2], TensorProto.INT64),
                         value("starts", [1], TensorProto.INT64),
                         value("ends", [1], TensorProto.INT64)],
                 [value("y", ["rows", "cols"])])


def external(write_data):
    """A 256-element initializer stored in weights.bin next to the model."""
    w = tensor("w", [16, 16])
    m = model([helper.make_node("MatMul", ["x", "w"], ["y"], name="matmul")],
              [value("x", [2, 16])], [value("y", [2, 16])], [w])
    return m, w


def overflow(kind):
    """A node whose attributes or shape input push the importer's shape
    arithmetic past int64: pads near 2^62 on a Conv, dilations near 2^62 on
    a Conv, a Reshape target of 2^30 x 2^30 x 2^30 elements."""
    x = value("x", [1, 1, 4, 4])
    w = tensor("w", [1, 1, 2, 2])
    big = 2**62
    if kind == "pads":
        node = helper.make_node("Conv", ["x", "w"], ["y"], name="conv",
                                pads=[big, big, big, big])
    elif kind == "dilations":
        node = helper.make_node("Conv", ["x", "w"], ["y"], name="conv",
                                dilations=[big, 1])
    else:
        shape = numpy_helper.from_array(
            np.array([2**30, 2**30, 2**30, 0], np.int64), "shape")
        node = helper.make_node("Reshape", ["x", "shape"], ["y"],
                                name="reshape")
        return model([node], [x], [value("y", [1])], [shape])
    return model([node], [x], [value("y", [1, 1, 1, 1])], [w])


def not_finite(kind):
    """Float attributes and inputs that the importer converts to integers:
    a RandomUniform seed of NaN, Resize scales of NaN and of 1e30 (UBSan
    found the conversions)."""
    x = value("x", [1, 1, 4, 4])
    if kind == "seed":
        node = helper.make_node("RandomUniform", [], ["y"], name="random",
                                shape=[2, 2], seed=float("nan"))
        return model([node], [], [value("y", [2, 2])])
    factor = float("nan") if kind == "nan_scale" else 1e30
    scales = numpy_helper.from_array(
        np.array([1, 1, factor, 1], np.float32), "scales")
    node = helper.make_node("Resize", ["x", "", "scales"], ["y"],
                            name="resize")
    return model([node], [x], [value("y", [1, 1, 4, 4])], [scales])


def nested(depth):
    """If nodes nested `depth` deep in their then-branches: protobuf refuses
    messages nested over 100 deep, before any recursion of the importer."""
    out = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])
    leaf = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["y"])], "leaf", [], [out])
    g = leaf
    for d in range(depth):
        g = helper.make_graph(
            [helper.make_node("If", ["c"], ["y"], then_branch=g,
                              else_branch=leaf)], "g%d" % d, [], [out])
    return helper.make_model(g)


def not_a_model():
    """A valid protobuf that also parses as a ModelProto (its field 1 is
    unknown there, its field 2 a producer_name), but has no graph."""
    return onnx.StringStringEntryProto(key="hello", value="world")


def main():
    name, out = sys.argv[1], sys.argv[2]
    simple = {
        "conv_bn_relu_gemm": conv_bn_relu_gemm,
        "auto_pad": auto_pad,
        "clip6": lambda: clip(6),
        "clip13": lambda: clip(13),
        "softmax11": lambda: softmax(11),
        "softmax13": lambda: softmax(13),
        "shapes": shapes,
        "constants": constants,
        "misc": misc,
        "squares": squares,
        "tanh_gelu": tanh_gelu,
        "norms": norms,
        "unsupported": unsupported,
        "symbolic": symbolic,
        "symbolic_shared": symbolic_shared,
        "shape_input": shape_input,
        "overflow_pads": lambda: overflow("pads"),
        "overflow_dilations": lambda: overflow("dilations"),
        "overflow_reshape": lambda: overflow("reshape"),
        "nan_seed": lambda: not_finite("seed"),
        "nan_scale": lambda: not_finite("nan_scale"),
        "huge_scale": lambda: not_finite("huge_scale"),
    }
    if name in simple:
        m = simple[name]()
        onnx.checker.check_model(m)
        onnx.save(m, out)
    elif name in ("external", "external_missing"):
        m, w = external(True)
        onnx.save_model(m, out, save_as_external_data=True,
                        all_tensors_to_one_file=True, location="weights.bin",
                        size_threshold=0)
        if name == "external_missing":
            os.remove(os.path.join(os.path.dirname(out), "weights.bin"))
    elif name == "clip6_int16":
        # Clip-6 is defined on floats only, so the checker would refuse the
        # model; the importer takes it and must not convert -FLT_MAX blindly.
        m = model([helper.make_node("Clip", ["x"], ["y"], name="clip_default")],
                  [value("x", [2, 3], TensorProto.INT16)],
                  [value("y", [2, 3], TensorProto.INT16)], opset=6)
        onnx.save(m, out)
    elif name == "later_opset":
        # Invalid ONNX (the checker refuses it), as a hand-edited or
        # mis-exported model is: the importer must say so.
        onnx.save(later_opset(), out)
    elif name == "nested":
        with open(out, "wb") as f:
            f.write(nested(500).SerializeToString())
    elif name == "not_a_model":
        with open(out, "wb") as f:
            f.write(not_a_model().SerializeToString())
    else:
        sys.exit("unknown model " + name)


if __name__ == "__main__":
    main()
