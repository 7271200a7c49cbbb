"""Prints a model whose graph.fused ops nest N deep, each body yielding the
next one's result (the innermost yields its block argument): the identity.

Usage: nested_fused.py N
"""

import sys

n = int(sys.argv[1])
t = "tensor<2xf32>"
lines = ["func.func @main(%%x: %s) -> %s {" % (t, t)]
value = "%x"
for i in range(n):
    pad = "  " * (i + 1)
    lines.append('%s%%r%d = "graph.fused"(%s) <{kind = "k"}> ({' % (pad, i, value))
    lines.append("%s^bb0(%%a%d: %s):" % (pad, i, t))
    value = "%%a%d" % i
lines.append('%s"graph.yield"(%s) : (%s) -> ()' % ("  " * (n + 1), value, t))
for i in reversed(range(n)):
    pad = "  " * (i + 1)
    lines.append("%s}) : (%s) -> %s" % (pad, t, t))
    if i > 0:
        lines.append('%s"graph.yield"(%%r%d) : (%s) -> ()' % (pad, i, t))
lines.append("  return %%r0 : %s" % t)
lines.append("}")
print("\n".join(lines))
