//===- GraphShapeOps.td - Data movement ops of any type ----*- tablegen -*-===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Ops that move elements without computing on them: slicing, gathering,
// broadcasting, padding and resizing. They take any element type (bool,
// integers, floats); resize computes, on floats only. Indices read from
// tensors are clamped into range, so that a bad index reads a valid element
// rather than memory outside the tensor. Included from GraphOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPH_DIALECT_GRAPH_IR_GRAPHSHAPEOPS_TD
#define GRAPH_DIALECT_GRAPH_IR_GRAPHSHAPEOPS_TD

def Graph_SliceOp : Graph_ComputeOp<"slice"> {
  let summary = "strided slice: output[i] = x[starts + i * steps]";
  let description = [{
    One start and one non-zero step per dimension; a negative step walks
    backwards. The result's shape gives the number of elements taken along
    each dimension, and every index read lies inside `x`.
  }];
  let arguments = (ins AnyTensor:$x, DenseI64ArrayAttr:$starts,
                   DenseI64ArrayAttr:$steps);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$x attr-dict `:` functional-type(operands, results)";
}

def Graph_GatherOp : Graph_ComputeOp<"gather"> {
  let summary = "takes slices of `data` along `axis` at `indices`";
  let description = [{
    `output[a..., i..., b...] = data[a..., indices[i...], b...]`, where `a`
    spans the dimensions before `axis` and `b` those after: the result has
    shape `data[:axis] + indices + data[axis+1:]`. `indices` is i32 or i64; a
    negative index counts from the end; one outside [-D, D) is clamped.
  }];
  let arguments = (ins AnyTensor:$data, AnyTensor:$indices,
                   DefaultValuedAttr<Graph_I64Attr, "0">:$axis);
  let results = (outs AnyTensor:$output);
  let assemblyFormat =
      "$data `,` $indices attr-dict `:` functional-type(operands, results)";
}

def Graph_GatherElementsOp : Graph_ComputeOp<"gather_elements"> {
  let summary = "output[i] = data[i with the axis index replaced by indices[i]]";
  let description = [{
    `indices` (i32 or i64) has the rank of `data` and the result's shape; on
    every dimension but `axis` it is no larger than `data`. Negative indices
    count from the end; out-of-range ones are clamped.
  }];
  let arguments = (ins AnyTensor:$data, AnyTensor:$indices,
                   DefaultValuedAttr<Graph_I64Attr, "0">:$axis);
  let results = (outs AnyTensor:$output);
  let assemblyFormat =
      "$data `,` $indices attr-dict `:` functional-type(operands, results)";
}

def Graph_ScatterElementsOp : Graph_ComputeOp<"scatter_elements"> {
  let summary = "data with updates written at indices along axis";
  let description = [{
    The result is `data`, then for each element `i` of `updates` (in row-major
    order) `output[i with the axis index replaced by indices[i]]` becomes
    `updates[i]` (`reduction` "none"), or is combined with it ("add", "mul",
    "max", "min"). Negative indices count from the end; out-of-range ones are
    clamped.
  }];
  let arguments = (ins AnyTensor:$data, AnyTensor:$indices, AnyTensor:$updates,
                   DefaultValuedAttr<Graph_I64Attr, "0">:$axis,
                   DefaultValuedAttr<StrAttr, "\"none\"">:$reduction);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $data `,` $indices `,` $updates attr-dict `:`
    functional-type(operands, results)
  }];
}

def Graph_BroadcastOp : Graph_ComputeOp<"broadcast"> {
  let summary = "x broadcast (NumPy rules) to the result's shape";
  let arguments = (ins AnyTensor:$x);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$x attr-dict `:` functional-type(operands, results)";
}

def Graph_PadOp : Graph_ComputeOp<"pad"> {
  let summary = "pads (or, with negative pads, crops) every dimension";
  let description = [{
    `pads` is [begin_0, ..., begin_n-1, end_0, ..., end_n-1]; a negative pad
    removes elements. `mode` "constant" fills with `value` (a rank-0 tensor of
    the element type; zero when absent), "edge" repeats the border element,
    "reflect" mirrors without repeating it.
  }];
  let arguments = (ins AnyTensor:$x, Optional<AnyTensor>:$value,
                   DenseI64ArrayAttr:$pads,
                   DefaultValuedAttr<StrAttr, "\"constant\"">:$mode);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $x (`,` $value^)? attr-dict `:` functional-type(operands, results)
  }];
}

