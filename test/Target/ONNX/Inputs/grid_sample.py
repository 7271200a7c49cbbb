#!/usr/bin/python3
"""GridSample for grid-sample.test: grid_sample.py GRAPH_RUN DIR.

Every mode, padding mode and align_corners, each case through graph-run
at -O0 and -O3 against PyTorch's torch.nn.functional.grid_sample (the
definition ONNX's operator follows) on grids that reach well outside
[-1, 1], exported by torch.onnx at opset 16. One difference: for bicubic
with border padding, ONNX (and ONNX Runtime) first clamps a position
outside the image to its border pixels, where PyTorch only clamps each of
the 16 taps; PyTorch then gets the grid with those positions clamped
(`onnx_border_grid`), the ONNX model the grid as it is.
"""
import io
import sys
import warnings

import numpy as np

sys.dont_write_bytecode = True
from case_runner import close, run_cases  # noqa: E402


# Within 1e-5 absolute and 1e-5 relative of the NumPy reference.
WITHIN = close(1e-5, 1e-5)


def onnx_border_grid(grid, height, width, align):
    """The grid with ONNX's border rule applied: a position with either
    coordinate outside [-0.5, size - 0.5] ([0, size - 1] with align) has
    both clamped to [0, size - 1], written back normalized."""
    def bounds(size):
        if align:
            return -1.0, 1.0, -1.0, 1.0
        return -1.0, 1.0, 1.0 / size - 1.0, 1.0 - 1.0 / size
    out = grid.astype(np.float64).copy()
    xlo, xhi, xclo, xchi = bounds(width)
    ylo, yhi, yclo, ychi = bounds(height)
    x, y = out[..., 0], out[..., 1]
    outside = (x < xlo) | (x > xhi) | (y < ylo) | (y > yhi)
    out[..., 0] = np.where(outside, np.clip(x, xclo, xchi), x)
    out[..., 1] = np.where(outside, np.clip(y, yclo, ychi), y)
    return out.astype(np.float32)


def main():
    import onnx
    import torch
    warnings.simplefilter("ignore")
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 3, 5, 7)).astype(np.float32)
    # Positions out to 3x the image, and the exact corners and edges.
    grid = rng.uniform(-3, 3, (2, 6, 4, 2)).astype(np.float32)
    grid[0, 0, :, :] = [[-1, -1], [1, 1], [-1, 1], [0, 0]]
    grid[1, 0, :, :] = [[1.5, -1.25], [-2.5, 0.5], [0.25, 1.75], [-1, 0.3]]

    class Sample(torch.nn.Module):
        def __init__(self, mode, padding, align):
            super().__init__()
            self.args = dict(mode=mode, padding_mode=padding,
                             align_corners=align)

        def forward(self, x, grid):
            return torch.nn.functional.grid_sample(x, grid, **self.args)

    cases = []
    for mode in ("bilinear", "nearest", "bicubic"):
        for padding in ("zeros", "border", "reflection"):
            for align in (False, True):
                name = "%s_%s_%s" % (mode, padding,
                                     "align" if align else "noalign")
                module = Sample(mode, padding, align)
                reference_grid = grid
                if mode == "bicubic" and padding == "border":
                    reference_grid = onnx_border_grid(grid, 5, 7, align)
                with torch.no_grad():
                    want = module(torch.from_numpy(x),
                                  torch.from_numpy(reference_grid)).numpy()
                buffer = io.BytesIO()
                torch.onnx.export(module, (torch.from_numpy(x),
                                           torch.from_numpy(grid)),
                                  buffer, input_names=["x", "grid"],
                                  output_names=["y"], opset_version=16)
                model = onnx.load_from_string(buffer.getvalue())
                cases.append((name, model, {"x": x, "grid": grid},
                              {"y": want}, WITHIN))
    return run_cases(sys.argv[1], sys.argv[2], cases)


if __name__ == "__main__":
    sys.exit(main())
