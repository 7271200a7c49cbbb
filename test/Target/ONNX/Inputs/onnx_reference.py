"""NumPy reference for ONNX models, and the checker of the ONNX tests.

usage:
  onnx_reference.py check DIR FAMILY
      For every case that gen_onnx_models.py listed in DIR/FAMILY.cases,
      runs DIR/CASE.onnx here on its inputs DIR/CASE.in.NAME.npy and compares
      graph-run's outputs DIR/CASE.O0.NAME.npy and DIR/CASE.O3.NAME.npy with
      the result, for every graph output NAME (file names through
      file_name()). Prints `ok CASE -On NAME` or `FAIL CASE -On NAME (MODE):
      why` for each and exits 1 on any failure.

The interpreter below runs a graph node by node with the ONNX operator
semantics written from the ONNX operator documentation (auto_pad, the pads
order [x1_begin, x2_begin, x1_end, x2_end], the opset-dependent Softmax and
Clip, Reshape's 0 and -1, ...), independently of the importer; the numeric
kernels are those of test/Integration/Inputs/reference.py. Intermediate
tensors are rounded to float32, as a compiled model stores them; a graph
output keeps the kernel's precision (float64 for summing ops).

How outputs must match is read from the model's metadata_props:
  compare         the mode for every output (default `rtol 1e-5`)
  compare.O3      the mode at -O3 (default: `compare`)
  compare:NAME    the mode for output NAME at every level
with the modes of reference.py: `bitwise`, `ulp N`, `rtol R`.
"""

import os
import re
import sys

# Run from the source tree: leave no __pycache__ there.
sys.dont_write_bytecode = True

import numpy as np
import onnx
from onnx import helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "Integration", "Inputs"))
import reference as ref  # noqa: E402

F32 = np.float32
FLT_MAX = float(np.finfo(F32).max)


