#!/usr/bin/python3
"""Compile time against graph size: graph-optimize and each of its passes on
generated graphs of 100,000 ops (or --ops N), in ops per second.

usage: scale.py [--ops N] [--bin DIR] [--graphs NAME,...] [--repeat R]

Each graph is generated here (deterministically), written as MLIR, and run
through `graph-opt --mlir-timing` once per pass and once for the whole
graph-optimize pipeline; the time is the passes' own (parsing and printing
excluded), the best of R runs. ops/s = ops in the input graph / seconds.
The graphs:
  mixed        conv2d and matmul anchors with epilogue chains (fusion),
               constant subgraphs (folding), dead branches, shared values
  chain        one long chain of elementwise ops on a function argument
  fold-chain   one long chain of ops on constants: everything folds
  dead         a live chain with a dead op hanging off every value
  fanout       one value read by every op
  fuse-chain   matmul -> add -> tanh repeated: everything fuses
A near-linear pass keeps its ops/s as the graph grows: --ops 10000 and
--ops 100000 side by side show it.
"""

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

T = "tensor<4x8xf32>"
PASSES = ["graph-fold-constants", "graph-fuse", "graph-eliminate-dead-code",
          "graph-report"]


def unary(name, x, t=T):
    return "graph.%s %s : %s" % (name, x, t)


def binary(name, x, y, t=T):
    return "graph.%s %s, %s : (%s, %s) -> %s" % (name, x, y, t, t, t)


class Writer:
    def __init__(self):
        self.lines = []
        self.ops = 0
        self.next = 0

    def op(self, text):
        name = "%%v%d" % self.next
        self.next += 1
        self.ops += 1
        self.lines.append("  %s = %s" % (name, text))
        return name

    def text(self, args, results):
        head = "func.func @main(%s) -> (%s) {" % (
            ", ".join("%s: %s" % a for a in args),
            ", ".join(t for _, t in results))
        ret = "  return %s : %s" % (", ".join(v for v, _ in results),
                                    ", ".join(t for _, t in results))
        return "\n".join([head] + self.lines + [ret, "}"]) + "\n"


def mixed(n, rng):
    """Blocks of: conv2d (constant weight) -> batch_norm -> relu, or matmul
    -> add -> tanh, reading a recent value; a constant-only subgraph; a dead
    branch now and then."""
    w = Writer()
    x4, x2 = "tensor<1x4x6x6xf32>", "tensor<6x8xf32>"
    wt, c4, m8 = "tensor<4x4x3x3xf32>", "tensor<4xf32>", "tensor<8x8xf32>"
    r8 = "tensor<8xf32>"
    wc = w.op("graph.constant dense<0.125> : %s" % wt)
    bn = [w.op("graph.constant dense<%s> : %s" % (v, c4))
          for v in ("1.0", "0.5", "0.25", "2.0")]
    mw = w.op("graph.constant dense<0.25> : %s" % m8)
    vals4, vals2 = ["%a"], ["%b"]
    while w.ops < n:
        kind = rng.random()
        if kind < 0.35:
            x = rng.choice(vals4[-20:])
            c = w.op("graph.conv2d %s, %s {padding = array<i64: 1, 1, 1, 1>} "
                     ": (%s, %s) -> %s" % (x, wc, x4, wt, x4))
            b = w.op("graph.batch_norm %s, %s, %s, %s, %s : (%s, %s, %s, %s, "
                     "%s) -> %s" % ((c,) + tuple(bn) + (x4,) + (c4,) * 4 +
                                    (x4,)))
            r = w.op(unary("relu", b, x4))
            vals4.append(r)
        elif kind < 0.7:
            x = rng.choice(vals2[-20:])
            m = w.op("graph.matmul %s, %s : (%s, %s) -> %s" % (x, mw, x2, m8,
                                                               x2))
            a = w.op(binary("add", m, rng.choice(vals2), x2))
            vals2.append(w.op(unary("tanh", a, x2)))
        elif kind < 0.85:
            # A constant-only subgraph: it folds.
            c = w.op("graph.constant dense<%.3f> : %s" % (rng.random(), r8))
            d = w.op(unary("sigmoid", c, r8))
            e = w.op(binary("mul", d, c, r8))
            vals2.append(w.op("graph.add %s, %s : (%s, %s) -> %s" % (
                rng.choice(vals2[-5:]), e, x2, r8, x2)))
        else:
            # A dead branch.
            x = rng.choice(vals4)
            d = w.op(unary("sigmoid", x, x4))
            w.op(binary("mul", d, x, x4))
    return w.text([("%a", x4), ("%b", x2)],
                  [(vals4[-1], x4), (vals2[-1], x2)]), w.ops


