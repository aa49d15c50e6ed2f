#!/usr/bin/env bash
# `make bench-train`: how long training the shipped model takes, the exact `leamoji train` of
# `Lab/scripts/regenerate-assets.sh model` (3,000 classic scenes, 12 epochs, batch 32, seed 42,
# flip,crop,noise, tested on the 600 test scenes), with this build and, side by side in the
# same run, with another build (the issue-11 peer is the version before issue 11, commit
# 484fbab, built in its own scratch path:
#   git worktree add /tmp/old-484 484fbab && cd /tmp/old-484 &&
#   swift build -c release --product leamoji --scratch-path /tmp/old-build).
# Rounds alternate old, new (then new, old) so that load changes hit both alike. The model
# card's date comes from SOURCE_DATE_EPOCH (the peer has no card); other card options are left
# out (metadata only). Prints each
# run's wall seconds and the load average at its start, both totals and the ratio, and checks
# that the new build's model files are byte-identical across rounds.
#
# Environment: LEAMOJI_BIN (default: the release build), LEAMOJI_OLD_BIN (the peer; without it
# only this build is timed), BENCH_ROUNDS (default 2), BENCH_DATA (default
# .build/bench-train-data: the data set, made once with this build's `scenes dataset`),
# BENCH_EPOCHS (default 12, as `make model`).
set -euo pipefail

cd "$(dirname "$0")/.."
ROUNDS=${BENCH_ROUNDS:-2}
EPOCHS=${BENCH_EPOCHS:-12}
DATA=${BENCH_DATA:-.build/bench-train-data}
NEW=${LEAMOJI_BIN:-$(swift build -c release --show-bin-path)/leamoji}
OLD=${LEAMOJI_OLD_BIN:-}
[ -x "$NEW" ] || { echo "no leamoji binary at $NEW (make release)" >&2; exit 1; }
[ -z "$OLD" ] || [ -x "$OLD" ] || { echo "no peer binary at $OLD" >&2; exit 1; }

if [ ! -d "$DATA/Testing Data" ]; then
  rm -rf "$DATA"
  mkdir -p "$DATA"
  "$NEW" scenes dataset --set classic --out "$DATA" --train-per-class 1000 \
    --test-per-class 200 --size 64 --seed 2018 >/dev/null
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# run NAME BIN ROUND: one training as regenerate-assets.sh runs it; prints "seconds load".
run() {
  local load start end
  load=$(cut -d' ' -f1 /proc/loadavg)
  start=$(date +%s.%N)
  SOURCE_DATE_EPOCH=1795305600 "$2" train "$DATA/Training Data" --test "$DATA/Testing Data" --epochs "$EPOCHS" \
    --batch-size 32 --seed 42 --augment flip,crop,noise --output "$WORK/$1-$3.safetensors" \
    >"$WORK/$1-$3.log" 2>&1 || { cat "$WORK/$1-$3.log" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$(echo "$end - $start" | bc) $load"
}

echo "leamoji train, as Lab/scripts/regenerate-assets.sh model ($EPOCHS epochs); load average at start"
printf '%-6s %-18s %-18s %s\n' round "old (s, load)" "new (s, load)" ratio
total_old=0
total_new=0
for round in $(seq 1 "$ROUNDS"); do
  if [ -n "$OLD" ] && [ $((round % 2)) -eq 1 ]; then
    read -r old_s old_load < <(run old "$OLD" "$round")
    read -r new_s new_load < <(run new "$NEW" "$round")
  else
    read -r new_s new_load < <(run new "$NEW" "$round")
    if [ -n "$OLD" ]; then read -r old_s old_load < <(run old "$OLD" "$round"); fi
  fi
  total_new=$(echo "$total_new + $new_s" | bc)
  if [ -n "$OLD" ]; then
    total_old=$(echo "$total_old + $old_s" | bc)
    printf '%-6s %-18s %-18s %.2fx\n' "$round" "$(printf '%.1f, %s' "$old_s" "$old_load")" \
      "$(printf '%.1f, %s' "$new_s" "$new_load")" "$(echo "$old_s / $new_s" | bc -l)"
  else
    printf '%-6s %-18s %-18s\n' "$round" "-" "$(printf '%.1f, %s' "$new_s" "$new_load")"
  fi
  if ! cmp -s "$WORK/new-1.safetensors" "$WORK/new-$round.safetensors"; then
    echo "bench-train: round $round's model differs from round 1's" >&2
    exit 1
  fi
done
if [ -n "$OLD" ]; then
  printf 'total  %-18s %-18s %.2fx\n' "$(printf '%.1f' "$total_old")" \
    "$(printf '%.1f' "$total_new")" "$(echo "$total_old / $total_new" | bc -l)"
fi
echo "epoch seconds (new, round 1): $(grep -o '([0-9.]* s)' "$WORK/new-1.log" | tr -d '()s' | xargs)"
