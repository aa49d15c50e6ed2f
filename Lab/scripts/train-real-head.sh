#!/usr/bin/env bash
# A candidate for the default model (issue 22): a head on EfficientNet-Lite0 trained on the real
# labelled frames (Lab/scripts/fetch-real-frames.sh) plus generated 224x224 scenes, every label shown
# equally often (--balance), then scored on the real check set (make real-check). The defaults
# make model 2.1; docs/model.md and docs/model-trials.md list the trials made with other settings.
#
#   Lab/scripts/train-real-head.sh [OUTPUT [TRAIN OPTIONS...]]   # default .build/real-head.safetensors
#
# TRAIN OPTIONS are passed to `leamoji-lab train` as given (model card: --author, --version,
# --created, --description, --license, --scary-threshold, --evaluation); without a
# --description or --license the script's own are used.
#
# Environment: GENERATED (generated varied scenes per label, default 300; 0 for none), CLASSIC
# (generated classic scenes per label, the look of the sample videos, default 150), SEED
# (default 42), BACKBONE (default efficientnet-lite0, the committed one; the path
# .build/efficientnet-lite2.safetensors is made when missing by
# `Lab/scripts/convert-efficientnet-lite0.sh --variant lite2 --size 224`), HEAD_OPTIONS (extra train
# options, default "--fine-tune 2 --epochs 20"; e.g. "--hidden 64 --l2 0.1 --validation-split 0
# --epochs 20" for the Lite2 trials), LEAMOJI_BIN (default:
# the release build), REAL_CHECK=0 (skip the check set), REAL_TRAIN (the real frames' folder,
# default .build/real-frames/train). The same inputs, options, seed and
# SOURCE_DATE_EPOCH (or --created) give the same bytes.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-.build/real-head.safetensors}
shift $(($# > 0 ? 1 : 0))
CARD=("$@")
[[ " ${CARD[*]} " == *" --description "* ]] ||
  CARD+=(--description "Mood head on EfficientNet-Lite0: real labelled frames (data/real-frames) and generated scenes")
[[ " ${CARD[*]} " == *" --license "* ]] || CARD+=(--license Apache-2.0)
GENERATED=${GENERATED:-300}
CLASSIC=${CLASSIC:-150}
SEED=${SEED:-42}
BACKBONE=${BACKBONE:-efficientnet-lite0}
HEAD_OPTIONS=${HEAD_OPTIONS:---fine-tune 2 --epochs 20}
BIN=${LEAMOJI_BIN:-$(swift build -c release --show-bin-path)/leamoji}
LAB=${LEAMOJI_LAB_BIN:-$(swift build -c release --show-bin-path)/leamoji-lab}
. Lab/scripts/generated-scenes.sh
require_training_inputs train-real-head "$LAB"
if [ ! -f "$BACKBONE" ] && [ "$BACKBONE" = .build/efficientnet-lite2.safetensors ]; then
  Lab/scripts/convert-efficientnet-lite0.sh --variant lite2 --size 224 --out "$BACKBONE" >&2
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/leamoji-real-head.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
generated_scenes "$LAB" "$WORK" "$SEED" "$GENERATED" "$CLASSIC"
# One folder of links: the real frames under their own names, the generated ones as gen-*.
for label in Happy Neutral Scary; do
  mkdir -p "$WORK/data/$label"
  for f in "$REAL_TRAIN/$label"/*.png; do ln -s "$f" "$WORK/data/$label/"; done
  for f in "$WORK/varied/Training Data/$label"/*.png; do
    if [ -e "$f" ]; then ln -s "$f" "$WORK/data/$label/gen-$(basename "$f")"; fi
  done
  for f in "$WORK/classic/Training Data/$label"/*.png; do
    if [ -e "$f" ]; then ln -s "$f" "$WORK/data/$label/classic-$(basename "$f")"; fi
  done
done
# shellcheck disable=SC2086
"$LAB" train "$WORK/data" --backbone "$BACKBONE" --balance --seed "$SEED" $HEAD_OPTIONS \
  "${CARD[@]}" --output "$OUT" --overwrite
[ "${REAL_CHECK:-1}" = 0 ] && exit 0
echo "train-real-head: scoring $OUT on the real check set"
LEAMOJI_BIN="$BIN" Lab/scripts/check-real-footage.sh "$OUT"
