#!/usr/bin/python3
"""Runs ONNX's backend test suite (Debian's libonnx-testdata) through graph-run.

Each test directory holds model.onnx and test_data_set_*/{input,output}_*.pb.
For every data set, the inputs are converted to .npy, the model is run with
`graph-run -O0` and `graph-run -O3`, and each output is compared with the
expected one as ONNX's own backend runner does: same dtype and shape, and
np.testing.assert_allclose(rtol=1e-3, atol=1e-7) (NaN equals NaN).

A test is classified as
  pass     both levels ran and matched the expected outputs;
  refused  graph-run exited 1 with a diagnostic (import, verifier or
           lowering) at some level, without a wrong result at the other;
  wrong    graph-run exited 0 but an output differs (or has another dtype
           or shape);
  crash    graph-run died of a signal, exited with another code, or exited 1
           without saying why;
  hang     graph-run ran longer than --timeout seconds.

  run_backend.py --graph-run BIN --data DIR [--shard K/N] [--sample S]
                 [--o0-sample M] [--expected FILE] [--report] [--jobs J]
                 [--filter REGEX]

With --o0-sample M, every test still runs at -O3 and one in M (of the shard,
from its first) also at -O0; "pass" then means the levels that ran.

Exit status 1 on any wrong, crash or hang, and on a test listed in
--expected that does not pass. Tests that pass but are not listed are printed
as a reminder to add them.
"""
import argparse
import collections
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np

try:
    import onnx
    from onnx import numpy_helper
except ImportError as e:  # pragma: no cover
    sys.exit("run_backend.py: %s (install python3-onnx; run with /usr/bin/python3)" % e)

RTOL = 1e-3
ATOL = 1e-7


def list_tests(data):
    tests = []
    for model in sorted(glob.glob(os.path.join(data, "*", "*", "model.onnx"))):
        d = os.path.dirname(model)
        tests.append((os.path.basename(os.path.dirname(d)) + "/" + os.path.basename(d), d))
    return tests


def bfloat16_values(bits):
    """NumPy has no bfloat16: ONNX's tests hold such tensors as their bits
    (uint16), graph-run reads and writes them as float32."""
    return (bits.astype(np.uint32) << 16).view(np.float32)


def bfloat16_outputs(model):
    """The indices of the outputs that the model declares bfloat16."""
    try:
        m = onnx.load(model, load_external_data=False)
    except Exception:
        return set()
    return {i for i, out in enumerate(m.graph.output)
            if out.type.tensor_type.elem_type == onnx.TensorProto.BFLOAT16}


def read_pb(path):
    """A tensor .pb as a NumPy array, or None for sequences/optionals/etc."""
    tensor = onnx.TensorProto()
    with open(path, "rb") as f:
        data = f.read()
    try:
        tensor.ParseFromString(data)
        if tensor.data_type == 0:
            return None
        array = numpy_helper.to_array(tensor)
        if tensor.data_type == onnx.TensorProto.BFLOAT16:
            array = bfloat16_values(array)
        return array
    except Exception:
        return None


def symbolic_input_shapes(model, arrays):
    """--input-shape for the inputs whose declared shape is not static, from
    the test's own input arrays (as a user would give them)."""
    try:
        m = onnx.load(model, load_external_data=False)
    except Exception:
        return []
    inits = {i.name for i in m.graph.initializer}
    inputs = [i for i in m.graph.input if i.name not in inits]
    flags = []
    for info, array in zip(inputs, arrays):
        t = info.type.tensor_type if info.type.HasField("tensor_type") else None
        if t is None or not t.HasField("shape") or array is None:
            continue
        dims = t.shape.dim
        static = len(dims) == array.ndim and all(
            d.HasField("dim_value") and d.dim_value == s for d, s in zip(dims, array.shape))
        if not static and array.ndim > 0 and all(s > 0 for s in array.shape):
            flags += ["--input-shape", "%s=%s" % (info.name, "x".join(str(s) for s in array.shape))]
    return flags


def run_level(graph_run, model, inputs, work, level, timeout, n_outputs, extra=()):
    outs = [os.path.join(work, "out_%s_%d.npy" % (level, i)) for i in range(n_outputs)]
    cmd = [graph_run, "-O%s" % level, model] + inputs + list(extra)
    for o in outs:
        cmd += ["--output", o]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang", "timeout after %ss" % timeout, None
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode == 0:
        try:
            return "ran", "", [np.load(o, allow_pickle=False) for o in outs]
        except Exception as e:
            return "crash", "exit 0 but unreadable outputs: %s" % e, None
    if p.returncode == 1 and "error" in err:
        lines = [l for l in err.splitlines() if "error" in l]
        return "refused", lines[0] if lines else err.strip(), None
    return "crash", "exit %d: %s" % (p.returncode, err.strip()[-400:]), None


def compare(expected, actual, rtol=RTOL):
    """None when `actual` matches, else why not."""
    if actual.dtype != expected.dtype:
        return "dtype %s, expected %s" % (actual.dtype, expected.dtype)
    if actual.shape != expected.shape:
        return "shape %s, expected %s" % (actual.shape, expected.shape)
    try:
        if expected.dtype == object or expected.dtype.kind in "US":
            np.testing.assert_array_equal(actual, expected)
        else:
            np.testing.assert_allclose(actual, expected, rtol=rtol, atol=ATOL)
    except AssertionError as e:
        return " ".join(str(e).split())[:300]
    return None


