"""Writes the small ONNX models of the ONNX import tests.

usage:
  gen_onnx_models.py DIR FAMILY...
      Writes, for every case of each FAMILY: DIR/CASE.onnx, its inputs
      DIR/CASE.in.NAME.npy (NAME through onnx_reference.file_name) and
      DIR/FAMILY.cases, the list of the family's cases that
      `onnx_reference.py check DIR FAMILY` checks.
  gen_onnx_models.py --run-lines FAMILY...
      Prints the lit RUN lines that run each case with graph-run at -O0 and
      -O3, inputs and outputs given by their ONNX names (in the reverse of
      the graph's order, so that a match by position would fail).
  gen_onnx_models.py --list
      Prints the families and their cases.

The lit tests of test/Target/ONNX/ops hold the RUN lines that --run-lines
prints; since the checker reports a missing output as a failure, a case added
here without its RUN lines fails its family's test.

Every model is valid for its opset (onnx.checker with full_check), and its
output shapes, as the NumPy reference computes them, must agree with ONNX's
own shape inference. Inputs and weights come from a numpy RandomState seeded
from the case's name, so a case does not change when others are added.
"""

import os
import sys
import zlib

# Run from the source tree: leave no __pycache__ there.
sys.dont_write_bytecode = True

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnx_reference  # noqa: E402
from onnx_reference import file_name, ref  # noqa: E402

F32 = np.float32

# The IR version that an exporter of each opset writes (onnx/helper.py's
# VERSION_TABLE).
IR_VERSION = {10: 5, 11: 6, 12: 7, 13: 7, 14: 7, 15: 8, 16: 8, 17: 8}

#===------------------------------------------------------------------------===#
# Building a case
#===------------------------------------------------------------------------===#


class Case:
    def __init__(self, name, opset):
        self.name = name
        self.opset = opset
        self.rng = np.random.RandomState(zlib.crc32(name.encode()))
        self.inputs = []   # ValueInfoProtos
        self.feeds = {}    # input name -> value
        self.initializers = []
        self.listed_initializers = []  # initializers also listed as inputs
        self.nodes = []
        self.outputs = []
        self.meta = {}
        self.counter = 0

    # Values.
    def uniform(self, shape, low=-1.0, high=1.0):
        return self.rng.uniform(low, high, shape).astype(F32)

    def specials_and_random(self, rows=2, scale=10.0):
        """Every IEEE corner case of reference.py in the first row, random
        values in the others."""
        special = ref.specials()
        rest = self.uniform((rows - 1, special.size), -scale, scale)
        return np.concatenate([special[None, :], rest]).astype(F32)

    # Graph.
    def input(self, name, value):
        value = np.ascontiguousarray(value, F32)
        self.inputs.append(helper.make_tensor_value_info(
            name, TensorProto.FLOAT, value.shape))
        self.feeds[name] = value
        return name

    def init(self, name, value, listed=False):
        """An initializer; `listed` also lists it among the graph inputs, as
        exporters did before IR version 4."""
        value = np.asarray(value)
        if value.dtype.kind == "f":
            value = value.astype(F32)
        tensor = numpy_helper.from_array(value, name)
        self.initializers.append(tensor)
        if listed:
            self.listed_initializers.append(helper.make_tensor_value_info(
                name, tensor.data_type, value.shape))
        return name

    def node(self, op, inputs, output=None, **attrs):
        self.counter += 1
        output = output or "%s_%d" % (op.lower(), self.counter)
        self.nodes.append(helper.make_node(
            op, inputs, [output], name="%s_%d" % (op, self.counter), **attrs))
        return output

    def const(self, value, output=None):
        """A Constant node holding `value`."""
        value = np.asarray(value)
        if value.dtype.kind == "f":
            value = value.astype(F32)
        self.counter += 1
        name = output or "const_%d" % self.counter
        return self.node("Constant", [], name, value=numpy_helper.from_array(
            value, name + "_value"))

    def output(self, name, compare=None):
        self.outputs.append(name)
        if compare:
            self.meta["compare:" + name] = compare

    def compare(self, mode, o3=None):
        self.meta["compare"] = mode
        if o3:
            self.meta["compare.O3"] = o3

    # Model.
    def model(self, output_shapes=None):
        outputs = [helper.make_tensor_value_info(
            name, TensorProto.FLOAT,
            output_shapes[name] if output_shapes else None)
            for name in self.outputs]
        graph = helper.make_graph(
            self.nodes, self.name, self.inputs + self.listed_initializers,
            outputs, self.initializers)
        model = helper.make_model(
            graph, producer_name="gen_onnx_models",
            opset_imports=[helper.make_opsetid("", self.opset)],
            ir_version=IR_VERSION[self.opset])
        helper.set_model_props(model, self.meta)
        return model


def finish(case):
    """The case's model, checked: the reference's output shapes agree with
    ONNX shape inference, and the model is valid for its opset."""
    model = case.model()
    expected = onnx_reference.run(model, case.feeds)
    inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    for out in inferred.graph.output:
        shape = out.type.tensor_type.shape
        if not out.type.tensor_type.HasField("shape") or any(
                not d.HasField("dim_value") for d in shape.dim):
            continue  # not inferred (a shape from Constant's value_ints)
        dims = tuple(d.dim_value for d in shape.dim)
        if dims != expected[out.name].shape:
            raise SystemExit("%s: output %s: ONNX infers shape %s, the "
                             "reference computes %s" % (
                                 case.name, out.name, dims,
                                 expected[out.name].shape))
    model = case.model({name: value.shape for name, value in expected.items()})
    onnx.checker.check_model(model, full_check=True)
    return model

#===------------------------------------------------------------------------===#
# Cases
#===------------------------------------------------------------------------===#

