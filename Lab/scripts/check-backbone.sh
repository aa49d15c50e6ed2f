#!/usr/bin/env bash
# Checks leamoji's EfficientNet-Lite0 against the independent PyTorch reference on real frames:
# the reference (scripts/efficientnet_reference.py, the original .pth with its batch norms)
# and `leamoji classify --json --model Models/efficientnet-lite0.safetensors` each compute the
# 1000 logits of every frame of Lab/scripts/fetch-backbone-frames.sh (48 photos and video frames,
# 224x224); Lab/scripts/compare_backbone_logits.py prints the largest |difference| per frame,
# whether the top-1 classes agree, and a summary line, and fails past 1e-3 or on a top-1
# disagreement.
#
# Usage: Lab/scripts/check-backbone.sh LEAMOJI_BIN [MODEL]
# Environment: PYTHON (a Python with torch, numpy, Pillow; default: the venv of
# torch-python.sh), FRAMES (default .build/backbone-frames), TOLERANCE (default 1e-3).
set -euo pipefail

cd "$(dirname "$0")/../.."
[ $# -ge 1 ] || { echo "usage: $0 LEAMOJI_BIN [MODEL]" >&2; exit 2; }
BIN=$1
MODEL=${2:-Models/efficientnet-lite0.safetensors}
FRAMES=${FRAMES:-.build/backbone-frames}
[ -x "$BIN" ] || { echo "no leamoji binary at $BIN" >&2; exit 1; }
[ -f "$MODEL" ] || { echo "$MODEL: no such model file" >&2; exit 1; }
source scripts/torch-python.sh
source Lab/scripts/efficientnet-sources.sh
torch_python
efficientnet_sources
[ -n "$(ls "$FRAMES"/*.png 2>/dev/null)" ] || Lab/scripts/fetch-backbone-frames.sh "$FRAMES"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
frames=("$FRAMES"/*.png)
"$PY" scripts/efficientnet_reference.py --pth "$PTH" --png "${frames[@]}" >"$WORK/reference.json"
"$BIN" classify --json --model "$MODEL" "${frames[@]}" >"$WORK/leamoji.jsonl"
"$PY" Lab/scripts/compare_backbone_logits.py "$WORK/reference.json" "$WORK/leamoji.jsonl" "$MODEL" \
  --tolerance "${TOLERANCE:-1e-3}"
