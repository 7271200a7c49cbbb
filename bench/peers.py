#!/usr/bin/python3
"""graph-run against its peers: ONNX Runtime and PyTorch, same models, same input.

Exports ResNet-18 and MobileNetV2 (torchvision, random weights, eval(), BatchNorm
kept as a node of its own), a conv_bn_relu block, a ViT-Tiny-style transformer
encoder and a MobileNetV3-Small (squeeze-excitation, HardSwish) built in
bench/export_models.py (with --models also the torchvision ResNet-50,
DenseNet-121, Inception-v3 at 299x299, EfficientNet-B0 and ConvNeXt-Tiny, and
the transformers ViT-B/16, a BERT-base-sized encoder and a GPT-2-small-sized
decoder, the text models at opset 13 and 17, 2-layer LSTM and
bidirectional GRU encoders of width 256 over 100 steps, and scripted_loop, a
torch.jit.script model whose while loop and If the data decides),
then times each model, one runtime after the other, each in its own process,
at each thread count of --threads (default 1,all): at 1 thread pinned to one
core (taskset -c 0, or --cpu), at T threads to the first T cores this process
may use ("all": every one of them):
  ORT-disabled  onnxruntime-node, graph optimizations disabled
  ORT-all       onnxruntime-node, all graph optimizations
  torch         PyTorch eager, torch.no_grad()
  ours -O0      graph-run -O0 (no graph-optimize; same lowering)
  ours -O3      graph-run -O3
and prints the host's CPU and vector ISA (lscpu, /proc/cpuinfo), then per model
and thread count: median and min latency, each runtime's ratio to ORT-all
(ours / ORT-all for graph-run), the maximum absolute difference of its output
from ORT-all's (graph-run must be within 1e-4; for the large models, 1e-4 times
the largest output's magnitude when above 1), and the setup time (ORT session
creation, graph-run compile time). Then, for ResNet-18 and MobileNetV2, the op
counts before and after graph-optimize and the import time (graph-translate).

--conv-profile also times every distinct convolution shape of a model alone
(single-Conv ONNX models for ORT, the same conv as graph IR for graph-run -O3):
GFLOP/s per shape and the share of the model's conv time. --stage-profile cuts
the model into consecutive stages (ResNet-18: stem conv, maxpool, layer1..4,
head; MobileNetV2: each block) and times each alone under ORT-all and graph-run
-O0/-O3. Both show where the gap to ONNX Runtime is.

Needs python3-torch, python3-torchvision (Debian) and onnxruntime-node (npm, in
bench/peers); --setup installs them, and they are installed automatically when
missing. Run with /usr/bin/python3 (Debian's NumPy, ONNX and torch).

Usage: bench/peers.py [--setup | --setup-only] [--build DIR] [--runs N] [--warmup W]
                      [--models resnet18,mobilenet_v2,conv_bn_relu,vit_tiny,mobilenet_v3,
                                resnet50,densenet121,inception_v3,efficientnet_b0,
                                convnext_tiny,vit_b_16,bert_encoder,
                                bert_encoder_opset17,gpt2_decoder,gpt2_decoder_opset17,
                                lstm,gru,scripted_loop]
                      [--work DIR]
                      [--no-ours] [--no-torch] [--conv-profile [MODEL]]
                      [--stage-profile [MODEL]]
                      [--threads 1,all] [--cpu N] [--json FILE]
"""
import argparse
import json
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
PYTHON = "/usr/bin/python3"  # Debian's torch, torchvision, onnx and numpy
EXPORT = os.path.join(BENCH, "export_models.py")
# The default set (--models), and the larger torchvision models selectable
# with --models (slower to export and to compile).
DEFAULT_MODELS = ("resnet18", "mobilenet_v2", "conv_bn_relu", "vit_tiny", "mobilenet_v3")
LARGE_MODELS = ("resnet50", "densenet121", "inception_v3", "efficientnet_b0", "convnext_tiny")
# The transformers of the issue "Transformers at ONNX Runtime's speed".
TRANSFORMER_MODELS = ("vit_b_16", "bert_encoder", "bert_encoder_opset17", "gpt2_decoder",
                      "gpt2_decoder_opset17")