FAMILIES = {}


def case(family, opset):
    """Registers the decorated builder as a case of `family` at `opset`,
    named after the function."""
    def register(build):
        FAMILIES.setdefault(family, []).append((build.__name__, opset, build))
        return build
    return register


def conv_weights(c, f, cg, kh, kw, bias=True):
    w = c.init("W", c.uniform((f, cg, kh, kw)))
    return [w, c.init("B", c.uniform((f,)))] if bias else [w]

# Conv: explicit pads in the ONNX order [top, left, bottom, right], strides,
# dilations, groups, every auto_pad with odd total padding (where SAME_UPPER
# and SAME_LOWER differ), weights as initializers, as inputs, and as
# initializers listed among the inputs.


@case("conv", 11)
def conv_basic(c):
    c.node("Conv", [c.input("X", c.uniform((1, 3, 7, 7)))]
           + conv_weights(c, 4, 3, 3, 3), "Y")
    c.output("Y")


@case("conv", 13)
def conv_pads_asym(c):
    # [top 1, left 0, bottom 2, right 3]: 1x5x7x9.
    c.node("Conv", [c.input("input", c.uniform((1, 3, 6, 7)))]
           + conv_weights(c, 5, 3, 3, 2, bias=False), "output",
           pads=[1, 0, 2, 3])
    c.output("output")


@case("conv", 17)
def conv_strides_dilations(c):
    # OH = (9 + 1 + 0 - 3) // 2 + 1 = 4, OW = 10 + 2 + 1 - 5 + 1 = 9.
    c.node("Conv", [c.input("X", c.uniform((1, 2, 9, 10)))]
           + conv_weights(c, 3, 2, 3, 3), "Y", kernel_shape=[3, 3],
           strides=[2, 1], dilations=[1, 2], pads=[1, 2, 0, 1])
    c.output("Y")


@case("conv", 12)
def conv_groups(c):
    c.node("Conv", [c.input("X", c.uniform((2, 4, 6, 6)))]
           + conv_weights(c, 6, 2, 3, 3), "Y", group=2, pads=[1, 1, 1, 1])
    c.output("Y")


@case("conv", 14)
def conv_depthwise(c):
    c.node("Conv", [c.input("X", c.uniform((1, 4, 7, 7)))]
           + conv_weights(c, 4, 1, 3, 3), "Y", group=4, strides=[2, 2],
           pads=[1, 1, 1, 1])
    c.output("Y")


@case("conv", 11)
def conv_same(c):
    # H: 6 by stride 2, kernel 3: 3 rows, 1 padding row. W: 7 by stride 1,
    # kernel 4: 3 padding columns. UPPER pads [0, 1, 1, 2], LOWER [1, 2, 0, 1].
    x = c.input("X", c.uniform((1, 2, 6, 7)))
    w = conv_weights(c, 3, 2, 3, 4)
    c.node("Conv", [x] + w, "Y_upper", auto_pad="SAME_UPPER", strides=[2, 1])
    c.node("Conv", [x] + w, "Y_lower", auto_pad="SAME_LOWER", strides=[2, 1])
    c.output("Y_upper")
    c.output("Y_lower")


@case("conv", 15)
def conv_same_dilated(c):
    # H: kernel 2 dilated by 3 spans 4: 3 padding rows. W: 8 by stride 2,
    # kernel 3: 1 padding column.
    x = c.input("X", c.uniform((1, 3, 7, 8)))
    w = conv_weights(c, 4, 3, 2, 3, bias=False)
    for mode in ("SAME_UPPER", "SAME_LOWER"):
        c.node("Conv", [x] + w, "Y_" + mode.lower(), auto_pad=mode,
               dilations=[3, 1], strides=[1, 2])
        c.output("Y_" + mode.lower())


@case("conv", 16)
def conv_valid(c):
    # OH = (8 - 3) // 2 + 1 = 3, OW = (9 - 3) // 2 + 1 = 4.
    c.node("Conv", [c.input("X", c.uniform((1, 3, 8, 9)))]
           + conv_weights(c, 2, 3, 3, 3), "Y", auto_pad="VALID",
           strides=[2, 2])
    c.output("Y")


@case("conv", 17)
def conv_notset(c):
    # Every attribute spelled out, auto_pad NOTSET included.
    c.node("Conv", [c.input("X", c.uniform((1, 2, 5, 5)))]
           + conv_weights(c, 3, 2, 3, 3), "Y", auto_pad="NOTSET",
           kernel_shape=[3, 3], pads=[2, 1, 0, 1], strides=[1, 1],
           dilations=[1, 1], group=1)
    c.output("Y")


@case("conv", 13)
def conv_pointwise(c):
    c.node("Conv", [c.input("X", c.uniform((2, 8, 5, 5)))]
           + conv_weights(c, 16, 8, 1, 1), "Y")
    c.output("Y")


@case("conv", 11)
def conv_weight_inputs(c):
    # Weights that are graph inputs, given by name in another order.
    c.node("Conv", [c.input("x", c.uniform((1, 3, 6, 6))),
                    c.input("weight", c.uniform((4, 3, 3, 3))),
                    c.input("bias", c.uniform((4,)))], "y",
           pads=[1, 1, 1, 1])
    c.output("y")


@case("conv", 11)
def conv_listed_initializers(c):
    # W and B are initializers that are also graph inputs: constants with a
    # default value; only X is given.
    c.node("Conv", [c.input("X", c.uniform((1, 2, 5, 5))),
                    c.init("W", c.uniform((3, 2, 3, 3)), listed=True),
                    c.init("B", c.uniform((3,)), listed=True)], "Y")
    c.output("Y")

