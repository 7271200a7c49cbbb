#!/usr/bin/python3
"""Every convolution and matrix product of a few models, alone, against the
core's measured peak and against ONNX Runtime.

Walks the torchvision models (default ResNet-18, MobileNetV2 and ViT-B/16;
batch 1, 224x224, 299x299 for inception_v3) with forward hooks and collects
every distinct shape of
  conv    nn.Conv2d: input CxHxW, F filters, kernel, strides, pads, groups;
  gemm    nn.Linear on an input of M rows (the leading dimensions flattened),
          and nn.MultiheadAttention's input and output projections
          (M x E x 3E and M x E x E);
  matmul  the attention's batched products, heads x L x d x L (Q K^T) and
          heads x L x L x d (attention x V).
Shapes are named M x K x N (gemm) and B x M x K x N (matmul). Each is written
as a one-op ONNX model (opset 13, batch 1): Conv with a bias (a convolution
followed by BatchNorm has its bias after the BN is folded) and its strides,
pads, dilations and groups; Gemm with transB=1 and a bias, like nn.Linear;
MatMul with both operands as inputs (both are activations in the model).
Weights are initializers, random (1/sqrt(fan-in) scale), inputs random.

Then, pinned to one core (taskset -c 0, --cpu), one thread, for each shape:
  ours  graph-run -O3 --threads 1 --bench N (compiled once per shape, by the
        JIT unless --cache-dir), latency from its "latency: min ..., median ..."
  ORT   onnxruntime-node, graphOptimizationLevel 'all', intraOpNumThreads 1
        (bench/peers/ort_run.js)
and prints one row per shape: MACs, both latencies (the min over the runs by
default, --stat), ours/ORT, our GFLOP/s (2 flops per multiply-add) and its
share of the f32 FMA peak of the ISA the code is compiled for; for GEMV-like
shapes (a gemm with M = 1) also the GB/s of streaming the weights and its
share of the measured memory bandwidth; the largest difference between our
output and ORT's, relative to ORT's largest magnitude.

The peak and the bandwidth come from bench/peak.c, which this script
compiles (cc -O2) and runs on the same core: FMA GFLOP/s per ISA level
(AVX-512, AVX2+FMA), single-thread streaming read GB/s of a 512 MiB buffer.
The ISA of the code: the host's, or that of --target-cpu / --target-features
(passed to graph-run; e.g. --target-cpu x86-64-v3 or haswell gives the AVX2
code path on an AVX-512 host, and the percentages are of the AVX2 peak), as
clang -march=NAME reports it.

Rows with >= 2^24 multiply-adds are marked '*'; the summary counts how many
of those reach >= 70% of the peak, and gives the geometric mean of ours/ORT.

Usage: bench/kernels.py [--models resnet18,mobilenet_v2,vit_b_16] [--filter S]
                        [--min-macs N] [--runs N] [--stat min|median]
                        [--target-cpu NAME] [--target-features F]
                        [--build DIR] [--cpu N] [--no-ort] [--json FILE]
                        [--work DIR] [--cache-dir DIR] [--peak FILE.json]
                        [--list]

Any torchvision classification model name is accepted in --models (e.g.
resnet50, inception_v3, convnext_tiny), and the text transformers of
bench/export_models.py, bert_encoder and gpt2_decoder (their linear layers
and the attention's batched products, 12 heads x 128 tokens). Run with /usr/bin/python3 (Debian's
torch, torchvision, onnx and numpy); onnxruntime-node is installed in
bench/peers by bench/peers.py --setup-only.
"""
import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
PEERS = os.path.join(BENCH, "peers")
DEFAULT_MODELS = "resnet18,mobilenet_v2,vit_b_16"
IMAGE_SIZE = {"inception_v3": 299}
SHORT = {"resnet18": "r18", "resnet50": "r50", "mobilenet_v2": "mv2", "vit_b_16": "vit",
         "densenet121": "d121", "inception_v3": "inc3", "efficientnet_b0": "eb0",
         "convnext_tiny": "cnxt", "bert_encoder": "bert", "gpt2_decoder": "gpt2"}
