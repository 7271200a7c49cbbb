#!/usr/bin/python3
"""The PyTorch side of bench/peers.py: model export and eager timing.

  export_models.py export --out DIR [--models resnet18,mobilenet_v2,conv_bn_relu]
      Builds each model with random weights (torch.manual_seed(0)), gives its
      BatchNorm layers running statistics that are not an identity, puts it in
      eval() mode and writes DIR/NAME.onnx (opset 13, TrainingMode.PRESERVE,
      no constant folding: BatchNormalization stays a node of its own),
      DIR/NAME.pt (the state_dict) and DIR/NAME.input.npy (the input,
      np.random.RandomState(0), float32). Checks that the ONNX graph still
      has its BatchNormalization nodes.

  export_models.py stages --dir DIR --model NAME
      Cuts the exported model into consecutive stages (ResNet-18: stem conv,
      maxpool, layer1..4, head; MobileNetV2: each block of features, head) and
      writes each as DIR/NAME.stageK.onnx with its input (the previous stage's
      output) as DIR/NAME.stageK.input.npy. Prints a JSON list of the stages.

  export_models.py time --dir DIR --model NAME [--warmup W] [--runs N]
                        [--output FILE.npy]
      Loads DIR/NAME.pt into the same architecture and times PyTorch eager
      inference (torch.set_num_threads(1), torch.no_grad()) on
      DIR/NAME.input.npy. Prints one JSON line: min and median latency in ms.

Needs Debian's python3-torch and python3-torchvision: run it with /usr/bin/python3.
"""
import argparse
import json
import os
import sys
import time

import numpy as np

MODELS = ("resnet18", "mobilenet_v2", "conv_bn_relu")
INPUT_SHAPES = {
    "resnet18": (1, 3, 224, 224),
    "mobilenet_v2": (1, 3, 224, 224),
    "conv_bn_relu": (1, 64, 56, 56),
}


def import_torch():
    try:
        import torch
        import torchvision
    except ImportError as e:
        sys.exit("export_models.py: %s; install python3-torch and python3-torchvision "
                 "(bench/peers.py --setup) and run with /usr/bin/python3" % e)
    return torch, torchvision


def build(name):
    """The architecture with its initial random weights (seed 0)."""
    torch, torchvision = import_torch()
    torch.manual_seed(0)
    if name == "resnet18":
        return torchvision.models.resnet18(weights=None)
    if name == "mobilenet_v2":
        return torchvision.models.mobilenet_v2(weights=None)
    if name == "conv_bn_relu":
        return torch.nn.Sequential(
            torch.nn.Conv2d(64, 64, 3, padding=1, bias=False),
            torch.nn.BatchNorm2d(64),
            torch.nn.ReLU())
    sys.exit("export_models.py: unknown model %s (known: %s)" % (name, ", ".join(MODELS)))


def randomize_batch_norm(torch, model, shape):
    """Running statistics close to the real ones, then perturbed.

    Calibrating on random batches keeps activations near unit scale through
    the whole network (so a 1e-4 absolute tolerance means something); the
    perturbation and the random affine parameters make sure that no
    BatchNormalization is an identity.
    """
    gen = torch.Generator().manual_seed(1)
    bns = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    for bn in bns:
        bn.reset_running_stats()
        bn.momentum = None  # cumulative average over the calibration batches
    model.train()
    with torch.no_grad():
        for _ in range(4):
            model(torch.randn((8,) + tuple(shape[1:]), generator=gen))
        for bn in bns:
            c = bn.num_features
            bn.running_mean.add_(0.1 * torch.randn(c, generator=gen))
            bn.running_var.mul_(torch.empty(c).uniform_(0.7, 1.4, generator=gen))
            bn.weight.copy_(torch.empty(c).uniform_(0.5, 1.5, generator=gen))
            bn.bias.copy_(0.1 * torch.randn(c, generator=gen))
    model.eval()


def make_input(name):
    return np.random.RandomState(0).standard_normal(INPUT_SHAPES[name]).astype(np.float32)


