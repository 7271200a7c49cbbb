#!/usr/bin/python3
"""check_close.py REFERENCE.npy OUTPUT.npy... [--rel R]

Checks that every OUTPUT has REFERENCE's shape and dtype and that
max |OUTPUT - REFERENCE| <= R * max |REFERENCE| (default R = 1e-4): agreement
relative to the output's scale. Prints the measured figures.
"""
import argparse
import sys

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("reference")
    ap.add_argument("outputs", nargs="+")
    ap.add_argument("--rel", type=float, default=1e-4)
    args = ap.parse_args()
    ref = np.load(args.reference)
    scale = float(np.abs(ref).max())
    ok = True
    for path in args.outputs:
        out = np.load(path)
        if out.shape != ref.shape or out.dtype != ref.dtype:
            print("%s: shape %s %s, expected %s %s" % (path, out.shape, out.dtype,
                                                      ref.shape, ref.dtype))
            ok = False
            continue
        diff = float(np.abs(out.astype(np.float64) - ref.astype(np.float64)).max())
        rel = diff / scale if scale else diff
        good = np.isfinite(diff) and rel <= args.rel
        print("%s: max abs diff %.3g, relative to max |reference| %.3g: %s"
              % (path, diff, rel, "ok" if good else "TOO LARGE (limit %g)" % args.rel))
        ok &= good
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
