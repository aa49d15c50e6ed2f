#!/usr/bin/env python3
"""Runs a leamoji model file in PyTorch from its own metadata, to show the file is
self-describing: the network is rebuilt from the "layers" metadata alone (conv2d with groups and
"same" or numeric padding, relu, relu6, maxpool2d, residual, globalavgpool, linear), with the
file's tensors, its "mean"/"std" and its "input" size. Nothing about EfficientNet is assumed.

The safetensors file is parsed here by hand (8-byte header length, JSON header, raw
little-endian data), which also checks that the file is what its header says.

Usage:
  efficientnet_from_leamoji.py MODEL --png FILES...            print logits as JSON
  efficientnet_from_leamoji.py MODEL --compare --pth PTH --png FILES...
      also runs scripts/efficientnet_reference.py's network on the same images and prints the
      largest |difference| of the logits per image and overall (expected: around 1e-5).
"""

import argparse
import json
import os
import struct
import sys

import numpy as np
import torch
import torch.nn.functional as F


def read_safetensors(path):
    """(tensors as float32 torch tensors, metadata dict)."""
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    metadata = header.pop("__metadata__", {})
    base, tensors = 8 + n, {}
    for name, entry in header.items():
        if entry["dtype"] != "F32":
            sys.exit(f"{path}: {name} is {entry['dtype']}, only F32 is handled")
        begin, end = entry["data_offsets"]
        array = np.frombuffer(data[base + begin:base + end], dtype="<f4")
        tensors[name] = torch.from_numpy(array.reshape(entry["shape"]).copy())
    return tensors, metadata


def same_pad(x, kernel, stride):
    """TensorFlow "SAME": output side ceil(n/stride); the smaller half of the padding goes
    top/left, the extra row/column (if any) bottom/right."""
    pads = []
    for n in (x.shape[3], x.shape[2]):  # F.pad order: width (left, right), then height
        total = max((-(-n // stride) - 1) * stride + kernel - n, 0)
        pads += [total // 2, total - total // 2]
    return F.pad(x, pads)


def run(layers, tensors, x):
    """Applies the layer list to x (N x C x H x W)."""
    for layer in layers:
        kind = layer["type"]
        if kind == "conv2d":
            w, b = tensors[layer["name"] + ".weight"], tensors[layer["name"] + ".bias"]
            k, s, groups = layer["kernel"], layer["stride"], layer.get("groups", 1)
            assert tuple(w.shape) == (layer["out"], layer["in"] // groups, k, k), layer
            if layer["padding"] == "same":
                x = F.conv2d(same_pad(x, k, s), w, b, stride=s, groups=groups)
            else:
                x = F.conv2d(x, w, b, stride=s, padding=layer["padding"], groups=groups)
        elif kind == "relu":
            x = F.relu(x)
        elif kind == "relu6":
            x = F.relu6(x)
        elif kind == "maxpool2d":
            x = F.max_pool2d(x, layer["kernel"], layer["stride"])
        elif kind == "residual":
            x = x + run(layer["layers"], tensors, x)
        elif kind == "globalavgpool":
            x = x.mean(dim=(2, 3))
        elif kind == "linear":
            w, b = tensors[layer["name"] + ".weight"], tensors[layer["name"] + ".bias"]
            x = F.linear(x.flatten(1), w, b)
        else:
            sys.exit(f"unknown layer type {kind!r}")
    return x


def load_pngs(paths, size, mean, std):
    """N x 3 x size x size, normalised as leamoji does: (pixel/255 - mean) / std, in float32."""
    from PIL import Image
    images = []
    for p in paths:
        with Image.open(p) as im:
            rgb = np.asarray(im.convert("RGB"), dtype=np.float32)
        if rgb.shape[:2] != (size, size):
            sys.exit(f"{p}: {rgb.shape[1]}x{rgb.shape[0]}, expected {size}x{size}")
        images.append(((rgb / np.float32(255) - mean) / std).transpose(2, 0, 1))
    return torch.from_numpy(np.ascontiguousarray(np.stack(images)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model")
    ap.add_argument("--png", nargs="+", required=True)
    ap.add_argument("--compare", action="store_true")
    ap.add_argument("--pth", help="the original weights, for --compare")
    args = ap.parse_args()

    torch.set_grad_enabled(False)
    tensors, meta = read_safetensors(args.model)
    channels, height, width = (int(v) for v in meta["input"].split("x"))
    assert channels == 3 and height == width
    mean = np.array(json.loads(meta["mean"]), dtype=np.float32)
    std = np.array(json.loads(meta["std"]), dtype=np.float32)
    x = load_pngs(args.png, height, mean, std)
    logits = run(json.loads(meta["layers"]), tensors, x).numpy()

    if not args.compare:
        print(json.dumps([{"file": f, "logits": [float(v) for v in row]}
                          for f, row in zip(args.png, logits)]))
        return
    if not args.pth:
        sys.exit("--compare needs --pth")
    # The PyTorch reference stays in the repository's scripts/ (leamoji's tests run it too).
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
    import efficientnet_reference as ref
    expected = ref.load(args.pth)(torch.from_numpy(
        np.stack([ref.read_png(p, height) for p in args.png]))).numpy()
    labels = json.loads(meta["labels"])
    worst, agree = 0.0, 0
    for f, a, b in zip(args.png, logits, expected):
        diff = float(np.abs(a - b).max())
        worst = max(worst, diff)
        agree += int(a.argmax() == b.argmax())
        print(f"{os.path.basename(f):32} max|diff| {diff:.2e}  top-1 {labels[a.argmax()]}"
              f"{'' if a.argmax() == b.argmax() else ' (reference: ' + labels[b.argmax()] + ')'}")
    print(f"{len(args.png)} images: max |logit diff| {worst:.2e}, top-1 agrees on "
          f"{agree}/{len(args.png)}")


if __name__ == "__main__":
    main()
