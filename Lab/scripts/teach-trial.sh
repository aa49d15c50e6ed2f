#!/usr/bin/env bash
# The teaching trial (docs/model.md, "Teaching it your films"): a parent labels one film's
# seconds, teaches the shipped model with them (`train --init default`), then a second film on
# top of the first, and each model is scored on footage it never saw: the frightening seconds of
# the Freedoom check clips it calls scary, and the benign seconds it calls scary (Freedoom's calm
# seconds, the empty OpenArena fly-throughs and the Nexuiz race). Everything is labelled by
# `analyze --frames` as a parent would run it (default sensitivity, picture, sound and sudden
# scares), and scored against data/footage-rendered/labels.
#
# Usage: Lab/scripts/teach-trial.sh [FIRST [SECOND]]   (default nexuiz-demo1 oa-demo088-test1)
# Environment: LEAMOJI_BIN (default: the release build), CLIPS (rendered clips, default
# .build/footage-rendered/clips), WORK (default /tmp/teach-trial), L2SP (train --l2-sp; empty:
# its default), SEED (train --seed, default 42), KEEP_FRAMES=1 (reuse frame folders already
# sorted in WORK). About 3 minutes on the shared 2-core machine.
set -euo pipefail

cd "$(dirname "$0")/../.."
FIRST=${1:-nexuiz-demo1}
SECOND=${2:-oa-demo088-test1}
BIN=${LEAMOJI_BIN:-$(swift build -c release --show-bin-path)/leamoji}
CLIPS=${CLIPS:-.build/footage-rendered/clips}
WORK=${WORK:-/tmp/teach-trial}
LABELS=data/footage-rendered/labels
[ -x "$BIN" ] || { echo "no leamoji binary at $BIN (make release)" >&2; exit 1; }
[ -f "$CLIPS/$FIRST.mp4" ] || { echo "no clip $CLIPS/$FIRST.mp4 (Lab/scripts/render-footage.sh)" >&2; exit 1; }
mkdir -p "$WORK"

# The footage scored: every check clip and the benign train clips; never a taught film.
eval_ids=$(awk -F'\t' 'NR > 1 && ($2 == "check" || $1 ~ /^oa-flyby-/ || $1 == "nexuiz-piece-o-cake") {print $1}' \
  data/footage-rendered/manifest.tsv)

# sort ID DIR: one PNG per second of the clip, in DIR/Scary, DIR/Neutral (or DIR/Happy) by its labels.
sort_frames() {
  local id=$1 dir=$2 raw="$WORK/raw/$1"
  [ "${KEEP_FRAMES:-0}" = 1 ] && [ -d "$dir" ] && return
  rm -rf "$raw" && "$BIN" frames "$CLIPS/$id.mp4" --out "$raw" >/dev/null
  tail -n +2 "$LABELS/$id.tsv" | while IFS=$'\t' read -r second label _; do
    local png
    png=$(printf '%s/%06d.png' "$raw" "$second")
    [ -f "$png" ] || continue
    local folder=${label^}
    mkdir -p "$dir/$folder"
    cp "$png" "$dir/$folder/$id-$(printf '%06d' "$second").png"
  done
}

sort_frames "$FIRST" "$WORK/teach-$FIRST"
sort_frames "$SECOND" "$WORK/teach-$SECOND"
if [ "${KEEP_FRAMES:-0}" != 1 ] || [ ! -d "$WORK/check" ]; then
  rm -rf "$WORK/check"
  for id in $eval_ids; do sort_frames "$id" "$WORK/check"; done
fi

sp=()
[ -n "${L2SP:-}" ] && sp=(--l2-sp "$L2SP")
train() {  # train DATA INIT OUTPUT: the before/after lines on the check frames, and the card
  "$BIN" train "$1" --init "$2" --output "$3" --overwrite --test "$WORK/check" --created 2026-01-01 \
    --seed "${SEED:-42}" "${sp[@]}" | grep -v '^epoch'
}
echo "== teaching $FIRST"
train "$WORK/teach-$FIRST" default "$WORK/one.safetensors"
echo "== teaching $SECOND on top"
train "$WORK/teach-$SECOND" "$WORK/one.safetensors" "$WORK/two.safetensors"
echo "== teaching $SECOND alone"
train "$WORK/teach-$SECOND" default "$WORK/alone.safetensors"

for model in base one two alone; do
  path=Models/leamoji.safetensors
  [ "$model" = base ] || path="$WORK/$model.safetensors"
  out="$WORK/$model.MovieData.json"
  rm -f "$out"
  for id in $eval_ids; do
    "$BIN" analyze "$CLIPS/$id.mp4" --model "$path" --id "$id" --output "$out" --frames \
      --no-poster >/dev/null
  done
done

python3 - "$WORK" "$LABELS" $eval_ids <<'EOF'
import csv, json, os, sys
work, labels, ids = sys.argv[1], sys.argv[2], sys.argv[3:]
truth = {}
for cid in ids:
    with open(os.path.join(labels, cid + ".tsv"), newline="") as f:
        truth[cid] = {int(r["second"]): r["label"] for r in csv.DictReader(f, delimiter="\t")}
def pct(a, b): return f"{100 * a / b:5.1f} % ({a}/{b})" if b else "-"
print(f"{'model':8} {'frightening called scary':>26} {'benign called scary':>22} {'of them Freedoom':>20} {'fly-throughs, race':>20}")
for model in ["base", "one", "two", "alone"]:
    with open(os.path.join(work, model + ".MovieData.json")) as f:
        entries = {e["id"]: e for e in json.load(f)}
    c = dict(f=0, fh=0, b=0, bh=0, db=0, dbh=0, ob=0, obh=0)
    for cid in ids:
        called = {int(round(x["second"])): x["label"] for x in entries[cid]["frames"]}
        doom = cid.startswith("freedoom")
        for s, label in truth[cid].items():
            if s not in called: continue
            scary = called[s] == "scary"
            if label == "scary":
                c["f"] += 1; c["fh"] += scary
            else:
                c["b"] += 1; c["bh"] += scary
                k = "d" if doom else "o"
                c[k + "b"] += 1; c[k + "bh"] += scary
    print(f"{model:8} {pct(c['fh'], c['f']):>26} {pct(c['bh'], c['b']):>22} {pct(c['dbh'], c['db']):>20} {pct(c['obh'], c['ob']):>20}")
EOF
