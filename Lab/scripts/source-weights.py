#!/usr/bin/env python3
"""Weights the real training pictures by their source, as a folder of links (model 2.4).

    source-weights.py FRAMES MANIFEST OUT

FRAMES holds Happy/, Neutral/ and Scary/ with <id>.png pictures (`make real-frames` writes
.build/real-frames/train); MANIFEST is data/real-frames/manifest.tsv. A picture's group is its
package and label (a picture the manifest does not list: the group "extra" and its folder's
label). OUT gets the same three folders, in which each picture of a group of n is linked
round(sqrt(N / n)) times (at least once) as <id>-w0.png, <id>-w1.png, ..., N being the largest
group's size.

Why: the training set's groups differ in size by two orders of magnitude (Wesnoth's 133 scary
unit sprites and portraits against UFO: AI's 9 aliens). Counted once each, the largest groups
decide what "scary" looks like; weighted by the square root, each picture of a small group counts
more and a large group still counts most in all. The heads trained on the weighted folder rank
the real check set's frightening seconds above its benign ones better (docs/model-trials.md, model
2.4). Standard library only; the same inputs give the same folder.
"""
import math
import os
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import real_manifest  # noqa: E402

LABELS = ("Happy", "Neutral", "Scary")


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: source-weights.py FRAMES MANIFEST OUT")
    frames, manifest, out = sys.argv[1:]
    package = real_manifest.packages(manifest)
    pictures = []
    for label in LABELS:
        folder = os.path.join(frames, label)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith(".png"):
                ident = name[:-4]
                pictures.append((label, name, (package.get(ident, "extra"), label)))
    if not pictures:
        sys.exit(f"source-weights: {frames}: no pictures in {', '.join(LABELS)}")
    sizes = Counter(group for _, _, group in pictures)
    largest = max(sizes.values())
    links = 0
    for label in LABELS:
        os.makedirs(os.path.join(out, label), exist_ok=True)
    for label, name, group in pictures:
        target = os.path.abspath(os.path.join(frames, label, name))
        for k in range(max(1, round(math.sqrt(largest / sizes[group])))):
            os.symlink(target, os.path.join(out, label, f"{name[:-4]}-w{k}.png"))
            links += 1
    print(f"source-weights: {len(pictures)} pictures in {len(sizes)} groups (largest {largest}) "
          f"-> {links} links in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
