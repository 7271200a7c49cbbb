"""NumPy reference for the graph ops, and the checkers of the integration tests.

usage:
  reference.py inputs MODEL.mlir...
      Writes CASE.ARG.npy for each `// INPUT ARG: EXPR` of each model CASE.mlir
      (models without INPUT lines run on graph-run's random inputs).
  reference.py check [--seed N] MODEL.mlir...
      Checks graph-run's outputs CASE.O0.npy and CASE.O3.npy (CASE.O0.I.npy,
      ... for a model with several results) against the model's `// EXPECT`.
  reference.py constify [--args A,B] MODEL.mlir...
      Writes CASE.const.mlir: the model with every argument (or those named)
      replaced by a graph.constant that holds its input (CASE.ARG.npy) bit
      for bit, a splat where all its values are equal.
  reference.py fold-check MODEL.mlir...
      Checks that the constants of CASE.folded.mlir (graph-fold-constants on
      the constified model) equal graph-run's outputs at -O0 and -O3 as
      `// FOLD-COMPARE` says, and the `// EXPECT` as `// COMPARE` says.

A model is a `func.func @main` of graph ops; comment lines in it say how it
is checked:
  // EXPECT: EXPR        its results (a tuple for several), computed with the
                         kernels below from the arguments and the constants
                         of the model, each by its SSA name
  // COMPARE: MODE       how the outputs must match EXPECT: `bitwise`,
                         `ulp N` or `rtol R` (the default, rtol 1e-5 with an
                         absolute slack of R times the largest |value|)
  // FOLD-COMPARE: MODE  how the folded constants must match the outputs
                         (default bitwise)
  // INPUT ARG: EXPR     the argument's values, from `rng` (a NumPy
                         RandomState), `shape` and `specials`: reshaped to
                         the argument's shape, or broadcast; without INPUT
                         lines the inputs are graph-run's random ones for
                         --seed N, rebuilt here from its documented generator.
NaN matches any NaN in every mode. `bitwise` tells -0.0 from +0.0; `ulp N`
does not.

The kernels are written from the op definitions in SPEC.md, independently
of the C++ code. Summing ops compute in float64; elementwise ops compute in
their inputs' type, one NumPy operation per IEEE operation, in the order the
spec writes, so that a float32 result can be compared bit for bit.
"""

import os
import re
import sys

import numpy as np

F32 = np.float32

#===------------------------------------------------------------------------===#
# Kernels
#===------------------------------------------------------------------------===#


def maximum(a, b):
    """IEEE-754 maximum: NaN propagates, -0 < +0."""
    a, b = np.broadcast_arrays(a, b)
    out = np.where(a > b, a, b)
    zeros = (a == b) & (a == 0)
    out = np.where(zeros & np.signbit(b), a, out)
    return np.where(np.isnan(a), a, np.where(np.isnan(b), b, out))


def minimum(a, b):
    """IEEE-754 minimum: NaN propagates, -0 < +0."""
    a, b = np.broadcast_arrays(a, b)
    out = np.where(a < b, a, b)
    zeros = (a == b) & (a == 0)
    out = np.where(zeros & np.signbit(a), a, out)
    return np.where(np.isnan(a), a, np.where(np.isnan(b), b, out))


def scalar(value, like):
    return np.asarray(value, np.asarray(like).dtype)


def relu(x):
    return maximum(x, scalar(0, x))


def clip(x, min, max):
    return minimum(maximum(x, scalar(min, x)), scalar(max, x))


def sigmoid(x):
    one = scalar(1, x)
    with np.errstate(over="ignore"):
        return one / (one + np.exp(-x))


def tanh(x):
    """Correctly rounded: computed in float64, rounded once to x's type."""
    return np.tanh(np.asarray(x, dtype=np.float64)).astype(np.asarray(x).dtype)


def exp(x):
    """Correctly rounded: computed in float64, rounded once to x's type."""
    with np.errstate(over="ignore"):
        return np.exp(np.asarray(x, dtype=np.float64)).astype(np.asarray(x).dtype)


def erf(x):
    """Correctly rounded (Python's float64 erf, rounded once)."""
    import math
    return np.vectorize(math.erf)(np.float64(x)).astype(np.asarray(x).dtype)


def channel_shape(x):
    return (1, -1) + (1,) * (np.ndim(x) - 2)


