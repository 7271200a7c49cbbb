#!/usr/bin/python3
"""ONNX Loop and Scan, for loop.test: loop_scan.py GRAPH_RUN DIR
[GRAPH_COMPILE] runs each case through graph-run at -O0 and -O3 (and, given
GRAPH_COMPILE, from a shared library) against NumPy; loop_scan.py --models
DIR writes the models whose import loop.test checks.

Cases: a for loop (a constant trip count) that reads row i of an outer
input and carries a recurrent state through MatMul and Tanh, with a scan
output; a while loop whose condition the data decides (it runs no
iteration, some, or up to its trip count: its scan output is of run-time
size); a trip count of 0; a trip count that a model input gives; an If in
a loop's body; a loop in a loop's body; Scan with two scan inputs, one
read in reverse along axis 1, and scan outputs reversed and on axis 1;
Scan of opset 8 (batch-major);
bench/export_models.py's scripted_loop (torch.jit.script: a while loop
that the data stops, then an If), smaller, exported by torch.onnx against
PyTorch's outputs, on inputs that take either branch.
"""
import io
import os
import sys

import numpy as np

sys.dont_write_bytecode = True
import case_runner  # noqa: E402
from case_runner import close, exact  # noqa: E402

F = np.float32


def graph(nodes, name, inputs, outputs, initializers=()):
    from onnx import helper
    return helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(n, kind, shape)
         for n, kind, shape in inputs],
        [helper.make_tensor_value_info(n, kind, None) for n, kind in outputs],
        initializer=list(initializers))


def model(nodes, inputs, outputs, initializers=(), opset=13):
    from onnx import helper
    return helper.make_model(
        graph(nodes, "loop", inputs, outputs, initializers),
        opset_imports=[helper.make_opsetid("", opset)])


def tensor(name, array):
    from onnx import numpy_helper
    return numpy_helper.from_array(np.asarray(array), name)


def loop_inputs(carried):
    """The inputs of a Loop body: iteration number, condition, carried."""
    from onnx import TensorProto as T
    return [("i", T.INT64, []), ("cond_in", T.BOOL, [])] + carried


def for_loop_cases():
    """h = tanh(h W + xs[i]) for i < 4; the states stacked."""
    from onnx import TensorProto as T, helper
    rng = np.random.default_rng(3)
    w = (rng.standard_normal((3, 3)) * 0.5).astype(F)
    body = graph([
        helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        helper.make_node("Gather", ["xs", "i"], ["x_i"]),
        helper.make_node("MatMul", ["h_in", "w"], ["hw"]),
        helper.make_node("Add", ["hw", "x_i"], ["pre"]),
        helper.make_node("Tanh", ["pre"], ["h_out"]),
        helper.make_node("Identity", ["h_out"], ["h_row"]),
    ], "body", loop_inputs([("h_in", T.FLOAT, [1, 3])]),
        [("cond_out", T.BOOL), ("h_out", T.FLOAT), ("h_row", T.FLOAT)])
    m = model([helper.make_node("Loop", ["four", "", "h0"], ["h", "hs"],
                                body=body)],
              [("h0", T.FLOAT, [1, 3]), ("xs", T.FLOAT, [4, 1, 3])],
              [("h", T.FLOAT), ("hs", T.FLOAT)],
              [tensor("four", np.array(4, np.int64)), tensor("w", w)])
    h0 = rng.standard_normal((1, 3)).astype(F)
    xs = rng.standard_normal((4, 1, 3)).astype(F)
    h = h0.astype(np.float64)
    rows = []
    for i in range(4):
        h = np.tanh(h @ w + xs[i])
        rows.append(h)
    yield ("for_loop", m, {"h0": h0, "xs": xs},
           {"h": h.astype(F), "hs": np.stack(rows).astype(F)},
           close(1e-5, 1e-6))


def while_loop_model():
    """v doubles while the sum of v stays below `limit`, at most 10 times:
    how many iterations run only the data decides."""
    from onnx import TensorProto as T, helper
    body = graph([
        helper.make_node("Mul", ["v_in", "two"], ["v_out"]),
        helper.make_node("ReduceSum", ["v_out"], ["total"], keepdims=0),
        helper.make_node("Less", ["total", "limit"], ["cond_out"]),
        helper.make_node("Identity", ["v_out"], ["v_row"]),
    ], "body", loop_inputs([("v_in", T.FLOAT, [2])]),
        [("cond_out", T.BOOL), ("v_out", T.FLOAT), ("v_row", T.FLOAT)],
        [tensor("two", np.array(2, F))])
    return model(
        [helper.make_node("Loop", ["ten", "go", "v0"], ["v", "vs"],
                          body=body),
         helper.make_node("Shape", ["vs"], ["vs_shape"])],
        [("go", T.BOOL, []), ("v0", T.FLOAT, [2]), ("limit", T.FLOAT, [])],
        [("v", T.FLOAT), ("vs", T.FLOAT), ("vs_shape", T.INT64)],
        [tensor("ten", np.array(10, np.int64))])


