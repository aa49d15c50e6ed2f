#!/usr/bin/env bash
# Prints how long `leamoji merge` takes to merge 1,000 per-film fragments into a store that
# already holds 1,000 films (half of the fragments replace films, half add new ones), and its
# peak memory; then the same with 100 fragments, so that memory can be compared (it follows the
# size of the store, not the number of fragment files). Each fragment is a real `analyze`
# output of a sample video (4 markers) with its id changed. Usage: bench-merge.sh path/to/leamoji
set -euo pipefail
bin=${1:?usage: bench-merge.sh path/to/leamoji}
work=$(mktemp -d "${TMPDIR:-/tmp}/leamoji-bench-merge.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$(dirname "$0")/.."
"$bin" analyze SampleVideos/meadow-storm.mp4 --output "$work/seed.json" --no-poster >/dev/null
mkdir -p "$work/store-parts" "$work/parts"
for i in $(seq 0 1999); do
  id=$(printf 'film-%04d' "$i")
  folder=parts
  # Films 0-999 make the store; fragments are 500-1499 (500 replacements, 500 new films).
  if [ "$i" -lt 1000 ]; then folder=store-parts; fi
  sed "s/\"id\" : \"meadow-storm\"/\"id\" : \"$id\"/" "$work/seed.json" >"$work/$folder/$id.part.json"
  if [ "$i" -ge 500 ] && [ "$i" -lt 1000 ]; then cp "$work/$folder/$id.part.json" "$work/parts/"; fi
done
rm "$work"/parts/film-1[5-9]*.part.json
"$bin" merge "$work"/store-parts/*.part.json --output "$work/store.json" >/dev/null

measure() { # label, fragments...
  local label=$1
  shift
  cp "$work/store.json" "$work/MovieData.json"
  local start end
  start=$(date +%s.%N)
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f "%M" -o "$work/rss" "$bin" merge "$@" --output "$work/MovieData.json" >/dev/null
  else
    "$bin" merge "$@" --output "$work/MovieData.json" >/dev/null
    echo "?" >"$work/rss"
  fi
  end=$(date +%s.%N)
  awk -v l="$label" -v s="$start" -v e="$end" -v m="$(cat "$work/rss")" 'BEGIN { printf "%-44s %6.2f s   peak memory %s KB\n", l, e - s, m }'
}
films=$(grep -c '"id" :' "$work/store.json")
fragments=("$work"/parts/*.part.json)
echo "store: $films films, $(wc -c <"$work/store.json") bytes; fragments: ${#fragments[@]}"
measure "merge 1000 fragments into 1000 films" "${fragments[@]}"
measure "merge 100 fragments into 1000 films" "${fragments[@]:0:100}"
echo "goal: 1000 fragments into a 1000-film store in under 5 s"