def batch_norm(x, scale, bias, mean, var, eps=1e-5):
    """(x - mean) / sqrt(var + eps) * scale + bias over dim 1, in x's type."""
    x = np.asarray(x)
    p = lambda v: np.asarray(v, x.dtype).reshape(channel_shape(x))
    with np.errstate(all="ignore"):
        return (x - p(mean)) / np.sqrt(p(var) + scalar(eps, x)) * p(scale) \
            + p(bias)


def dropout(x):
    """Inference dropout: the identity."""
    return np.asarray(x).copy()


def conv2d(x, w, b=None, strides=(1, 1), padding=(0, 0, 0, 0),
           dilations=(1, 1), groups=1):
    """NCHW x, F x C/groups x KH x KW w, zero padding [top, left, bottom,
    right]; float64."""
    x = np.asarray(x, np.float64)
    w = np.asarray(w, np.float64)
    top, left, bottom, right = padding
    x = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)))
    n, c, h, wd = x.shape
    f, cg, kh, kw = w.shape
    assert c == cg * groups and f % groups == 0
    sh, sw = strides
    dh, dw = dilations
    oh = (h - dh * (kh - 1) - 1) // sh + 1
    ow = (wd - dw * (kw - 1) - 1) // sw + 1
    fg = f // groups
    out = np.zeros((n, f, oh, ow))
    for g in range(groups):
        xg = x[:, g * cg:(g + 1) * cg]
        wg = w[g * fg:(g + 1) * fg]
        for i in range(kh):
            for j in range(kw):
                patch = xg[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                           j * dw:j * dw + sw * (ow - 1) + 1:sw]
                out[:, g * fg:(g + 1) * fg] += np.einsum(
                    "nchw,fc->nfhw", patch, wg[:, :, i, j])
    if b is not None:
        out += np.asarray(b, np.float64)[None, :, None, None]
    return out


def windows(x, kernel, strides, padding):
    """Yields (oh, ow, window of real cells) of a 2-D pooling, the window
    clipped to the unpadded input."""
    _, _, h, w = x.shape
    kh, kw = kernel
    sh, sw = strides
    top, left, bottom, right = padding
    oh = (h + top + bottom - kh) // sh + 1
    ow = (w + left + right - kw) // sw + 1
    for i in range(oh):
        for j in range(ow):
            h0, w0 = i * sh - top, j * sw - left
            yield i, j, x[:, :, max(h0, 0):min(h0 + kh, h),
                          max(w0, 0):min(w0 + kw, w)]


def pool_output(x, kernel, strides, padding, dtype):
    _, _, h, w = x.shape
    oh = (h + padding[0] + padding[2] - kernel[0]) // strides[0] + 1
    ow = (w + padding[1] + padding[3] - kernel[1]) // strides[1] + 1
    return np.zeros(x.shape[:2] + (oh, ow), dtype)


def max_pool2d(x, kernel, strides=(1, 1), padding=(0, 0, 0, 0)):
    """Max over the real cells of each window: padded cells never win."""
    x = np.asarray(x)
    out = pool_output(x, kernel, strides, padding, x.dtype)
    for i, j, win in windows(x, kernel, strides, padding):
        out[:, :, i, j] = win.max(axis=(2, 3))
    return out


def avg_pool2d(x, kernel, strides=(1, 1), padding=(0, 0, 0, 0),
               count_include_pad=False):
    """Mean over each window; the divisor counts the padded cells only with
    count_include_pad. float64."""
    x = np.asarray(x, np.float64)
    out = pool_output(x, kernel, strides, padding, np.float64)
    for i, j, win in windows(x, kernel, strides, padding):
        count = kernel[0] * kernel[1] if count_include_pad \
            else win.shape[2] * win.shape[3]
        out[:, :, i, j] = win.sum(axis=(2, 3)) / count
    return out


def global_avg_pool(x):
    return np.asarray(x, np.float64).mean(axis=(2, 3), keepdims=True)


def matmul(a, b):
    return np.asarray(a, np.float64) @ np.asarray(b, np.float64)


def gemm(a, b, c=None, alpha=1.0, beta=1.0, trans_a=False, trans_b=False):
    """alpha * a' @ b' + beta * c, c broadcast to M x N (ONNX Gemm)."""
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    y = alpha * ((a.T if trans_a else a) @ (b.T if trans_b else b))
    if c is not None:
        y = y + beta * np.asarray(c, np.float64)
    return y


