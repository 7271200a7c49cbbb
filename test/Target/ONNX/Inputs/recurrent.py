#!/usr/bin/python3
"""RNN, GRU and LSTM for recurrent.test: recurrent.py GRAPH_RUN DIR.

The options ONNX's backend tests leave out, each case through graph-run at
-O0 and -O3 against a NumPy layer written here from the ONNX operator
definitions (sequence_lens in both directions, clip, activations with
alpha and beta, input_forget, peepholes, both GRU reset forms, batch-first
layout), and PyTorch's own nn.LSTM, nn.GRU and nn.RNN exported with
torch.onnx against PyTorch's outputs.
"""
import io
import sys
import warnings

import numpy as np
from onnx import TensorProto, helper, numpy_helper

sys.dont_write_bytecode = True
from case_runner import close, run_cases  # noqa: E402


# Within 1e-5 absolute and 1e-4 relative of the NumPy reference.
WITHIN = close(1e-4, 1e-5)

ACTIVATIONS = {
    "Sigmoid": lambda x, a, b: 1 / (1 + np.exp(-x)),
    "Tanh": lambda x, a, b: np.tanh(x),
    "Relu": lambda x, a, b: np.maximum(x, 0),
    "Affine": lambda x, a, b: a * x + b,
    "LeakyRelu": lambda x, a, b: np.where(x >= 0, x, a * x),
    "ThresholdedRelu": lambda x, a, b: np.where(x > a, x, 0),
    "ScaledTanh": lambda x, a, b: a * np.tanh(b * x),
    "HardSigmoid": lambda x, a, b: np.clip(a * x + b, 0, 1),
    "Elu": lambda x, a, b: np.where(x >= 0, x, a * (np.exp(x) - 1)),
    "Softsign": lambda x, a, b: x / (1 + np.abs(x)),
    "Softplus": lambda x, a, b: np.log1p(np.exp(x)),
}
DEFAULTS = {"Affine": (1.0, 0.0), "LeakyRelu": (0.01, 0.0),
            "ThresholdedRelu": (1.0, 0.0), "ScaledTanh": (1.0, 1.0),
            "HardSigmoid": (0.2, 0.5), "Elu": (1.0, 0.0)}
USES = {"Affine": 2, "ScaledTanh": 2, "HardSigmoid": 2, "LeakyRelu": 1,
        "ThresholdedRelu": 1, "Elu": 1}


def functions(names, alphas, betas):
    """ONNX's rule: alpha and beta consumed in order by the functions that
    take them."""
    alphas, betas, out = list(alphas), list(betas), []
    for name in names:
        a, b = DEFAULTS.get(name, (0.0, 0.0))
        if USES.get(name, 0) >= 1 and alphas:
            a = alphas.pop(0)
        if USES.get(name, 0) >= 2 and betas:
            b = betas.pop(0)
        out.append(lambda x, f=ACTIVATIONS[name], a=a, b=b: f(x, a, b))
    return out