def export(args):
    torch, _ = import_torch()
    import onnx

    os.makedirs(args.out, exist_ok=True)
    for name in args.models.split(","):
        model = build(name)
        randomize_batch_norm(torch, model, INPUT_SHAPES[name])
        x = make_input(name)
        base = os.path.join(args.out, name)
        np.save(base + ".input.npy", x)
        torch.save(model.state_dict(), base + ".pt")
        torch.onnx.export(model, torch.from_numpy(x), base + ".onnx",
                          input_names=["input"], output_names=["output"],
                          opset_version=args.opset,
                          training=torch.onnx.TrainingMode.PRESERVE,
                          do_constant_folding=False)
        graph = onnx.load(base + ".onnx").graph
        ops = {}
        for node in graph.node:
            ops[node.op_type] = ops.get(node.op_type, 0) + 1
        n_bn = sum(isinstance(m, torch.nn.BatchNorm2d) for m in model.modules())
        if ops.get("BatchNormalization", 0) != n_bn:
            sys.exit("export_models.py: %s.onnx has %d BatchNormalization nodes, the model "
                     "%d: the exporter fused them" % (name, ops.get("BatchNormalization", 0),
                                                      n_bn))
        print("%s.onnx: %s" % (name, ", ".join("%s %d" % kv for kv in sorted(ops.items()))),
              file=sys.stderr)


def time_eager(args):
    torch, _ = import_torch()
    torch.set_num_threads(1)
    model = build(args.model)
    base = os.path.join(args.dir, args.model)
    model.load_state_dict(torch.load(base + ".pt"))
    model.eval()
    x = torch.from_numpy(np.load(base + ".input.npy"))
    times = []
    with torch.no_grad():
        for _ in range(args.warmup):
            y = model(x)
        for _ in range(args.runs):
            start = time.perf_counter()
            y = model(x)
            times.append((time.perf_counter() - start) * 1e3)
    if args.output:
        np.save(args.output, y.numpy().astype(np.float32))
    print(json.dumps(dict(runtime="torch %s eager" % torch.__version__,
                          threads=torch.get_num_threads(),
                          min_ms=min(times), median_ms=float(np.median(times)),
                          runs=args.runs)))


def stage_modules(torch, name, model):
    """The model cut into consecutive stages, (label, module) in order."""
    if name == "resnet18":
        m = model
        return [("conv1+bn+relu", torch.nn.Sequential(m.conv1, m.bn1, m.relu)),
                ("maxpool", m.maxpool), ("layer1", m.layer1), ("layer2", m.layer2),
                ("layer3", m.layer3), ("layer4", m.layer4),
                ("avgpool+fc", torch.nn.Sequential(m.avgpool, torch.nn.Flatten(), m.fc))]
    if name == "mobilenet_v2":
        f = model.features
        stages = [("features.0 (conv 3x3 s2)", f[0])]
        for i in range(1, len(f) - 1):
            blk = f[i]
            stride = [c.stride[0] for c in blk.modules()
                      if isinstance(c, torch.nn.Conv2d) and c.groups > 1][0]
            stages.append(("features.%d (%d->%d, s%d%s)" % (
                i, blk.conv[0][0].in_channels,
                blk.out_channels, stride, ", residual" if blk.use_res_connect else ""), blk))
        stages.append(("features.%d (conv 1x1)" % (len(f) - 1), f[-1]))
        stages.append(("avgpool+classifier", torch.nn.Sequential(
            torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), model.classifier)))
        return stages
    return [(name, model)]


def export_stages(args):
    """Each stage as its own ONNX model, fed with the previous stage's output."""
    torch, _ = import_torch()
    model = build(args.model)
    base = os.path.join(args.dir, args.model)
    model.load_state_dict(torch.load(base + ".pt"))
    model.eval()
    x = torch.from_numpy(np.load(base + ".input.npy"))
    listing = []
    with torch.no_grad():
        for k, (label, module) in enumerate(stage_modules(torch, args.model, model)):
            module.eval()
            path = "%s.stage%d" % (base, k)
            np.save(path + ".input.npy", x.numpy())
            torch.onnx.export(module, x, path + ".onnx", input_names=["input"],
                              output_names=["output"], opset_version=args.opset,
                              training=torch.onnx.TrainingMode.PRESERVE,
                              do_constant_folding=False)
            listing.append(dict(label=label, onnx=path + ".onnx", input=path + ".input.npy"))
            x = module(x)
    print(json.dumps(listing))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("export")
    p.add_argument("--out", required=True)
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--opset", type=int, default=13)
    p.set_defaults(func=export)
    p = sub.add_parser("time")
    p.add_argument("--dir", required=True)
    p.add_argument("--model", required=True, choices=MODELS)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--output")
    p.set_defaults(func=time_eager)
    p = sub.add_parser("stages")
    p.add_argument("--dir", required=True)
    p.add_argument("--model", required=True, choices=MODELS)
    p.add_argument("--opset", type=int, default=13)
    p.set_defaults(func=export_stages)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