# The recurrent encoders of the issue "The model classes still refused".
RECURRENT_MODELS = ("lstm", "gru")
CONTROL_FLOW_MODELS = ("scripted_loop",)
MODELS = (DEFAULT_MODELS + LARGE_MODELS + TRANSFORMER_MODELS + RECURRENT_MODELS +
          CONTROL_FLOW_MODELS)
# The models the TARGET_RATIO applies to.
TARGET_MODELS = ("resnet18", "mobilenet_v2")
TOLERANCE = 1e-4       # max |ours - ORT-all|; for LARGE_MODELS and TRANSFORMER_MODELS,
                       # times max(1, max |ORT-all|)
TARGET_RATIO = 3.0     # ours / ORT-all on resnet18 and mobilenet_v2
RUNTIMES = ("ORT-disabled", "ORT-all", "torch", "ours -O0", "ours -O3")
CPU = "0"              # the core every runtime is pinned to at 1 thread (--cpu)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def available_cores():
    """The cores this process may run on, in order."""
    try:
        return sorted(os.sched_getaffinity(0))
    except AttributeError:
        return list(range(os.cpu_count() or 1))


def parse_threads(text):
    """--threads: a comma-separated list of counts or "all"."""
    counts = []
    for item in text.split(","):
        item = item.strip()
        if item == "all":
            n = len(available_cores())
        elif item.isdigit() and int(item) >= 1:
            n = int(item)
        else:
            sys.exit("--threads expects counts >= 1 or 'all', got '%s'" % item)
        if n > len(available_cores()):
            sys.exit("--threads %d: this process may use %d cores"
                     % (n, len(available_cores())))
        if n not in counts:
            counts.append(n)
    return counts


def pinned(cmd, threads=1):
    """The same cores for every runtime, so that the measurements are alike:
    --cpu at 1 thread, the first THREADS cores the process may use above."""
    if not shutil.which("taskset"):
        return cmd
    cores = CPU if threads == 1 else ",".join(map(str, available_cores()[:threads]))
    return ["taskset", "-c", cores] + cmd


