#!/usr/bin/env bash
# The real check set of issue 22 as short clips with per-second truth, from the check stills that
# Lab/scripts/fetch-real-frames.sh writes (data/real-frames/manifest.tsv, split "check": packages that
# the training split never uses). Nothing here is committed; clips are cached.
#
#   CLIPS/<id>.mp4         5 s, 640x480, 10 fps: the still letterboxed on black, zooming slowly in
#                          (1.00 -> 1.15) so every second's frame differs
#   CLIPS/pair-<n>.mp4     6 s: a benign check still for seconds 0-2, then a frightening one for
#                          seconds 3-5 (the label changes within the item); PAIRS of them (10)
#   CLIPS/<id>.truth.json  {"id", "source", "tags", "duration", "fps", "labels": [one per second]}
#                          the same shape as SampleVideos/*.truth.json plus id, source and tags
#
# Tags (from the manifest): bright-frightening, dark-frightening, bright-benign, dark-benign;
# "dark" means the still's mean luma (on grey, 0-1) is below 0.3, decided when it was labelled.
#
# Usage: Lab/scripts/make-check-clips.sh [CLIPS]   (default .build/real-check/clips)
# Environment: REAL_FRAMES (default .build/real-frames: where the check stills are).
# Tools: ffmpeg (apt-get install ffmpeg), python3 (standard library only).
set -euo pipefail

cd "$(dirname "$0")/../.."
CLIPS=${1:-.build/real-check/clips}
FRAMES=${REAL_FRAMES:-.build/real-frames}
MANIFEST=data/real-frames/manifest.tsv
command -v ffmpeg >/dev/null || { echo "ffmpeg is needed: apt-get install ffmpeg" >&2; exit 1; }
command -v python3 >/dev/null || { echo "python3 is needed: apt-get install python3" >&2; exit 1; }
[ -d "$FRAMES/check" ] || { echo "no check stills in $FRAMES/check: run Lab/scripts/fetch-real-frames.sh" >&2; exit 1; }
mkdir -p "$CLIPS"

FPS=10
# render STILL SECONDS OUT: the still letterboxed into 640x480, zooming in slowly.
render() {
  local still=$1 seconds=$2 out=$3 frames=$(($2 * FPS))
  ffmpeg -nostdin -loglevel error -y -i "$still" -vf \
    "scale=1280:960:force_original_aspect_ratio=decrease:flags=lanczos,pad=1280:960:(ow-iw)/2:(oh-ih)/2:black,zoompan=z='1+0.15*on/$frames':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=$frames:s=640x480:fps=$FPS,format=yuv420p" \
    -frames:v "$frames" -c:v libx264 -preset veryfast -crf 23 -movflags +faststart "$out.part.mp4"
  mv "$out.part.mp4" "$out"
}

# truth ID SOURCE TAGS LABEL... : the truth file, one label per second.
truth() {
  python3 - "$CLIPS" "$FPS" "$@" <<'PY'
import json, sys
clips, fps, ident, source, tags, *labels = sys.argv[1:]
doc = {"duration": len(labels), "fps": int(fps), "id": ident, "labels": labels,
       "source": source, "tags": [t for t in tags.split(",") if t]}
with open(f"{clips}/{ident}.truth.json", "w") as f:
    json.dump(doc, f, indent=2, sort_keys=True)
    f.write("\n")
PY
}

# Clips of stills no longer in the manifest's check split go.
for f in "$CLIPS"/*.truth.json; do
  [ -e "$f" ] || continue
  id=$(basename "$f" .truth.json)
  case $id in pair-*) continue ;; esac
  awk -F'\t' -v i="$id" '$1 == i && $2 == "check" { found = 1 } END { exit !found }' "$MANIFEST" ||
    rm -f "$CLIPS/$id.mp4" "$f"
done

benign=() scary=()
while IFS=$'\t' read -r id split label package version path licence sha tags what; do
  [ "$split" = check ] || continue
  still="$FRAMES/check/$id.png"
  [ -f "$still" ] || { echo "$still missing: run Lab/scripts/fetch-real-frames.sh" >&2; exit 1; }
  [ "$label" = scary ] && scary+=("$id|$package $version $path|$tags") || benign+=("$id|$package $version $path|$tags")
  if [ ! -f "$CLIPS/$id.mp4" ] || [ "$still" -nt "$CLIPS/$id.mp4" ]; then
    render "$still" 5 "$CLIPS/$id.mp4"
  fi
  truth_label=$([ "$label" = scary ] && echo scary || echo "$label")
  truth "$id" "$package $version $path" "$tags" $truth_label $truth_label $truth_label $truth_label $truth_label
done < <(tail -n +2 "$MANIFEST")

# Pairs: PAIRS (default 10) frightening stills spread over the list, each after a benign one
# (dark and bright benign alternating).
PAIRS=${PAIRS:-10}
rm -f "$CLIPS"/pair-*
dark=() bright=()
for b in "${benign[@]}"; do
  case $b in *dark-benign*) dark+=("$b") ;; *) bright+=("$b") ;; esac
done
((PAIRS <= ${#scary[@]})) || PAIRS=${#scary[@]}
for n in $(seq 0 $((PAIRS - 1))); do
  if ((n % 2 == 0)) && ((n / 2 < ${#dark[@]})); then b=${dark[$((n / 2))]}; else b=${bright[$((n * 3 % ${#bright[@]}))]}; fi
  IFS='|' read -r bid bsource btags <<<"$b"
  IFS='|' read -r sid ssource stags <<<"${scary[$((n * ${#scary[@]} / PAIRS))]}"
  out="$CLIPS/pair-$((n + 1)).mp4"
  if [ ! -f "$out" ] || [ "$CLIPS/$bid.mp4" -nt "$out" ] || [ "$CLIPS/$sid.mp4" -nt "$out" ]; then
    render "$FRAMES/check/$bid.png" 3 "$CLIPS/.a.mp4"
    render "$FRAMES/check/$sid.png" 3 "$CLIPS/.b.mp4"
    printf "file '%s'\nfile '%s'\n" .a.mp4 .b.mp4 >"$CLIPS/.pair.txt"
    ffmpeg -nostdin -loglevel error -y -f concat -safe 0 -i "$CLIPS/.pair.txt" -c copy "$out.part.mp4"
    mv "$out.part.mp4" "$out"
    rm -f "$CLIPS/.a.mp4" "$CLIPS/.b.mp4" "$CLIPS/.pair.txt"
  fi
  blabel=$(awk -F'\t' -v i="$bid" '$1 == i { print $3 }' "$MANIFEST")
  truth "pair-$((n + 1))" "$bid then $sid: $bsource, then $ssource" "mixed,${btags},${stags}" \
    "$blabel" "$blabel" "$blabel" scary scary scary
done
echo "$(ls "$CLIPS"/*.mp4 | wc -l) check clips in $CLIPS" >&2