def file_name(tensor_name):
    """The part of a file name that stands for an ONNX tensor name."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", tensor_name)


def default_opset(model):
    for entry in model.opset_import:
        if entry.domain in ("", "ai.onnx"):
            return entry.version
    raise ValueError("no default-domain opset import")

#===------------------------------------------------------------------------===#
# Operators
#===------------------------------------------------------------------------===#


def auto_pads(auto_pad, spatial, kernel, strides, dilations, pads):
    """The explicit pads [top, left, bottom, right] of a 2-D window op."""
    auto_pad = auto_pad.decode() if isinstance(auto_pad, bytes) else auto_pad
    if auto_pad in ("", "NOTSET"):
        return tuple(pads) if pads else (0, 0, 0, 0)
    if auto_pad == "VALID":
        return (0, 0, 0, 0)
    begin, end = [], []
    for size, k, s, d in zip(spatial, kernel, strides, dilations):
        out = -(-size // s)  # ceil(size / stride)
        total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
        small, large = total // 2, total - total // 2
        # SAME_UPPER puts the extra padding at the end, SAME_LOWER at the
        # beginning.
        if auto_pad == "SAME_UPPER":
            begin.append(small), end.append(large)
        elif auto_pad == "SAME_LOWER":
            begin.append(large), end.append(small)
        else:
            raise ValueError("unknown auto_pad '%s'" % auto_pad)
    return tuple(begin + end)


def window_attrs(x, attrs, kernel):
    strides = tuple(attrs.get("strides", (1, 1)))
    dilations = tuple(attrs.get("dilations", (1, 1)))
    pads = auto_pads(attrs.get("auto_pad", "NOTSET"), x.shape[2:], kernel,
                     strides, dilations, attrs.get("pads"))
    return strides, dilations, pads


def ceil_pads(x, kernel, strides, pads):
    """A pool's pads with ceil_mode: the output size rounds up, and the last
    window reaches past the end padding by as many cells, which count as
    padding (they never win a max, and an average without
    count_include_pad ignores them)."""
    pads = list(pads)
    for i, (size, k, s) in enumerate(zip(x.shape[2:], kernel, strides)):
        span = size + pads[i] + pads[i + 2]
        out = -(-(span - k) // s) + 1
        # The last window starts inside the input or its begin padding.
        assert (out - 1) * s < size + pads[i]
        pads[i + 2] += (out - 1) * s + k - span
    return tuple(pads)


def op_conv(ins, attrs, opset):
    x, w = ins[0], ins[1]
    b = ins[2] if len(ins) > 2 else None
    kernel = tuple(attrs.get("kernel_shape", w.shape[2:]))
    assert kernel == w.shape[2:], "kernel_shape disagrees with W"
    strides, dilations, pads = window_attrs(x, attrs, kernel)
    return ref.conv2d(x, w, b, strides=strides, padding=pads,
                      dilations=dilations, groups=attrs.get("group", 1))


def op_max_pool(ins, attrs, opset):
    kernel = tuple(attrs["kernel_shape"])
    strides, dilations, pads = window_attrs(ins[0], attrs, kernel)
    assert dilations == (1, 1)
    if attrs.get("ceil_mode", 0):
        pads = ceil_pads(ins[0], kernel, strides, pads)
    return ref.max_pool2d(ins[0], kernel, strides, pads)


def op_average_pool(ins, attrs, opset):
    kernel = tuple(attrs["kernel_shape"])
    strides, _, pads = window_attrs(ins[0], attrs, kernel)
    include = bool(attrs.get("count_include_pad", 0))
    if attrs.get("ceil_mode", 0):
        assert not include, "ceil_mode with count_include_pad"
        pads = ceil_pads(ins[0], kernel, strides, pads)
    return ref.avg_pool2d(ins[0], kernel, strides, pads, include)


def op_global_average_pool(ins, attrs, opset):
    return ref.global_avg_pool(ins[0])


def op_lrn(ins, attrs, opset):
    # The operator's definition in float64: the squares summed over the
    # channels c - floor((size - 1) / 2) .. c + ceil((size - 1) / 2).
    x = ins[0].astype(np.float64)
    size = attrs["size"]
    before, after = (size - 1) // 2, size // 2
    squares = x * x
    total = np.zeros_like(x)
    for c in range(x.shape[1]):
        lo, hi = max(0, c - before), min(x.shape[1], c + after + 1)
        total[:, c] = squares[:, lo:hi].sum(axis=1)
    scale = (attrs.get("bias", 1.0)
             + attrs.get("alpha", 1e-4) / size * total) ** attrs.get("beta", 0.75)
    return x / scale


def op_max_unpool(ins, attrs, opset):
    # Each value to its index in the default shape ((in - 1) * stride -
    # pads + kernel), which output_shape then pads with zeros at the end.
    x, indices = ins[0], ins[1]
    k = attrs["kernel_shape"]
    spatial = len(k)
    strides = attrs.get("strides", [1] * spatial)
    pads = attrs.get("pads", [0] * (2 * spatial))
    shape = list(x.shape[:2]) + [
        (x.shape[2 + d] - 1) * strides[d] - pads[d] - pads[d + spatial] + k[d]
        for d in range(spatial)]
    out = np.zeros(int(np.prod(shape)), x.dtype)
    out[indices.reshape(-1)] = x.reshape(-1)
    out = out.reshape(shape)
    if len(ins) > 2 and ins[2] is not None:
        target = [int(v) for v in ins[2]]
        padded = np.zeros(target, x.dtype)
        padded[tuple(slice(0, min(a, b)) for a, b in zip(target, shape))] = \
            out[tuple(slice(0, min(a, b)) for a, b in zip(target, shape))]
        out = padded
    return out


def op_reverse_sequence(ins, attrs, opset):
    x, lens = ins[0], ins[1]
    time_axis, batch_axis = attrs.get("time_axis", 0), attrs.get("batch_axis", 1)
    y = x.copy()
    for b, n in enumerate(lens):
        # Batch b's first n steps, the time axis first once b is taken.
        src = [slice(None)] * x.ndim
        src[batch_axis], src[time_axis] = b, slice(0, int(n))
        y[tuple(src)] = x[tuple(src)][::-1]
    return y


def op_batch_normalization(ins, attrs, opset):
    assert not attrs.get("training_mode", 0)
    x, scale, bias, mean, var = ins[:5]
    return ref.batch_norm(x, scale, bias, mean, var,
                          eps=attrs.get("epsilon", 1e-5))


def op_clip(ins, attrs, opset):
    # Unset bounds are numeric_limits<float>::lowest() and max(), in the
    # attributes (opset < 11) as in the inputs (opset >= 11).
    if opset < 11:
        lo, hi = attrs.get("min", -FLT_MAX), attrs.get("max", FLT_MAX)
    else:
        bound = lambda i, default: (
            float(ins[i]) if len(ins) > i and ins[i] is not None else default)
        lo, hi = bound(1, -FLT_MAX), bound(2, FLT_MAX)
    return ref.clip(ins[0], lo, hi)


def op_gemm(ins, attrs, opset):
    c = ins[2] if len(ins) > 2 else None
    return ref.gemm(ins[0], ins[1], c, alpha=attrs.get("alpha", 1.0),
                    beta=attrs.get("beta", 1.0),
                    trans_a=bool(attrs.get("transA", 0)),
                    trans_b=bool(attrs.get("transB", 0)))


def op_matmul(ins, attrs, opset):
    assert ins[0].ndim == 2 and ins[1].ndim == 2
    return ref.matmul(ins[0], ins[1])


def op_flatten(ins, attrs, opset):
    x = ins[0]
    axis = attrs.get("axis", 1)
    if axis < 0:
        axis += x.ndim
    return x.reshape(int(np.prod(x.shape[:axis])), -1)


def op_reshape(ins, attrs, opset):
    x, shape = ins[0], [int(d) for d in ins[1]]
    assert not attrs.get("allowzero", 0)
    # 0 copies the input's dimension, -1 takes what is left.
    shape = [x.shape[i] if d == 0 else d for i, d in enumerate(shape)]
    return x.reshape(shape)


def op_transpose(ins, attrs, opset):
    x = ins[0]
    perm = attrs.get("perm", list(range(x.ndim))[::-1])
    return np.transpose(x, perm)


def op_concat(ins, attrs, opset):
    return np.concatenate(ins, axis=attrs["axis"])


def op_softmax(ins, attrs, opset):
    x = ins[0]
    if opset >= 13:
        return ref.softmax(x, attrs.get("axis", -1))
    # Before opset 13: the input is coerced to 2-D at `axis` (default 1) and
    # each row is normalized over all the dimensions from `axis` on.
    axis = attrs.get("axis", 1)
    if axis < 0:
        axis += x.ndim
    rows = x.reshape(int(np.prod(x.shape[:axis])), -1)
    return ref.softmax(rows, 1).reshape(x.shape)


def op_dropout(ins, attrs, opset):
    if opset >= 12 and len(ins) > 2 and ins[2] is not None:
        assert not bool(ins[2]), "training_mode"
    return ref.dropout(ins[0])


def op_constant(ins, attrs, opset):
    if "value" in attrs:
        return numpy_helper.to_array(attrs["value"])
    if "value_float" in attrs:
        return np.array(attrs["value_float"], F32)
    if "value_floats" in attrs:
        return np.array(attrs["value_floats"], F32)
    if "value_int" in attrs:
        return np.array(attrs["value_int"], np.int64)
    if "value_ints" in attrs:
        return np.array(attrs["value_ints"], np.int64)
    raise ValueError("unsupported Constant attributes %s" % sorted(attrs))


def elementwise(fn):
    return lambda ins, attrs, opset: fn(*ins)


OPS = {
    "Conv": op_conv,
    "BatchNormalization": op_batch_normalization,
    "Relu": elementwise(ref.relu),
    "Clip": op_clip,
    "Sigmoid": elementwise(ref.sigmoid),
    "Tanh": elementwise(ref.tanh),
    "Add": elementwise(lambda a, b: a + b),
    "Sub": elementwise(lambda a, b: a - b),
    "Mul": elementwise(lambda a, b: a * b),
    "Div": elementwise(lambda a, b: a / b),
    "MatMul": op_matmul,
    "Gemm": op_gemm,
    "MaxPool": op_max_pool,
    "AveragePool": op_average_pool,
    "GlobalAveragePool": op_global_average_pool,
    "LRN": op_lrn,
    "MaxUnpool": op_max_unpool,
    "ReverseSequence": op_reverse_sequence,
    "Flatten": op_flatten,
    "Reshape": op_reshape,
    "Transpose": op_transpose,
    "Concat": op_concat,
    "Softmax": op_softmax,
    "Dropout": op_dropout,
    "Identity": elementwise(lambda x: x.copy()),
    "Constant": op_constant,
}

#===------------------------------------------------------------------------===#
# Interpreter
#===------------------------------------------------------------------------===#


def as_stored(value):
    """A tensor as the compiled model keeps it between ops: float results
    in float32."""
    value = np.asarray(value)
    return value.astype(F32) if value.dtype.kind == "f" else value


def run(model, feeds):
    """The graph outputs of `model` for `feeds` (input name -> array), by
    name, in the order of the graph's outputs."""
    graph = model.graph
    opset = default_opset(model)
    values = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    exact = {}
    for name, value in feeds.items():
        values[name] = np.asarray(value)
    for node in graph.node:
        if node.domain not in ("", "ai.onnx") or node.op_type not in OPS:
            raise ValueError("no reference for %s" % node.op_type)
        attrs = {a.name: helper.get_attribute_value(a)
                 for a in node.attribute}
        ins = [values[name] if name else None for name in node.input]
        with np.errstate(all="ignore"):
            result = OPS[node.op_type](ins, attrs, opset)
        # Only the first output of any of these ops is supported (Dropout's
        # mask is not).
        assert all(not name for name in node.output[1:]), node.op_type
        exact[node.output[0]] = np.asarray(result)
        values[node.output[0]] = as_stored(result)
    return {o.name: exact.get(o.name, values[o.name]) for o in graph.output}