def host_description():
    """The CPU's name and its vector ISA, from lscpu or /proc/cpuinfo."""
    name, flags = "?", set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "model name" and name == "?":
                    name = value.strip()
                elif key == "flags" and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    if name == "?" and shutil.which("lscpu"):
        out = subprocess.run(["lscpu"], stdout=subprocess.PIPE, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                name = line.split(":", 1)[1].strip()
            elif line.startswith("Flags:"):
                flags = set(line.split(":", 1)[1].split())
    if "avx512f" in flags:
        isa = "AVX-512"
    elif "avx2" in flags:
        isa = "AVX2"
    elif "avx" in flags:
        isa = "AVX"
    elif "sse4_2" in flags:
        isa = "SSE4.2"
    else:
        isa = "?"
    known = ("avx512f", "avx512bw", "avx512vl", "avx512_vnni", "avx512_bf16",
             "avx512_fp16", "amx_tile", "avx2", "fma", "f16c", "avx", "sse4_2")
    present = [f for f in known if f in flags]
    return dict(cpu=name, isa=isa, flags=present, cores=len(available_cores()))


def run(cmd, what, env=None, capture=True):
    out = subprocess.run(cmd, stdout=subprocess.PIPE if capture else None,
                         stderr=subprocess.PIPE if capture else None, text=True, env=env)
    if out.returncode != 0:
        sys.exit("%s failed (exit %d): %s\n%s%s" % (
            what, out.returncode, " ".join(cmd), out.stdout or "", out.stderr or ""))
    return out


# --- Setup ------------------------------------------------------------------

def have_torch():
    return subprocess.run([PYTHON, "-c", "import torch, torchvision"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def have_ort():
    return os.path.isdir(os.path.join(PEERS, "node_modules", "onnxruntime-node"))


def setup(force):
    """apt-get python3-torch python3-torchvision; npm install onnxruntime-node."""
    if force or not have_torch():
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        pkgs = ["python3-torch", "python3-torchvision"]
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        known = subprocess.run(["apt-cache", "show"] + pkgs, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL).returncode == 0
        if not known:
            log("apt-get update ...")
            run(sudo + ["apt-get", "update"], "apt-get update", env=env, capture=False)
        log("apt-get install %s ..." % " ".join(pkgs))
        run(sudo + ["apt-get", "install", "-y"] + pkgs, "apt-get install", env=env,
            capture=False)
    if force or not have_ort():
        if not shutil.which("npm"):
            sys.exit("npm not found: install Node.js (>= 18) first")
        log("npm install onnxruntime-node (ONNXRUNTIME_NODE_INSTALL=skip) ...")
        # The CPU library ships inside the package; skip the GPU download.
        env = dict(os.environ, ONNXRUNTIME_NODE_INSTALL="skip")
        out = subprocess.run(["npm", "install", "--no-audit", "--no-fund"], cwd=PEERS,
                             env=env)
        if out.returncode != 0:
            sys.exit("npm install failed in %s" % PEERS)


# --- Runtimes ---------------------------------------------------------------

def time_ort(model, inp, out, level, args, threads=1):
    cmd = pinned(["node", os.path.join(PEERS, "ort_run.js"), model,
                  "--input", "input=" + inp, "--output", out, "--level", level,
                  "--threads", str(threads), "--warmup", str(args.warmup),
                  "--runs", str(args.runs)], threads)
    r = json.loads(run(cmd, "ORT (%s)" % level).stdout.strip().splitlines()[-1])
    return dict(median_ms=r["median_ms"], min_ms=r["min_ms"], setup_ms=r["create_ms"],
                output=out)


def time_torch(work, name, out, args, threads=1):
    cmd = pinned([PYTHON, EXPORT, "time", "--dir", work, "--model", name,
                  "--warmup", str(args.warmup), "--runs", str(args.runs),
                  "--threads", str(threads), "--output", out], threads)
    r = json.loads(run(cmd, "torch").stdout.strip().splitlines()[-1])
    return dict(median_ms=r["median_ms"], min_ms=r["min_ms"], setup_ms=None, output=out)


GRAPH_RUN_RE = re.compile(
    r"compile time: ([\d.]+) ms\s*\n"
    r"latency: min ([\d.]+) ms, median ([\d.]+) ms \((\d+) runs\)\s*\n"
    r"peak buffer bytes: (\d+)")


def time_ours(graph_run, model, inp, out, level, args, threads=1):
    # graph-run warms up with one run of its own before the timed runs.
    # --no-cache: the setup time is a cold compile, every time.
    cmd = pinned([graph_run, model, "-O%d" % level, "--no-cache", "--input", "input=" + inp,
                  "--output", out, "--bench", str(args.runs),
                  "--threads", str(threads)], threads)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    m = GRAPH_RUN_RE.search(r.stdout + r.stderr)
    if r.returncode != 0 or not m:
        # Reported in the table; the peers' numbers are still worth printing.
        msg = (r.stderr.strip() or r.stdout.strip()).splitlines()
        return dict(error="exit %d: %s" % (r.returncode, msg[0] if msg else "no output"))
    return dict(median_ms=float(m.group(3)), min_ms=float(m.group(2)),
                setup_ms=float(m.group(1)), peak=int(m.group(5)), output=out)


def checked(result, model):
    if "error" in result:
        sys.exit("graph-run %s failed: %s" % (model, result["error"]))
    return result


def tolerance(name, reference):
    """The largest |ours - ORT-all| accepted: TOLERANCE, or for the large
    models (whose outputs reach tens: inception_v3's classifier has weights
    of standard deviation 0.1) TOLERANCE relative to the largest output."""
    if name not in LARGE_MODELS + TRANSFORMER_MODELS:
        return TOLERANCE
    return TOLERANCE * max(1.0, float(np.max(np.abs(np.load(reference)))))


def max_abs_diff(a_path, b_path):
    a, b = np.load(a_path), np.load(b_path)
    if a.shape != b.shape:
        return float("inf")
    return float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64))))


# --- Op counts --------------------------------------------------------------

def graph_report(graph_opt, mlir, optimize):
    """graph-report's JSON, and the time of graph-optimize's passes (ms)."""
    cmd = [graph_opt, mlir, "-o", os.devnull]
    if optimize:
        cmd.append("--graph-optimize")
    cmd += ["--graph-report=json=true", "--mlir-timing"]
    r = run(cmd, "graph-opt")
    line = [l for l in r.stderr.splitlines() if l.startswith("{")]
    if not line:
        sys.exit("no JSON report from graph-opt:\n" + r.stderr)
    # --mlir-timing rows: "  0.0413 ( 14.4%)  GraphFuse".
    passes = 0.0
    for m in re.finditer(r"^\s*([\d.]+) \(\s*[\d.]+%\)\s+(Graph\w+)\s*$", r.stderr, re.M):
        if m.group(2) != "GraphReport":
            passes += float(m.group(1)) * 1e3
    return json.loads(line[-1]), passes


