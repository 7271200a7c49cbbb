#!/usr/bin/python3
"""Classify image-sized inputs with a torchvision model through graph_compiler.

    PYTHONPATH=build/python_packages /usr/bin/python3 examples/python/classify.py [--model resnet18] [--out DIR]

Builds torchvision's ResNet-18 (or --model mobilenet_v2) with random weights,
exports it to ONNX with a dynamic batch (torch.onnx.export's dynamic_axes, as
most models are exported), and runs it through graph_compiler.InferenceSession
at batch 1 and 8: the session compiles a specialization per batch size on
first use (then the compile cache keeps it), and each result is checked
against PyTorch's. The same with ONNX Runtime's API is beside each call,
commented out: switching is the import line. It also prints graph-report's
figures for the optimized graph (graph_compiler.compiler.report).

Needs Debian's python3-torch and python3-torchvision (scripts/setup.sh
installs them); run it with /usr/bin/python3. The first run compiles (tens
of seconds on two cores); later runs load from the compile cache.
"""
import argparse
import os
import time

import numpy as np
import torch
import torchvision

import graph_compiler as gc
from graph_compiler.compiler import report
# import onnxruntime as ort  # not a Debian package: pip install onnxruntime


def export(name, path):
    """The model with random weights (seeded), in eval() mode, exported with
    a symbolic batch "N"; returns the PyTorch module."""
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(weights=None).eval()
    torch.onnx.export(model, torch.zeros(1, 3, 224, 224), path,
                      input_names=["image"], output_names=["logits"],
                      dynamic_axes={"image": {0: "N"}, "logits": {0: "N"}},
                      opset_version=13)
    return model


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="resnet18",
                        choices=["resnet18", "mobilenet_v2"])
    parser.add_argument("--out", default="build/examples/python",
                        help="where the .onnx file goes")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, args.model + ".onnx")
    model = export(args.model, path)

    sess = gc.InferenceSession(path)
    # sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    inputs = sess.get_inputs()
    print("inputs:", [(i.name, i.shape, i.type) for i in inputs])
    print("outputs:", [(o.name, o.shape, o.type) for o in sess.get_outputs()])

    rng = np.random.RandomState(0)
    for batch in (1, 8):
        images = rng.uniform(0, 1, (batch, 3, 224, 224)).astype(np.float32)
        start = time.perf_counter()
        (logits,) = sess.run(None, {inputs[0].name: images})  # same for ort
        first = time.perf_counter() - start
        start = time.perf_counter()
        sess.run(None, {inputs[0].name: images})
        again = time.perf_counter() - start
        with torch.no_grad():
            expected = model(torch.from_numpy(images)).numpy()
        error = np.abs(logits - expected).max() / np.abs(expected).max()
        assert logits.shape == (batch, 1000), logits.shape
        assert error < 1e-3, "differs from PyTorch: %g" % error
        assert (logits.argmax(1) == expected.argmax(1)).all()
        print("batch %d: classes %s; max relative difference to PyTorch %.1e; "
              "first run %.2f s (compile or cache), then %.1f ms"
              % (batch, logits.argmax(1).tolist(), error, first, 1e3 * again))

    figures = report(path, input_shapes={"image": [1, 3, 224, 224]})
    print("after graph-optimize: %d fused groups, %d layout changes, %.1f MB "
          "of intermediates kept off memory"
          % (sum(figures["fused"].values()), figures["layout_changes"],
             figures["saving_bytes"] / 1e6))


if __name__ == "__main__":
    main()
