#!/usr/bin/python3
"""RoiAlign for roi-align.test: roi_align.py GRAPH_RUN DIR, or
roi_align.py --bad DIR to write the models the importer refuses.

Each case through graph-run at -O0 and -O3: mode avg against
torchvision.ops.roi_align (the Detectron kernel ONNX's operator and ONNX
Runtime follow; aligned=True is half_pixel), mode max against a NumPy
transcription of ONNX Runtime's definition (the largest of the four
weighted pixels of any sample, which torchvision does not have). Regions
inside the image, partly and wholly outside it, reversed, smaller than a
pixel and larger than the image; batch indices into both images;
sampling_ratio 0 (samples from the region's size) and 2; spatial scales
1 and 0.5; opset 10 (output_half_pixel implied) and 16.
"""
import math
import sys

import numpy as np

sys.dont_write_bytecode = True
from case_runner import close, run_cases  # noqa: E402

WITHIN = close(1e-5, 1e-5)


def bilinear_terms(image, y, x):
    """The four weighted pixels of the sample (y, x) of `image` [H, W], or
    None off the image (ONNX Runtime's PreCalcForBilinearInterpolate)."""
    height, width = image.shape
    if y < -1.0 or y > height or x < -1.0 or x > width:
        return None
    y, x = max(y, 0.0), max(x, 0.0)
    y_low, x_low = int(y), int(x)
    if y_low >= height - 1:
        y_high = y_low = height - 1
        y = float(y_low)
    else:
        y_high = y_low + 1
    if x_low >= width - 1:
        x_high = x_low = width - 1
        x = float(x_low)
    else:
        x_high = x_low + 1
    ly, lx = y - y_low, x - x_low
    hy, hx = 1.0 - ly, 1.0 - lx
    return [hy * hx * image[y_low, x_low], hy * lx * image[y_low, x_high],
            ly * hx * image[y_high, x_low], ly * lx * image[y_high, x_high]]


def roi_align_max(x, rois, batch, height, width, ratio, scale, half_pixel):
    out = np.zeros((len(rois), x.shape[1], height, width))
    offset = 0.5 if half_pixel else 0.0
    for r, (roi, n) in enumerate(zip(rois.astype(np.float64), batch)):
        x1, y1, x2, y2 = roi * scale - offset
        roi_w, roi_h = x2 - x1, y2 - y1
        if not half_pixel:
            roi_w, roi_h = max(roi_w, 1.0), max(roi_h, 1.0)
        bin_h, bin_w = roi_h / height, roi_w / width
        grid_h = ratio if ratio > 0 else max(math.ceil(bin_h), 0)
        grid_w = ratio if ratio > 0 else max(math.ceil(bin_w), 0)
        for c in range(x.shape[1]):
            for ph in range(height):
                for pw in range(width):
                    best = None
                    for iy in range(grid_h):
                        yy = y1 + ph * bin_h + (iy + 0.5) * bin_h / grid_h
                        for ix in range(grid_w):
                            xx = x1 + pw * bin_w + (ix + 0.5) * bin_w / grid_w
                            terms = bilinear_terms(x[n, c], yy, xx)
                            value = 0.0 if terms is None else max(terms)
                            best = value if best is None else max(best, value)
                    out[r, c, ph, pw] = 0.0 if best is None else best
    return out.astype(np.float32)


def make_model(opset, height, width, ratio, scale, mode, alignment, shapes):
    import onnx
    from onnx import TensorProto, helper
    attrs = dict(output_height=height, output_width=width,
                 sampling_ratio=ratio, spatial_scale=scale, mode=mode)
    if alignment is not None:
        attrs["coordinate_transformation_mode"] = alignment
    node = helper.make_node("RoiAlign", ["x", "rois", "batch"], ["y"], **attrs)
    x_shape, num_rois = shapes
    graph = helper.make_graph(
        [node], "roi_align",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x_shape),
         helper.make_tensor_value_info("rois", TensorProto.FLOAT,
                                       [num_rois, 4]),
         helper.make_tensor_value_info("batch", TensorProto.INT64,
                                       [num_rois])],
        [helper.make_tensor_value_info(
            "y", TensorProto.FLOAT, [num_rois, x_shape[1], height, width])])
    return helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", opset)])


def write_bad_models(directory):
    """Models the importer refuses: an alignment RoiAlign does not have,
    int32 batch indices."""
    import os
    import onnx
    from onnx import TensorProto
    shapes = ([1, 2, 4, 4], 3)
    model = make_model(16, 1, 1, 0, 1.0, "avg", "tf_crop_and_resize", shapes)
    onnx.save(model, os.path.join(directory, "bad_alignment.onnx"))
    model = make_model(16, 1, 1, 0, 1.0, "avg", None, shapes)
    model.graph.input[2].type.tensor_type.elem_type = TensorProto.INT32
    onnx.save(model, os.path.join(directory, "bad_indices.onnx"))
    return 0


def main():
    if sys.argv[1] == "--bad":
        return write_bad_models(sys.argv[2])
    import torch
    import torchvision
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 3, 10, 12)).astype(np.float32)
    rois = np.array([
        [1.0, 2.0, 8.0, 7.0],       # inside
        [-3.0, -2.0, 4.5, 3.25],    # over the top left corner
        [9.0, 6.0, 15.0, 13.0],     # over the bottom right corner
        [20.0, 20.0, 30.0, 25.0],   # outside
        [6.0, 5.0, 2.0, 1.0],       # reversed
        [4.2, 3.7, 4.4, 3.9],       # under a pixel
        [-8.0, -6.0, 22.0, 17.0],   # over the whole image
        [0.0, 0.0, 11.0, 9.0],      # the image
    ], dtype=np.float32)
    batch = np.array([0, 1, 0, 1, 0, 1, 1, 0], dtype=np.int64)
    shapes = (list(x.shape), len(rois))
    inputs = {"x": x, "rois": rois, "batch": batch}
    boxes = torch.from_numpy(np.concatenate(
        [batch[:, None].astype(np.float32), rois], axis=1))

    cases = []
    # (name, opset, height, width, ratio, scale, mode, alignment)
    for name, opset, height, width, ratio, scale, mode, alignment in [
            ("avg_half_pixel_adaptive", 16, 3, 4, 0, 1.0, "avg", None),
            ("avg_half_pixel_ratio2_scale", 16, 2, 2, 2, 0.5, "avg",
             "half_pixel"),
            ("avg_output_half_pixel_adaptive", 16, 3, 3, 0, 1.0, "avg",
             "output_half_pixel"),
            ("avg_opset10_scale", 10, 4, 2, 0, 0.5, "avg", None),
            ("max_half_pixel_ratio2", 16, 3, 4, 2, 1.0, "max", None),
            ("max_output_half_pixel_adaptive_scale", 16, 2, 3, 0, 0.5, "max",
             "output_half_pixel"),
    ]:
        half_pixel = opset >= 16 and alignment in (None, "half_pixel")
        if mode == "avg":
            want = torchvision.ops.roi_align(
                torch.from_numpy(x), boxes, (height, width),
                spatial_scale=scale, sampling_ratio=ratio,
                aligned=half_pixel).numpy()
        else:
            want = roi_align_max(x, rois, batch, height, width, ratio, scale,
                                 half_pixel)
        model = make_model(opset, height, width, ratio, scale, mode,
                           alignment, shapes)
        cases.append((name, model, inputs, {"y": want}, WITHIN))
    return run_cases(sys.argv[1], sys.argv[2], cases)


if __name__ == "__main__":
    sys.exit(main())