def op_counts(graph_translate, graph_opt, work, name):
    """Imports NAME.onnx; its report before and after graph-optimize."""
    mlir = os.path.join(work, name + ".mlir")
    start = time.perf_counter()
    with open(mlir, "w") as f:
        r = subprocess.run([graph_translate, "--import-onnx",
                            os.path.join(work, name + ".onnx")],
                           stdout=f, stderr=subprocess.PIPE, text=True)
    import_ms = (time.perf_counter() - start) * 1e3
    if r.returncode != 0:
        return dict(error="graph-translate --import-onnx %s.onnx: exit %d: %s"
                    % (name, r.returncode, r.stderr.strip()))
    before, _ = graph_report(graph_opt, mlir, False)
    after, optimize_ms = graph_report(graph_opt, mlir, True)
    return dict(before=before, after=after, import_ms=import_ms,
                optimize_ms=optimize_ms, mlir_bytes=os.path.getsize(mlir),
                transposes_O0=runtime_transposes(graph_opt, mlir, False),
                transposes_O3=runtime_transposes(graph_opt, mlir, True))


def runtime_transposes(graph_opt, mlir, optimize):
    """The layout changes the compiled model makes at run time: the
    linalg.transpose ops left after the conversion to linalg (a constant
    weight is permuted at compile time, not counted). Without graph-optimize,
    each NCHW conv has two, around its NHWC kernel."""
    cmd = [graph_opt, mlir] + (["--graph-optimize"] if optimize else []) + \
          ["--convert-graph-to-linalg", "--mlir-elide-elementsattrs-if-larger=1"]
    return run(cmd, "graph-opt").stdout.count("linalg.transpose")


def batch_norms_left(report):
    """Top-level batch_norm ops plus those inside fused groups."""
    n = report["ops"].get("graph.batch_norm", 0)
    for kind, count in report["fused"].items():
        n += count * kind.split("_").count("norm")  # ..._batch_norm_...
    return n


# --- Conv profile -----------------------------------------------------------

def conv_shapes(onnx_path):
    """Distinct Conv configurations of a model, with their counts."""
    import onnx
    from onnx import shape_inference
    model = shape_inference.infer_shapes(onnx.load(onnx_path))
    g = model.graph
    shapes = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim]
              for v in list(g.value_info) + list(g.input) + list(g.output)}
    inits = {i.name: list(i.dims) for i in g.initializer}
    found = {}
    for node in g.node:
        if node.op_type != "Conv":
            continue
        a = {x.name: onnx.helper.get_attribute_value(x) for x in node.attribute}
        n, c, h, w = shapes[node.input[0]]
        f, _, kh, kw = inits[node.input[1]]
        key = (c, h, w, f, kh, kw, tuple(a.get("strides", [1, 1])),
               tuple(a.get("pads", [0, 0, 0, 0])), a.get("group", 1))
        found[key] = found.get(key, 0) + 1
    return found


