#!/usr/bin/env bash
# Prints the SHA-256 and card version (model_version) of every default model leamoji has shipped
# (each commit that changed Models/leamoji.safetensors), oldest first: the table of
# ShippedModels (Sources/LeamojiTimeline/HeadsUp/ModelCheck.swift), which tells the heads-up
# which version an older timeline's model was. A model without a version is printed as "-".
set -euo pipefail
cd "$(dirname "$0")/.."
tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT
for commit in $(git log --reverse --format=%h -- Models/leamoji.safetensors); do
  git show "$commit:Models/leamoji.safetensors" > "$tmp"
  sha="$(sha256sum "$tmp" | cut -c1-64)"
  version="$(python3 - "$tmp" <<'PY'
import json, struct, sys
with open(sys.argv[1], "rb") as f:
    (length,) = struct.unpack("<Q", f.read(8))
    header = json.loads(f.read(length))
print(header.get("__metadata__", {}).get("model_version", "-"))
PY
)"
  echo "$commit $sha $version"
done
