#!/usr/bin/env bash
# `make bench`: how fast `leamoji analyze` samples a film, against the ffmpeg CLI on the same
# clips in the same run (issue 15).
#
# Clips (made once with the ffmpeg CLI, cached in $BENCH_CLIPS): 60 s 1920x1080 30 fps x264
# with its default GOP, the same with a 2 s GOP, and 5 min 1280x720 30 fps x264 default GOP;
# then the 2 s GOP clip and the 5 min one again with a 48 kHz stereo AAC track (pink noise with
# a tone every few seconds, 128 kbit/s), where analyze also decodes the sound and measures sound
# and pace, and is measured with --signals picture (no sound) too.
# Per clip and round, interleaved, each command once:
#   leamoji analyze CLIP            (release build, shipped model: decoding, classifying,
#                                    poster, timeline file), and with --interval 10
#   leamoji analyze CLIP --model $BENCH_BACKBONE (the EfficientNet-Lite0 backbone, issue 21)
#   leamoji analyze on a 160x120 clip of the same length: the cost besides decoding
#   ffmpeg -v error -i CLIP -vf fps=1,scale=64:64 -f rawvideo -y /dev/null   (extraction)
#   ffmpeg -v error -i CLIP -f null -                        (full decode)
#   ffmpeg -v error -skip_frame noref -i CLIP -f null -      (reference frames only)
# Prints one table: median wall seconds, median peak resident memory (GNU time's "Maximum
# resident set size"), and each time as a ratio of the ffmpeg extraction's (which decodes every
# frame whatever the fps filter keeps, so it is the peer for --interval 10 too).
#
# Environment: LEAMOJI_BIN (default: the release build), BENCH_ROUNDS (default 3),
# BENCH_CLIPS (default .build/bench-clips), BENCH_ONLY (a clip name, to run just one),
# BENCH_BACKBONE (default Models/efficientnet-lite0.safetensors; "" skips that row),
# BENCH_OLD (another leamoji binary, e.g. a copy of the build before a change: its plain
# `analyze` is measured in the same rounds, right after this one's, as "analyze, BENCH_OLD").
set -euo pipefail

cd "$(dirname "$0")/.."
ROUNDS=${BENCH_ROUNDS:-3}
CLIPS=${BENCH_CLIPS:-.build/bench-clips}
BIN=${LEAMOJI_BIN:-$(swift build -c release --show-bin-path)/leamoji}
BACKBONE=${BENCH_BACKBONE-Models/efficientnet-lite0.safetensors}
OLD=${BENCH_OLD:-}
[ -x "$BIN" ] || { echo "no leamoji binary at $BIN (make release)" >&2; exit 1; }
[ -z "$OLD" ] || [ -x "$OLD" ] || { echo "BENCH_OLD: no leamoji binary at $OLD" >&2; exit 1; }
command -v ffmpeg >/dev/null || { echo "the ffmpeg CLI is needed (make test-deps)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) is needed: apt-get install time" >&2; exit 1; }

mkdir -p "$CLIPS"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# name|seconds|size|extra x264 options (an "-aac" name gets the sound track)
CLIP_LIST=(
  "1080p-default-gop|60|1920x1080|"
  "1080p-2s-gop|60|1920x1080|-g 60 -keyint_min 60"
  "720p-5min|300|1280x720|"
  "1080p-2s-gop-aac|60|1920x1080|-g 60 -keyint_min 60"
  "720p-5min-aac|300|1280x720|"
)

make_clip() {
  local name=$1 seconds=$2 size=$3 extra=$4
  local out="$CLIPS/$name.mp4"
  [ -s "$out" ] && return
  echo "making $out (once) ..." >&2
  # testsrc2 moves everywhere in the picture; light grain keeps the bitrate film-like (about
  # 6 Mbit/s at 1080p). x264's default GOP (keyint 250, scene cuts, 3 B-frames, B-pyramid);
  # preset faster only to make the clips quicker to encode.
  local sound=()
  if [[ $name == *-aac ]]; then
    sound=(-f lavfi -i "anoisesrc=color=pink:amplitude=0.1:duration=$seconds:sample_rate=48000"
      -f lavfi -i "sine=frequency=660:beep_factor=8:duration=$seconds:sample_rate=48000"
      -filter_complex "[1:a][2:a]amix=inputs=2[a]" -map 0:v -map "[a]"
      -c:a aac -b:a 128k -ac 2 -ar 48000)
  fi
  # shellcheck disable=SC2086
  ffmpeg -v error -y -f lavfi -i "testsrc2=size=$size:rate=30:duration=$seconds" \
    "${sound[@]}" -vf "noise=alls=5:allf=t" -c:v libx264 -preset faster -pix_fmt yuv420p $extra \
    "$out.part.mp4"
  mv "$out.part.mp4" "$out"
}