#===------------------------------------------------------------------------===#
# Checking
#===------------------------------------------------------------------------===#


def metadata(model):
    return {p.key: p.value for p in model.metadata_props}


def compare_mode(meta, output, level):
    return meta.get("compare:" + output,
                    meta.get("compare.O%d" % level,
                             meta.get("compare", "rtol 1e-5")))


def model_inputs(model):
    """The graph inputs that are not initializers (old exporters also list
    the initializers among the inputs)."""
    initializers = {t.name for t in model.graph.initializer}
    return [i.name for i in model.graph.input if i.name not in initializers]


def check_case(directory, case, levels=(0, 3)):
    """Prints one line per output and level; returns the failure count."""
    path = os.path.join(directory, case + ".onnx")
    model = onnx.load(path)
    feeds = {name: np.load(os.path.join(
        directory, "%s.in.%s.npy" % (case, file_name(name))))
        for name in model_inputs(model)}
    expected = run(model, feeds)
    meta = metadata(model)
    failures = 0
    for level in levels:
        for name, want in expected.items():
            mode = compare_mode(meta, name, level)
            out = os.path.join(directory, "%s.O%d.%s.npy"
                               % (case, level, file_name(name)))
            got, problem = ref.load_npy(out)
            if got is not None:
                problem = ref.compare(got, want, mode)
            if problem:
                failures += 1
                print("FAIL %s -O%d %s (%s): %s" % (case, level, name, mode,
                                                    problem))
            else:
                print("ok %s -O%d %s" % (case, level, name))
    return failures


def check(directory, family):
    with open(os.path.join(directory, family + ".cases")) as f:
        cases = f.read().split()
    if not cases:
        raise SystemExit("no cases listed in %s.cases" % family)
    failures = sum(check_case(directory, case) for case in cases)
    print("%s: %d cases, %d failures" % (family, len(cases), failures))
    return 1 if failures else 0


def main(argv):
    if len(argv) == 3 and argv[0] == "check":
        return check(argv[1], argv[2])
    print(__doc__)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
