#!/usr/bin/python3
"""The PyTorch side of bench/peers.py: model export and eager timing.

  export_models.py export --out DIR [--models resnet18,mobilenet_v2,...]
                          [--reference]
      Builds each model with random weights (torch.manual_seed(0)), gives its
      BatchNorm layers running statistics that are not an identity, puts it in
      eval() mode and writes DIR/NAME.onnx (TrainingMode.PRESERVE, no constant
      folding: BatchNormalization stays a node of its own; opset 13, 17 for
      vit_tiny, convnext_tiny and the *_opset17 models, 14 for mobilenet_v3), DIR/NAME.pt (the state_dict) and
      DIR/NAME.input.npy (the input, np.random.RandomState(0), float32).
      Checks that the ONNX graph still has its BatchNormalization nodes. With
      --reference, also DIR/NAME.torch.npy: PyTorch's output on that input.

  export_models.py stages --dir DIR --model NAME
      Cuts the exported model into consecutive stages (ResNet-18: stem conv,
      maxpool, layer1..4, head; MobileNetV2: each block of features, head) and
      writes each as DIR/NAME.stageK.onnx with its input (the previous stage's
      output) as DIR/NAME.stageK.input.npy. Prints a JSON list of the stages.

  export_models.py time --dir DIR --model NAME [--warmup W] [--runs N]
                        [--threads T] [--output FILE.npy]
      Loads DIR/NAME.pt into the same architecture and times PyTorch eager
      inference (torch.set_num_threads(T), default 1, torch.no_grad()) on
      DIR/NAME.input.npy. Prints one JSON line: min and median latency in ms.

The models:
  resnet18, mobilenet_v2  torchvision, random weights;
  resnet50, densenet121, inception_v3, efficientnet_b0, convnext_tiny
                          torchvision, random weights, the same way (not in
                          bench/peers.py's default set; BatchNorm affine
                          parameters set before the calibration, see
                          randomize_batch_norm); inception_v3 at
                          299x299 with aux_logits (not run in eval(), so not
                          exported); convnext_tiny at opset 17 with its layer
                          scales (1e-6 at init) set to U(0.1, 0.3) and random
                          LayerNorm affine parameters;
  conv_bn_relu            Conv2d(64, 64, 3) + BatchNorm2d + ReLU on 1x64x56x56;
  vit_tiny                a ViT-Tiny-style transformer encoder built here:
                          16x16 patches of 224x224 (196 tokens and a class
                          token), width 192, 3 heads, MLP 768 with GELU,
                          pre-LayerNorm, 6 blocks, a linear head; exported at
                          opset 17 (LayerNormalization, GELU as PyTorch's Erf
                          pattern, attention as batched MatMul/Softmax, shape
                          subgraphs of Shape/Gather/Concat);
  mobilenet_v3            MobileNetV3-Small built here: inverted residual
                          blocks with depthwise convolutions, squeeze-excitation
                          (global pooling, 1x1 convolutions, ReLU,
                          Hardsigmoid) and HardSwish; exported at opset 14;
  vit_b_16                torchvision's ViT-B/16, random weights (the head
                          too, which torchvision zero-initialises), opset 13;
  bert_encoder            a BERT-base-sized encoder built here: 4 post-norm
                          layers, width 768, 12 heads, MLP 3072 with erf GELU,
                          over 1x128x768 token embeddings, no mask; opset 13
                          (LayerNorm spelled out as ReduceMean, Sub, Pow, ...);
  gpt2_decoder            a GPT-2-small-sized decoder built here: 4 pre-norm
                          layers, tanh GELU, an additive causal mask, a final
                          LayerNorm; opset 13;
  bert_encoder_opset17, gpt2_decoder_opset17
                          the same two at opset 17 (LayerNormalization);
  lstm, gru               2-layer recurrent encoders (see recurrent);
  scripted_loop           a torch.jit.script model whose while loop and If
                          the data decides (ONNX Loop and If), 4x256 input.

Needs Debian's python3-torch (and python3-torchvision for the torchvision
models): run it with /usr/bin/python3.
"""
import argparse
import json
import os
import sys
import time

