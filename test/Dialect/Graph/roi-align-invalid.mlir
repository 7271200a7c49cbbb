// RUN: graph-opt %s -split-input-file -verify-diagnostics

func.func @rois_not_boxes(%x: tensor<1x2x4x5xf32>, %rois: tensor<3x5xf32>, %batch: tensor<3xi64>) {
  // expected-error @+1 {{'graph.roi_align' op operand 'rois' must be [R, 4], but has shape [3, 5]}}
  %0 = graph.roi_align %x, %rois, %batch : (tensor<1x2x4x5xf32>, tensor<3x5xf32>, tensor<3xi64>) -> tensor<3x2x1x1xf32>
  return
}

// -----

func.func @image_rank(%x: tensor<2x4x5xf32>, %rois: tensor<3x4xf32>, %batch: tensor<3xi64>) {
  // expected-error @+1 {{'graph.roi_align' op operand 'x' must be [N, C, H, W], but has shape [2, 4, 5]}}
  %0 = graph.roi_align %x, %rois, %batch : (tensor<2x4x5xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x2x1x1xf32>
  return
}

// -----

func.func @batch_count(%x: tensor<1x2x4x5xf32>, %rois: tensor<3x4xf32>, %batch: tensor<2xi64>) {
  // expected-error @+1 {{'graph.roi_align' op operand 'batch_indices' must be [3], but has shape [2]}}
  %0 = graph.roi_align %x, %rois, %batch : (tensor<1x2x4x5xf32>, tensor<3x4xf32>, tensor<2xi64>) -> tensor<3x2x1x1xf32>
  return
}

// -----

func.func @float_indices(%x: tensor<1x2x4x5xf32>, %rois: tensor<3x4xf32>, %batch: tensor<3xf32>) {
  // expected-error @+1 {{'graph.roi_align' op operand 'batch_indices' must be a statically shaped tensor of indices (i32 or i64), but got 'tensor<3xf32>'}}
  %0 = graph.roi_align %x, %rois, %batch : (tensor<1x2x4x5xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<3x2x1x1xf32>
  return
}

// -----

func.func @mixed_types(%x: tensor<1x2x4x5xf32>, %rois: tensor<3x4xf16>, %batch: tensor<3xi64>) {
  // expected-error @+1 {{'graph.roi_align' op operand 'rois' has element type 'f16', but operand 'x' has 'f32'}}
  %0 = graph.roi_align %x, %rois, %batch : (tensor<1x2x4x5xf32>, tensor<3x4xf16>, tensor<3xi64>) -> tensor<3x2x1x1xf32>
  return
}

// -----

func.func @zero_bins(%x: tensor<1x2x4x5xf32>, %rois: tensor<3x4xf32>, %batch: tensor<3xi64>) {
  // expected-error @+1 {{'graph.roi_align' op output_height and output_width must be >= 1, but are 0 and 1}}
  %0 = graph.roi_align %x, %rois, %batch {output_height = 0} : (tensor<1x2x4x5xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x2x0x1xf32>
  return
}

// -----

func.func @negative_ratio(%x: tensor<1x2x4x5xf32>, %rois: tensor<3x4xf32>, %batch: tensor<3xi64>) {
  // expected-error @+1 {{'graph.roi_align' op sampling_ratio must be >= 0, but is -1}}
  %0 = graph.roi_align %x, %rois, %batch {sampling_ratio = -1} : (tensor<1x2x4x5xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x2x1x1xf32>
  return
}

// -----

func.func @result_shape(%x: tensor<1x2x4x5xf32>, %rois: tensor<3x4xf32>, %batch: tensor<3xi64>) {
  // expected-error @+1 {{'graph.roi_align' op result type 'tensor<3x2x2x2xf32>' does not match the expected 'tensor<3x2x1x2xf32>'}}
  %0 = graph.roi_align %x, %rois, %batch {output_width = 2} : (tensor<1x2x4x5xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x2x2x2xf32>
  return
}

// -----

func.func @unknown_mode(%x: tensor<1x2x4x5xf32>, %rois: tensor<3x4xf32>, %batch: tensor<3xi64>) {
  // expected-error @+2 {{expected ::mlir::graph::RoiAlignMode to be one of: avg, max}}
  // expected-error @+1 {{failed to parse Graph_RoiAlignModeAttr parameter 'value'}}
  %0 = graph.roi_align %x, %rois, %batch {mode = #graph<roi_align_mode mean>} : (tensor<1x2x4x5xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x2x1x1xf32>
  return
}
