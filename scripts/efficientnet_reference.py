#!/usr/bin/env python3
"""Reference EfficientNet-Lite0 in PyTorch, built from the original .pth, not from leamoji's file.

This is the yardstick for leamoji's Swift engine: it runs the network the way it was trained
(batch norms kept as batch norms, in eval mode; TensorFlow "SAME" padding done explicitly with
F.pad; ReLU6), independently of Lab/scripts/convert-efficientnet-lite0.py, so a mistake in the
conversion (BN folding, layer order, padding side, residuals) shows up as a difference between
this script's logits and leamoji's.

Usage:
  efficientnet_reference.py --pth PTH --png A.png B.png ...   [--size 224] [--labels WHEEL]
  efficientnet_reference.py --pth PTH --f32 FILE N            [--size 224]
  efficientnet_reference.py --pth PTH --png FILES... --labels WHEEL --expected
      (the format of Tests/LeamojiCLITests/Fixtures/backbone/expected-logits.json, see
      scripts/make-backbone-fixture.sh)

--png: each file is loaded as RGB and must already be size x size; it is normalised the way
leamoji does, x = (pixel/255 - mean) / std with mean = float32(127/255), std = float32(128/255).
--f32: FILE holds N already-normalised images, float32 little-endian, laid out N x 3 x size x size.

Prints JSON: [{"file": ..., "logits": [1000 floats]}, ...]. With --labels WHEEL (the pinned
torchvision wheel) it also prints each image's top-5 classes to stderr, for a human to judge.
"""

import argparse
import ast
import json
import os
import sys
import zipfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

# The .pth does not store the batch norm epsilon; EfficientNet-Lite was trained in TensorFlow
# with 1e-3 (see THIRD-PARTY.md / the converter).
BN_EPS = 1e-3

# Block strides (not stored in a state dict). Deliberately written out here again rather than
# imported from the converter, so this reference shares no code with what it checks.
# Per stage (TensorFlow's block strings): k3 s1 e1 32->16 | k3 s2 e6 16->24 x2 |
# k5 s2 e6 24->40 x2 | k3 s2 e6 40->80 x3 | k5 s1 e6 80->112 x3 | k5 s2 e6 112->192 x4 |
# k3 s1 e6 192->320.
STRIDES = [1] + [2, 1] + [2, 1] + [2, 1, 1] + [1, 1, 1] + [2, 1, 1, 1] + [1]

MEAN = np.float32(127 / 255)
STD = np.float32(128 / 255)


