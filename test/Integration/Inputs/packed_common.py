"""What packed_weights.py and packed_convs.py share: the x86 levels this
machine can run, the IR text of constants and types, and running a tool."""

import subprocess

import numpy as np

# The x86 levels: LLVM CPU name, and the /proc/cpuinfo flags it needs.
LEVELS = [
    ("x86-64-v2", {"sse4_2"}),
    ("sandybridge", {"avx"}),
    ("x86-64-v3", {"avx2", "fma"}),
    ("x86-64-v4", {"avx512f"}),
]


def host_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def host_levels():
    """The LLVM CPU names of LEVELS that this machine runs, lowest first."""
    flags = host_flags()
    return [cpu for cpu, needs in LEVELS if needs <= flags]


def hex_dense(array):
    return '"0x%s"' % np.ascontiguousarray(array, "<f4").tobytes().hex().upper()


def ttype(shape):
    return "tensor<%sxf32>" % "x".join(str(d) for d in shape)


def run(cmd):
    result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True)
    if result.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), result.returncode,
                                                   result.stderr.strip()))
    return result.stdout
