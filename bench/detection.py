#!/usr/bin/python3
"""A detection model end to end against PyTorch, side by side.

torchvision's ssdlite320_mobilenet_v3_large exported to ONNX (opset 13) as
torch.onnx.export writes it: the MobileNetV3 backbone and the SSDLite heads,
then the post-processing whose sizes only a run decides (per class the
scores above 0.001, TopK of min(their number, 300), the boxes decoded and
clipped; batched NMS guarded by an If for the case without boxes; the best
300 kept). Weights are random (seed 0) but for the classification head,
whose last convolutions are drawn so that the scores spread, and the image
has structure at several scales (random noise alone makes the deep
features, and so the scores, tie almost everywhere).

Runs PyTorch (eager, torch.no_grad, the same threads) and graph-run -O3
--bench N at each thread count on the same image, and checks ours against
PyTorch: the detections before the first two of nearly equal score (within
1e-5) must be PyTorch's, in order (box within 1e-3, label, score within
1e-5); past it float rounding orders candidates of nearly equal score, in
NMS too, so which of them survive may differ: the agreement column gives
the share of PyTorch's detections that ours has (label, score within 1e-5,
IoU above 0.99).

Then the post-processing alone (the model from the heads' outputs on, which
become inputs) on the same random head outputs, ours against ONNX Runtime
(onnxruntime-node of bench/peers, when installed): every detection must be
the same (labels, scores within 1e-6, boxes within 1e-4).

Prints per thread count the median latencies (ours / PyTorch), the
compile time and the agreement. Run on an idle machine.

Usage: bench/detection.py [--threads 1,2] [--runs 10] [--target-cpu NAME]
                          [--build DIR] [--work DIR]
"""
import argparse
import os
import re
import subprocess
import sys
import time

import numpy as np


def export(path, torch, torchvision):
    torch.manual_seed(0)
    model = torchvision.models.detection.ssdlite320_mobilenet_v3_large(
        weights=None, weights_backbone=None).eval()
    with torch.no_grad():
        for p in model.parameters():
            p.add_(torch.randn_like(p) * 0.05)
        for block in model.head.classification_head.module_list:
            block[1].weight.normal_(0, 0.3)
            block[1].bias.normal_(0, 0.3)
    image = sum(torch.nn.functional.interpolate(
        torch.rand(1, 3, s, s), size=320, mode="bilinear")
        for s in (5, 20, 80, 320))[0] / 4
    torch.onnx.export(model, ([image],), path, opset_version=13,
                      input_names=["images"],
                      output_names=["boxes", "scores", "labels"])
    return model, image


HEAD_OUTPUTS = {"/head/regression_head/Concat_12_output_0": 4,
                "/head/classification_head/Concat_12_output_0": 91}


def post_processing(path, out_path):
    """The exported model from the heads' outputs on: their Concats become
    model inputs, and what no output needs goes (the backbone)."""
    import onnx
    from onnx import TensorProto, helper
    model = onnx.load(path)
    graph = model.graph
    nodes = [n for n in graph.node
             if not any(o in HEAD_OUTPUTS for o in n.output)]
    for name, width in HEAD_OUTPUTS.items():
        graph.input.append(helper.make_tensor_value_info(
            name, TensorProto.FLOAT, [1, 3234, width]))
    needed = set(o.name for o in graph.output)
    live = []
    for node in reversed(nodes):
        if any(o in needed for o in node.output):
            live.append(node)
            needed.update(i for i in node.input if i)
            for attr in node.attribute:  # the If's branches read by name
                if attr.type == onnx.AttributeProto.GRAPH:
                    for inner in attr.g.node:
                        needed.update(i for i in inner.input if i)
    for field, kept in ((graph.node, live[::-1]),
                        (graph.initializer, [t for t in graph.initializer
                                             if t.name in needed]),
                        (graph.input, [i for i in graph.input
                                       if i.name in needed])):
        kept = list(kept)
        del field[:]
        field.extend(kept)
    onnx.save(model, out_path)


def check_against_ort(path, image_file, graph_run, work):
    """The post-processing alone on the same random head outputs, ours
    against ONNX Runtime (bench/peers): every detection the same. None
    when they agree, "skipped" without onnxruntime-node, else why not."""
    peers = os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers")
    if not os.path.isdir(os.path.join(peers, "node_modules",
                                      "onnxruntime-node")):
        return "skipped (no onnxruntime-node: bench/peers.py --setup-only)"
    post = os.path.join(work, "post_processing.onnx")
    post_processing(path, post)
    rng = np.random.default_rng(0)
    inputs = ["images=" + image_file]
    for name, width in HEAD_OUTPUTS.items():
        file = os.path.join(work, "%s.npy" % name.strip("/").replace("/", "_"))
        np.save(file, (rng.standard_normal((1, 3234, width)) *
                       (2 if width == 91 else 0.5)).astype(np.float32))
        inputs.append("%s=%s" % (name, file))
    ort_dir = os.path.join(work, "ort")
    os.makedirs(ort_dir, exist_ok=True)
    subprocess.run(["node", os.path.join(peers, "ort_run.js"), post,
                    "--warmup", "0", "--runs", "1", "--outputs", ort_dir] +
                   sum((["--input", i] for i in inputs), []),
                   check=True, capture_output=True)
    outs = {k: os.path.join(work, "post.%s.npy" % k)
            for k in ("boxes", "scores", "labels")}
    subprocess.run([graph_run, "-O3", post] +
                   ["--input=" + i for i in inputs] +
                   ["--output=%s=%s" % item for item in outs.items()],
                   check=True, capture_output=True)
    for key, tolerance in (("labels", 0), ("scores", 1e-6), ("boxes", 1e-4)):
        got = np.load(outs[key])
        want = np.load(os.path.join(ort_dir, key + ".npy"))
        if got.shape != want.shape:
            return "%s %s, ONNX Runtime %s" % (key, got.shape, want.shape)
        if not np.allclose(got, want, rtol=0, atol=tolerance):
            return "%s differ by %.3g" % (key, np.abs(got - want).max())
    return None


