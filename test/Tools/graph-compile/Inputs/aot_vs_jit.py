"""Ahead-of-time code agrees with the JIT's bit for bit on ONNX models.

usage:
  aot_vs_jit.py BIN DIR FAMILY[:STEP]...
      For the cases of each FAMILY that gen_onnx_models.py wrote to DIR
      (every STEP-th one, from the first; default every one): compiles
      DIR/CASE.onnx with BIN/graph-compile into a shared library, runs it with
      BIN/graph-run on the case's inputs, runs the model itself with
      `graph-run --no-cache` (the JIT), and compares every output's .npy
      file byte for byte. Prints `ok CASE` or `FAIL CASE: why`; exits 1 on
      any failure.
"""

import os
import subprocess
import sys

sys.dont_write_bytecode = True

import onnx

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "Target", "ONNX", "Inputs"))
from onnx_reference import file_name  # noqa: E402


def run(args):
    result = subprocess.run(args, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        raise RuntimeError(" ".join(args) + " failed:\n" + result.stdout)


def check_case(bin_dir, directory, case):
    model_path = os.path.join(directory, case + ".onnx")
    graph = onnx.load(model_path).graph
    initializers = {init.name for init in graph.initializer}
    inputs = []
    for value in graph.input:
        if value.name in initializers:
            continue
        path = os.path.join(directory, "%s.in.%s.npy" % (case,
                                                        file_name(value.name)))
        inputs += ["--input", "%s=%s" % (value.name, path)]
    library = os.path.join(directory, case + ".aot.so")
    run([os.path.join(bin_dir, "graph-compile"), model_path, "-o", library])
    for mode, model, extra in (("aot", library, []),
                               ("jit", model_path, ["--no-cache"])):
        outputs = []
        for value in graph.output:
            outputs += ["--output", "%s=%s" % (value.name, os.path.join(
                directory, "%s.%s.%s.npy" % (case, mode,
                                             file_name(value.name))))]
        run([os.path.join(bin_dir, "graph-run"), model] + extra + inputs +
            outputs)
    for value in graph.output:
        files = [os.path.join(directory, "%s.%s.%s.npy" %
                              (case, mode, file_name(value.name)))
                 for mode in ("aot", "jit")]
        contents = [open(f, "rb").read() for f in files]
        if contents[0] != contents[1]:
            raise RuntimeError("output '%s' differs" % value.name)


def main():
    bin_dir, directory = sys.argv[1], sys.argv[2]
    failed = False
    for spec in sys.argv[3:]:
        family, _, step = spec.partition(":")
        with open(os.path.join(directory, family + ".cases")) as f:
            cases = f.read().split()
        for case in cases[::int(step or 1)]:
            try:
                check_case(bin_dir, directory, case)
                print("ok", case)
            except RuntimeError as error:
                print("FAIL %s: %s" % (case, error))
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
