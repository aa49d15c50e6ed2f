#!/usr/bin/env python3
"""Builds the real training frames and check stills of issue 22 from data/real-frames/manifest.tsv.

Called by scripts/fetch-real-frames.sh once the pinned packages are downloaded and unpacked:

    real-frames.py MANIFEST EXTRACTED OUT

For every manifest row the file EXTRACTED/<package>_<version>/<path> must exist and have the
manifest's sha256 (anything else stops the run with exit status 1, naming the file). It is then
written as an RGB PNG:

    train rows -> OUT/train/<Label>/<id>.png   (Happy/, Neutral/, Scary/, as `leamoji train` reads)
    check rows -> OUT/check/<id>.png           (scripts/make-check-clips.sh turns them into clips)

Conversion, the same on every machine with Debian 12's python3-pil (Pillow 9.4):
  * transparent pixels (portraits, stamps, sprites) are composited over a flat background picked
    from the id's SHA-256 among black, white, mid grey and a dusk blue, so the background colour
    carries no label and a model cannot learn "black background = scary";
  * the longer side is reduced to at most 640 px (Lanczos); smaller pictures keep their size.
Only Python's standard library and Pillow are used.
"""
import hashlib
import os
import sys

try:
    from PIL import Image
except ImportError:
    sys.exit("Pillow is needed: apt-get install python3-pil")

Image.MAX_IMAGE_PIXELS = None
BACKGROUNDS = [(0, 0, 0), (255, 255, 255), (128, 128, 128), (40, 52, 88)]
MAX_SIDE = 640
FOLDERS = {"happy": "Happy", "neutral": "Neutral", "scary": "Scary"}


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def convert(src, dst, ident):
    im = Image.open(src)
    im.load()
    if im.mode in ("P", "LA", "PA") or (im.mode == "P" and "transparency" in im.info):
        im = im.convert("RGBA")
    if im.mode == "RGBA":
        colour = BACKGROUNDS[hashlib.sha256(ident.encode()).digest()[0] % len(BACKGROUNDS)]
        bg = Image.new("RGBA", im.size, colour + (255,))
        bg.alpha_composite(im)
        im = bg
    im = im.convert("RGB")
    if max(im.size) > MAX_SIDE:
        scale = MAX_SIDE / max(im.size)
        im = im.resize((max(1, round(im.width * scale)), max(1, round(im.height * scale))), Image.LANCZOS)
    tmp = dst + ".part"
    im.save(tmp, "PNG")
    os.replace(tmp, dst)


def main():
    manifest, extracted, out = sys.argv[1:4]
    with open(manifest, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        rows = [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f if line.strip()]
    counts = {}
    bad = 0
    for row in rows:
        src = os.path.join(extracted, f"{row['package']}_{row['version']}", row["path"].lstrip("/"))
        if not os.path.isfile(src):
            print(f"missing: {row['package']} {row['path']}", file=sys.stderr)
            bad += 1
            continue
        if sha256(src) != row["sha256"]:
            print(f"checksum mismatch: {row['package']} {row['path']}", file=sys.stderr)
            bad += 1
            continue
        if row["split"] == "train":
            folder = os.path.join(out, "train", FOLDERS[row["label"]])
        else:
            folder = os.path.join(out, "check")
        os.makedirs(folder, exist_ok=True)
        dst = os.path.join(folder, row["id"] + ".png")
        if not os.path.exists(dst):
            convert(src, dst, row["id"])
        key = (row["split"], row["label"])
        counts[key] = counts.get(key, 0) + 1
    if bad:
        sys.exit(f"{bad} file(s) missing or with the wrong checksum; nothing is trustworthy")
    for (split, label), n in sorted(counts.items()):
        print(f"{split:6} {label:8} {n:5}")


if __name__ == "__main__":
    main()
