#!/usr/bin/python3
"""ONNX If, for if.test: if_branches.py GRAPH_RUN DIR [GRAPH_COMPILE] runs
each case through graph-run at -O0 and -O3 (and, given GRAPH_COMPILE, from a
shared library) against NumPy, with the condition true and false;
if_branches.py --models DIR writes the models whose import if.test checks
(a constant condition, and the refusals).

Cases: branches that compute from the values around them (a convolution
with batch norm and ReLU, which graph-fuse groups inside the region, and
an elementwise chain), with two outputs; a branch that yields a value of
another size along one dimension (the output is of run-time size); the
guard of torchvision's batched_nms (an empty result when there are no
boxes, NonMaxSuppression of boxes above a threshold otherwise) whose
output a Gather reads after the If; an If nested in a branch.
"""
import os
import sys

import numpy as np

sys.dont_write_bytecode = True
import case_runner  # noqa: E402
from case_runner import close, exact  # noqa: E402
from non_max_suppression import reference as nms_reference  # noqa: E402

F = np.float32


def graph(nodes, name, outputs, initializers=()):
    from onnx import helper
    return helper.make_graph(
        nodes, name, [],
        [helper.make_tensor_value_info(out, kind, None)
         for out, kind in outputs],
        initializer=list(initializers))


def model(nodes, inputs, outputs, initializers=(), opset=13):
    from onnx import helper
    main = helper.make_graph(
        nodes, "if",
        [helper.make_tensor_value_info(name, kind, shape)
         for name, kind, shape in inputs],
        [helper.make_tensor_value_info(name, kind, None)
         for name, kind in outputs],
        initializer=list(initializers))
    return helper.make_model(main,
                             opset_imports=[helper.make_opsetid("", opset)])


def tensor(name, array):
    from onnx import numpy_helper
    return numpy_helper.from_array(np.asarray(array), name)


def conv_bn_relu_reference(x, w, scale, bias, mean, var):
    n, c, h, wd = x.shape
    f = w.shape[0]
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    y = np.zeros((n, f, h, wd), np.float64)
    for i in range(3):
        for j in range(3):
            y += np.einsum("nchw,fc->nfhw",
                           padded[:, :, i:i + h, j:j + wd].astype(np.float64),
                           w[:, :, i, j].astype(np.float64))
    y = (y - mean[None, :, None, None]) / np.sqrt(var[None, :, None, None] +
                                                   1e-5)
    y = y * scale[None, :, None, None] + bias[None, :, None, None]
    return np.maximum(y, 0).astype(F)


def two_outputs_cases():
    """Branches computing from outer values: conv, batch norm, ReLU in one
    and an elementwise chain in the other, each yielding two values."""
    from onnx import TensorProto as T, helper
    rng = np.random.default_rng(5)
    w = rng.standard_normal((4, 3, 3, 3)).astype(F) * 0.3
    scale = rng.uniform(0.5, 1.5, 4).astype(F)
    bias = rng.standard_normal(4).astype(F)
    mean = rng.standard_normal(4).astype(F) * 0.1
    var = rng.uniform(0.5, 1.5, 4).astype(F)
    then_branch = graph([
        helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization",
                         ["c", "scale", "bias", "mean", "var"], ["b"]),
        helper.make_node("Relu", ["b"], ["then_y"]),
        helper.make_node("ReduceSum", ["x"], ["then_s"], keepdims=0),
    ], "then_body", [("then_y", T.FLOAT), ("then_s", T.FLOAT)])
    else_branch = graph([
        helper.make_node("Mul", ["x", "k"], ["m"]),
        helper.make_node("Sigmoid", ["m"], ["e"]),
        helper.make_node("Concat", ["e", "e", "e"], ["ee"], axis=1),
        helper.make_node("Slice", ["ee", "zero", "four", "one"], ["else_y"]),
        helper.make_node("ReduceMax", ["x"], ["else_s"], keepdims=0),
    ], "else_body", [("else_y", T.FLOAT), ("else_s", T.FLOAT)],
        [tensor("zero", np.array([0], np.int64)),
         tensor("four", np.array([4], np.int64)),
         tensor("one", np.array([1], np.int64))])
    m = model(
        [helper.make_node("If", ["cond"], ["y", "s"],
                          then_branch=then_branch, else_branch=else_branch)],
        [("cond", T.BOOL, []), ("x", T.FLOAT, [1, 3, 6, 6])],
        [("y", T.FLOAT), ("s", T.FLOAT)],
        [tensor("w", w), tensor("scale", scale), tensor("bias", bias),
         tensor("mean", mean), tensor("var", var),
         tensor("k", np.array(2, F))])
    x = rng.standard_normal((1, 3, 6, 6)).astype(F)
    sig = 1 / (1 + np.exp(-2 * x.astype(np.float64)))
    yield ("two_outputs_then", m, {"cond": np.array(True), "x": x},
           {"y": conv_bn_relu_reference(x, w, scale, bias, mean, var),
            "s": np.array(x.astype(np.float64).sum(), F)}, close(1e-4, 1e-5))
    yield ("two_outputs_else", m, {"cond": np.array(False), "x": x},
           {"y": np.concatenate([sig] * 3, 1)[:, :4].astype(F),
            "s": np.array(x.max(), F)}, close(1e-5, 1e-6))


