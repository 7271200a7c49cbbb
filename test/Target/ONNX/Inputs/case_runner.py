"""Runs ONNX models through graph-run at -O0 and -O3 and compares each
output with a NumPy reference: the shared driver of the checks that build
their models in Python (quantized_models.py, integer_pow.py,
window_functions.py, gather_scatter_nd.py, top_k.py).

A case is (name, model, inputs, expected, compare): `inputs` and `expected`
map names to arrays; `compare(name, got, want)` returns None when they agree
or a message (default: equal dtype, shape and values, NaN equal to NaN).
run_cases prints `ok NAME` or `FAIL NAME: why` per case and returns 1 when
one failed. `variants` adds graph-run options to run each case with too
(e.g. another --target-cpu), each at both levels. run_libraries runs each
case from a shared library made by graph-compile (the outputs of run-time
size travel through its metadata); main is the command line of the scripts
that offer both (nonzero.py, run_time_size_consumers.py, if_branches.py).
"""
import os
import subprocess

import numpy as np
import onnx


def exact(name, got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return "%s is %s %s, expected %s %s" % (name, got.dtype, got.shape,
                                                 want.dtype, want.shape)
    if not np.array_equal(got, want, equal_nan=True):
        bad = tuple(np.argwhere(~((got == want) | (got != got)))[0])
        return "%s%s is %s, expected %s" % (name, list(bad), got[bad],
                                             want[bad])
    return None


def close(rtol, atol=0.0, equal_nan=False):
    """A comparison within atol + rtol * |want| (NumPy's allclose; NaN
    agrees with NaN only given equal_nan) that names the worst element."""
    def compare(name, got, want):
        if got.dtype != want.dtype or got.shape != want.shape:
            return exact(name, got, want)
        if not np.allclose(got, want, rtol=rtol, atol=atol,
                           equal_nan=equal_nan):
            excess = np.atleast_1d(
                np.abs(got.astype(np.float64) - want) -
                rtol * np.abs(want.astype(np.float64)))
            got, want = np.atleast_1d(got), np.atleast_1d(want)
            excess[~np.isfinite(excess)] = np.inf
            worst = np.unravel_index(np.argmax(excess), excess.shape)
            return "%s%s is %s, expected %s" % (name, list(worst), got[worst],
                                                 want[worst])
        return None
    return compare


def run_cases(graph_run, directory, cases, variants=((),)):
    status = 0
    for name, model, inputs, expected, compare in cases:
        path = os.path.join(directory, name + ".onnx")
        onnx.save(model, path)
        args = []
        for key, value in inputs.items():
            file = "%s.in.%s.npy" % (path, key)
            np.save(file, value)
            args.append("--input=%s=%s" % (key, file))
        problems = []
        for number, variant in enumerate(variants):
            for level in ("0", "3"):
                tag = " ".join(("-O" + level,) + tuple(variant))
                outs = {key: "%s.O%s.%d.%s.npy" % (path, level, number, key)
                        for key in expected}
                run = subprocess.run(
                    [graph_run, "-O" + level, "--no-cache"] + list(variant) +
                    [path] + args +
                    ["--output=%s=%s" % item for item in outs.items()],
                    capture_output=True, text=True)
                if run.returncode != 0:
                    problems.append("%s: %s" % (tag, run.stderr.strip()))
                    continue
                for key, file in outs.items():
                    why = (compare or exact)(key, np.load(file),
                                             expected[key])
                    if why:
                        problems.append("%s: %s" % (tag, why))
        if problems:
            status = 1
            print("FAIL %s: %s" % (name, "; ".join(problems)))
        else:
            print("ok %s" % name)
    return status


def run_libraries(graph_compile, graph_run, directory, all_cases):
    """Each case compiled ahead of time into a shared library and run from
    it: the extents travel through the library's metadata."""
    status = 0
    for name, model, inputs, expected, compare in all_cases:
        path = os.path.join(directory, name + ".onnx")
        library = os.path.join(directory, name + ".so")
        subprocess.run([graph_compile, path, "-o", library], check=True)
        args = [library] + ["--input=%s=%s.in.%s.npy" % (key, path, key)
                            for key in inputs]
        outs = {key: os.path.join(directory, "%s.so.%s.npy" % (name, key))
                for key in expected}
        run = subprocess.run(
            [graph_run] + args +
            ["--output=%s=%s" % item for item in outs.items()],
            capture_output=True, text=True)
        why = run.stderr.strip() if run.returncode else None
        for key, file in outs.items():
            why = why or compare(key, np.load(file), expected[key])
        if why:
            status = 1
            print("FAIL %s.so: %s" % (name, why))
        else:
            print("ok %s.so" % name)
    return status


def main(argv, cases, writers):
    """The command line of the scripts built on this module: SCRIPT
    GRAPH_RUN DIR [GRAPH_COMPILE] runs cases() through graph-run (and,
    given GRAPH_COMPILE, from a shared library of each); SCRIPT OPTION DIR
    calls writers[OPTION](DIR) (e.g. --models: the models a .test imports
    itself)."""
    if argv[1] in writers:
        return writers[argv[1]](argv[2])
    all_cases = cases()
    status = run_cases(argv[1], argv[2], all_cases)
    if len(argv) > 3:
        status |= run_libraries(argv[3], argv[1], argv[2], all_cases)
    return status
