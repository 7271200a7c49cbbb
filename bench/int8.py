#!/usr/bin/python3
"""Quantized linear layers against float ones, ours and ONNX Runtime's.

For the linear layers of transformers and a classifier's GEMV, builds
  f32   MatMul by a float weight,
  int8  what onnxruntime.quantization.quantize_dynamic writes for it:
        DynamicQuantizeLinear of the activations, MatMulInteger by int8
        weights (per-tensor, symmetric), the sums cast to float and scaled,
and times each, one thread pinned to one core (bench/peers.py's helpers):
graph-run -O3 (this CPU; with --avx2 also --target-cpu=haswell, the AVX2
path of an AVX-512 host) and onnxruntime-node (all optimizations), when
bench/peers has it. Prints the host, then per shape the median latencies,
int8's speedup over f32 for each runtime, and ours/ORT for int8. The int8
outputs must agree with ORT's within one quantization step of the product.

Usage: bench/int8.py [--build DIR] [--runs N] [--warmup W] [--avx2]
"""
import argparse
import os
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
    f32 = os.path.join(work, name + ".f32.onnx")
    int8 = os.path.join(work, name + ".int8.onnx")
    save([helper.make_node("MatMul", ["input", "w"], ["y"])], m, k,
         [("w", q.astype(np.float32) * scale)], f32)
    save([helper.make_node("DynamicQuantizeLinear", ["input"],
                           ["xq", "xs", "xz"]),
          helper.make_node("MatMulInteger", ["xq", "wq", "xz"], ["acc"]),
          helper.make_node("Cast", ["acc"], ["accf"], to=TensorProto.FLOAT),
          helper.make_node("Mul", ["xs", "ws"], ["s"]),
          helper.make_node("Mul", ["accf", "s"], ["y"])], m, k,
         [("wq", q), ("ws", np.array(scale))], int8)
    inp = os.path.join(work, name + ".in.npy")
    np.save(inp, rng.standard_normal((m, k)).astype(np.float32))
    return f32, int8, inp


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build"))
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--avx2", action="store_true",
                        help="also time graph-run's AVX2 code (haswell)")
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
    work = tempfile.mkdtemp(prefix="int8-bench-")
    targets = [("ours", [])]
    if args.avx2:
        targets.append(("ours AVX2", ["--target-cpu=haswell"]))
    header = "%-30s %-10s %9s %9s %7s" % ("shape", "runtime", "f32 ms",
                                          "int8 ms", "speedup")
    print(header)
    print("-" * len(header))
    for label, m, k, n in SHAPES:
        name = label.split()[-1]
        f32, int8, inp = build(work, name, m, k, n)
        ours_int8 = None
        for runtime, extra in targets:
            times = []
            for model in (f32, int8):
                out = model + ".%s.out.npy" % runtime.replace(" ", "_")
                cmd = peers.pinned([graph_run, model, "-O3", "--no-cache",
                                    "--input", "input=" + inp, "--output",
                                    out, "--bench", str(args.runs),
                                    "--threads", "1"] + extra)
                r = peers.run(cmd, "graph-run")
                found = peers.GRAPH_RUN_RE.search(r.stdout + r.stderr)
                times.append(float(found.group(3)))
            if not extra:
                ours_int8 = times[1]
            print("%-30s %-10s %9.3f %9.3f %6.2fx" % (
                label, runtime, times[0], times[1], times[0] / times[1]))
        if ort:
            times = []
            for model in (f32, int8):
                out = model + ".ort.out.npy"
                times.append(peers.time_ort(model, inp, out, "all", args)
                             ["median_ms"])
            print("%-30s %-10s %9.3f %9.3f %6.2fx   ours/ORT int8 %.2f" % (
                label, "ORT", times[0], times[1], times[0] / times[1],
                ours_int8 / times[1]))
            ours = np.load(int8 + ".ours.out.npy")
            theirs = np.load(int8 + ".ort.out.npy")
            step = np.abs(np.load(f32 + ".ours.out.npy")).max() / 127
            diff = np.abs(ours - theirs).max()
            if diff > step:
                sys.exit("%s: ours and ORT's int8 outputs differ by %g, more "
                         "than a step (%g)" % (label, diff, step))
    return 0


if __name__ == "__main__":
    sys.exit(main())
