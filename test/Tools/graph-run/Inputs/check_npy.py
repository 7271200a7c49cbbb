"""Checks a .npy file that graph-run wrote against a NumPy reference.

usage: check_npy.py OUT.npy EXPR [NAME=FILE.npy | NAME=random:SEED:INDEX:SHAPES]...
                    [--constants MODEL.mlir] [--rtol R] [--atol A]

Loads each NAME=FILE.npy into the variable NAME, evaluates EXPR (NumPy as
`np`, plus the reference kernels below) and compares: the output must be a
float32 C-order array of the same shape, equal within rtol/atol (NaN matches
NaN). NAME=random:SEED:INDEX:SHAPES rebuilds input INDEX of graph-run's
random inputs for --seed SEED from its documented generator, SHAPES being
every input's shape, e.g. random:7:1:2x3,3 for the second of two inputs.
--constants MODEL.mlir makes each `%NAME = graph.constant dense<...>` of the
model a variable NAME. Prints "ok" or what differs, and exits 1 on a
mismatch.
"""

import re
import sys

import numpy as np


def graph_run_random(seed, shapes):
    """graph-run's random inputs: std::mt19937(seed) (NumPy's legacy
    RandomState draws the same 32-bit words), each value
    (x >> 8) * 2^-23 - 1, the inputs in order, each in C order."""
    sizes = [int(np.prod(s)) for s in shapes]
    raw = np.random.RandomState(seed).randint(
        0, 2**32, size=sum(sizes), dtype=np.uint32)
    values = (raw >> 8).astype(np.float32) * np.float32(2.0**-23) - np.float32(1)
    arrays, start = [], 0
    for shape, size in zip(shapes, sizes):
        arrays.append(values[start:start + size].reshape(shape))
        start += size
    return arrays


def conv2d(x, w, b=None, strides=(1, 1), padding=(0, 0, 0, 0)):
    """NCHW x, FCHW w, zero padding [top, left, bottom, right]; float64."""
    x = np.asarray(x, np.float64)
    w = np.asarray(w, np.float64)
    top, left, bottom, right = padding
    x = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)))
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    sh, sw = strides
    oh, ow = (h - kh) // sh + 1, (wd - kw) // sw + 1
    out = np.zeros((n, f, oh, ow))
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i:i + sh * oh:sh, j:j + sw * ow:sw]
            out += np.einsum("nchw,fc->nfhw", patch, w[:, :, i, j])
    if b is not None:
        out += np.asarray(b, np.float64)[None, :, None, None]
    return out


def batch_norm(x, scale, bias, mean, var, eps=1e-5):
    """Inference batch norm over dim 1; float64."""
    shape = (1, -1) + (1,) * (x.ndim - 2)
    r = lambda v: np.asarray(v, np.float64).reshape(shape)
    return (np.asarray(x, np.float64) - r(mean)) / np.sqrt(r(var) + eps) \
        * r(scale) + r(bias)


def relu(x):
    return np.maximum(x, 0)


def load_constants(model):
    """The graph.constant values of a .mlir file, by SSA name."""
    constants = {}
    pattern = re.compile(
        r"%(\w+) = graph.constant dense<(.*)> : tensor<([0-9x]*)xf32>")
    with open(model) as f:
        for line in f:
            m = pattern.search(line)
            if not m:
                continue
            shape = tuple(int(d) for d in m.group(3).split("x") if d)
            value = np.array(eval(m.group(2)), np.float32)
            constants[m.group(1)] = np.broadcast_to(value, shape).copy()
    return constants


def load_input(spec):
    if spec.startswith("random:"):
        _, seed, index, shapes = spec.split(":")
        shapes = [tuple(int(d) for d in s.split("x") if d) for s in shapes.split(",")]
        return graph_run_random(int(seed), shapes)[int(index)]
    return np.load(spec)


def main(argv):
    rtol, atol = 1e-5, 1e-6
    args = []
    constants = {}
    i = 0
    while i < len(argv):
        if argv[i] == "--constants":
            constants.update(load_constants(argv[i + 1]))
            i += 2
        elif argv[i] == "--rtol":
            rtol = float(argv[i + 1])
            i += 2
        elif argv[i] == "--atol":
            atol = float(argv[i + 1])
            i += 2
        else:
            args.append(argv[i])
            i += 1
    out_file, expr, inputs = args[0], args[1], args[2:]
    env = {"np": np, "conv2d": conv2d, "batch_norm": batch_norm, "relu": relu}
    env.update(constants)
    for item in inputs:
        name, spec = item.split("=", 1)
        env[name] = load_input(spec)

    with open(out_file, "rb") as f:
        version = np.lib.format.read_magic(f)
        header = np.lib.format._read_array_header(f, version)
    shape, fortran, dtype = header
    out = np.load(out_file)
    expected = np.asarray(eval(expr, env))
    problems = []
    if dtype != np.dtype("<f4"):
        problems.append("dtype %s, expected <f4" % dtype)
    if fortran:
        problems.append("Fortran order")
    if out.shape != expected.shape:
        problems.append("shape %s, expected %s" % (out.shape, expected.shape))
    elif not np.allclose(out, expected, rtol=rtol, atol=atol, equal_nan=True):
        diff = np.abs(out.astype(np.float64) - expected)
        worst = np.unravel_index(np.nanargmax(diff), diff.shape)
        problems.append("values differ: at %s got %r, expected %r"
                        % (worst, float(out[worst]), float(expected[worst])))
    if problems:
        print("%s: %s" % (out_file, "; ".join(problems)))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
