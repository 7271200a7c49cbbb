#!/usr/bin/python3
"""Folding agrees with running, for the ops beyond the f32 core.

usage: typed_fold.py --graph-opt BIN --graph-run BIN --dir DIR MODEL.mlir...

A model is a `func.func @main` of graph ops whose comment lines say what its
inputs are and what its results must be:
  // INPUT NAME: EXPR     the argument %NAME: a NumPy expression (np, inf,
                          nan; the array's dtype must be the argument's)
  // EXPECT I: EXPR       result I computed with NumPy from the inputs (by
                          name), independently of the C++ code
  // COMPARE I: MODE      how result I's three versions must agree: `exact`
                          (the default: the same bits, any NaN matching any
                          NaN) or `rtol R` (summing ops, whose order of
                          summation may differ; NaN and inf in the same
                          places)
  // EXPECT-MODE: exact   the model's float EXPECTs match bit for bit (NumPy
                          computes them with the same IEEE operations);
                          without it float EXPECTs match within 1e-6 (NumPy's
                          own math functions), integer and bool ones always
                          exactly

For each model the script writes the inputs as .npy, runs graph-run -O0 and
-O3 on them, writes the model with every argument replaced by a
graph.constant holding its input, folds it with graph-fold-constants, checks
that only constants are left, runs the folded model with graph-run -O0 (which
copies the constants out) and compares the three versions of every result,
and each with its EXPECT. Exit status 1 on any difference.
"""
import argparse
import os
import re
import subprocess
import sys

import numpy as np

inf, nan = np.inf, np.nan

MLIR_TYPES = {
    "f16": np.float16, "f32": np.float32, "f64": np.float64, "i1": np.bool_,
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64,
}


def parse_type(text):
    m = re.fullmatch(r"tensor<((?:\d+x)*)(\w+)>", text.strip())
    dims = [int(d) for d in m.group(1).split("x") if d]
    return dims, m.group(2)


def parse_model(path):
    text = open(path).read()
    inputs, expects, compares = {}, {}, {}
    compares["expect"] = "exact" if "// EXPECT-MODE: exact" in text else "rtol 1e-6"
    for line in text.splitlines():
        m = re.match(r"\s*// INPUT (\w+): (.*)", line)
        if m:
            inputs[m.group(1)] = m.group(2)
        m = re.match(r"\s*// EXPECT (\d+): (.*)", line)
        if m:
            expects[int(m.group(1))] = m.group(2)
        m = re.match(r"\s*// COMPARE (\d+): (.*)", line)
        if m:
            compares[int(m.group(1))] = m.group(2).strip()
    sig = re.search(r"func\.func @main\((.*?)\)\s*->\s*(\(.*?\)|tensor<[^>]*>)\s*\{",
                    text, re.S)
    args = re.findall(r"%(\w+)\s*:\s*(tensor<[^>]*>)", sig.group(1))
    results = re.findall(r"tensor<[^>]*>", sig.group(2))
    return text, sig, args, results, inputs, expects, compares


def dense_literal(array, element):
    """A dense attribute holding `array` bit for bit."""
    if element == "i1":
        text = str(array.tolist()).replace("True", "true").replace("False", "false")
        return "dense<%s>" % text
    data = np.ascontiguousarray(array).tobytes()
    return 'dense<"0x%s">' % data.hex().upper()


def constify(text, sig, args, arrays):
    body_start = sig.end()
    lines = []
    for (name, type_text), array in zip(args, arrays):
        _, element = parse_type(type_text)
        lines.append("  %%%s = graph.constant %s : %s"
                     % (name, dense_literal(array, element), type_text))
    header = "func.func @main() -> %s {" % sig.group(2)
    return text[:sig.start()] + header + "\n" + "\n".join(lines) + text[body_start:]


def same_bits(a, b):
    """Exact equality; any NaN matches any NaN."""
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind == "f":
        nan_a, nan_b = np.isnan(a), np.isnan(b)
        if not np.array_equal(nan_a, nan_b):
            return False
        bits = {2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize]
        return np.array_equal(a[~nan_a].view(bits), b[~nan_b].view(bits))
    return np.array_equal(a, b)


