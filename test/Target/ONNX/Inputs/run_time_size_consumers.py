#!/usr/bin/python3
"""Nodes that read values of run-time size, for run-time-size-consumers.test:
run_time_size_consumers.py GRAPH_RUN DIR [GRAPH_COMPILE] runs each case
through graph-run at -O0 and -O3 (and, given GRAPH_COMPILE, from a shared
library) against NumPy; run_time_size_consumers.py --refusals DIR writes
the models that the import refuses, one per reason.

Cases: torch.where's export (Greater, NonZero, Transpose, GatherND) with
elementwise ops, Shape, Size, ConstantOfShape of the Shape, slices of the
extent (from a start, and up to a negative end), a reduction along
another axis and reductions over the dimension of run-time size (max, min,
sum, mean, prod, log-sum-exp; of floats and of int64) and ArgMax and ArgMin
along it, with some and with no element selected; a detection head's post-processing after
NonMaxSuppression (Gather of the selected box indices and classes, Squeeze,
GatherND of the scores, Unsqueeze, Concat, Transpose, Softmax, TopK and
ArgMax along the other axis, Reshape, Gather along the dimension of
run-time size with a negative index); NonZero of a selection (its
padding is no element); NonMaxSuppression of the candidates above a
score threshold; selections of separate extents
concatenated along their dimension of run-time size with a static piece
(and a second Concat of the same selections, of the same extent), with
elements selected and with none; TopK along the dimension of
run-time size with K computed from its Shape (more, fewer and no
candidates than the limit), and of a static input with K a model input
(none, some, all, equal values).
"""
import os
import sys

import numpy as np

sys.dont_write_bytecode = True
import case_runner  # noqa: E402
from case_runner import close, exact  # noqa: E402
from non_max_suppression import reference as nms_reference  # noqa: E402

F = np.float32


def model(nodes, inputs, outputs, initializers=(), opset=13):
    from onnx import helper
    graph = helper.make_graph(
        nodes, "consumers",
        [helper.make_tensor_value_info(name, kind, shape)
         for name, kind, shape in inputs],
        [helper.make_tensor_value_info(name, kind, None)
         for name, kind in outputs],
        initializer=list(initializers))
    return helper.make_model(graph,
                             opset_imports=[helper.make_opsetid("", opset)])


def ints(name, values, shape=None):
    from onnx import TensorProto, helper
    values = list(values)
    return helper.make_tensor(name, TensorProto.INT64,
                              [len(values)] if shape is None else shape,
                              values)


