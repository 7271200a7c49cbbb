# Writes mlir-runner.mlir: graph ops on constant inputs, and the CHECK lines
# of their results as NumPy computes them. Inputs are small multiples of 1/4,
# so every sum is exact in f32 and the printed digits are the true values.
#   /usr/bin/python3 gen_mlir_runner.py > ../mlir-runner.mlir
import numpy as np


def ramp(shape, mul, mod, off, scale):
    n = int(np.prod(shape))
    return (((np.arange(n) * mul) % mod - off) * scale).astype(np.float32).reshape(shape)


def literal(v):
    # An MLIR float literal: the shortest exact digits, with a dot.
    s = repr(float(v))
    return s if ("." in s or "e" in s) else s + ".0"


def nested(a):
    if a.ndim == 0:
        return literal(a)
    return "[" + ", ".join(nested(x) for x in a) + "]"


def dense(a):
    return "dense<%s> : %s" % (nested(a), ttype(a))


def ttype(a):
    return "tensor<%sxf32>" % "x".join(map(str, a.shape))


def conv2d(x, w, b, pad, stride=(1, 1)):
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    sh, sw = stride
    xp = np.pad(x, ((0, 0), (0, 0), (pad[0], pad[2]), (pad[1], pad[3])))
    oh = (xp.shape[2] - kh) // sh + 1
    ow = (xp.shape[3] - kw) // sw + 1
    y = np.zeros((n, f, oh, ow), np.float64)
    for i in range(kh):
        for j in range(kw):
            win = xp[:, :, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw]
            y += np.einsum("nchw,fc->nfhw", win, w[:, :, i, j])
    if b is not None:
        y += b.reshape(1, f, 1, 1)
    return y.astype(np.float32)


def batch_norm(x, scale, bias, mean, var, eps=np.float32(1e-5)):
    # In f32, operation by operation, as the lowered code computes it.
    ch = lambda v: v.reshape(1, -1, 1, 1)
    return ((x - ch(mean)) / np.sqrt(ch(var) + eps)) * ch(scale) + ch(bias)


def checks(a):
    # printMemrefF32 prints one innermost row per line, as %g would.
    rows = a.reshape(-1, a.shape[-1])
    return ["// CHECK-NEXT: {{^ *\\[*}}" + ", ".join("%g" % v for v in r) + "]" for r in rows]


# Unfused ops.
x = ramp((1, 2, 4, 4), 7, 11, 5, 0.5)
w = ramp((3, 2, 3, 3), 5, 7, 3, 0.25)
b = np.array([0.5, -1.0, 0.25], np.float32)
conv = np.maximum(conv2d(x, w, b, (1, 1, 1, 1)), 0)
a = ramp((2, 3), 3, 5, 2, 0.5)
m = ramp((3, 4), 5, 9, 4, 0.25)
mm = (a.astype(np.float64) @ m).astype(np.float32)
lhs = ramp((2, 4), 3, 7, 3, 0.75)
rhs = np.array([1.0, -2.0, 0.5, 0.0], np.float32)
add = lhs + rhs

# A fused conv2d -> batch_norm -> relu group, tiled by rows: odd sizes (3 in,
# 5 out channels, 7x9), so that tiles meet the padding at both ends.
gx = ramp((1, 3, 7, 9), 7, 13, 6, 0.25)
gw = ramp((5, 3, 3, 3), 5, 11, 5, 0.125)
gs = np.array([1.0, 0.5, -1.0, 2.0, 0.75], np.float32)
gb = np.array([0.0, 0.25, -0.5, 1.0, -0.25], np.float32)
gm = np.array([0.5, -0.25, 0.0, 1.0, 0.125], np.float32)
gv = np.array([1.0, 0.5, 2.0, 0.25, 4.0], np.float32)
group = np.maximum(batch_norm(conv2d(gx, gw, None, (1, 1, 1, 1)), gs, gb, gm, gv), 0)
# A fused strided group: 3x3 stride 2, asymmetric padding, then relu.
sx = ramp((1, 2, 9, 8), 5, 9, 4, 0.5)
sw = ramp((3, 2, 3, 3), 3, 7, 3, 0.25)
sb = np.array([0.25, -0.5, 1.0], np.float32)
strided = np.maximum(conv2d(sx, sw, sb, (1, 0, 1, 1), (2, 2)), 0)