class SameConv(nn.Conv2d):
    """A bias-free conv with TensorFlow's "SAME" padding: the output has ceil(n/stride) rows;
    the padding that needs is split with the smaller half at the top/left, so for stride 2 the
    extra row/column goes at the bottom/right (PyTorch's symmetric padding would differ)."""

    def forward(self, x):
        pads = []
        for n, k, s in ((x.shape[3], self.kernel_size[1], self.stride[1]),
                        (x.shape[2], self.kernel_size[0], self.stride[0])):
            total = max((-(-n // s) - 1) * s + k - n, 0)
            pads += [total // 2, total - total // 2]
        return super().forward(F.pad(x, pads))  # F.pad wants (left, right, top, bottom)


class MBConv(nn.Module):
    """Inverted residual: [1x1 expand + BN + ReLU6] -> kxk depthwise + BN + ReLU6 ->
    1x1 project + BN (linear), plus the input when the shape is unchanged."""

    def __init__(self, cin, cout, expand, kernel, stride):
        super().__init__()
        mid = cin * expand
        self.expand = None
        if expand != 1:
            self.expand = nn.Sequential(nn.Conv2d(cin, mid, 1, bias=False),
                                        nn.BatchNorm2d(mid, eps=BN_EPS), nn.ReLU6())
        self.dw = nn.Sequential(SameConv(mid, mid, kernel, stride, groups=mid, bias=False),
                                nn.BatchNorm2d(mid, eps=BN_EPS), nn.ReLU6())
        self.project = nn.Sequential(nn.Conv2d(mid, cout, 1, bias=False),
                                     nn.BatchNorm2d(cout, eps=BN_EPS))
        self.residual = stride == 1 and cin == cout

    def forward(self, x):
        y = self.expand(x) if self.expand is not None else x
        y = self.project(self.dw(y))
        return x + y if self.residual else y


class EfficientNetLite0(nn.Module):
    def __init__(self, blocks):
        super().__init__()
        self.stem = nn.Sequential(SameConv(3, 32, 3, 2, bias=False),
                                  nn.BatchNorm2d(32, eps=BN_EPS), nn.ReLU6())
        self.blocks = nn.Sequential(*[MBConv(*b) for b in blocks])
        self.head = nn.Sequential(nn.Conv2d(blocks[-1][1], 1280, 1, bias=False),
                                  nn.BatchNorm2d(1280, eps=BN_EPS), nn.ReLU6())
        self.fc = nn.Linear(1280, 1000)

    def forward(self, x):
        x = self.head(self.blocks(self.stem(x)))
        return self.fc(x.mean(dim=(2, 3)))


def block_table(state):
    """(in, out, expand, kernel, stride) per block, from the tensors' shapes and STRIDES."""
    blocks = []
    for n, stride in enumerate(STRIDES):
        dw = state[f"_blocks.{n}._depthwise_conv.weight"]
        proj = state[f"_blocks.{n}._project_conv.weight"]
        mid, kernel = dw.shape[0], dw.shape[2]
        cin = state[f"_blocks.{n}._expand_conv.weight"].shape[1] if \
            f"_blocks.{n}._expand_conv.weight" in state else mid
        blocks.append((cin, proj.shape[0], mid // cin, kernel, stride))
    return blocks


def load(pth):
    """The model with the .pth's weights, in eval mode. The .pth's key names are mapped onto
    this module's by position in the architecture, and every key must be used exactly once."""
    state = torch.load(pth, map_location="cpu", weights_only=True)
    model = EfficientNetLite0(block_table(state))
    names = {"stem.0": "_conv_stem", "stem.1": "_bn0", "head.0": "_conv_head", "head.1": "_bn1",
             "fc": "_fc"}
    for n in range(len(STRIDES)):
        names.update({f"blocks.{n}.expand.0": f"_blocks.{n}._expand_conv",
                      f"blocks.{n}.expand.1": f"_blocks.{n}._bn0",
                      f"blocks.{n}.dw.0": f"_blocks.{n}._depthwise_conv",
                      f"blocks.{n}.dw.1": f"_blocks.{n}._bn1",
                      f"blocks.{n}.project.0": f"_blocks.{n}._project_conv",
                      f"blocks.{n}.project.1": f"_blocks.{n}._bn2"})
    mapped = {}
    for key in model.state_dict():
        module, _, field = key.rpartition(".")
        mapped[key] = state[f"{names[module]}.{field}"]
    if len(mapped) != len(state):
        sys.exit(f"{pth}: {len(state)} tensors, the architecture uses {len(mapped)}")
    model.load_state_dict(mapped, strict=True)
    return model.eval()


def read_png(path, size):
    from PIL import Image  # only needed for --png
    with Image.open(path) as im:
        rgb = np.asarray(im.convert("RGB"), dtype=np.float32)
    if rgb.shape[:2] != (size, size):
        sys.exit(f"{path}: {rgb.shape[1]}x{rgb.shape[0]}, expected {size}x{size}")
    # Same float32 arithmetic as leamoji: (pixel / 255 - mean) / std.
    x = (rgb / np.float32(255) - MEAN) / STD
    return x.transpose(2, 0, 1)


def labels_from_wheel(wheel):
    with zipfile.ZipFile(wheel) as z:
        tree = ast.parse(z.read("torchvision/models/_meta.py").decode("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == \
                "_IMAGENET_CATEGORIES":
            return ast.literal_eval(node.value)
    sys.exit(f"{wheel}: no _IMAGENET_CATEGORIES")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pth", required=True)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--png", nargs="+", metavar="FILE")
    src.add_argument("--f32", nargs=2, metavar=("FILE", "N"))
    ap.add_argument("--size", type=int, default=224)
    ap.add_argument("--labels", metavar="WHEEL", help="print top-5 names (stderr)")
    ap.add_argument("--expected", action="store_true",
                    help="print the test fixture's format instead (needs --labels): file "
                         "basenames, top1 and label, logits as shortest float32 decimals")
    args = ap.parse_args()
    if args.expected and not args.labels:
        sys.exit("--expected needs --labels WHEEL")

    torch.set_grad_enabled(False)
    model = load(args.pth)
    if args.png:
        files = args.png
        batch = np.stack([read_png(p, args.size) for p in files])
    else:
        path, count = args.f32[0], int(args.f32[1])
        batch = np.fromfile(path, dtype="<f4").reshape(count, 3, args.size, args.size)
        files = [f"{path}#{i}" for i in range(count)]
    logits = model(torch.from_numpy(np.ascontiguousarray(batch))).numpy()

    if args.labels:
        names = labels_from_wheel(args.labels)
        for f, row in zip(files, logits):
            top = np.argsort(-row)[:5]
            print(f"{f}: " + ", ".join(f"{names[i]} ({i}, {row[i]:.2f})" for i in top),
                  file=sys.stderr)
    if args.expected:
        # Tests/LeamojiCLITests/Fixtures/backbone/expected-logits.json: one image per line;
        # each logit is the shortest decimal that reads back as the same float32.
        rows = [json.dumps({"file": os.path.basename(f), "label": names[int(row.argmax())],
                            "logits": [float(str(v)) for v in row], "top1": int(row.argmax())},
                           sort_keys=True, separators=(",", ":")) for f, row in zip(files, logits)]
        print("[\n" + ",\n".join(rows) + "\n]")
        return
    # float() of a float32 gives the exact double, whose decimal reads back as the same float32.
    print(json.dumps([{"file": f, "logits": [float(v) for v in row]}
                      for f, row in zip(files, logits)]))


if __name__ == "__main__":
    main()