import numpy as np

MODELS = ("resnet18", "mobilenet_v2", "conv_bn_relu", "vit_tiny", "mobilenet_v3",
          "resnet50", "densenet121", "inception_v3", "efficientnet_b0", "convnext_tiny",
          "vit_b_16", "bert_encoder", "bert_encoder_opset17", "gpt2_decoder",
          "gpt2_decoder_opset17", "lstm", "gru", "scripted_loop")
INPUT_SHAPES = {
    "resnet18": (1, 3, 224, 224),
    "mobilenet_v2": (1, 3, 224, 224),
    "conv_bn_relu": (1, 64, 56, 56),
    "vit_tiny": (1, 3, 224, 224),
    "mobilenet_v3": (1, 3, 224, 224),
    "resnet50": (1, 3, 224, 224),
    "densenet121": (1, 3, 224, 224),
    "inception_v3": (1, 3, 299, 299),
    "efficientnet_b0": (1, 3, 224, 224),
    "convnext_tiny": (1, 3, 224, 224),
    "vit_b_16": (1, 3, 224, 224),
    # The text models take the token embeddings (batch 1, 128 tokens, 768).
    "bert_encoder": (1, 128, 768),
    "bert_encoder_opset17": (1, 128, 768),
    "gpt2_decoder": (1, 128, 768),
    "gpt2_decoder_opset17": (1, 128, 768),
    # The recurrent models take a sequence, batch first: 1 x 100 steps x 128.
    "lstm": (1, 100, 128),
    "gru": (1, 100, 128),
    "scripted_loop": (4, 256),
}
# The opset each model is exported at when --opset is not given.
# convnext_tiny: LayerNormalization (opset 17) rather than its decomposition.
OPSETS = {"vit_tiny": 17, "mobilenet_v3": 14, "convnext_tiny": 17,
          "bert_encoder_opset17": 17, "gpt2_decoder_opset17": 17}
TORCHVISION_MODELS = ("resnet18", "mobilenet_v2", "resnet50", "densenet121", "inception_v3",
                      "efficientnet_b0", "convnext_tiny", "vit_b_16")


def import_torch(need_torchvision=True):
    try:
        import torch
        torchvision = None
        if need_torchvision:
            import torchvision
    except ImportError as e:
        sys.exit("export_models.py: %s; install python3-torch and python3-torchvision "
                 "(bench/peers.py --setup) and run with /usr/bin/python3" % e)
    return torch, torchvision


