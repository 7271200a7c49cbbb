"""graph_compiler.InferenceSession against NumPy: a .mlir model, its shared
library from graph-compile and an ONNX model with a symbolic batch; the
feeds' checks; threads; one session run from several Python threads.

usage: session_test.py WORK_DIR GRAPH_COMPILE
"""
import os
import subprocess
import sys
import threading
import unittest

import numpy as np

import graph_compiler as gc

WORK, GRAPH_COMPILE = sys.argv[1], sys.argv[2]

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
        errors = []

        def work(seed):
            try:
                for k in range(25):
                    f = feeds(100 * seed + k)
                    self.check(self.sess.run(None, f), f)
            except Exception as e:  # reported below
                errors.append(e)

        threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])

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
        shapes, least recently used dropped; a shared symbol must agree."""
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
                         [[[7, 4], [7, 4]], [[3, 4], [3, 4]]])
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


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