def Graph_ResizeOp : Graph_ComputeOp<"resize"> {
  let summary = "resizes the dimensions by interpolation, as ONNX Resize";
  let description = [{
    Each dimension whose size changes (or whose scale is not 1) is
    interpolated independently. For output index `o` of a dimension with
    input size `I`, output size `O` and scale `s`, the source coordinate is
    given by `coordinate_transformation_mode` (half_pixel,
    pytorch_half_pixel, align_corners, asymmetric, half_pixel_symmetric,
    tf_half_pixel_for_nn).
    `mode` "nearest" takes the input element at that coordinate rounded by
    `nearest_mode` (round_prefer_floor, round_prefer_ceil, floor, ceil) and
    clamped; "linear" interpolates between the two neighbours, "cubic"
    between four with coefficient `cubic_coeff_a` (`exclude_outside` drops
    and renormalizes the taps outside the input). Taps outside the input
    are clamped to its border. Float element types.
  }];
  let arguments = (ins AnyTensor:$x, DenseF64ArrayAttr:$scales,
                   DefaultValuedAttr<StrAttr, "\"nearest\"">:$mode,
                   DefaultValuedAttr<StrAttr, "\"half_pixel\"">:
                       $coordinate_transformation_mode,
                   DefaultValuedAttr<StrAttr, "\"round_prefer_floor\"">:
                       $nearest_mode,
                   DefaultValuedAttr<F32Attr, "-0.75f">:$cubic_coeff_a,
                   UnitAttr:$exclude_outside);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$x attr-dict `:` functional-type(operands, results)";
}

def Graph_GridSampleOp : Graph_ComputeOp<"grid_sample"> {
  let summary = "samples an image at the positions of a grid, as ONNX GridSample";
  let description = [{
    `x` is [N, C, H, W], `grid` [N, Ho, Wo, 2] of positions (x, y)
    normalized to [-1, 1]; the result is [N, C, Ho, Wo]. A position becomes
    the pixel coordinate `(x + 1) / 2 * (W - 1)` with `align_corners`
    (-1 and 1 at the centres of the corner pixels), else
    `((x + 1) * W - 1) / 2` (at their outer edges); y likewise with H.
    `mode` linear interpolates between the 2 x 2 pixels around it, nearest
    takes the pixel at the coordinate rounded half to even, cubic the 4 x 4
    around it with Keys' coefficients (a = -0.75). A coordinate outside
    [-0.5, W - 0.5] ([0, W - 1] with `align_corners`) is first clamped to
    [0, W - 1] with `padding` border, or reflected about those bounds with
    reflection; then the pixels the interpolation reads outside the image
    are 0 (zeros), the nearest border pixel (border) or the reflected pixel
    (reflection). Float element types.
  }];
  let arguments = (ins AnyTensor:$x, AnyTensor:$grid,
                   DefaultValuedAttr<Graph_SampleModeAttr,
                                     "SampleMode::linear">:$mode,
                   DefaultValuedAttr<Graph_SamplePaddingAttr,
                                     "SamplePadding::zeros">:$padding,
                   UnitAttr:$align_corners);
  let results = (outs AnyTensor:$output);
  let assemblyFormat =
      "$x `,` $grid attr-dict `:` functional-type(operands, results)";
}