def sizes_cases():
    """The branches yield 5 and 3 rows: the output has the size of the one
    that ran, and a node after the If reads it."""
    from onnx import TensorProto as T, helper
    then_branch = graph([helper.make_node("Relu", ["x"], ["then_y"])],
                        "then_body", [("then_y", T.FLOAT)])
    else_branch = graph([
        helper.make_node("Slice", ["x", "one", "four"], ["else_y"]),
    ], "else_body", [("else_y", T.FLOAT)],
        [tensor("one", np.array([1], np.int64)),
         tensor("four", np.array([4], np.int64))])
    m = model(
        [helper.make_node("If", ["cond"], ["rows"],
                          then_branch=then_branch, else_branch=else_branch),
         helper.make_node("Mul", ["rows", "two"], ["y"]),
         helper.make_node("Shape", ["rows"], ["shape"])],
        [("cond", T.BOOL, [1]), ("x", T.FLOAT, [5, 2])],
        [("y", T.FLOAT), ("shape", T.INT64)],
        [tensor("two", np.array(2, F))])
    x = np.arange(-5, 5, dtype=F).reshape(5, 2)
    yield ("sizes_then", m, {"cond": np.array([True]), "x": x},
           {"y": np.maximum(x, 0) * 2, "shape": np.array([5, 2])}, exact)
    yield ("sizes_else", m, {"cond": np.array([False]), "x": x},
           {"y": x[1:4] * 2, "shape": np.array([3, 2])}, exact)


def batched_nms_model():
    """torchvision's batched_nms as exported: `if boxes.numel() == 0` an
    empty index tensor, else NMS of the boxes (whose number a run decides:
    the ones above a score threshold), then a Gather of their scores."""
    from onnx import TensorProto as T, helper
    then_branch = graph([], "then_body", [("empty", T.INT64)],
                        [tensor("empty", np.zeros(0, np.int64))])
    else_branch = graph([
        helper.make_node("Unsqueeze", ["kept_boxes", "zero"], ["b3"]),
        helper.make_node("Unsqueeze", ["kept_scores", "zero"], ["s2"]),
        helper.make_node("Unsqueeze", ["s2", "zero"], ["s3"]),
        helper.make_node("NonMaxSuppression", ["b3", "s3", "limit", "iou"],
                         ["selected"]),
        helper.make_node("Gather", ["selected", "two"], ["keep"], axis=1),
    ], "else_body", [("keep", T.INT64)],
        [tensor("limit", np.array([100], np.int64)),
         tensor("iou", np.array([0.5], F)),
         tensor("two", np.array(2, np.int64))])
    nodes = [
        helper.make_node("Greater", ["scores", "threshold"], ["above"]),
        helper.make_node("NonZero", ["above"], ["nz"]),
        helper.make_node("Squeeze", ["nz", "zero"], ["candidates"]),
        helper.make_node("Gather", ["boxes", "candidates"], ["kept_boxes"]),
        helper.make_node("Gather", ["scores", "candidates"], ["kept_scores"]),
        helper.make_node("Size", ["kept_scores"], ["numel"]),
        helper.make_node("Equal", ["numel", "none"], ["no_boxes"]),
        helper.make_node("If", ["no_boxes"], ["keep"],
                         then_branch=then_branch, else_branch=else_branch),
        helper.make_node("Gather", ["kept_scores", "keep"], ["kept"]),
    ]
    return model(nodes, [("boxes", T.FLOAT, [8, 4]), ("scores", T.FLOAT, [8])],
                 [("keep", T.INT64), ("kept", T.FLOAT)],
                 [tensor("threshold", np.array(0.3, F)),
                  tensor("zero", np.array([0], np.int64)),
                  tensor("none", np.array(0, np.int64))])