def where_model():
    """torch.where(x > t): the indices, the values, and what is made of
    them."""
    from onnx import TensorProto as T, helper
    nodes = [
        helper.make_node("Greater", ["x", "t"], ["mask"]),
        helper.make_node("NonZero", ["mask"], ["nz"]),
        helper.make_node("Transpose", ["nz"], ["idx"], perm=[1, 0]),
        helper.make_node("GatherND", ["x", "idx"], ["values"]),
        helper.make_node("Mul", ["values", "two"], ["doubled"]),
        helper.make_node("Shape", ["idx"], ["shape"]),
        helper.make_node("Size", ["idx"], ["size"]),
        helper.make_node("Slice", ["doubled", "one", "four"], ["middle"]),
        helper.make_node("Slice", ["values", "zero", "minus_one"],
                         ["all_but_last"]),
        helper.make_node("Cast", ["idx"], ["float_idx"], to=T.FLOAT),
        helper.make_node("ReduceSum", ["float_idx", "one"], ["idx_sum"],
                         keepdims=0),
        # NonZero of a value of run-time size: its padding is no element.
        helper.make_node("Greater", ["values", "half"], ["large"]),
        helper.make_node("NonZero", ["large"], ["large_at"]),
        # Reductions over the dimension of run-time size: the padding
        # counts as each one's identity (torchvision's batched_nms takes
        # the largest coordinate of its boxes so).
        helper.make_node("ReduceMax", ["values"], ["values_max"],
                         keepdims=0),
        helper.make_node("ReduceMin", ["values"], ["values_min"],
                         keepdims=0),
        helper.make_node("ReduceSum", ["values", "zero"], ["values_sum"],
                         keepdims=0),
        helper.make_node("ReduceMean", ["float_idx"], ["idx_mean"],
                         axes=[0]),
        helper.make_node("ReduceMean", ["float_idx"], ["idx_mean_all"],
                         keepdims=0),
        helper.make_node("ReduceProd", ["middle"], ["middle_prod"],
                         keepdims=0),
        helper.make_node("ReduceLogSumExp", ["values"], ["values_lse"],
                         keepdims=0),
        helper.make_node("ReduceMax", ["idx"], ["idx_max"], axes=[0],
                         keepdims=0),
        helper.make_node("ArgMax", ["values"], ["values_argmax"],
                         keepdims=0),
        helper.make_node("ArgMin", ["idx"], ["idx_argmin"], axis=0),
        # torch.full_like of the selection: the labels of a detection head.
        helper.make_node("ConstantOfShape", ["shape"], ["labels"],
                         value=helper.make_tensor("v", T.INT64, [1], [7])),
    ]
    initializers = [
        helper.make_tensor("t", T.FLOAT, [], [0.3]),
        helper.make_tensor("two", T.FLOAT, [], [2.0]),
        helper.make_tensor("half", T.FLOAT, [], [0.5]),
        ints("zero", [0]), ints("one", [1]), ints("four", [4]),
        ints("minus_one", [-1])]
    outputs = [("idx", T.INT64), ("values", T.FLOAT), ("doubled", T.FLOAT),
               ("shape", T.INT64), ("size", T.INT64), ("middle", T.FLOAT),
               ("all_but_last", T.FLOAT), ("idx_sum", T.FLOAT),
               ("labels", T.INT64), ("large_at", T.INT64),
               ("values_max", T.FLOAT), ("values_min", T.FLOAT),
               ("values_sum", T.FLOAT), ("idx_mean", T.FLOAT),
               ("idx_mean_all", T.FLOAT), ("middle_prod", T.FLOAT),
               ("values_lse", T.FLOAT), ("idx_max", T.INT64),
               ("values_argmax", T.INT64), ("idx_argmin", T.INT64)]
    return model(nodes, [("x", T.FLOAT, [4, 5])], outputs, initializers)


def where_reference(x):
    idx = np.argwhere(x > F(0.3)).astype(np.int64)
    values = x[x > F(0.3)]
    return {"idx": idx, "values": values, "doubled": values * F(2),
            "shape": np.array(idx.shape, np.int64),
            "size": np.array(idx.size, np.int64),
            "middle": (values * F(2))[1:4], "all_but_last": values[:-1],
            "idx_sum": idx.sum(1).astype(F),
            "labels": np.full(idx.shape, 7, np.int64),
            "large_at": np.array(np.nonzero(values > F(0.5)), np.int64),
            # Of nothing: the reductions' identities (ONNX's, from opset
            # 18), NaN for a mean.
            "values_max": np.array(values.max() if values.size else -np.inf,
                                   F),
            "values_min": np.array(values.min() if values.size else np.inf,
                                   F),
            "values_sum": np.array(values.sum(), F),
            "idx_mean": (idx.mean(0, keepdims=True) if idx.size else
                         np.full((1, 2), np.nan)).astype(F),
            "idx_mean_all": np.array(idx.mean() if idx.size else np.nan, F),
            "middle_prod": np.array(np.prod((values * F(2))[1:4]), F),
            "values_lse": np.array(
                np.log(np.exp(values.astype(np.float64)).sum())
                if values.size else -np.inf, F),
            "idx_max": (idx.max(0) if idx.size else
                        np.full(2, np.iinfo(np.int64).min, np.int64)),
            # Of nothing: index 0.
            "values_argmax": np.array(values.argmax() if values.size else 0,
                                      np.int64),
            "idx_argmin": (idx.argmin(0)[None] if idx.size else
                           np.zeros((1, 2), np.int64))}