# Pools: padded cells never win a max, so the inputs of padded max pools are
# all negative: a zero padding would show.


@case("pool", 11)
def maxpool_basic(c):
    x = c.input("X", c.uniform((1, 3, 6, 7)))
    c.node("MaxPool", [x], "Y_k2s2", kernel_shape=[2, 2], strides=[2, 2])
    c.node("MaxPool", [x], "Y_k3", kernel_shape=[3, 3])
    c.node("MaxPool", [x], "Y_k3x2s2x1", kernel_shape=[3, 2], strides=[2, 1])
    for name in ("Y_k2s2", "Y_k3", "Y_k3x2s2x1"):
        c.output(name)
    c.compare("bitwise")


@case("pool", 12)
def maxpool_pads_asym(c):
    # [top 0, left 1, bottom 2, right 1]: OH = (5 + 2 - 3) // 2 + 1 = 3,
    # OW = (6 + 2 - 3) // 2 + 1 = 3.
    c.node("MaxPool", [c.input("X", c.uniform((1, 2, 5, 6), -3, -1))], "Y",
           kernel_shape=[3, 3], strides=[2, 2], pads=[0, 1, 2, 1],
           auto_pad="NOTSET", storage_order=0, ceil_mode=0, dilations=[1, 1])
    c.output("Y")
    c.compare("bitwise")


@case("pool", 11)
def maxpool_same(c):
    # H: 6 by stride 2, kernel 3: 1 padding row; W: 7, kernel 2: 1 column.
    x = c.input("X", c.uniform((1, 2, 6, 7), -3, -1))
    for mode in ("SAME_UPPER", "SAME_LOWER"):
        c.node("MaxPool", [x], "Y_" + mode.lower(), auto_pad=mode,
               kernel_shape=[3, 2], strides=[2, 1])
        c.output("Y_" + mode.lower())
    # Strides larger than the kernel: H needs (2 - 1) * 3 + 2 - 6 = -1, so
    # no padding row; W 1 padding column.
    c.node("MaxPool", [x], "Y_s3", auto_pad="SAME_UPPER", kernel_shape=[2, 2],
           strides=[3, 3])
    c.output("Y_s3")
    c.compare("bitwise")


@case("pool", 17)
def maxpool_valid(c):
    c.node("MaxPool", [c.input("X", c.uniform((1, 2, 8, 9)))], "Y",
           auto_pad="VALID", kernel_shape=[3, 3], strides=[2, 2])
    c.output("Y")
    c.compare("bitwise")


@case("pool", 11)
def avgpool_pads(c):
    # [top 1, left 0, bottom 0, right 1]: OH = 5 + 1 - 3 + 1 = 4,
    # OW = (6 + 1 - 2) // 2 + 1 = 3.
    x = c.input("X", c.uniform((1, 2, 5, 6)))
    c.node("AveragePool", [x], "Y_exclude", kernel_shape=[3, 2],
           strides=[1, 2], pads=[1, 0, 0, 1])
    c.node("AveragePool", [x], "Y_include", kernel_shape=[3, 2],
           strides=[1, 2], pads=[1, 0, 0, 1], count_include_pad=1,
           auto_pad="NOTSET", ceil_mode=0)
    c.output("Y_exclude")
    c.output("Y_include")


@case("pool", 13)
def avgpool_same(c):
    # H: 7 by stride 2, kernel 2: 1 padding row; W: 6 by 2, kernel 3: 1.
    x = c.input("X", c.uniform((1, 3, 7, 6)))
    for mode in ("SAME_UPPER", "SAME_LOWER"):
        for include in (0, 1):
            name = "Y_%s%s" % (mode.lower(), "_include" if include else "")
            c.node("AveragePool", [x], name, auto_pad=mode,
                   kernel_shape=[2, 3], strides=[2, 2],
                   count_include_pad=include)
            c.output(name)


@case("pool", 17)
def avgpool_valid(c):
    c.node("AveragePool", [c.input("X", c.uniform((2, 2, 7, 8)))], "Y",
           auto_pad="VALID", kernel_shape=[3, 2], strides=[2, 3])
    c.output("Y")


@case("pool", 12)
def pool_ceil(c):
    # ceil_mode: MaxPool H (6 - 3) / 2 rounds up to 3 rows, the last window
    # one row short; AveragePool W (7 - 2) / 2 to 4 columns, without
    # count_include_pad.
    x = c.input("X", c.uniform((1, 2, 6, 7), -3, -1))
    c.node("MaxPool", [x], "Y_max", kernel_shape=[3, 3], strides=[2, 2],
           ceil_mode=1)
    c.node("AveragePool", [x], "Y_avg", kernel_shape=[3, 2], strides=[2, 2],
           pads=[1, 0, 0, 0], ceil_mode=1)
    c.output("Y_max", "bitwise")
    c.output("Y_avg")


@case("pool", 14)
def global_avgpool(c):
    c.node("GlobalAveragePool", [c.input("X", c.uniform((2, 3, 5, 7)))], "Y")
    c.output("Y")


@case("pool", 13)
def lrn(c):
    # AlexNet's and GoogLeNet's normalization: odd and even sizes (the even
    # window reaches one more channel after than before), a size larger
    # than the channels, 1-D and 2-D maps; within a relative 1e-5.
    x = c.input("X", c.uniform((2, 6, 5, 4), -3.0, 3.0))
    c.node("LRN", [x], "Y_s5", size=5, alpha=0.5, beta=0.75, bias=2.0)
    c.node("LRN", [x], "Y_s4", size=4)
    c.node("LRN", [x], "Y_s9", size=9, alpha=1.0, beta=0.5, bias=1.0)
    c.node("LRN", [c.input("X1", c.uniform((1, 3, 7), -2.0, 2.0))], "Y_1d",
           size=3, alpha=0.1)
    for name in ("Y_s5", "Y_s4", "Y_s9", "Y_1d"):
        c.output(name)