# The text transformers of bench/export_models.py (token embeddings in).
TEXT_MODELS = ("bert_encoder", "gpt2_decoder")
BIG = 1 << 24          # rows with at least this many multiply-adds are marked
PEAK_SHARE = 0.70      # the target share of the FMA peak
TOLERANCE = 1e-4       # max |ours - ORT| / max |ORT|


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# --- Shapes -----------------------------------------------------------------

def _pads(mod, kh, kw, h, w):
    """nn.Conv2d padding as ONNX pads [top, left, bottom, right]."""
    p = mod.padding
    if isinstance(p, str):
        if p == "valid":
            return [0, 0, 0, 0]
        # 'same' (stride 1): total (k - 1) * dilation, the extra one at the end.
        th = mod.dilation[0] * (kh - 1)
        tw = mod.dilation[1] * (kw - 1)
        return [th // 2, tw // 2, th - th // 2, tw - tw // 2]
    return [p[0], p[1], p[0], p[1]]


def collect_shapes(models):
    """{key: shape dict} over the models, in first-seen order, with the
    number of times each model uses the shape."""
    import torch
    import torchvision

    found = {}

    def add(key, shape, model):
        if key not in found:
            found[key] = dict(shape, uses={})
        found[key]["uses"][model] = found[key]["uses"].get(model, 0) + 1

    for name in models:
        if name in TEXT_MODELS:
            # Built by export_models.py: nn.Linear layers, and attention as
            # torch.matmul of the heads (hooked on the attention modules).
            sys.path.insert(0, BENCH)
            import export_models
            model = export_models.build(name).eval()
            example = torch.zeros(*export_models.INPUT_SHAPES[name])
        else:
            ctor = getattr(torchvision.models, name, None)
            if ctor is None or not callable(ctor):
                sys.exit("kernels.py: torchvision has no model %s" % name)
            torch.manual_seed(0)
            model = ctor(weights=None).eval()
            size = IMAGE_SIZE.get(name, 224)
            example = torch.zeros(1, 3, size, size)
        hooks, wrapped = [], []

        def conv_hook(mod, inp, out, name=name):
            if mod.padding_mode != "zeros":
                sys.exit("kernels.py: %s: padding_mode %s" % (name, mod.padding_mode))
            _, c, h, w = inp[0].shape
            f, _, kh, kw = mod.weight.shape
            key = ("conv", c, h, w, f, kh, kw, tuple(mod.stride),
                   tuple(_pads(mod, kh, kw, h, w)), tuple(mod.dilation), mod.groups)
            add(key, dict(kind="conv", c=c, h=h, w=w, f=f, kh=kh, kw=kw,
                          strides=list(mod.stride), pads=_pads(mod, kh, kw, h, w),
                          dilations=list(mod.dilation), group=mod.groups,
                          oh=out.shape[2], ow=out.shape[3]), name)

        def linear_hook(mod, inp, out, name=name):
            shape = inp[0].shape
            m = int(np.prod(shape[:-1]))
            key = ("gemm", m, mod.in_features, mod.out_features)
            add(key, dict(kind="gemm", m=m, k=mod.in_features, n=mod.out_features), name)

        def mha_hook(mod, q, name=name):
            if not mod.batch_first:
                q = q.transpose(0, 1)
            b, l, e = q.shape
            heads = mod.num_heads
            d = e // heads
            m = b * l
            add(("gemm", m, e, 3 * e), dict(kind="gemm", m=m, k=e, n=3 * e), name)
            add(("matmul", b * heads, l, d, l),
                dict(kind="matmul", b=b * heads, m=l, k=d, n=l), name)
            add(("matmul", b * heads, l, l, d),
                dict(kind="matmul", b=b * heads, m=l, k=l, n=d), name)
            add(("gemm", m, e, e), dict(kind="gemm", m=m, k=e, n=e), name)

        def heads_hook(mod, inp, out, name=name):
            b, l, e = inp[0].shape
            heads = mod.num_heads
            d = e // heads
            add(("matmul", b * heads, l, d, l),
                dict(kind="matmul", b=b * heads, m=l, k=d, n=l), name)
            add(("matmul", b * heads, l, l, d),
                dict(kind="matmul", b=b * heads, m=l, k=l, n=d), name)

        for mod in model.modules():
            if hasattr(mod, "num_heads") and not isinstance(mod, torch.nn.MultiheadAttention):
                hooks.append(mod.register_forward_hook(heads_hook))
            if isinstance(mod, torch.nn.Conv2d):
                hooks.append(mod.register_forward_hook(conv_hook))
            elif isinstance(mod, torch.nn.MultiheadAttention):
                # Its projections are applied functionally (F.linear on its
                # parameters): the hooks of out_proj never fire. torchvision
                # passes the query as a keyword, which forward hooks do not
                # see before torch 2.0: the forward is wrapped instead.
                def forward(*a, mod=mod, orig=mod.forward, **kw):
                    mha_hook(mod, a[0] if a else kw["query"])
                    return orig(*a, **kw)
                mod.forward = forward
                wrapped.append(mod)
            elif isinstance(mod, torch.nn.Linear):
                hooks.append(mod.register_forward_hook(linear_hook))
        with torch.no_grad():
            model(example)
        for h in hooks:
            h.remove()
        for mod in wrapped:
            del mod.forward
    shapes = list(found.values())
    for s in shapes:
        s["macs"] = macs(s)
        s["name"] = shape_name(s)
    return shapes


def macs(s):
    if s["kind"] == "conv":
        return s["f"] * (s["c"] // s["group"]) * s["kh"] * s["kw"] * s["oh"] * s["ow"]
    if s["kind"] == "gemm":
        return s["m"] * s["k"] * s["n"]
    return s["b"] * s["m"] * s["k"] * s["n"]


def shape_name(s):
    if s["kind"] == "gemm":
        return "gemm %dx%dx%d" % (s["m"], s["k"], s["n"])
    if s["kind"] == "matmul":
        return "matmul %dx%dx%dx%d" % (s["b"], s["m"], s["k"], s["n"])
    k = "%d" % s["kh"] if s["kh"] == s["kw"] else "%dx%d" % (s["kh"], s["kw"])
    st = s["strides"]
    st = "%d" % st[0] if st[0] == st[1] else "%dx%d" % tuple(st)
    p = s["pads"]
    if p[0] == p[1] == p[2] == p[3]:
        pads = "%d" % p[0]
    elif p[:2] == p[2:]:
        pads = "%d,%d" % (p[0], p[1])
    else:
        pads = ",".join(map(str, p))
    name = "conv %dx%dx%d->%d k%s s%s p%s" % (s["c"], s["h"], s["w"], s["f"], k, st, pads)
    if s["group"] > 1:
        name += " g%d" % s["group"]
    if s["dilations"] != [1, 1]:
        name += " d%dx%d" % tuple(s["dilations"])
    return name


# --- One-op models ----------------------------------------------------------

def write_model(s, base):
    """BASE.onnx and its inputs BASE.NAME.npy; returns {name: path}."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.RandomState(0)
    normal = lambda shape, scale=1.0: (rng.standard_normal(shape) * scale).astype(np.float32)
    inits, inputs = [], {}
    if s["kind"] == "conv":
        cg = s["c"] // s["group"]
        fan = cg * s["kh"] * s["kw"]
        x = [1, s["c"], s["h"], s["w"]]
        y = [1, s["f"], s["oh"], s["ow"]]
        inits = [numpy_helper.from_array(normal((s["f"], cg, s["kh"], s["kw"]),
                                                1 / math.sqrt(fan)), "weight"),
                 numpy_helper.from_array(normal((s["f"],), 0.1), "bias")]
        node = helper.make_node("Conv", ["input", "weight", "bias"], ["output"],
                                kernel_shape=[s["kh"], s["kw"]], strides=s["strides"],
                                pads=s["pads"], dilations=s["dilations"], group=s["group"])
        inputs["input"] = (x, normal(x))
    elif s["kind"] == "gemm":
        x = [s["m"], s["k"]]
        y = [s["m"], s["n"]]
        inits = [numpy_helper.from_array(normal((s["n"], s["k"]), 1 / math.sqrt(s["k"])),
                                         "weight"),
                 numpy_helper.from_array(normal((s["n"],), 0.1), "bias")]
        node = helper.make_node("Gemm", ["input", "weight", "bias"], ["output"], transB=1)
        inputs["input"] = (x, normal(x))
    else:
        a = [s["b"], s["m"], s["k"]]
        b = [s["b"], s["k"], s["n"]]
        y = [s["b"], s["m"], s["n"]]
        node = helper.make_node("MatMul", ["a", "b"], ["output"])
        inputs["a"] = (a, normal(a))
        inputs["b"] = (b, normal(b, 1 / math.sqrt(s["k"])))
    graph = helper.make_graph(
        [node], s["kind"],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, shape)
         for n, (shape, _) in inputs.items()],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, y)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, base + ".onnx")
    paths = {}
    for n, (_, value) in inputs.items():
        paths[n] = "%s.%s.npy" % (base, n)
        np.save(paths[n], value)
    return paths


# --- Peak -------------------------------------------------------------------

def pinned(cmd, cpu):
    return (["taskset", "-c", cpu] + cmd) if shutil.which("taskset") else cmd


def measure_peak(work, cpu):
    exe = os.path.join(work, "peak")
    cc = os.environ.get("CC", "cc")
    r = subprocess.run([cc, "-O2", "-o", exe, os.path.join(BENCH, "peak.c")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.exit("kernels.py: %s -O2 bench/peak.c failed:\n%s" % (cc, r.stdout))
    log("peak: FMA GFLOP/s per ISA and streaming read GB/s on core %s ..." % cpu)
    r = subprocess.run(pinned([exe], cpu), stdout=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("kernels.py: peak failed (exit %d)" % r.returncode)
    return json.loads(r.stdout.strip().splitlines()[-1])


def host_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def code_isa(target_cpu, target_features):
    """The ISA level the compiled code may use: avx512, avx2 (with FMA) or
    sse/avx (no FMA), from the host's flags or clang -march=TARGET_CPU, then
    --target-features on top."""
    if target_cpu:
        macros = None
        for cc in ("/usr/lib/llvm-22/bin/clang", "clang", "gcc"):
            if not shutil.which(cc):
                continue
            r = subprocess.run([cc, "-march=" + target_cpu, "-dM", "-E", "-x", "c",
                                os.devnull], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
            if r.returncode == 0:
                macros = r.stdout
                break
        if macros is None:
            sys.exit("kernels.py: cannot tell the ISA of --target-cpu %s (no clang or gcc "
                     "knows it)" % target_cpu)
        feats = {"avx512f": "__AVX512F__" in macros, "avx2": "__AVX2__" in macros,
                 "fma": "__FMA__" in macros, "avx": "__AVX__" in macros}
    else:
        flags = host_flags()
        feats = {f: f in flags for f in ("avx512f", "avx2", "fma", "avx")}
    for f in filter(None, (target_features or "").split(",")):
        f = f.strip()
        if f[:1] in "+-" and f[1:] in feats:
            feats[f[1:]] = f[0] == "+"
    if feats["avx512f"]:
        return "avx512"
    if feats["avx2"] and feats["fma"]:
        return "avx2"
    return "avx" if feats["avx"] else "sse"


def isa_peak(peak, isa):
    if isa in peak.get("fma_gflops", {}):
        return peak["fma_gflops"][isa]
    return peak.get("nofma_gflops", {}).get(isa)


# --- Runtimes ---------------------------------------------------------------

GRAPH_RUN_RE = re.compile(r"compile time: ([\d.]+) ms\s*\n"
                          r"latency: min ([\d.]+) ms, median ([\d.]+) ms")


def time_ours(args, base, inputs, runs):
    out = base + ".ours.npy"
    cmd = [os.path.join(args.build, "bin", "graph-run"), base + ".onnx", "-O3",
           "--threads", "1", "--bench", str(runs), "--output", out]
    cmd += ["--cache-dir", args.cache_dir] if args.cache_dir else ["--no-cache"]
    if args.target_cpu:
        cmd += ["--target-cpu", args.target_cpu]
    if args.target_features:
        cmd += ["--target-features", args.target_features]
    for n, p in inputs.items():
        cmd += ["--input", "%s=%s" % (n, p)]
    r = subprocess.run(pinned(cmd, args.cpu), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    m = GRAPH_RUN_RE.search(r.stdout)
    if r.returncode != 0 or not m:
        msg = (r.stderr.strip() or r.stdout.strip()).splitlines()
        return dict(error="graph-run exit %d: %s" % (r.returncode, msg[0] if msg else "?"))
    return dict(compile_ms=float(m.group(1)), min_ms=float(m.group(2)),
                median_ms=float(m.group(3)), output=out)


def time_ort(args, base, inputs, runs):
    out = base + ".ort.npy"
    cmd = ["node", os.path.join(PEERS, "ort_run.js"), base + ".onnx", "--level", "all",
           "--threads", "1", "--warmup", "3", "--runs", str(runs), "--output", out]
    for n, p in inputs.items():
        cmd += ["--input", "%s=%s" % (n, p)]
    r = subprocess.run(pinned(cmd, args.cpu), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        msg = r.stderr.strip().splitlines()
        return dict(error="ORT exit %d: %s" % (r.returncode, msg[-1] if msg else "?"))
    res = json.loads(r.stdout.strip().splitlines()[-1])
    return dict(min_ms=res["min_ms"], median_ms=res["median_ms"],
                create_ms=res["create_ms"], output=out)


def relative_diff(ours, ort):
    a, b = np.load(ours).astype(np.float64), np.load(ort).astype(np.float64)
    if a.shape != b.shape:
        return float("inf")
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-30))


def runs_for(s, args):
    """--runs, or more for small shapes: about 0.1 s of runs at 50 GFLOP/s,
    at most 10x --runs."""
    t = 2.0 * s["macs"] / 50e9
    return int(min(10 * args.runs, max(args.runs, 0.1 / max(t, 1e-7))))


# --- Report -----------------------------------------------------------------

def geomean(xs):
    xs = [x for x in xs if x and x > 0 and math.isfinite(x)]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def uses_text(uses):
    return ",".join("%s%s" % (SHORT.get(m, m), "x%d" % n if n > 1 else "")
                    for m, n in uses.items())


def print_table(rows, peak, isa, peak_gflops, args):
    stat = args.stat + "_ms"
    bw = peak["read_gbs"]
    print("%1s %-36s %-14s %9s %9s %9s %7s %8s %6s %7s %5s %8s" % (
        "", "shape", "used by", "MMACs", "ours ms", "ORT ms", "ours/ORT", "GFLOP/s",
        "%peak", "GB/s", "%bw", "rel diff"))
    for r in rows:
        s = r["shape"]
        mark = "*" if s["macs"] >= BIG else ""
        ours, ort = r.get("ours", {}), r.get("ort", {})
        cells = []
        o = ours.get(stat)
        t = ort.get(stat)
        cells.append("%9.4f" % o if o else "%9s" % ("FAIL" if "error" in ours else "-"))
        cells.append("%9.4f" % t if t else "%9s" % ("FAIL" if "error" in ort else "-"))
        cells.append("%8.2f" % (o / t) if o and t else "%8s" % "-")
        gf = 2 * s["macs"] / (o * 1e6) if o else None
        cells.append("%8.1f" % gf if gf else "%8s" % "-")
        cells.append("%5.0f%%" % (100 * gf / peak_gflops) if gf and peak_gflops else "%6s" % "-")
        if s["kind"] == "gemm" and s["m"] == 1 and o:
            gbs = 4.0 * s["k"] * s["n"] / (o * 1e-3) / 1e9
            cells.append("%7.1f %4.0f%%" % (gbs, 100 * gbs / bw))
        else:
            cells.append("%7s %5s" % ("", ""))
        d = r.get("diff")
        cells.append("%8.1e" % d if d is not None else "%8s" % "-")
        print("%1s %-36s %-14s %9.2f %s" % (mark, s["name"], uses_text(s["uses"]),
                                            s["macs"] / 1e6, " ".join(cells)))
    for r in rows:
        for side in ("ours", "ort"):
            if "error" in r.get(side, {}):
                print("  %s: %s: %s" % (r["shape"]["name"], side, r[side]["error"]))


def summary(rows, peak_gflops, isa, args):
    stat = args.stat + "_ms"
    big = [r for r in rows if r["shape"]["macs"] >= BIG and stat in r.get("ours", {})]
    reach = [r for r in big
             if 2 * r["shape"]["macs"] / (r["ours"][stat] * 1e6) >= PEAK_SHARE * peak_gflops]
    ratio = lambda rs: geomean([r["ours"][stat] / r["ort"][stat] for r in rs
                                if stat in r.get("ours", {}) and stat in r.get("ort", {})])
    big_ratio = ratio(big)
    all_ratio = ratio(rows)
    line = ("summary: %d of %d shapes with >= 2^24 MACs reach >= %.0f%% of the %s peak "
            "(%.1f GFLOP/s)" % (len(reach), len(big), 100 * PEAK_SHARE, isa, peak_gflops))
    if not args.no_ort:
        line += "; geomean ours/ORT: %.2f over those, %.2f over all %d shapes" % (
            big_ratio, all_ratio, len(rows))
    print(line)
    return dict(big=len(big), reach=len(reach), geomean_ratio_big=big_ratio,
                geomean_ratio_all=all_ratio)


# --- Driver -----------------------------------------------------------------

def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--models", default=DEFAULT_MODELS,
                   help="torchvision models, comma-separated (default %s)" % DEFAULT_MODELS)
    p.add_argument("--filter", default="", help="only shapes whose name contains this")
    p.add_argument("--min-macs", type=float, default=0,
                   help="only shapes with at least this many multiply-adds (e.g. 16777216)")
    p.add_argument("--runs", type=int, default=10,
                   help="timed runs per shape and runtime (more for small shapes, "
                        "up to 10x; default 10)")
    p.add_argument("--stat", choices=("min", "median"), default="min",
                   help="the latency of the table (default min over the runs)")
    p.add_argument("--target-cpu", help="passed to graph-run (e.g. x86-64-v3, haswell)")
    p.add_argument("--target-features", help="passed to graph-run (e.g. "
                                              "--target-features=-avx512f)")
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--cpu", default="0", help="the core to pin to (taskset -c; default 0)")
    p.add_argument("--no-ort", action="store_true", help="only ours")
    p.add_argument("--json", help="write the measurements to this file")
    p.add_argument("--work", help="keep the models and outputs here (default: a "
                                  "temporary directory)")
    p.add_argument("--cache-dir", help="graph-run's compile cache (default --no-cache: "
                                       "the JIT, a fresh compile per shape)")
    p.add_argument("--peak", help="reuse a measurement instead of running peak.c: a "
                                  "file with its JSON line, or a --json file of this "
                                  "script")
    p.add_argument("--list", action="store_true", help="print the shapes and stop")
    args = p.parse_args()
    models = [m for m in args.models.split(",") if m]

    graph_run = os.path.join(args.build, "bin", "graph-run")
    if not args.list and not os.access(graph_run, os.X_OK):
        sys.exit("kernels.py: no %s (build first, or --build DIR)" % graph_run)
    if not args.list and not args.no_ort and \
            not os.path.isdir(os.path.join(PEERS, "node_modules", "onnxruntime-node")):
        sys.exit("kernels.py: no onnxruntime-node in bench/peers: run "
                 "bench/peers.py --setup-only, or --no-ort")

    log("collecting the shapes of %s ..." % ", ".join(models))
    shapes = [s for s in collect_shapes(models)
              if args.filter in s["name"] and s["macs"] >= args.min_macs]
    order = {"conv": 0, "gemm": 1, "matmul": 2}
    shapes.sort(key=lambda s: (order[s["kind"]], -s["macs"]))
    if args.list:
        for s in shapes:
            print("%1s %-40s %-16s %10.2f MMACs" % ("*" if s["macs"] >= BIG else "",
                                                    s["name"], uses_text(s["uses"]),
                                                    s["macs"] / 1e6))
        print("%d shapes, %d with >= 2^24 MACs" % (len(shapes),
                                                   sum(s["macs"] >= BIG for s in shapes)))
        return
    if not shapes:
        sys.exit("kernels.py: no shape left (--filter, --min-macs)")

    work = args.work or tempfile.mkdtemp(prefix="graph-kernels-")
    os.makedirs(work, exist_ok=True)
    try:
        if args.peak:
            with open(args.peak) as f:
                text = f.read()
            try:  # a --json file of this script
                peak = json.loads(text)["peak"]
            except (ValueError, KeyError, TypeError):  # peak's output
                peak = json.loads(text.strip().splitlines()[-1])
        else:
            peak = measure_peak(work, args.cpu)
        isa = code_isa(args.target_cpu, args.target_features)
        peak_gflops = isa_peak(peak, isa)
        rows = []
        start = time.time()
        for i, s in enumerate(shapes):
            base = os.path.join(work, "k%03d" % i)
            inputs = write_model(s, base)
            runs = runs_for(s, args)
            log("[%d/%d] %s (%d runs) ..." % (i + 1, len(shapes), s["name"], runs))
            row = dict(shape=s, runs=runs)
            row["ours"] = time_ours(args, base, inputs, runs)
            if not args.no_ort:
                row["ort"] = time_ort(args, base, inputs, runs)
                if "output" in row["ours"] and "output" in row["ort"]:
                    row["diff"] = relative_diff(row["ours"]["output"], row["ort"]["output"])
            rows.append(row)
        elapsed = time.time() - start

        commit = subprocess.run(["git", "-C", ROOT, "log", "-1", "--oneline"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True).stdout.strip()
        # The build may hold changes not yet committed (outside bench/).
        if commit and subprocess.run(["git", "-C", ROOT, "diff", "--quiet", "HEAD", "--",
                                      ".", ":(exclude)bench"]).returncode == 1:
            commit += " (+ uncommitted changes)"
        try:
            load = "%.2f %.2f %.2f" % os.getloadavg()
        except OSError:
            load = "?"
        print("kernels: %s, one thread on core %s, %s latency over the runs; %s"
              % (", ".join(models), args.cpu, args.stat, time.strftime("%Y-%m-%d %H:%M")))
        built = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(os.path.getmtime(graph_run)))
        print("host: %s; commit %s; graph-run built %s; load average %s"
              % (peak["cpu"], commit or "?", built, load))
        print("code: graph-run -O3%s%s -> ISA %s; peak (bench/peak.c, core %s): FMA %s "
              "GFLOP/s (~%.2f GHz), streaming read %.1f GB/s (%d MiB; 16 MiB: %.1f GB/s)" % (
                  " --target-cpu " + args.target_cpu if args.target_cpu else "",
                  " --target-features " + args.target_features if args.target_features else "",
                  isa, args.cpu,
                  ", ".join("%s %.1f" % kv for kv in peak["fma_gflops"].items()),
                  peak.get("ghz_est", 0), peak["read_gbs"], peak.get("read_mib", 0),
                  peak.get("read_gbs_16mib", 0)))
        print_table(rows, peak, isa, peak_gflops, args)
        print("(* = >= 2^24 multiply-adds; GFLOP/s = 2 x MACs / ours; %%peak of %s %.1f "
              "GFLOP/s; GB/s, %%bw: weights of an M=1 gemm / ours, of %.1f GB/s, the "
              "streaming read from memory: weights smaller than the caches come from them "
              "after the first run, so above 100%% is possible; rel diff = max|ours - ORT| "
              "/ max|ORT|)" % (isa, peak_gflops, peak["read_gbs"]))
        summ = summary(rows, peak_gflops, isa, args)
        bad = [r["shape"]["name"] for r in rows
               if r.get("diff") is not None and not r["diff"] <= TOLERANCE]
        failed = [r["shape"]["name"] for r in rows
                  if "error" in r.get("ours", {}) or "error" in r.get("ort", {})]
        compile_s = sum(r["ours"].get("compile_ms", 0) for r in rows) / 1e3
        print("%d shapes in %.0f s (graph-run compile time %.0f s)" % (len(rows), elapsed,
                                                                       compile_s))
        if bad:
            print("MISMATCH (rel diff > %g): %s" % (TOLERANCE, "; ".join(bad)))
        if failed:
            print("FAILED: %s" % "; ".join(failed))
        if args.json:
            with open(args.json, "w") as f:
                json.dump(dict(models=models, peak=peak, isa=isa, peak_gflops=peak_gflops,
                               target_cpu=args.target_cpu,
                               target_features=args.target_features, stat=args.stat,
                               commit=commit, graph_run_built=built, load=load, rows=rows,
                               summary=summ), f,
                          indent=1)
        if bad or failed:
            sys.exit(1)
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
