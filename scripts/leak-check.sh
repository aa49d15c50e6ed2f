#!/usr/bin/env bash
# Runs `leamoji analyze` under valgrind's memcheck and fails unless it frees everything it
# allocates and touches no memory it does not own.
#
#   scripts/leak-check.sh                 # builds leamoji (release) in .build-leak, then checks
#   LEAMOJI_BIN=path/to/leamoji scripts/leak-check.sh   # checks a binary built elsewhere
#
# Four runs, each a real analysis. The first three use a small CNN model (the 1.2 model, kept as
# a test fixture; LEAK_MODEL= another): the shipped model's EfficientNet-Lite0 splits each image
# over two threads that meet at a spin barrier, which valgrind, running one thread at a time,
# makes about 20 s per sample (with --fair-sched=yes; far longer without it). The fourth run
# analyses two samples with the shipped model, so its threads are checked too.
#   1. success: SampleVideos/meadow-storm.mp4 -> MovieData.json (+ poster JPEG, + .vtt), which
#      must be written and hold the video's entry;
#   2. damaged data: the same video cut after a third of its bytes; its index is intact, so
#      leamoji analyses what is there, skipping damaged packets (exit status 0) — the decoder's
#      error paths run;
#   3. error exit: the video cut after 4 KiB, inside (or before) its index, which leamoji must
#      reject as corrupt (exit status 65) — the early-return paths must free what they opened;
#   4. the shipped model: SampleVideos/meadow-storm.mp4 at one sample per 15 s.
# Each run passes only with "definitely lost: 0 bytes", "indirectly lost: 0 bytes" and no
# memory errors (invalid reads/writes, uninitialised values, bad frees). "possibly lost" and
# "still reachable" are printed but allowed: they are the Swift runtime's metadata caches and
# the worker threads still alive at exit, which are never freed by design.
#
# Environment: LEAK_MODEL (the model of runs 1-3), LEAMOJI_BIN (skip the build), LEAK_CONFIG (release|debug, default release),
# LEAK_SCRATCH (build folder, default .build-leak), LEAK_INTERVAL (seconds between samples,
# default 1), VALGRIND (default valgrind), SWIFT (default swift), KEEP=1 (keep the temporary
# folder with the logs).
set -euo pipefail
cd "$(dirname "$0")/.."

VIDEO=SampleVideos/meadow-storm.mp4
MODEL=${LEAK_MODEL:-Tests/LeamojiClassifierTests/Fixtures/leamoji-1.2.safetensors}
CONFIG=${LEAK_CONFIG:-release}
SCRATCH=${LEAK_SCRATCH:-.build-leak}
INTERVAL=${LEAK_INTERVAL:-1}
VALGRIND=${VALGRIND:-valgrind}
SWIFT=${SWIFT:-swift}
# valgrind's own exit status for errors it finds, distinct from every leamoji exit status.
VALGRIND_ERROR_STATUS=86

command -v "$VALGRIND" >/dev/null || { echo "leak-check: $VALGRIND not found (apt-get install valgrind)" >&2; exit 2; }

if [ -n "${LEAMOJI_BIN:-}" ]; then
  BIN=$LEAMOJI_BIN
else
  echo "leak-check: building leamoji ($CONFIG) in $SCRATCH"
  "$SWIFT" build -c "$CONFIG" --product leamoji --scratch-path "$SCRATCH"
  BIN=$("$SWIFT" build -c "$CONFIG" --scratch-path "$SCRATCH" --show-bin-path)/leamoji
