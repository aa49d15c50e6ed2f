#!/usr/bin/env bash
# The default model, as its declared recipe says (Lab/recipes/leamoji-2.6.recipe, or RECIPE=FILE;
# the figures below are 2.6's): two heads on EfficientNet-Lite2 at 192 px joined by a gate
# (`leamoji-lab train --experts`; docs/model.md, "The default model"):
#
#   primary    a linear head, --l2 1, on the real labelled frames (make real-frames), each
#              weighted by its source (Lab/scripts/source-weights.py), and 30 generated classic
#              scenes per mood: what answers for real footage
#   secondary  a head with 64 hidden units, --l2 0.1, on the weighted real frames, 450
#              generated varied and 150 classic scenes per mood: what answers for generated
#              scenes (the sample videos' look; 300 varied until 2.4, raised when 2.5's real
#              frames grew by a quarter and its held-out varied scenes fell to 86.7 %)
#   gate       a linear head on the real frames (Primary/) against the generated scenes
#              (Secondary/): which of the two answers, per picture
#
# Every head: --balance, 20 epochs, the last one kept (--validation-split 0), seed SEED.
#
#   Lab/scripts/train-default-model.sh [OUTPUT [CARD OPTIONS...]]   # default .build/default-model.safetensors
#
# CARD OPTIONS go to the last `leamoji-lab train` (--author, --version, --created, --description,
# --license, --scary-threshold, --evaluation). Environment: SEED (default 42), LEAMOJI_BIN
# (default: the release build), REAL_CHECK=0 (skip scoring on the real check set),
# REAL_CHECK_TUNED / REAL_CHECK_SUMMARY (passed to Lab/scripts/check-real-footage.sh), REAL_TRAIN
# (the real frames' folder, default .build/real-frames/train: a trial's own copy),
# REAL_MANIFEST (the manifest source-weights.py groups them by, default
# data/real-frames/manifest.tsv: a trial's own), SOURCE_WEIGHTS=0 (each real frame once,
# unweighted: models 2.2 and 2.3), FOOTAGE_FRAMES (a folder of `leamoji frames` output, one
# <clip id>/ per clip of data/footage and data/footage-rendered: the train clips' seconds join
# the real frames under their labels, weighted by package like them; FOOTAGE_EVERY=N takes every
# N-th second; the trial of docs/model-trials.md, 2026-11-28, not the default). The
# backbone, .build/efficientnet-lite2-192.safetensors, is converted when missing (Apache-2.0,
# Lab/scripts/convert-efficientnet-lite0.sh --variant lite2 --size 192). The same inputs, seed and
# --created give the same bytes.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-.build/default-model.safetensors}
shift $(($# > 0 ? 1 : 0))
CARD=("$@")
# The recipe (Lab/recipes/*.recipe) gives the data and options; SEED, REAL_MANIFEST and
# SOURCE_WEIGHTS in the environment override its values (for trials).
RECIPE=${RECIPE:-Lab/recipes/leamoji-2.6.recipe}
given_seed=${SEED:-} given_manifest=${REAL_MANIFEST:-} given_weights=${SOURCE_WEIGHTS:-}
# shellcheck source=/dev/null
. "$RECIPE"
SEED=${given_seed:-$SEED} REAL_MANIFEST=${given_manifest:-$REAL_MANIFEST}
SOURCE_WEIGHTS=${given_weights:-$SOURCE_WEIGHTS}
BIN=${LEAMOJI_BIN:-$(swift build -c release --show-bin-path)/leamoji}
LAB=${LEAMOJI_LAB_BIN:-$(swift build -c release --show-bin-path)/leamoji-lab}
BACKBONE=.build/efficientnet-$BACKBONE_VARIANT-$BACKBONE_SIZE.safetensors
. Lab/scripts/generated-scenes.sh
require_training_inputs train-default-model "$LAB"
[ -f "$BACKBONE" ] || Lab/scripts/convert-efficientnet-lite0.sh --variant "$BACKBONE_VARIANT" --size "$BACKBONE_SIZE" --out "$BACKBONE" >&2

WORK=$(mktemp -d "${TMPDIR:-/tmp}/leamoji-default-model.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
generated_scenes "$LAB" "$WORK" "$SEED" "$VARIED" "$CLASSIC"

# The real frames, each linked round(sqrt(N / n)) times, n its (package, label) group's size and N
# the largest group's: so that Wesnoth's 133 scary sprites do not decide alone what scary is.
MANIFEST=$REAL_MANIFEST
if [ -n "${FOOTAGE_FRAMES:-}" ]; then
  # The real frames and the training footage's seconds, side by side, as links.
  python3 Lab/scripts/footage-frames.py "$FOOTAGE_FRAMES" "$WORK/footage" "$WORK/manifest.tsv" \
    --every "${FOOTAGE_EVERY:-1}"
  for label in Happy Neutral Scary; do
    mkdir -p "$WORK/with-footage/$label"
    for f in "$REAL_TRAIN/$label"/*.png "$WORK/footage/$label"/*.png; do
      [ -e "$f" ] && ln -s "$(readlink -f "$f")" "$WORK/with-footage/$label/$(basename "$f")"
    done
  done
  REAL_TRAIN="$WORK/with-footage"
  MANIFEST="$WORK/manifest.tsv"
fi
REAL=$REAL_TRAIN
if [ "$SOURCE_WEIGHTS" != 0 ]; then
  REAL="$WORK/real"
  python3 Lab/scripts/source-weights.py "$REAL_TRAIN" "$MANIFEST" "$REAL"
fi

# Folders of links: the real frames under their own names, generated scenes as gen-* and
# classic-* (the first PRIMARY_CLASSIC classic per mood go to the primary too).
for label in Happy Neutral Scary; do
  mkdir -p "$WORK/primary/$label" "$WORK/secondary/$label" "$WORK/gate/Primary" "$WORK/gate/Secondary"
  for f in "$REAL/$label"/*.png; do
    for dir in primary secondary; do ln -s "$f" "$WORK/$dir/$label/"; done
    ln -s "$f" "$WORK/gate/Primary/"
  done
  n=0
  for f in "$WORK/classic/Training Data/$label"/*.png; do
    name="classic-$(basename "$f")"
    ln -s "$f" "$WORK/secondary/$label/$name"
    ln -s "$f" "$WORK/gate/Secondary/$name"
    if [ "$n" -lt "$PRIMARY_CLASSIC" ]; then ln -s "$f" "$WORK/primary/$label/$name"; fi
    n=$((n + 1))
  done
  for f in "$WORK/varied/Training Data/$label"/*.png; do
    ln -s "$f" "$WORK/secondary/$label/gen-$(basename "$f")"
    ln -s "$f" "$WORK/gate/Secondary/gen-$(basename "$f")"
  done
done

common=(--backbone "$BACKBONE" --balance --validation-split 0 --epochs "$EPOCHS" --seed "$SEED")
# The experts' cards carry the model's creation date too: their SHA-256s go on its card.
dated=()
for ((i = 0; i + 1 < ${#CARD[@]}; i++)); do
  if [ "${CARD[$i]}" = --created ]; then dated=(--created "${CARD[$((i + 1))]}"); fi
done
read -r -a primary_options <<<"$PRIMARY_OPTIONS"
read -r -a secondary_options <<<"$SECONDARY_OPTIONS"
"$LAB" train "$WORK/primary" "${common[@]}" "${dated[@]}" "${primary_options[@]}" \
  --output "$WORK/real.safetensors" >&2
"$LAB" train "$WORK/secondary" "${common[@]}" "${dated[@]}" "${secondary_options[@]}" \
  --output "$WORK/generated.safetensors" >&2
[[ " ${CARD[*]} " == *" --license "* ]] || CARD+=(--license Apache-2.0)
"$LAB" train "$WORK/gate" "${common[@]}" \
  --experts "$WORK/real.safetensors,$WORK/generated.safetensors" \
  "${CARD[@]}" --output "$OUT" --overwrite
[ "${REAL_CHECK:-1}" = 0 ] && exit 0
echo "train-default-model: scoring $OUT on the real check set"
LEAMOJI_BIN="$BIN" Lab/scripts/check-real-footage.sh "$OUT"