@case("pool", 11)
def max_unpool(c):
    # The indices of a 2x2 max pooling of a 4x4 map (one cell of each window,
    # counted over the whole N x C x 4 x 4 tensor), unpooled to the default
    # 4x4 and to an output_shape of 5x5 (zeros after); a 1-D map, stride 3.
    x = c.input("X", c.uniform((1, 2, 2, 2)))
    picks = c.rng.randint(0, 2, (1, 2, 2, 2, 2))
    indices = np.zeros((1, 2, 2, 2), np.int64)
    for ch in range(2):
        for i in range(2):
            for j in range(2):
                row, col = 2 * i + picks[0, ch, i, j, 0], 2 * j + picks[0, ch, i, j, 1]
                indices[0, ch, i, j] = ch * 16 + row * 4 + col
    ind = c.init("I", indices)
    c.node("MaxUnpool", [x, ind], "Y", kernel_shape=[2, 2], strides=[2, 2])
    c.node("MaxUnpool", [x, ind, c.init("shape", np.array([1, 2, 5, 5]))],
           "Y_shape", kernel_shape=[2, 2], strides=[2, 2])
    x1 = c.input("X1", c.uniform((1, 1, 3)))
    c.node("MaxUnpool", [x1, c.init("I1", np.array([[[1, 3, 8]]], np.int64))],
           "Y_1d", kernel_shape=[3], strides=[3])
    for name in ("Y", "Y_shape", "Y_1d"):
        c.output(name)
    c.compare("bitwise")

# Elementwise ops on the IEEE corner cases, broadcasting, and inference
# batch normalization: bit for bit (exp-based ops within 3 ulp).


@case("elementwise", 13)
def unary_specials(c):
    x = c.input("x", c.specials_and_random())
    for op in ("Relu", "Sigmoid", "Tanh", "Identity"):
        c.node(op, [x], op.lower())
    c.output("relu")
    c.output("sigmoid", "ulp 3")
    c.output("tanh", "ulp 3")
    c.output("identity")
    c.compare("bitwise")


@case("elementwise", 17)
def unary_opset17(c):
    x = c.input("x", c.uniform((1, 3, 4, 4), -5, 5))
    for op in ("Relu", "Sigmoid", "Tanh"):
        c.node(op, [x], op.lower())
    c.output("relu")
    c.output("sigmoid", "ulp 3")
    c.output("tanh", "ulp 3")
    c.compare("bitwise")


@case("elementwise", 14)
def binary_pairs(c):
    # Every pair of corner cases.
    s = ref.specials()
    a = c.input("A", np.repeat(s[:, None], s.size, 1))
    b = c.input("B", np.repeat(s[None, :], s.size, 0))
    for op, name in (("Add", "sum"), ("Sub", "difference"),
                     ("Mul", "product"), ("Div", "quotient")):
        c.node(op, [a, b], name)
        c.output(name)
    c.compare("bitwise")


@case("elementwise", 13)
def binary_broadcast(c):
    x = c.input("x", c.uniform((2, 3, 4, 5), -4, 4))
    per_channel = c.init("per_channel", c.uniform((3, 1, 1), 0.5, 2))
    per_column = c.init("per_column", c.uniform((5,)))
    scalar = c.init("scalar", np.array(1.5, F32))
    c.node("Add", [x, per_channel], "add_channel")
    c.node("Sub", [per_column, x], "sub_from_column")
    c.node("Mul", [x, scalar], "mul_scalar")
    c.node("Div", [x, per_channel], "div_channel")
    c.node("Div", [scalar, x], "scalar_div")
    for name in ("add_channel", "sub_from_column", "mul_scalar",
                 "div_channel", "scalar_div"):
        c.output(name)
    c.compare("bitwise")


@case("elementwise", 11)
def binary_broadcast_inputs(c):
    # Both operands broadcast: [2, 1, 4] with [3, 1] gives [2, 3, 4].
    a = c.input("a", c.uniform((2, 1, 4), -3, 3))
    b = c.input("b", c.uniform((3, 1), -3, 3))
    for op in ("Add", "Mul"):
        c.node(op, [a, b], op.lower())
        c.output(op.lower())
    c.node("Sub", [b, a], "sub")
    c.node("Div", [a, b], "div")
    c.output("sub")
    c.output("div")
    # A rank-0 input.
    c.node("Mul", [a, c.input("s", np.array(-2.5, F32))], "scaled")
    c.output("scaled")
    c.compare("bitwise")


@case("elementwise", 13)
def identity_arith(c):
    # x + (-0), x - (+0), x * 1 and x / 1 are exact identities, x + (+0),
    # x - (-0) and x * 0 are not (-0 + 0 = +0, inf * 0 = NaN): the constant
    # operands must not be folded away wrongly at -O3.
    x = c.input("x", c.specials_and_random())
    for op, value, name in (
            ("Add", 0.0, "add_zero"), ("Add", -0.0, "add_neg_zero"),
            ("Sub", 0.0, "sub_zero"), ("Sub", -0.0, "sub_neg_zero"),
            ("Mul", 1.0, "mul_one"), ("Mul", 0.0, "mul_zero"),
            ("Div", 1.0, "div_one")):
        c.node(op, [x, c.init(name + ".k", np.array(value, F32))], name)
        c.output(name)
    c.compare("bitwise")


