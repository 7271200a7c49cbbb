#!/usr/bin/python3
"""NonMaxSuppression for non-max-suppression.test, an output of run-time
size: non_max_suppression.py GRAPH_RUN DIR runs each case through graph-run
at -O0 and -O3 against a NumPy transcription of ONNX Runtime's kernel
(non_max_suppression.cc and its SuppressByIOU, in float32).

Cases: corner boxes in either order and centre-point boxes; two batches
and three classes; with and without a score threshold; a limit below the
number of boxes, one above it, and none (nothing selected); equal scores
(taken by index); identical boxes; NaN scores (never selected); every
score under the threshold (no row); the limits as model inputs (the
model is specialized on their values).
"""
import sys

import numpy as np

sys.dont_write_bytecode = True
from case_runner import exact, run_cases  # noqa: E402

F = np.float32


def suppress_by_iou(a, b, center, threshold):
    """ONNX Runtime's SuppressByIOU in float32: whether box b overlaps box a
    (selected before it) by more than `threshold`."""
    if not center:
        a_min_x, a_max_x = min(a[1], a[3]), max(a[1], a[3])
        b_min_x, b_max_x = min(b[1], b[3]), max(b[1], b[3])
    else:
        a_min_x, a_max_x = a[0] - a[2] / F(2), a[0] + a[2] / F(2)
        b_min_x, b_max_x = b[0] - b[2] / F(2), b[0] + b[2] / F(2)
    min_x, max_x = max(a_min_x, b_min_x), min(a_max_x, b_max_x)
    if max_x <= min_x:
        return False
    if not center:
        a_min_y, a_max_y = min(a[0], a[2]), max(a[0], a[2])
        b_min_y, b_max_y = min(b[0], b[2]), max(b[0], b[2])
    else:
        a_min_y, a_max_y = a[1] - a[3] / F(2), a[1] + a[3] / F(2)
        b_min_y, b_max_y = b[1] - b[3] / F(2), b[1] + b[3] / F(2)
    min_y, max_y = max(a_min_y, b_min_y), min(a_max_y, b_max_y)
    if max_y <= min_y:
        return False
    intersection = F((max_x - min_x) * (max_y - min_y))
    if intersection <= 0:
        return False
    area_a = F((a_max_x - a_min_x) * (a_max_y - a_min_y))
    area_b = F((b_max_x - b_min_x) * (b_max_y - b_min_y))
    union = F(F(area_a + area_b) - intersection)
    if area_a <= 0 or area_b <= 0 or union <= 0:
        return False
    return F(intersection / union) > threshold


def reference(boxes, scores, limit, iou, score_threshold, center):
    rows = []
    for b in range(scores.shape[0]):
        for c in range(scores.shape[1]):
            s = scores[b, c]
            order = [i for i in range(len(s)) if not np.isnan(s[i]) and
                     (score_threshold is None or s[i] > score_threshold)]
            # Decreasing score, equal scores by index.
            order.sort(key=lambda i: (-s[i], i))
            chosen = []
            for i in order:
                if len(chosen) == limit:
                    break
                if not any(suppress_by_iou(boxes[b, k], boxes[b, i], center,
                                           F(iou)) for k in chosen):
                    chosen.append(i)
                    rows.append([b, c, i])
    return np.array(rows, np.int64).reshape(-1, 3)


def make_model(boxes_shape, scores_shape, limit, iou, score_threshold,
               center, as_inputs=False):
    from onnx import TensorProto, helper
    names, initializers, inputs = ["boxes", "scores"], [], [
        helper.make_tensor_value_info("boxes", TensorProto.FLOAT,
                                      boxes_shape),
        helper.make_tensor_value_info("scores", TensorProto.FLOAT,
                                      scores_shape)]
    for name, kind, value in [
            ("max_output", TensorProto.INT64, limit),
            ("iou", TensorProto.FLOAT, iou),
            ("score_threshold", TensorProto.FLOAT, score_threshold)]:
        if value is None:
            names.append("")
            continue
        names.append(name)
        if as_inputs:
            inputs.append(helper.make_tensor_value_info(name, kind, [1]))
        else:
            initializers.append(helper.make_tensor(name, kind, [1], [value]))
    while names and names[-1] == "":
        names.pop()
    node = helper.make_node("NonMaxSuppression", names, ["selected"],
                            center_point_box=int(center))
    graph = helper.make_graph(
        [node], "nms", inputs,
        [helper.make_tensor_value_info("selected", TensorProto.INT64,
                                       ["n", 3])],
        initializer=initializers)
    return helper.make_model(graph,
                             opset_imports=[helper.make_opsetid("", 11)])


def main():
    rng = np.random.default_rng(11)
    # Two batches of 12 boxes in clusters, so that some overlap a lot.
    centres = rng.uniform(0, 10, (2, 4, 2)).astype(F)
    corners = np.zeros((2, 12, 4), F)
    for b in range(2):
        for i in range(12):
            y, x = centres[b, i % 4] + rng.normal(0, 0.4, 2).astype(F)
            h, w = rng.uniform(1, 3, 2).astype(F)
            corners[b, i] = [y, x, y + h, x + w]
    flipped = corners.copy()
    flipped[:, ::3] = corners[:, ::3][..., [2, 3, 0, 1]]
    centre_boxes = np.stack([
        (corners[..., 1] + corners[..., 3]) / 2,
        (corners[..., 0] + corners[..., 2]) / 2,
        corners[..., 3] - corners[..., 1],
        corners[..., 2] - corners[..., 0]], axis=-1).astype(F)
    scores = rng.uniform(0, 1, (2, 3, 12)).astype(F)
    ties = scores.copy()
    ties[:, :, 4:8] = F(0.5)
    nans = scores.copy()
    nans[0, 1, [0, 5]] = np.nan
    identical = np.tile(corners[:, :1], (1, 12, 1))

    cases = []
    for name, boxes, s, limit, iou, threshold, center, as_inputs in [
            ("corners", corners, scores, 5, 0.3, None, False, False),
            ("corners_flipped_threshold", flipped, scores, 4, 0.2, 0.4,
             False, False),
            ("centre_points", centre_boxes, scores, 6, 0.25, 0.1, True,
             False),
            ("limit_above_boxes", corners, scores, 100, 0.5, None, False,
             False),
            ("no_limit", corners, scores, None, None, None, False, False),
            ("equal_scores", corners, ties, 12, 0.4, None, False, False),
            ("identical_boxes", identical, scores, 3, 0.5, None, False,
             False),
            ("nan_scores", corners, nans, 12, 0.3, None, False, False),
            ("all_under_threshold", corners, scores, 5, 0.3, 2.0, False,
             False),
            ("limits_as_inputs", corners, scores, 3, 0.35, 0.2, False,
             True),
    ]:
        model = make_model(list(boxes.shape), list(s.shape), limit, iou,
                           threshold, center, as_inputs)
        inputs = {"boxes": boxes, "scores": s}
        if as_inputs:
            inputs.update(max_output=np.array([limit], np.int64),
                          iou=np.array([iou], F),
                          score_threshold=np.array([threshold], F))
        want = reference(boxes, s, limit or 0, iou or 0.0,
                         None if threshold is None else F(threshold), center)
        cases.append((name, model, inputs, {"selected": want}, exact))
    return run_cases(sys.argv[1], sys.argv[2], cases)


if __name__ == "__main__":
    sys.exit(main())
