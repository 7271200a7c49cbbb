#!/usr/bin/python3
"""How long graph-viz takes on large graphs.

  viz_bench.py [--build build] [--ops 2000] [--runs 3] [MODEL.onnx|.mlir ...]

Generates a graph of about --ops ops (a chain of conv -> batch_norm -> relu
-> add blocks with constant weights, a constant product to fold every few
blocks and a dead op now and then, so that every pass has work), runs
`graph-viz` on it --runs times, and prints the best and median wall time,
the ops of each step and the page's size. Models given on the command line
(e.g. ResNet-18 and MobileNetV2 from bench/export_models.py) are timed the
same way. The time covers everything: parsing, the pipeline, the snapshots,
Graphviz's layouts (both views of every step, one `dot` process per core)
and writing the page.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

CHANNELS = 8
SIZE = 8


def generate(num_ops):
    """MLIR text of a function of about `num_ops` graph ops."""
    t = "tensor<1x%dx%dx%dxf32>" % (CHANNELS, SIZE, SIZE)
    w = "tensor<%dx%dx3x3xf32>" % (CHANNELS, CHANNELS)
    c = "tensor<%dxf32>" % CHANNELS
    lines = ["func.func @main(%%x: %s {graph.name = \"x\"}) -> (%s {graph.name = \"y\"}) {" % (t, t)]
    ops, block, value = 0, 0, "%x"
    while ops < num_ops - 1:
        b = "b%d" % block
        lines += [
            "  %%%s_w = graph.constant dense<0.01> : %s" % (b, w),
            "  %%%s_s = graph.constant dense<1.0> : %s" % (b, c),
            "  %%%s_b = graph.constant dense<0.1> : %s" % (b, c),
            "  %%%s_m = graph.constant dense<0.0> : %s" % (b, c),
            "  %%%s_v = graph.constant dense<1.0> : %s" % (b, c),
            "  %%%s_conv = graph.conv2d %s, %%%s_w {padding = array<i64: 1, 1, 1, 1>} : (%s, %s) -> %s"
            % (b, value, b, t, w, t),
            "  %%%s_bn = graph.batch_norm %%%s_conv, %%%s_s, %%%s_b, %%%s_m, %%%s_v : (%s, %s, %s, %s, %s) -> %s"
            % (b, b, b, b, b, b, t, c, c, c, c, t),
            "  %%%s_relu = graph.relu %%%s_bn : %s" % (b, b, t),
            "  %%%s_add = graph.add %%%s_relu, %s : (%s, %s) -> %s" % (b, b, value, t, t, t),
        ]
        ops += 9
        value = "%%%s_add" % b
        if block % 4 == 0:
            lines += [
                "  %%%s_c1 = graph.constant dense<2.0> : tensor<1xf32>" % b,
                "  %%%s_c2 = graph.constant dense<3.0> : tensor<1xf32>" % b,
                "  %%%s_k = graph.mul %%%s_c1, %%%s_c2 : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>" % (b, b, b),
                "  %%%s_scaled = graph.mul %s, %%%s_k : (%s, tensor<1xf32>) -> %s" % (b, value, b, t, t),
                "  %%%s_dead = graph.sigmoid %s : %s" % (b, value, t),
            ]
            ops += 5
            value = "%%%s_scaled" % b
        block += 1
    lines += ["  return %s : %s" % (value, t), "}"]
    return "\n".join(lines) + "\n", ops + 1


def time_page(graph_viz, model, runs, out_dir):
    out = os.path.join(out_dir, os.path.basename(model) + ".html")
    times, summary = [], ""
    for _ in range(runs):
        start = time.perf_counter()
        result = subprocess.run([graph_viz, model, "-o", out],
                                capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if result.returncode != 0:
            sys.exit("graph-viz failed on %s:\n%s" % (model, result.stderr))
        summary = result.stdout.strip().split(".html: ", 1)[-1]
    size = os.path.getsize(out)
    print("%-28s best %6.2f s  median %6.2f s  page %5.1f MB  steps: %s"
          % (os.path.basename(model), min(times), statistics.median(times),
             size / 1e6, summary))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--ops", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("models", nargs="*")
    args = parser.parse_args()

    graph_viz = os.path.join(args.build, "bin", "graph-viz")
    if not os.path.exists(graph_viz):
        sys.exit("no %s: build first (scripts/setup.sh)" % graph_viz)
    with tempfile.TemporaryDirectory(prefix="viz-bench-") as out_dir:
        text, ops = generate(args.ops)
        generated = os.path.join(out_dir, "generated-%d-ops.mlir" % ops)
        with open(generated, "w") as f:
            f.write(text)
        print("graph-viz, %d cores; wall time of the whole run (parse, "
              "pipeline, layouts, page)" % os.cpu_count())
        time_page(graph_viz, generated, args.runs, out_dir)
        for model in args.models:
            time_page(graph_viz, model, args.runs, out_dir)


if __name__ == "__main__":
    main()