def reshape(x, shape):
    return np.reshape(x, shape)


def flatten(x, axis=1):
    x = np.asarray(x)
    axis = axis + x.ndim if axis < 0 else axis
    return x.reshape(int(np.prod(x.shape[:axis])), -1)


def transpose(x, perm):
    return np.transpose(x, perm)


def concat(inputs, axis):
    return np.concatenate(inputs, axis=axis)


def softmax(x, axis=-1):
    """Stable softmax: the maximum subtracted first. float64."""
    x = np.asarray(x, np.float64)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def row_axes(x, axis):
    axis = axis % x.ndim
    return tuple(range(axis, x.ndim))


def layer_norm(x, scale=None, bias=None, axis=-1, eps=1e-5):
    """(x - mean) / sqrt(var + eps) * scale + bias over the dimensions from
    axis on, the variance biased. float64."""
    x = np.asarray(x, np.float64)
    axes = row_axes(x, axis)
    d = x - x.mean(axis=axes, keepdims=True)
    y = d / np.sqrt((d * d).mean(axis=axes, keepdims=True) + np.float64(eps))
    if scale is not None:
        y = y * scale
    if bias is not None:
        y = y + bias
    return y


def rms_norm(x, scale=None, axis=-1, eps=1e-5):
    """x / sqrt(mean(x^2) + eps) * scale over the dimensions from axis on.
    float64."""
    x = np.asarray(x, np.float64)
    ms = (x * x).mean(axis=row_axes(x, axis), keepdims=True)
    y = x / np.sqrt(ms + np.float64(eps))
    return y if scale is None else y * scale


def attention(q, k_t, v, mask=None, scale=1.0):
    """softmax(q @ k_t * scale + mask) @ v, the softmax along the last axis.
    float64."""
    s = np.matmul(np.asarray(q, np.float64), np.asarray(k_t, np.float64))
    s = s * np.float64(np.float32(scale))
    if mask is not None:
        s = s + mask
    return np.matmul(softmax(s), np.asarray(v, np.float64))


KERNELS = {
    "np": np, "F32": F32, "maximum": maximum, "minimum": minimum, "relu": relu,
    "clip": clip, "sigmoid": sigmoid, "tanh": tanh, "exp": exp, "erf": erf,
    "batch_norm": batch_norm,
    "dropout": dropout, "conv2d": conv2d, "max_pool2d": max_pool2d,
    "avg_pool2d": avg_pool2d, "global_avg_pool": global_avg_pool,
    "matmul": matmul, "gemm": gemm, "reshape": reshape, "flatten": flatten,
    "transpose": transpose, "concat": concat, "softmax": softmax,
    "layer_norm": layer_norm, "rms_norm": rms_norm, "attention": attention,
}

#===------------------------------------------------------------------------===#
# Inputs
#===------------------------------------------------------------------------===#


def bits(values):
    return np.array(values, np.uint32).view(F32)


def specials():
    """float32 values where IEEE-754 corner cases live."""
    tiny = np.finfo(F32).tiny
    big = np.finfo(F32).max
    return np.concatenate([
        bits([0x7FC00000, 0xFFC00000, 0x7FC12345]),  # NaN, -NaN, payload
        [np.inf, -np.inf, 0.0, -0.0],
        bits([0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF]),  # denormals
        [tiny, -tiny, big, -big, 1e38, -1e38],
        [1.0, -1.0, 0.5, -0.5, 2.0, -1.5, 3.0, 6.0, 6.0000005, 0.25,
         1e-20, -1e-20, 1e20, -1e20, 1e-4, 0.1, 1.0 / 3.0, 7.5, -7.5,
         9.0, -9.0, 20.0, -20.0, 88.72, -88.72, 89.0, -103.0, -104.0],
    ]).astype(F32)


def graph_run_random(seed, shapes):
    """graph-run's random inputs for --seed: std::mt19937(seed) (NumPy's
    legacy RandomState draws the same 32-bit words), each value
    (x >> 8) * 2^-23 - 1, the arguments in order, each in C order."""
    sizes = [int(np.prod(s)) for s in shapes]
    raw = np.random.RandomState(seed).randint(
        0, 2**32, size=sum(sizes), dtype=np.uint32)
    values = (raw >> 8).astype(F32) * F32(2.0**-23) - F32(1)
    arrays, start = [], 0
    for shape, size in zip(shapes, sizes):
        arrays.append(values[start:start + size].reshape(shape))
        start += size
    return arrays

