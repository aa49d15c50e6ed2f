#!/usr/bin/env bash
# The footage check: analyses every clip of data/footage (and
# data/footage-rendered when it exists and its clips are rendered) twice, with the picture alone
# (--signals picture) and with the picture, sound and sudden scares (the default), and prints
# Lab/scripts/footage-report.py's figures per split for both. The fetched clips come by
# Lab/scripts/fetch-footage.sh (run here); the rendered ones by Lab/scripts/render-footage.sh, run
# beforehand (it installs the game engines and about 1.2 GB of packages, and takes about half
# an hour on 2 cores), else that set is left out.
#
# Usage: Lab/scripts/check-footage.sh [MODEL]   (default: the shipped model)
# Environment: LEAMOJI_BIN (default: the release build), FOOTAGE (fetched clips, default
# .build/footage), RENDERED (rendered clips, default .build/footage-rendered), FOOTAGE_KEEP (a
# folder to keep the two MovieData.json files in), FOOTAGE_SENSITIVITY (default normal).
set -euo pipefail

cd "$(dirname "$0")/../.."
MODEL=${1:-Models/leamoji.safetensors}
BIN=${LEAMOJI_BIN:-$(swift build -c release --show-bin-path)/leamoji}
FOOTAGE=${FOOTAGE:-.build/footage}
RENDERED=${RENDERED:-.build/footage-rendered}
SENSITIVITY=${FOOTAGE_SENSITIVITY:-normal}
[ -x "$BIN" ] || { echo "no leamoji binary at $BIN (make release)" >&2; exit 1; }

Lab/scripts/fetch-footage.sh "$FOOTAGE" >&2
KEEP=${FOOTAGE_KEEP:-$(mktemp -d)}
mkdir -p "$KEEP"
folders=(--footage data/footage)

clips=()
for clip in "$FOOTAGE"/clips/*; do clips+=("$clip"); done
if [ -f data/footage-rendered/manifest.tsv ] && [ -d "$RENDERED/clips" ]; then
  for clip in "$RENDERED"/clips/*; do clips+=("$clip"); done
  folders+=(--footage data/footage-rendered)
fi

for run in picture fused; do
  out="$KEEP/$run.MovieData.json"
  rm -f "$out"
  signals=picture,sound,sudden
  [ "$run" = picture ] && signals=picture
  for clip in "${clips[@]}"; do
    id=$(basename "${clip%.*}")
    "$BIN" analyze "$clip" --model "$MODEL" --id "$id" --output "$out" --frames --no-poster \
      --sensitivity "$SENSITIVITY" --signals "$signals" >/dev/null
  done
done
python3 Lab/scripts/footage-report.py "picture=$KEEP/picture.MovieData.json" \
  "fused=$KEEP/fused.MovieData.json" "${folders[@]}"
