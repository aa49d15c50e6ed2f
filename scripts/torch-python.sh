# Sourced by the EfficientNet scripts (convert-efficientnet-lite0.sh, fetch-backbone-frames.sh,
# check-backbone.sh): sets PY to a Python that has PyTorch, NumPy and Pillow (and, for
# bench-backbone-peers.py, ONNX and ONNX Runtime).
#
# PYTHON=/path/to/python uses that interpreter as it is. Otherwise a virtual environment is
# made once in .build/torchenv (TORCH_VENV= overrides) and the pinned packages below are
# installed into it from PyPI. PyTorch from PyPI is large (its Linux wheel pulls in the CUDA
# libraries, a few GB); a CPU-only torch that is already installed can be used with PYTHON=.
TORCH_PACKAGES=(torch==2.15.0 numpy==2.4.6 pillow==13.0.0 onnx==1.23.2 onnxruntime==1.32.0)

torch_python() {
  if [ -n "${PYTHON:-}" ]; then
    PY=$PYTHON
  else
    local venv=${TORCH_VENV:-.build/torchenv}
    if [ ! -f "$venv/.complete" ]; then
      command -v python3 >/dev/null || { echo "python3 is needed" >&2; return 1; }
      echo "making $venv (PyTorch, NumPy, Pillow, ONNX Runtime; once)" >&2
      python3 -m venv "$venv"
      "$venv/bin/pip" install --quiet "${TORCH_PACKAGES[@]}"
      touch "$venv/.complete"
    fi
    PY=$venv/bin/python
  fi
  "$PY" -c 'import torch, numpy, PIL' || { echo "$PY lacks torch, numpy or Pillow" >&2; return 1; }
}
