#!/usr/bin/python3
"""bfloat16-io.test: bfloat16_check.py DIR writes x.npy (float32) and
bits.npy (its bfloat16 bits, rounded to the nearest even in NumPy) into
DIR; bfloat16_check.py DIR PREFIX checks PREFIX0.npy and PREFIX1.npy, the
outputs graph-run wrote, against NumPy: float32 files holding the bfloat16
values."""
import os
import sys

import numpy as np


def to_bits(values):
    """float32 -> bfloat16 bits, to the nearest, ties to even."""
    bits = values.astype(np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def to_values(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


X = np.array([1.0, 3.14159, -2.71828, 1e-3, 1.00390625], np.float32)


def main(argv):
    directory = argv[1]
    if len(argv) == 2:
        np.save(os.path.join(directory, "x.npy"), X)
        np.save(os.path.join(directory, "bits.npy"), to_bits(X))
        return 0
    rounded = to_values(to_bits(X))
    twice = np.load(os.path.join(directory, argv[2] + "0.npy"))
    wide = np.load(os.path.join(directory, argv[2] + "1.npy"))
    np.testing.assert_array_equal(twice, rounded * 2, strict=True)
    np.testing.assert_array_equal(wide, rounded, strict=True)
    print("bfloat16 outputs agree")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