# Runs one command under GNU time; appends "seconds kilobytes" to $WORK/<key>.
measure() {
  local key=$1
  shift
  local log="$WORK/time.log"
  /usr/bin/time -f "%e %M" -o "$log" "$@" >/dev/null 2>"$WORK/stderr" || {
    echo "failed: $*" >&2
    cat "$WORK/stderr" >&2
    exit 1
  }
  tail -n 1 "$log" >>"$WORK/$key"
}

median() { # column of $WORK/<key>
  sort -n -k"$2" "$WORK/$1" | awk -v c="$2" '{v[NR]=$c} END {
    if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

for entry in "${CLIP_LIST[@]}"; do
  IFS='|' read -r name seconds size extra <<<"$entry"
  [ -n "${BENCH_ONLY:-}" ] && [ "$BENCH_ONLY" != "$name" ] && continue
  make_clip "$name" "$seconds" "$size" "$extra"
done

[ -n "${BENCH_CLIPS_ONLY:-}" ] && exit 0

echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) cores;" \
  "$(ffmpeg -version | head -n 1 | cut -d' ' -f1-3); $ROUNDS rounds, interleaved, medians"
printf '%-18s %-30s %8s %8s %10s\n' clip command seconds "peak MB" "÷ extract"
for entry in "${CLIP_LIST[@]}"; do
  IFS='|' read -r name seconds size extra <<<"$entry"
  [ -n "${BENCH_ONLY:-}" ] && [ "$BENCH_ONLY" != "$name" ] && continue
  clip="$CLIPS/$name.mp4"
  # The same length and rate at 160x120: what analyze costs besides decoding big pictures
  # (start-up, model, classifying, poster, timeline file).
  small="$CLIPS/$name-160x120.mp4"
  [ -s "$small" ] || ffmpeg -v error -y -f lavfi -i "testsrc2=size=160x120:rate=30:duration=$seconds" \
    -c:v libx264 -preset faster -pix_fmt yuv420p "$small"
  rm -f "$WORK"/r-*
  for _ in $(seq "$ROUNDS"); do
    for interval in 1 10; do
      rm -rf "$WORK/out"
      measure "r-leamoji-$interval" "$BIN" analyze "$clip" --interval "$interval" \
        --output "$WORK/out/MovieData.json"
    done
    if [ -n "$OLD" ]; then
      rm -rf "$WORK/out"
      measure r-old "$OLD" analyze "$clip" --output "$WORK/out/MovieData.json"
    fi
    if [[ $name == *-aac ]]; then
      rm -rf "$WORK/out"
      measure r-picture "$BIN" analyze "$clip" --signals picture --output "$WORK/out/MovieData.json"
    fi
    if [ -n "$BACKBONE" ]; then
      rm -rf "$WORK/out"
      measure r-backbone "$BIN" analyze "$clip" --model "$BACKBONE" \
        --output "$WORK/out/MovieData.json"
    fi
    rm -rf "$WORK/out"
    measure r-small "$BIN" analyze "$small" --output "$WORK/out/MovieData.json"
    rm -rf "$WORK/out"
    measure r-extract ffmpeg -v error -i "$clip" -an -vf fps=1,scale=64:64 -f rawvideo -y /dev/null
    measure r-full ffmpeg -v error -i "$clip" -f null -
    measure r-noref ffmpeg -v error -skip_frame noref -i "$clip" -f null -
  done
  base=$(median r-extract 1)
  rows=("leamoji-1|leamoji analyze")
  [ -n "$OLD" ] && rows+=("old|leamoji analyze, BENCH_OLD")
  rows+=("leamoji-10|leamoji analyze --interval 10")
  [[ $name == *-aac ]] && rows+=("picture|leamoji analyze --signals picture")
  [ -n "$BACKBONE" ] && rows+=("backbone|leamoji analyze, backbone")
  rows+=("small|  same at 160x120" "extract|ffmpeg fps=1,scale=64:64" "full|ffmpeg full decode")
  rows+=("noref|ffmpeg -skip_frame noref")
  for row in "${rows[@]}"; do
    IFS='|' read -r key label <<<"$row"
    t=$(median "r-$key" 1)
    m=$(median "r-$key" 2)
    awk -v n="$name" -v c="$label" -v t="$t" -v m="$m" -v b="$base" \
      'BEGIN { printf "%-18s %-30s %8.2f %8.0f %10.2f\n", n, c, t, m / 1024, t / b }'
  done
done
