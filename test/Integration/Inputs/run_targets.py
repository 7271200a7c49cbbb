"""Runs the operator tests of test/Integration/ops for another target.

usage:
  run_targets.py --graph-run PATH --work DIR [--flags "FLAGS"]
                 [--sample N [--offset K]] TEST.test...

Each TEST is an ops test: models in `#--- CASE.mlir` sections (split-file's
format), checked by reference.py against NumPy. This driver writes the
models and their inputs to DIR, runs every model through graph-run at -O0
and -O3 with FLAGS added (e.g. `--target-cpu=x86-64-v3`, so that the tile
sizes, vector widths and instructions of that target are the ones run), and
checks the outputs with reference.py, with the seed the test's own check line
names. With --sample N, every N-th model only, from the K-th (counted over
all the tests). Exits 1 if any output is wrong or any run fails.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402


def split_file(test_path, out_dir):
    """Writes the `#--- NAME` sections of a test file; returns their paths."""
    with open(test_path) as f:
        text = f.read()
    paths = []
    for m in re.finditer(r"^#--- (\S+)\n(.*?)(?=^#--- |\Z)", text, re.M | re.S):
        path = os.path.join(out_dir, m.group(1))
        with open(path, "w") as out:
            out.write(m.group(2))
        paths.append(path)
    seed = re.search(r"reference\.py check --seed (\d+)", text)
    return paths, int(seed.group(1)) if seed else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--graph-run", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--flags", default="")
    parser.add_argument("--sample", type=int, default=1)
    parser.add_argument("--offset", type=int, default=0)
    parser.add_argument("tests", nargs="+")
    args = parser.parse_args()
    flags = shlex.split(args.flags)

    failures = 0
    counted = 0
    for test in args.tests:
        name = os.path.splitext(os.path.basename(test))[0]
        work = os.path.join(args.work, name)
        os.makedirs(work, exist_ok=True)
        models, seed = split_file(test, work)
        models = [m for m in models if m.endswith(".mlir")]
        sampled = [m for i, m in enumerate(models, counted)
                   if i % max(args.sample, 1) == args.offset % max(args.sample, 1)]
        counted += len(models)
        models = sampled
        reference.write_inputs(models)
        for path in models:
            model = reference.Model(path)
            if model.input_exprs:
                inputs = [model.file(arg + ".npy") for arg, _ in model.args]
            else:
                inputs = ["--seed", str(seed)]
            for level in (0, 3):
                outputs = []
                for out in model.output_files(level):
                    outputs += ["--output", out]
                cmd = ([args.graph_run, "-O%d" % level, path] + inputs +
                       outputs + flags)
                run = subprocess.run(cmd, capture_output=True, text=True)
                if run.returncode != 0:
                    failures += 1
                    print("FAIL %s -O%d: graph-run exited %d: %s" %
                          (model.case, level, run.returncode,
                           run.stderr.strip()))
        failures += reference.check(models, seed)
    print("%s: %s" % (" ".join(flags) or "host",
                      "all outputs agree with NumPy" if not failures
                      else "FAILURES"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