def conv_model(path, key):
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    c, h, w, f, kh, kw, strides, pads, group = key
    rng = np.random.RandomState(0)
    weight = (rng.standard_normal((f, c // group, kh, kw)) /
              np.sqrt(c // group * kh * kw)).astype(np.float32)
    oh = (h + pads[0] + pads[2] - kh) // strides[0] + 1
    ow = (w + pads[1] + pads[3] - kw) // strides[1] + 1
    node = helper.make_node("Conv", ["input", "weight"], ["output"], strides=list(strides),
                            pads=list(pads), group=group, kernel_shape=[kh, kw])
    graph = helper.make_graph(
        [node], "conv", [helper.make_tensor_value_info("input", TensorProto.FLOAT,
                                                       [1, c, h, w])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, f, oh, ow])],
        [numpy_helper.from_array(weight, "weight")])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)
    # The same conv as graph IR, so that the profile does not depend on the
    # importer.
    ty = lambda shape: "tensor<%sxf32>" % "x".join(map(str, shape))
    with open(path + ".mlir", "w") as out:
        out.write('func.func @main(%%x: %s {graph.name = "input"}) -> (%s {graph.name = "output"}) {\n'
                '  %%w = "graph.constant"() {value = dense<"0x%s"> : %s} : () -> %s\n'
                '  %%y = "graph.conv2d"(%%x, %%w) {strides = array<i64: %d, %d>, '
                'padding = array<i64: %s>, groups = %d : i64} : (%s, %s) -> %s\n'
                '  return %%y : %s\n}\n' % (
                    ty((1, c, h, w)), ty((1, f, oh, ow)), weight.astype("<f4").tobytes().hex().upper(),
                    ty(weight.shape), ty(weight.shape), strides[0], strides[1],
                    ", ".join(map(str, pads)), group, ty((1, c, h, w)), ty(weight.shape),
                    ty((1, f, oh, ow)), ty((1, f, oh, ow))))
    np.save(path + ".input.npy", rng.standard_normal((1, c, h, w)).astype(np.float32))
    return 2.0 * f * (c // group) * kh * kw * oh * ow


def conv_profile(graph_run, work, name, args):
    shapes = conv_shapes(os.path.join(work, name + ".onnx"))
    rows = []
    for i, (key, count) in enumerate(sorted(shapes.items(), key=lambda kv: kv[0][1::-1])):
        path = os.path.join(work, "conv%d.onnx" % i)
        flops = conv_model(path, key)
        inp = path + ".input.npy"
        log("conv profile %s: %d/%d ..." % (name, i + 1, len(shapes)))
        ort = time_ort(path, inp, path + ".ort.npy", "all", args)
        ours = checked(time_ours(graph_run, path + ".mlir", inp, path + ".ours.npy", 3, args),
                       path + ".mlir")
        diff = max_abs_diff(ours["output"], ort["output"])
        rows.append(dict(key=key, count=count, flops=flops, ort=ort["median_ms"],
                         ours=ours["median_ms"], diff=diff))
    print()
    print("conv profile of %s: each distinct Conv alone, 1 thread, median of %d runs"
          % (name, args.runs))
    print("%-34s %3s %8s %9s %9s %8s %8s %6s %9s" % (
        "C x H x W -> F, k, stride, group", "n", "MFLOP", "ORT ms", "ours ms",
        "ORT GF/s", "ours GF/s", "ratio", "diff"))
    tot_ort = tot_ours = 0.0
    for r in rows:
        c, h, w, f, kh, kw, s, p, g = r["key"]
        label = "%dx%dx%d -> %d, %dx%d, s%d%s" % (c, h, w, f, kh, kw, s[0],
                                                  ", g%d" % g if g > 1 else "")
        tot_ort += r["count"] * r["ort"]
        tot_ours += r["count"] * r["ours"]
        print("%-34s %3d %8.1f %9.3f %9.3f %8.1f %9.1f %6.2f %9.2e" % (
            label, r["count"], r["flops"] / 1e6, r["ort"], r["ours"],
            r["flops"] / r["ort"] / 1e6, r["flops"] / r["ours"] / 1e6, r["ours"] / r["ort"],
            r["diff"]))
    print("sum over the model's convs: ORT %.2f ms, ours %.2f ms (ratio %.2f)"
          % (tot_ort, tot_ours, tot_ours / tot_ort))
    print("largest gaps (count x (ours - ORT) ms):")
    for r in sorted(rows, key=lambda r: -r["count"] * (r["ours"] - r["ort"]))[:4]:
        c, h, w, f, kh, kw, s, p, g = r["key"]
        print("  %dx%dx%d -> %d, %dx%d, s%d%s: %.2f ms" % (
            c, h, w, f, kh, kw, s[0], ", g%d" % g if g > 1 else "",
            r["count"] * (r["ours"] - r["ort"])))
    return dict(rows=[dict(r, key=list(map(str, r["key"]))) for r in rows],
                total_ort_ms=tot_ort, total_ours_ms=tot_ours)


# --- Stage profile ----------------------------------------------------------

def stage_profile(graph_run, work, name, args):
    """The model cut into consecutive stages, each timed alone."""
    listing = json.loads(run([PYTHON, EXPORT, "stages", "--dir", work, "--model", name],
                             "export_models.py stages").stdout.strip().splitlines()[-1])
    rows = []
    for k, st in enumerate(listing):
        log("stage profile %s: %d/%d ..." % (name, k + 1, len(listing)))
        base = st["onnx"][:-len(".onnx")]
        ort = time_ort(st["onnx"], st["input"], base + ".ort.npy", "all", args)
        o0 = checked(time_ours(graph_run, st["onnx"], st["input"], base + ".O0.npy", 0, args),
                     st["onnx"])
        o3 = checked(time_ours(graph_run, st["onnx"], st["input"], base + ".O3.npy", 3, args),
                     st["onnx"])
        rows.append(dict(label=st["label"], ort=ort["median_ms"], o0=o0["median_ms"],
                         o3=o3["median_ms"],
                         diff=max(max_abs_diff(o0["output"], ort["output"]),
                                  max_abs_diff(o3["output"], ort["output"]))))
    print()
    print("stage profile of %s: consecutive stages, each alone, 1 thread, median of %d runs"
          % (name, args.runs))
    print("%-36s %9s %9s %9s %7s %10s %9s" % ("stage", "ORT ms", "-O0 ms", "-O3 ms",
                                            "ratio", "gap ms", "diff"))
    for r in rows:
        print("%-36s %9.3f %9.3f %9.3f %7.2f %10.3f %9.2e" % (
            r["label"], r["ort"], r["o0"], r["o3"], r["o3"] / r["ort"], r["o3"] - r["ort"],
            r["diff"]))
    tot = {k: sum(r[k] for r in rows) for k in ("ort", "o0", "o3")}
    print("%-36s %9.3f %9.3f %9.3f %7.2f %10.3f" % (
        "sum", tot["ort"], tot["o0"], tot["o3"], tot["o3"] / tot["ort"],
        tot["o3"] - tot["ort"]))
    return dict(rows=rows, totals=tot)


# --- Driver -----------------------------------------------------------------

def print_table(name, res, runs, threads):
    base = res["ORT-all"]
    print()
    print("%s (input %s), %d thread%s, %d runs; tolerance %.3g" % (
        name, "x".join(map(str, res["shape"])), threads, "" if threads == 1 else "s", runs,
        res.get("tolerance", TOLERANCE)))
    print("%-13s %10s %10s %10s %10s %14s %10s" % (
        "runtime", "median ms", "min ms", "/ORT-all", "(of mins)", "max|d| vs ORT",
        "setup ms"))
    for rt in RUNTIMES:
        if rt not in res:
            continue
        r = res[rt]
        if "error" in r:
            print("%-13s FAILED (%s)" % (rt, r["error"]))
            continue
        setup = "%10.1f" % r["setup_ms"] if r.get("setup_ms") is not None else "%10s" % "-"
        print("%-13s %10.3f %10.3f %10.2f %10.2f %14.2e %s" % (
            rt, r["median_ms"], r["min_ms"], r["median_ms"] / base["median_ms"],
            r["min_ms"] / base["min_ms"], r["diff"], setup))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--setup", action="store_true",
                        help="install python3-torch, python3-torchvision and "
                             "onnxruntime-node, then continue")
    parser.add_argument("--setup-only", action="store_true", help="install and stop")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--models", default=",".join(DEFAULT_MODELS),
                        help="comma-separated, of %s (default %s)"
                             % (", ".join(MODELS), ",".join(DEFAULT_MODELS)))
    parser.add_argument("--work", help="keep the exported models and outputs here "
                                       "(default: a temporary directory)")
    parser.add_argument("--no-torch", action="store_true",
                        help="skip PyTorch eager (Debian's torch takes seconds per run "
                             "on the transformers)")
    parser.add_argument("--no-ours", action="store_true",
                        help="only the peers (ORT and torch)")
    parser.add_argument("--conv-profile", nargs="?", const="resnet18", metavar="MODEL",
                        help="also time each distinct conv of MODEL alone (default resnet18)")
    parser.add_argument("--stage-profile", nargs="?", const="resnet18", metavar="MODEL",
                        help="also time MODEL's consecutive stages (ResNet-18: stem, "
                             "maxpool, layer1..4, head) one by one (default resnet18)")
    parser.add_argument("--json", help="write every measurement to this file")
    parser.add_argument("--cpu", default="0",
                        help="the core every runtime is pinned to at 1 thread "
                             "(taskset -c; default 0)")
    parser.add_argument("--threads", default="1,all",
                        help="thread counts to run every runtime at, comma-separated; "
                             "'all': every core this process may use (default 1,all)")
    args = parser.parse_args()
    global CPU
    CPU = args.cpu
    thread_counts = parse_threads(args.threads)

    setup(args.setup or args.setup_only)
    if args.setup_only:
        return
    models = args.models.split(",")
    for m in models:
        if m not in MODELS:
            sys.exit("unknown model %s (known: %s)" % (m, ", ".join(MODELS)))
    tools = {t: os.path.join(args.build, "bin", t)
             for t in ("graph-run", "graph-opt", "graph-translate")}
    if not args.no_ours:
        for t, path in tools.items():
            if not os.access(path, os.X_OK):
                sys.exit("no %s: build first (scripts/setup.sh), or --no-ours" % path)

    work = args.work or tempfile.mkdtemp(prefix="graph-peers-")
    os.makedirs(work, exist_ok=True)
    try:
        log("exporting %s to %s ..." % (", ".join(models), work))
        run([PYTHON, EXPORT, "export", "--out", work, "--models", ",".join(models)],
            "export_models.py")
        results = {}
        for name in models:
            onnx_path = os.path.join(work, name + ".onnx")
            inp = os.path.join(work, name + ".input.npy")
            out = lambda tag: os.path.join(work, "%s.%s.npy" % (name, tag))
            shape = list(np.load(inp).shape)
            by_threads = {}
            for t in thread_counts:
                res = {"shape": shape, "threads": t}
                tag = lambda what: "%s.t%d" % (what, t)
                log("%s, %d thread(s): ORT disabled ..." % (name, t))
                res["ORT-disabled"] = time_ort(onnx_path, inp, out(tag("ort-disabled")),
                                               "disabled", args, t)
                log("%s, %d thread(s): ORT all ..." % (name, t))
                res["ORT-all"] = time_ort(onnx_path, inp, out(tag("ort-all")), "all", args, t)
                if not args.no_torch:
                    log("%s, %d thread(s): torch ..." % (name, t))
                    res["torch"] = time_torch(work, name, out(tag("torch")), args, t)
                if not args.no_ours:
                    for level in (0, 3):
                        log("%s, %d thread(s): graph-run -O%d ..." % (name, t, level))
                        res["ours -O%d" % level] = time_ours(
                            tools["graph-run"], onnx_path, inp, out(tag("ours-O%d" % level)),
                            level, args, t)
                for rt in RUNTIMES:
                    if rt in res and "error" not in res[rt]:
                        res[rt]["diff"] = max_abs_diff(res[rt]["output"],
                                                       res["ORT-all"]["output"])
                res["tolerance"] = tolerance(name, res["ORT-all"]["output"])
                by_threads[t] = res
            if not args.no_ours and name != "conv_bn_relu":
                log("%s: op counts ..." % name)
                ops = op_counts(tools["graph-translate"], tools["graph-opt"], work, name)
                for res in by_threads.values():
                    res["ops"] = ops
            results[name] = by_threads

        host = host_description()
        results["host"] = host
        print("graph-run vs ONNX Runtime %s and PyTorch eager, %s"
              % (ort_version(), time.strftime("%Y-%m-%d")))
        print("host: %s; vector ISA %s (%s); %d core%s available" % (
            host["cpu"], host["isa"], " ".join(host["flags"]) or "no flags read",
            host["cores"], "" if host["cores"] == 1 else "s"))
        failed = []
        for name in models:
            for t, res in results[name].items():
                print_table(name, res, args.runs, t)
                for lv in ("ours -O0", "ours -O3"):
                    if lv in res and "error" in res[lv]:
                        failed.append("%s %s, %d thread(s): %s" % (name, lv, t, res[lv]["error"]))
                    elif lv in res and not res[lv]["diff"] <= res["tolerance"]:
                        failed.append("%s %s, %d thread(s): max abs diff %.3g > %.3g"
                                      % (name, lv, t, res[lv]["diff"], res["tolerance"]))
                if "ours -O3" in res and "error" not in res["ours -O3"] and name != "conv_bn_relu":
                    ratio = res["ours -O3"]["median_ms"] / res["ORT-all"]["median_ms"]
                    if name in TARGET_MODELS:
                        print("target ours(-O3) / ORT-all <= %.0f: %.2f, %s"
                              % (TARGET_RATIO, ratio,
                                 "met" if ratio <= TARGET_RATIO else "NOT met"))
                    else:
                        print("ours(-O3) / ORT-all: %.2f" % ratio)
                print_gains(res)
            # The op counts do not depend on the thread count: printed once.
            first = next(iter(results[name].values()))
            if "ops" in first:
                print_ops(first)
        if args.conv_profile and not args.no_ours:
            if args.conv_profile not in models:
                sys.exit("--conv-profile %s: not among --models" % args.conv_profile)
            results["conv_profile"] = conv_profile(tools["graph-run"], work,
                                                   args.conv_profile, args)
        if args.stage_profile and not args.no_ours:
            if args.stage_profile not in models:
                sys.exit("--stage-profile %s: not among --models" % args.stage_profile)
            results["stage_profile"] = stage_profile(tools["graph-run"], work,
                                                     args.stage_profile, args)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results, f, indent=1)
        if failed:
            sys.exit("graph-run failed or differs from ORT-all:\n  " + "\n  ".join(failed))
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)