def Graph_RoiAlignOp : Graph_ComputeOp<"roi_align"> {
  let summary = "pools regions of an image by bilinear samples, as ONNX RoiAlign";
  let description = [{
    `x` is [N, C, H, W], `rois` [R, 4] regions (x1, y1, x2, y2) in the
    coordinates of the image before `spatial_scale`, `batch_indices` [R]
    the image of each region; the result is [R, C, output_height,
    output_width]. A region scaled by `spatial_scale` (and shifted by -0.5
    with `half_pixel`; without it its sides are at least 1) is divided
    into output_height x output_width bins, and each bin sampled on a grid
    of `sampling_ratio` x `sampling_ratio` points (0: ceil(side of the bin)
    points along each side, from the region's values, at most 1024, none
    for an infinite side) at the centres of the grid's cells. A sample is the bilinear
    interpolation of the four pixels around it, clamped onto the image
    when within one pixel of it, and 0 farther out. `mode` avg gives the
    mean of the samples (over at least one), max the largest of the four
    weighted pixels of any sample (ONNX Runtime's definition), 0 for a bin
    without samples. A batch index outside [0, N) reads the nearest image.
    Float element types; `batch_indices` i32 or i64.
  }];
  let arguments = (ins AnyTensor:$x, AnyTensor:$rois, AnyTensor:$batch_indices,
                   DefaultValuedAttr<Graph_RoiAlignModeAttr,
                                     "RoiAlignMode::avg">:$mode,
                   DefaultValuedAttr<Graph_I64Attr, "1">:$output_height,
                   DefaultValuedAttr<Graph_I64Attr, "1">:$output_width,
                   DefaultValuedAttr<Graph_I64Attr, "0">:$sampling_ratio,
                   DefaultValuedAttr<F32Attr, "1.0f">:$spatial_scale,
                   UnitAttr:$half_pixel);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$x `,` $rois `,` $batch_indices attr-dict `:` "
                       "functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Ops whose result size the data decides
//===----------------------------------------------------------------------===//
//
// Their result has its bound's static shape (the most elements the operands
// allow) and the extent that a run finds comes beside it as a tensor<i64>:
// the elements past the extent are zeros. docs/architecture.md ("Outputs of
// run-time size") says how the extent reaches the caller.

def Graph_NonZeroOp : Graph_ComputeOp<"nonzero"> {
  let summary = "the indices of the nonzero elements of `x`, in C order";
  let description = [{
    `indices` (i64) has shape [rank(x), N] with N the number of elements of
    `x` (the bound): column j holds the index of the j-th nonzero element of
    `x` in row-major order for j < `count`, and zeros from `count` on.
    `count` (a tensor<i64> of rank 0) is the number of nonzero elements, the
    run-time extent of `indices`'s dimension 1. NaN is nonzero. `x` has rank
    >= 1 and any element type.
  }];
  let arguments = (ins AnyTensor:$x);
  let results = (outs AnyTensor:$indices, AnyTensor:$count);
  let assemblyFormat = "$x attr-dict `:` functional-type(operands, results)";
}

def Graph_UniqueOp : Graph_Op<"unique", [Pure]> {
  let summary = "the distinct rows of a matrix, where each first occurs, "
                "where each row went and how often (ONNX Unique)";
  let description = [{
    `x` is [N, M]: N rows of M elements (the importer makes them of ONNX
    Unique's elements or slices). The distinct rows, `count` of them (a
    tensor<i64> of rank 0, the run-time extent of dimension 0 of `values`,
    `indices` and `counts`), are the first `count` rows of `values` (the
    rest zero): in ascending lexicographic order with `sorted`, in the order
    they first occur otherwise. `indices[k]` is the row of `x` where
    distinct row k first occurs, `counts[k]` how many rows of `x` equal it,
    and `inverse[i]` the distinct row that row i of `x` equals. Rows are
    equal when their elements compare equal (so 0.0 and -0.0 are one row);
    any element type.
  }];
  let arguments = (ins AnyTensor:$x, UnitAttr:$sorted);
  let results = (outs AnyTensor:$values, AnyTensor:$indices,
                      AnyTensor:$inverse, AnyTensor:$counts,
                      AnyTensor:$count);
  let assemblyFormat = "$x attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Graph_NonMaxSuppressionOp : Graph_ComputeOp<"non_max_suppression"> {
  let summary = "boxes selected greedily by score, per batch and class";
  let description = [{
    ONNX NonMaxSuppression as ONNX Runtime computes it. `boxes` [B, N, 4]
    (f32) are corners [y1, x1, y2, x2] in either order, or with
    `center_point_box` [x_center, y_center, width, height]; `scores`
    [B, C, N] (f32). For each batch b and class c in order, the boxes whose
    score is above `score_threshold` (all but NaN without one) are taken
    by decreasing score (equal scores by index), and a box is selected
    unless its intersection over union with a box already selected for b
    and c is above `iou_threshold`, until `max_output_boxes_per_class` are.

    `selected` (i64) has shape [B * C * min(max_output_boxes_per_class, N),
    3], the bound: its first `count` rows are [b, c, box index] in that
    order, the rest zeros. `count` (a tensor<i64> of rank 0) is the
    run-time extent of its dimension 0.
  }];
  let arguments = (ins AnyTensor:$boxes, AnyTensor:$scores,
                   Graph_I64Attr:$max_output_boxes_per_class,
                   DefaultValuedAttr<F32Attr, "0.0f">:$iou_threshold,
                   OptionalAttr<F32Attr>:$score_threshold,
                   UnitAttr:$center_point_box);
  let results = (outs AnyTensor:$selected, AnyTensor:$count);
  let assemblyFormat = "$boxes `,` $scores attr-dict `:` "
                       "functional-type(operands, results)";
}

def Graph_ConcatPrefixesOp
    : Graph_ComputeOp<"concat_prefixes", [SameVariadicOperandSize]> {
  let summary = "the first `counts[i]` slices of each input along `axis`, "
                "concatenated";
  let description = [{
    Concatenates values of run-time size along their dimension of run-time
    size: `inputs[i]` (its bound) holds `counts[i]` (a tensor<i64> of rank
    0, clamped into [0, bound]) valid slices along `axis`. `output` has the
    bounds' sum along `axis`: the valid slices of each input in order, then
    zeros. `count` is the sum of the counts, its extent. The inputs have
    one element type and the same sizes along the other dimensions.
  }];
  let arguments = (ins Variadic<AnyTensor>:$inputs,
                   Variadic<AnyTensor>:$counts, Graph_I64Attr:$axis);
  let results = (outs AnyTensor:$output, AnyTensor:$count);
  let assemblyFormat = "$inputs `counts` $counts attr-dict `:` "
                       "functional-type(operands, results)";
}

#endif // GRAPH_DIALECT_GRAPH_IR_GRAPHSHAPEOPS_TD
