#!/usr/bin/env python3
"""Compares leamoji's logits with the PyTorch reference's, frame by frame.

Usage: compare_backbone_logits.py REFERENCE.json LEAMOJI.jsonl MODEL [--tolerance T]

REFERENCE.json is scripts/efficientnet_reference.py's output ([{"file", "logits"}, ...]);
LEAMOJI.jsonl is `leamoji classify --json --model MODEL FRAMES...`'s output, one JSON object
per image with "logits", in the order the frames were given (a "file" or "path" key, when
there is one, is used to check that the order matches). MODEL is read only for its labels.

Prints one line per frame (largest |difference| of the 1000 logits, both top-1 classes), then
a summary line. Exits 1 when a frame's difference exceeds the tolerance (default 1e-3: float32
summation order differs between the engines, so exact equality is not expected; ~1e-5 is
typical) or a top-1 class differs where the reference's top two are not a near tie.
"""

import argparse
import json
import os
import struct
import sys


def labels_of(model):
    with open(model, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        return json.loads(json.loads(f.read(n))["__metadata__"]["labels"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("reference")
    ap.add_argument("leamoji")
    ap.add_argument("model")
    ap.add_argument("--tolerance", type=float, default=1e-3)
    args = ap.parse_args()

    with open(args.reference) as f:
        reference = json.load(f)
    with open(args.leamoji) as f:
        ours = [json.loads(line) for line in f if line.strip()]
    if len(ours) != len(reference):
        sys.exit(f"leamoji printed {len(ours)} results for {len(reference)} frames")
    labels = labels_of(args.model)

    worst, agree, failed = 0.0, 0, False
    for ref, got in zip(reference, ours):
        name = os.path.basename(ref["file"])
        other = got.get("file", got.get("path"))
        if other is not None and os.path.basename(other) != name:
            sys.exit(f"order mismatch: reference {name}, leamoji {other}")
        a, b = got["logits"], ref["logits"]
        if len(a) != len(b):
            sys.exit(f"{name}: leamoji gave {len(a)} logits, the reference {len(b)}")
        diff = max(abs(x - y) for x, y in zip(a, b))
        top_a, top_b = a.index(max(a)), b.index(max(b))
        worst = max(worst, diff)
        agree += top_a == top_b
        # A top-1 disagreement counts only when the reference's best two classes are further
        # apart than the tolerance allows: a near tie may flip on rounding alone.
        second = max(v for i, v in enumerate(b) if i != top_b)
        bad = diff > args.tolerance or (top_a != top_b and b[top_b] - second > 2 * args.tolerance)
        failed |= bad
        print(f"{name:34} max|diff| {diff:.2e}  leamoji {labels[top_a]!r}  reference "
              f"{labels[top_b]!r}{'  <-- FAIL' if bad else ''}")
    print(f"{len(reference)} frames: max |logit diff| {worst:.2e} (tolerance {args.tolerance:g}), "
          f"top-1 agrees on {agree}/{len(reference)}: {'FAIL' if failed else 'ok'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