def concat_model():
    """Selections of separate extents concatenated along their dimension
    of run-time size, with a static piece between them (torchvision's
    detection heads concatenate their per-class selections so)."""
    from onnx import TensorProto as T, helper
    nodes = [
        helper.make_node("Greater", ["x", "t"], ["above"]),
        helper.make_node("Less", ["y", "minus_t"], ["below"]),
        helper.make_node("NonZero", ["above"], ["nz_above"]),
        helper.make_node("NonZero", ["below"], ["nz_below"]),
        helper.make_node("Transpose", ["nz_above"], ["idx_above"],
                         perm=[1, 0]),
        helper.make_node("Transpose", ["nz_below"], ["idx_below"],
                         perm=[1, 0]),
        helper.make_node("GatherND", ["x", "idx_above"], ["x_values"]),
        helper.make_node("GatherND", ["y", "idx_below"], ["y_values"]),
        helper.make_node("Concat", ["x_values", "middle", "y_values"],
                         ["values"], axis=0),
        helper.make_node("Concat", ["idx_above", "idx_below"], ["indices"],
                         axis=-2),
        helper.make_node("Neg", ["values"], ["negated"]),
        # A second Concat of the same selections has the same extent.
        helper.make_node("Mul", ["x_values", "two"], ["x_doubled"]),
        helper.make_node("Mul", ["y_values", "two"], ["y_doubled"]),
        helper.make_node("Concat", ["x_doubled", "middle", "y_doubled"],
                         ["doubled"], axis=0),
        helper.make_node("Add", ["values", "doubled"], ["sum"]),
    ]
    initializers = [helper.make_tensor("t", T.FLOAT, [], [0.3]),
                    helper.make_tensor("two", T.FLOAT, [], [2.0]),
                    helper.make_tensor("minus_t", T.FLOAT, [], [-0.5]),
                    helper.make_tensor("middle", T.FLOAT, [2], [100, 200])]
    return model(nodes, [("x", T.FLOAT, [4, 5]), ("y", T.FLOAT, [3, 3])],
                 [("values", T.FLOAT), ("indices", T.INT64),
                  ("negated", T.FLOAT), ("sum", T.FLOAT)], initializers)


def concat_reference(x, y):
    values = np.concatenate([x[x > F(0.3)], np.array([100, 200], F),
                             y[y < F(-0.5)]])
    indices = np.concatenate([np.argwhere(x > F(0.3)),
                              np.argwhere(y < F(-0.5))]).astype(np.int64)
    doubled = np.concatenate([x[x > F(0.3)] * F(2), np.array([100, 200], F),
                              y[y < F(-0.5)] * F(2)])
    return {"values": values, "indices": indices, "negated": -values,
            "sum": values + doubled}


def top_k_model():
    """torchvision's per-class candidates: the scores above a threshold,
    the best min(their number, 3) of them by TopK, whose K is computed from
    their Shape at run time; and TopK of a static input with K a model
    input."""
    from onnx import TensorProto as T, helper
    nodes = [
        helper.make_node("Greater", ["x", "t"], ["above"]),
        helper.make_node("NonZero", ["above"], ["nz"]),
        helper.make_node("Transpose", ["nz"], ["idx"], perm=[1, 0]),
        helper.make_node("GatherND", ["x", "idx"], ["scores"]),
        helper.make_node("Shape", ["scores"], ["shape"]),
        helper.make_node("Gather", ["shape", "zero_scalar"], ["n"], axis=0),
        helper.make_node("Unsqueeze", ["n", "zero"], ["n1"]),
        helper.make_node("Concat", ["limit", "n1"], ["both"], axis=0),
        helper.make_node("ReduceMin", ["both"], ["k_scalar"], keepdims=0),
        helper.make_node("Reshape", ["k_scalar", "one_shape"], ["k"]),
        helper.make_node("TopK", ["scores", "k"], ["best", "best_index"]),
        helper.make_node("Gather", ["idx", "best_index"], ["best_idx"]),
        helper.make_node("TopK", ["y", "k_input"], ["lowest", "lowest_index"],
                         largest=0),
    ]
    initializers = [helper.make_tensor("t", T.FLOAT, [], [0.3]),
                    ints("zero_scalar", [0], []), ints("zero", [0]),
                    ints("limit", [3]), ints("one_shape", [1])]
    return model(nodes, [("x", T.FLOAT, [4, 5]), ("y", T.FLOAT, [2, 6]),
                         ("k_input", T.INT64, [1])],
                 [("best", T.FLOAT), ("best_index", T.INT64),
                  ("best_idx", T.INT64), ("lowest", T.FLOAT),
                  ("lowest_index", T.INT64)], initializers)