def bn_params(c, channels, prefix):
    return [c.init(prefix + "scale", c.uniform((channels,), 0.5, 1.5)),
            c.init(prefix + "bias", c.uniform((channels,))),
            c.init(prefix + "mean", c.uniform((channels,))),
            c.init(prefix + "var", c.uniform((channels,), 0.5, 2.0))]


@case("elementwise", 11)
def batchnorm(c):
    # BatchNormalization-9 on 4-D and on 2-D inputs.
    c.node("BatchNormalization",
           [c.input("x", c.uniform((2, 3, 4, 5), -3, 3))]
           + bn_params(c, 3, "bn4."), "y", epsilon=1e-3)
    c.node("BatchNormalization",
           [c.input("x2d", c.uniform((4, 6), -3, 3))]
           + bn_params(c, 6, "bn2."), "y2d")
    c.node("BatchNormalization",
           [c.input("x3d", c.uniform((2, 5, 3), -3, 3))]
           + bn_params(c, 5, "bn3."), "y3d")
    c.output("y")
    c.output("y2d")
    c.output("y3d")
    c.compare("bitwise")


@case("elementwise", 15)
def batchnorm_opset15(c):
    c.node("BatchNormalization",
           [c.input("x", c.uniform((1, 4, 3, 3), -3, 3))]
           + bn_params(c, 4, ""), "y", training_mode=0, momentum=0.8)
    c.output("y")
    c.compare("bitwise")

# MatMul (2-D) and Gemm: transposes, alpha, beta, and every shape of C.


@case("gemm", 13)
def matmul_weights(c):
    c.node("MatMul", [c.input("x", c.uniform((3, 5))),
                      c.init("W", c.uniform((5, 4)))], "y")
    c.output("y")


@case("gemm", 11)
def matmul_inputs(c):
    c.node("MatMul", [c.input("A", c.uniform((4, 6))),
                      c.input("B", c.uniform((6, 3)))], "Y")
    c.output("Y")


@case("gemm", 11)
def gemm_bias_vector(c):
    c.node("Gemm", [c.input("A", c.uniform((2, 5))),
                    c.init("B", c.uniform((5, 3))),
                    c.init("C", c.uniform((3,)))], "Y")
    c.output("Y")


@case("gemm", 13)
def gemm_trans_alpha_beta(c):
    # A' = A^T is 2x5, B' = B^T is 5x4.
    c.node("Gemm", [c.input("A", c.uniform((5, 2))),
                    c.init("B", c.uniform((4, 5))),
                    c.init("C", c.uniform((2, 4)))], "Y",
           transA=1, transB=1, alpha=0.5, beta=2.0)
    c.output("Y")


@case("gemm", 17)
def gemm_linear(c):
    # torch.nn.Linear as PyTorch exports it.
    c.node("Gemm", [c.input("onnx::Gemm_0", c.uniform((3, 8))),
                    c.init("fc.weight", c.uniform((4, 8))),
                    c.init("fc.bias", c.uniform((4,)))], "13",
           alpha=1.0, beta=1.0, transB=1)
    c.output("13")


@case("gemm", 13)
def gemm_no_c(c):
    c.node("Gemm", [c.input("A", c.uniform((3, 4))),
                    c.init("B", c.uniform((4, 2)))], "Y", alpha=-1.5)
    c.output("Y")


@case("gemm", 12)
def gemm_c_broadcast(c):
    # C of shape [1], [] and [M, 1] broadcast to M x N.
    a = c.input("A", c.uniform((3, 4)))
    b = c.init("B", c.uniform((4, 5)))
    for name, shape in (("Y_c1", (1,)), ("Y_scalar", ()),
                        ("Y_column", (3, 1))):
        c.node("Gemm", [a, b, c.init("C" + name[1:], c.uniform(shape))], name,
               beta=0.5)
        c.output(name)


@case("gemm", 14)
def gemm_inputs(c):
    # Every operand an input, named as TensorFlow names tensors.
    c.node("Gemm", [c.input("input:0", c.uniform((4, 3))),
                    c.input("weights:0", c.uniform((4, 2))),
                    c.input("bias:0", c.uniform((3, 2)))], "Identity:0",
           transA=1)
    c.output("Identity:0")

# Shape ops: bit for bit.


@case("shape", 13)
def flatten_axes(c):
    x = c.input("x", c.uniform((2, 3, 4, 5)))
    c.node("Flatten", [x], "flat_default")
    c.output("flat_default")
    for axis in (0, 2, -1, 4):
        name = "flat_%s" % str(axis).replace("-", "neg")
        c.node("Flatten", [x], name, axis=axis)
        c.output(name)
    c.compare("bitwise")


@case("shape", 13)
def reshape(c):
    x = c.input("x", c.uniform((2, 3, 4, 5)))
    for name, shape in (("keep_first", [0, -1]), ("swap_last", [2, 0, 5, -1]),
                        ("all", [-1]), ("middle", [4, -1, 5])):
        c.node("Reshape", [x, c.init("shape_" + name, np.array(shape))], name)
        c.output(name)
    # The shape from a Constant node, as PyTorch exports it.
    c.node("Reshape", [x, c.const(np.array([0, 12, -1]))], "from_constant")
    c.output("from_constant")
    c.compare("bitwise")


@case("shape", 10)
def reverse_sequence(c):
    # Time-major and batch-major, lengths from none to the whole sequence;
    # extra trailing dimensions move along.
    x = c.input("x", c.uniform((4, 3, 2)))
    c.node("ReverseSequence", [x, c.init("lens", np.array([4, 2, 0], np.int64))],
           "time_major", time_axis=0, batch_axis=1)
    x2 = c.input("x2", c.uniform((3, 5)))
    c.node("ReverseSequence", [x2, c.init("lens2", np.array([5, 1, 3], np.int64))],
           "batch_major", time_axis=1, batch_axis=0)
    c.output("time_major")
    c.output("batch_major")
    c.compare("bitwise")


