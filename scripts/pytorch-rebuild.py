#!/usr/bin/env python3
"""Rebuilds a leamoji model file in PyTorch from the file alone and prints its logits.

The network comes from the `layers` metadata (docs/model-file.md): conv2d -> nn.Conv2d,
batchnorm2d -> nn.BatchNorm2d(features, eps, momentum), relu -> nn.ReLU, maxpool2d ->
nn.MaxPool2d, globalavgpool -> nn.AdaptiveAvgPool2d(1) + nn.Flatten, flatten -> nn.Flatten,
dropout -> nn.Dropout(p), linear -> nn.Linear; the tensors are loaded with
`load_state_dict(strict=True)` (PyTorch names: `conv1.weight`, `bn1.running_mean`,
`bn1.num_batches_tracked` ...), and the model runs in eval mode (running statistics, no
dropout). Needs only torch: the safetensors container is parsed here.

    python3 scripts/pytorch-rebuild.py MODEL.safetensors INPUT.f32 N

INPUT.f32 holds N already-normalised inputs as little-endian float32 in [N, C, H, W] order.
Prints one JSON object {"logits": [[...], ...], "modules": "..."}. leamoji's tests run it when
`$LEAMOJI_TORCH_PYTHON` (default python3) imports torch, and skip otherwise.
"""
import json
import struct
import sys

import torch
from torch import nn


def read_safetensors(path):
    data = open(path, "rb").read()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + length])
    body = data[8 + length :]
    metadata = header.pop("__metadata__", {})
    dtypes = {"F32": torch.float32, "I64": torch.int64}
    tensors = {}
    for name, entry in header.items():
        begin, end = entry["data_offsets"]
        raw = bytearray(body[begin:end])
        t = torch.frombuffer(raw, dtype=dtypes[entry["dtype"]]) if raw else torch.empty(0)
        tensors[name] = t.reshape(entry["shape"]).clone()
    return tensors, metadata


class Named(nn.Module):
    """An nn.Sequential-like module whose children carry the file's layer names."""

    def __init__(self, specs):
        super().__init__()
        self.order = []
        for i, s in enumerate(specs):
            kind = s["type"]
            if kind == "conv2d":
                m = nn.Conv2d(s["in"], s["out"], s["kernel"], stride=s["stride"], padding=s["padding"])
            elif kind == "batchnorm2d":
                m = nn.BatchNorm2d(s["features"], eps=s["eps"], momentum=s["momentum"])
            elif kind == "linear":
                m = nn.Linear(s["in"], s["out"])
            elif kind == "relu":
                m = nn.ReLU()
            elif kind == "maxpool2d":
                m = nn.MaxPool2d(s["kernel"], s["stride"])
            elif kind == "globalavgpool":
                m = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten())
            elif kind == "flatten":
                m = nn.Flatten()
            elif kind == "dropout":
                m = nn.Dropout(s["p"])
            else:
                raise SystemExit(f"unknown layer type {kind}")
            name = s.get("name", f"_{kind}{i}")
            self.add_module(name, m)
            self.order.append(name)

    def forward(self, x):
        for name in self.order:
            x = getattr(self, name)(x)
        return x


def main():
    path, inputs, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    tensors, metadata = read_safetensors(path)
    model = Named(json.loads(metadata["layers"]))
    model.load_state_dict(tensors, strict=True)
    model.eval()
    c, h, w = (int(v) for v in metadata["input"].split("x"))
    raw = bytearray(open(inputs, "rb").read())
    x = torch.frombuffer(raw, dtype=torch.float32).reshape(count, c, h, w)
    with torch.no_grad():
        logits = model(x)
    print(json.dumps({"logits": logits.tolist(), "modules": str(model)}))


if __name__ == "__main__":
    main()