def while_loop_cases():
    m = while_loop_model()
    v0 = np.array([0.5, 0.25], F)
    for name, go, limit in (("while_none", False, 100.0),
                            ("while_some", True, 20.0),
                            ("while_all", True, 1e9)):
        v, rows = v0.copy(), []
        if go:
            for _ in range(10):
                v = v * 2
                rows.append(v)
                if not v.sum() < limit:
                    break
        vs = np.array(rows, F).reshape(len(rows), 2)
        yield (name, m,
               {"go": np.array(go), "v0": v0, "limit": np.array(limit, F)},
               {"v": v, "vs": vs, "vs_shape": np.array(vs.shape, np.int64)},
               exact)


def zero_trips_cases():
    """A trip count of 0: the initial values, an empty scan output."""
    from onnx import TensorProto as T, helper
    body = graph([
        helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        helper.make_node("Neg", ["v_in"], ["v_out"]),
        helper.make_node("Identity", ["v_out"], ["v_row"]),
    ], "body", loop_inputs([("v_in", T.FLOAT, [3])]),
        [("cond_out", T.BOOL), ("v_out", T.FLOAT), ("v_row", T.FLOAT)])
    m = model([helper.make_node("Loop", ["zero", "", "v0"], ["v", "vs"],
                                body=body)],
              [("v0", T.FLOAT, [3])], [("v", T.FLOAT), ("vs", T.FLOAT)],
              [tensor("zero", np.array(0, np.int64))])
    v0 = np.array([1, -2, 3], F)
    yield ("zero_trips", m, {"v0": v0},
           {"v": v0, "vs": np.zeros((0, 3), F)}, exact)


def run_time_count_cases():
    """The trip count is a model input: s = s + x, n times."""
    from onnx import TensorProto as T, helper
    body = graph([
        helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        helper.make_node("Add", ["s_in", "x"], ["s_out"]),
    ], "body", loop_inputs([("s_in", T.FLOAT, [2, 2])]),
        [("cond_out", T.BOOL), ("s_out", T.FLOAT)])
    m = model([helper.make_node("Loop", ["n", "", "x"], ["s"], body=body)],
              [("n", T.INT64, []), ("x", T.FLOAT, [2, 2])], [("s", T.FLOAT)])
    x = np.array([[1, 2], [3, -4]], F)
    for n in (0, 3):
        yield ("run_time_count_%d" % n, m, {"n": np.array(n), "x": x},
               {"s": x * (n + 1)}, exact)


def if_in_body_cases():
    """Odd iterations subtract, even ones add: a graph.if in the body."""
    from onnx import TensorProto as T, helper
    add = graph([helper.make_node("Add", ["a_in", "x_i"], ["added"])],
                "then_body", [], [("added", T.FLOAT)])
    sub = graph([helper.make_node("Sub", ["a_in", "x_i"], ["subbed"])],
                "else_body", [], [("subbed", T.FLOAT)])
    body = graph([
        helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        helper.make_node("Gather", ["xs", "i"], ["x_i"]),
        helper.make_node("Mod", ["i", "two"], ["parity"]),
        helper.make_node("Equal", ["parity", "zero"], ["even"]),
        helper.make_node("If", ["even"], ["a_out"], then_branch=add,
                         else_branch=sub),
    ], "body", loop_inputs([("a_in", T.FLOAT, [2])]),
        [("cond_out", T.BOOL), ("a_out", T.FLOAT)],
        [tensor("two", np.array(2, np.int64)),
         tensor("zero", np.array(0, np.int64))])
    m = model([helper.make_node("Loop", ["five", "", "a0"], ["a"],
                                body=body)],
              [("a0", T.FLOAT, [2]), ("xs", T.FLOAT, [5, 2])],
              [("a", T.FLOAT)], [tensor("five", np.array(5, np.int64))])
    a0 = np.array([0.5, -1], F)
    xs = np.arange(10, dtype=F).reshape(5, 2)
    want = a0 + xs[0] - xs[1] + xs[2] - xs[3] + xs[4]
    yield ("if_in_body", m, {"a0": a0, "xs": xs}, {"a": want}, exact)