@case("shape", 14)
def reshape_opset14(c):
    x = c.input("x", c.uniform((2, 3, 4, 5)))
    c.node("Reshape", [x, c.init("shape", np.array([-1, 0, 5]))], "y",
           allowzero=0)
    c.output("y")
    c.compare("bitwise")


@case("shape", 13)
def transpose(c):
    x = c.input("x", c.uniform((2, 3, 4, 5)))
    c.node("Transpose", [x], "nhwc", perm=[0, 2, 3, 1])
    c.node("Transpose", [x], "reversed")
    c.node("Transpose", [x], "swap01", perm=[1, 0, 2, 3])
    c.node("Transpose", [x], "same", perm=[0, 1, 2, 3])
    for name in ("nhwc", "reversed", "swap01", "same"):
        c.output(name)
    c.compare("bitwise")


@case("shape", 13)
def concat(c):
    a = c.input("a", c.uniform((2, 3, 4)))
    b = c.input("b", c.uniform((2, 1, 4)))
    k = c.init("k", c.uniform((2, 2, 4)))
    c.node("Concat", [a, b, k], "axis1", axis=1)
    c.node("Concat", [a, a], "axis_neg1", axis=-1)
    c.node("Concat", [a, a, a], "axis0", axis=0)
    c.node("Concat", [b], "single", axis=2)
    for name in ("axis1", "axis_neg1", "axis0", "single"):
        c.output(name)
    c.compare("bitwise")


@case("shape", 11)
def shape_opset11(c):
    # The opset-11 versions: Flatten, Reshape-5, Transpose-1, Concat-11.
    x = c.input("x", c.uniform((2, 3, 4)))
    y = c.input("y", c.uniform((2, 1, 4)))
    c.node("Flatten", [x], "flat", axis=-2)
    c.node("Reshape", [x, c.init("shape", np.array([0, 0, 2, -1]))],
           "reshaped")
    c.node("Transpose", [x], "transposed")
    c.node("Concat", [x, y], "joined", axis=-2)
    for name in ("flat", "reshaped", "transposed", "joined"):
        c.output(name)
    c.compare("bitwise")


@case("shape", 17)
def constant_identity(c):
    x = c.input("x", c.uniform((2, 3)))
    c.node("Add", [x, c.const(c.uniform((3,)))], "sum")
    c.node("Identity", [x], "copy")
    c.output("sum")
    c.output("copy")
    c.compare("bitwise")


@case("shape", 12)
def constant_value_float(c):
    # Constant-12's value_float, value_floats and value_ints.
    x = c.input("x", c.uniform((2, 3)))
    c.node("Constant", [], "half", value_float=0.5)
    c.node("Constant", [], "row", value_floats=[1.0, -2.0, 0.25])
    c.node("Constant", [], "shape", value_ints=[3, 2])
    c.node("Mul", [x, "half"], "scaled")
    c.node("Sub", [x, "row"], "shifted")
    c.node("Reshape", [x, "shape"], "reshaped")
    c.output("scaled")
    c.output("shifted")
    c.output("reshaped")
    c.compare("bitwise")


@case("shape", 13)
def passthrough(c):
    # Outputs that are an input, the same value twice, an initializer; an
    # unused input and a dead node.
    x = c.input("x", c.uniform((2, 3)))
    c.input("unused", c.uniform((4,)))
    c.node("Identity", [x], "x_copy")
    c.node("Identity", [x], "x_copy2")
    c.node("Relu", [x], "r")
    c.node("Identity", ["r"], "r_copy")
    c.node("Identity", [c.init("w", c.uniform((3, 2)))], "w_copy")
    c.node("Sigmoid", [x], "dead")
    for name in ("x", "x_copy", "x_copy2", "r", "r_copy", "w_copy"):
        c.output(name)
    c.compare("bitwise")


@case("shape", 15)
def constant_only(c):
    # No inputs: -O3 folds the whole model.
    a = c.const(c.uniform((2, 3)))
    s = c.node("Add", [a, c.init("b", c.uniform((2, 3)))])
    c.node("Transpose", [s], "y")
    c.output("y")
    c.compare("bitwise")

# Opset-dependent semantics: Softmax before and from opset 13, Clip's
# attributes (< 11) and inputs (>= 11), Dropout's ratio attribute (< 12) and
# inputs (>= 12).


@case("opset", 11)
def softmax_opset11(c):
    # Coerced to 2-D at the axis: the default axis 1 normalizes over 3*4*5.
    x = c.input("x", c.uniform((2, 3, 4, 5), -4, 4))
    c.node("Softmax", [x], "default")
    c.output("default")
    for axis in (2, -1, 0):
        name = "axis_%s" % str(axis).replace("-", "neg")
        c.node("Softmax", [x], name, axis=axis)
        c.output(name)


@case("opset", 12)
def softmax_opset12(c):
    c.node("Softmax", [c.input("x", c.uniform((3, 4, 5), -4, 4))], "y")
    c.output("y")


@case("opset", 13)
def softmax_opset13(c):
    # One axis at a time: the default is the last.
    x = c.input("x", c.uniform((2, 3, 4, 5), -4, 4))
    c.node("Softmax", [x], "default")
    c.output("default")
    for axis in (1, -3, 0):
        name = "axis_%s" % str(axis).replace("-", "neg")
        c.node("Softmax", [x], name, axis=axis)
        c.output(name)


@case("opset", 17)
def softmax_opset17(c):
    # Large logits: only a stable softmax stays finite.
    c.node("Softmax", [c.input("logits", c.uniform((4, 10), -100, 100))],
           "probs")
    c.output("probs")