def reference(cell, x, w, r, b=None, lens=None, h0=None, c0=None, p=None,
              direction="forward", activations=None, alphas=(), betas=(),
              clip=None, lbr=0, input_forget=0):
    """The layer in float64, time first, from the ONNX operator pages."""
    S, B, _ = x.shape
    D, GH, _ = w.shape
    G = {"RNN": 1, "GRU": 3, "LSTM": 4}[cell]
    H = GH // G
    per = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"],
           "LSTM": ["Sigmoid", "Tanh", "Tanh"]}[cell]
    names = activations or per * D
    if len(names) == len(per) and D == 2:
        names = names * 2
    fs = functions(names, alphas, betas)
    lens = np.full(B, S) if lens is None else lens
    b = np.zeros((D, 2 * GH)) if b is None else b.astype(np.float64)
    h0 = np.zeros((D, B, H)) if h0 is None else h0.astype(np.float64)
    c0 = np.zeros((D, B, H)) if c0 is None else c0.astype(np.float64)
    p = np.zeros((D, 3 * H)) if p is None else p.astype(np.float64)
    x, w, r = (v.astype(np.float64) for v in (x, w, r))
    cl = (lambda v: np.clip(v, -clip, clip)) if clip is not None else (
        lambda v: v)
    y = np.zeros((S, D, B, H))
    yh, yc = np.zeros((D, B, H)), np.zeros((D, B, H))
    for d in range(D):
        reverse = direction == "reverse" or d == 1
        f, g, hf = (fs[d * len(per) + i] if i < len(per) else None
                    for i in range(3))
        wb, rb = b[d, :GH], b[d, GH:]
        for n in range(B):
            h, c = h0[d, n].copy(), c0[d, n].copy()
            steps = range(lens[n] - 1, -1, -1) if reverse else range(lens[n])
            for t in steps:
                xw = w[d] @ x[t, n] + wb
                hr = r[d] @ h + rb
                if cell == "RNN":
                    h = f(cl(xw + hr))
                elif cell == "GRU":
                    z = f(cl(xw[:H] + hr[:H]))
                    rr = f(cl(xw[H:2 * H] + hr[H:2 * H]))
                    if lbr:
                        hh = g(cl(xw[2 * H:] + rr * hr[2 * H:]))
                    else:
                        hh = g(cl(xw[2 * H:] + r[d, 2 * H:] @ (rr * h) +
                                  rb[2 * H:]))
                    h = (1 - z) * hh + z * h
                else:
                    pi, po, pf = p[d, :H], p[d, H:2 * H], p[d, 2 * H:]
                    i = f(cl(xw[:H] + hr[:H] + pi * c))
                    fg = 1 - i if input_forget else f(
                        cl(xw[2 * H:3 * H] + hr[2 * H:3 * H] + pf * c))
                    cc = g(cl(xw[3 * H:] + hr[3 * H:]))
                    c = fg * c + i * cc
                    o = f(cl(xw[H:2 * H] + hr[H:2 * H] + po * c))
                    h = o * hf(c)
                y[t, d, n] = h
            yh[d, n], yc[d, n] = h, c
    return y, yh, yc


def case(name, cell, S=5, B=3, I=4, H=6, direction="forward", bias=True,
         lens=None, h0=False, c0=False, peep=False, layout=0, outputs=None,
         seed=0, **attrs):
    rng = np.random.default_rng(seed)
    D = 2 if direction == "bidirectional" else 1
    G = {"RNN": 1, "GRU": 3, "LSTM": 4}[cell]
    f32 = np.float32
    x = rng.standard_normal((S, B, I)).astype(f32)
    w = (rng.standard_normal((D, G * H, I)) * 0.5).astype(f32)
    r = (rng.standard_normal((D, G * H, H)) * 0.5).astype(f32)
    inits = {"W": w, "R": r}
    b = (rng.standard_normal((D, 2 * G * H)) * 0.5).astype(f32) if bias \
        else None
    inputs = {"X": x}
    names = ["X", "W", "R", "B" if bias else ""]
    if bias:
        inits["B"] = b
    names.append("L" if lens is not None else "")
    if lens is not None:
        lens = np.array(lens, np.int32)
        inputs["L"] = lens
    h = (rng.standard_normal((D, B, H))).astype(f32) if h0 else None
    c = (rng.standard_normal((D, B, H))).astype(f32) if c0 else None
    pp = (rng.standard_normal((D, 3 * H)) * 0.5).astype(f32) if peep \
        else None
    names.append("H0" if h0 else "")
    if cell == "LSTM":
        names += ["C0" if c0 else "", "P" if peep else ""]
        if peep:
            inits["P"] = pp
    y, yh, yc = reference(
        cell, x, w, r, b, lens, h, c, pp, direction,
        attrs.get("activations"), attrs.get("activation_alpha", ()),
        attrs.get("activation_beta", ()), attrs.get("clip"),
        attrs.get("linear_before_reset", 0), attrs.get("input_forget", 0))
    expected = {"Y": y, "Y_h": yh, "Y_c": yc}
    if layout:
        inputs["X"] = x.transpose(1, 0, 2).copy()
        expected = {"Y": y.transpose(2, 0, 1, 3), "Y_h": yh.transpose(1, 0, 2),
                    "Y_c": yc.transpose(1, 0, 2)}
        attrs["layout"] = 1
    for key, value in (("H0", h), ("C0", c)):
        if value is not None:
            inputs[key] = value.transpose(1, 0, 2).copy() if layout else value
    outs = outputs or (["Y", "Y_h", "Y_c"] if cell == "LSTM" else
                       ["Y", "Y_h"])
    out_names = [o if o in outs else "" for o in
                 (["Y", "Y_h", "Y_c"] if cell == "LSTM" else ["Y", "Y_h"])]
    while out_names[-1] == "":
        out_names.pop()
    node = helper.make_node(cell, names, out_names, hidden_size=H,
                            direction=direction, **attrs)
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info(k, TensorProto.INT32 if k == "L"
                                       else TensorProto.FLOAT, v.shape)
         for k, v in inputs.items()],
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, None)
         for o in outs],
        [numpy_helper.from_array(v, k) for k, v in inits.items()])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 14)])
    model.ir_version = 8
    want = {o: expected[o].astype(np.float32) for o in outs}
    return (name, model, inputs, want, WITHIN)


