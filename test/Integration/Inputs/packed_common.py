"""What packed_weights.py, packed_convs.py and padded_chains.py share: the
x86 levels this machine can run, the IR text of constants and types,
running a tool, and the checks against NumPy and across thread counts."""

import os
import subprocess
import sys

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


def sampled_levels(levels, index, sample):
    """The levels case number `index` runs at: the host's (the last) always,
    the lower ones for one case in `sample` (--param sample=N, test/lit.cfg.py)."""
    return levels if index % sample == 0 else levels[-1:]


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


class Checks:
    """Prints one line per check, "ok ..." or "FAIL ...", and counts the
    failures."""

    def __init__(self):
        self.failures = 0

    def report(self, ok, what):
        print("%s %s" % ("ok" if ok else "FAIL", what))
        sys.stdout.flush()
        self.failures += 0 if ok else 1

    def against_reference(self, graph_run, work, name, model, inputs, expected,
                          cpu, level):
        """graph-run's output for `cpu` at `level` within a relative 1e-5 of
        `expected`'s largest value."""
        out = os.path.join(work, "%s.%s.%s.npy" % (name, cpu, level))
        run([graph_run, level, "--target-cpu=%s" % cpu, model, "--output", out]
            + inputs)
        got = np.load(out).astype(np.float64)
        scale = max(np.abs(expected).max(), 1e-30)
        error = np.abs(got - expected).max() / scale
        self.report(got.shape == expected.shape and error <= 1e-5,
                    "%s %s %s: max error %.2g of the largest value"
                    % (name, cpu, level, error))

    def same_bits_at_thread_counts(self, graph_run, work, name, model, inputs):
        """The same output bits at 1, 2, 3 and 4 threads (-O3, host)."""
        outputs = []
        for threads in (1, 2, 3, 4):
            out = os.path.join(work, "%s.t%d.npy" % (name, threads))
            run([graph_run, "-O3", "--threads", str(threads), model,
                 "--output", out] + inputs)
            outputs.append(np.load(out))
        self.report(all(np.array_equal(o.view(np.uint32),
                                       outputs[0].view(np.uint32))
                        for o in outputs),
                    "%s: the same bits at 1, 2, 3 and 4 threads" % name)

    def finish(self):
        print("%d failed" % self.failures)
        return 1 if self.failures else 0