def run_test(name, directory, graph_run, timeout, levels=("0", "3")):
    model = os.path.join(directory, "model.onnx")
    sets = sorted(glob.glob(os.path.join(directory, "test_data_set_*")))
    work = tempfile.mkdtemp(prefix="onnx-backend-")
    try:
        if not sets:
            return "refused", "no test data"
        for s in sets:
            in_pbs = sorted(glob.glob(os.path.join(s, "input_*.pb")),
                            key=lambda p: int(re.findall(r"(\d+)\.pb$", p)[0]))
            out_pbs = sorted(glob.glob(os.path.join(s, "output_*.pb")),
                             key=lambda p: int(re.findall(r"(\d+)\.pb$", p)[0]))
            inputs = []
            arrays = []
            convertible = True
            for i, pb in enumerate(in_pbs):
                array = read_pb(pb)
                if array is None:
                    convertible = False
                    break
                path = os.path.join(work, "in_%d.npy" % i)
                np.save(path, array)
                inputs.append(path)
                arrays.append(array)
            extra = symbolic_input_shapes(model, arrays) if convertible else []
            expected = [read_pb(pb) for pb in out_pbs]
            # ONNX 1.12's data truncates float32 to bfloat16 where graph-run
            # rounds to the nearest (as ONNX's later reference does): one
            # bfloat16 step (2^-8 of 1) apart at most.
            rtols = [RTOL] * len(expected)
            for i in bfloat16_outputs(model):
                if i < len(expected) and expected[i] is not None and \
                        expected[i].dtype == np.uint16:
                    expected[i] = bfloat16_values(expected[i])
                    rtols[i] = 2.0 ** -7
            if not convertible or any(e is None for e in expected):
                # Sequences and optionals: graph-run must refuse the model.
                inputs = []
            results = []
            for level in levels:
                kind, msg, outs = run_level(graph_run, model, inputs, work, level,
                                            timeout, len(out_pbs), extra)
                if kind == "ran":
                    if not convertible or any(e is None for e in expected):
                        return "wrong", "-O%s ran a model whose inputs or outputs are not tensors" % level
                    for i, (e, a) in enumerate(zip(expected, outs)):
                        why = compare(e, a, rtols[i])
                        if why:
                            return "wrong", "-O%s output %d: %s" % (level, i, why)
                results.append((kind, msg))
            for kind, msg in results:
                if kind in ("crash", "hang"):
                    return kind, msg
            for kind, msg in results:
                if kind == "refused":
                    return "refused", msg
        return "pass", ""
    finally:
        shutil.rmtree(work, ignore_errors=True)


def refusal_key(msg):
    """Groups refusals: the message without names and numbers."""
    m = re.search(r"op type '([^']+)'", msg)
    op = m.group(1) if m else "-"
    text = msg.split("): ", 1)[-1] if "): " in msg else msg.split("error: ", 1)[-1]
    text = re.sub(r"'[^']*'", "'_'", text)
    text = re.sub(r"\d+", "N", text)
    return op, text[:110]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--graph-run", required=True)
    ap.add_argument("--data", default="/usr/share/libonnx-testdata/data")
    ap.add_argument("--shard", default="0/1", help="K/N: every N-th test from K")
    ap.add_argument("--sample", type=int, default=1,
                    help="S: every S-th test of the shard, from its first")
    ap.add_argument("--o0-sample", type=int, default=1,
                    help="M: -O0 for every M-th test only (-O3 for all)")
    ap.add_argument("--expected", help="file listing the tests that must pass")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--filter", default="")
    ap.add_argument("--report", action="store_true",
                    help="print every test and group the refusals")
    args = ap.parse_args()

    k, n = (int(x) for x in args.shard.split("/"))
    tests = [t for i, t in enumerate(list_tests(args.data)) if i % n == k]
    tests = tests[::max(args.sample, 1)]
    o0_every = max(args.o0_sample, 1)
    tests = [(name, directory, ("0", "3") if i % o0_every == 0 else ("3",))
             for i, (name, directory) in enumerate(tests)]
    if args.filter:
        tests = [t for t in tests if re.search(args.filter, t[0])]
    expected = set()
    if args.expected:
        with open(args.expected) as f:
            expected = {l.split("#")[0].strip() for l in f} - {""}

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(
            lambda t: (t[0],) + run_test(t[0], t[1], args.graph_run, args.timeout,
                                         t[2]),
            tests))

    counts = collections.Counter(r[1] for r in results)
    failed = False
    for name, kind, msg in results:
        if args.report:
            print("%-8s %s %s" % (kind, name, msg))
        if kind in ("wrong", "crash", "hang"):
            print("FAIL %s: %s: %s" % (kind, name, msg))
            failed = True
        elif name in expected and kind != "pass":
            print("FAIL listed test no longer passes: %s: %s %s" % (name, kind, msg))
            failed = True
        elif kind == "pass" and args.expected and name not in expected:
            print("note: %s passes but is not listed in %s" % (name, args.expected))
    if args.report:
        groups = collections.Counter(refusal_key(m) for _, k, m in results if k == "refused")
        print("\nrefusals by op and reason:")
        for (op, text), c in groups.most_common():
            print("%5d  %-28s %s" % (c, op, text))
    print("%d tests: %s" % (len(results), ", ".join(
        "%d %s" % (counts[k], k) for k in ("pass", "refused", "wrong", "crash", "hang"))))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