def torch_case(name, module, x, seed):
    """A PyTorch module exported by torch.onnx, against its own output."""
    import torch
    warnings.simplefilter("ignore")
    torch.manual_seed(seed)
    module = module.eval()
    with torch.no_grad():
        want = module(torch.from_numpy(x))[0].numpy()
    buffer = io.BytesIO()
    torch.onnx.export(module, (torch.from_numpy(x),), buffer,
                      input_names=["x"], output_names=["y"], opset_version=14)
    import onnx
    model = onnx.load_from_string(buffer.getvalue())
    return (name, model, {"x": x}, {"y": want}, WITHIN)


def main():
    cases = [
        # Rows of different lengths, forward, reverse and both ways.
        case("lstm_lens", "LSTM", lens=[5, 2, 0], h0=True, c0=True),
        case("lstm_lens_reverse", "LSTM", lens=[3, 5, 1], direction="reverse",
             h0=True, c0=True, peep=True),
        case("gru_lens_bidirectional", "GRU", lens=[4, 1, 5],
             direction="bidirectional", h0=True),
        case("rnn_lens_bidirectional", "RNN", lens=[2, 5, 3],
             direction="bidirectional"),
        # clip, activations with their alpha and beta, per direction.
        case("lstm_clip_activations", "LSTM", direction="bidirectional",
             clip=0.7, activations=["HardSigmoid", "LeakyRelu", "Softsign",
                                    "Sigmoid", "ScaledTanh", "Elu"],
             activation_alpha=[0.3, 0.2, 0.9, 1.5], activation_beta=[0.4, 0.8],
             peep=True),
        case("gru_activations", "GRU", activations=["Affine", "Softplus"],
             activation_alpha=[0.5], activation_beta=[0.1], bias=False),
        case("rnn_relu_threshold", "RNN", direction="bidirectional",
             activations=["Relu", "ThresholdedRelu"], activation_alpha=[0.2]),
        # The coupled input and forget gates; GRU's two reset forms.
        case("lstm_input_forget", "LSTM", input_forget=1, h0=True, c0=True),
        case("gru_linear_before_reset", "GRU", linear_before_reset=1,
             direction="reverse", h0=True),
        # Batch first (opset 14's layout), only some outputs asked for.
        case("lstm_batch_first", "LSTM", layout=1, direction="bidirectional",
             h0=True, c0=True, outputs=["Y", "Y_c"]),
        case("gru_batch_first_last_state", "GRU", layout=1, lens=[5, 3, 4],
             outputs=["Y_h"]),
    ]
    import torch
    rng = np.random.default_rng(1)
    torch.manual_seed(0)
    seq = rng.standard_normal((2, 7, 10)).astype(np.float32)
    cases += [
        torch_case("torch_lstm_2layer_bidirectional",
                   torch.nn.LSTM(10, 16, num_layers=2, bidirectional=True,
                                 batch_first=True), seq, 0),
        torch_case("torch_gru_bidirectional",
                   torch.nn.GRU(10, 12, bidirectional=True, batch_first=True),
                   seq, 1),
        torch_case("torch_rnn_relu",
                   torch.nn.RNN(10, 8, nonlinearity="relu", num_layers=2),
                   seq, 2),
    ]
    return run_cases(sys.argv[1], sys.argv[2], cases)


if __name__ == "__main__":
    sys.exit(main())
