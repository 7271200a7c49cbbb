#!/usr/bin/python3
"""Random valid graphs of the graph dialect, run differentially.

Every graph is generated from a seed (the same seed, the same graph, on every
machine) and checked three ways: graph-run at -O0, graph-run at -O3, and an
independent NumPy evaluation with the kernels of
test/Integration/Inputs/reference.py. A graph fails when graph-run crashes,
hangs, refuses it (it is valid by construction), or when an output disagrees
with NumPy beyond a tolerance scaled to the output's magnitude and to the
conditioning of the graph (see `tolerance`). A failing graph is reduced
(outputs dropped, ops bypassed, shapes shrunk) while it keeps failing the
same way, and saved as a lit test in reference.py's format.

usage:
  random_graphs.py generate SEED [-o FILE]
      Prints the graph of SEED (with its EXPECT line).
  random_graphs.py check FILE... [--bin DIR]
      Runs saved graphs (random_graphs.py's or reference.py's format, random
      inputs from the file's seed) and reports each.
  random_graphs.py campaign --seeds A:B[:STEP] [--bin DIR] [--jobs N]
                   [--reduce] [--save DIR] [--work DIR] [--timeout S]
      Generates and checks the graphs of seeds A..B-1 (every STEP-th);
      prints one line per failure and a summary. With --reduce, failures are reduced; with
      --save, the reduced reproducers are written to DIR as lit tests.
      Exits 1 when any graph failed.
  random_graphs.py reduce-selftest [--bin DIR]
      Reduces a graph against a synthetic failure (any graph that still
      contains a conv2d with stride 2 and a batch_norm after it "fails") and
      prints the reproducer: a check of the reducer itself.

--bin defaults to the directory of graph-run on PATH.
"""

import argparse
import concurrent.futures
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "test", "Integration", "Inputs"))
import reference as ref  # noqa: E402

F32 = np.float32
EPS = 2.0 ** -24

# Tensors stay small: the point is variety of structure and attributes, and
# thousands of graphs must compile and run in reasonable time.
MAX_ELEMENTS = 4096


class Invalid(Exception):
    """A shape or attribute that the op does not accept."""


# ===--------------------------------------------------------------------=== #
# The graph
# ===--------------------------------------------------------------------=== #


class Node:
    """An input, a constant, an op or a graph.fused. `operands` are
    (node, result index) pairs; `shapes` the result shapes."""

    def __init__(self, kind, operands=(), attrs=None, value=None, body=None):
        self.kind = kind
        self.operands = list(operands)
        self.attrs = dict(attrs or {})
        self.value = value      # constants: a float32 array
        self.body = body        # graph.fused: a Graph over its block args
        self.shapes = []
        self.id = None

    def shape(self, index=0):
        return self.shapes[index]


class Graph:
    """Nodes in program order; `outputs` are (node, index) pairs."""

    def __init__(self):
        self.nodes = []
        self.outputs = []

    def inputs(self):
        return [n for n in self.nodes if n.kind == "input"]

    def copy(self):
        """A deep copy with the same structure (values shared)."""
        mapping = {}
        g = Graph()
        for n in self.nodes:
            c = Node(n.kind, [(mapping[o], i) for o, i in n.operands],
                     n.attrs, n.value, n.body.copy() if n.body else None)
            c.shapes = list(n.shapes)
            mapping[n] = c
            g.nodes.append(c)
        g.outputs = [(mapping[o], i) for o, i in self.outputs]
        return g


def num_elements(shape):
    return int(np.prod(shape, dtype=np.int64)) if shape else 1


