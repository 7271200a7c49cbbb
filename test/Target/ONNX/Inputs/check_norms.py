#!/usr/bin/python3
"""check_norms.py input X.npy | check MODEL.onnx X.npy PREFIX

For make_model.py's `norms` model: `input` writes its input x (rows off
zero, so that the variance is a difference of close numbers); `check`
compares graph-run's outputs PREFIX.NAME.npy with NumPy in float64, each
output within a relative 1e-5 of its largest magnitude.
"""
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def layer_norm(x, axes, eps, scale=None, bias=None):
    d = x - x.mean(axis=axes, keepdims=True)
    y = d / np.sqrt((d * d).mean(axis=axes, keepdims=True) + eps)
    if scale is not None:
        y = y * scale
    return y if bias is None else y + bias


def expected(x, w):
    eps3, eps5, eps6, eps12 = (float(np.float32(e))
                               for e in (1e-3, 1e-5, 1e-6, 1e-12))
    last = (2,)
    d = x - x.mean(axis=last, keepdims=True)
    return {
        "a": layer_norm(x, last, eps3, w["s6"], w["b6"]),
        "b": layer_norm(x, (1, 2), eps5, w["s56"]),
        "h": layer_norm(x, last, eps5, w["s6"]) + x.mean(axis=last,
                                                         keepdims=True),
        "c": layer_norm(x, last, eps12, w["s6"], w["b6"]),
        "d": x / np.sqrt((x * x).mean(axis=last, keepdims=True) + eps6)
             * w["s6"],
        "e": d / (np.sqrt((d * d).mean(axis=last, keepdims=True)) + eps6),
        "f": layer_norm(x, last, eps6) * w["s256"],
        "g": layer_norm(x, (1,), eps6),
    }


def main(argv):
    if argv[0] == "input":
        rng = np.random.RandomState(1)
        np.save(argv[1], rng.uniform(3, 5, (2, 5, 6)).astype(np.float32))
        return 0
    model = onnx.load(argv[1])
    weights = {t.name: numpy_helper.to_array(t).astype(np.float64)
               for t in model.graph.initializer}
    x = np.load(argv[2]).astype(np.float64)
    failures = 0
    for name, want in expected(x, weights).items():
        got = np.load("%s.%s.npy" % (argv[3], name)).astype(np.float64)
        err = float(np.abs(got - want).max() / np.abs(want).max())
        ok = got.shape == want.shape and err <= 1e-5
        failures += not ok
        print("%s %s: relative error %.3g" % ("ok" if ok else "FAIL", name, err))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