def chain(n, rng):
    w = Writer()
    v = "%x"
    names = ["relu", "tanh", "sigmoid"]
    while w.ops < n:
        v = w.op(binary("add", v, "%x") if w.ops % 3 == 0
                 else unary(rng.choice(names), v))
    return w.text([("%x", T)], [(v, T)]), w.ops


def fold_chain(n, rng):
    w = Writer()
    c = w.op("graph.constant dense<0.5> : %s" % T)
    v = c
    while w.ops < n - 1:
        v = w.op(binary(rng.choice(["add", "mul", "sub"]), v, c)
                 if w.ops % 2 else unary("tanh", v))
    r = w.op(binary("add", v, "%x"))
    return w.text([("%x", T)], [(r, T)]), w.ops


def dead(n, rng):
    w = Writer()
    v = "%x"
    while w.ops < n:
        w.op(unary("sigmoid", v))
        v = w.op(unary("relu", v))
    return w.text([("%x", T)], [(v, T)]), w.ops


def fanout(n, rng):
    w = Writer()
    vals = [w.op(unary(rng.choice(["relu", "tanh"]), "%x")) for _ in range(n)]
    return w.text([("%x", T)], [(vals[-1], T)]), w.ops


def fuse_chain(n, rng):
    w = Writer()
    m = "tensor<8x8xf32>"
    wt = w.op("graph.constant dense<0.125> : %s" % m)
    v = "%x"
    while w.ops < n:
        mm = w.op("graph.matmul %s, %s : (%s, %s) -> %s" % (v, wt, m, m, m))
        a = w.op(binary("add", mm, "%x", m))
        v = w.op(unary("tanh", a, m))
    return w.text([("%x", m)], [(v, m)]), w.ops


GRAPHS = {"mixed": mixed, "chain": chain, "fold-chain": fold_chain,
          "dead": dead, "fanout": fanout, "fuse-chain": fuse_chain}


def pass_seconds(graph_opt, path, pipeline, timeout):
    """The passes' own wall time in seconds from --mlir-timing, or None when
    the run exceeds `timeout` seconds."""
    try:
        proc = subprocess.run(
            [graph_opt, path, pipeline, "--mlir-timing", "-o", os.devnull],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if proc.returncode != 0:
        sys.exit("graph-opt %s failed on %s:\n%s" % (pipeline, path,
                                                     proc.stderr[-2000:]))
    total = 0.0
    for line in proc.stderr.splitlines():
        m = re.match(r"\s*([0-9.]+) \(\s*[0-9.]+%\)\s+(\S+)", line)
        if m and m.group(2).startswith("Graph"):
            total += float(m.group(1))
    return total


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ops", type=int, default=100000)
    parser.add_argument("--bin")
    parser.add_argument("--graphs", default=",".join(GRAPHS))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--timeout", type=int, default=600)
    args = parser.parse_args(argv)
    graph_opt = os.path.join(args.bin, "graph-opt") if args.bin \
        else shutil.which("graph-opt")
    if not graph_opt:
        sys.exit("graph-opt is not on PATH: give --bin DIR")

    work = tempfile.mkdtemp(prefix="graph-scale-")
    try:
        header = "%-11s %8s" % ("graph", "ops") + "".join(
            " %14s" % p.replace("graph-", "") for p in PASSES) + \
            " %16s" % "graph-optimize"
        print("ops/s per pass (the passes' own time, best of %d runs)"
              % args.repeat)
        print(header)
        worst = None
        for name in args.graphs.split(","):
            text, ops = GRAPHS[name](args.ops, random.Random(0))
            path = os.path.join(work, name + ".mlir")
            with open(path, "w") as f:
                f.write(text)
            row = "%-11s %8d" % (name, ops)
            for pipeline in ["--" + p for p in PASSES] + ["--graph-optimize"]:
                times = [pass_seconds(graph_opt, path, pipeline, args.timeout)
                         for _ in range(args.repeat)]
                if any(t is None for t in times):
                    cell = ">%ds" % args.timeout
                else:
                    best = max(min(times), 1e-6)
                    cell = "%.0f" % (ops / best)
                    if pipeline == "--graph-optimize":
                        worst = min(worst or float("inf"), ops / best)
                row += (" %16s" if pipeline == "--graph-optimize"
                        else " %14s") % cell
            print(row, flush=True)
        if worst is not None:
            print("slowest graph-optimize: %.0f ops/s" % worst)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