def broadcast(a, b):
    rank = max(len(a), len(b))
    a = (1,) * (rank - len(a)) + tuple(a)
    b = (1,) * (rank - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        if x != y and x != 1 and y != 1:
            raise Invalid("no broadcast")
        out.append(y if x == 1 else x)
    return tuple(out)


def window(size, pad0, pad1, kernel, stride, dilation=1):
    span = size + pad0 + pad1 - dilation * (kernel - 1) - 1
    if span < 0:
        raise Invalid("window larger than the padded input")
    return span // stride + 1


def infer(node):
    """Sets node.shapes from its operands and attributes, or raises
    Invalid: the rules of the op verifiers in SPEC.md."""
    k, a = node.kind, node.attrs
    s = [o.shape(i) for o, i in node.operands]
    if k in ("input", "random_uniform"):
        out = [a["shape"]]
    elif k == "constant":
        out = [tuple(node.value.shape)]
    elif k in ("relu", "clip", "sigmoid", "tanh", "dropout", "softmax"):
        if k == "softmax" and not -len(s[0]) <= a["axis"] < len(s[0]):
            raise Invalid("axis")
        out = [s[0]]
    elif k in ("add", "sub", "mul", "div"):
        out = [broadcast(s[0], s[1])]
    elif k == "batch_norm":
        if len(s[0]) < 2 or any(p != (s[0][1],) for p in s[1:]):
            raise Invalid("batch_norm params")
        out = [s[0]]
    elif k == "conv2d":
        x, w = s[0], s[1]
        g = a["groups"]
        if len(x) != 4 or len(w) != 4 or x[1] % g or w[0] % g \
                or w[1] != x[1] // g:
            raise Invalid("conv shapes")
        if len(s) > 2 and s[2] != (w[0],):
            raise Invalid("conv bias")
        p, st, d = a["padding"], a["strides"], a["dilations"]
        out = [(x[0], w[0], window(x[2], p[0], p[2], w[2], st[0], d[0]),
                window(x[3], p[1], p[3], w[3], st[1], d[1]))]
    elif k == "matmul":
        if len(s[0]) != 2 or len(s[1]) != 2 or s[0][1] != s[1][0]:
            raise Invalid("matmul shapes")
        out = [(s[0][0], s[1][1])]
    elif k == "gemm":
        if len(s[0]) != 2 or len(s[1]) != 2:
            raise Invalid("gemm rank")
        m, kk = (s[0][1], s[0][0]) if a["trans_a"] else s[0]
        kb, n = (s[1][1], s[1][0]) if a["trans_b"] else s[1]
        if kk != kb:
            raise Invalid("gemm K")
        if len(s) > 2:
            c = s[2]
            if len(c) > 2 or broadcast(c, (m, n)) != (m, n):
                raise Invalid("gemm c")
        out = [(m, n)]
    elif k in ("max_pool2d", "avg_pool2d"):
        x = s[0]
        kh, kw = a["kernel"]
        p, st = a["padding"], a["strides"]
        if len(x) != 4 or p[0] >= kh or p[2] >= kh or p[1] >= kw \
                or p[3] >= kw:
            raise Invalid("pool")
        out = [(x[0], x[1], window(x[2], p[0], p[2], kh, st[0]),
                window(x[3], p[1], p[3], kw, st[1]))]
    elif k == "global_avg_pool":
        if len(s[0]) != 4:
            raise Invalid("rank")
        out = [(s[0][0], s[0][1], 1, 1)]
    elif k == "reshape":
        if num_elements(a["shape"]) != num_elements(s[0]):
            raise Invalid("reshape")
        out = [tuple(a["shape"])]
    elif k == "flatten":
        r = len(s[0])
        axis = a["axis"] + (r if a["axis"] < 0 else 0)
        if not 0 <= axis <= r:
            raise Invalid("axis")
        out = [(num_elements(s[0][:axis]), num_elements(s[0][axis:]))]
    elif k == "transpose":
        if sorted(a["perm"]) != list(range(len(s[0]))):
            raise Invalid("perm")
        out = [tuple(s[0][p] for p in a["perm"])]
    elif k == "concat":
        r = len(s[0])
        axis = a["axis"] + (r if a["axis"] < 0 else 0)
        if not 0 <= axis < r:
            raise Invalid("axis")
        total = 0
        for t in s:
            if len(t) != r or any(t[d] != s[0][d] for d in range(r)
                                  if d != axis):
                raise Invalid("concat shapes")
            total += t[axis]
        out = [tuple(total if d == axis else s[0][d] for d in range(r))]
    elif k == "fused":
        body = node.body
        for arg, shape in zip(body.inputs(), s):
            arg.attrs["shape"] = shape
        for n in body.nodes:
            infer(n)
        out = [o.shape(i) for o, i in body.outputs]
    else:
        raise AssertionError(k)
    for shape in out:
        if any(d < 1 for d in shape) or num_elements(shape) > MAX_ELEMENTS:
            raise Invalid("size")
    node.shapes = [tuple(int(d) for d in shape) for shape in out]


def reinfer(graph):
    for n in graph.nodes:
        infer(n)


# ===--------------------------------------------------------------------=== #
# Generation
# ===--------------------------------------------------------------------=== #

OP_WEIGHTS = {
    "conv2d": 4, "batch_norm": 2, "relu": 2, "clip": 1, "sigmoid": 1,
    "tanh": 1, "dropout": 0.5, "add": 2, "sub": 1.5, "mul": 1.5, "div": 1,
    "matmul": 2, "gemm": 2, "max_pool2d": 1.5, "avg_pool2d": 1.5,
    "global_avg_pool": 1, "reshape": 1, "flatten": 1, "transpose": 1,
    "concat": 1, "softmax": 1, "fused": 1,
}


class Generator:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.np = np.random.RandomState(seed % (2 ** 32))
        self.graph = Graph()

    # -- values ------------------------------------------------------------

    def add(self, node):
        infer(node)
        self.graph.nodes.append(node)
        return node

    def values(self):
        return [(n, i) for n in self.graph.nodes for i in range(len(n.shapes))]

    def pick(self, accept=lambda shape: True):
        """A value of an accepted shape: recent ones preferred (chains),
        older ones sometimes (shared intermediates, diamonds)."""
        cands = [v for v in self.values() if accept(v[0].shape(v[1]))]
        if not cands:
            return None
        if self.rng.random() < 0.6:
            return cands[-1 - min(int(self.rng.expovariate(1.0)),
                                  len(cands) - 1)]
        return self.rng.choice(cands)

    def tensor_values(self, shape, positive=False):
        r = self.rng.random()
        if r < 0.15:
            v = np.full(shape, F32(self.rng.choice(
                [0.5, -1.25, 2.0, 0.0, 1.0, -0.0, 0.1])), F32)
        elif r < 0.2:
            v = self.np.choice(np.array(
                [0.0, -0.0, 1.0, -1.0, 0.5, 3.0], F32), size=shape)
        else:
            v = self.np.uniform(-1.5, 1.5, size=shape).astype(F32)
        if positive:
            v = np.abs(v) + F32(0.25)
        return np.asarray(v, F32).reshape(shape)

    def constant(self, shape, positive=False):
        return (self.add(Node("constant",
                              value=self.tensor_values(shape, positive))), 0)

    def input(self, shape):
        return (self.add(Node("input", attrs={"shape": tuple(shape)})), 0)

    def leaf(self, shape, positive=False):
        """A new operand of `shape`: a constant (folding material) or an
        input, or an existing value of that shape."""
        if not positive:
            existing = self.pick(lambda s: s == tuple(shape))
            if existing and self.rng.random() < 0.3:
                return existing
        if positive or self.rng.random() < 0.55:
            return self.constant(shape, positive)
        return self.input(shape)

    def random_shape(self, rank=None):
        rank = self.rng.choice([1, 2, 2, 3, 4, 4]) if rank is None else rank
        if rank == 4:
            return (self.rng.randint(1, 2), self.rng.randint(1, 6),
                    self.rng.randint(1, 9), self.rng.randint(1, 9))
        return tuple(self.rng.randint(1, 7) for _ in range(rank))

    def operand(self, accept, make_rank=None):
        v = self.pick(accept)
        if v is None or self.rng.random() < 0.1:
            shape = self.random_shape(make_rank)
            for _ in range(20):
                if accept(shape):
                    break
                shape = self.random_shape(make_rank)
            else:
                return v
            v = self.leaf(shape)
        return v

    def broadcast_partner(self, shape):
        """A shape that broadcasts with `shape` (either way)."""
        r = self.rng.random()
        if r < 0.3:
            return tuple(shape)
        if r < 0.8:
            drop = self.rng.randint(0, len(shape))
            part = list(shape[drop:])
            for i in range(len(part)):
                if self.rng.random() < 0.4:
                    part[i] = 1
            return tuple(part)
        # The partner is the larger one: shape's size-1 dims grow.
        grow = [d if d != 1 else self.rng.randint(1, 4) for d in shape]
        return tuple([self.rng.randint(1, 3)] * self.rng.randint(0, 1) + grow)

    # -- ops ---------------------------------------------------------------

    def make(self, kind):
        r = self.rng
        rank4 = lambda s: len(s) == 4
        if kind in ("relu", "sigmoid", "tanh", "dropout"):
            attrs = {}
            if kind == "dropout":
                attrs = {"ratio": r.choice([0.0, 0.25, 0.5])}
            return Node(kind, [self.operand(lambda s: True)], attrs)
        if kind == "clip":
            lo = r.choice([-1.0, 0.0, -0.5, 0.25])
            return Node(kind, [self.operand(lambda s: True)],
                        {"min": lo, "max": lo + r.choice([0.5, 1.0, 6.0])})
        if kind == "softmax":
            x = self.operand(lambda s: len(s) >= 1)
            rank = len(x[0].shape(x[1]))
            return Node(kind, [x], {"axis": r.randint(-rank, rank - 1)})
        if kind in ("add", "sub", "mul", "div"):
            x = self.operand(lambda s: True)
            shape = x[0].shape(x[1])
            partner = self.broadcast_partner(shape)
            if kind == "div" and r.random() < 0.7:
                y = self.constant(partner, positive=True)
            else:
                y = self.leaf(partner)
            ops = [x, y] if r.random() < 0.75 else [y, x]
            return Node(kind, ops)
        if kind == "batch_norm":
            x = self.operand(lambda s: len(s) >= 2, make_rank=4)
            c = x[0].shape(x[1])[1]
            params = [self.leaf((c,)), self.leaf((c,)), self.leaf((c,)),
                      self.constant((c,), positive=True)]
            return Node(kind, [x] + params,
                        {"epsilon": r.choice([1e-5, 1e-3, 0.1])})
        if kind == "conv2d":
            x = self.operand(rank4, make_rank=4)
            n, c, h, w = x[0].shape(x[1])
            divisors = [g for g in range(1, c + 1) if c % g == 0]
            groups = r.choice([1, 1, c] + divisors)
            f = groups * r.randint(1, 3 if groups > 1 else 6)
            kh, kw = r.randint(1, 3), r.randint(1, 3)
            attrs = {"strides": (r.choice([1, 1, 2, 3]), r.choice([1, 1, 2, 4])),
                     "dilations": (r.choice([1, 1, 2]), r.choice([1, 1, 2])),
                     "padding": tuple(r.choice([0, 0, 1, 2]) for _ in range(4)),
                     "groups": groups}
            wshape = (f, c // groups, kh, kw)
            weight = self.constant(wshape) if r.random() < 0.75 \
                else self.leaf(wshape)
            ops = [x, weight]
            if r.random() < 0.5:
                ops.append(self.leaf((f,)))
            return Node(kind, ops, attrs)
        if kind == "matmul":
            a = self.operand(lambda s: len(s) == 2, make_rank=2)
            m, k = a[0].shape(a[1])
            b = self.leaf((k, r.randint(1, 8)))
            return Node(kind, [a, b])
        if kind == "gemm":
            a = self.operand(lambda s: len(s) == 2, make_rank=2)
            ta, tb = r.random() < 0.3, r.random() < 0.3
            sa = a[0].shape(a[1])
            m, k = (sa[1], sa[0]) if ta else sa
            n = r.randint(1, 8)
            b = self.leaf((n, k) if tb else (k, n))
            ops = [a, b]
            if r.random() < 0.7:
                cshape = r.choice([(m, n), (n,), (1, n), (m, 1), (1,)])
                ops.append(self.leaf(cshape))
            return Node(kind, ops, {
                "alpha": r.choice([1.0, 0.5, -1.5]),
                "beta": r.choice([1.0, 0.0, 2.0]),
                "trans_a": ta, "trans_b": tb})
        if kind in ("max_pool2d", "avg_pool2d"):
            x = self.operand(rank4, make_rank=4)
            kh, kw = r.randint(1, 3), r.randint(1, 3)
            attrs = {"kernel": (kh, kw),
                     "strides": (r.randint(1, 4), r.randint(1, 4)),
                     "padding": (r.randint(0, kh - 1), r.randint(0, kw - 1),
                                 r.randint(0, kh - 1), r.randint(0, kw - 1))}
            if kind == "avg_pool2d":
                attrs["count_include_pad"] = r.random() < 0.5
            return Node(kind, [x], attrs)
        if kind == "global_avg_pool":
            return Node(kind, [self.operand(rank4, make_rank=4)])
        if kind == "reshape":
            x = self.operand(lambda s: True)
            total = num_elements(x[0].shape(x[1]))
            shape = []
            rest = total
            for _ in range(r.randint(0, 3)):
                ds = [d for d in range(1, rest + 1) if rest % d == 0]
                d = r.choice(ds)
                shape.append(d)
                rest //= d
            shape.append(rest)
            r.shuffle(shape)
            return Node(kind, [x], {"shape": tuple(shape)})
        if kind == "flatten":
            x = self.operand(lambda s: True)
            rank = len(x[0].shape(x[1]))
            return Node(kind, [x], {"axis": r.randint(-rank, rank)})
        if kind == "transpose":
            x = self.operand(lambda s: True)
            perm = list(range(len(x[0].shape(x[1]))))
            r.shuffle(perm)
            return Node(kind, [x], {"perm": tuple(perm)})
        if kind == "concat":
            x = self.operand(lambda s: len(s) >= 1)
            shape = x[0].shape(x[1])
            axis = r.randrange(len(shape))
            ops = [x]
            for _ in range(r.randint(0, 2)):
                other = list(shape)
                other[axis] = r.randint(1, 4)
                ops.append(self.leaf(tuple(other)) if r.random() < 0.7
                           else x)
            return Node(kind, ops,
                        {"axis": axis - (len(shape) if r.random() < 0.3 else 0)})
        if kind == "fused":
            return self.make_fused()
        if kind == "random_uniform":
            low = r.choice([0.0, -1.0, 0.5])
            return Node(kind, [], {"shape": self.random_shape(), "low": low,
                                   "high": low + r.choice([0.0, 1.0, 2.5]),
                                   "seed": r.randint(0, 99)})
        if kind == "dropout_training":
            return Node("dropout", [self.operand(lambda s: True)],
                        {"ratio": r.choice([0.0, 0.5]), "training": True})
        raise AssertionError(kind)

    def make_fused(self):
        """A user-written graph.fused: a small sub-graph over block arguments,
        one or more results, sometimes yielding a block argument itself."""
        r = self.rng
        inner = Generator(r.randrange(2 ** 31))
        operands = []
        for _ in range(r.randint(1, 3)):
            v = self.operand(lambda s: True)
            operands.append(v)
            inner.add(Node("input", attrs={"shape": v[0].shape(v[1])}))
        for _ in range(r.randint(0, 3)):
            kind = inner.rng.choice(["relu", "tanh", "add", "mul", "sigmoid",
                                     "clip", "matmul", "conv2d", "transpose"])
            try:
                node = inner.make(kind)
                inner.add(node)
            except Invalid:
                pass
        body = inner.graph
        # Inner constants stay inside; inner inputs are the block arguments,
        # and must all come first.
        args = [n for n in body.nodes if n.kind == "input"]
        extra = args[len(operands):]
        for n in extra:
            # An inner op asked for a fresh input: make it a constant.
            n.kind, n.value = "constant", inner.tensor_values(n.attrs["shape"])
        body.nodes = args[:len(operands)] + [n for n in body.nodes
                                             if n not in args[:len(operands)]]
        results = [v for v in inner.values()]
        outs = r.sample(results, min(len(results), r.randint(1, 2)))
        body.outputs = outs
        return Node("fused", operands, {"kind": r.choice(
            ["user_group", "conv2d_relu", "x"])}, body=body)

    def generate(self, size, random_ops=False):
        """A graph of about `size` ops; with `random_ops`, random_uniform and
        training dropout among them (side effects: never folded, erased or
        fused; such a graph is not run, see run_graph)."""
        r = self.rng
        kinds = list(OP_WEIGHTS)
        weights = [OP_WEIGHTS[k] for k in kinds]
        if random_ops:
            kinds += ["random_uniform", "dropout_training"]
            weights += [1.5, 1.5]
        self.input(self.random_shape(4))
        if r.random() < 0.5:
            self.input(self.random_shape(2))
        ops = 0
        attempts = 0
        while ops < size and attempts < size * 20:
            attempts += 1
            kind = r.choices(kinds, weights)[0]
            try:
                self.add(self.make(kind))
                ops += 1
            except Invalid:
                # Leaves made for the op stay: dead constants and unused
                # inputs are valid too.
                pass
        # Outputs: a few values nothing uses (the rest of the unused ones are
        # dead branches), sometimes an intermediate, sometimes an input.
        used = {(o, i) for n in self.graph.nodes for o, i in n.operands}
        sinks = [v for v in self.values() if v not in used
                 and v[0].kind not in ("input", "constant")]
        computed = [v for v in self.values()
                    if v[0].kind not in ("input", "constant")]
        outs = r.sample(sinks, min(len(sinks), r.randint(1, 3)))
        if computed and (not outs or r.random() < 0.2):
            outs.append(r.choice(computed))
        if not outs:
            outs = [self.values()[-1]]
        self.graph.outputs = list(dict.fromkeys(outs))
        return self.graph


def generate(seed):
    """The graph of `seed`: one in ten has random ops."""
    r = random.Random(seed)
    size = r.randint(1, 14)
    return Generator(seed).generate(size, random_ops=r.random() < 0.1)


def has_random_ops(graph):
    return any(n.kind == "random_uniform" or n.attrs.get("training")
               or (n.body and has_random_ops(n.body)) for n in graph.nodes)


# ===--------------------------------------------------------------------=== #
# Printing: MLIR (generic form) with reference.py's EXPECT line
# ===--------------------------------------------------------------------=== #


def ttype(shape):
    return "tensor<%sf32>" % "".join("%dx" % d for d in shape)


def fmt_float(x):
    # MLIR's float literals need a decimal point.
    return "%.9e : f32" % float(F32(x))


def fmt_attrs(node):
    k, a = node.kind, node.attrs
    items = []
    arr = lambda v: "array<i64%s>" % "".join(
        (": " if i == 0 else ", ") + str(int(x)) for i, x in enumerate(v))
    if k == "conv2d":
        items = ["strides = " + arr(a["strides"]),
                 "padding = " + arr(a["padding"]),
                 "dilations = " + arr(a["dilations"]),
                 "groups = %d : i64" % a["groups"]]
    elif k == "batch_norm":
        items = ["epsilon = " + fmt_float(a["epsilon"])]
    elif k == "clip":
        items = ["min = " + fmt_float(a["min"]), "max = " + fmt_float(a["max"])]
    elif k == "dropout":
        items = ["ratio = " + fmt_float(a["ratio"])]
        if a.get("training"):
            items.append("training")
    elif k == "random_uniform":
        items = ["shape = " + arr(a["shape"]), "low = " + fmt_float(a["low"]),
                 "high = " + fmt_float(a["high"]),
                 "seed = %d : i64" % a["seed"]]
    elif k == "gemm":
        items = ["alpha = " + fmt_float(a["alpha"]),
                 "beta = " + fmt_float(a["beta"])]
        items += [f for f in ("trans_a", "trans_b") if a[f]]
    elif k in ("max_pool2d", "avg_pool2d"):
        items = ["kernel = " + arr(a["kernel"]),
                 "strides = " + arr(a["strides"]),
                 "padding = " + arr(a["padding"])]
        if a.get("count_include_pad"):
            items.append("count_include_pad")
    elif k == "reshape":
        items = ["shape = " + arr(a["shape"])]
    elif k in ("flatten", "softmax", "concat"):
        items = ["axis = %d : i64" % a["axis"]]
    elif k == "transpose":
        items = ["perm = " + arr(a["perm"])]
    elif k == "fused":
        items = ['kind = "%s"' % a["kind"]]
    return " <{%s}>" % ", ".join(items) if items else ""


def fmt_constant(value):
    words = value.reshape(-1).view(np.uint32)
    if words.size and (words == words[0]).all():
        literal = "0x%08X" % words[0]
    else:
        literal = '"0x%s"' % value.astype("<f4").tobytes().hex().upper()
    return "graph.constant dense<%s> : %s" % (literal, ttype(value.shape))


def number(graph, prefix="v"):
    """Names every node, those of fused bodies after their op."""
    for i, n in enumerate(graph.nodes):
        n.id = "%s%d" % (prefix, i)
        if n.body:
            number(n.body, "%s_" % n.id)


def name(value):
    node, index = value
    if len(node.shapes) > 1:
        return "%%%s#%d" % (node.id, index)
    return "%" + node.id


def print_body(graph, indent, lines, depth=0):
    for n in graph.nodes:
        if n.kind == "input":
            continue
        result = "%" + n.id + (":%d" % len(n.shapes) if len(n.shapes) > 1
                               else "")
        if n.kind == "constant":
            lines.append("%s%s = %s" % (indent, result, fmt_constant(n.value)))
            continue
        operand_types = ", ".join(ttype(o.shape(i)) for o, i in n.operands)
        result_types = ", ".join(ttype(s) for s in n.shapes)
        if len(n.shapes) > 1:
            result_types = "(%s)" % result_types
        head = '%s%s = "graph.%s"(%s)%s' % (
            indent, result, n.kind, ", ".join(name(v) for v in n.operands),
            fmt_attrs(n))
        if n.kind != "fused":
            lines.append("%s : (%s) -> %s" % (head, operand_types,
                                               result_types))
            continue
        body = n.body
        args = body.inputs()
        lines.append(head + " ({")
        lines.append("%s^bb0(%s):" % (indent, ", ".join(
            "%%%s: %s" % (a.id, ttype(a.shape())) for a in args)))
        print_body(body, indent + "  ", lines, depth + 1)
        lines.append('%s  "graph.yield"(%s) : (%s) -> ()' % (
            indent, ", ".join(name(v) for v in body.outputs),
            ", ".join(ttype(o.shape(i)) for o, i in body.outputs)))
        lines.append("%s}) : (%s) -> %s" % (indent, operand_types,
                                            result_types))


def to_mlir(graph, header=()):
    number(graph)
    args = graph.inputs()
    lines = ["// " + h for h in header]
    if not has_random_ops(graph):
        lines.append("// EXPECT: " + expect_expression(graph))
    results = ", ".join(ttype(o.shape(i)) for o, i in graph.outputs)
    lines.append("func.func @main(%s) -> (%s) {" % (", ".join(
        "%%%s: %s" % (a.id, ttype(a.shape())) for a in args), results))
    print_body(graph, "  ", lines)
    lines.append("  return %s : %s" % (
        ", ".join(name(v) for v in graph.outputs), results))
    lines.append("}")
    return "\n".join(lines) + "\n"


# ===--------------------------------------------------------------------=== #
# Evaluation with NumPy (reference.py's kernels)
# ===--------------------------------------------------------------------=== #


def apply(kind, attrs, args):
    """One op on float32 arrays, with reference.py's kernels; the result is
    rounded to float32, as the compiled code stores it."""
    a = attrs
    x = args[0] if args else None
    with np.errstate(all="ignore"):
        if kind == "relu":
            y = ref.relu(x)
        elif kind == "clip":
            y = ref.clip(x, F32(a["min"]), F32(a["max"]))
        elif kind == "sigmoid":
            y = ref.sigmoid(x)
        elif kind == "tanh":
            y = ref.tanh(x)
        elif kind == "dropout":
            y = ref.dropout(x)
        elif kind == "add":
            y = args[0] + args[1]
        elif kind == "sub":
            y = args[0] - args[1]
        elif kind == "mul":
            y = args[0] * args[1]
        elif kind == "div":
            y = args[0] / args[1]
        elif kind == "batch_norm":
            y = ref.batch_norm(x, *args[1:], eps=F32(a["epsilon"]))
        elif kind == "conv2d":
            y = ref.conv2d(x, args[1], args[2] if len(args) > 2 else None,
                           a["strides"], a["padding"], a["dilations"],
                           a["groups"])
        elif kind == "matmul":
            y = ref.matmul(x, args[1])
        elif kind == "gemm":
            y = ref.gemm(x, args[1], args[2] if len(args) > 2 else None,
                         float(F32(a["alpha"])), float(F32(a["beta"])),
                         a["trans_a"], a["trans_b"])
        elif kind == "max_pool2d":
            y = ref.max_pool2d(x, a["kernel"], a["strides"], a["padding"])
        elif kind == "avg_pool2d":
            y = ref.avg_pool2d(x, a["kernel"], a["strides"], a["padding"],
                               a.get("count_include_pad", False))
        elif kind == "global_avg_pool":
            y = ref.global_avg_pool(x)
        elif kind == "reshape":
            y = ref.reshape(x, a["shape"])
        elif kind == "flatten":
            y = ref.flatten(x, a["axis"])
        elif kind == "transpose":
            y = ref.transpose(x, a["perm"])
        elif kind == "concat":
            y = ref.concat(args, a["axis"])
        elif kind == "softmax":
            y = ref.softmax(x, a["axis"])
        else:
            raise AssertionError(kind)
    return np.asarray(y).astype(F32)


def error_scale(kind, attrs, args, y):
    """How far a float32 computation of the op may stray from the exact
    result, per element: about sqrt(n) * eps times the sum of the magnitudes
    of the n terms for the summing ops, a few ulp for the others."""
    a = attrs
    absargs = [np.abs(np.asarray(t, np.float64)) for t in args]
    with np.errstate(all="ignore"):
        if kind == "conv2d":
            mag = ref.conv2d(absargs[0], absargs[1],
                             absargs[2] if len(args) > 2 else None,
                             a["strides"], a["padding"], a["dilations"],
                             a["groups"])
            n = args[1].shape[1] * args[1].shape[2] * args[1].shape[3]
        elif kind == "matmul":
            mag = ref.matmul(absargs[0], absargs[1])
            n = args[0].shape[1]
        elif kind == "gemm":
            mag = ref.gemm(absargs[0], absargs[1],
                           absargs[2] if len(args) > 2 else None,
                           abs(a["alpha"]), abs(a["beta"]), a["trans_a"],
                           a["trans_b"])
            n = args[0].shape[0 if a["trans_a"] else 1] + 2
        elif kind == "avg_pool2d":
            mag = ref.avg_pool2d(absargs[0], a["kernel"], a["strides"],
                                 a["padding"], a.get("count_include_pad"))
            n = a["kernel"][0] * a["kernel"][1]
        elif kind == "global_avg_pool":
            mag = ref.global_avg_pool(absargs[0])
            n = args[0].shape[2] * args[0].shape[3]
        elif kind == "softmax":
            mag = np.abs(y)
            n = args[0].shape[a["axis"]] + 4
        elif kind == "batch_norm":
            # Folding into conv weights reassociates (x - mean) * s + bias.
            x = absargs[0]
            c = (1, -1) + (1,) * (x.ndim - 2)
            s = absargs[1].reshape(c) / np.sqrt(absargs[4].reshape(c) +
                                                a["epsilon"])
            mag = np.abs(np.asarray(y, np.float64)) + \
                (x + absargs[3].reshape(c)) * s + absargs[2].reshape(c)
            n = 8
        else:
            mag = np.abs(np.asarray(y, np.float64))
            n = 4
    return np.nan_to_num(np.asarray(mag, np.float64), posinf=0.0) * \
        (math.sqrt(n) + 2) * EPS


def evaluate(graph, inputs, noise_rng=None):
    """The outputs of `graph` for `inputs` (arrays in input order). With
    `noise_rng`, every op's result is perturbed by up to its error scale:
    the spread of such runs measures how rounding propagates."""
    env = {}
    for node, value in zip(graph.inputs(), inputs):
        env[(node, 0)] = np.asarray(value, F32)
    for n in graph.nodes:
        if n.kind == "input":
            continue
        if n.kind == "constant":
            env[(n, 0)] = n.value
            continue
        args = [env[v] for v in n.operands]
        if n.kind == "fused":
            outs = evaluate(n.body, args, noise_rng)
            for i, out in enumerate(outs):
                env[(n, i)] = out
            continue
        y = apply(n.kind, n.attrs, args)
        if noise_rng is not None:
            scale = error_scale(n.kind, n.attrs, args, y)
            noise = noise_rng.uniform(-1, 1, size=y.shape) * scale
            with np.errstate(all="ignore"):
                y = (y.astype(np.float64) + noise).astype(F32)
        env[(n, 0)] = y
    return [env[v] for v in graph.outputs]


def expect_expression(graph):
    """The graph as one Python expression over reference.py's kernels, each
    value bound once with := so that shared values are computed once."""
    steps = []
    names = {}

    def emit(g, env):
        for n in g.nodes:
            if n.kind == "input":
                continue
            if n.kind == "constant":
                env[(n, 0)] = n.id
                continue
            args = [env[v] for v in n.operands]
            if n.kind == "fused":
                inner = dict(zip([(a, 0) for a in n.body.inputs()], args))
                emit(n.body, inner)
                for i, v in enumerate(n.body.outputs):
                    env[(n, i)] = inner[v]
                continue
            expr = kernel_expression(n, args)
            var = "t_" + n.id
            steps.append("(%s := F32(%s))" % (var, expr))
            env[(n, 0)] = var

    env = {(a, 0): a.id for a in graph.inputs()}
    emit(graph, env)
    names = [env[v] for v in graph.outputs]
    result = names[0] if len(names) == 1 else "(%s)" % ", ".join(names)
    if not steps:
        return result
    return "(%s, %s)[-1]" % (", ".join(steps), result)


def kernel_expression(n, args):
    a = n.attrs
    k = n.kind
    f = lambda x: "F32(%r)" % float(F32(x))
    if k in ("add", "sub", "mul", "div"):
        op = {"add": "+", "sub": "-", "mul": "*", "div": "/"}[k]
        return "%s %s %s" % (args[0], op, args[1])
    if k in ("relu", "sigmoid", "tanh", "dropout", "global_avg_pool"):
        return "%s(%s)" % (k, args[0])
    if k == "clip":
        return "clip(%s, %s, %s)" % (args[0], f(a["min"]), f(a["max"]))
    if k == "batch_norm":
        return "batch_norm(%s, eps=%s)" % (", ".join(args), f(a["epsilon"]))
    if k == "conv2d":
        return "conv2d(%s, %s, %s, %r, %r, %r, %d)" % (
            args[0], args[1], args[2] if len(args) > 2 else None,
            tuple(a["strides"]), tuple(a["padding"]), tuple(a["dilations"]),
            a["groups"])
    if k == "matmul":
        return "matmul(%s, %s)" % tuple(args)
    if k == "gemm":
        return "gemm(%s, %s, %s, %r, %r, %r, %r)" % (
            args[0], args[1], args[2] if len(args) > 2 else None,
            float(F32(a["alpha"])), float(F32(a["beta"])), a["trans_a"],
            a["trans_b"])
    if k == "max_pool2d":
        return "max_pool2d(%s, %r, %r, %r)" % (
            args[0], tuple(a["kernel"]), tuple(a["strides"]),
            tuple(a["padding"]))
    if k == "avg_pool2d":
        return "avg_pool2d(%s, %r, %r, %r, %r)" % (
            args[0], tuple(a["kernel"]), tuple(a["strides"]),
            tuple(a["padding"]), bool(a.get("count_include_pad")))
    if k == "reshape":
        return "reshape(%s, %r)" % (args[0], tuple(a["shape"]))
    if k in ("flatten", "softmax"):
        return "%s(%s, %d)" % (k, args[0], a["axis"])
    if k == "transpose":
        return "transpose(%s, %r)" % (args[0], tuple(a["perm"]))
    if k == "concat":
        return "concat([%s], %d)" % (", ".join(args), a["axis"])
    raise AssertionError(k)


# ===--------------------------------------------------------------------=== #
# Running and comparing
# ===--------------------------------------------------------------------=== #


def tolerance(graph, inputs, clean, runs=4, seed=0):
    """Per output, an absolute tolerance per element: 1e-5 of the output's
    largest finite magnitude, plus four times the spread of `runs` noisy
    evaluations (rounding at every op, see error_scale), so that an
    ill-conditioned graph (a cancellation, a division by a small value) is
    not mistaken for a wrong one. Elements whose noisy values are not all
    finite, or not all equal when clean is not finite, are unconstrained
    (None is returned for them as NaN in the mask)."""
    rng = np.random.RandomState(seed)
    noisy = [evaluate(graph, inputs, rng) for _ in range(runs)]
    tols = []
    for i, want in enumerate(clean):
        w = np.asarray(want, np.float64)
        finite = np.isfinite(w)
        scale = np.abs(w[finite]).max() if finite.any() else 0.0
        spread = np.zeros(w.shape)
        unsure = np.zeros(w.shape, bool)
        for run in noisy:
            v = np.asarray(run[i], np.float64)
            with np.errstate(invalid="ignore"):
                d = np.abs(v - w)
            same = (v == w) | (np.isnan(v) & np.isnan(w))
            unsure |= ~same & ~(np.isfinite(v) & finite)
            spread = np.maximum(spread, np.where(np.isfinite(d), d, 0))
        tols.append((1e-5 * scale + 4 * spread, unsure))
    return tols


def compare(got, want, tol):
    """None when `got` matches, else a message."""
    bound, unsure = tol
    got = np.asarray(got)
    if got.dtype != np.float32:
        return "dtype %s" % got.dtype
    if got.shape != want.shape:
        return "shape %s, expected %s" % (got.shape, want.shape)
    g = got.astype(np.float64)
    w = want.astype(np.float64)
    both_nan = np.isnan(g) & np.isnan(w)
    with np.errstate(invalid="ignore"):
        diff = np.where(g == w, 0.0, np.abs(g - w))
    diff = np.where(both_nan, 0.0, np.where(np.isnan(diff), np.inf, diff))
    bad = (diff > bound) & ~unsure
    if not bad.any():
        return None
    worst = np.unravel_index(np.argmax(np.where(bad, diff - bound, -1)),
                             bad.shape)
    return "%d of %d values differ; at %s got %r, expected %r (tolerance %.3g)" \
        % (bad.sum(), bad.size, tuple(int(i) for i in worst),
           float(got[worst]), float(want[worst]), float(bound[worst]))


class Outcome:
    def __init__(self, kind, detail=""):
        self.kind = kind    # ok, crash, hang, refused, mismatch
        self.detail = detail

    def __repr__(self):
        return "%s: %s" % (self.kind, self.detail) if self.detail else self.kind

    def signature(self):
        """What reduction must preserve: the kind, and the tool and level of
        a crash, hang or refusal, or which check a mismatch failed (a wrong
        value may move between outputs and levels)."""
        detail = self.detail or ""
        if self.kind == "mismatch":
            return (self.kind, "run" if detail.startswith("-O")
                    else detail.split(":")[0])
        return (self.kind, detail.split(":")[0])


def run_tool(cmd, timeout):
    """(Outcome or None, stdout): a crash or hang as an Outcome."""
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return Outcome("hang", "%s: no result after %d s" % (
            os.path.basename(cmd[0]), timeout)), None
    err = proc.stderr.decode(errors="replace").strip()
    if proc.returncode < 0 or proc.returncode > 1 or "Assertion" in err or \
            "Sanitizer" in err or "runtime error" in err:
        return Outcome("crash", "%s: exit %d: %s" % (
            " ".join(os.path.basename(c) for c in cmd[:2]), proc.returncode,
            last_lines(err))), None
    if proc.returncode == 1:
        return Outcome("refused", "%s: %s" % (
            " ".join(os.path.basename(c) for c in cmd[:2]),
            last_lines(err))), None
    return None, proc.stdout.decode(errors="replace")


def check_optimize(path, text, bindir, timeout):
    """graph-optimize keeps the graph valid, is idempotent (a second run
    changes nothing) and keeps every op with a side effect."""
    graph_opt = os.path.join(bindir, "graph-opt")
    bad, once = run_tool([graph_opt, "--graph-optimize", path], timeout)
    if bad:
        return bad
    again = path + ".optimized.mlir"
    with open(again, "w") as f:
        f.write(once)
    bad, twice = run_tool([graph_opt, "--graph-optimize", again], timeout)
    if bad:
        return bad
    if once != twice:
        return Outcome("mismatch", "graph-optimize is not idempotent")
    count = lambda t: (t.count("graph.random_uniform"),
                       len(re.findall(r"dropout.*training", t)))
    if count(once) != count(text):
        return Outcome("mismatch", "graph-optimize changed the random ops: "
                       "%s before, %s after" % (count(text), count(once)))
    return None


def run_graph(graph, bindir, work, input_seed=0, timeout=120, levels=(0, 3)):
    """Checks `graph-optimize` on `graph`, then runs it through graph-run at
    each level and compares with NumPy (unless it has random ops). Returns
    an Outcome."""
    text = to_mlir(graph)
    path = os.path.join(work, "graph.mlir")
    with open(path, "w") as f:
        f.write(text)
    bad = check_optimize(path, text, bindir, timeout)
    if bad:
        return bad
    if has_random_ops(graph):
        return Outcome("ok")
    inputs = ref.graph_run_random(input_seed,
                                  [n.shape() for n in graph.inputs()])
    want = evaluate(graph, inputs)
    tols = None
    for level in levels:
        outs = [os.path.join(work, "out.O%d.%d.npy" % (level, i))
                for i in range(len(graph.outputs))]
        for o in outs:
            if os.path.exists(o):
                os.remove(o)
        cmd = [os.path.join(bindir, "graph-run"), "-O%d" % level, path,
               "--seed", str(input_seed)]
        for o in outs:
            cmd += ["--output", o]
        bad, _ = run_tool(cmd, timeout)
        if bad:
            return bad
        if tols is None:
            tols = tolerance(graph, inputs, want)
        for i, o in enumerate(outs):
            problem = compare(np.load(o), want[i], tols[i])
            if problem:
                return Outcome("mismatch", "-O%d result %d: %s" % (
                    level, i, problem))
    return Outcome("ok")


def last_lines(text, n=3):
    lines = [l for l in text.splitlines() if l.strip()]
    return " | ".join(lines[-n:])[:600]


# ===--------------------------------------------------------------------=== #
# Reduction
# ===--------------------------------------------------------------------=== #


def live_nodes(graph):
    live = set()
    stack = [o for o, _ in graph.outputs]
    while stack:
        n = stack.pop()
        if n in live:
            continue
        live.add(n)
        stack.extend(o for o, _ in n.operands)
    return live


def candidates(graph, top=True):
    """Smaller variants of `graph`, most promising first. A fused body
    (`top` false) keeps its results."""
    # Fewer outputs.
    if top and len(graph.outputs) > 1:
        for i in range(len(graph.outputs)):
            g = graph.copy()
            g.outputs = [g.outputs[i]]
            yield g
    # Without dead nodes.
    live = live_nodes(graph)
    if len(live) < len(graph.nodes):
        g = graph.copy()
        keep = [i for i, n in enumerate(graph.nodes) if n in live]
        g.nodes = [g.nodes[i] for i in keep]
        yield g
    # One unused node erased (a dead op that matters keeps the others).
    used = {o for n in graph.nodes for o, _ in n.operands}
    used |= {o for o, _ in graph.outputs}
    for index, node in enumerate(graph.nodes):
        if node not in used and (top or node.kind != "input"):
            g = graph.copy()
            del g.nodes[index]
            yield g
    # A graph.fused replaced by its body, or with a smaller body.
    for index, node in enumerate(graph.nodes):
        if node.kind != "fused":
            continue
        yield inline_fused(graph, index)
        for body in candidates(node.body, top=False):
            g = graph.copy()
            g.nodes[index].body = body
            yield g
    # An op bypassed: its uses read one of its operands of the same shape, or
    # a new input (not in a fused body) or constant of its shape.
    for index in reversed(range(len(graph.nodes))):
        node = graph.nodes[index]
        if node.kind in ("input",):
            continue
        for source in replacements(node):
            g = graph.copy()
            old = g.nodes[index]
            if source == "input":
                if not top:
                    continue
                new = Node("input", attrs={"shape": old.shape(0)})
                new.shapes = [old.shape(0)]
                g.nodes.insert(0, new)
                repl = {(old, 0): (new, 0)}
            elif source == "constant":
                new = Node("constant", value=np.zeros(old.shape(0), F32) + F32(
                    0.5))
                new.shapes = [old.shape(0)]
                g.nodes.insert(g.nodes.index(old), new)
                repl = {(old, 0): (new, 0)}
            else:
                repl = {(old, 0): old.operands[source]}
            if len(old.shapes) > 1:
                continue
            rewire(g, repl)
            g.nodes.remove(old)
            yield g
    # Shapes shrunk: an input's or a constant's dimension halved or set to 1.
    for index, node in enumerate(graph.nodes):
        if node.kind not in ("input", "constant"):
            continue
        shape = node.shape(0)
        for d, size in enumerate(shape):
            for new_size in sorted({1, size // 2}):
                if new_size < 1 or new_size >= size:
                    continue
                g = graph.copy()
                n = g.nodes[index]
                new_shape = tuple(new_size if i == d else s
                                  for i, s in enumerate(shape))
                if n.kind == "input":
                    n.attrs = dict(n.attrs, shape=new_shape)
                else:
                    n.value = np.ascontiguousarray(n.value[tuple(
                        slice(0, s) for s in new_shape)])
                yield g


def inline_fused(graph, index):
    """`graph` with the graph.fused at `index` replaced by its body ops."""
    g = graph.copy()
    fused = g.nodes[index]
    body = fused.body
    repl = {(a, 0): v for a, v in zip(body.inputs(), fused.operands)}
    inner = [n for n in body.nodes if n.kind != "input"]
    for n in inner:
        n.operands = [repl.get(v, v) for v in n.operands]
    outer = {(fused, i): repl.get(v, v) for i, v in enumerate(body.outputs)}
    g.nodes[index:index + 1] = inner
    rewire(g, outer)
    return g


def replacements(node):
    if node.kind == "constant":
        return []
    out = [i for i, (o, j) in enumerate(node.operands)
           if o.shape(j) == node.shape(0)]
    return out + ["input", "constant"]


def rewire(graph, repl):
    for n in graph.nodes:
        n.operands = [repl.get(v, v) for v in n.operands]
    graph.outputs = [repl.get(v, v) for v in graph.outputs]


def size_of(graph):
    """(ops, fused bodies' ops, outputs, inputs, elements): what reduction
    decreases, in order of importance."""
    ops = sum(1 for n in graph.nodes if n.kind not in ("input", "constant"))
    inner = sum(size_of(n.body)[0] + size_of(n.body)[1]
                for n in graph.nodes if n.body)
    inputs = sum(1 for n in graph.nodes if n.kind in ("input", "constant"))
    elements = sum(num_elements(s) for n in graph.nodes for s in n.shapes)
    return (ops, inner, len(graph.outputs), inputs, elements)


def reduce(graph, fails, budget=400):
    """The smallest variant of `graph` (by op count, then elements) for which
    `fails(graph)` holds, trying at most `budget` candidates."""
    tried = 0
    progress = True
    while progress and tried < budget:
        progress = False
        for cand in candidates(graph):
            try:
                reinfer(cand)
            except Invalid:
                continue
            if not cand.outputs or size_of(cand) >= size_of(graph):
                continue
            tried += 1
            if fails(cand):
                graph = cand
                progress = True
                break
            if tried >= budget:
                break
    return graph


# ===--------------------------------------------------------------------=== #
# Reproducers as lit tests
# ===--------------------------------------------------------------------=== #


def lit_test(graph, outcome, seed, tol_rtol):
    """A lit test in the format of test/Integration/ops: graph-optimize run
    twice gives what it gave once, then graph-run at -O0 and -O3 on --seed 0
    inputs, checked by reference.py against the EXPECT line. Expected to fail
    (XFAIL) until the bug is fixed."""
    n = len(graph.outputs)
    outs = lambda lvl: " ".join(
        "--output %%t/case.O%d%s.npy" % (lvl, "" if n == 1 else ".%d" % i)
        for i in range(n))
    header = [
        "Reduced by fuzz/random_graphs.py from the random graph of seed %d." %
        seed,
        "Failure: %s" % outcome,
        "COMPARE: rtol %.3g" % tol_rtol,
    ]
    model = to_mlir(graph, header)
    return "\n".join([
        "# A random graph that graph-run got wrong (or could not run), reduced",
        "# automatically. Remove the XFAIL line once it passes.",
        "# XFAIL: *",
        "# RUN: rm -rf %t && split-file %s %t",
        "# RUN: graph-opt --graph-optimize %t/case.mlir -o %t/once.mlir",
        "# RUN: graph-opt --graph-optimize %t/once.mlir -o %t/twice.mlir",
        "# RUN: diff %t/once.mlir %t/twice.mlir",
        "# RUN: graph-run -O0 %%t/case.mlir --seed 0 %s" % outs(0),
        "# RUN: graph-run -O3 %%t/case.mlir --seed 0 %s" % outs(3),
        "# RUN: %python %graph_src/test/Integration/Inputs/reference.py check "
        "--seed 0 %t/case.mlir",
        "",
        "#--- case.mlir",
        model,
    ])


# ===--------------------------------------------------------------------=== #
# Driver
# ===--------------------------------------------------------------------=== #


def find_bindir(arg):
    if arg:
        return os.path.abspath(arg)
    path = shutil.which("graph-run")
    if not path:
        sys.exit("graph-run is not on PATH: give --bin DIR")
    return os.path.dirname(os.path.abspath(path))


def check_seed(seed, bindir, timeout, do_reduce, save):
    work = tempfile.mkdtemp(prefix="randgraph-")
    try:
        graph = generate(seed)
        outcome = run_graph(graph, bindir, work, timeout=timeout)
        result = {"seed": seed, "outcome": outcome,
                  "ops": size_of(graph)[0]}
        if outcome.kind != "ok" and do_reduce:
            sig = outcome.signature()
            reduced = reduce(graph, lambda g: run_graph(
                g, bindir, work, timeout=timeout).signature() == sig)
            final = run_graph(reduced, bindir, work, timeout=timeout)
            result["reduced"] = to_mlir(reduced)
            result["reduced_ops"] = size_of(reduced)[0]
            if save:
                os.makedirs(save, exist_ok=True)
                path = os.path.join(save, "random-graph-%d.test" % seed)
                with open(path, "w") as f:
                    f.write(lit_test(reduced, final, seed, 1e-3))
                result["saved"] = path
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)


def campaign(args):
    bindir = find_bindir(args.bin)
    seeds = range(*(int(x) for x in args.seeds.split(":")))
    counts = {}
    failures = []
    ops = 0
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(check_seed, s, bindir, args.timeout,
                               args.reduce, args.save) for s in seeds]
        for done, fut in enumerate(futures, 1):
            if args.progress and done % args.progress == 0:
                print("... %d graphs, %d failed, %.0f s" % (
                    done - 1, len(failures), time.time() - start), flush=True)
            r = fut.result()
            kind = r["outcome"].kind
            counts[kind] = counts.get(kind, 0) + 1
            ops += r["ops"]
            if kind != "ok":
                failures.append(r)
                print("FAIL seed %d (%d ops): %s" % (r["seed"], r["ops"],
                                                      r["outcome"]),
                      flush=True)
                if "reduced" in r:
                    print("  reduced to %d ops%s:\n%s" % (
                        r["reduced_ops"],
                        " (saved as %s)" % r["saved"] if "saved" in r else "",
                        r["reduced"]), flush=True)
    total = len(seeds)
    print("%d graphs (%d ops), %d ok, %d mismatches, %d crashes, %d hangs, "
          "%d refused (%.0f s)" % (total, ops, counts.get("ok", 0),
                          counts.get("mismatch", 0), counts.get("crash", 0),
                          counts.get("hang", 0), counts.get("refused", 0),
                          time.time() - start))
    return 1 if failures else 0


def reduce_selftest(args):
    """Reduces against a synthetic failure and prints the reproducer."""

    def fails(g):
        for n in g.nodes:
            if n.kind == "batch_norm":
                src = n.operands[0][0]
                if src.kind == "conv2d" and src.attrs["strides"][0] == 2:
                    return True
        return False

    for seed in range(10000):
        graph = generate(seed)
        if fails(graph) and size_of(graph)[0] >= 6:
            break
    before = size_of(graph)
    reduced = reduce(graph, fails, budget=2000)
    after = size_of(reduced)
    print("seed %d: %d ops, %d elements -> %d ops, %d elements" % (
        seed, before[0], before[4], after[0], after[4]))
    print(to_mlir(reduced))
    return 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    g = sub.add_parser("generate")
    g.add_argument("seed", type=int)
    g.add_argument("-o", dest="out")
    c = sub.add_parser("campaign")
    c.add_argument("--seeds", required=True)
    c.add_argument("--bin")
    c.add_argument("--jobs", type=int, default=1)
    c.add_argument("--timeout", type=int, default=300)
    c.add_argument("--reduce", action="store_true")
    c.add_argument("--save")
    c.add_argument("--progress", type=int, default=0,
                   help="print a line every N graphs")
    s = sub.add_parser("reduce-selftest")
    s.add_argument("--bin")
    args = parser.parse_args(argv)
    if args.mode == "generate":
        text = to_mlir(generate(args.seed), ["random graph, seed %d" %
                                             args.seed])
        if args.out:
            with open(args.out, "w") as f:
                f.write(text)
        else:
            sys.stdout.write(text)
        return 0
    if args.mode == "campaign":
        return campaign(args)
    if args.mode == "reduce-selftest":
        return reduce_selftest(args)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
