#!/usr/bin/python3
"""The Python API's cost, measured side by side in one run.

1. Per-call overhead: a tiny model (relu of 4 floats) run N times through
   graph_compiler.InferenceSession.run and through graph-run's own timing
   loop (--bench N), both at one thread on the same core; the difference of
   the medians is what a Python call adds (the feeds' checks, the output
   arrays, the GIL released and taken back). Target: at most 20 us. Also the
   same for the tiny model with a symbolic batch (the specialization looked
   up on every call).
2. ResNet-18 (torchvision, random weights, bench/export_models.py) through
   the Python API against ONNX Runtime's node binding (all optimizations)
   and graph-run, at each thread count: median and min ms and the ratios.

Prints the host's CPU and vector ISA first. Needs the Python package built
(build/python_packages, or --build DIR) and, for part 2, onnxruntime-node
(bench/peers.py --setup-only installs it); --no-resnet skips part 2.

Usage: bench/python_api.py [--build DIR] [--work DIR] [--calls N] [--runs N]
                           [--threads 1,all] [--no-resnet]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)
import peers  # noqa: E402  (the runtimes' drivers, the host's description)

# Every core this process may use, before the timings pin it to some.
ALL_CORES = set(peers.available_cores())

TINY = """
func.func @main(%x: tensor<4xf32> {graph.name = "x"})
    -> (tensor<4xf32> {graph.name = "y"}) {
  %y = graph.relu %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
"""


def median(values):
    values = sorted(values)
    n = len(values)
    return values[n // 2] if n % 2 else 0.5 * (values[n // 2 - 1] + values[n // 2])


def time_calls(sess, feeds, calls):
    """Per-call wall times in ms of sess.run, after a warm-up."""
    for _ in range(min(1000, calls)):
        sess.run(None, feeds)
    times = []
    clock = time.perf_counter
    for _ in range(calls):
        start = clock()
        sess.run(None, feeds)
        times.append((clock() - start) * 1e3)
    return times


def graph_run_latency(graph_run, model, inputs, runs, threads=1):
    cmd = peers.pinned([graph_run, model, "--threads", str(threads), "--bench",
                        str(runs)] + inputs, threads)
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    m = peers.GRAPH_RUN_RE.search(out.stdout)
    if out.returncode != 0 or not m:
        sys.exit("graph-run failed: %s" % out.stdout.strip())
    return float(m.group(3)), float(m.group(2))


def tiny_onnx(path):
    import onnx
    from onnx import TensorProto, helper
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])], "tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
              path)


def overhead(gc, graph_run, work, calls):
    mlir = os.path.join(work, "tiny.mlir")
    with open(mlir, "w") as f:
        f.write(TINY)
    x = np.arange(-2, 2, dtype=np.float32)
    x_npy = os.path.join(work, "tiny.x.npy")
    np.save(x_npy, x)
    os.sched_setaffinity(0, {int(peers.CPU)})
    sess = gc.InferenceSession(mlir, threads=1, cache_dir=os.path.join(work, "cache"))
    py = median(time_calls(sess, {"x": x}, calls))

    sym_path = os.path.join(work, "tiny_symbolic.onnx")
    tiny_onnx(sym_path)
    sym = gc.InferenceSession(sym_path, threads=1, cache_dir=os.path.join(work, "cache"))
    py_sym = median(time_calls(sym, {"x": x.reshape(1, 4)}, calls))
    os.sched_setaffinity(0, ALL_CORES)

    native, _ = graph_run_latency(graph_run, mlir, ["--input", "x=" + x_npy], calls)
    print("\nPer-call overhead, tiny model (relu of 4 floats), 1 thread, %d calls:" % calls)
    print("  graph-run --bench median       %8.2f us" % (native * 1e3))
    print("  sess.run median                %8.2f us   overhead %6.2f us (target <= 20)"
          % (py * 1e3, (py - native) * 1e3))
    print("  sess.run median, symbolic N    %8.2f us   overhead %6.2f us"
          % (py_sym * 1e3, (py_sym - native) * 1e3))


def resnet(gc, graph_run, work, runs, warmup, thread_counts):
    onnx_path = os.path.join(work, "resnet18.onnx")
    inp = os.path.join(work, "resnet18.input.npy")
    if not os.path.exists(onnx_path):
        subprocess.run([peers.PYTHON, peers.EXPORT, "export", "--out", work,
                        "--models", "resnet18"], check=True)
    x = np.load(inp)
    args = argparse.Namespace(runs=runs, warmup=warmup)
    print("\nResNet-18, batch 1, %d runs (median / min ms):" % runs)
    print("  %-8s %-22s %-22s %-22s %s" % ("threads", "Python API", "graph-run",
                                           "ORT-all (node)", "Python/ORT  Python/graph-run"))
    for threads in thread_counts:
        cores = sorted(ALL_CORES)[:threads] if threads > 1 else [int(peers.CPU)]
        os.sched_setaffinity(0, set(cores))
        sess = gc.InferenceSession(onnx_path, threads=threads,
                                   cache_dir=os.path.join(work, "cache"))
        feeds = {"input": x}
        for _ in range(warmup):
            sess.run(None, feeds)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            (y,) = sess.run(None, feeds)
            times.append((time.perf_counter() - start) * 1e3)
        os.sched_setaffinity(0, ALL_CORES)
        ours = (median(times), min(times))
        native = graph_run_latency(graph_run, onnx_path, ["--input", "input=" + inp],
                                   runs, threads)
        ort_out = os.path.join(work, "resnet18.ort.npy")
        ort = peers.time_ort(onnx_path, inp, ort_out, "all", args, threads)
        diff = float(np.max(np.abs(np.load(ort_out) - y)))
        print("  %-8d %7.2f / %-12.2f %7.2f / %-12.2f %7.2f / %-12.2f %-11.2f %.2f"
              "   (max |Python - ORT| %.1e)"
              % (threads, ours[0], ours[1], native[0], native[1], ort["median_ms"],
                 ort["min_ms"], ours[0] / ort["median_ms"], ours[0] / native[0], diff))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(os.path.dirname(BENCH), "build"))
    parser.add_argument("--work")
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--threads", default="1,all")
    parser.add_argument("--no-resnet", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(args.build, "python_packages"))
    import graph_compiler as gc
    graph_run = os.path.join(args.build, "bin", "graph-run")
    work = args.work or tempfile.mkdtemp(prefix="graph-python-bench-")
    os.makedirs(work, exist_ok=True)
    host = peers.host_description()
    print("host: %s, %s, %d cores" % (host["cpu"], host["isa"], host["cores"]))
    overhead(gc, graph_run, work, args.calls)
    if not args.no_resnet:
        if not peers.have_ort():
            peers.setup(False)
        resnet(gc, graph_run, work, args.runs, args.warmup,
               peers.parse_threads(args.threads))


if __name__ == "__main__":
    main()