inputs = [("x", x), ("w", w), ("b", b), ("a", a), ("m", m), ("lhs", lhs),
          ("rhs", rhs), ("gx", gx), ("gw", gw), ("gs", gs), ("gb", gb),
          ("gm", gm), ("gv", gv), ("sx", sx), ("sw", sw), ("sb", sb)]
results = [("conv2d + relu", conv), ("matmul", mm), ("add, broadcast", add),
           ("fused conv2d_batch_norm_relu", group),
           ("fused strided conv2d_relu", strided)]
T = {name: ttype(v) for name, v in inputs}
R = [ttype(v) for _, v in results]
vec = lambda n: ", ".join(T[k] for k in n)

print("""// RUN: graph-opt %s --graph-lower-to-llvm \\
// RUN: | %mlir_runner -e entry -entry-point-result=void \\
// RUN:   -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \\
// RUN: | FileCheck %s

// Graph ops lowered by graph-lower-to-llvm and run by the stock mlir-runner.
// The expected numbers come from NumPy (Inputs/gen_mlir_runner.py, which
// writes this file). The model takes its inputs as arguments, so that nothing
// is evaluated at compile time, and returns its results through
// caller-allocated out-parameters.
""")
print("func.func @model(%s)\n    -> (%s) {" % (
    ", ".join("%%%s: %s" % (n, T[n]) for n, _ in inputs), ", ".join(R)))
print("""  %%c = graph.conv2d %%x, %%w, %%b {padding = array<i64: 1, 1, 1, 1>} : (%s) -> %s
  %%r = graph.relu %%c : %s
  %%mm = graph.matmul %%a, %%m : (%s) -> %s
  %%s = graph.add %%lhs, %%rhs : (%s) -> %s""" % (
    vec(["x", "w", "b"]), R[0], R[0], vec(["a", "m"]), R[1], vec(["lhs", "rhs"]), R[2]))
print("""  %%g = graph.fused "conv2d_batch_norm_relu" (%%gx, %%gw, %%gs, %%gb, %%gm, %%gv)
      : (%s) -> %s {
  ^bb0(%%a0: %s, %%a1: %s, %%a2: %s, %%a3: %s, %%a4: %s, %%a5: %s):
    %%0 = graph.conv2d %%a0, %%a1 {padding = array<i64: 1, 1, 1, 1>} : (%s) -> %s
    %%1 = graph.batch_norm %%0, %%a2, %%a3, %%a4, %%a5 : (%s, %s) -> %s
    %%2 = graph.relu %%1 : %s
    graph.yield %%2 : %s
  }""" % (vec(["gx", "gw", "gs", "gb", "gm", "gv"]), R[3],
          T["gx"], T["gw"], T["gs"], T["gb"], T["gm"], T["gv"],
          vec(["gx", "gw"]), R[3], R[3], vec(["gs", "gb", "gm", "gv"]), R[3], R[3], R[3]))
print("""  %%t = graph.fused "conv2d_relu" (%%sx, %%sw, %%sb) : (%s) -> %s {
  ^bb0(%%a0: %s, %%a1: %s, %%a2: %s):
    %%0 = graph.conv2d %%a0, %%a1, %%a2 {padding = array<i64: 1, 0, 1, 1>, strides = array<i64: 2, 2>} : (%s) -> %s
    %%1 = graph.relu %%0 : %s
    graph.yield %%1 : %s
  }""" % (vec(["sx", "sw", "sb"]), R[4], T["sx"], T["sw"], T["sb"],
          vec(["sx", "sw", "sb"]), R[4], R[4], R[4]))
print("  return %%r, %%mm, %%s, %%g, %%t : %s\n}\n" % ", ".join(R))
print("func.func private @printMemrefF32(tensor<*xf32>)\n")
print("func.func @entry() {")
for name, v in inputs:
    print("  %%%s = graph.constant %s" % (name, dense(v)))
print("  %%r:%d = call @model(%s)\n    : (%s) -> (%s)" % (
    len(R), ", ".join("%" + n for n, _ in inputs), vec([n for n, _ in inputs]), ", ".join(R)))
for i, t in enumerate(R):
    print("  %%u%d = tensor.cast %%r#%d : %s to tensor<*xf32>" % (i, i, t))
    print("  call @printMemrefF32(%%u%d) : (tensor<*xf32>) -> ()" % i)
print("  return\n}")
for title, v in results:
    print("\n// %s" % title)
    print("// CHECK: rank = %d offset = 0 sizes = [%s]" % (v.ndim, ", ".join(map(str, v.shape))))
    print("\n".join(checks(v)))
