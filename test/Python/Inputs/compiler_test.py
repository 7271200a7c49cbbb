"""graph_compiler.compiler against the tools and NumPy: compile() to a shared
library and header run through InferenceSession, optimize() and report()
against graph-opt's output for the same input, visualize() against
graph-viz, and every error path raising graph_compiler.Error with the
diagnostic.

Run with pytest (Debian's python3-pytest), GRAPH_BIN naming the build's bin
directory and GRAPH_EXAMPLES the examples directory (test/Python/compiler.test).
"""
import json
import os
import shutil
import subprocess
import threading

import numpy as np
import pytest

import graph_compiler as gc
import graph_compiler.compiler as gcc

BIN = os.environ["GRAPH_BIN"]
EXAMPLES = os.environ["GRAPH_EXAMPLES"]
SEED = os.path.join(EXAMPLES, "seed.mlir")
CONV_BN_RELU = os.path.join(EXAMPLES, "conv_bn_relu.mlir")
HAS_DOT = shutil.which("dot") is not None

BAD_MLIR = """func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = graph.relu %x : tensor<3xf32>
  return %y : tensor<2xf32>
}
"""


def tool(name, *args):
    """The tool's stdout and stderr; it must succeed."""
    done = subprocess.run([os.path.join(BIN, name)] + list(args),
                          capture_output=True, text=True, check=True)
    return done.stdout, done.stderr