def print_gains(res):
    """What each runtime's graph optimizations gain, side by side: ONNX
    Runtime's (ORT-disabled / ORT-all) and ours (Speedup = L(-O0) / L(-O3),
    MemSave from graph-run's peak buffer bytes), over medians and over mins."""
    def ratio(a, b, key):
        return res[a][key] / res[b][key]
    have = lambda rt: rt in res and "error" not in res[rt]
    if not (have("ORT-disabled") and have("ORT-all")):
        return
    line = "graph optimizations: ORT gain %.2f (of mins %.2f)" % (
        ratio("ORT-disabled", "ORT-all", "median_ms"),
        ratio("ORT-disabled", "ORT-all", "min_ms"))
    if have("ours -O0") and have("ours -O3"):
        o0, o3 = res["ours -O0"], res["ours -O3"]
        line += "; ours Speedup %.2f (of mins %.2f), MemSave %.1f%%" % (
            ratio("ours -O0", "ours -O3", "median_ms"),
            ratio("ours -O0", "ours -O3", "min_ms"),
            100.0 * (o0["peak"] - o3["peak"]) / o0["peak"] if o0["peak"] else 0.0)
    if "ops" in res and "error" not in res["ops"]:
        line += ("; layout changes at run time (transposes): -O0 %d, -O3 %d "
                 "(graph.transpose after graph-optimize: %d)") % (
            res["ops"]["transposes_O0"], res["ops"]["transposes_O3"],
            res["ops"]["after"].get("layout_changes", 0))
    print(line)


