#!/usr/bin/env bash
# How a model carries over to art it has never met: scores MODEL on the fresh sources of
# data/real-frames/manifest.tsv (split "fresh": Cataclysm: DDA's and Angband's game sprites,
# labelled by a person like the rest). No model trains on them and no threshold, recipe or
# default was chosen on them, unlike the check set, on which each default model's recipe was
# picked among trials; so a drop from the check set's figures to these is what that choice
# flatters. `make real-check` runs this after the check set (REAL_CHECK_FRESH=0 skips it).
#
#   Lab/scripts/fresh-check.sh MODEL
#
# Each still is letterboxed into 640x480 on black, as a check clip's first frame shows it,
# classified once (`leamoji classify --json`) and scored by Lab/scripts/fresh-check-report.py: per
# source, the ROC area of p(scary) with a 90 % interval, and at each sensitivity's threshold
# from the model's card the share of frightening, benign and dark benign stills called scary.
# Environment: LEAMOJI_BIN (default: the release build), REAL_FRAMES (default .build/real-frames),
# REAL_FRAMES_FETCHED=1 (the caller has just run Lab/scripts/fetch-real-frames.sh on REAL_FRAMES, as
# Lab/scripts/check-real-footage.sh has: not run again).
# Tools: python3 + python3-pil (apt-get install python3 python3-pil).
set -euo pipefail
cd "$(dirname "$0")/../.."
MODEL=${1:?usage: Lab/scripts/fresh-check.sh MODEL}
[ -f "$MODEL" ] || { echo "fresh-check: $MODEL: no such model file" >&2; exit 1; }
BIN=${LEAMOJI_BIN:-$(swift build -c release --show-bin-path)/leamoji}
[ -x "$BIN" ] || { echo "fresh-check: $BIN missing: run make release" >&2; exit 1; }
FRAMES=${REAL_FRAMES:-.build/real-frames}
[ "${REAL_FRAMES_FETCHED:-0}" = 1 ] || Lab/scripts/fetch-real-frames.sh "$FRAMES" >/dev/null

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
/usr/bin/python3 - "$FRAMES/fresh" "$WORK/stills" <<'PY'
import os, sys
from PIL import Image
src, dst = sys.argv[1:3]
os.makedirs(dst)
for name in sorted(os.listdir(src)):
    if not name.endswith(".png"):
        continue
    with Image.open(os.path.join(src, name)) as im:
        im = im.convert("RGB")
    scale = min(640 / im.width, 480 / im.height)
    im = im.resize((max(1, round(im.width * scale)), max(1, round(im.height * scale))), Image.LANCZOS)
    frame = Image.new("RGB", (640, 480))
    frame.paste(im, ((640 - im.width) // 2, (480 - im.height) // 2))
    frame.save(os.path.join(dst, name))
PY
shopt -s nullglob
stills=("$WORK/stills"/*.png)
[ ${#stills[@]} -gt 0 ] || { echo "fresh-check: no fresh stills in $FRAMES/fresh" >&2; exit 1; }
"$BIN" classify "${stills[@]}" --json --model "$MODEL" >"$WORK/classified.jsonl"
"$BIN" model "$MODEL" --json >"$WORK/model.json"
python3 Lab/scripts/fresh-check-report.py "$WORK/classified.jsonl" data/real-frames/manifest.tsv "$WORK/model.json" \
  "$MODEL"