def top_k_reference(x, y, k_input):
    scores = x[x > F(0.3)]
    order = np.argsort(-scores, kind="stable")[:min(len(scores), 3)]
    idx = np.argwhere(x > F(0.3)).astype(np.int64)
    lowest = np.argsort(y, axis=1, kind="stable")[:, :k_input]
    return {"best": scores[order], "best_index": order.astype(np.int64),
            "best_idx": idx[order],
            "lowest": np.take_along_axis(y, lowest, 1),
            "lowest_index": lowest.astype(np.int64)}


def candidates_model():
    """NonMaxSuppression of the candidates above a score threshold, whose
    number only a run decides."""
    from onnx import TensorProto as T, helper
    nodes = [
        helper.make_node("Greater", ["scores", "t"], ["above"]),
        helper.make_node("NonZero", ["above"], ["nz"]),
        helper.make_node("Squeeze", ["nz", "zero"], ["idx"]),
        helper.make_node("Gather", ["boxes", "idx"], ["candidate_boxes"]),
        helper.make_node("Gather", ["scores", "idx"], ["candidate_scores"]),
        helper.make_node("Unsqueeze", ["candidate_boxes", "zero"], ["b3"]),
        helper.make_node("Reshape", ["candidate_scores", "score_shape"],
                         ["s3"]),
        helper.make_node("NonMaxSuppression", ["b3", "s3", "limit", "iou"],
                         ["selected"]),
    ]
    initializers = [helper.make_tensor("t", T.FLOAT, [], [0.3]),
                    ints("zero", [0]), ints("score_shape", [1, 1, -1]),
                    ints("limit", [3]),
                    helper.make_tensor("iou", T.FLOAT, [1], [0.3])]
    return model(nodes, [("boxes", T.FLOAT, [12, 4]),
                         ("scores", T.FLOAT, [12])],
                 [("selected", T.INT64)], initializers, opset=13)


def candidates_reference(boxes, scores):
    keep = np.nonzero(scores > F(0.3))[0]
    return {"selected": nms_reference(boxes[keep][None],
                                      scores[keep][None, None], 3, F(0.3),
                                      None, False)}