def nested_loop_cases():
    """A loop of 3 iterations whose body runs a loop of 2 that adds x."""
    from onnx import TensorProto as T, helper
    inner = graph([
        helper.make_node("Identity", ["inner_cond_in"], ["inner_cond_out"]),
        helper.make_node("Add", ["b_in", "x"], ["b_out"]),
    ], "inner",
        [("j", T.INT64, []), ("inner_cond_in", T.BOOL, []),
         ("b_in", T.FLOAT, [2])],
        [("inner_cond_out", T.BOOL), ("b_out", T.FLOAT)])
    outer = graph([
        helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        helper.make_node("Loop", ["two", "", "a_in"], ["b"], body=inner),
        helper.make_node("Mul", ["b", "half"], ["a_out"]),
    ], "outer", loop_inputs([("a_in", T.FLOAT, [2])]),
        [("cond_out", T.BOOL), ("a_out", T.FLOAT)])
    m = model([helper.make_node("Loop", ["three", "", "a0"], ["a"],
                                body=outer)],
              [("a0", T.FLOAT, [2]), ("x", T.FLOAT, [2])], [("a", T.FLOAT)],
              [tensor("two", np.array(2, np.int64)),
               tensor("three", np.array(3, np.int64)),
               tensor("half", np.array(0.5, F))])
    a0 = np.array([1, -3], F)
    x = np.array([0.25, 2], F)
    a = a0.copy()
    for _ in range(3):
        a = (a + x + x) * F(0.5)
    yield ("nested_loop", m, {"a0": a0, "x": x}, {"a": a}, exact)


def scan_cases():
    """Scan (opset 16) with a state, two scan inputs (x1 along axis 1 in
    reverse, x2 along axis 0) and two scan outputs (the second reversed
    and stacked along axis 1)."""
    from onnx import TensorProto as T, helper
    body = graph([
        helper.make_node("Add", ["s_in", "r1"], ["t"]),
        helper.make_node("Mul", ["t", "r2"], ["s_out"]),
        helper.make_node("ReduceSum", ["s_out"], ["total"], keepdims=1),
        helper.make_node("Concat", ["s_out", "r2"], ["pair"], axis=0),
    ], "scan_body",
        [("s_in", T.FLOAT, [2]), ("r1", T.FLOAT, [2]), ("r2", T.FLOAT, [2])],
        [("s_out", T.FLOAT), ("total", T.FLOAT), ("pair", T.FLOAT)])
    m = model([helper.make_node(
        "Scan", ["s0", "x1", "x2"], ["s", "totals", "pairs"], body=body,
        num_scan_inputs=2, scan_input_axes=[1, 0],
        scan_input_directions=[1, 0], scan_output_axes=[0, -1],
        scan_output_directions=[0, 1])],
        [("s0", T.FLOAT, [2]), ("x1", T.FLOAT, [2, 5]),
         ("x2", T.FLOAT, [5, 2])],
        [("s", T.FLOAT), ("totals", T.FLOAT), ("pairs", T.FLOAT)],
        opset=16)
    rng = np.random.default_rng(11)
    s0 = rng.standard_normal(2).astype(F)
    x1 = rng.standard_normal((2, 5)).astype(F)
    x2 = rng.uniform(0.5, 1.5, (5, 2)).astype(F)
    s = s0.astype(np.float64)
    totals, pairs = [], []
    for i in range(5):
        s = (s + x1[:, 4 - i]) * x2[i]
        totals.append([s.sum()])
        pairs.append(np.concatenate([s, x2[i]]))
    pairs = np.stack(pairs[::-1], axis=1)
    yield ("scan", m, {"s0": s0, "x1": x1, "x2": x2},
           {"s": s.astype(F), "totals": np.array(totals, F),
            "pairs": pairs.astype(F)}, close(1e-5, 1e-6))


def scan8_cases():
    """Scan of opset 8: batch-major, the body run per batch element, the
    scan input read in reverse."""
    from onnx import TensorProto as T, helper
    body = graph([
        helper.make_node("Mul", ["s_in", "r"], ["m"]),
        helper.make_node("Add", ["m", "r"], ["s_out"]),
        helper.make_node("Neg", ["s_out"], ["row"]),
    ], "scan_body", [("s_in", T.FLOAT, [3]), ("r", T.FLOAT, [3])],
        [("s_out", T.FLOAT), ("row", T.FLOAT)])
    m = model([helper.make_node("Scan", ["", "s0", "x"], ["s", "rows"],
                                body=body, num_scan_inputs=1,
                                directions=[1])],
              [("s0", T.FLOAT, [2, 3]), ("x", T.FLOAT, [2, 4, 3])],
              [("s", T.FLOAT), ("rows", T.FLOAT)], opset=8)
    rng = np.random.default_rng(17)
    s0 = rng.standard_normal((2, 3)).astype(F)
    x = rng.uniform(-1, 1, (2, 4, 3)).astype(F)
    finals, stacked = [], []
    for b in range(2):
        s = s0[b].astype(np.float64)
        rows = []
        for t in range(4):
            r = x[b, 3 - t]
            s = s * r + r
            rows.append(-s)
        finals.append(s)
        stacked.append(rows)
    yield ("scan8", m, {"s0": s0, "x": x},
           {"s": np.array(finals, F), "rows": np.array(stacked, F)},
           close(1e-5, 1e-6))