fi
[ -x "$BIN" ] || { echo "leak-check: no leamoji binary at $BIN" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/leamoji-leak-check.XXXXXX")
if [ -z "${KEEP:-}" ]; then trap 'rm -rf "$WORK"' EXIT; else echo "leak-check: keeping $WORK"; fi

failures=0

# run_checked NAME EXPECTED_STATUS ARGS... — runs leamoji under memcheck, prints the summary,
# and counts a failure unless leamoji exited as expected and memcheck found nothing.
run_checked() {
  local name=$1 expected=$2
  shift 2
  local log="$WORK/$name.valgrind.log"
  echo
  echo "== $name: leamoji $*"
  local start=$SECONDS status=0
  # --errors-for-leak-kinds=definite,indirect: only real leaks (plus every memory error) turn
  # into valgrind's error status; the summary below shows the other kinds for information.
  "$VALGRIND" --tool=memcheck --fair-sched=yes --leak-check=full \
    --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
    --error-exitcode=$VALGRIND_ERROR_STATUS --num-callers=30 --log-file="$log" \
    "$BIN" "$@" >"$WORK/$name.stdout" 2>"$WORK/$name.stderr" || status=$?
  echo "   wall time under valgrind: $((SECONDS - start)) s; leamoji exit status: $status"

  # The LEAK SUMMARY lines (and the ERROR SUMMARY), without valgrind's ==pid== prefix.
  sed -n -e 's/^==[0-9]*== //' -e '/LEAK SUMMARY:/,/suppressed:/p' -e '/ERROR SUMMARY:/p' "$log" | sed 's/^/   /'

  local ok=1
  local definite indirect errors
  definite=$(sed -n 's/^==[0-9]*==[[:space:]]*definitely lost: \([0-9,]*\) bytes.*/\1/p' "$log" | tr -d ,)
  indirect=$(sed -n 's/^==[0-9]*==[[:space:]]*indirectly lost: \([0-9,]*\) bytes.*/\1/p' "$log" | tr -d ,)
  errors=$(sed -n 's/^==[0-9]*== ERROR SUMMARY: \([0-9,]*\) errors.*/\1/p' "$log" | tr -d ,)
  # No LEAK SUMMARY at all means nothing was lost ("All heap blocks were freed").
  if grep -q "All heap blocks were freed" "$log"; then definite=${definite:-0}; indirect=${indirect:-0}; fi
  if [ "${definite:-}" != 0 ]; then echo "   FAIL: definitely lost: ${definite:-no summary} bytes"; ok=0; fi
  if [ "${indirect:-}" != 0 ]; then echo "   FAIL: indirectly lost: ${indirect:-no summary} bytes"; ok=0; fi
  if [ "${errors:-}" != 0 ]; then echo "   FAIL: memcheck reported ${errors:-an unknown number of} errors"; ok=0; fi
  if [ "$status" = "$VALGRIND_ERROR_STATUS" ]; then
    echo "   FAIL: valgrind found errors (exit status $VALGRIND_ERROR_STATUS)"; ok=0
  elif [ "$status" != "$expected" ]; then
    echo "   FAIL: leamoji exited with $status, expected $expected; its stderr:"
    sed 's/^/     /' "$WORK/$name.stderr"
    ok=0
  fi
  if [ $ok = 0 ]; then
    # The first reports, with their stacks, so the failure can be read from the CI log.
    echo "   --- first memcheck reports ($log) ---"
    sed -n 's/^==[0-9]*== //p' "$log" |
      awk '/^(Invalid|Conditional|Use of uninitialised|Syscall param|Mismatched|.*are (definitely|indirectly) lost)/{n++} n>0 && n<=5' |
      head -n 150 | sed 's/^/   /'
    failures=$((failures + 1))
  fi
  return 0
}

# 1. Success path: a full analysis writing MovieData.json, the poster and subtitles.
mkdir -p "$WORK/ok"
run_checked analyze 0 analyze "$VIDEO" --model "$MODEL" --output "$WORK/ok/MovieData.json" \
  --interval "$INTERVAL" --vtt
if [ -s "$WORK/ok/MovieData.json" ] && grep -q '"id" : "meadow-storm"' "$WORK/ok/MovieData.json"; then
  echo "   MovieData.json written: $(grep -c '"cueAt"' "$WORK/ok/MovieData.json") markers; files: $(cd "$WORK/ok" && ls | tr '\n' ' ')"
else
  echo "   FAIL: MovieData.json was not written with the meadow-storm entry"
  failures=$((failures + 1))
fi

# 2. Damaged data: the first third of the file (index intact, data cut off) still analyses.
size=$(stat -c %s "$VIDEO")
head -c $((size / 3)) "$VIDEO" >"$WORK/cut-data.mp4"
mkdir -p "$WORK/cut-data"
run_checked cut-data 0 analyze "$WORK/cut-data.mp4" --model "$MODEL" \
  --output "$WORK/cut-data/MovieData.json" --interval "$INTERVAL"
echo "   leamoji said: $(tr '\n' ' ' <"$WORK/cut-data.stderr")$(head -n 1 "$WORK/cut-data.stdout")"

# 3. Error exit: the first 4 KiB only (the index is cut off) must be rejected as corrupt (65).
head -c 4096 "$VIDEO" >"$WORK/cut-index.mp4"
mkdir -p "$WORK/cut-index"
run_checked cut-index 65 analyze "$WORK/cut-index.mp4" --model "$MODEL" \
  --output "$WORK/cut-index/MovieData.json" --interval "$INTERVAL"
echo "   leamoji said: $(head -n 1 "$WORK/cut-index.stderr")"
if [ -e "$WORK/cut-index/MovieData.json" ]; then
  echo "   FAIL: a MovieData.json was written for a file that could not be read"
  failures=$((failures + 1))
fi

# 4. The shipped model (EfficientNet-Lite0 and its lane thread), two samples.
mkdir -p "$WORK/backbone"
run_checked backbone 0 analyze "$VIDEO" --output "$WORK/backbone/MovieData.json" --interval 15 \
  --no-poster

# 5. Sound: a short clip with a stereo AAC track (its own demuxer, decoder and resampler, and the
# thread that measures it), made here with the ffmpeg CLI when it is present.
if command -v ffmpeg >/dev/null; then
  ffmpeg -v error -nostdin -y -f lavfi -i "testsrc2=size=96x54:rate=25:duration=5" \
    -f lavfi -i "sine=frequency=440:duration=5:sample_rate=48000" -map 0:v -map 1:a \
    -c:a aac -ac 2 -c:v libx264 -preset ultrafast "$WORK/sound.mp4"
  mkdir -p "$WORK/sound"
  run_checked sound 0 analyze "$WORK/sound.mp4" --model "$MODEL" \
    --output "$WORK/sound/MovieData.json" --interval "$INTERVAL" --no-poster
fi

echo
if [ $failures -ne 0 ]; then
  if [ -n "${KEEP:-}" ]; then
    echo "leak-check: FAILED ($failures problem(s)); valgrind logs in $WORK" >&2
  else
    echo "leak-check: FAILED ($failures problem(s)); rerun with KEEP=1 to keep the valgrind logs" >&2
  fi
  exit 1
fi
echo "leak-check: OK — no leaks (0 bytes definitely and indirectly lost) and no memory errors in any run"
