"""graph_compiler.InferenceSession against NumPy and PyTorch: a .mlir model,
its shared library from graph-compile, ONNX models with a symbolic batch
(one specialization per shape, the second session's a cache hit), bool and
int64 models; the feeds' checks; threads; one session run from several
Python threads; no memory growth over 10,000 runs.

Run by pytest (test/Python/session.test) with GRAPH_TEST_WORK (a scratch
directory) and GRAPH_COMPILE (graph-compile's path) in the environment.
"""
import os
import subprocess
import sys
import threading
import unittest

import numpy as np

import graph_compiler as gc

WORK = os.environ["GRAPH_TEST_WORK"]
GRAPH_COMPILE = os.environ["GRAPH_COMPILE"]

MODEL = """
func.func @main(%x: tensor<2x3xf32> {graph.name = "x"},
                %w: tensor<3x4xf32> {graph.name = "w"},
                %i: tensor<5xi64> {graph.name = "i"})
    -> (tensor<2x4xf32> {graph.name = "y"}, tensor<5xi64> {graph.name = "j"}) {
  %m = graph.matmul %x, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %y = graph.relu %m : tensor<2x4xf32>
  %j = graph.add %i, %i : (tensor<5xi64>, tensor<5xi64>) -> tensor<5xi64>
  return %y, %j : tensor<2x4xf32>, tensor<5xi64>
}
"""


def write(name, text):
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def feeds(seed=0):
    rng = np.random.RandomState(seed)
    return {"x": rng.uniform(-1, 1, (2, 3)).astype(np.float32),
            "w": rng.uniform(-1, 1, (3, 4)).astype(np.float32),
            "i": rng.randint(-100, 100, 5).astype(np.int64)}


def expected(f):
    y = np.maximum(f["x"].astype(np.float64) @ f["w"].astype(np.float64), 0)
    return y, f["i"] * 2