def close(a, b, rtol):
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    if not np.array_equal(np.isnan(a64), np.isnan(b64)):
        return False
    finite = np.isfinite(a64) & np.isfinite(b64)
    if not np.array_equal(a64[~finite], b64[~finite], equal_nan=True):
        return False
    scale = np.abs(b64[finite]).max() if finite.any() else 0
    return bool(np.all(np.abs(a64[finite] - b64[finite]) <= rtol * scale + 1e-30))


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit("%s failed:\n%s" % (" ".join(cmd), p.stderr.decode()))
    return p.stdout.decode()


def check_model(path, args_ns):
    case = os.path.splitext(os.path.basename(path))[0]
    base = os.path.join(args_ns.dir, case)
    text, sig, args, results, inputs, expects, compares = parse_model(path)
    env = {"np": np, "inf": inf, "nan": nan}
    arrays = []
    for name, type_text in args:
        dims, element = parse_type(type_text)
        array = np.asarray(eval(inputs[name], env))
        if array.dtype != MLIR_TYPES[element] or list(array.shape) != dims:
            sys.exit("%s: input %s is %s %s, the argument %s" % (case, name, array.dtype,
                                                                array.shape, type_text))
        env[name] = array
        arrays.append(array)
        np.save("%s.%s.npy" % (base, name), array)
    input_files = ["%s.%s.npy" % (base, name) for name, _ in args]

    outputs = {}
    for level in ("0", "3"):
        files = ["%s.O%s.%d.npy" % (base, level, i) for i in range(len(results))]
        cmd = [args_ns.graph_run, "-O" + level, path] + input_files
        for f in files:
            cmd += ["--output", f]
        run(cmd)
        outputs["-O" + level] = [np.load(f) for f in files]

    with open(base + ".const.mlir", "w") as f:
        f.write(constify(text, sig, args, arrays))
    folded = run([args_ns.graph_opt, "--graph-fold-constants", base + ".const.mlir",
                  "-o", base + ".folded.mlir"])
    left = [op for op in re.findall(r"graph\.(\w+)", open(base + ".folded.mlir").read())
            if op not in ("constant", "name")]
    if left:
        print("%s: graph-fold-constants left %s" % (case, sorted(set(left))))
        return False
    files = ["%s.folded.%d.npy" % (base, i) for i in range(len(results))]
    cmd = [args_ns.graph_run, "-O0", base + ".folded.mlir"]
    for f in files:
        cmd += ["--output", f]
    run(cmd)
    outputs["folded"] = [np.load(f) for f in files]

    ok = True
    for i in range(len(results)):
        mode = compares.get(i, "exact")
        rtol = float(mode.split()[1]) if mode.startswith("rtol") else None
        ref = outputs["folded"][i]
        for level in ("-O0", "-O3"):
            out = outputs[level][i]
            good = same_bits(out, ref) if rtol is None else close(out, ref, rtol)
            if not good:
                print("%s: result %d: %s and folded differ (%s)\n  run:    %s\n  folded: %s"
                      % (case, i, level, mode, out.reshape(-1)[:16], ref.reshape(-1)[:16]))
                ok = False
        if i in expects:
            want = np.asarray(eval(expects[i], env)).astype(ref.dtype)
            if ref.dtype.kind != "f" or (rtol is None and compares["expect"] == "exact"):
                good = same_bits(ref, want)
            else:
                good = close(ref, want, rtol or float(compares["expect"].split()[1]))
            if not good:
                print("%s: result %d: folded differs from NumPy\n  folded: %s\n  NumPy:  %s"
                      % (case, i, ref.reshape(-1)[:16], want.reshape(-1)[:16]))
                ok = False
    print("%s: %d results, folded and run agree%s" % (
        case, len(results), "" if ok else " NOT"))
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--graph-opt", required=True)
    ap.add_argument("--graph-run", required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("models", nargs="+")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    ok = True
    for model in args.models:
        ok &= check_model(model, args)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
