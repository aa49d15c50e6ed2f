#!/usr/bin/env bash
# Remakes Tests/LeamojiCLITests/Fixtures/backbone/: four 224x224 frames whose licences let them
# be committed (scikit-image 0.26.0's chelsea, coffee and camera, CC0, and rocket, public
# domain; see the folder's README.md) and expected-logits.json, the PyTorch reference's
# logits for them (scripts/efficientnet_reference.py on the original .pth, batch norms unfolded),
# with each frame's top-1 class index and name.
#
# The frames are the ones Lab/scripts/fetch-backbone-frames.sh makes (centred square, Pillow
# bicubic resize); the output is the same on every run.
# Usage: scripts/make-backbone-fixture.sh
# Environment: PYTHON (default: the venv of torch-python.sh).
set -euo pipefail

cd "$(dirname "$0")/.."
source scripts/torch-python.sh
source Lab/scripts/efficientnet-sources.sh
torch_python
efficientnet_sources
FRAMES=.build/backbone-frames
DEST=Tests/LeamojiCLITests/Fixtures/backbone
Lab/scripts/fetch-backbone-frames.sh "$FRAMES" 224 >/dev/null
mkdir -p "$DEST"
names=()
for name in chelsea coffee camera rocket; do
  cp "$FRAMES/skimage-$name.png" "$DEST/$name.png"
  names+=("$DEST/$name.png")
done
"$PY" scripts/efficientnet_reference.py --pth "$PTH" --labels "$LABELS_WHEEL" --expected \
  --png "${names[@]}" >"$DEST/expected-logits.json"
du -ch "$DEST"/* | tail -1
