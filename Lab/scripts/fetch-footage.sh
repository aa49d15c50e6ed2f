#!/usr/bin/env bash
# Real footage with sound, labelled per second, for tuning and checking the sound and pace
# signals (issue 37, item 3). Every clip is a file inside a pinned Debian 12 (bookworm, main)
# package, listed in data/footage/manifest.tsv with its package, version, path, licence and
# sha256; its per-second truth is data/footage/labels/<id>.tsv (data/footage/README.md says
# how the labels were made). Nothing here is committed but the manifest and labels.
#
#   OUT/clips/<id>.<ext>   every clip of the manifest, named by its id, extension kept
#   OUT/debs/              the pinned .deb files (kept, so a second run downloads nothing)
#
# Each .deb is fetched by exact version from deb.debian.org's pool and its sha256 checked
# (fetch_checked: a mismatch stops the run); only the manifest's paths are unpacked
# (dpkg-deb | tar), and each clip is checked against the manifest's sha256 before it is
# renamed into place. A clip already in place with the right sha256 is kept, and a package
# whose clips are all in place is not downloaded. When bookworm's pool moves on to a newer
# version, set DEBIAN_POOL to a snapshot, e.g.
# DEBIAN_POOL=https://snapshot.debian.org/archive/debian/20251101T000000Z.
#
# Usage: Lab/scripts/fetch-footage.sh [OUT]    (default: $FOOTAGE, else .build/footage)
# Tools: curl, dpkg-deb, tar, sha256sum (apt-get install curl dpkg tar coreutils).
# About 390 MB of downloads the first time (FreeCol's package alone is 142 MB).
set -euo pipefail

cd "$(dirname "$0")/../.."
source Lab/scripts/fetch-checked.sh
OUT=${1:-${FOOTAGE:-.build/footage}}
MANIFEST=data/footage/manifest.tsv
POOL=${DEBIAN_POOL:-https://deb.debian.org/debian}

for tool in curl dpkg-deb tar sha256sum; do
  command -v $tool >/dev/null || { echo "$tool is needed: apt-get install curl dpkg tar coreutils" >&2; exit 1; }
done

# package|version|file|sha256|url, one per package the manifest names.
DEBS=(
  "boswars-data|2.7+svn160110-5|boswars-data_2.7+svn160110-5_all.deb|36098b478576810a786eb9d75b54e45f4d5fa507332fa8bf3360c14814ecc016|$POOL/pool/main/b/boswars/boswars-data_2.7+svn160110-5_all.deb"
  "fillets-ng-data|1.0.1-1.1|fillets-ng-data_1.0.1-1.1_all.deb|25de89afd8b1adf7bcace8290248a6a22c89cd42300317e69000e162c032cf84|$POOL/pool/main/f/fillets-ng-data/fillets-ng-data_1.0.1-1.1_all.deb"
  "forensics-samples-files|1.1.4-5|forensics-samples-files_1.1.4-5_all.deb|8710c751be1a71a88e343540ea1a5cab1fd349c2bcdf07626a27cfe68689e7c4|$POOL/pool/main/f/forensics-samples/forensics-samples-files_1.1.4-5_all.deb"
  "freecol|1.0.0-1|freecol_1.0.0-1_all.deb|4ee2d052ff86d7a16eec296cd42cad4c215cca11c179cd6d5f8a732b5637184d|$POOL/pool/main/f/freecol/freecol_1.0.0-1_all.deb"
  "openboard-common|1.6.4+dfsg-1|openboard-common_1.6.4+dfsg-1_all.deb|3a5a22299ac1be43c88c4ff69a44ef4886407cfc0e6b478934c70cf5a1714d28|$POOL/pool/main/o/openboard/openboard-common_1.6.4+dfsg-1_all.deb"
  "pd-extendedview|0.5~repack-4|pd-extendedview_0.5~repack-4_all.deb|15736773df4797252fb3559ebf760418d1e7726f920ce5a35c0ee668f8338c6b|$POOL/pool/main/p/pd-extendedview/pd-extendedview_0.5~repack-4_all.deb"
  "planetblupi-common|1.14.2-3|planetblupi-common_1.14.2-3_all.deb|4b0c6381e7f72e44585cb0ae766d33d40627c866dee0b4447c77bbc42df87304|$POOL/pool/main/p/planetblupi/planetblupi-common_1.14.2-3_all.deb"
  "python3-hug-doc|2.6.0-2.4|python3-hug-doc_2.6.0-2.4_all.deb|31de2ba59c0d2abc9ba2b5bdb6ce5c3c3e68d060b5700a35990b3c8c72c02ece|$POOL/pool/main/p/python-hug/python3-hug-doc_2.6.0-2.4_all.deb"
  "renpy-demo|8.0.3+dfsg-1|renpy-demo_8.0.3+dfsg-1_all.deb|b7599368598cd7a96e89772d48d7c89327fcc8d4490e0760eceda0bd792025d5|$POOL/pool/main/r/renpy/renpy-demo_8.0.3+dfsg-1_all.deb"
)

mkdir -p "$OUT/clips"
clip_ok() { [ -f "$1" ] && echo "$2  $1" | sha256sum -c --quiet - 2>/dev/null; }
ext_of() { local base=${1##*/}; echo "${base##*.}"; }

total=0
for deb in "${DEBS[@]}"; do
  IFS='|' read -r pkg ver file sum url <<<"$deb"
  # The manifest's rows for this package and version: id, path, sha256.
  rows=$(awk -F'\t' -v p="$pkg" -v v="$ver" 'NR > 1 && $3 == p && $4 == v { print $1 "\t" $5 "\t" $7 }' "$MANIFEST")
  [ -n "$rows" ] || continue
  missing=()
  while IFS=$'\t' read -r id path sha; do
    clip_ok "$OUT/clips/$id.$(ext_of "$path")" "$sha" || missing+=("$id"$'\t'"$path"$'\t'"$sha")
    total=$((total + 1))
  done <<<"$rows"
  [ ${#missing[@]} -gt 0 ] || continue
  fetch_checked "$OUT/debs" "$file|$sum|$url"
  for row in "${missing[@]}"; do
    IFS=$'\t' read -r id path sha <<<"$row"
    dest="$OUT/clips/$id.$(ext_of "$path")"
    echo "unpacking $id from $file" >&2
    dpkg-deb --fsys-tarfile "$OUT/debs/$file" | tar -xO "./$path" >"$dest.part"
    echo "$sha  $dest.part" | sha256sum -c --quiet - || { echo "$id: checksum mismatch ($path in $file)" >&2; exit 1; }
    mv "$dest.part" "$dest"
  done
done

rows=$(($(wc -l <"$MANIFEST") - 1))
[ "$total" -eq "$rows" ] || { echo "$MANIFEST: $rows clips, but only $total are in a pinned package above" >&2; exit 1; }
echo "$total clips in $OUT/clips (labels: data/footage/labels/<id>.tsv)"