def detection_model():
    """After NonMaxSuppression: the selected boxes with their scores and
    classes, as a detection head's export computes them."""
    from onnx import TensorProto as T, helper
    nodes = [
        helper.make_node("NonMaxSuppression",
                         ["boxes", "scores", "limit", "iou"], ["selected"]),
        helper.make_node("Gather", ["selected", "two_scalar"], ["box_index"],
                         axis=1),
        helper.make_node("Gather", ["selected", "one_scalar"], ["class"],
                         axis=1),
        helper.make_node("Squeeze", ["boxes", "zero"], ["all_boxes"]),
        helper.make_node("Gather", ["all_boxes", "box_index"], ["picked"]),
        helper.make_node("GatherND", ["scores", "selected"], ["score"]),
        helper.make_node("Unsqueeze", ["score", "one"], ["score_column"]),
        helper.make_node("Cast", ["class"], ["class_float"], to=T.FLOAT),
        helper.make_node("Unsqueeze", ["class_float", "one"],
                         ["class_column"]),
        helper.make_node("Concat",
                         ["picked", "score_column", "class_column"],
                         ["detections"], axis=1),
        helper.make_node("Transpose", ["detections"], ["by_column"]),
        helper.make_node("Softmax", ["picked"], ["soft"], axis=1),
        helper.make_node("TopK", ["picked", "k"], ["top", "top_index"],
                         axis=1),
        helper.make_node("ArgMax", ["picked"], ["widest"], axis=1,
                         keepdims=0),
        helper.make_node("Reshape", ["picked", "pairs"], ["corner_pairs"]),
        # Along the dimension of run-time size: -1 counts from the extent.
        helper.make_node("Gather", ["picked", "last_first"], ["ends"]),
    ]
    initializers = [
        ints("limit", [3]), helper.make_tensor("iou", T.FLOAT, [1], [0.3]),
        ints("two_scalar", [2], []), ints("one_scalar", [1], []),
        ints("zero", [0]), ints("one", [1]), ints("k", [2]),
        ints("pairs", [0, 2, 2]), ints("last_first", [-1, 0])]
    outputs = [("selected", T.INT64), ("picked", T.FLOAT),
               ("detections", T.FLOAT), ("by_column", T.FLOAT),
               ("soft", T.FLOAT), ("top", T.FLOAT), ("top_index", T.INT64),
               ("widest", T.INT64), ("corner_pairs", T.FLOAT),
               ("ends", T.FLOAT)]
    return model(nodes, [("boxes", T.FLOAT, [1, 12, 4]),
                         ("scores", T.FLOAT, [1, 2, 12])],
                 outputs, initializers)


def detection_reference(boxes, scores):
    selected = nms_reference(boxes, scores, 3, F(0.3), None, False)
    picked = boxes[0][selected[:, 2]]
    score = scores[selected[:, 0], selected[:, 1], selected[:, 2]]
    detections = np.concatenate(
        [picked, score[:, None], selected[:, 1:2].astype(F)], axis=1)
    exp = np.exp(picked - picked.max(1, keepdims=True))
    order = np.argsort(-picked, axis=1, kind="stable")[:, :2]
    return {"selected": selected, "picked": picked, "detections": detections,
            "by_column": detections.T, "soft": exp / exp.sum(1, keepdims=True),
            "top": np.take_along_axis(picked, order, 1),
            "top_index": order.astype(np.int64),
            "widest": picked.argmax(1).astype(np.int64),
            "corner_pairs": picked.reshape(-1, 2, 2),
            "ends": picked[[-1, 0]]}


def compress_model():
    """Compress of the rows whose sum is positive (a condition the data
    decides), along axis 0 and, flattened, without an axis; a Mul and a
    ReduceSum over the rows after it."""
    from onnx import TensorProto as T, helper
    nodes = [
        helper.make_node("ReduceSum", ["x", "one"], ["sums"], keepdims=0),
        helper.make_node("Greater", ["sums", "zero"], ["positive"]),
        helper.make_node("Compress", ["x", "positive"], ["rows"], axis=0),
        helper.make_node("Mul", ["rows", "two"], ["doubled"]),
        helper.make_node("ReduceSum", ["rows", "zero_axis"], ["column_sums"],
                         keepdims=0),
        helper.make_node("Greater", ["x", "zero"], ["cells"]),
        helper.make_node("Reshape", ["cells", "flat"], ["flat_cells"]),
        helper.make_node("Compress", ["x", "flat_cells"], ["selected"]),
    ]
    outputs = [("rows", T.FLOAT), ("doubled", T.FLOAT),
               ("column_sums", T.FLOAT), ("selected", T.FLOAT)]
    return model(nodes, [("x", T.FLOAT, [4, 5])], outputs,
                 [ints("one", [1]), ints("zero_axis", [0]),
                  ints("flat", [20]),
                  helper.make_tensor("zero", T.FLOAT, [], [0.0]),
                  helper.make_tensor("two", T.FLOAT, [], [2.0])])


def compress_reference(x):
    rows = x[x.sum(1) > 0]
    return {"rows": rows, "doubled": rows * F(2),
            "column_sums": rows.astype(np.float64).sum(0).astype(F),
            "selected": x.reshape(-1)[x.reshape(-1) > 0]}