def scripted_cases():
    """bench/export_models.py's scripted_loop at width 16: its loop stops
    when the state settles (a few iterations, the count only a run
    decides), its If on the sign of the state's mean."""
    import warnings
    import torch
    warnings.simplefilter("ignore")
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                    "..", "..", "bench"))
    from export_models import scripted_loop
    torch.manual_seed(0)
    module = scripted_loop(torch, width=16, classes=4, max_steps=12).eval()
    rng = np.random.default_rng(13)
    x = rng.standard_normal((2, 16)).astype(F)
    buffer = io.BytesIO()
    torch.onnx.export(module, (torch.from_numpy(x),), buffer,
                      input_names=["x"], output_names=["y"], opset_version=13)
    import onnx
    m = onnx.load_from_string(buffer.getvalue())
    for name, shift in (("scripted_low", -2.0), ("scripted_high", 2.0)):
        xs = (x + F(shift)).astype(F)
        with torch.no_grad():
            want = module(torch.from_numpy(xs)).numpy()
        yield (name, m, {"x": xs}, {"y": want}, close(1e-4, 1e-5))


def cases():
    return (list(for_loop_cases()) + list(while_loop_cases()) +
            list(zero_trips_cases()) + list(run_time_count_cases()) +
            list(if_in_body_cases()) + list(nested_loop_cases()) +
            list(scan_cases()) + list(scan8_cases()) +
            list(scripted_cases()))


def write_models(directory):
    """The models whose import loop.test checks."""
    import onnx
    from onnx import TensorProto as T, helper

    def save(name, m):
        onnx.save(m, os.path.join(directory, name + ".onnx"))

    save("for_loop", next(for_loop_cases())[1])
    save("while_loop", while_loop_model())
    grow = graph([
        helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        helper.make_node("Concat", ["v_in", "v_in"], ["v_out"], axis=0),
    ], "grow", loop_inputs([("v_in", T.FLOAT, [1])]),
        [("cond_out", T.BOOL), ("v_out", T.FLOAT)])
    save("changes_shape",
         model([helper.make_node("Loop", ["three", "", "v0"], ["v"],
                                 body=grow)],
               [("v0", T.FLOAT, [1])], [("v", T.FLOAT)],
               [tensor("three", np.array(3, np.int64))]))
    rows = graph([
        helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        helper.make_node("Identity", ["v_in"], ["v_out"]),
        helper.make_node("Identity", ["v_in"], ["v_row"]),
    ], "rows", loop_inputs([("v_in", T.FLOAT, [1])]),
        [("cond_out", T.BOOL), ("v_out", T.FLOAT), ("v_row", T.FLOAT)])
    save("scan_without_count",
         model([helper.make_node("Loop", ["", "go", "v0"], ["v", "vs"],
                                 body=rows)],
               [("go", T.BOOL, []), ("v0", T.FLOAT, [1])],
               [("v", T.FLOAT), ("vs", T.FLOAT)]))
    save("body_inputs",
         model([helper.make_node("Loop", ["three", "", "v0"], ["v"],
                                 body=graph([
                                     helper.make_node("Identity", ["v0"],
                                                      ["v_out"]),
                                 ], "short", [("i", T.INT64, [])],
                                     [("cond_out", T.BOOL),
                                      ("v_out", T.FLOAT)]))],
               [("v0", T.FLOAT, [1])], [("v", T.FLOAT)],
               [tensor("three", np.array(3, np.int64))]))
    save("scan_lengths",
         model([helper.make_node("Scan", ["s0", "a", "b"], ["s"],
                                 body=graph([
                                     helper.make_node("Add", ["s", "r"],
                                                      ["t"]),
                                 ], "sum3", [("s", T.FLOAT, [2]),
                                             ("r", T.FLOAT, [2]),
                                             ("q", T.FLOAT, [2])],
                                     [("t", T.FLOAT)]),
                                 num_scan_inputs=2)],
               [("s0", T.FLOAT, [2]), ("a", T.FLOAT, [3, 2]),
                ("b", T.FLOAT, [4, 2])], [("s", T.FLOAT)], opset=16))
    return 0


if __name__ == "__main__":
    sys.exit(case_runner.main(sys.argv, cases, {"--models": write_models}))