def iou(a, b):
    """The intersection over union of boxes a [N, 4] and b [M, 4]."""
    lo = np.maximum(a[:, None, :2], b[None, :, :2])
    hi = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.prod(np.clip(hi - lo, 0, None), axis=2)
    area = lambda x: np.prod(x[:, 2:] - x[:, :2], axis=1)
    return inter / (area(a)[:, None] + area(b)[None, :] - inter + 1e-12)


def check(got, want):
    """(why, agreement): why is None when the detections before the first
    near tie of PyTorch's scores (two within 1e-5: float rounding orders
    them, in NMS too) are PyTorch's, in order; agreement is the share of
    PyTorch's detections that ours has (same label, score within 1e-5, box
    IoU above 0.99)."""
    s = want["scores"]
    ties = np.nonzero(np.abs(np.diff(s)) < 1e-5)[0]
    prefix = ties[0] if len(ties) else len(s)
    if len(got["scores"]) < prefix:
        return "%d detections, PyTorch %d" % (len(got["scores"]), len(s)), 0
    why = None
    if not np.allclose(got["scores"][:prefix], s[:prefix], rtol=0, atol=1e-5):
        why = "scores differ in the first %d" % prefix
    elif not np.allclose(got["boxes"][:prefix], want["boxes"][:prefix],
                         atol=1e-3):
        why = "boxes differ in the first %d" % prefix
    elif not (got["labels"][:prefix] == want["labels"][:prefix]).all():
        why = "labels differ in the first %d" % prefix
    if len(s) == 0:
        return why, 1.0
    same = ((iou(want["boxes"], got["boxes"]) > 0.99) &
            (want["labels"][:, None] == got["labels"][None, :]) &
            (np.abs(s[:, None] - got["scores"][None, :]) < 1e-5))
    return why, same.any(1).mean()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--target-cpu")
    parser.add_argument("--build", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build"))
    parser.add_argument("--work", default="/tmp/graph-bench-detection")
    args = parser.parse_args()
    try:
        import torch
        import torchvision
    except ImportError as e:
        sys.exit("detection.py: %s; install python3-torch and "
                 "python3-torchvision" % e)
    os.makedirs(args.work, exist_ok=True)
    path = os.path.join(args.work, "ssdlite320_mobilenet_v3_large.onnx")
    model, image = export(path, torch, torchvision)
    image_file = os.path.join(args.work, "image.npy")
    np.save(image_file, image.numpy())
    graph_run = os.path.join(args.build, "bin", "graph-run")
    target = ["--target-cpu", args.target_cpu] if args.target_cpu else []

    print("ssdlite320_mobilenet_v3_large, 320x320; graph-run -O3 %s--bench %d"
          " vs PyTorch eager (median ms)" % (" ".join(target) + " " if target
                                             else "", args.runs))
    print("%7s %10s %10s %9s %11s %11s" % ("threads", "ours", "PyTorch",
                                           "ours/PT", "compile s", "agreement"))
    failures = 0
    for threads in [int(t) for t in args.threads.split(",")]:
        torch.set_num_threads(threads)
        with torch.no_grad():
            want = {k: v.numpy() for k, v in model([image])[0].items()}
            times = []
            for _ in range(args.runs):
                start = time.perf_counter()
                model([image])
                times.append((time.perf_counter() - start) * 1e3)
        outs = {k: os.path.join(args.work, "%s.%d.npy" % (k, threads))
                for k in ("boxes", "scores", "labels")}
        run = subprocess.run(
            [graph_run, "-O3", "--threads", str(threads), "--bench",
             str(args.runs)] + target + [path, image_file] +
            ["--output=%s=%s" % item for item in outs.items()],
            capture_output=True, text=True)
        if run.returncode:
            print("FAIL graph-run: %s" % run.stderr.strip())
            return 1
        text = run.stdout + run.stderr
        ours = float(re.search(r"median ([0-9.]+) ms", text).group(1))
        compile_time = re.search(r"compile(?: time)?:? ([0-9.]+) (m?s)", text)
        seconds = (float(compile_time.group(1)) /
                   (1e3 if compile_time.group(2) == "ms" else 1)
                   if compile_time else float("nan"))
        why, agreement = check({k: np.load(f) for k, f in outs.items()},
                               want)
        if why:
            print("FAIL %d threads: %s" % (threads, why))
            failures += 1
        pytorch = float(np.median(times))
        print("%7d %10.1f %10.1f %9.2f %11.1f %10.1f%%"
              % (threads, ours, pytorch, ours / pytorch, seconds,
                 100 * agreement))
    why = check_against_ort(path, image_file, graph_run, args.work)
    print("post-processing alone on the same head outputs, ours against ONNX "
          "Runtime: %s" % (why or "the same detections"))
    if why and not why.startswith("skipped"):
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
