#!/usr/bin/python3
"""Quantized linear layers against float ones, ours and ONNX Runtime's.

For the linear layers of transformers and a classifier's GEMV, builds
  f32   MatMul by a float weight,
  dyn   what onnxruntime.quantization.quantize_dynamic writes for it:
        DynamicQuantizeLinear of the activations, MatMulInteger by int8
        weights (per-tensor, symmetric), the sums cast to float and scaled,
  qdq   what quantize_static writes in the QDQ form: QuantizeLinear of the
        activations (uint8, one scale calibrated on the input) and
        DequantizeLinear, MatMul by DequantizeLinear of int8 weights (one
        symmetric scale per column), the result quantized and dequantized
        again (graph-qdq-to-integer makes the product an integer one),
and times each, one thread pinned to one core (bench/peers.py's helpers):
graph-run -O3 (this CPU; with --avx2 also --target-cpu=haswell, the AVX2
path of an AVX-512 host) and onnxruntime-node (all optimizations), when
bench/peers has it. Prints the host, then per shape the median latencies,
each int8 form's speedup over f32 for each runtime, and ours/ORT for each.
The int8 outputs must agree with ORT's within one quantization step of the
product.

With --models NAME,... (from the models bench/peers.py exports into
--dir, default /tmp/peers: NAME.onnx and NAME.input.npy), each model is
quantized by bench/quantize.py (the QDQ form of quantize_static) and timed
instead, f32 and QDQ, at 1 and 2 threads, ours and ORT's; then ours and
ORT's QDQ outputs compared, and the top-1 agreement of our QDQ model with
our float one over --agreement random inputs (classifiers).

Usage: bench/int8.py [--build DIR] [--runs N] [--warmup W] [--avx2]
       bench/int8.py --models resnet18,mobilenet_v2,bert_encoder [--dir DIR]
                     [--agreement N] [--build DIR] [--runs N] [--avx2]
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402

SHAPES = [
    ("ViT-B MLP up 197x768x3072", 197, 768, 3072),
    ("ViT-B MLP down 197x3072x768", 197, 3072, 768),
    ("BERT proj 128x768x768", 128, 768, 768),
    ("GEMV 1x1280x1000", 1, 1280, 1000),
]


def save(nodes, m, k, inits, path):
    graph = helper.make_graph(
        nodes, "linear",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [m, k])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(a, n) for n, a in inits])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, path)


def build(work, name, m, k, n):
    rng = np.random.default_rng(0)
    w = rng.standard_normal((k, n)).astype(np.float32) * 0.05
    scale = np.float32(np.abs(w).max() / 127)
    q = np.clip(np.rint(w / scale), -127, 127).astype(np.int8)
    columns = (np.abs(w).max(axis=0) / 127).astype(np.float32)
    qc = np.clip(np.rint(w / columns), -127, 127).astype(np.int8)
    x = rng.standard_normal((m, k)).astype(np.float32)
    # Calibrated as quantize_static's MinMax does: the input's range, with 0.
    lo, hi = min(float(x.min()), 0.0), max(float(x.max()), 0.0)
    x_scale = np.float32((hi - lo) / 255)
    x_zero = np.uint8(np.clip(np.rint(-lo / x_scale), 0, 255))
    y = x @ (qc.astype(np.float32) * columns)
    y_scale = np.float32(np.abs(y).max() / 127)
    paths = {key: os.path.join(work, "%s.%s.onnx" % (name, key))
             for key in ("f32", "dyn", "qdq")}
    save([helper.make_node("MatMul", ["input", "w"], ["y"])], m, k,
         [("w", q.astype(np.float32) * scale)], paths["f32"])
    save([helper.make_node("DynamicQuantizeLinear", ["input"],
                           ["xq", "xs", "xz"]),
          helper.make_node("MatMulInteger", ["xq", "wq", "xz"], ["acc"]),
          helper.make_node("Cast", ["acc"], ["accf"], to=TensorProto.FLOAT),
          helper.make_node("Mul", ["xs", "ws"], ["s"]),
          helper.make_node("Mul", ["accf", "s"], ["y"])], m, k,
         [("wq", q), ("ws", np.array(scale))], paths["dyn"])
    save([helper.make_node("QuantizeLinear", ["input", "xs", "xz"], ["xq"]),
          helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
          helper.make_node("DequantizeLinear", ["wq", "ws", "wz"], ["wd"],
                           axis=1),
          helper.make_node("MatMul", ["xd", "wd"], ["p"]),
          helper.make_node("QuantizeLinear", ["p", "ys", "yz"], ["pq"]),
          helper.make_node("DequantizeLinear", ["pq", "ys", "yz"], ["y"])],
         m, k, [("xs", np.array(x_scale)), ("xz", np.array(x_zero)),
                ("wq", qc), ("ws", columns), ("wz", np.zeros(n, np.int8)),
                ("ys", np.array(y_scale)), ("yz", np.array(np.int8(0)))],
         paths["qdq"])
    inp = os.path.join(work, name + ".in.npy")
    np.save(inp, x)
    return paths, inp, float(y_scale)


def time_ours(graph_run, model, inp, threads, runs, extra=()):
    cmd = peers.pinned([graph_run, model, "-O3", "--no-cache", "--input",
                        "input=" + inp, "--bench", str(runs), "--threads",
                        str(threads)] + list(extra), threads)
    r = peers.run(cmd, "graph-run")
    return float(peers.GRAPH_RUN_RE.search(r.stdout + r.stderr).group(3))


def top1_agreement(graph_run, f32, qdq, shape, count, work):
    """Inputs on which the QDQ model's top class is the float model's."""
    rng = np.random.default_rng(1)
    agree = 0
    for i in range(count):
        inp = os.path.join(work, "agreement%d.npy" % i)
        np.save(inp, rng.standard_normal(shape).astype(np.float32))
        top = []
        for model in (f32, qdq):
            out = inp + ".out.npy"
            peers.run([graph_run, model, "-O3", "--input", "input=" + inp,
                       "--output", out], "graph-run")
            top.append(int(np.load(out).argmax()))
        agree += top[0] == top[1]
    return agree


def models_main(args, graph_run, ort):
    work = tempfile.mkdtemp(prefix="int8-models-")
    here = os.path.dirname(os.path.abspath(__file__))
    for name in args.models.split(","):
        f32 = os.path.join(args.dir, name + ".onnx")
        inp = os.path.join(args.dir, name + ".input.npy")
        if not os.path.exists(f32):
            sys.exit("%s not found: bench/peers.py exports it into %s" % (
                f32, args.dir))
        qdq = os.path.join(work, name + ".qdq.onnx")
        subprocess.run([sys.executable, os.path.join(here, "quantize.py"),
                        f32, inp, qdq, "--build", args.build], check=True)
        for threads in (1, 2):
            rows = [("ours", [])]
            if args.avx2:
                rows.append(("ours AVX2", ["--target-cpu=haswell"]))
            ours = None
            for runtime, extra in rows:
                t = [time_ours(graph_run, m, inp, threads, args.runs, extra)
                     for m in (f32, qdq)]
                ours = ours or t
                print("%-14s %dT %-10s f32 %8.2f ms  qdq %8.2f ms  "
                      "f32/qdq %5.2fx" % (name, threads, runtime, t[0], t[1],
                                          t[0] / t[1]))
            if ort:
                t = [peers.time_ort(m, inp, m + ".ort.npy", "all", args,
                                    threads)["median_ms"] for m in (f32, qdq)]
                print("%-14s %dT %-10s f32 %8.2f ms  qdq %8.2f ms  "
                      "f32/qdq %5.2fx  ours/ORT f32 %.2f qdq %.2f" % (
                          name, threads, "ORT", t[0], t[1], t[0] / t[1],
                          ours[0] / t[0], ours[1] / t[1]))
        out = qdq + ".ours.npy"
        peers.run([graph_run, qdq, "-O3", "--input", "input=" + inp,
                   "--output", out], "graph-run")
        if ort:
            ref = np.load(qdq + ".ort.npy")
            print("%-14s ours - ORT on the QDQ model: max |diff| %.4g (output "
                  "range %.3g)" % (name, np.abs(np.load(out) - ref).max(),
                                   np.abs(ref).max()))
        if args.agreement and np.load(out).ndim == 2:
            agree = top1_agreement(graph_run, f32, qdq, np.load(inp).shape,
                                   args.agreement, work)
            print("%-14s top-1 of QDQ = float on %d of %d random inputs" % (
                name, agree, args.agreement))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build"))
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--avx2", action="store_true",
                        help="also time graph-run's AVX2 code (haswell)")
    parser.add_argument("--models", help="time these exported models, "
                        "float and quantized, instead of the layers")
    parser.add_argument("--dir", default="/tmp/peers",
                        help="where bench/peers.py exported the models")
    parser.add_argument("--agreement", type=int, default=100,
                        help="random inputs for the top-1 agreement")
    args = parser.parse_args()
    graph_run = os.path.join(args.build, "bin", "graph-run")
    host = peers.host_description()
    print("host: %s, %s (%s), %d cores" % (host["cpu"], host["isa"],
                                           " ".join(host["flags"]),
                                           host["cores"]))
    ort = peers.have_ort()
    if not ort:
        print("onnxruntime-node not installed in bench/peers (peers.py "
              "--setup): ours only")
    if args.models:
        return models_main(args, graph_run, ort)
    work = tempfile.mkdtemp(prefix="int8-bench-")
    targets = [("ours", [])]
    if args.avx2:
        targets.append(("ours AVX2", ["--target-cpu=haswell"]))
    header = "%-30s %-10s %9s %9s %9s %9s %9s" % (
        "shape", "runtime", "f32 ms", "dyn ms", "qdq ms", "f32/dyn",
        "f32/qdq")
    print(header)
    print("-" * len(header))
    forms = ("f32", "dyn", "qdq")
    for label, m, k, n in SHAPES:
        name = label.split()[-1]
        paths, inp, step = build(work, name, m, k, n)
        ours = None
        for runtime, extra in targets:
            times = {}
            for form in forms:
                out = paths[form] + ".%s.out.npy" % runtime.replace(" ", "_")
                cmd = peers.pinned([graph_run, paths[form], "-O3",
                                    "--no-cache", "--input", "input=" + inp,
                                    "--output", out, "--bench",
                                    str(args.runs), "--threads", "1"] + extra)
                r = peers.run(cmd, "graph-run")
                found = peers.GRAPH_RUN_RE.search(r.stdout + r.stderr)
                times[form] = float(found.group(3))
            if not extra:
                ours = times
            print("%-30s %-10s %9.3f %9.3f %9.3f %8.2fx %8.2fx" % (
                label, runtime, times["f32"], times["dyn"], times["qdq"],
                times["f32"] / times["dyn"], times["f32"] / times["qdq"]))
        if ort:
            times = {}
            for form in forms:
                out = paths[form] + ".ort.out.npy"
                times[form] = peers.time_ort(paths[form], inp, out, "all",
                                             args)["median_ms"]
            print("%-30s %-10s %9.3f %9.3f %9.3f %8.2fx %8.2fx   ours/ORT "
                  "dyn %.2f qdq %.2f" % (
                      label, "ORT", times["f32"], times["dyn"], times["qdq"],
                      times["f32"] / times["dyn"],
                      times["f32"] / times["qdq"],
                      ours["dyn"] / times["dyn"], ours["qdq"] / times["qdq"]))
            limits = {
                "dyn": np.abs(np.load(paths["f32"] + ".ours.out.npy")).max()
                / 127,
                "qdq": step * 1.001}
            for form in ("dyn", "qdq"):
                diff = np.abs(np.load(paths[form] + ".ours.out.npy") -
                              np.load(paths[form] + ".ort.out.npy")).max()
                if diff > limits[form]:
                    sys.exit("%s %s: ours and ORT's outputs differ by %g, "
                             "more than a step (%g)" % (
                                 label, form, diff, limits[form]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