#===------------------------------------------------------------------------===#
# Models
#===------------------------------------------------------------------------===#


def parse_shape(text):
    return tuple(int(d) for d in text.split("x") if d)


def parse_dense(text, shape):
    """The value of a dense<...> float32 attribute as printed by MLIR: a hex
    string of raw little-endian bytes, or (nested lists of) float literals
    and 0x bit patterns; a single value is a splat."""
    text = text.strip()
    if text.startswith('"0x'):
        values = np.frombuffer(bytes.fromhex(text[3:-1]), "<f4")
    else:
        tokens = re.findall(
            r"0x[0-9A-Fa-f]+|[-+]?[0-9.]+(?:[eE][-+]?[0-9]+)?", text)
        values = np.array([bits([int(t, 16)])[0] if t.startswith("0x")
                           else float(t) for t in tokens], F32)
    if values.size == 1:
        return np.full(shape, values[0], F32)
    return values.reshape(shape)


class Model:
    """A model file: its @main signature, constants, results and headers."""

    def __init__(self, path):
        self.path = path
        self.case = os.path.splitext(os.path.basename(path))[0]
        self.dir = os.path.dirname(os.path.abspath(path))
        with open(path) as f:
            self.text = f.read()
        header = lambda key: [m.group(1).strip() for m in re.finditer(
            r"^\s*// %s:(.*)$" % key, self.text, re.M)]
        self.expect = header("EXPECT")
        self.compare = (header("COMPARE") or ["rtol 1e-5"])[0]
        self.fold_compare = (header("FOLD-COMPARE") or ["bitwise"])[0]
        self.input_exprs = {}
        for m in re.finditer(r"^\s*// INPUT (\w+):(.*)$", self.text, re.M):
            self.input_exprs[m.group(1)] = m.group(2).strip()
        sig = re.search(r"func\.func @main\((.*?)\)\s*->", self.text, re.S)
        self.args = [(m.group(1), parse_shape(m.group(2))) for m in re.finditer(
            r"%(\w+)\s*:\s*tensor<((?:[0-9]+x)*)f32>", sig.group(1))]
        self.constants = constants_of(self.text)
        self.results = return_operands(self.text)

    def file(self, suffix):
        return os.path.join(self.dir, "%s.%s" % (self.case, suffix))

    def output_files(self, level):
        if len(self.results) == 1:
            return [self.file("O%d.npy" % level)]
        return [self.file("O%d.%d.npy" % (level, i))
                for i in range(len(self.results))]

    def op_of(self, value):
        """The mnemonic of the op that defines %value, or its kind."""
        m = re.search(r"%%%s\s*=\s*\"?graph\.(\w+)\"?(?: \"(\w+)\")?" % value,
                      self.text)
        if not m:
            return "argument" if value in dict(self.args) else "?"
        if m.group(1) == "fused" and m.group(2):
            return m.group(2)
        return m.group(1)

    def inputs(self, seed):
        """The arguments' values: from the INPUT files, or graph-run's random
        ones for `seed`."""
        if self.input_exprs:
            return {name: np.load(self.file(name + ".npy"))
                    for name, _ in self.args}
        if seed is None:
            raise SystemExit("%s: no INPUT lines, so check needs --seed"
                             % self.case)
        values = graph_run_random(seed, [shape for _, shape in self.args])
        return {name: v for (name, _), v in zip(self.args, values)}

    def expected(self, inputs):
        if not self.expect:
            raise SystemExit("%s: no EXPECT line" % self.path)
        env = dict(KERNELS)
        env.update(self.constants)
        env.update(inputs)
        with np.errstate(all="ignore"):
            result = eval(self.expect[0], env)
        results = list(result) if isinstance(result, tuple) else [result]
        if len(results) != len(self.results):
            raise SystemExit("%s: EXPECT gives %d values for %d results"
                             % (self.case, len(results), len(self.results)))
        return [np.asarray(r) for r in results]


def constants_of(text):
    """The graph.constant values of a function body, by SSA name."""
    constants = {}
    for m in re.finditer(r"%(\w+)\s*=\s*graph\.constant\s+dense<(.*?)>\s*:"
                         r"\s*tensor<((?:[0-9]+x)*)f32>", text, re.S):
        constants[m.group(1)] = parse_dense(m.group(2), parse_shape(m.group(3)))
    return constants


