# Writes vectorize-runner.mlir: one function per fast path of graph-vectorize
# (and of graph-lower-fused), run by mlir-runner, each result checked against
# NumPy's.
#   /usr/bin/python3 gen_vectorize_runner.py > ../vectorize-runner.mlir
# Input element i (row-major) is ((i * mul + add) mod 17 - 8) / den, with den
# 8 or 16: the program builds the inputs with tensor.generate from the same
# formula. Every input is a multiple of 1/16 and small, so every result is
# exact in f32 whatever the order of summation, and so are the three weighted
# sums sum_i y_i * (i mod m + 1), m in {1, 7, 13}, computed in f64: they must
# equal NumPy's exactly.
import numpy as np

class Input:
    """An input tensor and the formula that builds it."""

    made = 0

    def __init__(self, shape, den):
        # A new (mul, add) per input, so that inputs differ.
        k = Input.made
        Input.made += 1
        self.mul, self.add, self.den = [3, 5, 7, 11, 13, 2, 4, 6][k % 8], (k * 5) % 17, den
        n = int(np.prod(shape))
        v = ((np.arange(n) * self.mul + self.add) % 17 - 8) / den
        self.value = v.astype(np.float32).reshape(shape)

    @property
    def shape(self):
        return self.value.shape


def dyadic(shape, den):
    return Input(shape, den)


def plain(a):
    return np.asarray(a.value if isinstance(a, Input) else a, dtype=np.float64)


WEIGHT_MODS = (1, 7, 13)


def checksums(y):
    flat = np.asarray(y, np.float64).reshape(-1)
    i = np.arange(flat.size)
    return [float(np.sum(flat * (i % m + 1))) for m in WEIGHT_MODS]


def ttype(a):
    return "tensor<%sxf32>" % "x".join(map(str, a.shape))