class Session(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.mlir = write("model.mlir", MODEL)
        cls.cache = os.path.join(WORK, "cache")
        cls.sess = gc.InferenceSession(cls.mlir, cache_dir=cls.cache)

    def check(self, outputs, f):
        y, j = expected(f)
        self.assertEqual(len(outputs), 2)
        self.assertEqual(outputs[0].dtype, np.float32)
        self.assertEqual(outputs[1].dtype, np.int64)
        np.testing.assert_allclose(outputs[0], y, rtol=1e-6, atol=1e-6)
        np.testing.assert_array_equal(outputs[1], j)

    def test_signature(self):
        inputs = self.sess.get_inputs()
        self.assertEqual([i.name for i in inputs], ["x", "w", "i"])
        self.assertEqual([i.shape for i in inputs], [[2, 3], [3, 4], [5]])
        self.assertEqual([i.type for i in inputs],
                         ["tensor(float)", "tensor(float)", "tensor(int64)"])
        self.assertEqual(inputs[2].dtype, np.dtype(np.int64))
        outputs = self.sess.get_outputs()
        self.assertEqual([(o.name, o.shape) for o in outputs],
                         [("y", [2, 4]), ("j", [5])])

    def test_run(self):
        f = feeds()
        self.check(self.sess.run(None, f), f)
        (j,) = self.sess.run(["j"], f)
        np.testing.assert_array_equal(j, f["i"] * 2)
        y, j2 = self.sess.run(["y", "j"], f)
        np.testing.assert_array_equal(j2, j)

    def test_non_contiguous_input(self):
        f = feeds(1)
        strided = np.asfortranarray(f["w"])
        self.assertFalse(strided.flags.c_contiguous)
        got = self.sess.run(None, dict(f, w=strided))
        self.check(got, f)

    def test_threads_same_bits(self):
        f = feeds(2)
        one = gc.InferenceSession(self.mlir, threads=1, cache_dir=self.cache)
        two = gc.InferenceSession(self.mlir, threads=2, cache_dir=self.cache)
        a, b = one.run(None, f), two.run(None, f)
        for x, y in zip(a, b):
            self.assertEqual(x.tobytes(), y.tobytes())

    def test_several_python_threads(self):
        """Four Python threads running one session at once get the bits
        that serial runs give (and NumPy's values)."""
        errors = []
        seeds = [100 * s + k for s in range(4) for k in range(25)]
        serial = {seed: [o.tobytes() for o in self.sess.run(None, feeds(seed))]
                  for seed in seeds}

        def work(s):
            try:
                for k in range(25):
                    f = feeds(100 * s + k)
                    outputs = self.sess.run(None, f)
                    self.check(outputs, f)
                    if [o.tobytes() for o in outputs] != serial[100 * s + k]:
                        errors.append("seed %d: not the serial bits"
                                      % (100 * s + k))
            except Exception as e:  # reported below
                errors.append(e)

        threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])

    def test_bfloat16(self):
        """NumPy has no bfloat16: such an input is fed as float32 (rounded
        to the nearest bfloat16, ties to even) and such an output comes
        back as float32; get_inputs() names the type as ONNX Runtime does."""
        path = write("bf16.mlir", """
func.func @main(%x: tensor<5xbf16> {graph.name = "x"})
    -> (tensor<5xbf16> {graph.name = "twice"}) {
  %y = graph.add %x, %x : (tensor<5xbf16>, tensor<5xbf16>) -> tensor<5xbf16>
  return %y : tensor<5xbf16>
}
""")
        sess = gc.InferenceSession(path, cache_dir=self.cache)
        arg = sess.get_inputs()[0]
        self.assertEqual((arg.type, arg.dtype), ("tensor(bfloat16)",
                                                 np.float32))
        x = np.array([1.0, 3.14159, -2.71828, 1e-3, 1.00390625], np.float32)
        rounded = np.array([1.0, 3.140625, -2.71875, 0.00099945068359375,
                            1.0], np.float32)
        (twice,) = sess.run(None, {"x": x})
        np.testing.assert_array_equal(twice, rounded * 2, strict=True)

    def test_shared_library(self):
        library = os.path.join(WORK, "model.so")
        subprocess.run([GRAPH_COMPILE, self.mlir, "-o", library], check=True)
        sess = gc.InferenceSession(library)
        f = feeds(3)
        a, b = sess.run(None, f), self.sess.run(None, f)
        for x, y in zip(a, b):
            self.assertEqual(x.tobytes(), y.tobytes())

    def test_feed_errors(self):
        f = feeds()
        cases = [
            ({k: v for k, v in f.items() if k != "w"},
             "missing input 'w' (float32 [3, 4])"),
            (dict(f, z=f["x"]), "unknown input 'z'; the model's inputs are "
             "'x', 'w', 'i'"),
            (dict(f, x=f["x"].astype(np.float64)),
             "input 'x' has element type float64; the model expects float32"),
            (dict(f, x=np.zeros((3, 2), np.float32)),
             "input 'x' has shape [3, 2]; the model expects [2, 3]"),
        ]
        for feed, message in cases:
            with self.assertRaises(gc.Error) as raised:
                self.sess.run(None, feed)
            self.assertIn(message, str(raised.exception))
        with self.assertRaises(gc.Error) as raised:
            self.sess.run(["nope"], f)
        self.assertIn("unknown output 'nope'", str(raised.exception))

    def test_model_errors(self):
        with self.assertRaises(gc.Error) as raised:
            gc.InferenceSession(os.path.join(WORK, "missing.onnx"))
        self.assertIn("missing.onnx", str(raised.exception))
        bad = write("bad.mlir", "func.func @main( {")
        with self.assertRaises(gc.Error):
            gc.InferenceSession(bad, use_cache=False)
        with self.assertRaises(gc.Error):
            gc.InferenceSession(self.mlir, opt_level=7)
        with self.assertRaises(gc.Error):
            gc.InferenceSession(self.mlir, threads=0)


