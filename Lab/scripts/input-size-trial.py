#!/usr/bin/env python3
"""Which input size for the EfficientNet-Lite0 backbone: accuracy against speed.

Runs the PyTorch reference (scripts/efficientnet_reference.py, the original .pth) at 224, 192
and 160 pixels on the real labelled frames (make real-frames): the training split's pooled
features train a scary-or-not linear head (logistic regression, classes weighted equally, plain
gradient descent in numpy, the same steps at every size), which is scored on the check stills
(never trained on) by ROC area and by balanced accuracy; and it times the backbone's batch-1
forward pass at each size (2 threads, best of 20). Images are resized to the square input the
way leamoji's frames are fed (the whole picture, bilinear).

    input-size-trial.py --pth .build/weights/efficientnet-lite0-57934424.pth \
        [--frames .build/real-frames] [--manifest data/real-frames/manifest.tsv]

A measurement script: it needs PyTorch and Pillow, and is never run by the tests.
"""

import argparse
import csv
import os
import sys
import time

import importlib.util

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
# The PyTorch reference stays in the repository's scripts/ (leamoji's tests run it too).
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import efficientnet_reference as ref  # noqa: E402

# The ROC area `make real-check` reports (Lab/scripts/real-check-report.py), not a second one.
_spec = importlib.util.spec_from_file_location(
    "real_check_report", os.path.join(HERE, "real-check-report.py"))
real_check_report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(real_check_report)


def load_image(path, size):
    from PIL import Image
    with Image.open(path) as im:
        rgb = np.asarray(im.convert("RGB").resize((size, size), Image.BILINEAR), dtype=np.float32)
    return ((rgb / np.float32(255) - ref.MEAN) / ref.STD).transpose(2, 0, 1)


def features(model, paths, size):
    out = []
    with torch.no_grad():
        for i in range(0, len(paths), 32):
            batch = torch.from_numpy(np.stack([load_image(p, size) for p in paths[i:i + 32]]))
            x = model.head(model.blocks(model.stem(batch)))
            out.append(x.mean(dim=(2, 3)).numpy())
    return np.concatenate(out)


def train_head(x, y, steps=600, rate=0.5):
    mean, std = x.mean(0), x.std(0) + 1e-6
    x = (x - mean) / std
    weight = np.where(y == 1, 0.5 / max(1, y.sum()), 0.5 / max(1, (1 - y).sum()))
    w, b = np.zeros(x.shape[1]), 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(x @ w + b)))
        g = weight * (p - y)
        w -= rate * (x.T @ g + 1e-3 * w)
        b -= rate * g.sum()
    return lambda z: 1 / (1 + np.exp(-(((z - mean) / std) @ w + b)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pth", required=True)
    parser.add_argument("--frames", default=".build/real-frames")
    parser.add_argument("--manifest", default="data/real-frames/manifest.tsv")
    args = parser.parse_args()
    torch.set_num_threads(2)
    model = ref.load(args.pth)
    train, check = [], []
    with open(args.manifest, encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            scary = 1 if row["label"] == "scary" else 0
            if row["split"] == "train":
                path = os.path.join(args.frames, "train", row["label"].capitalize(), row["id"] + ".png")
                train.append((path, scary))
            else:
                check.append((os.path.join(args.frames, "check", row["id"] + ".png"), scary))
    print(f"{len(train)} training pictures ({sum(s for _, s in train)} scary), "
          f"{len(check)} check stills ({sum(s for _, s in check)} scary)")
    print("size  check ROC area  check balanced accuracy  batch-1 forward (PyTorch, 2 threads)")
    for size in (224, 192, 160):
        xt = features(model, [p for p, _ in train], size)
        yt = np.array([s for _, s in train], dtype=np.float64)
        xc = features(model, [p for p, _ in check], size)
        yc = np.array([s for _, s in check])
        p = train_head(xt.astype(np.float64), yt)(xc.astype(np.float64))
        auc = real_check_report.auc(p[yc == 1].tolist(), p[yc == 0].tolist())
        hit = ((p >= 0.5) == (yc == 1))
        balanced = 0.5 * (hit[yc == 1].mean() + hit[yc == 0].mean())
        x1 = torch.from_numpy(load_image(check[0][0], size)[None])
        best = float("inf")
        with torch.no_grad():
            for _ in range(20):
                start = time.perf_counter()
                model(x1)
                best = min(best, time.perf_counter() - start)
        print(f"{size:4}  {auc:14.3f}  {100 * balanced:22.1f} %  {1000 * best:8.2f} ms")


if __name__ == "__main__":
    main()
