#!/usr/bin/python3
"""Writes the seed corpora of the libFuzzer targets, from the project's own
models: nothing binary is committed.

usage: make_corpus.py DIR [--random N] [--only mlir|onnx|npy]
  DIR/mlir  every .mlir of examples/ and test/ (split at `// -----`), and N
            random graphs of fuzz/random_graphs.py (default 50)
  DIR/onnx  the models of the ONNX import tests (make_model.py and every
            family of gen_onnx_models.py)
  DIR/npy   .npy files of several shapes and header versions, and broken ones
"""

import glob
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ONNX_INPUTS = os.path.join(ROOT, "test", "Target", "ONNX", "Inputs")
PY = "/usr/bin/python3"


def mlir_seeds(out, random_graphs):
    os.makedirs(out, exist_ok=True)
    count = 0
    paths = sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir")) +
                   glob.glob(os.path.join(ROOT, "test", "**", "*.mlir"),
                             recursive=True))
    for path in paths:
        with open(path, errors="replace") as f:
            text = f.read()
        for part in text.split("// -----"):
            if "graph." not in part:
                continue
            count += 1
            with open(os.path.join(out, "seed%04d.mlir" % count), "w") as f:
                f.write(part)
    sys.path.insert(0, HERE)
    import random_graphs as generator
    for seed in range(random_graphs):
        count += 1
        with open(os.path.join(out, "random%04d.mlir" % seed), "w") as f:
            f.write(generator.to_mlir(generator.generate(seed)))
    return count


def onnx_seeds(out):
    os.makedirs(out, exist_ok=True)
    make_model = os.path.join(ONNX_INPUTS, "make_model.py")
    names = ["conv_bn_relu_gemm", "auto_pad", "clip6", "clip13", "softmax11",
             "softmax13", "shapes", "constants", "misc", "unsupported",
             "symbolic", "not_a_model"]
    for name in names:
        subprocess.run([PY, make_model, name,
                        os.path.join(out, name + ".onnx")], check=True)
    gen = os.path.join(ONNX_INPUTS, "gen_onnx_models.py")
    families = subprocess.run([PY, gen, "--list"], check=True,
                              stdout=subprocess.PIPE, text=True).stdout
    families = sorted({line.split(":")[0].split()[0]
                       for line in families.splitlines() if line.strip()
                       and not line.startswith(" ")})
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([PY, gen, tmp] + families, check=True,
                       stdout=subprocess.DEVNULL)
        for path in glob.glob(os.path.join(tmp, "*.onnx")):
            os.replace(path, os.path.join(out, os.path.basename(path)))
    return len(os.listdir(out))


def npy_seeds(out):
    os.makedirs(out, exist_ok=True)
    rng = np.random.RandomState(0)
    arrays = {
        "scalar": np.float32(1.5), "empty": np.zeros((0, 3), np.float32),
        "vector": rng.rand(5).astype(np.float32),
        "nchw": rng.rand(1, 3, 4, 4).astype(np.float32),
        "f64": rng.rand(2, 2), "i32": np.arange(6, dtype=np.int32),
        "fortran": np.asfortranarray(rng.rand(3, 2).astype(np.float32)),
        "big_endian": rng.rand(4).astype(">f4"),
    }
    for name, value in arrays.items():
        np.save(os.path.join(out, name + ".npy"), value)
    # Format 2.0 (a header length of four bytes).
    with open(os.path.join(out, "v2.npy"), "wb") as f:
        np.lib.format.write_array(f, rng.rand(2, 3).astype(np.float32),
                                  version=(2, 0))
    with open(os.path.join(out, "nchw.npy"), "rb") as f:
        data = f.read()
    with open(os.path.join(out, "truncated.npy"), "wb") as f:
        f.write(data[:len(data) // 2])
    return len(os.listdir(out))


def main(argv):
    out = argv[0]
    n = int(argv[argv.index("--random") + 1]) if "--random" in argv else 50
    only = argv[argv.index("--only") + 1] if "--only" in argv else None
    makers = {"mlir": lambda d: mlir_seeds(d, n), "onnx": onnx_seeds,
              "npy": npy_seeds}
    for kind, make in makers.items():
        if only in (None, kind):
            print("%s: %d seeds" % (kind, make(os.path.join(out, kind))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
