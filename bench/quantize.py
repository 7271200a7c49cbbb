#!/usr/bin/python3
"""A small static quantizer: a float ONNX model in, its QDQ form out.

  quantize.py MODEL.onnx INPUT.npy OUT.onnx [--build DIR] [--calibration N]

Writes what onnxruntime.quantization.quantize_static writes by default in the
QDQ form (there is no ONNX Runtime Python package here), for the ops that
carry the work:
  - Conv, MatMul and Gemm whose weights are initializers get them as int8,
    symmetric, one scale per output channel (Conv: per filter; MatMul: per
    column; Gemm: per column of B'), each read through DequantizeLinear;
    a Conv's or Gemm's bias becomes int32 with scale x_scale * w_scale;
  - every activation those ops read or write gets a QuantizeLinear ->
    DequantizeLinear pair: uint8, asymmetric, its range the MinMax of the
    tensor over the calibration inputs (INPUT.npy, then N - 1 random
    normal inputs of the same shape), widened to contain 0.
As quantize_static's pre-processing (quant_pre_process) does first,
transposes of initializers are folded (torch.onnx writes nn.Linear as
MatMul by Transpose(W) without constant folding) and BatchNormalization
folds into the Conv before it; a Relu or Clip that alone reads an op's
result is quantized after it, not before. The ranges are measured by running the float model with
those tensors as extra outputs through graph-run -O3. The model's one input
must be float.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

QUANTIZED_OPS = ("Conv", "MatMul", "Gemm")


def weight_axis(node, weight):
    """The axis of one scale per output channel, or None when the weight is
    not a matrix or filter bank this quantizer knows."""
    if node.op_type == "Conv" and weight.ndim >= 3:
        return 0
    if node.op_type == "MatMul" and weight.ndim == 2:
        return 1
    if node.op_type == "Gemm" and weight.ndim == 2:
        trans_b = next((a.i for a in node.attribute if a.name == "transB"), 0)
        return 0 if trans_b else 1
    return None


def quantize_weight(w, axis):
    """int8, symmetric, one scale per index of `axis`."""
    others = tuple(d for d in range(w.ndim) if d != axis)
    scale = (np.abs(w).max(axis=others) / 127).astype(np.float32)
    scale[scale == 0] = 1
    shape = [1] * w.ndim
    shape[axis] = -1
    q = np.clip(np.rint(w / scale.reshape(shape)), -127, 127).astype(np.int8)
    return q, scale


def activation_params(low, high):
    """uint8 scale and zero point of the range [low, high] widened to 0."""
    low, high = min(low, 0.0), max(high, 0.0)
    scale = np.float32((high - low) / 255) if high > low else np.float32(1)
    zero = np.uint8(np.clip(np.rint(-low / scale), 0, 255))
    return scale, zero


def fold_weight_transposes(model):
    """Transposes of initializers become initializers (what
    quant_pre_process's optimization does first): torch.onnx without
    constant folding writes nn.Linear as MatMul(x, Transpose(W))."""
    inits = {i.name: i for i in model.graph.initializer}
    kept = []
    for node in model.graph.node:
        if node.op_type == "Transpose" and node.input[0] in inits:
            data = numpy_helper.to_array(inits[node.input[0]])
            perm = next((list(a.ints) for a in node.attribute
                         if a.name == "perm"), None)
            folded = numpy_helper.from_array(
                np.ascontiguousarray(np.transpose(data, perm)),
                node.output[0])
            model.graph.initializer.append(folded)
            inits[folded.name] = folded
        else:
            kept.append(node)
    del model.graph.node[:]
    model.graph.node.extend(kept)


def fold_batch_norms(model):
    """A BatchNormalization that is the only reader of a Conv with
    initializer weights folds into them (quant_pre_process's fusion, so that
    the quantized tensor is the one the folded model computes)."""
    inits = {i.name: i for i in model.graph.initializer}
    readers = {}
    for node in model.graph.node:
        for name in node.input:
            readers.setdefault(name, []).append(node)
    outputs = {o.name for o in model.graph.output}
    producer = {o: n for n in model.graph.node for o in n.output}
    dropped = set()
    for bn in model.graph.node:
        if bn.op_type != "BatchNormalization" or len(bn.output) != 1:
            continue
        conv = producer.get(bn.input[0])
        if conv is None or conv.op_type != "Conv" or \
                len(readers.get(conv.output[0], [])) != 1 or \
                conv.output[0] in outputs or \
                not all(n in inits for n in list(conv.input[1:]) +
                        list(bn.input[1:])):
            continue
        eps = next((a.f for a in bn.attribute if a.name == "epsilon"), 1e-5)
        gamma, beta, mean, var = (numpy_helper.to_array(inits[n])
                                  .astype(np.float64) for n in bn.input[1:])
        w = numpy_helper.to_array(inits[conv.input[1]]).astype(np.float64)
        b = numpy_helper.to_array(inits[conv.input[2]]).astype(np.float64) \
            if len(conv.input) > 2 else np.zeros(w.shape[0])
        factor = gamma / np.sqrt(var + eps)
        w = (w * factor.reshape([-1] + [1] * (w.ndim - 1))).astype(np.float32)
        b = ((b - mean) * factor + beta).astype(np.float32)
        name = conv.name or conv.output[0]
        model.graph.initializer.extend([
            numpy_helper.from_array(w, name + "_folded_weight"),
            numpy_helper.from_array(b, name + "_folded_bias")])
        del conv.input[1:]
        conv.input.extend([name + "_folded_weight", name + "_folded_bias"])
        conv.output[0] = bn.output[0]
        dropped.add(id(bn))
    kept = [n for n in model.graph.node if id(n) not in dropped]
    del model.graph.node[:]
    model.graph.node.extend(kept)


def plan(model):
    """The quantized nodes with their weight axes, and the activations to
    calibrate (in the order met)."""
    inits = {i.name: i for i in model.graph.initializer}
    nodes, activations = [], []
    for node in model.graph.node:
        if node.op_type not in QUANTIZED_OPS or len(node.input) < 2 or \
                node.input[1] not in inits:
            continue
        if node.op_type == "Gemm" and any(
                a.name == "transA" and a.i for a in node.attribute):
            continue
        axis = weight_axis(node, numpy_helper.to_array(inits[node.input[1]]))
        if axis is None:
            continue
        nodes.append((node, axis))
        # A Relu or Clip that alone reads the result is quantized after it
        # (quantize_static's fusion of the activation into the op).
        output = node.output[0]
        readers = [n for n in model.graph.node if output in n.input]
        if len(readers) == 1 and readers[0].op_type in ("Relu", "Clip"):
            output = readers[0].output[0]
        for name in (node.input[0], output):
            if name not in activations and name not in inits:
                activations.append(name)
    return nodes, activations


def calibrate(model, activations, inputs, graph_run, work):
    """MinMax of each activation over `inputs`, by graph-run -O3."""
    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    outputs = {o.name for o in probe.graph.output}
    for name in activations:
        if name not in outputs:
            probe.graph.output.append(
                helper.make_tensor_value_info(name, TensorProto.FLOAT, None))
    path = os.path.join(work, "probe.onnx")
    onnx.save(probe, path)
    input_name = model.graph.input[0].name
    ranges = {name: [np.inf, -np.inf] for name in activations}
    for number, value in enumerate(inputs):
        inp = os.path.join(work, "calibration%d.npy" % number)
        np.save(inp, value)
        files = {name: os.path.join(work, "range%d.%d.npy" % (number, i))
                 for i, name in enumerate(activations)}
        cmd = [graph_run, path, "-O3", "--no-cache",
               "--input", "%s=%s" % (input_name, inp)]
        cmd += ["--output=%s=%s" % item for item in files.items()]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit("calibration failed: " + run.stderr.strip())
        for name, file in files.items():
            data = np.load(file)
            ranges[name][0] = min(ranges[name][0], float(data.min()))
            ranges[name][1] = max(ranges[name][1], float(data.max()))
    return ranges


def topological(nodes, available):
    """`nodes` in an order where every input is made before it is read."""
    made = set(available)
    ordered, pending = [], list(nodes)
    while pending:
        left = []
        for node in pending:
            if all(not i or i in made for i in node.input):
                ordered.append(node)
                made.update(node.output)
            else:
                left.append(node)
        if len(left) == len(pending):
            sys.exit("the graph has a cycle or an unknown input")
        pending = left
    return ordered


def quantize(model, nodes, ranges):
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    new_inits, new_nodes = [], []
    params = {}
    for name, (low, high) in ranges.items():
        scale, zero = activation_params(low, high)
        params[name] = scale
        s, z = name + "_scale", name + "_zero_point"
        new_inits += [numpy_helper.from_array(np.array(scale), s),
                      numpy_helper.from_array(np.array(zero), z)]
        new_nodes += [
            helper.make_node("QuantizeLinear", [name, s, z],
                             [name + "_quantized"]),
            helper.make_node("DequantizeLinear",
                             [name + "_quantized", s, z],
                             [name + "_dequantized"])]
    # Every reader of a calibrated activation reads it dequantized.
    for node in graph.node:
        for i, name in enumerate(node.input):
            if name in ranges:
                node.input[i] = name + "_dequantized"
    for node, axis in nodes:
        weight = numpy_helper.to_array(inits[node.input[1]])
        q, scale = quantize_weight(weight, axis)
        base = node.input[1]
        new_inits += [numpy_helper.from_array(q, base + "_quantized"),
                      numpy_helper.from_array(scale, base + "_scale"),
                      numpy_helper.from_array(
                          np.zeros(scale.shape, np.int8),
                          base + "_zero_point")]
        new_nodes.append(helper.make_node(
            "DequantizeLinear", [base + "_quantized", base + "_scale",
                                 base + "_zero_point"],
            [base + "_dequantized_" + node.name], axis=axis))
        node.input[1] = base + "_dequantized_" + node.name
        # The bias in int32, at the scale of the products it is added to.
        activation = node.input[0][:-len("_dequantized")]
        if len(node.input) > 2 and node.input[2] in inits and \
                numpy_helper.to_array(inits[node.input[2]]).ndim == 1 and \
                activation in params:
            bias = numpy_helper.to_array(inits[node.input[2]])
            if bias.shape == scale.shape:
                bias_scale = (params[activation] * scale).astype(np.float32)
                bq = np.rint(bias / bias_scale).astype(np.int32)
                b = node.input[2]
                new_inits += [
                    numpy_helper.from_array(bq, b + "_quantized"),
                    numpy_helper.from_array(bias_scale, b + "_scale_" +
                                            node.name),
                    numpy_helper.from_array(np.zeros(bq.shape, np.int32),
                                            b + "_zero_point")]
                new_nodes.append(helper.make_node(
                    "DequantizeLinear", [b + "_quantized",
                                         b + "_scale_" + node.name,
                                         b + "_zero_point"],
                    [b + "_dequantized_" + node.name], axis=0))
                node.input[2] = b + "_dequantized_" + node.name
    available = [i.name for i in graph.input] + list(inits) + \
        [i.name for i in new_inits]
    ordered = topological(list(graph.node) + new_nodes, available)
    del graph.node[:]
    graph.node.extend(ordered)
    # Initializers no node reads any more (the float weights) are dropped.
    read = {i for node in graph.node for i in node.input}
    kept = [i for i in graph.initializer if i.name in read]
    del graph.initializer[:]
    graph.initializer.extend(kept + new_inits)
    return model


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("input")
    parser.add_argument("out")
    parser.add_argument("--build", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build"))
    parser.add_argument("--calibration", type=int, default=4,
                        help="calibration inputs (default 4)")
    args = parser.parse_args()
    model = onnx.load(args.model)
    fold_weight_transposes(model)
    fold_batch_norms(model)
    nodes, activations = plan(model)
    if not nodes:
        sys.exit("%s: no Conv, MatMul or Gemm with initializer weights" %
                 args.model)
    first = np.load(args.input)
    rng = np.random.default_rng(0)
    inputs = [first] + [rng.standard_normal(first.shape).astype(first.dtype)
                        for _ in range(args.calibration - 1)]
    with tempfile.TemporaryDirectory(prefix="quantize-") as work:
        ranges = calibrate(model, activations, inputs,
                           os.path.join(args.build, "bin", "graph-run"), work)
    onnx.save(quantize(model, nodes, ranges), args.out)
    print("%s: %d ops quantized, %d activations calibrated on %d inputs" % (
        args.out, len(nodes), len(activations), len(inputs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