class Onnx(unittest.TestCase):
    def test_symbolic_batch(self):
        import onnx
        from onnx import TensorProto, helper, numpy_helper
        rng = np.random.RandomState(4)
        w = rng.uniform(-1, 1, (6, 5)).astype(np.float32)
        graph = helper.make_graph(
            [helper.make_node("MatMul", ["x", "w"], ["m"]),
             helper.make_node("Tanh", ["m"], ["y"])],
            "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 6])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 5])],
            [numpy_helper.from_array(w, "w")])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        path = os.path.join(WORK, "symbolic.onnx")
        onnx.save(model, path)
        sess = gc.InferenceSession(path, input_shapes={"x": [3, 6]},
                                   use_cache=False)
        self.assertEqual(sess.get_inputs()[0].shape, [3, 6])
        x = rng.uniform(-1, 1, (3, 6)).astype(np.float32)
        (y,) = sess.run(None, {"x": x})
        np.testing.assert_allclose(y, np.tanh(x.astype(np.float64) @ w),
                                   rtol=1e-5, atol=1e-6)

    def test_specializations(self):
        """Symbolic dims without input_shapes: one specialization per set of
        shapes, most recent first, least recently used dropped; a shared
        symbol must agree."""
        import onnx
        from onnx import TensorProto, helper
        graph = helper.make_graph(
            [helper.make_node("Add", ["x", "z"], ["s"]),
             helper.make_node("Relu", ["s"], ["y"])],
            "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", "L"]),
             helper.make_tensor_value_info("z", TensorProto.FLOAT, ["N", 4])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        path = os.path.join(WORK, "shared.onnx")
        onnx.save(model, path)
        sess = gc.InferenceSession(path, max_specializations=2,
                                   cache_dir=os.path.join(WORK, "cache"))
        self.assertEqual([i.shape for i in sess.get_inputs()],
                         [["N", "L"], ["N", 4]])
        self.assertEqual(sess.get_outputs()[0].shape, ["N", 4])
        rng = np.random.RandomState(5)
        for n in (1, 3, 7, 3):
            x = rng.uniform(-1, 1, (n, 4)).astype(np.float32)
            z = rng.uniform(-1, 1, (n, 4)).astype(np.float32)
            (y,) = sess.run(None, {"x": x, "z": z})
            np.testing.assert_array_equal(y, np.maximum(x + z, 0))
        self.assertEqual(sess.specializations(),
                         [[[3, 4], [3, 4]], [[7, 4], [7, 4]]])
        x = np.zeros((2, 4), np.float32)
        cases = [
            ({"x": x, "z": np.zeros((3, 4), np.float32)},
             "dimension 'N' is 2 in input 'x' and 3 in input 'z'"),
            ({"x": x, "z": np.zeros((2, 5), np.float32)},
             "input 'z' has shape [2, 5]; the model expects ['N', 4]"),
            ({"x": x}, "missing input 'z'"),
            ({"x": x, "z": x, "q": x}, "unknown input 'q'"),
            ({"x": x.astype(np.float64), "z": x},
             "input 'x' has element type float64; the model expects float32"),
        ]
        for feed, message in cases:
            with self.assertRaises(gc.Error) as raised:
                sess.run(None, feed)
            self.assertIn(message, str(raised.exception))

    def test_symbolic_batch_against_torch(self):
        """A PyTorch model exported with a dynamic batch, run at N = 1, 3, 8:
        one specialization per batch; a second session finds them in the
        compile cache."""
        import torch
        torch.manual_seed(0)
        net = torch.nn.Sequential(
            torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(),
            torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(),
            torch.nn.Linear(8, 5)).eval()
        path = os.path.join(WORK, "dynamic.onnx")
        torch.onnx.export(net, torch.zeros(1, 3, 12, 12), path,
                          input_names=["x"], output_names=["y"],
                          dynamic_axes={"x": {0: "N"}, "y": {0: "N"}},
                          opset_version=13)
        cache = os.path.join(WORK, "dynamic-cache")
        sess = gc.InferenceSession(path, cache_dir=cache)
        self.assertEqual(sess.get_inputs()[0].shape, ["N", 3, 12, 12])
        self.assertEqual(sess.get_outputs()[0].shape, ["N", 5])
        rng = np.random.RandomState(6)
        first = {}
        for n in (1, 3, 8, 3):
            x = rng.uniform(-1, 1, (n, 3, 12, 12)).astype(np.float32)
            (y,) = sess.run(None, {"x": x})
            with torch.no_grad():
                want = net(torch.from_numpy(x)).numpy()
            self.assertEqual(y.shape, (n, 5))
            np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-5)
            first.setdefault(n, sess.load_millis())
        self.assertEqual(sess.specializations(),
                         [[[3, 3, 12, 12]], [[8, 3, 12, 12]], [[1, 3, 12, 12]]])
        again = gc.InferenceSession(path, cache_dir=cache)
        x = rng.uniform(-1, 1, (3, 3, 12, 12)).astype(np.float32)
        np.testing.assert_array_equal(again.run(None, {"x": x})[0],
                                      sess.run(None, {"x": x})[0])
        # A cache hit loads a library: far quicker than the compile.
        self.assertLess(again.load_millis(), first[3] / 2)

    def test_inputs_that_decide_shapes(self):
        """A Reshape whose target shape is an input: one specialization per
        value of it, compiled on first use."""
        import onnx
        from onnx import TensorProto, helper
        graph = helper.make_graph(
            [helper.make_node("Reshape", ["x", "shape"], ["r"]),
             helper.make_node("Relu", ["r"], ["y"])],
            "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4]),
             helper.make_tensor_value_info("shape", TensorProto.INT64, [2])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
        model = helper.make_model(graph,
                                  opset_imports=[helper.make_opsetid("", 13)])
        path = os.path.join(WORK, "reshape_input.onnx")
        onnx.save(model, path)
        sess = gc.InferenceSession(path, cache_dir=os.path.join(WORK, "cache"))
        self.assertEqual(sess.get_inputs()[1].shape, [2])
        x = np.random.RandomState(8).uniform(-1, 1, (3, 4)).astype(np.float32)
        for shape in ([2, 6], [6, -1], [2, 6], [12, 1]):
            (y,) = sess.run(None, {"x": x, "shape": np.array(shape, np.int64)})
            np.testing.assert_array_equal(y, np.maximum(x.reshape(shape), 0))
        self.assertEqual(len(sess.specializations()), 3)
        with self.assertRaises(gc.Error) as raised:
            sess.run(None, {"x": x, "shape": np.array([5, 5], np.int64)})
        self.assertIn("reshape", str(raised.exception).lower())

    def test_library_of_two_shapes(self):
        """compile() (graph-compile) with two sets of shapes: one library
        whose session runs either and names both when given another."""
        import onnx
        from onnx import TensorProto, helper
        graph = helper.make_graph(
            [helper.make_node("Sigmoid", ["x"], ["y"])], "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 6])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 6])])
        model = helper.make_model(graph,
                                  opset_imports=[helper.make_opsetid("", 13)])
        path = os.path.join(WORK, "two_shapes.onnx")
        onnx.save(model, path)
        library = os.path.join(WORK, "two_shapes.so")
        gc.compile(path, library, input_shapes=[{"x": [1, 6]}, {"x": [4, 6]}])
        sess = gc.InferenceSession(library)
        self.assertEqual(sess.get_inputs()[0].shape, ["N", 6])
        rng = np.random.RandomState(9)
        for n in (4, 1):
            x = rng.uniform(-3, 3, (n, 6)).astype(np.float32)
            (y,) = sess.run(None, {"x": x})
            np.testing.assert_allclose(
                y, 1 / (1 + np.exp(-x.astype(np.float64))), rtol=1e-6,
                atol=1e-7)
        with self.assertRaises(gc.Error) as raised:
            sess.run(None, {"x": np.zeros((2, 6), np.float32)})
        self.assertIn("holds no specialization for x=2x6; it holds x=1x6; "
                      "x=4x6", str(raised.exception))

    def test_bool_and_int64(self):
        import onnx
        from onnx import TensorProto, helper
        graph = helper.make_graph(
            [helper.make_node("Not", ["b"], ["nb"]),
             helper.make_node("Where", ["nb", "i", "k"], ["w"]),
             helper.make_node("Greater", ["w", "k"], ["g"])],
            "g",
            [helper.make_tensor_value_info("b", TensorProto.BOOL, ["N", 3]),
             helper.make_tensor_value_info("i", TensorProto.INT64, ["N", 3]),
             helper.make_tensor_value_info("k", TensorProto.INT64, ["N", 3])],
            [helper.make_tensor_value_info("w", TensorProto.INT64, ["N", 3]),
             helper.make_tensor_value_info("g", TensorProto.BOOL, ["N", 3])])
        model = helper.make_model(graph,
                                  opset_imports=[helper.make_opsetid("", 13)])
        path = os.path.join(WORK, "typed.onnx")
        onnx.save(model, path)
        sess = gc.InferenceSession(path, use_cache=False)
        self.assertEqual([o.type for o in sess.get_outputs()],
                         ["tensor(int64)", "tensor(bool)"])
        rng = np.random.RandomState(7)
        for n in (2, 5):
            b = rng.rand(n, 3) > 0.5
            i = rng.randint(-2**40, 2**40, (n, 3)).astype(np.int64)
            k = rng.randint(-2**40, 2**40, (n, 3)).astype(np.int64)
            w, g = sess.run(None, {"b": b, "i": i, "k": k})
            self.assertEqual((w.dtype, g.dtype), (np.int64, np.bool_))
            np.testing.assert_array_equal(w, np.where(~b, i, k))
            np.testing.assert_array_equal(g, np.where(~b, i, k) > k)

    def test_run_time_size(self):
        """NonZero's indices come back with the shape each run finds, with a
        symbolic batch, a fixed one and from a shared library; the extent
        is not an output."""
        import onnx
        from onnx import TensorProto, helper

        def save(name, rows):
            graph = helper.make_graph(
                [helper.make_node("NonZero", ["x"], ["indices"]),
                 helper.make_node("Neg", ["x"], ["negated"])],
                "g",
                [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                               [rows, 4])],
                [helper.make_tensor_value_info("indices", TensorProto.INT64,
                                               [2, "n"]),
                 helper.make_tensor_value_info("negated", TensorProto.FLOAT,
                                               [rows, 4])])
            path = os.path.join(WORK, name)
            onnx.save(helper.make_model(
                graph, opset_imports=[helper.make_opsetid("", 13)]), path)
            return path

        symbolic = gc.InferenceSession(save("nonzero_n.onnx", "N"),
                                       use_cache=False)
        fixed = gc.InferenceSession(save("nonzero_3.onnx", 3),
                                    use_cache=False)
        library = os.path.join(WORK, "nonzero_3.so")
        subprocess.run([os.environ["GRAPH_COMPILE"],
                        os.path.join(WORK, "nonzero_3.onnx"), "-o", library],
                       check=True)
        compiled = gc.InferenceSession(library)
        self.assertEqual([o.name for o in fixed.get_outputs()],
                         ["indices", "negated"])
        self.assertEqual([o.name for o in compiled.get_outputs()],
                         ["indices", "negated"])
        rng = np.random.RandomState(5)
        for rows, sessions in ((3, (symbolic, fixed, compiled)),
                               (2, (symbolic,))):
            for density in (0.0, 0.4, 1.0):
                x = (rng.rand(rows, 4) < density).astype(np.float32)
                for sess in sessions:
                    indices, negated = sess.run(None, {"x": x})
                    np.testing.assert_array_equal(indices,
                                                  np.array(np.nonzero(x)))
                    self.assertEqual(indices.dtype, np.int64)
                    np.testing.assert_array_equal(negated, -x)


class Resources(unittest.TestCase):
    def test_no_growth_over_10000_runs(self):
        """Neither references nor memory leak per run: RSS stays flat."""
        path = write("tiny.mlir", """
func.func @main(%x: tensor<4xf32> {graph.name = "x"})
    -> (tensor<4xf32> {graph.name = "y"}) {
  %y = graph.relu %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
""")
        sess = gc.InferenceSession(path, use_cache=False, threads=1)
        x = np.arange(-2, 2, dtype=np.float32)

        def rss():
            with open("/proc/self/statm") as f:
                return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

        for _ in range(1000):
            sess.run(None, {"x": x})
        before, refs = rss(), sys.getrefcount(x)
        for _ in range(10000):
            (y,) = sess.run(None, {"x": x})
        self.assertEqual(sys.getrefcount(x), refs)
        np.testing.assert_array_equal(y, np.maximum(x, 0))
        # 10,000 leaked outputs of 16 bytes with their array objects would
        # be over 1 MB.
        self.assertLess(rss() - before, 1 << 20)
