#!/usr/bin/env bash
# Regenerates everything leamoji ships that is generated: the training and testing images
# (not committed), the default model Models/leamoji.safetensors, and the sample videos in
# SampleVideos/ with their ground truth. Deterministic apart from the H.264 encoder's version
# and FFmpeg's JPEG decoder (the model's training mixes in 30 real photos, fetched checksummed
# by scripts/fetch-photos.sh; needs curl, unzip and the network once).
#
#   scripts/regenerate-assets.sh            # everything
#   scripts/regenerate-assets.sh videos     # only the sample videos
#   scripts/regenerate-assets.sh model      # only the data set and the model
#
# Needs the build packages (make deps) and the ffmpeg CLI, used here only to encode the
# rendered frames as H.264 (leamoji itself never runs ffmpeg).
#
# The shipped model and the sample videos are made from the *classic* scene set (each mood with
# its own lighting), named explicitly with --set classic: `scenes dataset` now defaults to the
# varied set (lighting says nothing about the mood), which the next default model will be
# trained on. The model card's creation date is fixed (MODEL_CREATED) so that the model file is
# reproduced byte for byte: `scripts/regenerate-assets.sh model` writes the committed
# Models/leamoji.safetensors again, bit for bit, for any --threads. Training uses no maths
# library function whose last bit could differ between hosts (glibc picks FMA or SSE2 variants
# of exp, log, cos and pow at run time): softmax, Box–Muller, the learning-rate schedule and
# Adam's bias correction use LeamojiNN's PortableMath, the noise augmentation integer sums, and
# the kernels the same AVX2/FMA instructions on every host (docs/network-kernels.md). The
# model shipped until issue 11 (kept as Tests/LeamojiClassifierTests/Fixtures/
# leamoji-2026-11-22.safetensors) was not reproducible this way.
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"

make --no-print-directory release >/dev/null
leamoji="$(swift build -c release --show-bin-path)/leamoji"
command -v ffmpeg >/dev/null || { echo "regenerate-assets: the ffmpeg CLI is needed to encode the sample videos (apt-get install ffmpeg)" >&2; exit 1; }

if [ "$what" = all ] || [ "$what" = model ]; then
  rm -rf "Training Data" "Testing Data"
  scripts/fetch-photos.sh .build/photos
  "$leamoji" scenes dataset --set classic --out . --train-per-class 1000 --test-per-class 200 \
    --size 64 --seed 2018 --photos .build/photos --photo-blend 0.4 --photo-plain 0.5
  "$leamoji" train "Training Data" --test "Testing Data" --epochs 12 --batch-size 32 --seed 42 \
    --augment flip,crop,noise --output Models/leamoji.safetensors --overwrite \
    --author "the leamoji project" --version 1.1 --created "${MODEL_CREATED:-2026-11-23}" \
    --description "Happy, neutral or scary, mostly from lighting: trained on leamoji's classic generated scenes (scenes dataset --set classic) with 30 real photos mixed in (--photos: blended under 40 % of the scenes, 500 plain photos as neutral), not on films. Dark scenes tend to be called scary; real footage without a mood cue mostly neutral."
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
    "$leamoji" scenes clip --script "$script" --seed "$seed" --size 640x360 --fps 25 \
        --truth "SampleVideos/$name.truth.json" \
      | ffmpeg -v error -y -f rawvideo -pix_fmt rgb24 -s 640x360 -r 25 -i - \
          -c:v libx264 -preset slow -crf 24 -pix_fmt yuv420p -movflags +faststart \
          -metadata title="$title" -metadata comment="Generated mood scenes ($script), seed $seed" \
          "SampleVideos/$name.mp4"
    echo "Wrote SampleVideos/$name.mp4 ($(du -h "SampleVideos/$name.mp4" | cut -f1))"
  done
fi