@case("opset", 10)
def clip_opset10(c):
    # Clip-6: bounds are attributes, numeric_limits<float>::lowest() and
    # max() when absent (so that +-inf are clipped to +-FLT_MAX).
    x = c.input("x", c.specials_and_random())
    c.node("Clip", [x], "clip", min=-0.5, max=0.25)
    c.node("Clip", [x], "relu6", min=0.0, max=6.0)
    c.node("Clip", [x], "clip_min", min=-1.0)
    c.node("Clip", [x], "clip_none")
    for name in ("clip", "relu6", "clip_min", "clip_none"):
        c.output(name)
    c.compare("bitwise")


@case("opset", 11)
def clip_opset11(c):
    # Clip-11: bounds are optional scalar inputs.
    x = c.input("x", c.specials_and_random())
    lo = c.init("lo", np.array(-0.5, F32))
    hi = c.init("hi", np.array(0.25, F32))
    c.node("Clip", [x, lo, hi], "clip")
    c.node("Clip", [x, lo], "clip_min")
    c.node("Clip", [x, "", hi], "clip_max")
    c.node("Clip", [x], "clip_none")
    for name in ("clip", "clip_min", "clip_max", "clip_none"):
        c.output(name)
    c.compare("bitwise")


@case("opset", 12)
def clip_opset12(c):
    x = c.input("x", c.specials_and_random())
    c.node("Clip", [x, c.init("zero", np.array(0.0, F32)),
                    c.init("six", np.array(6.0, F32))], "relu6")
    c.output("relu6")
    c.compare("bitwise")


@case("opset", 13)
def clip_opset13(c):
    # Bounds from Constant nodes, as PyTorch exports hardtanh.
    x = c.input("x", c.specials_and_random())
    c.node("Clip", [x, c.const(np.array(-1.0, F32)),
                    c.const(np.array(1.0, F32))], "hardtanh")
    c.output("hardtanh")
    c.compare("bitwise")


@case("opset", 11)
def dropout_opset11(c):
    c.node("Dropout", [c.input("x", c.uniform((2, 3, 4)))], "y", ratio=0.3)
    c.output("y")
    c.compare("bitwise")


@case("opset", 12)
def dropout_opset12(c):
    x = c.input("x", c.uniform((2, 3, 4)))
    c.node("Dropout", [x, c.init("ratio", np.array(0.2, F32)),
                       c.init("training_mode", np.array(False))], "y")
    c.node("Dropout", [x], "y_default")
    c.output("y")
    c.output("y_default")
    c.compare("bitwise")


@case("opset", 16)
def dropout_identity_opset16(c):
    x = c.input("x", c.uniform((2, 3, 4)))
    i = c.node("Identity", [x])
    c.node("Dropout", [i, c.init("ratio", np.array(0.5, F32))], "y")
    c.output("y")
    c.compare("bitwise")

# Small graphs that mix the ops. -O3 folds batch normalization into the
# convolution weights, hence 1e-4 there.


@case("mixed", 13)
def cnn_classifier(c):
    # conv -> bn -> relu -> maxpool -> flatten -> gemm, named as PyTorch
    # names tensors.
    x = c.input("input.1", c.uniform((1, 3, 12, 12)))
    y = c.node("Conv", [x, c.init("conv1.weight", c.uniform((8, 3, 3, 3))),
                        c.init("conv1.bias", c.uniform((8,)))],
               "/conv1/Conv_output_0", pads=[1, 1, 1, 1])
    y = c.node("BatchNormalization", [y] + bn_params(c, 8, "bn1."),
               "/bn1/BatchNormalization_output_0")
    y = c.node("Relu", [y], "/relu/Relu_output_0")
    y = c.node("MaxPool", [y], "/pool/MaxPool_output_0",
               kernel_shape=[2, 2], strides=[2, 2])
    y = c.node("Flatten", [y], "/Flatten_output_0")
    c.node("Gemm", [y, c.init("fc.weight", c.uniform((10, 288), -0.1, 0.1)),
                    c.init("fc.bias", c.uniform((10,)))], "output",
           transB=1)
    c.output("output")
    c.compare("rtol 1e-5", o3="rtol 1e-4")


@case("mixed", 11)
def residual_block(c):
    x = c.input("data", c.uniform((1, 8, 8, 8)))
    y = c.node("Conv", [x, c.init("conv0_weight",
                                  c.uniform((8, 8, 3, 3), -0.3, 0.3))],
               pads=[1, 1, 1, 1])
    y = c.node("BatchNormalization", [y] + bn_params(c, 8, "bn0_"))
    y = c.node("Relu", [y])
    y = c.node("Conv", [y, c.init("conv1_weight",
                                  c.uniform((8, 8, 3, 3), -0.3, 0.3))],
               pads=[1, 1, 1, 1])
    y = c.node("BatchNormalization", [y] + bn_params(c, 8, "bn1_"))
    y = c.node("Add", [y, x])
    c.node("Relu", [y], "resnetv15_stage1_activation0")
    c.output("resnetv15_stage1_activation0")
    c.compare("rtol 1e-5", o3="rtol 1e-4")


