#!/usr/bin/python3
"""ONNX DFT and STFT, for spectral.test: spectral.py GRAPH_RUN DIR runs
each case through graph-run at -O0 and -O3 against NumPy's np.fft.

Cases: DFT of real values along an inner axis; of complex values along
another; the inverse; one-sided with dft_length padding the signal and
cutting it; float64; DFT of opset 20 (axis an input); STFT with a frame
length and no window, with a Hann window, and two-sided; MelWeightMatrix
against ONNX's reference algorithm (its test generator's, copied).
"""
import sys

import numpy as np

sys.dont_write_bytecode = True
import case_runner  # noqa: E402
from case_runner import close  # noqa: E402


def tensor(name, array):
    from onnx import numpy_helper
    return numpy_helper.from_array(np.asarray(array), name)


def model(op, inputs, initializers, attrs, opset=17, dtype=np.float32):
    from onnx import TensorProto as T, helper
    kind = T.DOUBLE if dtype == np.float64 else T.FLOAT
    names = [name for name, _ in inputs] + [t.name for t in initializers]
    graph = helper.make_graph(
        [helper.make_node(op, names if op != "STFT" else attrs.pop("order"),
                          ["y"], **attrs)],
        op.lower(),
        [helper.make_tensor_value_info(name, kind, list(shape))
         for name, shape in inputs],
        [helper.make_tensor_value_info("y", kind, None)], initializer=initializers)
    return helper.make_model(graph,
                             opset_imports=[helper.make_opsetid("", opset)])


def complex_of(x):
    return x[..., 0] + 1j * x[..., 1] if x.shape[-1] == 2 else x[..., 0]


def stacked(z, dtype):
    return np.stack([z.real, z.imag], axis=-1).astype(dtype)


def within(want, rtol=1e-4):
    return close(rtol, rtol * max(1.0, float(np.abs(want).max())))


def dft_case(name, x, axis, inverse=0, onesided=0, length=None, opset=17):
    inits = []
    if length is not None:
        inits.append(tensor("dft_length", np.array(length, np.int64)))
    attrs = {"inverse": inverse, "onesided": onesided}
    if opset >= 20:
        if length is None:
            inits.append(tensor("dft_length", np.array(x.shape[axis],
                                                       np.int64)))
        inits.append(tensor("axis", np.array(axis, np.int64)))
    else:
        attrs["axis"] = axis
    z = complex_of(x)
    n = length or x.shape[axis]
    if inverse:
        want = np.fft.ifft(z, n=n, axis=axis)
    elif onesided:
        want = np.fft.rfft(z.real, n=n, axis=axis)
    else:
        want = np.fft.fft(z, n=n, axis=axis)
    want = stacked(want, x.dtype)
    m = model("DFT", [("x", x.shape)], inits, attrs, opset, x.dtype)
    return (name, m, {"x": x}, {"y": want},
            within(want, 1e-10 if x.dtype == np.float64 else 1e-4))


def stft_case(name, signal, step, window=None, frame_length=None,
              onesided=1):
    inits = [tensor("frame_step", np.array(step, np.int64))]
    order = ["signal", "frame_step", "", ""]
    if window is not None:
        inits.append(tensor("window", window))
        order[2] = "window"
    if frame_length is not None:
        inits.append(tensor("frame_length", np.array(frame_length, np.int64)))
        order[3] = "frame_length"
    length = frame_length or len(window)
    frames = (signal.shape[1] - length) // step + 1
    z = complex_of(signal)
    rows = np.stack([z[:, f * step:f * step + length] for f in range(frames)],
                    axis=1)
    if window is not None:
        rows = rows * window
    want = (np.fft.rfft(rows.real, axis=-1) if onesided
            else np.fft.fft(rows, axis=-1))
    want = stacked(want, np.float32)
    m = model("STFT", [("signal", signal.shape)], inits,
              {"onesided": onesided, "order": order})
    return (name, m, {"signal": signal}, {"y": want}, within(want))


def mel_reference(num_mel_bins, dft_length, sample_rate, lower, upper):
    """ONNX's MelWeightMatrix as its backend test computes it."""
    bins = np.arange(0, num_mel_bins + 2)
    low = 2595 * np.log10(1 + np.float32(lower) / 700)
    high = 2595 * np.log10(1 + np.float32(upper) / 700)
    step = (high - low) / bins.shape[0]
    bins = bins * step + low
    bins = 700 * (np.power(10, (bins / 2595)) - 1)
    bins = (((dft_length + 1) * bins) // sample_rate).astype(int)
    out = np.zeros((dft_length // 2 + 1, num_mel_bins))
    for i in range(num_mel_bins):
        left, center, right = bins[i], bins[i + 1], bins[i + 2]
        if center == left:
            out[center, i] = 1
        else:
            for j in range(left, center + 1):
                out[j, i] = float(j - left) / float(center - left)
        if right > center:
            for j in range(center, right):
                out[j, i] = float(right - j) / float(right - center)
    return out.astype(np.float32)


def mel_case(name, *params):
    from onnx import TensorProto as T, helper
    names = ["num_mel_bins", "dft_length", "sample_rate", "lower_edge_hertz",
             "upper_edge_hertz"]
    inits = [tensor(n, np.int64(v)) for n, v in zip(names[:3], params[:3])]
    inits += [tensor(n, np.float32(v)) for n, v in zip(names[3:], params[3:])]
    graph = helper.make_graph(
        [helper.make_node("MelWeightMatrix", names, ["y"])], "mel", [],
        [helper.make_tensor_value_info("y", T.FLOAT, None)],
        initializer=inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    want = mel_reference(*params)
    return (name, m, {}, {"y": want}, close(1e-6, 1e-6))


def cases():
    rng = np.random.default_rng(29)
    f32 = np.float32
    real = rng.standard_normal((2, 8, 3, 1)).astype(f32)
    cplx = rng.standard_normal((2, 3, 10, 2)).astype(f32)
    signal = rng.standard_normal((2, 100, 1)).astype(f32)
    n = np.arange(20)
    hann = (0.5 - 0.5 * np.cos(2 * np.pi * n / 20)).astype(f32)
    return [
        dft_case("dft_real_axis1", real, 1),
        dft_case("dft_complex_axis2", cplx, 2),
        dft_case("dft_inverse", cplx, 1, inverse=1),
        dft_case("dft_onesided_padded", real, 1, onesided=1, length=12),
        dft_case("dft_cut", cplx, 2, length=6),
        dft_case("dft_f64", rng.standard_normal((3, 16, 2)), 1),
        dft_case("dft_opset20", cplx, 2, opset=20),
        stft_case("stft_frame_length", signal, 8, frame_length=16),
        stft_case("stft_hann", signal, 10, window=hann),
        stft_case("stft_two_sided", rng.standard_normal((1, 64, 2)).astype(f32),
                  16, window=hann, onesided=0),
        mel_case("mel_16k", 10, 64, 16000, 20.0, 8000.0),
        mel_case("mel_narrow", 4, 32, 8000, 300.0, 3400.0),
    ]


if __name__ == "__main__":
    sys.exit(case_runner.main(sys.argv, cases, {}))