def conv2d(x, w, b=None, stride=(1, 1), pad=(0, 0, 0, 0), dil=(1, 1), groups=1):
    n, c, h, wd = x.shape
    f, cg, kh, kw = w.shape
    xp = np.pad(plain(x), ((0, 0), (0, 0), (pad[0], pad[2]), (pad[1], pad[3])))
    oh = (xp.shape[2] - dil[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (xp.shape[3] - dil[1] * (kw - 1) - 1) // stride[1] + 1
    y = np.zeros((n, f, oh, ow))
    fg = f // groups
    for g in range(groups):
        for i in range(kh):
            for j in range(kw):
                r0, c0 = i * dil[0], j * dil[1]
                win = xp[:, g * cg:(g + 1) * cg,
                         r0:r0 + stride[0] * (oh - 1) + 1:stride[0],
                         c0:c0 + stride[1] * (ow - 1) + 1:stride[1]]
                y[:, g * fg:(g + 1) * fg] += np.einsum("nchw,fc->nfhw", win, plain(w)[g * fg:(g + 1) * fg, :, i, j])
    if b is not None:
        y += plain(b).reshape(1, f, 1, 1)
    return y.astype(np.float32)


def attrs(**kw):
    parts = []
    for k, v in kw.items():
        if isinstance(v, bool):
            parts.append(k)
        elif isinstance(v, float):
            parts.append("%s = %r : f32" % (k, v))
        elif isinstance(v, int):
            parts.append("%s = %d : i64" % (k, v))
        else:
            parts.append("%s = array<i64: %s>" % (k, ", ".join(map(str, v))))
    return " {%s}" % ", ".join(parts) if parts else ""


cases = []


def case(name, comment, inputs, body, expected):
    cases.append((name, comment, inputs, body, expected))


def conv_case(name, comment, x, w, b=None, **kw):
    stride = tuple(kw.get("strides", (1, 1)))
    pad = tuple(kw.get("padding", (0, 0, 0, 0)))
    dil = tuple(kw.get("dilations", (1, 1)))
    groups = kw.get("groups", 1)
    y = conv2d(x, w, b, stride, pad, dil, groups)
    ins = [("x", x), ("w", w)] + ([("b", b)] if b is not None else [])
    operands = ", ".join("%" + n for n, _ in ins)
    types = ", ".join(ttype(v) for _, v in ins)
    body = ["%%y = graph.conv2d %s%s : (%s) -> %s" % (operands, attrs(**kw), types, ttype(y))]
    case(name, comment, ins, body, y)


conv_case("conv_main", "8 -> 32 channels, 3x3, pad 1: full 6x32 register tiles, C in steps of 8",
          dyadic((1, 8, 10, 12), 8), dyadic((32, 8, 3, 3), 16), dyadic((32,), 8),
          padding=(1, 1, 1, 1))
conv_case("conv_stride2", "stride 2, pad 1, 5 -> 3 channels",
          dyadic((1, 5, 9, 9), 8), dyadic((3, 5, 3, 3), 16), dyadic((3,), 8),
          strides=(2, 2), padding=(1, 1, 1, 1))
conv_case("conv_7x7_out", "7x7 output, 3 -> 5 channels, no bias",
          dyadic((1, 3, 7, 7), 8), dyadic((5, 3, 3, 3), 16), padding=(1, 1, 1, 1))
conv_case("conv_1x1_stride2", "1x1 kernel, stride 2, 24 -> 48 channels",
          dyadic((1, 24, 8, 8), 8), dyadic((48, 24, 1, 1), 16), dyadic((48,), 8),
          strides=(2, 2))
conv_case("conv_5x5_dilated", "batch 2, 5x5 kernel, dilation [2, 1], asymmetric padding",
          dyadic((2, 4, 11, 9), 8), dyadic((16, 4, 5, 5), 16), dyadic((16,), 8),
          padding=(2, 1, 0, 3), dilations=(2, 1))
conv_case("depthwise", "depthwise 3x3, pad 1, 16 channels",
          dyadic((1, 16, 9, 9), 8), dyadic((16, 1, 3, 3), 16), dyadic((16,), 8),
          padding=(1, 1, 1, 1), groups=16)
conv_case("depthwise_16x16", "depthwise 3x3, pad 1, 32 channels, 16x16: the layout transposes in 16 x 16 blocks",
          dyadic((1, 32, 16, 16), 8), dyadic((32, 1, 3, 3), 16), dyadic((32,), 8),
          padding=(1, 1, 1, 1), groups=32)
conv_case("depthwise_48", "depthwise 3x3, pad 1, 48 channels: 16-lane channel tiles",
          dyadic((1, 48, 7, 9), 8), dyadic((48, 1, 3, 3), 16), dyadic((48,), 8),
          padding=(1, 1, 1, 1), groups=48)
conv_case("depthwise_stride2", "depthwise 3x3, stride 2, 40 channels",
          dyadic((1, 40, 10, 10), 8), dyadic((40, 1, 3, 3), 16), None,
          strides=(2, 2), padding=(1, 1, 1, 1), groups=40)
conv_case("grouped", "2 groups of 4 -> 4 channels",
          dyadic((1, 8, 6, 6), 8), dyadic((8, 4, 3, 3), 16), dyadic((8,), 8), groups=2)


def matmul_case(name, comment, m, k, n):
    a, b = dyadic((m, k), 8), dyadic((k, n), 16)
    y = (plain(a) @ plain(b)).astype(np.float32)
    case(name, comment, [("a", a), ("b", b)],
         ["%%y = graph.matmul %%a, %%b : (%s, %s) -> %s" % (ttype(a), ttype(b), ttype(y))], y)


matmul_case("matmul_odd", "7x13 by 13x5: no dimension a multiple of a tile", 7, 13, 5)
matmul_case("matmul_tiles", "16x24 by 24x64: whole 8x32x8 tiles", 16, 24, 64)
matmul_case("matmul_mixed", "9x40 by 40x48", 9, 40, 48)

a, b, c = dyadic((6, 20), 8), dyadic((18, 20), 16), dyadic((18,), 8)
y = (0.5 * (plain(a) @ plain(b).T) + 2.0 * plain(c)).astype(np.float32)
case("gemm_trans_b", "alpha 0.5, beta 2, trans_b, c broadcast over rows",
     [("a", a), ("b", b), ("c", c)],
     ["%%y = graph.gemm %%a, %%b, %%c%s : (%s, %s, %s) -> %s" % (
         attrs(alpha=0.5, beta=2.0, trans_b=True), ttype(a), ttype(b), ttype(c), ttype(y))], y)
a, b = dyadic((20, 6), 8), dyadic((20, 18), 16)
y = (plain(a).T @ plain(b)).astype(np.float32)
case("gemm_trans_a", "trans_a, no c",
     [("a", a), ("b", b)],
     ["%%y = graph.gemm %%a, %%b%s : (%s, %s) -> %s" % (
         attrs(trans_a=True), ttype(a), ttype(b), ttype(y))], y)

x, w, bb = dyadic((1, 8, 16, 16), 8), dyadic((16, 8, 3, 3), 16), dyadic((16,), 8)
y = np.maximum(conv2d(x, w, bb, pad=(1, 1, 1, 1)), 0)
case("fused_conv_relu", "a graph.fused group, tiled by rows, each tile vectorized",
     [("x", x), ("w", w), ("b", bb)],
     ['%%y = graph.fused "conv2d_relu" (%%x, %%w, %%b) : (%s, %s, %s) -> %s {' % (
         ttype(x), ttype(w), ttype(bb), ttype(y)),
      "^bb0(%%a0: %s, %%a1: %s, %%a2: %s):" % (ttype(x), ttype(w), ttype(bb)),
      "  %%0 = graph.conv2d %%a0, %%a1, %%a2 {padding = array<i64: 1, 1, 1, 1>} : (%s, %s, %s) -> %s" % (
          ttype(x), ttype(w), ttype(bb), ttype(y)),
      "  %%1 = graph.relu %%0 : %s" % ttype(y),
      "  graph.yield %%1 : %s" % ttype(y),
      "}"], y)

a, b, c = dyadic((12, 16), 8), dyadic((16, 32), 16), dyadic((32,), 8)
y = ((plain(a) @ plain(b)) + plain(c)).astype(np.float32)
case("fused_matmul_add", "a graph.fused matmul + bias group",
     [("a", a), ("b", b), ("c", c)],
     ['%%y = graph.fused "matmul_add" (%%a, %%b, %%c) : (%s, %s, %s) -> %s {' % (
         ttype(a), ttype(b), ttype(c), ttype(y)),
      "^bb0(%%a0: %s, %%a1: %s, %%a2: %s):" % (ttype(a), ttype(b), ttype(c)),
      "  %%0 = graph.matmul %%a0, %%a1 : (%s, %s) -> %s" % (ttype(a), ttype(b), ttype(y)),
      "  %%1 = graph.add %%0, %%a2 : (%s, %s) -> %s" % (ttype(y), ttype(c), ttype(y)),
      "  graph.yield %%1 : %s" % ttype(y),
      "}"], y)

x, s = dyadic((1, 16, 9, 20), 8), dyadic((1, 16, 1, 1), 8)
y = np.minimum(np.maximum(plain(x) * plain(s) - plain(x), 0), 6).astype(np.float32)
case("elementwise", "mul by a broadcast, sub, clip: fused and vectorized by rows",
     [("x", x), ("s", s)],
     ["%%0 = graph.mul %%x, %%s : (%s, %s) -> %s" % (ttype(x), ttype(s), ttype(x)),
      "%%1 = graph.sub %%0, %%x : (%s, %s) -> %s" % (ttype(x), ttype(x), ttype(x)),
      "%%y = graph.clip %%1 {max = 6.0 : f32, min = 0.0 : f32} : %s" % ttype(x)], y)

def generate(name, a):
    # tensor.generate of the input formula over the row-major index.
    shape = a.shape
    idx = ["%%i%d" % d for d in range(len(shape))]
    lines = ["  %%%s = tensor.generate {" % name,
             "  ^bb0(%s):" % ", ".join(i + ": index" for i in idx)]
    flat = idx[0]
    for d in range(1, len(shape)):
        lines.append("    %%f%d_s = arith.muli %s, %%c%d : index" % (d, flat, shape[d]))
        lines.append("    %%f%d = arith.addi %%f%d_s, %s : index" % (d, d, idx[d]))
        flat = "%%f%d" % d
    lines += ["    %%m = arith.muli %s, %%c%d : index" % (flat, a.mul),
              "    %%s = arith.addi %%m, %%c%d : index" % a.add,
              "    %r = arith.remui %s, %c17 : index",
              "    %c = arith.subi %r, %c8 : index",
              "    %ci = arith.index_cast %c : index to i32",
              "    %v = arith.sitofp %ci : i32 to f32",
              "    %%den = arith.constant %d.0 : f32" % a.den,
              "    %q = arith.divf %v, %den : f32",
              "    tensor.yield %q : f32",
              "  } : %s" % ttype(a)]
    return lines


print("""// RUN: graph-opt %s --graph-lower-to-llvm \\
// RUN: | %mlir_runner -e entry -entry-point-result=void \\
// RUN:   -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \\
// RUN: | FileCheck %s

// Every tiled and vectorized path of graph-lower-to-llvm against NumPy
// (Inputs/gen_vectorize_runner.py writes this file): odd sizes that no tile
// divides, strides, dilations, asymmetric padding, depthwise and grouped
// convolutions, matmul and gemm, fused groups, elementwise ops. The inputs
// are small multiples of 1/16 built by a formula, so that every result is
// exact in f32 whatever the order of summation; three weighted sums of each
// result, exact in f64, are compared with NumPy's, and each case prints how
// many of them differ.
""")
for name, comment, ins, body, y in cases:
    print("// %s" % comment)
    print("func.func @%s(%s) -> %s {" % (
        name, ", ".join("%%%s: %s" % (n, ttype(v)) for n, v in ins), ttype(y)))
    for line in body:
        print("  " + line)
    print("  return %%y : %s\n}\n" % ttype(y))

print("""// sum_i a[i] * (i mod m + 1), in f64.
func.func @checksum(%a: tensor<?xf32>, %m: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
    %x = tensor.extract %a[%i] : tensor<?xf32>
    %xd = arith.extf %x : f32 to f64
    %k = arith.remui %i, %m : index
    %k1 = arith.addi %k, %c1 : index
    %ki = arith.index_cast %k1 : index to i64
    %w = arith.sitofp %ki : i64 to f64
    %p = arith.mulf %xd, %w : f64
    %next = arith.addf %acc, %p : f64
    scf.yield %next : f64
  }
  return %r : f64
}

// How many of the three checksums of %a differ from the expected ones.
func.func @check(%a: tensor<?xf32>, %e1: f64, %e7: f64, %e13: f64) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c13 = arith.constant 13 : index
  %s1 = call @checksum(%a, %c1) : (tensor<?xf32>, index) -> f64
  %s7 = call @checksum(%a, %c7) : (tensor<?xf32>, index) -> f64
  %s13 = call @checksum(%a, %c13) : (tensor<?xf32>, index) -> f64
  %ok1 = arith.cmpf oeq, %s1, %e1 : f64
  %ok7 = arith.cmpf oeq, %s7, %e7 : f64
  %ok13 = arith.cmpf oeq, %s13, %e13 : f64
  %b1 = arith.select %ok1, %c0, %c1 : index
  %b7 = arith.select %ok7, %c0, %c1 : index
  %b13 = arith.select %ok13, %c0, %c1 : index
  %b17 = arith.addi %b1, %b7 : index
  %bad = arith.addi %b17, %b13 : index
  return %bad : index
}
""")
consts = sorted({17, 8} | {d for _, _, ins, _, _ in cases for _, v in ins for d in v.shape}
                | {v.mul for _, _, ins, _, _ in cases for _, v in ins}
                | {v.add for _, _, ins, _, _ in cases for _, v in ins})
print("func.func @entry() {")
for c in consts:
    print("  %%c%d = arith.constant %d : index" % (c, c))
for name, comment, ins, body, y in cases:
    args = []
    for n, v in ins:
        print("\n".join(generate("%s_%s" % (name, n), v)))
        args.append("%%%s_%s" % (name, n))
    print("  %%%s_y = call @%s(%s) : (%s) -> %s" % (
        name, name, ", ".join(args), ", ".join(ttype(v) for _, v in ins), ttype(y)))
    flat = "tensor<%dxf32>" % y.size
    reassoc = "[[%s]]" % ", ".join(map(str, range(y.ndim)))
    print("  %%%s_flat = tensor.collapse_shape %%%s_y %s : %s into %s" % (
        name, name, reassoc, ttype(y), flat))
    print("  %%%s_dyn = tensor.cast %%%s_flat : %s to tensor<?xf32>" % (name, name, flat))
    sums = checksums(y)
    for m, v in zip(WEIGHT_MODS, sums):
        print("  %%%s_e%d = arith.constant %r : f64" % (name, m, v))
    print("  %%%s_bad = call @check(%%%s_dyn, %s) : (tensor<?xf32>, f64, f64, f64) -> index" % (
        name, name, ", ".join("%%%s_e%d" % (name, m) for m in WEIGHT_MODS)))
    print('  vector.print str "%s: checksums differing from NumPy: "' % name)
    print("  vector.print %%%s_bad : index" % name)
print("  return\n}\n")
for name, comment, ins, body, y in cases:
    print("// CHECK: %s: checksums differing from NumPy: 0" % name)