@case("mixed", 17)
def branches(c):
    # Three branches concatenated, one of them also a graph output (so not
    # fused away), then a strided SAME conv, ReLU6, a global pool and a
    # classifier.
    x = c.input("x", c.uniform((1, 4, 9, 9)))
    b1 = c.node("Conv", [x, c.init("w1", c.uniform((6, 4, 1, 1)))])
    b1 = c.node("Relu", [b1], "branch1")
    b2 = c.node("MaxPool", [x], auto_pad="SAME_UPPER", kernel_shape=[3, 3])
    b2 = c.node("Conv", [b2, c.init("w2", c.uniform((4, 4, 1, 1))),
                         c.init("b2", c.uniform((4,)))])
    b3 = c.node("AveragePool", [x], auto_pad="SAME_LOWER",
                kernel_shape=[2, 2])
    b3 = c.node("Conv", [b3, c.init("w3", c.uniform((2, 4, 1, 1)))])
    b3 = c.node("Sigmoid", [b3])
    y = c.node("Concat", [b1, b2, b3], axis=1)
    y = c.node("Conv", [y, c.init("w4", c.uniform((8, 12, 3, 3), -0.3, 0.3))],
               auto_pad="SAME_UPPER", strides=[2, 2])
    y = c.node("Clip", [y, c.init("zero", np.array(0.0, F32)),
                        c.init("six", np.array(6.0, F32))])
    y = c.node("GlobalAveragePool", [y])
    y = c.node("Reshape", [y, c.init("shape", np.array([1, -1]))])
    y = c.node("MatMul", [y, c.init("w5", c.uniform((8, 5)))])
    y = c.node("Add", [y, c.init("b5", c.uniform((5,)))])
    c.node("Softmax", [y], "probs")
    c.output("branch1")
    c.output("probs")


@case("mixed", 13)
def conv_bn_shared(c):
    # The conv's result is also a graph output: folding the batch
    # normalization into its weights would change that output.
    x = c.input("x", c.uniform((1, 3, 6, 6)))
    c.node("Conv", [x, c.init("w", c.uniform((4, 3, 3, 3))),
                    c.init("b", c.uniform((4,)))], "features",
           pads=[1, 1, 1, 1])
    y = c.node("BatchNormalization", ["features"] + bn_params(c, 4, "bn."))
    c.node("Relu", [y], "activated")
    c.output("features")
    c.output("activated")
    c.compare("rtol 1e-5", o3="rtol 1e-4")


@case("mixed", 12)
def mlp(c):
    x = c.input("x", c.uniform((2, 3, 4)))
    y = c.node("Flatten", [x])
    y = c.node("MatMul", [y, c.init("w1", c.uniform((12, 16)))])
    y = c.node("Add", [y, c.init("b1", c.uniform((16,)))])
    y = c.node("BatchNormalization", [y] + bn_params(c, 16, "bn."))
    y = c.node("Relu", [y])
    y = c.node("Dropout", [y, c.init("ratio", np.array(0.1, F32))])
    y = c.node("Gemm", [y, c.init("w2", c.uniform((10, 16))),
                        c.init("b2", c.uniform((10,)))], transB=1)
    c.node("Tanh", [y], "y")
    c.output("y")


@case("mixed", 14)
def depthwise_separable(c):
    # MobileNet's block: a strided depthwise SAME_UPPER conv (one padding
    # row and column, at the end), BN, ReLU6, a pointwise conv, BN.
    x = c.input("x", c.uniform((1, 4, 8, 8)))
    y = c.node("Conv", [x, c.init("dw", c.uniform((4, 1, 3, 3)))],
               auto_pad="SAME_UPPER", strides=[2, 2], group=4)
    y = c.node("BatchNormalization", [y] + bn_params(c, 4, "bn_dw."))
    y = c.node("Clip", [y, c.init("zero", np.array(0.0, F32)),
                        c.init("six", np.array(6.0, F32))])
    y = c.node("Conv", [y, c.init("pw", c.uniform((8, 4, 1, 1)))])
    c.node("BatchNormalization", [y] + bn_params(c, 8, "bn_pw."), "out")
    c.output("out")
    c.compare("rtol 1e-5", o3="rtol 1e-4")

#===------------------------------------------------------------------------===#
# Driver
#===------------------------------------------------------------------------===#


def build(family):
    for name, opset, builder in FAMILIES[family]:
        c = Case(name, opset)
        builder(c)
        yield c, finish(c)


def write(directory, families):
    os.makedirs(directory, exist_ok=True)
    for family in families:
        names = []
        for c, model in build(family):
            onnx.save(model, os.path.join(directory, c.name + ".onnx"))
            for name, value in c.feeds.items():
                np.save(os.path.join(directory, "%s.in.%s.npy"
                                     % (c.name, file_name(name))), value)
            names.append(c.name)
        with open(os.path.join(directory, family + ".cases"), "w") as f:
            f.write("\n".join(names) + "\n")


def run_lines(family):
    """The RUN lines of a family's lit test."""
    lines = []
    for c, model in build(family):
        for level in (0, 3):
            words = ["graph-run", "-O%d" % level, "%%t/%s.onnx" % c.name]
            for name in reversed(list(c.feeds)):
                words.append("--input %s=%%t/%s.in.%s.npy"
                             % (name, c.name, file_name(name)))
            for name in reversed(c.outputs):
                words.append("--output %s=%%t/%s.O%d.%s.npy"
                             % (name, c.name, level, file_name(name)))
            line = "# RUN: " + words[0]
            for word in words[1:]:
                if len(line) + len(word) + 3 > 80:
                    lines.append(line + " \\")
                    line = "# RUN:  "
                line += " " + word
            lines.append(line)
    return "\n".join(lines)


def main(argv):
    if argv == ["--list"]:
        for family, cases in FAMILIES.items():
            print("%s: %s" % (family, " ".join(name for name, _, _ in cases)))
        return 0
    if len(argv) >= 2 and argv[0] == "--run-lines":
        print("\n".join(run_lines(family) for family in argv[1:]))
        return 0
    if len(argv) >= 2 and all(f in FAMILIES for f in argv[1:]):
        write(argv[0], argv[1:])
        return 0
    print(__doc__)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