def vit_tiny(torch, depth=6, dim=192, heads=3, mlp=768, patch=16, image=224, classes=1000):
    """A ViT-Tiny-style encoder: the attention written out (reshape, permute,
    batched matmul, softmax), as timm does."""
    nn = torch.nn

    class Attention(nn.Module):
        def __init__(self):
            super().__init__()
            self.qkv = nn.Linear(dim, 3 * dim)
            self.proj = nn.Linear(dim, dim)
            self.scale = (dim // heads) ** -0.5

        def forward(self, x):
            b, n, c = x.shape
            qkv = self.qkv(x).reshape(b, n, 3, heads, c // heads).permute(2, 0, 3, 1, 4)
            q, k, v = qkv[0], qkv[1], qkv[2]
            attn = (q @ k.transpose(-2, -1)) * self.scale
            attn = attn.softmax(dim=-1)
            return self.proj((attn @ v).transpose(1, 2).reshape(b, n, c))

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.norm1 = nn.LayerNorm(dim, eps=1e-6)
            self.attn = Attention()
            self.norm2 = nn.LayerNorm(dim, eps=1e-6)
            self.mlp = nn.Sequential(nn.Linear(dim, mlp), nn.GELU(), nn.Linear(mlp, dim))

        def forward(self, x):
            x = x + self.attn(self.norm1(x))
            return x + self.mlp(self.norm2(x))

    class ViT(nn.Module):
        def __init__(self):
            super().__init__()
            self.patch_embed = nn.Conv2d(3, dim, patch, stride=patch)
            tokens = (image // patch) ** 2
            self.cls_token = nn.Parameter(0.02 * torch.randn(1, 1, dim))
            self.pos_embed = nn.Parameter(0.02 * torch.randn(1, tokens + 1, dim))
            self.blocks = nn.Sequential(*[Block() for _ in range(depth)])
            self.norm = nn.LayerNorm(dim, eps=1e-6)
            self.head = nn.Linear(dim, classes)
            # LayerNorms that are not the identity.
            for m in self.modules():
                if isinstance(m, nn.LayerNorm):
                    m.weight.data.uniform_(0.5, 1.5)
                    m.bias.data.normal_(0, 0.1)

        def forward(self, x):
            x = self.patch_embed(x).flatten(2).transpose(1, 2)
            x = torch.cat((self.cls_token.expand(x.shape[0], -1, -1), x), dim=1)
            x = self.blocks(x + self.pos_embed)
            return self.head(self.norm(x)[:, 0])

    return ViT()


def text_transformer(torch, causal, depth=4, dim=768, heads=12, mlp=3072, tokens=128):
    """A BERT-base-sized encoder (causal=False: post-norm, erf GELU, no mask)
    or a GPT-2-small-sized decoder (causal=True: pre-norm, tanh GELU, an
    additive causal mask, a final LayerNorm), both over 128 token embeddings,
    written with nn.Linear, nn.LayerNorm and softmax as user code and
    HuggingFace's models spell them."""
    nn = torch.nn
    head_dim = dim // heads

    class SelfAttention(nn.Module):
        def __init__(self):
            super().__init__()
            self.query = nn.Linear(dim, dim)
            self.key = nn.Linear(dim, dim)
            self.value = nn.Linear(dim, dim)
            self.out = nn.Linear(dim, dim)
            self.num_heads = heads  # read by bench/kernels.py
            if causal:
                self.register_buffer("mask", torch.full((tokens, tokens), float("-inf"))
                                     .triu(1), persistent=False)

        def heads(self, x):
            b, n, _ = x.shape
            return x.view(b, n, heads, head_dim).transpose(1, 2)

        def forward(self, x):
            b, n, _ = x.shape
            q, k, v = self.heads(self.query(x)), self.heads(self.key(x)), self.heads(self.value(x))
            scores = torch.matmul(q, k.transpose(-1, -2)) / (head_dim ** 0.5)
            if causal:
                scores = scores + self.mask[:n, :n]
            probs = torch.softmax(scores, dim=-1)
            context = torch.matmul(probs, v).transpose(1, 2).reshape(b, n, dim)
            return self.out(context)

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.attention = SelfAttention()
            self.norm1 = nn.LayerNorm(dim, eps=1e-5 if causal else 1e-12)
            self.norm2 = nn.LayerNorm(dim, eps=1e-5 if causal else 1e-12)
            self.mlp = nn.Sequential(nn.Linear(dim, mlp),
                                     nn.GELU(approximate="tanh" if causal else "none"),
                                     nn.Linear(mlp, dim))

        def forward(self, x):
            if causal:
                x = x + self.attention(self.norm1(x))
                return x + self.mlp(self.norm2(x))
            x = self.norm1(x + self.attention(x))
            return self.norm2(x + self.mlp(x))

    class Transformer(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.Sequential(*[Layer() for _ in range(depth)])
            self.final_norm = nn.LayerNorm(dim) if causal else nn.Identity()
            # LayerNorms that are not the identity.
            for m in self.modules():
                if isinstance(m, nn.LayerNorm):
                    m.weight.data.uniform_(0.5, 1.5)
                    m.bias.data.normal_(0, 0.1)

        def forward(self, x):
            return self.final_norm(self.layers(x))

    return Transformer()


def recurrent(torch, cell, bidirectional):
    """A 2-layer recurrent encoder of width 256 over 128 features, batch
    first, as speech and time-series models stack them; the output sequence
    only (torch.onnx exports one ONNX LSTM or GRU per layer)."""
    class Encoder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = cell(128, 256, num_layers=2, batch_first=True,
                            bidirectional=bidirectional)

        def forward(self, x):
            return self.rnn(x)[0]
    return Encoder()


def scripted_loop(torch, width=256, classes=10, max_steps=32):
    """A TorchScript model whose control flow the data decides, as
    torch.jit.script exports it (ONNX Loop and If): a state refined by a
    residual MLP step until it moves by less than a tolerance or after
    max_steps steps (a while loop carrying the state, the step and the
    change), then a head whose sign an If on the state's mean chooses."""
    class Refine(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.step = torch.nn.Linear(width, width)
            self.gate = torch.nn.Linear(width, width)
            self.head = torch.nn.Linear(width, classes)
            self.max_steps = max_steps

        def forward(self, x):
            h = x
            change = torch.ones_like(x)
            steps = 0
            while steps < self.max_steps and bool(change.abs().max() > 0.05):
                update = torch.tanh(self.step(h)) * torch.sigmoid(self.gate(h))
                new = 0.5 * h + 0.5 * update
                change = new - h
                h = new
                steps += 1
            if bool(h.mean() > 0):
                out = self.head(h)
            else:
                out = -self.head(h)
            return out
    return torch.jit.script(Refine())


def mobilenet_v3(torch, classes=1000):
    """MobileNetV3-Small as torchvision defines it (inverted residuals with
    squeeze-excitation, HardSwish), written out here."""
    nn = torch.nn

    def divisible(v, d=8):
        new = max(d, int(v + d / 2) // d * d)
        return new + d if new < 0.9 * v else new

    def conv_bn(cin, cout, k, stride=1, groups=1, act=None):
        layers = [nn.Conv2d(cin, cout, k, stride, (k - 1) // 2, groups=groups, bias=False),
                  nn.BatchNorm2d(cout)]
        if act is not None:
            layers.append(act())
        return nn.Sequential(*layers)

    class SqueezeExcitation(nn.Module):
        def __init__(self, channels):
            super().__init__()
            squeeze = divisible(channels // 4)
            self.fc1 = nn.Conv2d(channels, squeeze, 1)
            self.fc2 = nn.Conv2d(squeeze, channels, 1)

        def forward(self, x):
            s = nn.functional.adaptive_avg_pool2d(x, 1)
            s = nn.functional.hardsigmoid(self.fc2(nn.functional.relu(self.fc1(s))))
            return x * s

    class InvertedResidual(nn.Module):
        def __init__(self, cin, k, exp, cout, se, act, stride):
            super().__init__()
            layers = []
            if exp != cin:
                layers.append(conv_bn(cin, exp, 1, act=act))
            layers.append(conv_bn(exp, exp, k, stride, groups=exp, act=act))
            if se:
                layers.append(SqueezeExcitation(exp))
            layers.append(conv_bn(exp, cout, 1))
            self.block = nn.Sequential(*layers)
            self.residual = stride == 1 and cin == cout

        def forward(self, x):
            y = self.block(x)
            return x + y if self.residual else y

    RE, HS = nn.ReLU, nn.Hardswish
    config = [(16, 3, 16, 16, True, RE, 2), (16, 3, 72, 24, False, RE, 2),
              (24, 3, 88, 24, False, RE, 1), (24, 5, 96, 40, True, HS, 2),
              (40, 5, 240, 40, True, HS, 1), (40, 5, 240, 40, True, HS, 1),
              (40, 5, 120, 48, True, HS, 1), (48, 5, 144, 48, True, HS, 1),
              (48, 5, 288, 96, True, HS, 2), (96, 5, 576, 96, True, HS, 1),
              (96, 5, 576, 96, True, HS, 1)]
    layers = [conv_bn(3, 16, 3, 2, act=HS)]
    layers += [InvertedResidual(*c) for c in config]
    layers.append(conv_bn(96, 576, 1, act=HS))
    return nn.Sequential(
        nn.Sequential(*layers), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Linear(576, 1024), nn.Hardswish(), nn.Dropout(0.2), nn.Linear(1024, classes))


def build(name):
    """The architecture with its initial random weights (seed 0)."""
    torch, torchvision = import_torch(name in TORCHVISION_MODELS)
    torch.manual_seed(0)
    if name == "resnet18":
        return torchvision.models.resnet18(weights=None)
    if name == "mobilenet_v2":
        return torchvision.models.mobilenet_v2(weights=None)
    if name == "inception_v3":
        # As torchvision builds it for its pretrained weights' export:
        # aux_logits (the auxiliary classifier is not run in eval()), no
        # transform_input; init_weights spelled out (no warning).
        return torchvision.models.inception_v3(weights=None, aux_logits=True,
                                               init_weights=True)
    if name == "convnext_tiny":
        model = torchvision.models.convnext_tiny(weights=None)
        # torchvision's layer scale starts at 1e-6, which leaves every block
        # all but an identity; LayerNorms with an affine transform that is
        # not one, as in vit_tiny.
        gen = torch.Generator().manual_seed(2)
        with torch.no_grad():
            for m in model.modules():
                if hasattr(m, "layer_scale"):
                    m.layer_scale.copy_(torch.empty(m.layer_scale.shape).uniform_(
                        0.1, 0.3, generator=gen))
                if isinstance(m, torch.nn.LayerNorm):
                    m.weight.copy_(torch.empty(m.weight.shape).uniform_(0.5, 1.5,
                                                                        generator=gen))
                    m.bias.copy_(0.1 * torch.randn(m.bias.shape, generator=gen))
        return model
    if name == "vit_b_16":
        model = torchvision.models.vit_b_16(weights=None)
        # torchvision zero-initialises the head: random weights, so that the
        # output tells something.
        gen = torch.Generator().manual_seed(3)
        with torch.no_grad():
            head = model.heads.head
            head.weight.copy_(0.02 * torch.randn(head.weight.shape, generator=gen))
            head.bias.copy_(0.02 * torch.randn(head.bias.shape, generator=gen))
        return model
    if name in TORCHVISION_MODELS:
        return getattr(torchvision.models, name)(weights=None)
    if name == "conv_bn_relu":
        return torch.nn.Sequential(
            torch.nn.Conv2d(64, 64, 3, padding=1, bias=False),
            torch.nn.BatchNorm2d(64),
            torch.nn.ReLU())
    if name == "vit_tiny":
        return vit_tiny(torch)
    if name == "mobilenet_v3":
        return mobilenet_v3(torch)
    if name.startswith("bert_encoder") or name.startswith("gpt2_decoder"):
        return text_transformer(torch, causal=name.startswith("gpt2"))
    if name == "lstm":
        return recurrent(torch, torch.nn.LSTM, bidirectional=False)
    if name == "gru":
        return recurrent(torch, torch.nn.GRU, bidirectional=True)
    if name == "scripted_loop":
        return scripted_loop(torch)
    sys.exit("export_models.py: unknown model %s (known: %s)" % (name, ", ".join(MODELS)))


# Deeper models whose BatchNorms are randomized with the affine parameters
# first (see randomize_batch_norm).
AFFINE_FIRST = ("resnet50", "densenet121", "inception_v3", "efficientnet_b0")


def randomize_batch_norm(torch, model, shape, affine_first=False):
    """Running statistics close to the real ones, then perturbed.

    Calibrating on random batches keeps activations near unit scale through
    the whole network (so a 1e-4 absolute tolerance means something); the
    perturbation and the random affine parameters make sure that no
    BatchNormalization is an identity.

    affine_first (the deeper models of AFFINE_FIRST): the same random affine
    parameters and perturbations, but the affine parameters are set before
    the calibration (so that it sees them) and the mean is moved by 0.1
    running standard deviations rather than by 0.1. Done after the
    calibration, the affine parameters scale every layer's input by ~1.04
    (E[w^2] for w ~ U(0.5, 1.5)) against what its statistics expect, and a
    mean moved by 0.1 is many deviations in channels of small variance: over
    50 to 120 BatchNorms the outputs grew to 1e2-1e4 (EfficientNet-B0: max
    16,299, with float32 rounding of 4.3 against float64).
    """
    gen = torch.Generator().manual_seed(1)
    bns = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    if not bns:  # convnext_tiny: nothing to calibrate
        model.eval()
        return

    def affine(bn):
        c = bn.num_features
        bn.weight.copy_(torch.empty(c).uniform_(0.5, 1.5, generator=gen))
        bn.bias.copy_(0.1 * torch.randn(c, generator=gen))

    with torch.no_grad():
        for bn in bns:
            if affine_first:
                affine(bn)
            bn.reset_running_stats()
            bn.momentum = None  # cumulative average over the calibration batches
        model.train()
        for _ in range(4):
            model(torch.randn((8,) + tuple(shape[1:]), generator=gen))
        for bn in bns:
            c = bn.num_features
            shift = 0.1 * torch.randn(c, generator=gen)
            if affine_first:
                shift *= bn.running_var.sqrt()
            bn.running_mean.add_(shift)
            bn.running_var.mul_(torch.empty(c).uniform_(0.7, 1.4, generator=gen))
            if not affine_first:
                affine(bn)
    model.eval()


def batch_norms_run(torch, model, x):
    """The BatchNorm2d layers that an eval() forward on X runs (not
    inception_v3's auxiliary classifier)."""
    ran = set()
    hooks = [m.register_forward_hook(lambda m, i, o: ran.add(id(m)))
             for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    with torch.no_grad():
        model(torch.from_numpy(x))
    for h in hooks:
        h.remove()
    return len(ran)


def make_input(name):
    return np.random.RandomState(0).standard_normal(INPUT_SHAPES[name]).astype(np.float32)


def export(args):
    torch, _ = import_torch(need_torchvision=False)
    import onnx

    os.makedirs(args.out, exist_ok=True)
    for name in args.models.split(","):
        model = build(name)
        randomize_batch_norm(torch, model, INPUT_SHAPES[name], name in AFFINE_FIRST)
        x = make_input(name)
        base = os.path.join(args.out, name)
        np.save(base + ".input.npy", x)
        torch.save(model.state_dict(), base + ".pt")
        if args.reference:
            with torch.no_grad():
                np.save(base + ".torch.npy",
                        model(torch.from_numpy(x)).numpy().astype(np.float32))
        opset = args.opset or OPSETS.get(name, 13)
        torch.onnx.export(model, torch.from_numpy(x), base + ".onnx",
                          input_names=["input"], output_names=["output"],
                          opset_version=opset,
                          training=torch.onnx.TrainingMode.PRESERVE,
                          do_constant_folding=False)
        graph = onnx.load(base + ".onnx").graph
        ops = {}
        for node in graph.node:
            ops[node.op_type] = ops.get(node.op_type, 0) + 1
        n_bn = batch_norms_run(torch, model, x)
        if ops.get("BatchNormalization", 0) != n_bn:
            sys.exit("export_models.py: %s.onnx has %d BatchNormalization nodes, the model "
                     "%d: the exporter fused them" % (name, ops.get("BatchNormalization", 0),
                                                      n_bn))
        print("%s.onnx: %s" % (name, ", ".join("%s %d" % kv for kv in sorted(ops.items()))),
              file=sys.stderr)


def time_eager(args):
    torch, _ = import_torch(need_torchvision=False)
    torch.set_num_threads(args.threads)
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
    torch, _ = import_torch(need_torchvision=False)
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
                              output_names=["output"], opset_version=args.opset or OPSETS.get(args.model, 13),
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
    p.add_argument("--opset", type=int, default=None,
                   help="the ONNX opset (default 13; vit_tiny, convnext_tiny and the "
                        "*_opset17 models 17, mobilenet_v3 14)")
    p.add_argument("--reference", action="store_true",
                   help="also save PyTorch's output as NAME.torch.npy")
    p.set_defaults(func=export)
    p = sub.add_parser("time")
    p.add_argument("--dir", required=True)
    p.add_argument("--model", required=True, choices=MODELS)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--output")
    p.set_defaults(func=time_eager)
    p = sub.add_parser("stages")
    p.add_argument("--dir", required=True)
    p.add_argument("--model", required=True, choices=MODELS)
    p.add_argument("--opset", type=int, default=None)
    p.set_defaults(func=export_stages)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