def print_ops(res):
    ops = res["ops"]
    if "error" in ops:
        print("op counts: FAILED (%s)" % ops["error"])
        return
    before, after = ops["before"], ops["after"]
    names = sorted(set(before["ops"]) | set(after["ops"]))
    print("op counts (graph-opt --graph-report), before -> after graph-optimize:")
    print("  " + ", ".join("%s %d -> %d" % (n.replace("graph.", ""), before["ops"].get(n, 0),
                                           after["ops"].get(n, 0))
                           for n in names if n != "func.return"))
    print("  batch_norm left: %d -> %d; fused groups: %s" % (
        batch_norms_left(before), batch_norms_left(after),
        ", ".join("%s %d" % kv for kv in sorted(after["fused"].items())) or "none"))
    print("  constants: %d (%.1f MB) -> %d (%.1f MB); fusion keeps %.1f MB of "
          "intermediates off memory" % (
              before["constants"]["count"], before["constants"]["bytes"] / 1e6,
              after["constants"]["count"], after["constants"]["bytes"] / 1e6,
              after["intermediate_bytes"] / 1e6))
    print("time: import (graph-translate, writing %.0f MB of IR text) %.0f ms; graph-optimize "
          "passes %.0f ms; graph-run compile (optimize + lower + JIT) -O0 %.0f ms, -O3 %.0f ms"
          % (ops["mlir_bytes"] / 1e6, ops["import_ms"], ops["optimize_ms"],
             res["ours -O0"].get("setup_ms", float("nan")),
             res["ours -O3"].get("setup_ms", float("nan"))))


def ort_version():
    try:
        with open(os.path.join(PEERS, "node_modules", "onnxruntime-node",
                               "package.json")) as f:
            return json.load(f)["version"]
    except (OSError, ValueError, KeyError):
        return "?"


if __name__ == "__main__":
    main()
