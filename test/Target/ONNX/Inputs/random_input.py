"""Writes a seeded uniform float32 array: random_input.py OUT.npy SEED AxBxC
[LOW HIGH] (default range [-1, 1))."""

import sys

import numpy as np

out, seed, shape = sys.argv[1], int(sys.argv[2]), sys.argv[3]
low, high = (float(sys.argv[4]), float(sys.argv[5])) if len(sys.argv) > 5 else (-1.0, 1.0)
dims = [int(d) for d in shape.split("x")]
np.save(out, np.random.default_rng(seed).uniform(low, high, dims).astype(np.float32))