def batched_nms_cases():
    rng = np.random.default_rng(7)
    corners = rng.uniform(0, 10, (8, 2)).astype(F)
    boxes = np.concatenate([corners, corners + rng.uniform(1, 4, (8, 2))],
                           1).astype(F)
    boxes[3] = boxes[1] + F(0.1)  # overlaps box 1
    scores = np.array([0.9, 0.8, 0.1, 0.7, 0.2, 0.6, 0.95, 0.05], F)
    m = batched_nms_model()
    for name, s in (("batched_nms", scores),
                    ("batched_nms_no_boxes", np.full(8, 0.1, F))):
        candidates = np.nonzero(s > 0.3)[0]
        if len(candidates) == 0:
            keep = np.zeros(0, np.int64)
        else:
            selected = nms_reference(boxes[candidates][None],
                                     s[candidates][None, None], 100, 0.5,
                                     None, False)
            keep = selected[:, 2].astype(np.int64)
        yield (name, m, {"boxes": boxes, "scores": s},
               {"keep": keep, "kept": s[candidates][keep]}, exact)


def nested_cases():
    """An If in a branch: which of three values comes out."""
    from onnx import TensorProto as T, helper
    inner = helper.make_node(
        "If", ["b"], ["inner_y"],
        then_branch=graph([helper.make_node("Neg", ["x"], ["n"])],
                          "inner_then", [("n", T.FLOAT)]),
        else_branch=graph([helper.make_node("Abs", ["x"], ["m"])],
                          "inner_else", [("m", T.FLOAT)]))
    m = model(
        [helper.make_node(
            "If", ["a"], ["y"],
            then_branch=graph([inner], "then_body", [("inner_y", T.FLOAT)]),
            else_branch=graph([helper.make_node("Exp", ["x"], ["e"])],
                              "else_body", [("e", T.FLOAT)]))],
        [("a", T.BOOL, []), ("b", T.BOOL, []), ("x", T.FLOAT, [4])],
        [("y", T.FLOAT)])
    x = np.array([-1.5, 0, 2, 0.25], F)
    for a, b, want in ((True, True, -x), (True, False, np.abs(x)),
                       (False, True, np.exp(x))):
        yield ("nested_%d%d" % (a, b), m,
               {"a": np.array(a), "b": np.array(b), "x": x}, {"y": want},
               close(1e-6))


def cases():
    return (list(two_outputs_cases()) + list(sizes_cases()) +
            list(batched_nms_cases()) + list(nested_cases()))


def write_models(directory):
    """The models whose import if.test checks."""
    import onnx
    from onnx import TensorProto as T, helper
    relu = graph([helper.make_node("Relu", ["x"], ["r"])], "then_body",
                 [("r", T.FLOAT)])
    neg = graph([helper.make_node("Neg", ["x"], ["n"])], "else_body",
                [("n", T.FLOAT)])
    x = [("x", T.FLOAT, [4])]

    def save(name, nodes, inputs, initializers=()):
        onnx.save(model(nodes, inputs, [("y", T.FLOAT)], initializers),
                  os.path.join(directory, name + ".onnx"))

    save("constant_cond",
         [helper.make_node("Not", ["c"], ["not_c"]),
          helper.make_node("If", ["not_c"], ["y"], then_branch=relu,
                           else_branch=neg)],
         x, [tensor("c", np.array(True))])
    save("run_cond",
         [helper.make_node("If", ["c"], ["y"], then_branch=relu,
                           else_branch=neg)],
         x + [("c", T.BOOL, [])])
    int_branch = graph([helper.make_node("Cast", ["x"], ["i"], to=T.INT64)],
                       "else_body", [("i", T.INT64)])
    save("types_differ",
         [helper.make_node("If", ["c"], ["y"], then_branch=relu,
                           else_branch=int_branch)],
         x + [("c", T.BOOL, [])])
    square = graph([helper.make_node("Reshape", ["x", "shape"], ["sq"])],
                   "else_body", [("sq", T.FLOAT)],
                   [tensor("shape", np.array([2, 2], np.int64))])
    save("ranks_differ",
         [helper.make_node("If", ["c"], ["y"], then_branch=relu,
                           else_branch=square)],
         x + [("c", T.BOOL, [])])
    transposed = graph([helper.make_node("Transpose", ["m"], ["t"])],
                       "else_body", [("t", T.FLOAT)])
    plain = graph([helper.make_node("Identity", ["m"], ["i"])], "then_body",
                  [("i", T.FLOAT)])
    save("sizes_differ_twice",
         [helper.make_node("If", ["c"], ["y"], then_branch=plain,
                           else_branch=transposed)],
         [("m", T.FLOAT, [2, 3]), ("c", T.BOOL, [])])
    save("two_elements",
         [helper.make_node("If", ["c"], ["y"], then_branch=relu,
                           else_branch=neg)],
         x + [("c", T.BOOL, [2])])
    save("no_else",
         [helper.make_node("If", ["c"], ["y"], then_branch=relu)],
         x + [("c", T.BOOL, [])])
    return 0


if __name__ == "__main__":
    sys.exit(case_runner.main(sys.argv, cases, {"--models": write_models}))