def return_operands(text):
    m = re.search(r"^\s*(?:func\.)?return\s+(.*?)\s*:", text, re.M)
    return [v.strip().lstrip("%") for v in m.group(1).split(",")]

#===------------------------------------------------------------------------===#
# Comparison
#===------------------------------------------------------------------------===#


def ordered(x):
    """float32 bit patterns on a line where adjacent floats differ by one
    and -0 meets +0."""
    i = np.asarray(x, F32).view(np.int32).astype(np.int64)
    return np.where(i < 0, -(i & 0x7FFFFFFF), i)


def describe(x):
    x = F32(x)
    return "%r (0x%08X)" % (float(x), int(np.array(x).view(np.uint32)))


def compare(got, want, mode, inputs=None):
    """None if `got` (float32) matches `want` under `mode`, else a message
    naming the worst element and the `inputs` (by name) that broadcast to
    it."""
    if got.dtype != np.dtype("<f4"):
        return "dtype %s, expected float32" % got.dtype
    if got.shape != want.shape:
        return "shape %s, expected %s" % (got.shape, want.shape)
    kind, _, arg = mode.partition(" ")
    got64 = got.astype(np.float64)
    want64 = np.asarray(want, np.float64)
    nan_ok = np.isnan(got64) == np.isnan(want64)
    both_nan = np.isnan(got64) & np.isnan(want64)
    if kind == "bitwise":
        want32 = np.asarray(want, F32)
        bad = ~((got.view(np.uint32) == want32.view(np.uint32)) | both_nan)
        err = bad.astype(np.float64)
        what = "bit patterns differ"
    elif kind == "ulp":
        want32 = np.asarray(want, F32)
        with np.errstate(invalid="ignore"):
            err = np.abs(ordered(got) - ordered(want32)).astype(np.float64)
        err = np.where(both_nan, 0, np.where(nan_ok, err, np.inf))
        bad = err > float(arg)
        what = "more than %s ulp apart" % arg
    elif kind == "rtol":
        rtol = float(arg)
        finite = np.isfinite(want64)
        scale = np.abs(want64[finite]).max() if finite.any() else 0.0
        with np.errstate(invalid="ignore"):
            # Equal infinities differ by 0, not NaN; a NaN against a number
            # differs by inf.
            diff = np.where(got64 == want64, 0, np.abs(got64 - want64))
            err = np.where(both_nan, 0, np.where(nan_ok, diff, np.inf))
            tol = np.where(finite, rtol * np.abs(want64) + rtol * scale, 0)
            bad = ~(both_nan | (err <= tol))
        what = "beyond rtol %s (slack %.3g)" % (arg, rtol * scale)
    else:
        raise SystemExit("unknown comparison mode '%s'" % mode)
    if not bad.any():
        return None
    worst = np.unravel_index(np.argmax(np.where(bad, err, -1)), bad.shape)
    message = "%d of %d values %s; at %s got %s, expected %s" % (
        bad.sum(), bad.size, what, tuple(int(i) for i in worst),
        describe(got[worst]), describe(want[worst]))
    operands = []
    for name, value in (inputs or {}).items():
        try:
            operands.append("%s = %s" % (name, describe(
                np.broadcast_to(value, got.shape)[worst])))
        except ValueError:
            return message
    if operands:
        message += ", from " + ", ".join(operands)
    return message


def load_npy(path):
    if not os.path.exists(path):
        return None, "missing output %s" % path
    return np.load(path), None

#===------------------------------------------------------------------------===#
# Modes
#===------------------------------------------------------------------------===#


def write_inputs(paths):
    for path in paths:
        model = Model(path)
        if not model.input_exprs:
            continue  # graph-run's random inputs
        rng = np.random.RandomState(0)
        for name, shape in model.args:
            if name not in model.input_exprs:
                raise SystemExit("%s: no INPUT line for %%%s" % (path, name))
            env = {"np": np, "rng": rng, "shape": shape, "specials": specials,
                   "bits": bits}
            with np.errstate(all="ignore"):
                value = np.asarray(eval(model.input_exprs[name], env), F32)
            # As many values as the argument has: reshaped; else broadcast.
            if value.size == int(np.prod(shape)):
                value = value.reshape(shape)
            try:
                value = np.ascontiguousarray(np.broadcast_to(value, shape))
            except ValueError:
                raise SystemExit("%s: INPUT %s gives shape %s, not %s"
                                 % (path, name, value.shape, shape))
            np.save(model.file(name + ".npy"), value)
    return 0