def cases():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 5)).astype(F)
    # The padding of the selections reads x[0, 0]: large, so that an
    # operator that read the padding would count it.
    x[0, 0] = F(2.0)
    none = np.full((4, 5), -1.0, F)
    boxes = np.zeros((1, 12, 4), F)
    for i in range(12):
        y, x0 = rng.uniform(0, 6, 2).astype(F)
        h, w = rng.uniform(1, 3, 2).astype(F)
        boxes[0, i] = [y, x0, y + h, x0 + w]
    scores = rng.uniform(0, 1, (1, 2, 12)).astype(F)
    # Softmax and Exp may differ from NumPy's in the last bits; a mean of
    # nothing is NaN.
    near = close(1e-5, 1e-6, equal_nan=True)
    result = []
    for name, x_value in [("where", x), ("where_none_selected", none)]:
        result.append((name, where_model(), {"x": x_value},
                       where_reference(x_value), near))
    y = rng.standard_normal((3, 3)).astype(F)
    result.append(("concat", concat_model(), {"x": x, "y": y},
                   concat_reference(x, y), exact))
    result.append(("concat_none_selected", concat_model(),
                   {"x": none, "y": np.ones((3, 3), F)},
                   concat_reference(none, np.ones((3, 3), F)),
                   exact))
    y6 = rng.standard_normal((2, 6)).astype(F)
    y6[0, 1] = y6[0, 4]  # equal values: by index
    for name, x_value, k in [("top_k", x, 4), ("top_k_none_selected", none, 0),
                             ("top_k_fewer_than_limit", x * F(0.3), 6)]:
        result.append((name, top_k_model(),
                       {"x": x_value, "y": y6,
                        "k_input": np.array([k], np.int64)},
                       top_k_reference(x_value, y6, k), exact))
    result.append(("nms_of_candidates", candidates_model(),
                   {"boxes": boxes[0], "scores": scores[0, 0]},
                   candidates_reference(boxes[0], scores[0, 0]), exact))
    for name, x_value in [("compress", x), ("compress_none", none)]:
        result.append((name, compress_model(), {"x": x_value},
                       compress_reference(x_value), near))
    result.append(("detection", detection_model(),
                   {"boxes": boxes, "scores": scores},
                   detection_reference(boxes, scores), near))
    return result


def write_refusals(directory):
    """One model per reason the import refuses a consumer."""
    import onnx
    from onnx import TensorProto as T, helper
    x = [("x", T.FLOAT, [4, 5])]

    def nonzero_then(nodes, initializers=(), inputs=x):
        head = [helper.make_node("NonZero", ["x"], ["nz"]),
                helper.make_node("Transpose", ["nz"], ["idx"])]
        return model(head + nodes, inputs, [("out", T.INT64)], initializers)

    refusals = {
        # A static operand of the bound's size.
        "static_operand": nonzero_then(
            [helper.make_node("Add", ["idx", "c"], ["out"])],
            [ints("c", [0] * 40, [20, 2])]),
        "concat_static": nonzero_then(
            [helper.make_node("Concat", ["idx", "c"], ["out"], axis=1)],
            [ints("c", [0] * 20, [20, 1])]),
        "reshape_merge": nonzero_then(
            [helper.make_node("Reshape", ["idx", "s"], ["out"])],
            [ints("s", [-1])]),
        "slice_step": nonzero_then(
            [helper.make_node("Slice", ["idx", "a", "b", "a", "b"], ["out"])],
            [ints("a", [0]), ints("b", [2])]),
        # Two extents that the import cannot tell equal.
        "two_extents": model(
            [helper.make_node("NonZero", ["x"], ["a"]),
             helper.make_node("NonZero", ["y"], ["b"]),
             helper.make_node("Add", ["a", "b"], ["out"])],
            x + [("y", T.FLOAT, [4, 5])], [("out", T.INT64)]),
    }
    for name, value in refusals.items():
        onnx.save(value, os.path.join(directory, name + ".onnx"))
    return 0


if __name__ == "__main__":
    sys.exit(case_runner.main(sys.argv, cases, {"--refusals": write_refusals}))