@pytest.fixture(scope="module")
def conv_onnx(tmp_path_factory):
    """A Conv (3 -> 4 channels, 3x3, pad 1, bias) and Relu over a symbolic
    batch N, with its weights for the NumPy reference."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.RandomState(0)
    w = rng.uniform(-0.5, 0.5, (4, 3, 3, 3)).astype(np.float32)
    b = rng.uniform(-0.5, 0.5, 4).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1],
                          kernel_shape=[3, 3], name="conv"),
         helper.make_node("Relu", ["c"], ["y"], name="relu")],
        "conv_relu",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4, 8, 8])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    path = str(tmp_path_factory.mktemp("onnx") / "conv_relu.onnx")
    onnx.save(model, path)
    return path, w, b


def conv_relu_reference(x, w, b):
    padded = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3),
                                                       axis=(2, 3))
    y = np.einsum("ncijkl,fckl->nfij", windows, w.astype(np.float64))
    return np.maximum(y + b[None, :, None, None], 0)


def test_compile_onnx_to_library_and_header(conv_onnx, tmp_path):
    path, w, b = conv_onnx
    so, header = str(tmp_path / "conv.so"), str(tmp_path / "conv.h")
    assert gcc.compile(path, so, header=header, opt_level=3,
                       input_shapes={"x": [2, 3, 8, 8]}) == so
    text = open(header).read()
    assert "graph_model_run" in text
    assert '"x"' in text and '"y"' in text
    assert not [f for f in os.listdir(tmp_path) if ".tmp-" in f]

    sess = gc.InferenceSession(so)
    assert [(i.name, list(i.shape)) for i in sess.get_inputs()] == \
        [("x", [2, 3, 8, 8])]
    x = np.random.RandomState(1).uniform(-1, 1, (2, 3, 8, 8)).astype(
        np.float32)
    (y,) = sess.run(None, {"x": x})
    assert y.shape == (2, 4, 8, 8)
    np.testing.assert_allclose(y, conv_relu_reference(x, w, b), rtol=1e-4,
                               atol=1e-5)


@pytest.mark.parametrize("opt_level", [0, 3])
def test_compile_mlir_agrees_with_the_session(opt_level, tmp_path):
    so = str(tmp_path / "cbr.so")
    gcc.compile(CONV_BN_RELU, so, opt_level=opt_level)
    x = np.random.RandomState(2).uniform(-1, 1, (1, 4, 8, 8)).astype(
        np.float32)
    (aot,) = gc.InferenceSession(so).run(None, {"x": x})
    (jit,) = gc.InferenceSession(CONV_BN_RELU, opt_level=opt_level,
                                 cache_dir=str(tmp_path / "cache")).run(
                                     None, {"x": x})
    np.testing.assert_array_equal(aot, jit)
    assert (aot >= 0).all() and aot.any()


def test_compile_object_file(tmp_path):
    obj = tmp_path / "seed.o"
    gcc.compile(SEED, obj, opt_level=2, max_threads=2)
    data = obj.read_bytes()
    # ELF, relocatable (e_type 1).
    assert data[:4] == b"\x7fELF" and data[16] == 1


@pytest.mark.parametrize("model", [SEED, CONV_BN_RELU])
@pytest.mark.parametrize("opt_level", [0, 1, 2, 3])
def test_optimize_prints_what_graph_opt_prints(model, opt_level):
    expected, _ = tool("graph-opt", model,
                       "--graph-optimize=opt-level=%d" % opt_level)
    assert gcc.optimize(model, opt_level) == expected
    # MLIR text, the same.
    assert gcc.optimize(open(model).read(), opt_level=opt_level) == expected


def test_optimize_fuses():
    o3 = gcc.optimize(CONV_BN_RELU)
    assert 'graph.fused "conv2d_relu"' in o3
    assert "graph.batch_norm" not in o3  # folded into the weights
    o1 = gcc.optimize(CONV_BN_RELU, opt_level=1)
    assert "graph.fused" not in o1 and "graph.batch_norm" in o1


def test_optimize_onnx(conv_onnx):
    text = gcc.optimize(conv_onnx[0], input_shapes={"x": [1, 3, 8, 8]})
    assert 'graph.fused "conv2d_relu"' in text
    assert "tensor<1x3x8x8xf32>" in text


def test_optimize_from_threads():
    results = [None] * 4

    def work(i):
        results[i] = gcc.optimize(SEED, opt_level=i)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [gcc.optimize(SEED, opt_level=i) for i in range(4)]


@pytest.mark.parametrize("model", [SEED, CONV_BN_RELU])
@pytest.mark.parametrize("opt_level", [0, 2, 3])
def test_report_is_graph_reports_json(model, opt_level):
    _, stderr = tool(
        "graph-opt", model, "-o", os.devnull,
        "--pass-pipeline=builtin.module(graph-optimize{opt-level=%d},"
        "graph-report{json=true})" % opt_level)
    expected = json.loads(stderr)
    figures = gcc.report(model, opt_level=opt_level)
    assert figures == expected
    assert set(figures) == {"ops", "constants", "fused", "intermediate_bytes",
                            "saving_bytes", "layout_changes", "packed_weights"}
    assert figures["saving_bytes"] == 2 * figures["intermediate_bytes"]


def test_report_numbers():
    before = gcc.report(SEED, opt_level=0)
    after = gcc.report(SEED, opt_level=3)
    assert before["fused"] == {} and before["intermediate_bytes"] == 0
    assert sum(after["fused"].values()) >= 1
    assert after["intermediate_bytes"] > 0
    assert sum(after["ops"].values()) < sum(before["ops"].values())
    assert gcc.report(open(SEED).read(), 3) == after


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz 'dot' is not installed")
def test_visualize_writes_the_steps(tmp_path):
    page = str(tmp_path / "steps.html")
    steps = gcc.visualize(SEED, page, opt_level=2)
    titles = [s.title for s in steps]
    assert titles == ["input", "graph-fold-constants", "graph-fuse",
                      "graph-pack-weights", "graph-eliminate-dead-code"]
    stdout, _ = tool("graph-viz", SEED, "-O2", "-o", str(tmp_path / "t.html"))
    assert stdout.strip() == "graph-viz: wrote %s: %s" % (
        tmp_path / "t.html",
        " ".join("%s (%d ops)" % (s.title, s.ops) for s in steps))
    html = open(page).read()
    assert html.startswith("<!DOCTYPE html>")
    for title in titles:
        assert title in html
    assert "<svg" in html
    assert steps[-1].report == gcc.report(SEED, opt_level=2)


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz 'dot' is not installed")
def test_visualize_a_pipeline_and_onnx(conv_onnx, tmp_path):
    page = tmp_path / "p.html"
    steps = gcc.visualize(SEED, page, pipeline="graph-fold-constants,"
                          "graph-eliminate-dead-code")
    assert [s.title for s in steps] == ["input", "graph-fold-constants",
                                        "graph-eliminate-dead-code"]
    assert "pipeline: graph-fold-constants,graph-eliminate-dead-code" in \
        page.read_text()
    steps = gcc.visualize(conv_onnx[0], tmp_path / "o.html", jobs=1,
                          input_shapes={"x": [1, 3, 8, 8]})
    assert steps[0].title == "input" and len(steps) > 1


# Every error path: graph_compiler.Error with what is wrong.

def raises(match, function, *args, **kwargs):
    with pytest.raises(gc.Error, match=match) as info:
        function(*args, **kwargs)
    return str(info.value)


@pytest.mark.parametrize("function,args", [
    (gcc.compile, ("out.so",)), (gcc.optimize, ()), (gcc.report, ()),
    (gcc.visualize, ("out.html",))])
def test_unknown_file(function, args, tmp_path):
    raises("cannot read '.*missing.mlir': no such file", function,
           str(tmp_path / "missing.mlir"), *args)
    raises("model must be a path", function, 42, *args)


@pytest.mark.parametrize("level", [4, -1, "3", 2.0, True, None])
def test_bad_opt_level(level, tmp_path):
    message = "opt_level must be 0, 1, 2 or 3, got %r" % (level,)
    if level is not None:  # None is visualize's default
        raises(message, gcc.visualize, SEED, tmp_path / "v.html",
               opt_level=level)
    raises(message, gcc.compile, SEED, tmp_path / "s.so", opt_level=level)
    raises(message, gcc.optimize, SEED, opt_level=level)
    raises(message, gcc.report, SEED, opt_level=level)
    assert not list(tmp_path.iterdir())


def test_bad_model_carries_the_diagnostic(tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text(BAD_MLIR)
    for function, args in [(gcc.optimize, ()), (gcc.report, ()),
                           (gcc.compile, (tmp_path / "bad.so",))]:
        message = raises("bad.mlir:2:", function, str(bad), *args)
        assert "error:" in message and "tensor<3xf32>" in message
    # As text, named <text>.
    raises("<text>:2:.*error:", gcc.optimize, BAD_MLIR)
    raises("<text>:1:.*error:", gcc.report, "func.func @f( {")
    if HAS_DOT:
        page = tmp_path / "bad.html"
        page.write_text("old")
        raises("bad.mlir:2:", gcc.visualize, str(bad), page)
        assert page.read_text() == "old"
    assert not (tmp_path / "bad.so").exists()


def test_bad_onnx_carries_the_diagnostic(conv_onnx, tmp_path):
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model")
    raises("bad.onnx: error:", gcc.compile, bad, tmp_path / "bad.so")
    raises("bad.onnx: error:", gcc.optimize, bad)
    if HAS_DOT:
        raises("bad.onnx: error:", gcc.visualize, bad, tmp_path / "b.html")
    # A symbolic dimension without input_shapes: the importer says which.
    message = raises("conv_relu.onnx: error:", gcc.compile, conv_onnx[0],
                     tmp_path / "sym.so")
    assert "'N'" in message
    assert not list(tmp_path.glob("*.so"))


def test_bad_arguments(conv_onnx, tmp_path):
    raises("the output '.*model.dll' must end in .so", gcc.compile, SEED,
           tmp_path / "model.dll")
    raises("input_shapes applies to .onnx models only", gcc.compile, SEED,
           tmp_path / "s.so", input_shapes={"x": [1]})
    raises("input_shapes applies to .onnx models only", gcc.optimize,
           open(SEED).read(), input_shapes={"x": [1]})
    raises(r"input_shapes\['x'\] must be a list of positive sizes",
           gcc.optimize, conv_onnx[0], input_shapes={"x": [0, 3, 8, 8]})
    raises("input_shapes must be a dict", gcc.optimize, conv_onnx[0],
           input_shapes="x=1x3x8x8")
    raises("max_threads must be a count", gcc.compile, SEED,
           tmp_path / "s.so", max_threads=0)
    raises("target_cpu must be a string", gcc.compile, SEED,
           tmp_path / "s.so", target_cpu=3)
    raises("give either pipeline or opt_level, not both", gcc.visualize, SEED,
           tmp_path / "v.html", opt_level=2, pipeline="graph-fuse")
    raises("jobs must be a count", gcc.visualize, SEED, tmp_path / "v.html",
           jobs=0)
    if HAS_DOT:
        raises("bad --pipeline 'graph-nonsense'", gcc.visualize, SEED,
               tmp_path / "v.html", pipeline="graph-nonsense")
    # What the target machine says about an unknown CPU.
    raises("not-a-cpu", gcc.compile, SEED, tmp_path / "s.so",
           target_cpu="not-a-cpu")
    # An input the ONNX model does not have.
    raises("nope", gcc.optimize, conv_onnx[0], input_shapes={"nope": [1]})
    assert not list(tmp_path.iterdir())