def check(paths, seed, levels=(0, 3)):
    failures = 0
    for path in paths:
        model = Model(path)
        inputs = model.inputs(seed)
        expected = model.expected(inputs)
        for level in levels:
            for i, out_file in enumerate(model.output_files(level)):
                got, problem = load_npy(out_file)
                if got is not None:
                    problem = compare(got, expected[i], model.compare, inputs)
                name = "%s -O%d" % (model.case, level)
                if len(expected) > 1:
                    name += " result %d" % i
                if problem:
                    failures += 1
                    print("FAIL %s (%s): %s" % (name, model.compare, problem))
                else:
                    print("ok %s" % name)
    return 1 if failures else 0


def constify(paths, only=None):
    """Writes CASE.const.mlir: the model with each argument (each of `only`)
    a graph.constant that holds its input (CASE.ARG.npy) bit for bit: a hex
    string, or a splat's bit pattern."""
    for path in paths:
        model = Model(path)
        text = model.text
        sig = re.search(r"func\.func @main\((.*?)\)\s*->", text, re.S)
        lines = []
        kept = []
        for name, shape in model.args:
            if only is not None and name not in only:
                kept.append("%%%s: tensor<%sf32>"
                            % (name, "".join("%dx" % d for d in shape)))
                continue
            value = np.load(model.file(name + ".npy")).astype("<f4")
            words = value.reshape(-1).view(np.uint32)
            if (words == words[0]).all():
                # A splat, so that the folds' splat paths are the ones run.
                literal = "0x%08X" % words[0]
            else:
                literal = '"0x%s"' % value.tobytes().hex().upper()
            lines.append("  %%%s = graph.constant dense<%s> : tensor<%sf32>"
                         % (name, literal, "".join("%dx" % d for d in shape)))
        text = text[:sig.start(1)] + ", ".join(kept) + text[sig.end(1):]
        # The body's opening brace ends the signature's last line.
        body = re.compile(r"\{[ \t]*\n").search(text, sig.start()).end()
        with open(model.file("const.mlir"), "w") as f:
            f.write(text[:body] + "\n".join(lines) + "\n" + text[body:])
    return 0


def fold_check(paths, levels=(0, 3)):
    failures = 0
    for path in paths:
        model = Model(path)
        with open(model.file("folded.mlir")) as f:
            folded_text = f.read()
        folded = constants_of(folded_text)
        folded_results = return_operands(folded_text)
        inputs = model.inputs(None)
        expected = model.expected(inputs)
        for i, value in enumerate(model.results):
            name = "%s result %d (%s)" % (model.case, i, model.op_of(value))
            const = folded.get(folded_results[i])
            if const is None:
                print("FAIL %s: not folded to a constant (%%%s)"
                      % (name, folded_results[i]))
                failures += 1
                continue
            problems = []
            for level in levels:
                got, problem = load_npy(model.output_files(level)[i])
                if got is not None:
                    problem = compare(got, const, model.fold_compare, inputs)
                if problem:
                    problems.append("-O%d run vs folded (%s): %s"
                                    % (level, model.fold_compare, problem))
            problem = compare(const, expected[i], model.compare, inputs)
            if problem:
                problems.append("folded vs NumPy (%s): %s"
                                % (model.compare, problem))
            for problem in problems:
                print("FAIL %s: %s" % (name, problem))
            failures += len(problems)
            if not problems:
                print("ok %s" % name)
    return 1 if failures else 0


def main(argv):
    if not argv:
        print(__doc__)
        return 1
    mode, args = argv[0], argv[1:]
    seed = None
    if "--seed" in args:
        at = args.index("--seed")
        seed = int(args[at + 1])
        del args[at:at + 2]
    if mode == "inputs":
        return write_inputs(args)
    if mode == "check":
        return check(args, seed)
    if mode == "constify":
        only = None
        if "--args" in args:
            at = args.index("--args")
            only = args[at + 1].split(",")
            del args[at:at + 2]
        return constify(args, only)
    if mode == "fold-check":
        return fold_check(args)
    print("unknown mode '%s'\n%s" % (mode, __doc__))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
